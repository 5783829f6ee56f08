#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn fstests results into one table row per test and config section.

results-table.py [--tsv] RESULTS_DIR...

Each RESULTS_DIR is an fstests results/ directory (one per boot of make
check-fstests, OUTDIR/CONFIG/results).  For each section in it, the xunit
report (SECTION/result.xml, ./check -R xunit) gives every test's status and
time; a run that did not finish has no report, so check's output, kept
by run-check as results/check.console, is read instead.  Prints a
Markdown table (or tab-separated values with --tsv): test, config,
result (pass, fail, notrun; unfinished for the test a stopped run was
in), seconds, and the reason fstests gave for a fail or notrun.
"""
import os
import re
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


TEST_LINE = re.compile(r'^([a-z]+/[0-9]+)\b\s*(.*)$')


def from_console(results, section):
    """A run without an xunit report (stopped at its timeout): check's own
    output, results/check.console, says how each test it got to ended."""
    path = os.path.join(results, 'check.console')
    if not os.path.exists(path):
        return []
    rows = []
    for line in open(path, errors='replace'):
        m = TEST_LINE.match(line.rstrip())
        if not m:
            continue
        test, rest = m.groups()
        seconds = re.search(r'([0-9]+)s\s*$', rest)
        if '[expunged]' in rest:
            continue
        if '[not run]' in rest:
            result, note = 'notrun', rest.split('[not run]', 1)[1]
        elif 'output mismatch' in rest or '[failed' in rest or '_check_' in rest:
            result, note = 'fail', rest
        elif seconds:
            result, note = 'pass', ''
        else:
            result, note = 'unfinished', 'the run stopped during this test'
        rows.append((test, section, result,
                     seconds.group(1) if seconds and result == 'pass' else '',
                     note.strip()))
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
            rows += from_console(results, section)
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
