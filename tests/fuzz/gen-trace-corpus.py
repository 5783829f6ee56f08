#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gen-trace-corpus.py DIR: writes the seed corpus of the trace fuzz target
# (tests/fuzz/fuzz_trace.c): well-formed execfoliofs traces of every
# record, and each kind of damage the reader must refuse (DESIGN.md
# section 8.5): truncated lines and traces, bad numbers, unknown records
# and fields, bad escapes, NUL bytes, overlong lines, records out of
# order. The committed corpus in tests/fuzz/corpus/trace/ holds its
# output; inputs libFuzzer finds are merged in by SHA-1 as for the ELF
# corpus (tests/fuzz/gen-elf-corpus.py).
import os
import sys

HEADER = b'execfoliofs-trace 1\npage_size 4096\n'
FILE1 = b'file 1 1048576 644 none none text\n'
GOOD = (HEADER + FILE1 + b'seg 1 0 0 1048576\n'
        b'read 1 1 409600 4096 fault\n'
        b'read 1 1 413696 4096 fault\n'
        b'read 1 1 442368 4096 fault\n'
        b'read 1 1 524288 4096 fault\n')


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    files = {
        'good-text-1m': GOOD,
        'good-two-files': (
            b'execfoliofs-trace 1\npage_size 16384\n# comment\n\n'
            b'file 1 151344 755 64k mount usr/bin/a b\\\\c\\nd\n'
            b'seg 1 16384 16384 87897\n'
            b'read 1 1 0 16384 syscall\n'
            b'file 2 8192 4755 2m xattr lib/x.so\n'
            b'read 2 2 0 8192\n'
            b'file 3 1048576 755 none none usr/bin/a b\\\\c\\nd\n'
            b'read 3 3 65536 4096 fault\n'),
        'good-extremes': (
            b'execfoliofs-trace 1\npage_size 262144\n'
            b'file 1 9223372036854775807 7777 none none ?\n'
            b'seg 1 0 18446744073709551615 0\n'
            b'read 1 4294967295 9223372036854775807 16777216 fault\n'),
        'header-only': HEADER,
        'empty': b'',
        'not-a-trace': b'#!/bin/sh\necho hello\n',
        'version-2': b'execfoliofs-trace 2\npage_size 4096\n',
        'no-page-size': b'execfoliofs-trace 1\n',
        'page-size-odd': b'execfoliofs-trace 1\npage_size 4097\n',
        'cut-short': GOOD[:-9],
        'line-cut-short': HEADER + FILE1 + b'read 1 1 0\n',
        'path-missing': HEADER + b'file 1 8192 755 none none\n',
        'bad-number': HEADER + FILE1 + b'read 1 1 12x 4096\n',
        'negative': HEADER + FILE1 + b'read 1 1 -4096 4096\n',
        'overflow': HEADER + FILE1 + b'seg 1 18446744073709551616 0 0\n',
        'segment-wraps': HEADER + FILE1 + b'seg 1 18446744073709551615 0 1\n',
        'length-too-big': HEADER + FILE1 + b'read 1 1 0 16777217\n',
        'mode-not-octal': HEADER + b'file 1 8192 758 none none prog\n',
        'bad-policy': HEADER + b'file 1 8192 755 48k none prog\n',
        'bad-source': HEADER + b'file 1 8192 755 64k kernel prog\n',
        'unknown-record': HEADER + FILE1 + b'write 1 0 4096\n',
        'unknown-cause': HEADER + FILE1 + b'read 1 1 0 4096 mmap\n',
        'extra-field': HEADER + FILE1 + b'read 1 1 0 4096 fault 7\n',
        'crlf': HEADER.replace(b'\n', b'\r\n') + FILE1,
        'double-space': HEADER + FILE1 + b'read 1  1 0 4096\n',
        'bad-escape': HEADER + b'file 1 8192 755 none none a\\tb\n',
        'lone-backslash': HEADER + b'file 1 8192 755 none none ab\\\n',
        'nul-byte': HEADER + b'file 1 8192 755 none none a\0b\n',
        'overlong-line': HEADER + b'#' + b'x' * 20000 + b'\n',
        'undescribed': HEADER + b'read 7 1 0 4096\n',
        'id-out-of-order': HEADER + b'file 2 8192 755 none none prog\n',
        'id-zero': HEADER + b'file 0 8192 755 none none prog\n',
    }
    for name, data in sorted(files.items()):
        with open(os.path.join(outdir, name), 'wb') as f:
            f.write(data)


main()
