#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# debian-tree.sh ARCH OUTDIR PACKAGE...
#
# Unpacks Debian packages of another architecture, with every package they
# depend on, into OUTDIR: a tree to chroot into inside a guest of that
# architecture (the seed's workloads, redis and nginx, run that way). No
# maintainer scripts run; the few files they would make (users, groups) are
# written here. Downloads are kept in build/debs/ARCH and reused.
set -eu

[ $# -ge 3 ] || { echo "usage: $0 ARCH OUTDIR PACKAGE..." >&2; exit 2; }
arch=$1
out=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=$top/build/debs/$arch
me=debian-tree

if ! dpkg --print-foreign-architectures | grep -qx "$arch" &&
	[ "$arch" != "$(dpkg --print-architecture)" ]; then
	[ "$(id -u)" = 0 ] || { echo "$me: run as root to add architecture $arch" >&2; exit 1; }
	echo "$me: adding dpkg architecture $arch"
	dpkg --add-architecture "$arch"
	apt-get update -q
fi
if ! apt-cache show "libc6:$arch" > /dev/null 2>&1; then
	apt-get update -q
fi

# Packages needed only by maintainer scripts, which never run here (iproute2:
# by nginx-common's init script; its tc plugins need libraries it lacks),
# unless named on the command line (fstests' guest wants perl and tar).
skip='iproute2|adduser|passwd|login|perl|perl-base|perl-modules-[0-9.]+|libperl[0-9.]+|debconf|debconf-2.0|cdebconf|dpkg|init-system-helpers|lsb-base|sensible-utils|logrotate|cron|libpam-.*|libpam0g|libsemanage.*|libaudit.*|tar|base-files'

# The dependency closure, without recommends/suggests; virtual packages and
# alternatives resolve to what apt would pick first.
pkgs=$(printf '%s:'"$arch"' ' "$@")
# shellcheck disable=SC2086
closure=$(apt-cache depends --recurse --no-recommends --no-suggests \
	--no-conflicts --no-breaks --no-replaces --no-enhances $pkgs 2> /dev/null |
	awk -v a=":$arch" '/^[a-z0-9]/ { n = $1; sub(/:.*/, "", n); print n a }' |
	sort -u | awk -v skip="^($skip):" -v named=" $pkgs" '
		!($0 ~ skip) || index(named, " " $0 " ")')
[ -n "$closure" ] || { echo "$me: cannot resolve $*" >&2; exit 1; }

mkdir -p "$cache" "$out"
missing=
for p in $closure; do
	name=${p%:*}
	# Virtual packages have no candidate version: skip them.  Packages of
	# architecture all (perl-modules, libpam-runtime) have none as
	# NAME:ARCH either, but one under their bare name: taken when named.
	ver=$(apt-cache policy "$p" | awk '/Candidate:/ { print $2 }')
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		case " $pkgs" in *" $p "*) ;; *) continue ;; esac
		apt-cache show --no-all-versions "$name" 2>/dev/null |
			grep -qx 'Architecture: all' || continue
		p=$name
	fi
	have=
	for deb in "$cache/${name}_"*"_$arch.deb" "$cache/${name}_"*"_all.deb"; do
		[ -f "$deb" ] && have=1
	done
	[ -n "$have" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "$me: downloading$missing"
	# shellcheck disable=SC2086
	# apt's _apt user must be able to write the download directory.
	chown _apt "$cache" 2> /dev/null || true
	(cd "$cache" && apt-get download -q $missing)
fi

for p in $closure; do
	name=${p%:*}
	for deb in "$cache/${name}_"*"_$arch.deb" "$cache/${name}_"*"_all.deb"; do
		[ -f "$deb" ] && dpkg -x "$deb" "$out"
	done
done

# Every shared library an ELF file of the tree needs must be in the tree.
need=$(find "$out" -type f \( -perm -u+x -o -name '*.so*' \) -exec \
	readelf -dW {} + 2> /dev/null |
	sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
for lib in $need; do
	if [ -z "$(find "$out" -name "$lib" -print -quit)" ]; then
		echo "$me: $lib is needed but not in the tree" >&2
		exit 1
	fi
done

# What maintainer scripts would have made.
mkdir -p "$out/etc" "$out/tmp" "$out/var/run" "$out/run" "$out/dev" "$out/proc" "$out/sys"
chmod 1777 "$out/tmp"
cat > "$out/etc/passwd" << 'EOF2'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
redis:x:100:101::/var/lib/redis:/usr/sbin/nologin
www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF2
cat > "$out/etc/group" << 'EOF2'
root:x:0:
daemon:x:1:
www-data:x:33:
redis:x:101:
nogroup:x:65534:
EOF2
echo "$me: $(echo "$closure" | wc -w) packages unpacked into $out"
