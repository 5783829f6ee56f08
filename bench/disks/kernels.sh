# SPDX-License-Identifier: GPL-2.0-or-later
#
# The disk of the kernel benchmarks (bench/bench-kernels.sh), a recipe of
# tests/vm/harness/mkdisk.sh: the Debian arm64 package tree
# build/bench/arm64-tree (tests/workloads/debian-tree.sh: nginx,
# apache2-utils, redis, gcc, make, coreutils...) twice, as plain/ (no
# xattrs) and tagged/ (the shared libraries tagged 64k), each with what the
# workloads need: an nginx configuration and page, the boot script
# (etc/bench/boot.sh) and the C sources of this project's lib/ with a
# Makefile (src/).
tree=$build/bench/arm64-tree

disk_inputs() {
	for f in usr/sbin/nginx usr/bin/ab usr/bin/redis-server usr/bin/gcc-12 usr/bin/make; do
		disk_need "$tree/$f" "make the tree with make bench-tree"
	done
	cat "$top"/lib/*.c "$top"/lib/*.h "$top"/include/execfolio/*.h | sha256sum
	disk_tree "$tree"
}

disk_stage() {
	p=$stage/plain
	cp -a "$tree" "$p"
	mkdir -p "$p/etc/bench" "$p/var/www/bench" "$p/var/lib/nginx" \
		"$p/var/log/nginx" "$p/var/lib/redis" "$p/src/lib" "$p/src/include"

	cat >"$p/etc/bench/nginx.conf" <<'EOF'
worker_processes 2;
pid /run/nginx-bench.pid;
error_log /var/log/nginx/error.log;
events { worker_connections 256; }
http {
	access_log off;
	server {
		listen 127.0.0.1:8080;
		root /var/www/bench;
	}
}
EOF
	awk 'BEGIN { print "<html><body>"
		for (i = 0; i < 60; i++) print "<p>execfolio benchmark page, line " i "</p>"
		print "</body></html>" }' >"$p/var/www/bench/index.html"

	# A boot to a shell, the way an init script goes: coreutils, procps and
	# findutils at work, then two daemons started and answering, then a shell.
	cat >"$p/etc/bench/boot.sh" <<'EOF'
#!/bin/sh
set -e
mkdir -p /run/bench /var/log/bench
uname -a >/run/bench/uname
id >/run/bench/id
date >/run/bench/date
cut -d: -f1 /etc/passwd | sort | uniq | wc -l >/run/bench/users
ls -la /etc /usr/bin >/run/bench/ls
stat /etc/passwd >/dev/null
cp /etc/group /run/bench/group
chmod 600 /run/bench/group
ln -sf /run/bench/group /run/bench/group.link
readlink -f /run/bench/group.link >/dev/null
mv /run/bench/group /run/bench/group.old
rm -f /run/bench/group.old /run/bench/group.link
head -n 2 /etc/passwd | tail -n 1 | tr a-z A-Z | tee /run/bench/tee >/dev/null
seq 1 200 | sort -n -r | head -n 1 >/dev/null
expr 6 \* 7 >/dev/null
basename /usr/bin/env >/dev/null
dirname /usr/bin/env >/dev/null
env >/run/bench/env
sha256sum /etc/passwd /etc/group >/run/bench/sums
md5sum /etc/passwd | base64 >/dev/null
od -An -tx1 /etc/hostname 2>/dev/null >/dev/null || true
find /etc -name '*.conf' >/run/bench/conf
grep -r root /etc/passwd /etc/group >/dev/null
sed -e 's/root/admin/' /etc/passwd >/dev/null
echo /etc/passwd | xargs wc -l >/dev/null
df >/dev/null 2>&1 || true
touch /run/bench/stamp
mktemp >/dev/null
sleep 0.1
ps -e >/run/bench/ps
free >/dev/null
uptime >/dev/null
redis-server --daemonize yes --port 6379 --bind 127.0.0.1 --save '' \
	--appendonly no --logfile /var/log/bench/redis.log
nginx -c /etc/bench/nginx.conf
i=0
until redis-cli ping 2>/dev/null | grep -q PONG && [ -s /run/nginx-bench.pid ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || exit 1
	sleep 0.2
done
sh -c 'echo shell ready'
EOF
	chmod 0755 "$p/etc/bench/boot.sh"

	cp "$top"/lib/*.c "$top"/lib/*.h "$p/src/lib/"
	cp -r "$top/include/execfolio" "$p/src/include/"
	cat >"$p/src/Makefile" <<'EOF'
# libexecfolio, built by Debian's arm64 gcc in the benchmark guest.
CFLAGS = -O2 -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iinclude
OBJS = $(patsubst %.c,%.o,$(wildcard lib/*.c))
libexecfolio.a: $(OBJS)
	ar rcs $@ $(OBJS)
%.o: %.c
	gcc $(CFLAGS) -c -o $@ $<
EOF

	cp -a "$p" "$stage/tagged"
	disk_rule 'tagged/*.so=64k'
	disk_rule 'tagged/*.so.[0-9]*=64k'
	disk_size=2g
}
