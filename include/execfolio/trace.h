/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace format of execfoliofs (`-o trace=FILE`): what a workload first
 * touched, file by file, in order. DESIGN.md section 8.5 is the
 * specification; this is its one reader and writer. The writer refuses
 * what the reader would refuse, so every trace written reads back.
 */
#ifndef EXECFOLIO_TRACE_H
#define EXECFOLIO_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <execfolio/error.h>
#include <execfolio/policy.h>

#define EXECFOLIO_TRACE_MAGIC "execfoliofs-trace"
#define EXECFOLIO_TRACE_VERSION 1
/* Longest line, its newline included. */
#define EXECFOLIO_TRACE_LINE_MAX 16384
/* Page sizes a trace may have: those Linux has. */
#define EXECFOLIO_TRACE_PAGE_MIN 4096u
#define EXECFOLIO_TRACE_PAGE_MAX (256u << 10)
/* Largest LENGTH of a read record (FUSE reads are at most 256 pages). */
#define EXECFOLIO_TRACE_READ_MAX (16u << 20)
/* Largest file SIZE and read OFFSET: what an off_t holds. */
#define EXECFOLIO_TRACE_OFF_MAX ((uint64_t)INT64_MAX)

enum execfolio_trace_type {
	EXECFOLIO_TRACE_FILE,
	EXECFOLIO_TRACE_SEG,
	EXECFOLIO_TRACE_READ,
};

enum execfolio_trace_cause {
	EXECFOLIO_TRACE_FAULT, /* through a mapping */
	EXECFOLIO_TRACE_SYSCALL, /* read(2), execve(2)... */
};

/* A file, before its first read: it gets the next ID (1, 2, 3...). */
struct execfolio_trace_file {
	uint64_t size; /* bytes, when first read */
	uint32_t mode; /* permission bits, at most 07777 */
	uint32_t policy; /* policy size in bytes, 0 for none */
	enum execfolio_source source;
	const char *path; /* unescaped; not empty */
};

/* An executable PT_LOAD segment of the file. */
struct execfolio_trace_seg {
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
};

/* A read of [offset, offset + length) through open file @stream. */
struct execfolio_trace_read {
	uint32_t stream;
	uint64_t offset;
	uint64_t length;
	enum execfolio_trace_cause cause;
};

struct execfolio_trace_record {
	enum execfolio_trace_type type;
	uint32_t id; /* the file the record is about, >= 1 */
	union {
		struct execfolio_trace_file file;
		struct execfolio_trace_seg seg;
		struct execfolio_trace_read read;
	};
};

/*
 * Parse one line, without its newline, in place (a file record's path is
 * unescaped inside @line and points there). Returns 1 for a record, 0 for
 * a line that holds none (a comment or an empty line), or -EINVAL with
 * what is wrong in @err. Checks the line alone: whether the IDs are
 * described is the reader's business.
 */
int execfolio_trace_parse(char *line, size_t len,
			  struct execfolio_trace_record *rec, char *err,
			  size_t errlen);

struct execfolio_trace_reader {
	FILE *in;
	const char *name; /* for messages */
	unsigned long line; /* of the last line read */
	uint32_t page_size;
	uint32_t files; /* file records read: the last ID */
	char buf[EXECFOLIO_TRACE_LINE_MAX + 1];
};

/*
 * Start reading the trace @in (named @name in messages): checks the
 * version line and reads the page size. Returns 0, or -errno with
 * "NAME: what is wrong" in @err (-EINVAL: not a trace of this version).
 */
int execfolio_trace_read_header(struct execfolio_trace_reader *r, FILE *in,
				const char *name, char *err, size_t errlen);

/*
 * The next record: returns 1 with @rec filled in (a path stays valid
 * until the next call), 0 at the end of the trace, or -errno with
 * "NAME:LINE: what is wrong" in @err (-EINVAL for malformed input, -EIO
 * for a read error). After an error the reader is not to be used again.
 */
int execfolio_trace_read_record(struct execfolio_trace_reader *r,
				struct execfolio_trace_record *rec, char *err,
				size_t errlen);

/*
 * The header of a trace of @page_size pages. Returns 0, -EINVAL for a
 * page size the format cannot carry, or -EIO when @out failed.
 */
int execfolio_trace_write_header(FILE *out, uint32_t page_size);

/*
 * One record as one line, in a single write (callers serialize records
 * of several threads). Returns 0, -EINVAL for a record the reader would
 * refuse (nothing is written; -ENAMETOOLONG for a path that makes the
 * line too long), or -EIO when @out failed.
 */
int execfolio_trace_write(FILE *out, const struct execfolio_trace_record *rec);

#endif /* EXECFOLIO_TRACE_H */
