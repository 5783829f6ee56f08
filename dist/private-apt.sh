# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Sourced by dist/fetch-kernel-source and dist/fetch-debs: apt-get with a
# private sources list, lists and cache in a work directory, for packages
# of a Debian suite that the machine's own apt sources do not carry.  The
# system's apt configuration is left alone, and apt still checks the
# suite's signature against Debian's archive keyring.  The caller sets
# $tool (its name, for messages) and calls die() of its own.

# Creates $work (removed on exit) and its sources.list for SUITE.
private_apt_setup() { # SUITE
	mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] || die "$keyring not found: install debian-archive-keyring"
	work=$(mktemp -d "/tmp/$tool.XXXXXX")
	# shellcheck disable=SC2064 # the directory is known now
	trap "rm -rf '$work'" EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/deb"
	echo "deb [signed-by=$keyring] $mirror $1 main" >"$work/sources.list"
}

private_apt() { # APT-GET-ARGUMENTS...
	sandbox=
	[ "$(id -u)" != 0 ] || sandbox="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2086 # $sandbox is an option or nothing
	apt-get -q -o Dir::Etc::sourcelist="$work/sources.list" \
		-o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/lists" \
		-o Dir::Cache="$work/cache" -o APT::Architectures::="$(dpkg --print-architecture)" \
		$sandbox "$@"
}

# Downloads PACKAGEs of SUITE (the versions its lists name) into
# $work/deb, dying with apt's own output on failure.
private_apt_download() { # SUITE PACKAGE...
	suite=$1
	shift
	echo "$tool: $* from $suite (private apt lists in $work)"
	private_apt update >"$work/update.log" 2>&1 || {
		cat "$work/update.log" >&2
		die "apt-get update of $suite failed (network, mirror or signature): see above"
	}
	(cd "$work/deb" && private_apt download "$@") >"$work/download.log" 2>&1 || {
		cat "$work/download.log" >&2
		die "could not download $* from $suite"
	}
}
