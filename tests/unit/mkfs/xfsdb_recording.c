// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "xfsdb_recording.h"

void xfsdb_recording_read(const char *name, char **buf, size_t *len)
{
	const char *dir = getenv("EXECFOLIO_XFSDB_DATA");
	char path[512];
	FILE *f;
	long size;

	snprintf(path, sizeof(path), "%s/%s",
		 dir ? dir : "tests/unit/data/xfsdb", name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 0);
	rewind(f);
	*buf = malloc(size + 1);
	assert_non_null(*buf);
	assert_int_equal(fread(*buf, 1, size, f), size);
	fclose(f);
	(*buf)[size] = '\0';
	*len = size;
}

void xfsdb_recording_load(const char *name, struct dbout *out)
{
	memset(out, 0, sizeof(*out));
	xfsdb_recording_read(name, &out->buf, &out->len);
	assert_int_equal(dbout_split(out), 0);
	assert_true(out->nlines > 0);
}
