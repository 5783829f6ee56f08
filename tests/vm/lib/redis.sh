# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest redis-server, measured under redis-benchmark
# (/tests/lib/redis.sh).  redis-server listens on a Unix socket in its
# tree, no TCP port: the test kernels have no TCP/IP
# (fs/config/release.config).
. /tests/lib/counters.sh
. /tests/lib/measure.sh

REDIS_SOCKET=/tmp/redis.sock

# redis-server chrooted into ROOT: run it in the background (&), where it
# takes the place of the subshell, so that $! is its pid.
redis_server() { # ROOT
	exec chroot "$1" /usr/bin/redis-server --port 0 --unixsocket "$REDIS_SOCKET" \
		--save '' --appendonly no --daemonize no
}

# redis-cli ARG... chrooted into ROOT, on that socket.
redis_cli() { # ROOT ARG...
	_root=$1
	shift
	chroot "$_root" /usr/bin/redis-cli -s "$REDIS_SOCKET" "$@"
}

# Run redis-server chrooted into ROOT (a Debian tree, see
# tests/workloads/debian-tree.sh) under redis-benchmark, measure it into
# FILE (and the table into FILE less .json plus .txt) and stop it.
# Leaves "READ CACHED" of the run in $delta and the benchmark's summary
# in /tmp/redis-bench.out.  REDIS_REQUESTS requests per test.
run_redis() { # ROOT FILE
	root=$1
	mount -t proc proc "$root/proc"
	mount -t devtmpfs devtmpfs "$root/dev"
	counters_start
	rm -f "$root$REDIS_SOCKET"
	redis_server "$root" >/tmp/redis-server.log 2>&1 &
	pid=$!
	i=0
	# redis-cli maps the same libraries: it starts once the server has
	# made its socket, long after the server mapped them, not beside it
	# (two processes mapping a library for the first time at once are
	# not what this measures; redis.sh's first_mapper has none).
	until [ -S "$root$REDIS_SOCKET" ] || [ $i -ge 600 ] || ! kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	i=0
	until redis_cli "$root" ping 2>/dev/null | grep -q PONG; do
		i=$((i + 1))
		if [ $i -ge 120 ] || ! kill -0 $pid 2>/dev/null; then
			sed -e 's/^/# redis-server: /' /tmp/redis-server.log
			kill $pid 2>/dev/null
			wait $pid 2>/dev/null
			umount "$root/dev" "$root/proc"
			return 1
		fi
		sleep 0.5
	done
	chroot "$root" /usr/bin/redis-benchmark -s "$REDIS_SOCKET" -q \
		-n "${REDIS_REQUESTS:-10000}" -c 20 -t set,get,incr,lpush,lpop 2>&1 | tr '\r' '\n' |
		grep 'requests per second' >/tmp/redis-bench.out
	stat_json "$2" $pid
	execfolio stat $pid >"${2%.json}.txt"
	delta=$(counters_delta)
	text_mappings $pid
	redis_cli "$root" shutdown nosave >/dev/null 2>&1 ||
		kill $pid
	wait $pid 2>/dev/null
	umount "$root/dev" "$root/proc"
	return 0
}
