// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the trace reader (lib/trace_*.c) and the report's
 * loading of a trace (lib/report.c): any input must be read or refused
 * with a message, never read out of bounds (ASan) or with undefined
 * behaviour (UBSan); and each record read must be written back by the
 * writer (which refuses only what the reader refuses) as a line that
 * reads as the same record.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/report.h>
#include <execfolio/trace.h>

static bool same(const struct execfolio_trace_record *a,
		 const struct execfolio_trace_record *b)
{
	if (a->type != b->type || a->id != b->id)
		return false;
	switch (a->type) {
	case EXECFOLIO_TRACE_FILE:
		return a->file.size == b->file.size &&
		       a->file.mode == b->file.mode &&
		       a->file.policy == b->file.policy &&
		       a->file.source == b->file.source &&
		       !strcmp(a->file.path, b->file.path);
	case EXECFOLIO_TRACE_SEG:
		return !memcmp(&a->seg, &b->seg, sizeof(a->seg));
	case EXECFOLIO_TRACE_READ:
		return a->read.stream == b->read.stream &&
		       a->read.offset == b->read.offset &&
		       a->read.length == b->read.length &&
		       a->read.cause == b->read.cause;
	}
	return false;
}

/* Write @rec and read the line back. */
static void round_trip(const struct execfolio_trace_record *rec)
{
	static char line[EXECFOLIO_TRACE_LINE_MAX + 1];
	struct execfolio_trace_record back;
	char err[256];
	FILE *out = fmemopen(line, sizeof(line), "w");
	long len;

	if (!out)
		abort();
	setvbuf(out, NULL, _IONBF, 0);
	if (execfolio_trace_write(out, rec))
		abort();
	len = ftell(out);
	fclose(out);
	if (len < 1 || len > EXECFOLIO_TRACE_LINE_MAX || line[len - 1] != '\n')
		abort();
	line[len - 1] = '\0';
	if (execfolio_trace_parse(line, (size_t)len - 1, &back, err,
				  sizeof(err)) != 1 ||
	    !same(rec, &back))
		abort();
}

static void read_records(FILE *in)
{
	static struct execfolio_trace_reader r;
	struct execfolio_trace_record rec;
	char err[512];
	int ret;

	err[0] = '\0';
	ret = execfolio_trace_read_header(&r, in, "fuzz", err, sizeof(err));
	while (!ret) {
		ret = execfolio_trace_read_record(&r, &rec, err, sizeof(err));
		if (ret == 1) {
			round_trip(&rec);
			ret = 0;
		} else if (!ret) {
			return;
		}
	}
	/* A refusal says where and why. */
	if (ret != -EINVAL || strncmp(err, "fuzz", 4) || !err[5])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct execfolio_report report;
	char err[512];
	FILE *in;
	int ret;

	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		abort();
	read_records(in);
	rewind(in);
	ret = execfolio_report_load(&report, in, "fuzz", err, sizeof(err));
	if (ret && ret != -EINVAL)
		abort();
	execfolio_report_free(&report);
	fclose(in);
	return 0;
}
