#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn fstests results into one table row per test and config section.

results-table.py [--tsv] RESULTS_DIR...

Each RESULTS_DIR is an fstests results/ directory (one per boot of make
check-fstests, OUTDIR/CONFIG/results).  For each section in it, the xunit
report (SECTION/result.xml, ./check -R xunit) gives every test's status and
time; a run that did not finish has no report, so the section's check.log
summary (Ran:, Not run:, Failures:) and check.time are read instead, and
tests the summary does not name are left out.  Prints a Markdown table
(or tab-separated values with --tsv): test, config, result (pass, fail,
notrun), seconds, and the reason fstests gave for a fail or notrun.
"""
import os
import sys
import xml.etree.ElementTree as ET


def from_xunit(path):
    rows = []
    root = ET.parse(path).getroot()
    for case in root.iter('testcase'):
        section = case.get('classname', '').split('.', 1)[-1]
        result, note = 'pass', ''
        for child in case:
            if child.tag == 'skipped':
                result, note = 'notrun', child.get('message', '')
            elif child.tag == 'failure':
                result, note = 'fail', child.get('message', '')
        rows.append((case.get('name'), section, result, case.get('time', ''),
                     note.strip()))
    return rows


def words_after(line, label):
    return line[len(label):].split() if line.startswith(label) else []


def from_check_log(results, section):
    """check.log of an unfinished run: its last summary, with check.time."""
    log = os.path.join(results, 'check.log')
    if not os.path.exists(log):
        return []
    ran, notrun, failed = [], [], []
    for line in open(log, errors='replace'):
        line = line.strip()
        if line.startswith('Ran:'):
            ran, notrun, failed = words_after(line, 'Ran:'), [], []
        notrun += words_after(line, 'Not run:')
        failed += words_after(line, 'Failures:')
    times = {}
    ctime = os.path.join(results, 'check.time')
    if os.path.exists(ctime):
        for line in open(ctime, errors='replace'):
            f = line.split()
            if len(f) == 2:
                times[f[0]] = f[1]
    rows = []
    for t in ran:
        result = 'fail' if t in failed else 'notrun' if t in notrun else 'pass'
        note = ''
        if result == 'notrun':
            p = os.path.join(results, section, t + '.notrun')
            if os.path.exists(p):
                note = open(p, errors='replace').read().strip()
        rows.append((t, section, result, times.get(t, ''), note))
    return rows


def rows_of(results):
    rows = []
    for section in sorted(os.listdir(results)):
        d = os.path.join(results, section)
        if not os.path.isdir(d):
            continue
        xunit = os.path.join(d, 'result.xml')
        if os.path.exists(xunit):
            rows += from_xunit(xunit)
        else:
            rows += from_check_log(results, section)
    return rows


def main(argv):
    tsv = argv[:1] == ['--tsv']
    dirs = argv[1:] if tsv else argv
    if not dirs:
        print('usage: ' + __doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rows = []
    for d in dirs:
        if not os.path.isdir(d):
            print(f'results-table: {d} is not a results directory', file=sys.stderr)
            return 1
        rows += rows_of(d)
    if not rows:
        print('results-table: no fstests results in ' + ' '.join(dirs), file=sys.stderr)
        return 1
    rows.sort(key=lambda r: (r[0], r[1]))
    if tsv:
        print('test\tconfig\tresult\tseconds\tnote')
        for r in rows:
            print('\t'.join(x.replace('\t', ' ').replace('\n', ' ') for x in r))
    else:
        print('| test | config | result | seconds | note |')
        print('| --- | --- | --- | ---: | --- |')
        for r in rows:
            print('| ' + ' | '.join(x.replace('|', '\\|').replace('\n', ' ') for x in r) + ' |')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
