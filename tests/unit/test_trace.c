// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The execfoliofs trace format (DESIGN.md section 8.5): what the writer
 * writes, byte for byte; that it reads back; that the writer refuses what
 * the reader would; and that each kind of damage is refused with the line
 * and the field named.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <execfolio/trace.h>

struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static void capture_start(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static void capture_end(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
}

static struct execfolio_trace_record file_rec(uint32_t id, const char *path)
{
	struct execfolio_trace_record rec = { .type = EXECFOLIO_TRACE_FILE,
					      .id = id };

	rec.file.size = 1048576;
	rec.file.mode = 0644;
	rec.file.policy = 0;
	rec.file.source = EXECFOLIO_SOURCE_NONE;
	rec.file.path = path;
	return rec;
}

static struct execfolio_trace_record seg_rec(uint32_t id, uint64_t offset,
					     uint64_t vaddr, uint64_t filesz)
{
	struct execfolio_trace_record rec = { .type = EXECFOLIO_TRACE_SEG,
					      .id = id };

	rec.seg.offset = offset;
	rec.seg.vaddr = vaddr;
	rec.seg.filesz = filesz;
	return rec;
}

static struct execfolio_trace_record read_rec(uint32_t id, uint32_t stream,
					      uint64_t offset, uint64_t length,
					      enum execfolio_trace_cause cause)
{
	struct execfolio_trace_record rec = { .type = EXECFOLIO_TRACE_READ,
					      .id = id };

	rec.read.stream = stream;
	rec.read.offset = offset;
	rec.read.length = length;
	rec.read.cause = cause;
	return rec;
}

/* The writer's output is the format of the specification, to the byte. */
static void test_writer_text(void **state)
{
	struct execfolio_trace_record rec;
	struct capture c;

	capture_start(&c);
	assert_int_equal(execfolio_trace_write_header(c.f, 4096), 0);
	rec = file_rec(1, "text");
	assert_int_equal(execfolio_trace_write(c.f, &rec), 0);
	rec = seg_rec(1, 0, 0, 1048576);
	assert_int_equal(execfolio_trace_write(c.f, &rec), 0);
	rec = read_rec(1, 1, 409600, 4096, EXECFOLIO_TRACE_FAULT);
	assert_int_equal(execfolio_trace_write(c.f, &rec), 0);
	rec = file_rec(2, "usr/lib/a b\\c\nd");
	rec.file.size = 151344;
	rec.file.mode = 04755;
	rec.file.policy = 64 << 10;
	rec.file.source = EXECFOLIO_SOURCE_MOUNT;
	assert_int_equal(execfolio_trace_write(c.f, &rec), 0);
	rec = read_rec(2, 4294967295u, 0, 4096, EXECFOLIO_TRACE_SYSCALL);
	assert_int_equal(execfolio_trace_write(c.f, &rec), 0);
	capture_end(&c);
	assert_string_equal(
		c.buf, "execfoliofs-trace 1\n"
		       "page_size 4096\n"
		       "file 1 1048576 644 none none text\n"
		       "seg 1 0 0 1048576\n"
		       "read 1 1 409600 4096 fault\n"
		       "file 2 151344 4755 64k mount usr/lib/a b\\\\c\\nd\n"
		       "read 2 4294967295 0 4096 syscall\n");
	free(c.buf);
}

/* Reads @text (@len bytes) into @recs; returns what the reader returned. */
static int read_all(const char *text, size_t len,
		    struct execfolio_trace_record *recs, char paths[][64],
		    size_t max, size_t *n, struct execfolio_trace_reader *r,
		    char *err, size_t err_len)
{
	FILE *in = fmemopen((void *)text, len, "r");
	int ret;

	assert_non_null(in);
	*n = 0;
	err[0] = '\0';
	ret = execfolio_trace_read_header(r, in, "t", err, err_len);
	while (!ret) {
		ret = execfolio_trace_read_record(r, &recs[*n], err, err_len);
		if (ret <= 0)
			break;
		assert_true(*n < max);
		if (recs[*n].type == EXECFOLIO_TRACE_FILE) {
			snprintf(paths[*n], 64, "%s", recs[*n].file.path);
			recs[*n].file.path = paths[*n];
		}
		(*n)++;
		ret = 0;
	}
	fclose(in);
	return ret;
}

static void assert_same(const struct execfolio_trace_record *a,
			const struct execfolio_trace_record *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->id, b->id);
	switch (a->type) {
	case EXECFOLIO_TRACE_FILE:
		assert_int_equal(a->file.size, b->file.size);
		assert_int_equal(a->file.mode, b->file.mode);
		assert_int_equal(a->file.policy, b->file.policy);
		assert_int_equal(a->file.source, b->file.source);
		assert_string_equal(a->file.path, b->file.path);
		break;
	case EXECFOLIO_TRACE_SEG:
		assert_int_equal(a->seg.offset, b->seg.offset);
		assert_int_equal(a->seg.vaddr, b->seg.vaddr);
		assert_int_equal(a->seg.filesz, b->seg.filesz);
		break;
	case EXECFOLIO_TRACE_READ:
		assert_int_equal(a->read.stream, b->read.stream);
		assert_int_equal(a->read.offset, b->read.offset);
		assert_int_equal(a->read.length, b->read.length);
		assert_int_equal(a->read.cause, b->read.cause);
		break;
	}
}

/* Every record, with the extremes of each field, reads back as written. */
static void test_round_trip(void **state)
{
	struct execfolio_trace_record recs[8], back[8];
	struct execfolio_trace_reader *r = malloc(sizeof(*r));
	char paths[8][64], err[256];
	struct capture c;
	size_t i, n;

	assert_non_null(r);
	recs[0] = file_rec(1, " lead\\\\ing \n\nspace ");
	recs[0].file.size = EXECFOLIO_TRACE_OFF_MAX;
	recs[0].file.mode = 07777;
	recs[0].file.policy = 2 << 20;
	recs[0].file.source = EXECFOLIO_SOURCE_XATTR;
	recs[1] = seg_rec(1, 0, UINT64_MAX, 0);
	recs[2] = seg_rec(1, 65536, 4259840, 1 << 20);
	recs[3] = read_rec(1, 0, EXECFOLIO_TRACE_OFF_MAX, 0,
			   EXECFOLIO_TRACE_SYSCALL);
	recs[4] = file_rec(2, "?");
	recs[4].file.size = 0;
	recs[4].file.mode = 0;
	recs[5] = read_rec(2, UINT32_MAX, 8192, EXECFOLIO_TRACE_READ_MAX,
			   EXECFOLIO_TRACE_FAULT);
	recs[6] = read_rec(1, 3, 4096, 4096, EXECFOLIO_TRACE_FAULT);
	recs[7] = file_rec(3, "/outside/the/backing directory");
	capture_start(&c);
	assert_int_equal(execfolio_trace_write_header(c.f, 65536), 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(execfolio_trace_write(c.f, &recs[i]), 0);
	capture_end(&c);

	assert_int_equal(read_all(c.buf, c.len, back, paths, 8, &n, r, err,
				  sizeof(err)),
			 0);
	assert_string_equal(err, "");
	assert_int_equal(r->page_size, 65536);
	assert_int_equal(n, 8);
	for (i = 0; i < 8; i++)
		assert_same(&recs[i], &back[i]);
	free(c.buf);
	free(r);
}

/* What the reader would refuse, the writer does not write. */
static void test_writer_refuses(void **state)
{
	struct execfolio_trace_record rec;
	struct capture c;
	char *path;

	capture_start(&c);
	assert_int_equal(execfolio_trace_write_header(c.f, 4097), -EINVAL);
	assert_int_equal(execfolio_trace_write_header(c.f, 2048), -EINVAL);
	assert_int_equal(execfolio_trace_write_header(c.f, 512u << 10),
			 -EINVAL);
	rec = file_rec(0, "x");
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = file_rec(1, "");
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = file_rec(1, "x");
	rec.file.mode = 010000;
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = file_rec(1, "x");
	rec.file.policy = 48 << 10;
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = file_rec(1, "x");
	rec.file.size = EXECFOLIO_TRACE_OFF_MAX + 1;
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = file_rec(1, "x");
	rec.file.source = 7;
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = seg_rec(1, UINT64_MAX, 0, 1);
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = read_rec(1, 1, 0, EXECFOLIO_TRACE_READ_MAX + 1,
		       EXECFOLIO_TRACE_FAULT);
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec = read_rec(1, 1, 0, 4096, 2);
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);
	rec.type = 9;
	assert_int_equal(execfolio_trace_write(c.f, &rec), -EINVAL);

	/* "file 1 1048576 644 none none " is 29 bytes; a newline ends it. */
	path = malloc(EXECFOLIO_TRACE_LINE_MAX);
	assert_non_null(path);
	memset(path, 'a', EXECFOLIO_TRACE_LINE_MAX - 29);
	path[EXECFOLIO_TRACE_LINE_MAX - 29] = '\0';
	rec = file_rec(1, path);
	assert_int_equal(execfolio_trace_write(c.f, &rec), -ENAMETOOLONG);
	path[EXECFOLIO_TRACE_LINE_MAX - 30] = '\0';
	assert_int_equal(execfolio_trace_write(c.f, &rec), 0);
	/* An escape takes two bytes. */
	path[EXECFOLIO_TRACE_LINE_MAX - 31] = '\n';
	assert_int_equal(execfolio_trace_write(c.f, &rec), -ENAMETOOLONG);
	capture_end(&c);
	/* Only the one line that fits was written, and it reads back. */
	assert_int_equal(c.len, EXECFOLIO_TRACE_LINE_MAX);
	assert_int_equal(c.buf[c.len - 1], '\n');
	{
		char err[256];
		char *line = c.buf;
		struct execfolio_trace_record back;

		line[c.len - 1] = '\0';
		assert_int_equal(execfolio_trace_parse(line, c.len - 1, &back,
						       err, sizeof(err)),
				 1);
		assert_int_equal(strlen(back.file.path),
				 EXECFOLIO_TRACE_LINE_MAX - 30);
	}
	free(c.buf);
	free(path);
}

/* Comments, empty lines and a read without CAUSE (older traces). */
static void test_reader_accepts(void **state)
{
	static const char text[] = "execfoliofs-trace 1\n"
				   "page_size 16384\n"
				   "# a comment\n"
				   "\n"
				   "file 1 0 755 2m xattr a  b\n"
				   "read 1 7 16384 16384\n";
	struct execfolio_trace_reader *r = malloc(sizeof(*r));
	struct execfolio_trace_record recs[4];
	char paths[4][64], err[256];
	size_t n;

	assert_non_null(r);
	assert_int_equal(read_all(text, sizeof(text) - 1, recs, paths, 4, &n, r,
				  err, sizeof(err)),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(r->page_size, 16384);
	assert_string_equal(recs[0].file.path, "a  b");
	assert_int_equal(recs[0].file.policy, 2 << 20);
	assert_int_equal(recs[0].file.source, EXECFOLIO_SOURCE_XATTR);
	assert_int_equal(recs[0].file.mode, 0755);
	assert_int_equal(recs[1].read.cause, EXECFOLIO_TRACE_FAULT);
	assert_int_equal(recs[1].read.stream, 7);
	assert_int_equal(r->line, 6);
	free(r);
}

#define HEADER "execfoliofs-trace 1\npage_size 4096\n"
#define FILE1 "file 1 8192 755 none none prog\n"

static const struct {
	const char *text;
	int ret;
	const char *message; /* the whole message */
} damaged[] = {
	{ "", -EINVAL,
	  "t: empty: not an execfoliofs trace (execfoliofs -o trace=FILE writes one)" },
	{ "\177ELF\2\1\1", -EINVAL,
	  "t:1: not an execfoliofs trace: the first line must be \"execfoliofs-trace 1\"" },
	{ "hello\n", -EINVAL,
	  "t:1: not an execfoliofs trace: the first line must be \"execfoliofs-trace 1\"" },
	{ "execfoliofs-trace  1\n", -EINVAL,
	  "t:1: not an execfoliofs trace: the first line must be \"execfoliofs-trace 1\"" },
	{ "execfoliofs-trace 1x\n", -EINVAL,
	  "t:1: not an execfoliofs trace: the first line must be \"execfoliofs-trace 1\"" },
	{ "execfoliofs-trace 2\npage_size 4096\n", -EINVAL,
	  "t:1: trace version 2: this execfolio reads version 1 only (use the execfolio of the release whose execfoliofs wrote the trace)" },
	{ "execfoliofs-trace 1\n", -EINVAL,
	  "t:2: the trace ends before its page_size line (cut short?)" },
	{ "execfoliofs-trace 1\npage_size 4097\n", -EINVAL,
	  "t:2: expected \"page_size BYTES\", BYTES a power of two from 4096 to 262144" },
	{ "execfoliofs-trace 1\npage_size 2048\n", -EINVAL,
	  "t:2: expected \"page_size BYTES\", BYTES a power of two from 4096 to 262144" },
	{ "execfoliofs-trace 1\npage_size 4096 \n", -EINVAL,
	  "t:2: expected \"page_size BYTES\", BYTES a power of two from 4096 to 262144" },
	{ "execfoliofs-trace 1\npage_size -4096\n", -EINVAL,
	  "t:2: expected \"page_size BYTES\", BYTES a power of two from 4096 to 262144" },
	/* Truncated: the end of a line, or of the trace, is missing. */
	{ HEADER FILE1 "read 1 1 0 40", -EINVAL,
	  "t:4: the last line has no newline: the trace was cut short (the daemon killed, or the disk full?)" },
	{ HEADER FILE1 "read 1 1 0\n", -EINVAL,
	  "t:4: read: LENGTH missing (the line is cut short)" },
	{ HEADER "file 1 8192 755 none none\n", -EINVAL,
	  "t:3: file: PATH missing (the line is cut short)" },
	{ HEADER "file 1 8192 755 none none \n", -EINVAL,
	  "t:3: file: PATH missing (the line is cut short)" },
	{ HEADER FILE1 "seg 1\n", -EINVAL,
	  "t:4: seg: OFFSET missing (the line is cut short)" },
	{ HEADER "read\n", -EINVAL,
	  "t:3: read: ID missing (the line is cut short)" },
	/* Bad numbers. */
	{ HEADER FILE1 "read 1 1 12x 4096\n", -EINVAL,
	  "t:4: read: OFFSET \"12x\" is not a decimal number" },
	{ HEADER FILE1 "read 1 1 -4096 4096\n", -EINVAL,
	  "t:4: read: OFFSET \"-4096\" is not a decimal number" },
	{ HEADER FILE1 "read 1 1 0 4096.0\n", -EINVAL,
	  "t:4: read: LENGTH \"4096.0\" is not a decimal number" },
	{ HEADER FILE1 "read 1 1 0 16777217\n", -EINVAL,
	  "t:4: read: LENGTH 16777217 is out of range (at most 16777216)" },
	{ HEADER FILE1 "read 1 4294967296 0 4096\n", -EINVAL,
	  "t:4: read: STREAM 4294967296 is out of range (at most 4294967295)" },
	{ HEADER FILE1 "read 1 1 9223372036854775808 4096\n", -EINVAL,
	  "t:4: read: OFFSET 9223372036854775808 is out of range (at most 9223372036854775807)" },
	{ HEADER FILE1 "seg 1 18446744073709551616 0 0\n", -EINVAL,
	  "t:4: seg: OFFSET 18446744073709551616 is out of range (at most 18446744073709551615)" },
	{ HEADER FILE1 "seg 1 18446744073709551615 0 1\n", -EINVAL,
	  "t:4: seg: the segment runs past 2^64" },
	{ HEADER "file 1 8192 758 none none prog\n", -EINVAL,
	  "t:3: file: MODE \"758\" is not an octal number" },
	{ HEADER "file 1 8192 17777 none none prog\n", -EINVAL,
	  "t:3: file: MODE 17777 is out of range (at most 4095)" },
	{ HEADER "file 0 8192 755 none none prog\n", -EINVAL,
	  "t:3: file: ID 0: file IDs start at 1" },
	{ HEADER "file 1 8192 755 48k none prog\n", -EINVAL,
	  "t:3: file: POLICY \"48k\" is not a policy size" },
	{ HEADER "file 1 8192 755 64k kernel prog\n", -EINVAL,
	  "t:3: file: SOURCE \"kernel\" is not xattr, mount or none" },
	/* Unknown records and fields. */
	{ HEADER FILE1 "write 1 0 4096\n", -EINVAL,
	  "t:4: unknown record \"write\" (version 1 has file, seg and read)" },
	{ HEADER FILE1 "READ 1 1 0 4096\n", -EINVAL,
	  "t:4: unknown record \"READ\" (version 1 has file, seg and read)" },
	{ HEADER FILE1 "read 1 1 0 4096 mmap\n", -EINVAL,
	  "t:4: read: CAUSE \"mmap\" is not fault or syscall" },
	{ HEADER FILE1 "read 1 1 0 4096 fault\r\n", -EINVAL,
	  "t:4: read: CAUSE \"fault\r\" is not fault or syscall" },
	{ HEADER FILE1 "read 1 1 0 4096 fault 7\n", -EINVAL,
	  "t:4: read: unexpected text after CAUSE: \"7\"" },
	{ HEADER FILE1 "seg 1 0 0 4096 \n", -EINVAL,
	  "t:4: seg: unexpected text after FILESZ: \"\"" },
	{ HEADER FILE1 "read 1  1 0 4096\n", -EINVAL,
	  "t:4: read: STREAM empty: fields are separated by one space each" },
	{ HEADER " file 1 8192 755 none none prog\n", -EINVAL,
	  "t:3: the record type empty: fields are separated by one space each" },
	{ HEADER "file 1 8192 755 none none a\\tb\n", -EINVAL,
	  "t:3: file: PATH has the unknown escape \"\\t\" (only \\\\ and \\n are escapes)" },
	{ HEADER "file 1 8192 755 none none ab\\\n", -EINVAL,
	  "t:3: file: PATH ends in a lone backslash" },
	{ HEADER "file 1 8192 755 none none a\0b\n", -EINVAL,
	  "t:3: a NUL byte in the line (a text file has none)" },
	/* Records in the wrong order. */
	{ HEADER "read 7 1 0 4096\n", -EINVAL,
	  "t:3: read of file 7, which no file record has described yet" },
	{ HEADER FILE1 "seg 2 0 0 4096\n", -EINVAL,
	  "t:4: seg of file 2, which no file record has described yet" },
	{ HEADER "file 2 8192 755 none none prog\n", -EINVAL,
	  "t:3: file ID 2 where 1 was expected: file records number the files 1, 2, 3... in order" },
	{ HEADER FILE1 FILE1, -EINVAL,
	  "t:4: file ID 1 where 2 was expected: file records number the files 1, 2, 3... in order" },
};

static void test_reader_refuses(void **state)
{
	struct execfolio_trace_reader *r = malloc(sizeof(*r));
	struct execfolio_trace_record recs[8];
	char paths[8][64], err[512];
	size_t i, n, len;

	assert_non_null(r);
	for (i = 0; i < sizeof(damaged) / sizeof(damaged[0]); i++) {
		len = strlen(damaged[i].text);
		/* The one with a NUL byte: up to the newline after it. */
		if (strstr(damaged[i].message, "NUL byte"))
			len += 3;
		if (read_all(damaged[i].text, len, recs, paths, 8, &n, r, err,
			     sizeof(err)) != damaged[i].ret ||
		    strcmp(err, damaged[i].message))
			fail_msg("damaged[%zu]: got \"%s\", want \"%s\"", i,
				 err, damaged[i].message);
	}
	free(r);
}

/* A line longer than the limit is refused without reading it whole. */
static void test_overlong_line(void **state)
{
	struct execfolio_trace_reader *r = malloc(sizeof(*r));
	size_t len = strlen(HEADER) + 3 * EXECFOLIO_TRACE_LINE_MAX;
	struct execfolio_trace_record recs[2];
	char *text = malloc(len + 1), paths[2][64], err[256];
	size_t n;

	assert_non_null(r);
	assert_non_null(text);
	memset(text, 'x', len);
	memcpy(text, HEADER, strlen(HEADER));
	text[len] = '\0';
	text[len - 1] = '\n';
	assert_int_equal(read_all(text, len, recs, paths, 2, &n, r, err,
				  sizeof(err)),
			 -EINVAL);
	assert_string_equal(
		err,
		"t:3: line longer than 16384 bytes (not a trace, or a damaged one)");
	/* The longest line that is allowed: a comment of 16383 bytes. */
	memset(text + strlen(HEADER), 'x', len - strlen(HEADER));
	text[strlen(HEADER)] = '#';
	text[strlen(HEADER) + EXECFOLIO_TRACE_LINE_MAX - 1] = '\n';
	assert_int_equal(read_all(text,
				  strlen(HEADER) + EXECFOLIO_TRACE_LINE_MAX,
				  recs, paths, 2, &n, r, err, sizeof(err)),
			 0);
	assert_int_equal(n, 0);
	/* One byte more is one too many. */
	text[strlen(HEADER) + EXECFOLIO_TRACE_LINE_MAX - 1] = 'x';
	text[strlen(HEADER) + EXECFOLIO_TRACE_LINE_MAX] = '\n';
	assert_int_equal(read_all(text,
				  strlen(HEADER) + EXECFOLIO_TRACE_LINE_MAX + 1,
				  recs, paths, 2, &n, r, err, sizeof(err)),
			 -EINVAL);
	free(text);
	free(r);
}

/* The line parser alone: comments and empty lines hold no record. */
static void test_parse_line(void **state)
{
	struct execfolio_trace_record rec;
	char line[64], err[128];

	strcpy(line, "# x");
	assert_int_equal(execfolio_trace_parse(line, 3, &rec, err, sizeof(err)),
			 0);
	assert_int_equal(execfolio_trace_parse(line, 0, &rec, err, sizeof(err)),
			 0);
	strcpy(line, "seg 3 1 2 3");
	assert_int_equal(execfolio_trace_parse(line, strlen(line), &rec, err,
					       sizeof(err)),
			 1);
	assert_int_equal(rec.type, EXECFOLIO_TRACE_SEG);
	assert_int_equal(rec.id, 3);
	assert_int_equal(rec.seg.filesz, 3);
	/* A message too long for the buffer is cut, not overrun. */
	strcpy(line, "read 1 1 0 99999999999999999999");
	assert_int_equal(execfolio_trace_parse(line, strlen(line), &rec, err,
					       8),
			 -EINVAL);
	assert_string_equal(err, "read: L");
	/* A caller that wants only the errno passes no buffer. */
	assert_int_equal(execfolio_trace_parse(line, strlen(line), &rec, NULL,
					       0),
			 -EINVAL);
}

/* The reader, too, refuses without a buffer for its message. */
static void test_reader_without_message(void **state)
{
	static const char text[] = "execfoliofs-trace 1\npage_size 4096\n"
				   "seg 1 0 0 4096\n";
	struct execfolio_trace_reader *r = malloc(sizeof(*r));
	struct execfolio_trace_record rec;
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");

	assert_non_null(r);
	assert_non_null(in);
	assert_int_equal(execfolio_trace_read_header(r, in, "t", NULL, 0), 0);
	assert_int_equal(execfolio_trace_read_record(r, &rec, NULL, 0),
			 -EINVAL);
	fclose(in);
	in = fmemopen((void *)"x\n", 2, "r");
	assert_non_null(in);
	assert_int_equal(execfolio_trace_read_header(r, in, "t", NULL, 0),
			 -EINVAL);
	fclose(in);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_text),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_writer_refuses),
		cmocka_unit_test(test_reader_accepts),
		cmocka_unit_test(test_reader_refuses),
		cmocka_unit_test(test_overlong_line),
		cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_reader_without_message),
	};

	return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
