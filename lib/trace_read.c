// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading an execfoliofs trace (DESIGN.md section 8.5): the lines, the
 * header, and the order of the records (a file is described before it
 * is named); trace_parse.c reads each line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/trace.h>

static int __attribute__((format(printf, 4, 5)))
fail(const struct execfolio_trace_reader *r, char *err, size_t errlen,
     const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errlen) /* the caller wants the errno only */
		return -EINVAL;
	n = r->line ? snprintf(err, errlen, "%s:%lu: ", r->name, r->line) :
		      snprintf(err, errlen, "%s: ", r->name);
	if (n < 0 || (size_t)n >= errlen)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * The next line into r->buf, without its newline and NUL-terminated.
 * Returns its length, -ENODATA at the end, or -errno with @err set.
 */
static long next_line(struct execfolio_trace_reader *r, char *err,
		      size_t errlen)
{
	size_t len = 0;
	int ch;

	r->line++;
	while ((ch = getc_unlocked(r->in)) != EOF && ch != '\n') {
		if (len == EXECFOLIO_TRACE_LINE_MAX - 1)
			return fail(
				r, err, errlen,
				"line longer than %d bytes (not a trace, or a damaged one)",
				EXECFOLIO_TRACE_LINE_MAX);
		r->buf[len++] = (char)ch;
	}
	r->buf[len] = '\0';
	if (ferror(r->in)) {
		snprintf(err, errlen, "%s: read error after line %lu: %s",
			 r->name, r->line - 1, strerror(errno ? errno : EIO));
		return -EIO;
	}
	if (ch == EOF && !len) {
		r->line--;
		return -ENODATA;
	}
	if (ch == EOF)
		return fail(
			r, err, errlen,
			"the last line has no newline: the trace was cut short (the daemon killed, or the disk full?)");
	return (long)len;
}

int execfolio_trace_read_header(struct execfolio_trace_reader *r, FILE *in,
				const char *name, char *err, size_t errlen)
{
	static const char magic[] = EXECFOLIO_TRACE_MAGIC " ";
	unsigned long version, page_size;
	long len;
	int end = 0;

	r->in = in;
	r->name = name;
	r->line = 0;
	r->page_size = 0;
	r->files = 0;
	len = next_line(r, err, errlen);
	if (len == -ENODATA)
		return fail(
			r, err, errlen,
			"empty: not an execfoliofs trace (execfoliofs -o trace=FILE writes one)");
	if (len == -EIO)
		return (int)len;
	if (len < 0 || strncmp(r->buf, magic, sizeof(magic) - 1) ||
	    sscanf(r->buf + sizeof(magic) - 1, "%lu%n", &version, &end) != 1 ||
	    r->buf[sizeof(magic) - 1] < '0' ||
	    r->buf[sizeof(magic) - 1] > '9' || r->buf[sizeof(magic) - 1 + end])
		return fail(
			r, err, errlen,
			"not an execfoliofs trace: the first line must be \"%s %d\"",
			EXECFOLIO_TRACE_MAGIC, EXECFOLIO_TRACE_VERSION);
	if (version != EXECFOLIO_TRACE_VERSION)
		return fail(
			r, err, errlen,
			"trace version %lu: this execfolio reads version %d only (use the execfolio of the release whose execfoliofs wrote the trace)",
			version, EXECFOLIO_TRACE_VERSION);
	len = next_line(r, err, errlen);
	if (len == -ENODATA) {
		snprintf(
			err, errlen,
			"%s:2: the trace ends before its page_size line (cut short?)",
			name);
		return -EINVAL;
	}
	if (len < 0)
		return (int)len;
	end = 0;
	if (sscanf(r->buf, "page_size %lu%n", &page_size, &end) != 1 ||
	    r->buf[10] < '0' || r->buf[10] > '9' || r->buf[end] ||
	    page_size < EXECFOLIO_TRACE_PAGE_MIN ||
	    page_size > EXECFOLIO_TRACE_PAGE_MAX ||
	    (page_size & (page_size - 1)))
		return fail(
			r, err, errlen,
			"expected \"page_size BYTES\", BYTES a power of two from %u to %u",
			EXECFOLIO_TRACE_PAGE_MIN, EXECFOLIO_TRACE_PAGE_MAX);
	r->page_size = (uint32_t)page_size;
	return 0;
}

int execfolio_trace_read_record(struct execfolio_trace_reader *r,
				struct execfolio_trace_record *rec, char *err,
				size_t errlen)
{
	char why[256];
	long len;
	int ret;

	do {
		len = next_line(r, err, errlen);
		if (len == -ENODATA)
			return 0;
		if (len < 0)
			return (int)len;
		ret = execfolio_trace_parse(r->buf, (size_t)len, rec, why,
					    sizeof(why));
		if (ret < 0)
			return fail(r, err, errlen, "%s", why);
	} while (!ret);

	if (rec->type == EXECFOLIO_TRACE_FILE) {
		if (rec->id != r->files + 1)
			return fail(
				r, err, errlen,
				"file ID %u where %u was expected: file records number the files 1, 2, 3... in order",
				rec->id, r->files + 1);
		r->files++;
	} else if (rec->id > r->files) {
		return fail(
			r, err, errlen,
			"%s of file %u, which no file record has described yet",
			rec->type == EXECFOLIO_TRACE_SEG ? "seg" : "read",
			rec->id);
	}
	return 1;
}
