#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""compare_tree.py SOURCE MOUNTED REPORT POLICIES

Compares a mounted mkfs.execfolio image with its source tree: the same
entries, types, modes (setuid, setgid and sticky bits included), owners,
modification times, file contents, symlink targets, device numbers and
xattrs. A difference is allowed only where REPORT (the tool's --report file)
names the path and the reason: a socket not created, an xattr not copied.
trusted.exec_folio_size must be on exactly the files POLICIES (the tool's
--dry-run output) lists, with that value. Prints each problem; exit 1 if any.
"""
import os
import stat
import sys

from treecmp import Comparison, copied_xattrs, read_policies, walk


def main():
    src, mnt = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
    cmp = Comparison(sys.argv[3])
    policies = read_policies(sys.argv[4])
    s_all, m_all = walk(src), walk(mnt)
    checked = 0
    for rel in cmp.entries({r: s.st_mode for r, s in s_all.items()}, m_all):
        ss, ms = s_all[rel], m_all[rel]
        sp, mp = os.path.join(src, rel), os.path.join(mnt, rel)
        checked += 1
        if rel == b"":
            if stat.S_IMODE(ss.st_mode) != stat.S_IMODE(ms.st_mode):
                cmp.problem(rel, "root mode %o, image %o" %
                            (ss.st_mode, ms.st_mode))
            continue
        for field in ("st_mode", "st_uid", "st_gid", "st_mtime_ns"):
            if field == "st_mtime_ns" and cmp.reported(rel, "mtime out of"):
                continue
            if getattr(ss, field) != getattr(ms, field):
                cmp.problem(rel, "%s %s, image %s" % (
                    field, getattr(ss, field), getattr(ms, field)))
        if stat.S_ISREG(ss.st_mode):
            cmp.content(rel, ss.st_size, sp, ms, mp)
        elif stat.S_ISLNK(ss.st_mode):
            cmp.symlink(rel, os.readlink(sp), mp)
        elif stat.S_ISCHR(ss.st_mode) or stat.S_ISBLK(ss.st_mode):
            cmp.device(rel, ss.st_rdev, ms)
        cmp.xattrs(rel, copied_xattrs(sp), copied_xattrs(mp), policies)
    return cmp.finish("%d entries, %d policies" % (checked, len(policies)))


if __name__ == "__main__":
    sys.exit(main())
