/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The xfs_db answers recorded by tests/mkfs/record_xfsdb.sh in
 * tests/unit/data/xfsdb/ (or $EXECFOLIO_XFSDB_DATA), read by the unit
 * tests of mkfs.execfolio's readers.  Any failure fails the test.
 */
#ifndef EXECFOLIO_TESTS_XFSDB_RECORDING_H
#define EXECFOLIO_TESTS_XFSDB_RECORDING_H

#include <stddef.h>

#include "dbparse.h"

/* A recording as xfs_db printed it, NUL-terminated, in a malloc'd @buf. */
void xfsdb_recording_read(const char *name, char **buf, size_t *len);

/* ... cut into lines as xfsdb_run() does. */
void xfsdb_recording_load(const char *name, struct dbout *out);

#endif
