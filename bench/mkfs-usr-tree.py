#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs-usr-tree.py SRC DEST BYTES
#
# Copies real files from SRC (/usr) to DEST for the mkfs benchmark: every
# k-th directory of SRC (in sorted walk order) with its regular files and
# symlinks, k chosen so that about BYTES of file data are copied, files
# past BYTES left out. Directories keep their own mix of files (ELF
# programs and libraries, scripts, data), so the tree is a sample of SRC
# as a whole. Only what an unprivileged user could copy is copied: files
# others may read, with names and symlink targets a mkfs.xfs protofile
# can carry (plain mkfs.xfs -p gets the same tree). Prints what it copied.
import os
import stat
import sys


def proto_safe(s):
    return s and not any(c.isspace() or c in "\\$:" for c in s)


def main():
    src, dest, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
    dirs = []
    total = 0
    for d, subdirs, names in os.walk(src):
        subdirs.sort()
        entries = []
        for n in sorted(names):
            p = os.path.join(d, n)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_mode & 0o004:
                total += st.st_size
            elif not stat.S_ISLNK(st.st_mode):
                continue
            entries.append((p, st))
        if entries:
            dirs.append(entries)
    stride = max(1, total // limit)
    copied = files = links = 0
    for entries in dirs[::stride]:
        for p, st in entries:
            rel = os.path.relpath(p, src)
            if not proto_safe(rel) or rel.startswith("-"):
                continue
            out = os.path.join(dest, rel)
            try:
                if stat.S_ISLNK(st.st_mode):
                    target = os.readlink(p)
                    if not proto_safe(target):
                        continue
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    os.symlink(target, out)
                    links += 1
                    continue
                if copied + st.st_size > limit:
                    continue
                with open(p, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(data)
            os.chmod(out, st.st_mode & 0o777)
            copied += len(data)
            files += 1
    print("%d files, %d symlinks, %d bytes (one directory in %d of %s)" %
          (files, links, copied, stride, src))


main()
