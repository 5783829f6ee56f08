#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mkfs-proto.py TREE PROTOFILE
#
# The mkfs.xfs protofile of TREE for plain `mkfs.xfs -p` in the mkfs
# benchmark: directories, regular files and symlinks with their modes and
# owners. Names must be ones a protofile can carry (the benchmark's trees
# have no others).
import os
import stat
import sys


def entries(f, d):
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        st = os.lstat(p)
        if stat.S_ISDIR(st.st_mode):
            kind, content = "d", ""
        elif stat.S_ISLNK(st.st_mode):
            kind, content = "l", " " + os.readlink(p)
        elif stat.S_ISREG(st.st_mode):
            kind, content = "-", " " + os.path.abspath(p)
        else:
            continue
        f.write("%s %s--%03o %d %d%s\n" % (n, kind, st.st_mode & 0o777,
                                           st.st_uid, st.st_gid, content))
        if kind == "d":
            entries(f, p)
            f.write("$\n")


def main():
    tree, out = sys.argv[1], sys.argv[2]
    st = os.stat(tree)
    with open(out, "w") as f:
        f.write("bench\n0 0\nd--%03o %d %d\n" %
                (st.st_mode & 0o777, st.st_uid, st.st_gid))
        entries(f, tree)
        f.write("$\n")


main()
