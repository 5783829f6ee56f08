// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing an execfoliofs trace (DESIGN.md section 8.5). A record is
 * checked against what the reader accepts and built whole, then written
 * with one fwrite(), so that a trace is read back as it was written.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/trace.h>

int execfolio_trace_write_header(FILE *out, uint32_t page_size)
{
	if (page_size < EXECFOLIO_TRACE_PAGE_MIN ||
	    page_size > EXECFOLIO_TRACE_PAGE_MAX ||
	    (page_size & (page_size - 1)))
		return -EINVAL;
	if (fprintf(out, "%s %d\npage_size %u\n", EXECFOLIO_TRACE_MAGIC,
		    EXECFOLIO_TRACE_VERSION, page_size) < 0)
		return -EIO;
	return 0;
}

/*
 * Append @path to @line (@len bytes so far) escaped; the new length, or
 * SIZE_MAX when the line would be longer than the reader takes.
 */
static size_t put_path(char *line, size_t len, const char *path)
{
	for (; *path; path++) {
		bool escape = *path == '\\' || *path == '\n';

		if (len + 1 + escape > EXECFOLIO_TRACE_LINE_MAX - 1)
			return SIZE_MAX;
		if (escape) {
			line[len++] = '\\';
			line[len++] = *path == '\n' ? 'n' : '\\';
		} else {
			line[len++] = *path;
		}
	}
	return len;
}

static int format_file(char *line, uint32_t id,
		       const struct execfolio_trace_file *f, size_t *len)
{
	char policy[EXECFOLIO_SIZE_STR];
	int n;

	if (f->size > EXECFOLIO_TRACE_OFF_MAX || f->mode > 07777 ||
	    !execfolio_size_valid(f->policy) || !f->path || !*f->path ||
	    (f->source != EXECFOLIO_SOURCE_NONE &&
	     f->source != EXECFOLIO_SOURCE_XATTR &&
	     f->source != EXECFOLIO_SOURCE_MOUNT))
		return -EINVAL;
	n = snprintf(line, EXECFOLIO_TRACE_LINE_MAX, "file %u %llu %o %s %s ",
		     id, (unsigned long long)f->size, f->mode,
		     execfolio_format_size(f->policy, policy),
		     execfolio_source_name(f->source));
	*len = put_path(line, (size_t)n, f->path);
	if (*len == SIZE_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int execfolio_trace_write(FILE *out, const struct execfolio_trace_record *rec)
{
	char line[EXECFOLIO_TRACE_LINE_MAX];
	const struct execfolio_trace_read *r = &rec->read;
	const struct execfolio_trace_seg *s = &rec->seg;
	size_t len;
	int ret;

	if (!rec->id)
		return -EINVAL;
	switch (rec->type) {
	case EXECFOLIO_TRACE_FILE:
		ret = format_file(line, rec->id, &rec->file, &len);
		if (ret)
			return ret;
		break;
	case EXECFOLIO_TRACE_SEG:
		if (s->filesz > UINT64_MAX - s->offset ||
		    s->filesz > UINT64_MAX - s->vaddr)
			return -EINVAL;
		len = (size_t)snprintf(line, sizeof(line),
				       "seg %u %llu %llu %llu", rec->id,
				       (unsigned long long)s->offset,
				       (unsigned long long)s->vaddr,
				       (unsigned long long)s->filesz);
		break;
	case EXECFOLIO_TRACE_READ:
		if (r->offset > EXECFOLIO_TRACE_OFF_MAX ||
		    r->length > EXECFOLIO_TRACE_READ_MAX ||
		    (r->cause != EXECFOLIO_TRACE_FAULT &&
		     r->cause != EXECFOLIO_TRACE_SYSCALL))
			return -EINVAL;
		len = (size_t)snprintf(line, sizeof(line),
				       "read %u %u %llu %llu %s", rec->id,
				       r->stream, (unsigned long long)r->offset,
				       (unsigned long long)r->length,
				       r->cause == EXECFOLIO_TRACE_SYSCALL ?
					       "syscall" :
					       "fault");
		break;
	default:
		return -EINVAL;
	}
	line[len++] = '\n';
	if (fwrite(line, 1, len, out) != len)
		return -EIO;
	return 0;
}
