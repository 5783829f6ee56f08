#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where two kernels' page caches differ, file by file.

    bench-files.py A.tap CONFIG_A B.tap CONFIG_B WORKLOAD...

A.tap and B.tap are the guest output (bench-workloads.sh.tap) of two boots
of bench/bench-kernels.sh's guest script run with BENCH_FILES=1 on the
kernel command line (e.g. BENCH_FILES=1 BENCH_WORKLOADS=boot make
bench-kernels, which passes both on; the results are in
build/bench/kernels/rN-NAME[@CONFIG]/); CONFIG_A and CONFIG_B are the configurations to
compare ("default" on stock and option one, "mount" or "tagged" on
execfolio).  For each WORKLOAD it prints the files whose cached bytes
differ (B minus A, with each side's map: one character per 64K, "." none,
1-f pages, X all), the total, and B's text blocks that are not
cont-aligned ("miss" lines of benchhelper hold's report).
"""
import sys
from collections import defaultdict


def load(path):
    """{(config, workload): {"file": {path: (cached, map)}, "miss": [...]}}"""
    runs = defaultdict(lambda: {"file": {}, "miss": []})
    with open(path, errors="replace") as tap:
        for line in tap:
            f = line.split()
            if len(f) < 6 or f[:2] != ["#", "files"]:
                continue
            run = runs[(f[2], f[3])]
            if f[4] == "file" and len(f) >= 13:
                run["file"][f[5]] = (int(f[9]), f[13] if len(f) > 13 else "")
            elif f[4] == "miss":
                run["miss"].append(" ".join(f[5:]))
    return runs


def compare(a, b, workload, out):
    files_a, files_b = a["file"], b["file"]
    total = 0
    for path in sorted(set(files_a) | set(files_b)):
        ca, ma = files_a.get(path, (0, ""))
        cb, mb = files_b.get(path, (0, ""))
        if ca == cb:
            continue
        total += cb - ca
        out.write(f"{workload} {(cb - ca) // 1024:+d} kB {path}"
                  f" ({ca // 1024} -> {cb // 1024} kB)\n"
                  f"    A {ma}\n    B {mb}\n")
    out.write(f"{workload} total {total // 1024:+d} kB"
              f" (A {sum(c for c, _ in files_a.values()) // 1024} kB,"
              f" B {sum(c for c, _ in files_b.values()) // 1024} kB)\n")
    for miss in b["miss"]:
        out.write(f"{workload} B miss {miss}\n")


def main(argv):
    if len(argv) < 6:
        sys.stderr.write(__doc__)
        return 2
    try:
        runs_a, runs_b = load(argv[1]), load(argv[3])
    except OSError as e:
        sys.stderr.write(f"bench-files: {e.filename}: {e.strerror}\n")
        return 1
    status = 0
    for workload in argv[5:]:
        a, b = runs_a.get((argv[2], workload)), runs_b.get((argv[4], workload))
        if not a or not b:
            sys.stderr.write(
                f"bench-files: no per-file lines for {workload} "
                f"({argv[2]} in {argv[1]} or {argv[4]} in {argv[3]}): "
                "was the guest run with BENCH_FILES=1?\n")
            status = 1
            continue
        compare(a, b, workload, sys.stdout)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
