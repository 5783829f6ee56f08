#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""names_tree.py: directories of short names the protofile cannot carry
whose hash no placeholder of their own length has (mkfs_names.sh,
mkfs_errors.sh).

  names_tree.py make DIR KIND FILLERS
      DIR with the names of KIND, each a file holding its own name:
        blanks   tab, vertical tab, form feed and carriage return: one-byte
                 names with the hashes 9, 11, 12 and 13, side by side
        colon    ":" beside "9" and ";" (hashes 0x39, 0x3a, 0x3b)
        four     "\\v\\n\\nq" and "\\r\\n\\nq", each among plain names
                 whose hashes lie in the same region (the same bits from 22
                 up), half below its own and half above: every name of up to
                 four bytes with a hash in that region begins with a blank,
                 so a placeholder's hash is outside, with FILLERS / 4 plain
                 names or more between it and the name's
        onebyte  every one-byte name there is, the nine the protofile
                 cannot carry among them: no one-byte placeholder is free
      and, but for "four", FILLERS plain files "plain-file-N".
  names_tree.py ls LS_OUTPUT DIR
      The names xfs_db's "ls" printed (LS_OUTPUT, raw) against DIR's; each
      difference printed, exit 1 if any.
"""
import itertools
import os
import random
import re
import sys

# Bytes of plain names: the protofile carries them as they are.
PLAIN = b"abcdefghijklmnopqrstuvwxyz0123456789_-"
# Hash bits above those the last 22 bits of a four-byte name's hash are:
# those of 4-byte names beginning with \n or \v are 5, with \f or \r 6.
REGION_SHIFT = 22


def rol32(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xffffffff


def dahash(name):
    """xfs_da_hashname()."""
    h = 0
    while len(name) >= 4:
        h = (name[0] << 21) ^ (name[1] << 14) ^ (name[2] << 7) ^ \
            name[3] ^ rol32(h, 7 * 4)
        name = name[4:]
    if len(name) == 3:
        return (name[0] << 14) ^ (name[1] << 7) ^ name[2] ^ rol32(h, 7 * 3)
    if len(name) == 2:
        return (name[0] << 7) ^ name[1] ^ rol32(h, 7 * 2)
    if len(name) == 1:
        return name[0] ^ rol32(h, 7)
    return h


def region_names(name, below, above):
    """@below and @above plain names of 12 bytes with hashes below and
    above @name's, in the same region (hashes of the same bits from 22 up).

    The hash of an 8-byte PREFIX and a 4-byte SUFFIX is hash(SUFFIX) ^
    rol32(hash(PREFIX), 28), and bits 22 to 28 of hash(SUFFIX) are those of
    its first byte from bit 1 up: a prefix whose rotated hash has no bit
    above 28 leaves the region to the suffix's first byte. Prefixes are
    drawn until one gives enough names on each side."""
    h = dahash(name)
    top = h >> REGION_SHIFT
    rng = random.Random(h)
    while True:
        prefix = bytes(rng.choice(PLAIN) for _ in range(8))
        c = rol32(dahash(prefix), 28)
        firsts = [b for b in PLAIN if b >> 1 == top ^ (c >> REGION_SHIFT)]
        if c >> 29 or not firsts:
            continue
        lo, hi = [], []
        for rest in itertools.product(PLAIN, repeat=3):
            cand = prefix + bytes([firsts[0]]) + bytes(rest)
            hc = dahash(cand)
            assert hc >> REGION_SHIFT == top
            if hc < h and len(lo) < below:
                lo.append(cand)
            elif hc > h and len(hi) < above:
                hi.append(cand)
            if len(lo) == below and len(hi) == above:
                return lo + hi


FOUR = [b"\v\n\nq", b"\r\n\nq"]


def names_of(kind, fillers):
    if kind == "four":
        # Plain names on both sides of each name, in its region.
        out = []
        for n in FOUR:
            out += [n] + region_names(n, fillers // 4, fillers // 4)
        return out
    names = [b"plain-file-%d" % i for i in range(fillers)]
    if kind == "blanks":
        return names + [b"\t", b"\v", b"\f", b"\r"]
    if kind == "colon":
        return names + [b"9", b":", b";"]
    if kind == "onebyte":
        return names + [bytes([c]) for c in range(1, 256) if c not in b"./"]
    raise SystemExit("unknown kind %s" % kind)


def make(top, kind, fillers):
    top = os.fsencode(top)
    os.makedirs(top)
    for n in names_of(kind, int(fillers)):
        with open(os.path.join(top, n), "wb") as f:
            f.write(n)


def ls(out_path, top):
    """xfs_db ls: "COOKIE INODE TYPE HASH NAMELEN NAME (good)" a line;
    names may hold newlines, so NAMELEN bytes are taken as the name."""
    with open(out_path, "rb") as f:
        out = f.read()
    entry = re.compile(rb"\s*\d+\s+\d+\s+\S+\s+0x[0-9a-f]+\s+(\d+) ")
    got, pos = [], 0
    while pos < len(out):
        m = entry.match(out, pos)
        if not m:
            print("xfs_db ls, not understood: %r" % out[pos:pos + 80])
            return 1
        end = m.end() + int(m.group(1))
        got.append(out[m.end():end])
        if not out.startswith(b" (good)\n", end):
            print("xfs_db ls: %r not good" % out[m.start():end + 20])
            return 1
        pos = end + len(b" (good)\n")
    want = sorted(os.listdir(os.fsencode(top)) + [b".", b".."])
    problems = 0
    for n in sorted(set(want) - set(got)):
        print("missing from the image: %r" % n)
        problems += 1
    for n in sorted(set(got) - set(want)):
        print("in the image, not in the source: %r" % n)
        problems += 1
    if len(got) != len(set(got)):
        print("a name listed twice")
        problems += 1
    print("%d names listed, %d problems" % (len(got), problems))
    return 1 if problems else 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "make":
        make(*sys.argv[2:5])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "ls":
        return ls(*sys.argv[2:4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
