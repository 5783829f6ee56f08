#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""prop_tree.py: the property test of mkfs.execfolio (mkfs_property.sh).

  prop_tree.py gen SEED DIR SNAPSHOT
      As root, a random source tree in DIR that an unprivileged user can
      read; its lstat() fields and xattrs, as root sees them, in SNAPSHOT
      (taken before any build reads the tree, so that atimes are the ones
      mkfs.execfolio must keep). Prints the mkfs.execfolio options and the
      mkfs.xfs options chosen for the seed, one line each.

  prop_tree.py compare SNAPSHOT SOURCE MOUNTED REPORT POLICIES STDERR
      The mounted image against the snapshot, field by field. A difference
      is allowed only where REPORT (--report) or a warning in STDERR (the
      build's) announces it. Prints each problem; exit 1 if any.

  prop_tree.py baddev SEED DIR
      A tree with one device number XFS cannot keep; prints its path.

The tree: names of 1 to 255 bytes with blanks, tabs, newlines, control
characters, UTF-8 and bytes that are no UTF-8; directories small enough
for the inode and large enough for XFS's block, leaf and node forms;
regular files empty, small, sparse and large; hard links; fifos, sockets,
character and block devices up to the largest numbers XFS keeps; symlinks
of 1 to 1023 bytes (XFS's most); user.* and trusted.* xattrs (trusted.exec_folio_size
among them); modes with setuid, setgid and sticky bits; owners and groups;
access and modification times from 1901 to 2446, to the nanosecond.
"""
import os
import pickle
import random
import socket
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from treecmp import (POLICY, Comparison, all_xattrs,  # noqa: E402
                     read_policies, walk)

POLICY_VALUES = [b"4k", b"16k", b"64k", b"2m", b"none"]
# What XFS keeps of a device number (mkfs/check.c).
DEV_MAJOR_MAX, DEV_MINOR_MAX = 511, 262143
# What Linux's dev_t holds.
KDEV_MAJOR_MAX, KDEV_MINOR_MAX = 4095, 1048575
UTF8 = ["é", "ß", "日本語", "🙂", "\u00a0", "\u200b", "ü", "Ω"]
PUNCT = b":$\\#'\"-*?[]{}()!%&;<>|=~`^,@+"


class Gen:
    def __init__(self, seed, top):
        self.rng = random.Random(seed)
        self.top = os.fsencode(top)
        self.files = []  # regular files, for hard links
        self.dirs = [self.top]
        self.sockets = []

    # ---- names --------------------------------------------------------

    def piece(self):
        r = self.rng.random()
        if r < 0.45:
            return bytes(self.rng.choice(b"abcdefghijklmnopqrstuvwxyz"
                                         b"0123456789_.")
                         for _ in range(self.rng.randint(1, 8)))
        if r < 0.55:
            return self.rng.choice([b" ", b"  ", b"\t", b"\n"])
        if r < 0.65:
            return bytes([self.rng.randint(1, 31)])
        if r < 0.78:
            return self.rng.choice(UTF8).encode()
        if r < 0.88:
            return bytes([self.rng.randint(0x80, 0xff)])
        return bytes([self.rng.choice(PUNCT)])

    def weird_name(self):
        r = self.rng.random()
        if r < 0.3:
            length = self.rng.randint(1, 6)
        elif r < 0.75:
            length = self.rng.randint(7, 40)
        elif r < 0.9:
            length = self.rng.randint(41, 200)
        else:
            length = self.rng.randint(201, 255)
        name = b""
        while len(name) < length:
            name += self.piece()
        name = name[:length]
        if name in (b".", b".."):
            name = b"x" + name
        return name

    def new_name(self, d, taken, weird=1.0):
        while True:
            if self.rng.random() < weird:
                name = self.weird_name()
            else:
                name = b"e%d" % self.rng.randrange(10**7)
            if name not in taken:
                taken.add(name)
                return os.path.join(d, name)

    # ---- attributes ---------------------------------------------------

    def owner(self, p):
        os.chown(p, self.rng.choice([0, 1, 1000, 65534, 123456, 2**31]),
                 self.rng.choice([0, 2, 1000, 65534, 654321]),
                 follow_symlinks=False)

    def when(self):
        if self.rng.random() < 0.1:
            # The ends of what ext4 and XFS with bigtime keep.
            sec = self.rng.choice([-(2**31), -(2**31) + 1, 0, 2**31 - 1,
                                   2**31, 2**34 - 2**25])
        else:
            sec = self.rng.randint(-(2**31), 2**33)
        return sec * 10**9 + self.rng.randrange(10**9)

    def times(self, p):
        os.utime(p, ns=(self.when(), self.when()), follow_symlinks=False)

    def xattrs(self, p, kind):
        """user.* where Linux allows them (files and directories)."""
        if kind in ("reg", "dir") and self.rng.random() < 0.25:
            count = self.rng.choice([1, 1, 2, 3, 10])
            # ext4 keeps all xattrs of a file in one 4K block.
            for i in range(count):
                size = self.rng.choice([1, 7, 40, 100, 250,
                                        self.rng.randint(1, 2000 // count)])
                name = b"user.a%d" % i
                if self.rng.random() < 0.2:
                    name += bytes(self.rng.choice(b"abc._-:+=@")
                                  for _ in range(self.rng.randint(1, 40)))
                os.setxattr(p, name, self.rng.randbytes(size),
                            follow_symlinks=False)
        if self.rng.random() < 0.08:
            os.setxattr(p, b"trusted.k", self.rng.randbytes(
                self.rng.randint(1, 60)), follow_symlinks=False)
        if kind == "reg" and self.rng.random() < 0.15:
            os.setxattr(p, POLICY, self.rng.choice(POLICY_VALUES))

    # ---- entries ------------------------------------------------------

    def regular(self, p, small=False):
        r = self.rng.random()
        if small:
            r = r * 0.7
        with open(p, "wb") as f:
            if r < 0.15:
                pass
            elif r < 0.85:
                f.write(self.rng.randbytes(self.rng.choice(
                    [1, 100, 4095, 4096, 4097, 65536,
                     self.rng.randrange(1 << 18)])))
            elif r < 0.97:
                # Sparse: a few runs of data at random offsets, holes
                # between them and sometimes at the end.
                size = self.rng.randint(1 << 16, 8 << 20)
                for _ in range(self.rng.randint(1, 4)):
                    f.seek(self.rng.randrange(size))
                    f.write(self.rng.randbytes(self.rng.randint(1, 20000)))
                f.truncate(size)
            else:
                f.write(self.rng.randbytes(self.rng.randint(1 << 20,
                                                            6 << 20)))
        mode = self.rng.choice([0o644, 0o755, 0o4755, 0o2755, 0o6711,
                                0o444, 0o1644, 0o604, 0o4705])
        # Readable by the unprivileged builder, whoever owns it.
        os.chmod(p, mode | 0o444)
        self.files.append(p)
        return "reg"

    def large(self, d, taken):
        """Larger than an allocation group of the image's default size."""
        p = self.new_name(d, taken)
        with open(p, "wb") as f:
            chunk = self.rng.randbytes(1 << 20)
            for _ in range(self.rng.randint(90, 130)):
                f.write(chunk)
            f.write(self.rng.randbytes(self.rng.randrange(1 << 20)))
        os.chmod(p, 0o644)
        return p

    def symlink(self, p):
        r = self.rng.random()
        if r < 0.6:
            length = self.rng.randint(1, 60)
        elif r < 0.85:
            length = self.rng.randint(61, 336)
        else:
            length = self.rng.randint(337, 1023)  # XFS keeps 1023
        target = b""
        while len(target) < length:
            target += self.piece() if self.rng.random() < 0.7 else b"/"
        os.symlink(target[:length], p)
        return "lnk"

    def device(self, p):
        def pick(top):
            return self.rng.choice([0, 1, top, top - 1,
                                    self.rng.randint(0, top)])
        kind = self.rng.choice([stat.S_IFCHR, stat.S_IFBLK])
        os.mknod(p, kind | self.rng.choice([0o600, 0o640, 0o666, 0o4644]),
                 os.makedev(pick(DEV_MAJOR_MAX), pick(DEV_MINOR_MAX)))
        return "dev"

    def sock(self, p):
        d, name = os.path.split(p)
        if len(name) > 100:
            return None
        cwd = os.getcwd()
        os.chdir(d)
        try:
            s = socket.socket(socket.AF_UNIX)
            s.bind(name)
            s.close()
        finally:
            os.chdir(cwd)
        return "sock"

    def fill(self, d, count, weird, subdirs_too=True):
        taken = set()
        subdirs = []
        for _ in range(count):
            p = self.new_name(d, taken, weird)
            r = self.rng.random()
            if r < 0.6:
                kind = self.regular(p, not subdirs_too)
            elif r < 0.72:
                kind = self.symlink(p)
            elif r < 0.78:
                os.mkfifo(p, self.rng.choice([0o644, 0o600, 0o666]))
                kind = "fifo"
            elif r < 0.84:
                kind = self.device(p)
            elif r < 0.86:
                kind = self.sock(p)
                if kind is None:
                    continue
            elif (r < 0.94 or not subdirs_too) and self.files:
                os.link(self.rng.choice(self.files), p)
                continue
            elif not subdirs_too:
                continue
            else:
                os.mkdir(p)
                os.chmod(p, self.rng.choice([0o755, 0o1777, 0o2755,
                                             0o3775, 0o705]) | 0o555)
                subdirs.append(p)
                self.dirs.append(p)
                kind = "dir"
            self.xattrs(p, kind)
            self.owner(p)
            self.times(p)
        return subdirs, taken


def gen(seed, top, snap_path):
    g = Gen(seed, top)
    rng = g.rng
    os.makedirs(g.top)
    os.chmod(g.top, 0o755)
    # Directory sizes: short form, then XFS's block, leaf and node forms
    # (with 4K directory blocks: up to about 90, 450 and more entries).
    big = [rng.randint(30, 80), rng.randint(150, 450)]
    if rng.random() < 0.4:
        big.append(rng.randint(700, 1500))
    pending = [(g.top, 0)]
    bigdirs = []
    while pending:
        d, depth = pending.pop()
        if big and depth > 0 and rng.random() < 0.5:
            count = big.pop()
            bigdirs.append(d)
            # Mostly short plain names, to keep the run short.
            weird = 0.2
        else:
            count = rng.randint(0, 12 if depth < 3 else 4)
            weird = 1.0
        subdirs, taken = g.fill(d, count, weird, d not in bigdirs)
        if d in bigdirs:
            # The shortest awkward names, all next to each other in hash,
            # and four-byte ones whose first byte only blanks share hashes
            # with: few placeholders have their hash or one near it.
            for n in rng.sample([b"\t", b"\n", b"\v", b"\f", b"\r", b" ",
                                 b"  ", b"\t\t", b":", b"$", b"\\", b"\x01",
                                 b"\x1f", b" \x02", b"\x7f", b"\t \n",
                                 b"\v\n\nq", b"\f \t\n", b"\r:a$",
                                 b"\n\\\\x"],
                                rng.randint(0, 12)):
                if n not in taken:
                    taken.add(n)
                    g.regular(os.path.join(d, n), True)
        for s in subdirs:
            pending.append((s, depth + 1))
        if not pending and big:
            # Not placed yet: a new directory at the top.
            p = g.new_name(g.top, set(os.listdir(g.top)))
            os.mkdir(p)
            os.chmod(p, 0o755)
            pending.append((p, 1))
    if rng.random() < 0.4:
        g.large(g.top, set(os.listdir(g.top)))
    # Directory times last: adding entries changed them.
    for d in reversed(g.dirs):
        g.owner(d)
        g.times(d)
    snapshot(g.top, snap_path)
    # Policy options and mkfs.xfs options for this seed (an inode size
    # given must hold the longest symlink target: 2048 bytes).
    print(rng.choice(["", "--exec-folio-size 64k", "--auto",
                      "--rule *=16k --rule *.so*=none"]))
    print(rng.choice(["", "", "-m bigtime=0", "-n size=8192",
                      "-i size=2048", "-n size=16384"]))


def snapshot(top, path):
    """Reading directories and symlinks changes their atimes: put back."""
    snap = {}
    stats = walk(top)
    for rel, st in stats.items():
        p = os.path.join(top, rel) if rel else top
        snap[rel] = {
            "mode": st.st_mode, "uid": st.st_uid, "gid": st.st_gid,
            "atime": st.st_atime_ns, "mtime": st.st_mtime_ns,
            "nlink": st.st_nlink, "rdev": st.st_rdev, "size": st.st_size,
            "blocks": st.st_blocks, "ino": st.st_ino,
            "target": os.readlink(p) if stat.S_ISLNK(st.st_mode) else None,
            "xattrs": all_xattrs(p),
        }
    for rel, st in stats.items():
        os.utime(os.path.join(top, rel) if rel else top,
                 ns=(st.st_atime_ns, st.st_mtime_ns), follow_symlinks=False)
    with open(path, "wb") as f:
        pickle.dump(snap, f)


def compare(snap_path, src, mnt, report_path, policies_path, err_path):
    with open(snap_path, "rb") as f:
        snap = pickle.load(f)
    src, mnt = os.fsencode(src), os.fsencode(mnt)
    cmp = Comparison(report_path)
    policies = read_policies(policies_path)
    with open(err_path, encoding="latin-1") as f:
        # An unprivileged build cannot see the source's trusted.* xattrs.
        trusted_unseen = "warning: without CAP_SYS_ADMIN its trusted.*" \
            in f.read()
    img = walk(mnt)
    by_ino = {}
    for rel, s in snap.items():
        by_ino.setdefault(s["ino"], []).append(rel)

    for rel in cmp.entries({r: s["mode"] for r, s in snap.items()}, img):
        s, m = snap[rel], img[rel]
        mp = os.path.join(mnt, rel) if rel else mnt
        if s["mode"] != m.st_mode:
            cmp.problem(rel, "mode %o, image %o" % (s["mode"], m.st_mode))
        if rel and (s["uid"], s["gid"]) != (m.st_uid, m.st_gid):
            cmp.problem(rel, "owner %d:%d, image %d:%d" % (
                s["uid"], s["gid"], m.st_uid, m.st_gid))
        for field in ("atime", "mtime"):
            got = getattr(m, "st_%s_ns" % field)
            if got != s[field] and not cmp.reported(rel, "%s out of" % field):
                cmp.problem(rel, "%s %d, image %d, not reported" %
                            (field, s[field], got))
        if stat.S_ISREG(s["mode"]):
            cmp.content(rel, s["size"], os.path.join(src, rel), m, mp)
            # Other names of the inode in the tree are separate copies.
            names = by_ino[s["ino"]]
            copies = len(names) > 1 and sum(
                cmp.reported(n, "hard link to") for n in names) == \
                len(names) - 1
            want = 1 if copies else s["nlink"]
            if m.st_nlink != want:
                cmp.problem(rel, "%d links, image %d" % (want, m.st_nlink))
            # Not more blocks than the source, beyond rounding to 4K and
            # an attribute leaf block; a sparse file's holes only where
            # the report says so.
            limit = (s["blocks"] + 7) // 8 * 8
            if cmp.reported(rel, "sparse"):
                limit = max(limit, (s["size"] + 4095) // 4096 * 8)
            if s["xattrs"]:
                limit += 8
            if m.st_blocks > limit:
                cmp.problem(rel, "%d blocks of 512 bytes, image %d" %
                            (s["blocks"], m.st_blocks))
        elif stat.S_ISDIR(s["mode"]):
            if m.st_nlink != s["nlink"]:
                cmp.problem(rel, "%d links, image %d" % (s["nlink"],
                                                         m.st_nlink))
        elif stat.S_ISLNK(s["mode"]):
            cmp.symlink(rel, s["target"], mp)
        elif stat.S_ISCHR(s["mode"]) or stat.S_ISBLK(s["mode"]):
            cmp.device(rel, s["rdev"], m)
        cmp.xattrs(rel, s["xattrs"], all_xattrs(mp), policies,
                   trusted_unseen)
    return cmp.finish("%d entries, %d policies, %d report lines" %
                      (len(snap), len(policies), len(cmp.report)))


def baddev(seed, top):
    rng = random.Random(seed)
    os.makedirs(top)
    if rng.random() < 0.5:
        dev = os.makedev(rng.randint(DEV_MAJOR_MAX + 1, KDEV_MAJOR_MAX),
                         rng.randint(0, KDEV_MINOR_MAX))
    else:
        dev = os.makedev(rng.randint(0, KDEV_MAJOR_MAX),
                         rng.randint(DEV_MINOR_MAX + 1, KDEV_MINOR_MAX))
    name = b"dev %d" % rng.randrange(1000)
    os.mknod(os.path.join(os.fsencode(top), name), stat.S_IFCHR | 0o600, dev)
    with open(os.path.join(top, "file"), "w") as f:
        f.write("x")
    print(name.decode())


def main():
    cmd = sys.argv[1]
    if cmd == "gen":
        gen(int(sys.argv[2]), sys.argv[3], sys.argv[4])
        return 0
    if cmd == "compare":
        return compare(*sys.argv[2:8])
    if cmd == "baddev":
        baddev(int(sys.argv[2]), sys.argv[3])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
