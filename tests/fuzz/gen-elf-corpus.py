#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gen-elf-corpus.py DIR: writes the seed corpus of the ELF fuzz target, small
# ELF headers of every class and byte order, with and without executable
# segments, PN_XNUM counts, and truncations. The committed corpus in
# tests/fuzz/corpus/elf/ holds its output (named files) plus the inputs
# libFuzzer found that add coverage (named by their SHA-1), merged in with
# `build/fuzz/fuzz_elf -merge=1 tests/fuzz/corpus/elf build/fuzz/corpus-elf`.
import os
import struct
import sys

PT_LOAD, PT_INTERP = 1, 3
PF_X, PF_R = 1, 4
ET_EXEC, ET_DYN, ET_REL = 2, 3, 1


def elf(cls, big, etype, phdrs, machine=62, xnum=False):
    """ELF header, program headers right after it, optional section 0."""
    e = '>' if big else '<'
    ehsize = 64 if cls == 64 else 52
    phentsize = 56 if cls == 64 else 32
    shentsize = 64 if cls == 64 else 40
    phoff = ehsize
    shoff = phoff + phentsize * len(phdrs) if xnum else 0
    phnum = 0xffff if xnum else len(phdrs)
    ident = b'\x7fELF' + bytes([1 if cls == 32 else 2, 2 if big else 1, 1]) + bytes(9)
    w = 'Q' if cls == 64 else 'I'
    hdr = ident + struct.pack(e + 'HHI' + w * 3 + 'IHHHHHH', etype, machine, 1,
                              0x1000, phoff, shoff, 0, ehsize, phentsize,
                              phnum, shentsize, 1 if xnum else 0, 0)
    out = hdr
    for ptype, flags, off, vaddr, filesz, align in phdrs:
        if cls == 64:
            out += struct.pack(e + 'IIQQQQQQ', ptype, flags, off, vaddr, vaddr,
                               filesz, filesz, align)
        else:
            out += struct.pack(e + 'IIIIIIII', ptype, off, vaddr, vaddr,
                               filesz, filesz, flags, align)
    if xnum:
        if cls == 64:
            out += struct.pack(e + 'IIQQQQIIQQ', 0, 0, 0, 0, 0, 0, 0,
                               len(phdrs), 0, 0)
        else:
            out += struct.pack(e + 'IIIIIIIIII', 0, 0, 0, 0, 0, 0, 0,
                               len(phdrs), 0, 0)
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    interp = (PT_INTERP, PF_R, 0x200, 0x200, 28, 1)
    text = (PT_LOAD, PF_R | PF_X, 0x1000, 0x401000, 0x300000, 0x200000)
    text2 = (PT_LOAD, PF_R | PF_X, 0x310000, 0x910000, 0x20000, 0x10000)
    odd = (PT_LOAD, PF_R | PF_X, 0x1000, 0x402000, 0x8000, 0x1000)
    data = (PT_LOAD, PF_R, 0x400000, 0xa00000, 0x1000, 0x1000)
    files = {}
    for cls in (32, 64):
        for big in (False, True):
            tag = '%d%s' % (cls, 'be' if big else 'le')
            files['exec-pmd-' + tag] = elf(cls, big, ET_EXEC, [text, data])
            files['pie-two-' + tag] = elf(cls, big, ET_DYN, [interp, text, text2, data])
            files['lib-odd-' + tag] = elf(cls, big, ET_DYN, [odd, data])
            files['lib-noexec-' + tag] = elf(cls, big, ET_DYN, [data])
            files['rel-' + tag] = elf(cls, big, ET_REL, [])
            files['xnum-' + tag] = elf(cls, big, ET_EXEC, [text, data], xnum=True)
    for name, img in list(files.items()):
        if name.startswith('pie-two-'):
            for cut in (3, 4, 16, 30, len(img) - 1):
                files['%s-cut%d' % (name, cut)] = img[:cut]
    files['not-elf'] = b'#!/bin/sh\necho hello\n'
    files['bad-class'] = b'\x7fELF\x07\x01\x01' + bytes(57)
    for name, img in sorted(files.items()):
        with open(os.path.join(outdir, name), 'wb') as f:
            f.write(img)


main()
