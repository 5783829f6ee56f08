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

POLICY = b"trusted.exec_folio_size"


def escape(b):
    out = []
    for c in b:
        if c == 0x5c:
            out.append("\\\\")
        elif c == 0x0a:
            out.append("\\n")
        elif c == 0x09:
            out.append("\\t")
        elif c < 0x20 or c >= 0x7f:
            out.append("\\x%02x" % c)
        else:
            out.append(chr(c))
    return "".join(out)


def xattrs(p):
    try:
        names = os.listxattr(p, follow_symlinks=False)
    except OSError:
        return {}
    out = {}
    for n in names:
        n = n.encode()
        if n.split(b".")[0] not in (b"user", b"trusted", b"security"):
            continue
        out[n] = os.getxattr(p, n, follow_symlinks=False)
    return out


def same_content(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def walk(top):
    out = {b"": os.lstat(top)}
    for d, dirnames, filenames in os.walk(top):
        for n in dirnames + filenames:
            p = os.path.join(d, n)
            out[os.path.relpath(p, top)] = os.lstat(p)
    return out


def main():
    src, mnt = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
    with open(sys.argv[3], encoding="latin-1") as f:
        report = f.read().splitlines()
    policies = {}
    with open(sys.argv[4], encoding="latin-1") as f:
        for line in f:
            rel, value = line.rstrip("\n").rsplit(" ", 1)
            policies[rel] = value.encode()
    problems = []
    checked = 0

    def reported(rel, what):
        prefix = (escape(rel) if rel else ".") + ": "
        return any(l.startswith(prefix) and what in l[len(prefix):]
                   for l in report)

    def problem(rel, msg):
        problems.append("%s: %s" % (escape(rel) or ".", msg))

    s_all, m_all = walk(src), walk(mnt)
    for rel in sorted(m_all):
        if rel not in s_all:
            problem(rel, "in the image, not in the source")
    for rel in sorted(s_all):
        ss = s_all[rel]
        sp, mp = os.path.join(src, rel), os.path.join(mnt, rel)
        if rel not in m_all:
            if not (stat.S_ISSOCK(ss.st_mode) and
                    reported(rel, "socket not created")):
                problem(rel, "missing from the image, not reported")
            continue
        ms = m_all[rel]
        checked += 1
        if rel == b"":
            if stat.S_IMODE(ss.st_mode) != stat.S_IMODE(ms.st_mode):
                problem(rel, "root mode %o, image %o" %
                        (ss.st_mode, ms.st_mode))
            continue
        for field in ("st_mode", "st_uid", "st_gid", "st_mtime_ns"):
            if field == "st_mtime_ns" and reported(rel, "mtime out of"):
                continue
            if getattr(ss, field) != getattr(ms, field):
                problem(rel, "%s %s, image %s" % (
                    field, getattr(ss, field), getattr(ms, field)))
        if stat.S_ISREG(ss.st_mode):
            if ss.st_size != ms.st_size or not same_content(sp, mp):
                problem(rel, "content differs")
        elif stat.S_ISLNK(ss.st_mode):
            if os.readlink(sp) != os.readlink(mp):
                problem(rel, "symlink target %r, image %r" %
                        (os.readlink(sp), os.readlink(mp)))
        elif stat.S_ISCHR(ss.st_mode) or stat.S_ISBLK(ss.st_mode):
            if ss.st_rdev != ms.st_rdev:
                problem(rel, "device %x, image %x" %
                        (ss.st_rdev, ms.st_rdev))
        sx, mx = xattrs(sp), xattrs(mp)
        want_policy = policies.get(escape(rel))
        if want_policy is not None:
            sx[POLICY] = want_policy
        for name in sorted(set(sx) | set(mx)):
            if sx.get(name) == mx.get(name):
                continue
            if name not in mx and reported(
                    rel, "xattr %s not copied" % name.decode("latin-1")):
                continue
            problem(rel, "xattr %r: source %r, image %r" %
                    (name, sx.get(name), mx.get(name)))
    for p in problems:
        print(p)
    print("compared %d entries, %d policies, %d problems" %
          (checked, len(policies), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
