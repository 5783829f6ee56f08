// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One line of an execfoliofs trace (DESIGN.md section 8.5) into a record.
 * Strict: every field is checked, a field too many is an error, and a
 * message names the record and the field, so that a damaged trace is
 * refused with its line rather than simulated wrongly.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/trace.h>

/* The fields of a line, separated by single spaces. */
struct cursor {
	char *p; /* the next field; NULL after the last one */
	char *end;
	const char *type; /* the record's name, for messages */
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 2, 3)))
fail(struct cursor *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->errlen) /* the caller wants the errno only */
		return -EINVAL;
	n = c->type ? snprintf(c->err, c->errlen, "%s: ", c->type) : 0;
	if (n < 0 || (size_t)n >= c->errlen)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A field as a message quotes it: at most 40 bytes of it. */
#define QUOTED(s, len) (int)((len) < 40 ? (len) : 40), (s)

static int field(struct cursor *c, const char *name, char **start, size_t *len)
{
	char *space;

	if (!c->p)
		return fail(c, "%s missing (the line is cut short)", name);
	if (c->p == c->end || *c->p == ' ')
		return fail(c,
			    "%s empty: fields are separated by one space each",
			    name);
	space = memchr(c->p, ' ', (size_t)(c->end - c->p));
	*start = c->p;
	*len = (size_t)((space ? space : c->end) - c->p);
	c->p = space ? space + 1 : NULL;
	return 0;
}

static int no_more(struct cursor *c, const char *last)
{
	if (c->p)
		return fail(c, "unexpected text after %s: \"%.*s\"", last,
			    QUOTED(c->p, (size_t)(c->end - c->p)));
	return 0;
}

/* A number in @base (8 or 10) from 0 to @max. */
static int number(struct cursor *c, const char *name, unsigned int base,
		  uint64_t max, uint64_t *value)
{
	uint64_t v = 0;
	size_t len, i;
	char *s;
	int ret = field(c, name, &s, &len);

	if (ret)
		return ret;
	for (i = 0; i < len; i++) {
		unsigned int digit = (unsigned int)(s[i] - '0');

		if (s[i] < '0' || digit >= base)
			return fail(c, "%s \"%.*s\" is not %s number", name,
				    QUOTED(s, len),
				    base == 8 ? "an octal" : "a decimal");
		if (v > (max - digit) / base)
			return fail(c, "%s %.*s is out of range (at most %llu)",
				    name, QUOTED(s, len),
				    (unsigned long long)max);
		v = v * base + digit;
	}
	*value = v;
	return 0;
}

static int file_id(struct cursor *c, uint32_t *id)
{
	uint64_t v;
	int ret = number(c, "ID", 10, UINT32_MAX, &v);

	if (ret)
		return ret;
	if (!v)
		return fail(c, "ID 0: file IDs start at 1");
	*id = (uint32_t)v;
	return 0;
}

/* PATH in place: "\\" and "\n" are the only escapes. */
static int unescape(struct cursor *c, char *path, char *end)
{
	char *in, *out = path;

	for (in = path; in < end; in++) {
		if (*in != '\\') {
			*out++ = *in;
			continue;
		}
		if (in + 1 == end)
			return fail(c, "PATH ends in a lone backslash");
		in++;
		if (*in == '\\')
			*out++ = '\\';
		else if (*in == 'n')
			*out++ = '\n';
		else
			return fail(
				c,
				"PATH has the unknown escape \"\\%c\" (only \\\\ and \\n are escapes)",
				*in);
	}
	*out = '\0';
	return 0;
}

static int parse_file(struct cursor *c, struct execfolio_trace_record *rec)
{
	struct execfolio_trace_file *f = &rec->file;
	uint64_t size, mode;
	uint32_t policy;
	size_t len;
	char *s;
	int ret;

	rec->type = EXECFOLIO_TRACE_FILE;
	ret = file_id(c, &rec->id);
	if (!ret)
		ret = number(c, "SIZE", 10, EXECFOLIO_TRACE_OFF_MAX, &size);
	if (!ret)
		ret = number(c, "MODE", 8, 07777, &mode);
	if (!ret)
		ret = field(c, "POLICY", &s, &len);
	if (ret)
		return ret;
	if (execfolio_parse_size(s, len, &policy) ||
	    (len && s[len - 1] == '\n'))
		return fail(c, "POLICY \"%.*s\" is not a policy size",
			    QUOTED(s, len));
	ret = field(c, "SOURCE", &s, &len);
	if (ret)
		return ret;
	if (len == 5 && !memcmp(s, "xattr", 5))
		f->source = EXECFOLIO_SOURCE_XATTR;
	else if (len == 5 && !memcmp(s, "mount", 5))
		f->source = EXECFOLIO_SOURCE_MOUNT;
	else if (len == 4 && !memcmp(s, "none", 4))
		f->source = EXECFOLIO_SOURCE_NONE;
	else
		return fail(c, "SOURCE \"%.*s\" is not xattr, mount or none",
			    QUOTED(s, len));
	/* PATH is the rest of the line, spaces and all. */
	if (!c->p || c->p == c->end)
		return fail(c, "PATH missing (the line is cut short)");
	ret = unescape(c, c->p, c->end);
	if (ret)
		return ret;
	f->size = size;
	f->mode = (uint32_t)mode;
	f->policy = policy;
	f->path = c->p;
	return 0;
}

static int parse_seg(struct cursor *c, struct execfolio_trace_record *rec)
{
	struct execfolio_trace_seg *s = &rec->seg;
	int ret;

	rec->type = EXECFOLIO_TRACE_SEG;
	ret = file_id(c, &rec->id);
	if (!ret)
		ret = number(c, "OFFSET", 10, UINT64_MAX, &s->offset);
	if (!ret)
		ret = number(c, "VADDR", 10, UINT64_MAX, &s->vaddr);
	if (!ret)
		ret = number(c, "FILESZ", 10, UINT64_MAX, &s->filesz);
	if (!ret)
		ret = no_more(c, "FILESZ");
	if (ret)
		return ret;
	if (s->filesz > UINT64_MAX - s->offset ||
	    s->filesz > UINT64_MAX - s->vaddr)
		return fail(c, "the segment runs past 2^64");
	return 0;
}

static int parse_read(struct cursor *c, struct execfolio_trace_record *rec)
{
	struct execfolio_trace_read *r = &rec->read;
	uint64_t stream;
	size_t len;
	char *s;
	int ret;

	rec->type = EXECFOLIO_TRACE_READ;
	ret = file_id(c, &rec->id);
	if (!ret)
		ret = number(c, "STREAM", 10, UINT32_MAX, &stream);
	if (!ret)
		ret = number(c, "OFFSET", 10, EXECFOLIO_TRACE_OFF_MAX,
			     &r->offset);
	if (!ret)
		ret = number(c, "LENGTH", 10, EXECFOLIO_TRACE_READ_MAX,
			     &r->length);
	if (ret)
		return ret;
	r->stream = (uint32_t)stream;
	/* CAUSE came later: a read without one is a fault. */
	r->cause = EXECFOLIO_TRACE_FAULT;
	if (!c->p)
		return 0;
	ret = field(c, "CAUSE", &s, &len);
	if (ret)
		return ret;
	if (len == 7 && !memcmp(s, "syscall", 7))
		r->cause = EXECFOLIO_TRACE_SYSCALL;
	else if (len != 5 || memcmp(s, "fault", 5))
		return fail(c, "CAUSE \"%.*s\" is not fault or syscall",
			    QUOTED(s, len));
	return no_more(c, "CAUSE");
}

int execfolio_trace_parse(char *line, size_t len,
			  struct execfolio_trace_record *rec, char *err,
			  size_t errlen)
{
	struct cursor c = { line, line + len, NULL, err, errlen };
	size_t type_len;
	char *type;
	int ret;

	if (!len || line[0] == '#')
		return 0;
	if (memchr(line, '\0', len))
		return fail(&c,
			    "a NUL byte in the line (a text file has none)");
	ret = field(&c, "the record type", &type, &type_len);
	if (ret)
		return ret;
	memset(rec, 0, sizeof(*rec));
	if (type_len == 4 && !memcmp(type, "file", 4)) {
		c.type = "file";
		ret = parse_file(&c, rec);
	} else if (type_len == 3 && !memcmp(type, "seg", 3)) {
		c.type = "seg";
		ret = parse_seg(&c, rec);
	} else if (type_len == 4 && !memcmp(type, "read", 4)) {
		c.type = "read";
		ret = parse_read(&c, rec);
	} else {
		return fail(
			&c,
			"unknown record \"%.*s\" (version %d has file, seg and read)",
			QUOTED(type, type_len), EXECFOLIO_TRACE_VERSION);
	}
	return ret ? ret : 1;
}
