#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench-report.py [--kernels DIR] [--costs DIR] [--x86 DIR] [--out DIR] [--plots DIR]

Turn the results of bench/bench-kernels.sh (DIR/rROUND-KERNEL/, each with
the TAP of bench/guest/bench-workloads.sh) and bench/bench-costs.sh into
markdown tables (OUT/kernels.md, OUT/costs.md) and SVG plots made with
gnuplot (PLOTS/*.svg), every kernel and configuration side by side;
bench/bench-x86.sh's results into OUT/x86.md.
Figures over rounds are shown as min-max (one value when they agree).
"""
import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

WORKLOADS = ["boot", "nginx", "redis", "gcc"]
# The kernel the cold-start times are divided by: the series' goal is to
# start no slower than the upstream kernel it applies to.
ANCHOR = "stock-7.3"
# The view whose table is the workload's headline: the processes still
# running for the daemons, the page cache for the steps whose processes
# have exited.
PRIMARY = {"boot": "cache", "nginx": "live", "redis": "live", "gcc": "cache"}
WHAT = {
    "boot": "boot to a shell (etc/bench/boot.sh: coreutils, procps, findutils, "
    "redis-server and nginx started): text of every program it ran, as left "
    "in the page cache",
    "nginx": "nginx (master and 2 workers) after ab: the processes' text",
    "redis": "redis-server after redis-benchmark: the process's text",
    "gcc": "gcc-12 building lib/ (make -j2): text of every program it ran "
    "(make, gcc, cc1, as, ar), as left in the page cache",
}
SIZES = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
ROWS = (["base-page-4kB"] + ["thp-aligned-%dkB" % s for s in SIZES[1:]] +
        ["thp-unaligned-%dkB" % s for s in SIZES[1:]] +
        ["thp-partial", "thp-pmd-mapped-2048kB", "cont-aligned-64kB"])
THROUGHPUT = {
    "nginx": ("requests_per_s", "requests/s", 1.0),
    "redis": ("requests_per_s", "requests/s (mean of 5 tests)", 1.0),
    "boot": ("wall_ns", "s (wall)", 1e-9),
    "gcc": ("wall_ns", "s (wall)", 1e-9),
}
# x86_64 (bench/bench-x86.sh, bench/guest/bench-pmd.sh).
WHAT["bigprog"] = ("bigprog, the suite's 5 MB static program (2M-aligned "
                   "segments), after executing all its text: its text")
PRIMARY["bigprog"] = "live"


# Cold start (bench-workloads.sh's "run start_ns"): until the boot script
# or the build ended, until the daemon first answered.
COLD = {"boot": "boot script", "nginx": "nginx to its first answer",
        "redis": "redis-server to its first PONG", "gcc": "the build"}


def label(kernel, cfg, ra="device"):
    if cfg == "default":
        col = kernel
    else:
        col = {"mount": "%s, mount 64k", "64k": "%s, mount 64k",
               "tagged": "%s, libs tagged",
               "inplace": "%s, libs tagged in place",
               "2m": "%s, 2m"}.get(cfg, "%s, " + cfg) % kernel
    return col if ra == "device" else "%s, ra %s" % (col, ra)


def delay_rank(delay):
    return -1 if delay == "none" else int(delay)


def parse_run(name):
    """rN-NAME[@CONFIG][+ra-RA][+delay-MS] (bench-kernels.sh): one
    configuration of kernel NAME per boot, with its disk settings."""
    m = re.match(r"r(\d+)-([^+]+)((?:\+[a-z]+-[^+]+)*)$", name)
    if not m:
        return None
    settings = dict(kv.split("-", 1) for kv in m.group(3).split("+") if kv)
    kernel, _, cfg = m.group(2).partition("@")
    return (int(m.group(1)), kernel, cfg or "default",
            settings.get("ra", "device"), settings.get("delay", "none"))


def load_kernels(d, cold=None):
    """{(column, wl, view, key): [values by round]}, columns in order.
    Boots of several delays (bench-kernels.sh's BENCH_DELAYS) give the
    tables from the smallest delay; with COLD, a dict, the cold-start
    times and disk latencies of every delay go to
    COLD[(delay, column, wl)] (wl "disk": the mean read latency, ms)."""
    data = defaultdict(list)
    columns = []
    info = {}
    runs = []
    for name in sorted(os.listdir(d)):
        run = parse_run(name)
        if not run or not os.path.isdir(os.path.join(d, name)):
            continue
        taps = [t for t in os.listdir(os.path.join(d, name))
                if t.startswith("bench-") and t.endswith(".sh.tap")]
        tap = os.path.join(d, name, taps[0] if taps else "bench-workloads.sh.tap")
        runs.append(run + (tap,))
    least = min((delay_rank(r[4]) for r in runs), default=-1)
    order = []
    ri = os.path.join(d, "run-info")
    if os.path.exists(ri):
        for line in open(ri):
            k, _, v = line.rstrip("\n").partition(" ")
            if k == "kernel":
                name = v.split()[0].split("@")[0]
                if name not in order:
                    order.append(name)
                    info.setdefault("kernels", []).append(
                        v.replace(v.split()[0], name, 1))
            else:
                info[k] = v
    failures = []
    disk = {}
    for rnd, kernel, boot_cfg, ra, delay, tap in sorted(runs):
        if not os.path.exists(tap):
            failures.append("round %d, %s: no results (see %s)" %
                            (rnd, kernel, os.path.dirname(tap)))
            continue
        for line in open(tap, errors="replace"):
            if line.startswith("not ok"):
                failures.append("round %d, %s, ra %s, delay %s: %s" % (
                    rnd, label(kernel, boot_cfg), ra, delay, line.strip()))
            f = line.split()
            if len(f) != 7 or f[:2] != ["#", "bench"]:
                continue
            _, _, cfg, wl, view, key, val = f
            try:
                v = float(val)
            except ValueError:
                continue
            if cfg == "disk":
                disk[key] = v
                continue
            col = label(kernel, cfg, ra)
            if cold is not None and key == "start_ns":
                cold.setdefault((delay, col, wl), []).append(v)
            if cold is not None and key == "start_read_requests":
                cold.setdefault((delay, col, wl + " reads"), []).append(v)
            if cold is not None and key == "cpu_ns" and view == "run":
                cold.setdefault((delay, col, wl + " cpu"), []).append(v)
            if delay_rank(delay) != least:
                continue
            if col not in columns:
                columns.append(col)
            data[(col, wl, view, key)].append(v)
        if cold is not None and disk.get("read_requests"):
            cold.setdefault((delay, label(kernel, boot_cfg, ra), "disk"),
                            []).append(disk["read_ms"] / disk["read_requests"])
        disk = {}
    rank = {k: i for i, k in enumerate(order)}
    cfg_rank = {"": 0, "mount 64k": 1, "libs tagged": 2,
                "libs tagged in place": 3, "2m": 4}
    columns.sort(key=lambda c: (", ra " in c, rank.get(c.split(",")[0], 99),
                                cfg_rank.get(c.split(", ra ")[0].partition(", ")[2], 4), c))
    return data, columns, info, failures


def median(vals):
    v = sorted(vals)
    n = len(v)
    return (v[n // 2] + v[(n - 1) // 2]) / 2.0


def cold_tables(out, cold, columns, one_cpu):
    """Per delay and read_ahead_kb, the cold-start seconds of every
    workload (median over the rounds, and its ratio to ANCHOR's column,
    or the first column's without it), the CPU time of those that have
    one (and, ONE_CPU, the time they waited), the disk's read requests
    in that time and the read latency the disk showed."""
    delays = sorted({k[0] for k in cold}, key=delay_rank)
    ras = []
    for c in columns:
        ra = c.partition(", ra ")[2]
        if ra not in ras:
            ras.append(ra)
    for delay, ra in [(d, r) for d in delays for r in ras]:
        cols = [c for c in columns if c.partition(", ra ")[2] == ra and
                any(k[0] == delay and k[1] == c for k in cold)]
        if not cols:
            continue
        out.append("#### Cold start, %s, %s" % (
            "the disk as it is" if delay == "none" else
            "every request delayed %s ms" % delay,
            "read_ahead_kb %s" % ra if ra else "the device's read_ahead_kb"))
        out.append("")
        anchor = next((c for c in cols if c.split(",")[0] == ANCHOR), cols[0])
        out.append("| seconds, median (ratio to %s) | %s |" % (
            anchor, " | ".join(cols)))
        out.append("| --- |" + " ---: |" * len(cols))
        for wl in WORKLOADS:
            base = cold.get((delay, anchor, wl))
            cells = []
            for c in cols:
                v = cold.get((delay, c, wl))
                if not v:
                    cells.append("-")
                    continue
                cell = "%.3f" % (median(v) * 1e-9)
                if base and c != anchor:
                    cell += " (%.2fx)" % (median(v) / median(base))
                cells.append(cell)
            out.append("| %s | %s |" % (COLD[wl], " | ".join(cells)))
        # Medians hide a bimodal workload: the spread says whether one
        # kernel's rounds all sit on one side of the other's.
        for wl in WORKLOADS:
            vals = [cold.get((delay, c, wl)) for c in cols]
            if any(vals):
                out.append("| %s: min-max over the rounds | %s |" % (
                    COLD[wl], " | ".join(
                        "%.3f-%.3f" % (min(v) * 1e-9, max(v) * 1e-9)
                        if v else "-" for v in vals)))
        # The steps that benchhelper ran whole (the boot script, the
        # build) also have their CPU time; on one CPU the rest of the
        # wall time is what they waited, for the disk mostly (on two, the
        # CPU times of parallel processes add up past the wall time).
        # The daemons' times end at an answer to a client, whose CPU
        # time is not theirs.
        for wl in WORKLOADS:
            cpu = [cold.get((delay, c, wl + " cpu")) for c in cols]
            wall = [cold.get((delay, c, wl)) for c in cols]
            if not all(cpu) or not all(wall) or any(
                    len(a) != len(b) for a, b in zip(cpu, wall)):
                continue
            rows = [("on a CPU", cpu)]
            if one_cpu:
                rows.append(("waiting (wall - CPU)", [
                    [w - u for w, u in zip(a, b)] for a, b in zip(wall, cpu)]))
            for what, vals in rows:
                out.append("| %s: %s, s, median | %s |" % (
                    COLD[wl], what, " | ".join(
                        "%.2f" % (median(v) * 1e-9) for v in vals)))
        for wl in WORKLOADS:
            reads = [cold.get((delay, c, wl + " reads")) for c in cols]
            if any(reads):
                out.append("| %s: read requests, median | %s |" % (
                    COLD[wl], " | ".join("%.0f" % median(v) if v else "-"
                                         for v in reads)))
        lat = [cold.get((delay, c, "disk")) for c in cols]
        out.append("| mean read latency the guest saw, ms | %s |" % " | ".join(
            "%.2f" % median(v) if v else "-" for v in lat))
        out.append("")


def span(vals, fmt):
    if not vals:
        return "-"
    lo, hi = min(vals), max(vals)
    if fmt % lo == fmt % hi:
        return fmt % lo
    if fmt.endswith("%%"):
        return (fmt[:-2] + "-" + fmt) % (lo, hi)
    return (fmt + "-" + fmt) % (lo, hi)


def share(data, col, wl, view):
    a = data.get((col, wl, view, "cont_aligned_64k_bytes"), [])
    e = data.get((col, wl, view, "cont_eligible_64k_bytes"), [])
    return [100.0 * x / y for x, y in zip(a, e) if y]


def seed_table(out, data, columns, wl, view):
    texts = {c: data.get((c, wl, view, "text"), []) for c in columns}
    cols = [c for c in columns if texts[c]]
    if not cols:
        out.append("(not measured)\n")
        return
    out.append("| text by folio size, % of text | " + " | ".join(cols) + " |")
    out.append("| --- |" + " ---: |" * len(cols))
    for row in ["text"] + ROWS:
        cells, nonzero = [], row in ("thp-aligned-64kB", "cont-aligned-64kB")
        for c in cols:
            vals = data.get((c, wl, view, row), [])
            if row == "text":
                cells.append(span([v / 1024 for v in vals], "%.1f MB"))
                continue
            pct = [100.0 * v / t for v, t in zip(vals, texts[c]) if t]
            nonzero |= any(p >= 0.5 for p in pct)
            cells.append(span(pct, "%.0f%%"))
        if nonzero or row == "text":
            out.append("| %s | %s |" % (row, " | ".join(cells)))
    out.append("")


def summary_table(out, data, columns, wl):
    view = PRIMARY[wl]
    cols = [c for c in columns if data.get((c, wl, "run", "read_bytes"))]
    if not cols:
        out.append("(not measured)\n")
        return
    key, unit, scale = THROUGHPUT.get(wl, ("requests_per_s", "requests/s", 1.0))
    rows = [
        ("cont-aligned share (%s)" % ("processes" if view == "live" else "page cache"),
         [span(share(data, c, wl, view), "%.1f%%") for c in cols]),
    ]
    if view == "live":
        rows.append(("cont-aligned share (page cache, all text)",
                     [span(share(data, c, wl, "cache"), "%.1f%%") for c in cols]))
    mb = lambda k, v="run": [span([x / 1048576 for x in data.get((c, wl, v, k), [])],
                                  "%.1f") for c in cols]
    rows += [
        ("read from disk, MB", mb("read_bytes")),
        ("page-cache growth, MB", mb("cache_growth_bytes")),
        ("text in the page cache, MB", mb("text_cached_bytes", "cache")),
        ("major faults", [span(data.get((c, wl, "run", "majflt"), []), "%.0f")
                          for c in cols]),
        ("preferred folios that fell back (thp_file_pref_fallback)",
         [span(data.get((c, wl, "run", "pref_fallback"), []), "%.0f")
          for c in cols]),
        ("PMD-mapped text, MB (execfolio stat)",
         mb("pmd_mapped_bytes", view)),
        ("FilePmdMapped in smaps, MB",
         [span([x / 1024 for x in data.get((c, wl, "run", "file_pmd_kb"), [])],
               "%.1f") for c in cols]),
        ("%s (TCG: not a TLB figure)" % unit,
         [span([x * scale for x in data.get((c, wl, "run", key), [])],
               "%.1f") for c in cols]),
    ]
    out.append("| %s | %s |" % (wl, " | ".join(cols)))
    out.append("| --- |" + " ---: |" * len(cols))
    for name, cells in rows:
        if any(c != "-" for c in cells):
            out.append("| %s | %s |" % (name, " | ".join(cells)))
    out.append("")


def gnuplot(script, plots):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True,
                       cwd=plots)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write("bench-report: gnuplot failed (%s): install gnuplot-nox "
                         "(make deps)\n" % e)
        return False
    return True


def bar_plot(plots, name, title, ylabel, data, columns, metric):
    """Clustered bars per workload, one per column, with min-max error bars."""
    rows = []
    for wl in WORKLOADS:
        cells = []
        for c in columns:
            v = metric(c, wl)
            if v:
                cells += ["%.3f" % (sum(v) / len(v)), "%.3f" % min(v), "%.3f" % max(v)]
            else:
                cells += ["NaN"] * 3
        rows.append(wl + " " + " ".join(cells))
    dat = name + ".dat"
    with open(os.path.join(plots, dat), "w") as f:
        f.write("# workload " + " ".join(
            "'%s' min max" % c for c in columns) + "\n" + "\n".join(rows) + "\n")
    using = ", ".join(
        "'%s' using %d:%d:%d:xtic(1) title '%s'" % (dat, 2 + 3 * i, 3 + 3 * i,
                                                   4 + 3 * i, c)
        for i, c in enumerate(columns))
    script = """set terminal svg size 820,460 dynamic font 'sans,11' background rgb 'white'
set output '%s.svg'
set title '%s'
set ylabel '%s'
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set key below
set grid ytics
set yrange [0:*]
plot %s
""" % (name, title, ylabel, using)
    ok = gnuplot(script, plots)
    os.unlink(os.path.join(plots, dat))
    return ok


def folio_plot(plots, data, columns):
    """The seed's table as stacked bars: one bar per configuration, grouped
    by workload, text split by folio size (headline view)."""
    classes = [
        ("4K pages", ["base-page-4kB"]),
        ("8K-32K", ["thp-aligned-%dkB" % k for k in (8, 16, 32)]),
        ("64K aligned", ["thp-aligned-64kB"]),
        ("128K-2M aligned", ["thp-aligned-%dkB" % k for k in SIZES[5:]]),
        ("unaligned", ["thp-unaligned-%dkB" % k for k in SIZES[1:]]),
        ("partial", ["thp-partial"]),
    ]
    blocks = []
    for wl in WORKLOADS:
        rows = []
        for c in columns:
            view = PRIMARY[wl]
            text = data.get((c, wl, view, "text"), [])
            if not text:
                continue
            cells = []
            for _, rs in classes:
                tot = [sum(data.get((c, wl, view, r), [0] * len(text))[i]
                           for r in rs) for i in range(len(text))]
                cells.append("%.2f" % (100.0 * sum(t / x for t, x in zip(tot, text)
                                                   if x) / len(text)))
            # Short tic labels: the configuration, or the kernel when it
            # has none (several kernels have an "ra 128" column).
            cfg = c.partition(", ")[2]
            rows.append('"%s" %s' % (c if not cfg or cfg.startswith("ra ") else cfg,
                                     " ".join(cells)))
        if rows:
            blocks.append((wl, rows))
    if not blocks:
        return False
    with open(os.path.join(plots, "kernels-folios.dat"), "w") as f:
        for wl, rows in blocks:
            f.write("\n".join(rows) + "\n\n\n")
    parts = []
    for i, (wl, _) in enumerate(blocks):
        series = []
        for j, (name, _) in enumerate(classes):
            series.append("'kernels-folios.dat' index %d using %d%s%s" % (
                i, j + 2, ":xtic(1)" if j == 0 else "",
                (" title '%s'" % name) if i == 0 else " notitle"))
        parts.append("newhistogram '%s' lt 1, " % wl + ", ".join(series))
    script = """set terminal svg size 1000,520 dynamic font 'sans,10' background rgb 'white'
set output 'kernels-folios.svg'
set title 'text by folio size, %% of text (the seed''s table; headline view)'
set style data histogram
set style histogram rowstacked title offset 0,-1
set style fill solid 0.85 border -1
set boxwidth 0.8
set key outside top center horizontal
set xtics font 'sans,8'
set bmargin 5
set yrange [0:100]
set ylabel '%% of text'
set grid ytics
plot %s
""" % ", ".join(parts)
    ok = gnuplot(script, plots)
    os.unlink(os.path.join(plots, "kernels-folios.dat"))
    return ok


def host_cache_note(d, info):
    """A sentence on where the boots' disk copies were (run-info's disks)
    and how much of each copy the host still cached at the end of its
    boot (bench_boot's host-cache files: pages of holes the guest read
    count too), or "" for runs without them."""
    resident, allocated = [], []
    for name in sorted(os.listdir(d)):
        f = os.path.join(d, name, "host-cache")
        if not os.path.exists(f):
            continue
        v = open(f).read().split()
        if len(v) == 4 and v[0] == "resident" and v[2] == "allocated":
            resident.append(int(v[1]) >> 20)
            allocated.append(int(v[3]) >> 20)
    note = ""
    if "disks" in info:
        note = " Each boot's disk: a fresh copy in %s" % info["disks"]
        if resident:
            held = "%d" % min(resident) if min(resident) == max(resident) \
                else "%d-%d" % (min(resident), max(resident))
            note += "; the host held %s MiB of a copy (%d MiB " \
                    "allocated) in memory at the end of a boot" % (
                        held, max(allocated))
        note += "."
    return note


def kernels_report(args):
    cold = {}
    data, columns, info, failures = load_kernels(args.kernels, cold)
    out = ["## Kernels side by side: the seed's workloads (arm64)", ""]
    out.append("Measured %s on %s (%s), guest: %s, `-M virt -cpu max`, 1 GiB, "
               "%s. Rounds: %s, kernels interleaved (the order "
               "rotates each round); figures are min-max over the rounds. "
               "Workload sizes: %s." % (
                   info.get("date", "?"), info.get("cpu", "?"),
                   info.get("host", "?"), info.get("qemu", "?"),
                   info.get("clock", "2 CPUs, TCG's own clock"),
                   info.get("rounds", "?"), info.get("params", "").strip() or "the defaults")
               + host_cache_note(args.kernels, info)
               + (" The guests' kernel command line adds `%s`." % info["cmdline"]
                  if info.get("cmdline") else ""))
    out.append("")
    for k in info.get("kernels", []):
        out.append("- kernel `%s`" % k)
    out.append("")
    for wl in WORKLOADS:
        out.append("### %s" % wl)
        out.append("")
        out.append(WHAT[wl] + ".")
        out.append("")
        summary_table(out, data, columns, wl)
        seed_table(out, data, columns, wl, PRIMARY[wl])
    if cold:
        out.append("### Cold start on a disk with latency")
        out.append("")
        out.append("Each workload from a dropped cache, %s; read latency: "
                   "the disk's read milliseconds over its read requests "
                   "(/sys/block/X/stat), over the whole boot." %
                   info.get("settings", "").strip())
        out.append("")
        cold_tables(out, cold, columns,
                    info.get("clock", "").startswith("1 CPU"))
    if failures:
        out.append("### Runs that failed")
        out.append("")
        out += ["- " + f for f in failures]
        out.append("")
    plots = []
    if args.plots and columns:
        os.makedirs(args.plots, exist_ok=True)
        specs = [
            ("kernels-share", "cont-aligned share of text (headline view)",
             "% of 64K blocks with text",
             lambda c, wl: share(data, c, wl, PRIMARY[wl])),
            ("kernels-read", "bytes read from disk per workload", "MB",
             lambda c, wl: [x / 1048576 for x in data.get((c, wl, "run", "read_bytes"), [])]),
            ("kernels-textcache", "text of the workload in the page cache", "MB",
             lambda c, wl: [x / 1048576 for x in
                            data.get((c, wl, "cache", "text_cached_bytes"), [])]),
        ]
        for name, title, ylabel, metric in specs:
            if bar_plot(args.plots, name, title, ylabel, data, columns, metric):
                plots.append(name)
        if folio_plot(args.plots, data, columns):
            plots.append("kernels-folios")
        out.append("Plots: " + ", ".join(
            "`bench/plots/%s.svg`" % p for p in plots))
        out.append("")
    with open(os.path.join(args.out, "kernels.md"), "w") as f:
        f.write("\n".join(out))
    print("bench-report: %s" % os.path.join(args.out, "kernels.md"))


def x86_report(args):
    data, columns, info, failures = load_kernels(args.x86)
    out = ["## x86_64: stock against the series (the 64k mount default, 2m text "
           "mapped by PMDs)", ""]
    out.append("Measured %s on %s (%s), guest: %s, `-M pc -cpu max`, 1 GiB, "
               "2 CPUs, TCG; %s rounds. TCG offers no TLB counters: the "
               "iTLB-relevant figure is the text mapped by PMDs (one TLB "
               "entry per 2 MB). Figures are min-max over the rounds." % (
                   info.get("date", "?"), info.get("cpu", "?"),
                   info.get("host", "?"), info.get("qemu", "?"),
                   info.get("rounds", "?")) + host_cache_note(args.x86, info))
    out.append("")
    for k in info.get("kernels", []):
        out.append("- kernel `%s`" % k)
    out.append("")
    for wl in ("bigprog", "redis"):
        out.append("### %s (x86_64)" % wl)
        out.append("")
        out.append(WHAT[wl] + ".")
        out.append("")
        summary_table(out, data, columns, wl)
        seed_table(out, data, columns, wl, "live")
    if failures:
        out.append("### Runs that failed (x86_64)")
        out.append("")
        out += ["- " + f for f in failures]
        out.append("")
    with open(os.path.join(args.out, "x86.md"), "w") as f:
        f.write("\n".join(out))
    print("bench-report: %s" % os.path.join(args.out, "x86.md"))


def load_costs(d):
    """The runs of bench-costs.sh in D: [(kernel, {(kind, label, key):
    [values]})] in the order of run-info, and run-info's other lines."""
    info, order = {}, []
    ri = os.path.join(d, "run-info")
    if os.path.exists(ri):
        for line in open(ri):
            k, _, v = line.rstrip("\n").partition(" ")
            if k == "kernel":
                order.append(v.split()[0])
                info.setdefault("kernels", []).append(v)
            else:
                info[k] = v
    runs = []
    for kernel in order:
        tap = os.path.join(d, kernel, "bench-costs.sh.tap")
        if not os.path.exists(tap):
            sys.stderr.write("bench-report: no %s\n" % tap)
            continue
        data = defaultdict(list)
        for line in open(tap, errors="replace"):
            f = line.split()
            if len(f) == 7 and f[:3] == ["#", "bench", "costs"]:
                try:
                    data[(f[3], f[4], f[5])].append(float(f[6]))
                except ValueError:
                    data[(f[3], f[4], f[5])].append(f[6])
        runs.append((kernel, data))
    return runs, info


def instructions_table(out, runs, kind, title, labels):
    """Instructions (min-max), per item and guest clock of KIND's LABELS on
    every kernel, then each median's ratio to the first row's."""
    rows = []
    for kernel, data in runs:
        for name, lab in labels:
            v = data.get((kind, name, "cpu_ns"), [])
            if v:
                rows.append(("%s, %s" % (kernel, lab), v,
                             data.get((kind, name, "wall_ns"), []),
                             data.get((kind, "none", "files"), [0])[0]))
    if not rows:
        return
    out.append("| %s | instructions (min-max) | per file | guest clock, s | "
               "median / first row's |" % title)
    out.append("| --- | ---: | ---: | ---: | ---: |")
    base = median(rows[0][1])
    for lab, v, w, files in rows:
        out.append("| %s | %s | %s | %s | %.4f (%+.2f%%) |" % (
            lab, span([x / 1e6 for x in v], "%.1fM"),
            span([x / files for x in v], "%.0f") if files else "-",
            span([x / 1e9 for x in w], "%.2f"),
            median(v) / base, 100.0 * (median(v) / base - 1)))
    out.append("")


def costs_report(args):
    runs, info = load_costs(args.costs)
    if not runs:
        return
    out = ["## Costs: inode instantiation, file creation, page cache per policy", ""]
    out.append("Measured %s, %s; rounds: %d." % (
        info.get("date", "?"), info.get("qemu", "?"),
        len(runs[0][1].get(("inodes", "none", "cpu_ns"), [])))
        + host_cache_note(args.costs, info))
    out.append("")
    for k in info.get("kernels", []):
        out.append("- kernel `%s`" % k)
    out.append("")
    files = runs[0][1].get(("inodes", "none", "files"), [0])[0]
    instructions_table(out, runs, "inodes",
                       "%d inodes, cold, busybox find -perm" % files,
                       (("none", "mounted without options"),
                        ("mount64k", "mounted with exec_folio_size=64k")))
    instructions_table(out, runs, "create",
                       "files created, then opened again (benchhelper create)",
                       (("none", "mounted without options"),))
    pol = []
    for kernel, data in runs:
        small_tables(out, kernel, data, pol if kernel == runs[-1][0] else [])
    if args.plots and pol:
        os.makedirs(args.plots, exist_ok=True)
        with open(os.path.join(args.plots, "costs-small.dat"), "w") as f:
            for x in pol:
                f.write("%s %.3f %.3f %s\n" % (x[0], x[2], x[1],
                                              "%.3f" % x[3] if len(x) > 3 else "NaN"))
        data = runs[-1][1]
        ok = gnuplot(("""set terminal svg size 640,380 dynamic font 'sans,11' background rgb 'white'
set output 'costs-small.svg'
set key below
set title 'page cache of a tree of small executables, by policy'
set ylabel 'MB'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:*]
plot 'costs-small.dat' using 2:xtic(1) title 'bytes of all the files', '' using 3 title 'page cache after reading each file'%s
""" % (", '' using 4 title 'page cache after executing the generated programs (%.1f MB of files)'"
       % (data.get(("small", "none", "exec_file_bytes"), [0])[0] / 1048576)
       if any(len(x) > 3 for x in pol) else "")), args.plots)
        os.unlink(os.path.join(args.plots, "costs-small.dat"))
        if ok:
            out.append("Plot: `bench/plots/costs-small.svg` (%s)" % runs[-1][0])
            out.append("")
    with open(os.path.join(args.out, "costs.md"), "w") as f:
        f.write("\n".join(out))
    print("bench-report: %s" % os.path.join(args.out, "costs.md"))


def small_tables(out, kernel, data, pol):
    """The page cache of small/ on KERNEL, read and executed; the figures
    of the plot go to POL."""
    out.append("| small executables on %s, read once (cat) | files (under 64K) | "
               "file bytes, MB | page cache, MB | read from disk, MB | "
               "page cache / file bytes |" % kernel)
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for p in ("none", "16k", "64k", "2m"):
        fb = data.get(("small", p, "file_bytes"), [])
        cb = data.get(("small", p, "cache_bytes"), [])
        rb = data.get(("small", p, "read_bytes"), [])
        if not fb or not cb:
            continue
        pol.append((p, cb[0] / 1048576, fb[0] / 1048576))
        out.append("| xattr %s | %d (%d) | %.2f | %.2f | %.2f | %.3f |" % (
            p, data[("small", p, "files")][0], data[("small", p, "files_under_64k")][0],
            fb[0] / 1048576, cb[0] / 1048576, rb[0] / 1048576 if rb else 0,
            cb[0] / fb[0]))
    out.append("")
    out.append("| generated programs on %s, each executed once | file bytes, MB | "
               "page cache, MB | read from disk, MB | page cache / file bytes |" % kernel)
    out.append("| --- | ---: | ---: | ---: | ---: |")
    for p in ("none", "16k", "64k", "2m"):
        fb = data.get(("small", p, "exec_file_bytes"), [])
        cb = data.get(("small", p, "exec_cache_bytes"), [])
        rb = data.get(("small", p, "exec_read_bytes"), [])
        if not fb or not cb:
            continue
        pol[:] = [x + ((cb[0] / 1048576,) if x[0] == p else ()) for x in pol]
        out.append("| xattr %s | %.2f | %.2f | %.2f | %.3f |" % (
            p, fb[0] / 1048576, cb[0] / 1048576, rb[0] / 1048576 if rb else 0,
            cb[0] / fb[0]))
    out.append("")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[2])
    p.add_argument("--kernels")
    p.add_argument("--costs")
    p.add_argument("--x86")
    p.add_argument("--out", default="build/bench")
    p.add_argument("--plots")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.plots:
        args.plots = os.path.abspath(args.plots)
    for name in ("kernels", "costs", "x86"):
        d = getattr(args, name)
        if d and not os.path.isdir(d):
            sys.stderr.write("bench-report: no results in %s (run make bench-%s)\n"
                             % (d, name))
            setattr(args, name, None)
    if args.kernels:
        kernels_report(args)
    if args.costs:
        costs_report(args)
    if args.x86:
        x86_report(args)


if __name__ == "__main__":
    main()
