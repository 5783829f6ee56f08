// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-file report: every way in which the image differs from the
 * source, one line each, "PATH: what", PATH relative to SOURCE_DIR with
 * non-printable bytes escaped, so that no difference is silent.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mkfs.h"

static FILE *report_out;
static size_t report_lines;

/*
 * "PATH: MESSAGE", PATH escaped ("." for the root); on standard error after
 * progname, as every message.
 */
static void put_node_line(FILE *out, const struct node *n, const char *fmt,
			  va_list ap)
{
	if (out == stderr)
		fprintf(out, "%s: ", progname);
	if (n->rel[0])
		fput_escaped(out, n->rel, strlen(n->rel));
	else
		fputc('.', out);
	fputs(": ", out);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
}

void err_file(const struct node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_node_line(stderr, n, fmt, ap);
	va_end(ap);
}

void fput_escaped(FILE *out, const void *bytes, size_t len)
{
	const unsigned char *s = bytes;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '\\')
			fputs("\\\\", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

char *render_str(void (*put)(FILE *, const void *, size_t), const void *s,
		 size_t len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		out_of_memory();
	put(f, s, len);
	if (fclose(f))
		out_of_memory();
	return buf;
}

int report_open(const char *path)
{
	report_lines = 0;
	if (!path) {
		report_out = stderr;
		return 0;
	}
	report_out = fopen(path, "w");
	if (!report_out) {
		err_msg("cannot write the report %s: %s", path,
			strerror(errno));
		return -errno;
	}
	return 0;
}

static void report_line(const struct node *n, const char *fmt, va_list ap)
{
	if (!report_out)
		report_out = stderr;
	put_node_line(report_out, n, fmt, ap);
}

void report(const struct node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_line(n, fmt, ap);
	va_end(ap);
	report_lines++;
}

/* A line of the report that is no difference: --strict does not count it. */
void report_note(const struct node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_line(n, fmt, ap);
	va_end(ap);
}

size_t report_count(void)
{
	return report_lines;
}

int report_close(void)
{
	int ret = 0;

	if (report_out && report_out != stderr && fclose(report_out))
		ret = -errno;
	report_out = NULL;
	return ret;
}
