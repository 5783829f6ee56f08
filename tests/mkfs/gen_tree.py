#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen_tree.py SEED DIR NFILES [--owner UID:GID] [--no-devices]

A random source tree for mkfs.execfolio tests: nested directories, files
of random sizes (empty to a few MB, sparse ones too) and modes (setuid,
setgid, sticky directories), symlinks (some dangling, some with blanks, some long), fifos, a socket, character and block
devices (as root), hard links, user.* xattrs (a few large enough to go to
a leaf block), random timestamps (before 1970 too), names with blanks,
newlines, leading dashes, colons, "$" and high bytes, and ELF executables
and shared libraries copied from /bin and /lib. Owner read (and search)
permission is always kept so the owner can build an image from it.
"""
import os
import random
import shutil
import socket
import stat
import sys

WEIRD_NAMES = [b"with space", b"new\nline", b"-dash", b":colon", b"$",
               b"tab\there", b" lead", b"trail ", b"\xc3\xa9t\xc3\xa9",
               b"a b", b"\xff\xfe", b"#hash", b"back\\slash", b"q'uote\""]


def elf_sources():
    found = []
    for d in ("/bin", "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
              "/usr/lib/aarch64-linux-gnu"):
        try:
            names = sorted(os.listdir(d))
        except OSError:
            continue
        for n in names:
            p = os.path.join(d, n)
            try:
                st = os.stat(p)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or st.st_size > (4 << 20):
                continue
            with open(p, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            found.append(p)
    return found


def main():
    seed, top, nfiles = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    owner = None
    devices = os.geteuid() == 0
    args = sys.argv[4:]
    while args:
        a = args.pop(0)
        if a == "--owner":
            u, g = args.pop(0).split(":")
            owner = (int(u), int(g))
        elif a == "--no-devices":
            devices = False
    rng = random.Random(seed)
    top = os.fsencode(top)
    os.makedirs(top, exist_ok=True)
    dirs = [top]
    elves = elf_sources()
    files = []
    made = 0

    def new_name(d):
        while True:
            if rng.random() < 0.08:
                base = rng.choice(WEIRD_NAMES)
                # Short ones only in small (short-form) directories:
                # mkfs_errors.sh tests the rest.
                name = base + b"_" + str(rng.randrange(10**6)).encode()
            else:
                name = ("f%d" % rng.randrange(10**9)).encode()
                if rng.random() < 0.1:
                    name = name * rng.randint(2, 20)
            if name in (b".", b"..") or len(name) > 255:
                continue
            if not os.path.lexists(os.path.join(d, name)):
                return name

    def set_owner(p, follow=True):
        if owner:
            os.chown(p, owner[0], owner[1], follow_symlinks=follow)
        elif os.geteuid() == 0:
            os.chown(p, rng.choice([0, 1, 1000, 65534, 123456]),
                     rng.choice([0, 2, 1000, 65534, 654321]),
                     follow_symlinks=follow)

    def set_times(p, follow=True):
        t = rng.randint(-(2**31) + 1, 2**32)
        ns = t * 10**9 + rng.randrange(10**9)
        os.utime(p, ns=(ns, ns), follow_symlinks=follow)

    while made < nfiles:
        d = rng.choice(dirs)
        r = rng.random()
        p = os.path.join(d, new_name(d))
        if r < 0.10 and len(dirs) < nfiles // 8 + 2:
            os.mkdir(p)
            mode = rng.choice([0o755, 0o700, 0o1777, 0o2755, 0o750, 0o511])
            os.chmod(p, mode | 0o500)
            dirs.append(p)
        elif r < 0.60:
            size = rng.choice([0, 1, 100, 4095, 4096, 4097, 65536,
                               rng.randrange(1 << 20),
                               rng.randrange(3 << 20)])
            with open(p, "wb") as f:
                if rng.random() < 0.1 and size > 8192:
                    f.seek(size - 1)
                    f.write(b"\x01")
                else:
                    f.write(rng.randbytes(size))
            mode = rng.choice([0o644, 0o755, 0o600, 0o700, 0o4755,
                               0o2755, 0o6711, 0o444, 0o640, 0o711])
            os.chmod(p, mode | 0o400)
            files.append(p)
        elif r < 0.70 and elves:
            shutil.copyfile(rng.choice(elves), p)
            os.chmod(p, rng.choice([0o755, 0o644, 0o555]))
            files.append(p)
        elif r < 0.80:
            if rng.random() < 0.2:
                target = b"target with blanks " + str(
                    rng.randrange(99)).encode()
            elif rng.random() < 0.1:
                # Longer ones make mkfs.xfs 6.1 write bad symlink blocks,
                # which mkfs.execfolio refuses (mkfs_errors.sh).
                target = b"/long/" + b"x" * rng.randint(100, 300)
            else:
                target = os.path.relpath(rng.choice(files + dirs), d) \
                    if files else b"dangling"
            os.symlink(target, p)
            set_owner(p, follow=False)
            set_times(p, follow=False)
            made += 1
            continue
        elif r < 0.84:
            os.mkfifo(p, rng.choice([0o644, 0o600, 0o666]))
        elif r < 0.88 and devices:
            kind = rng.choice([stat.S_IFCHR, stat.S_IFBLK])
            os.mknod(p, kind | 0o640,
                     os.makedev(rng.randrange(1, 300), rng.randrange(256)))
        elif r < 0.92 and files:
            src = rng.choice(files)
            os.link(src, p)
            made += 1
            continue
        else:
            continue
        if rng.random() < 0.15 and not stat.S_ISFIFO(os.lstat(p).st_mode):
            try:
                for i in range(rng.choice([1, 1, 2, 12])):
                    os.setxattr(p, b"user.k%d" % i,
                                rng.randbytes(rng.randrange(1, 120)))
            except OSError:
                pass
        set_owner(p)
        set_times(p)
        made += 1

    # One of each special case, wherever the random walk put nothing.
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(top, b"sock"))
    s.close()
    for d in reversed(dirs):
        set_times(d)
        set_owner(d)


if __name__ == "__main__":
    main()
