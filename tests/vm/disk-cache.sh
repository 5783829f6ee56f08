# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the scripts that make a disk image from a staging tree and keep
# it while its inputs are unchanged (suite-disk.sh, fidelity-disk.sh):
#
#   key=$({ INPUTS... } | disk_cache_key)
#   disk_cache_current "$image" "$key" && exit 0
#   disk_cache_stage "$image"     # empty $stage (IMAGE.root)
#   ... fill $stage, make $image from it ...
#   disk_cache_finish "$image" "$key"
#
# The key is written last, so an image whose build failed half way is never
# taken as current.

# The key of what is read on stdin (the inputs: file hashes, listings).
disk_cache_key() { sha256sum | cut -d' ' -f1; }

# A listing of the tree DIR for a key: every path with its size, mtime and
# mode, so that a changed, added or removed file changes the key.
disk_cache_tree() { # DIR
	(cd "$1" && find . -printf '%p %s %T@ %m\n' | sort)
}

# Whether IMAGE exists and was made from the inputs of KEY.
disk_cache_current() { # IMAGE KEY
	[ -f "$1" ] && [ "$(cat "$1.key" 2>/dev/null)" = "$2" ]
}

# Remove IMAGE and its key and make an empty staging directory for its new
# contents: $stage, IMAGE.root.
disk_cache_stage() { # IMAGE
	stage=$1.root
	rm -rf "$stage" "$1" "$1.key"
	mkdir -p "$stage"
}

# IMAGE is complete: remove its staging directory and record KEY.
disk_cache_finish() { # IMAGE KEY
	rm -rf "$1.root"
	echo "$2" >"$1.key"
}
