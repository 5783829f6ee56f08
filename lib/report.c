// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's input: an execfoliofs trace gathered per file. A file is
 * known by its path; an inode the daemon forgot and met again is
 * described again under a new ID, whose reads continue the file's and
 * whose segments are the ones already known.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/report.h>
#include <execfolio/trace.h>

static int no_memory(char *err, size_t errlen, const char *name)
{
	snprintf(err, errlen, "%s: out of memory reading the trace", name);
	return -ENOMEM;
}

/* Room for one more of @size-byte items in *@p, which holds @n of @room. */
static int grow(void **p, size_t n, size_t *room, size_t size)
{
	size_t want = *room ? 2 * *room : 16;
	void *q;

	if (n < *room)
		return 0;
	if (want > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, want * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*room = want;
	return 0;
}

static int add_file(struct execfolio_report *r,
		    const struct execfolio_trace_file *tf)
{
	struct execfolio_report_id *id;
	struct execfolio_report_file *f;
	size_t i;

	if (grow((void **)&r->ids, r->nids, &r->ids_room, sizeof(*r->ids)))
		return -ENOMEM;
	id = &r->ids[r->nids];
	for (i = 0; i < r->nfiles; i++) {
		if (!strcmp(r->files[i].path, tf->path)) {
			if (tf->size > r->files[i].size)
				r->files[i].size = tf->size;
			id->file = i;
			id->owner = false;
			r->nids++;
			return 0;
		}
	}
	if (!(r->nfiles & 63)) {
		f = realloc(r->files, (r->nfiles + 64) * sizeof(*f));
		if (!f)
			return -ENOMEM;
		r->files = f;
	}
	f = &r->files[r->nfiles];
	memset(f, 0, sizeof(*f));
	f->path = strdup(tf->path);
	if (!f->path)
		return -ENOMEM;
	f->size = tf->size;
	f->policy = tf->policy;
	id->file = r->nfiles++;
	id->owner = true;
	r->nids++;
	return 0;
}

static int add_seg(struct execfolio_report *r, uint32_t id,
		   const struct execfolio_trace_seg *ts)
{
	const struct execfolio_report_id *rid = &r->ids[id - 1];
	struct execfolio_report_file *f = &r->files[rid->file];
	struct execfolio_sim_segment *s;

	if (!rid->owner)
		return 0;
	s = realloc(f->segs, (f->nsegs + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	s[f->nsegs].offset = ts->offset;
	s[f->nsegs].vaddr = ts->vaddr;
	s[f->nsegs].filesz = ts->filesz;
	f->segs = s;
	f->nsegs++;
	return 0;
}

/* Each page of the read is a first touch. */
static int add_read(struct execfolio_report *r, uint32_t id,
		    const struct execfolio_trace_read *tr)
{
	struct execfolio_report_file *f = &r->files[r->ids[id - 1].file];
	uint64_t page, last;

	if (!tr->length)
		return 0;
	last = (tr->offset + tr->length - 1) / r->page_size;
	for (page = tr->offset / r->page_size; page <= last; page++) {
		struct execfolio_sim_touch *t;

		if (grow((void **)&f->touches, f->ntouches, &f->touches_room,
			 sizeof(*f->touches)))
			return -ENOMEM;
		t = &f->touches[f->ntouches++];
		t->page = page;
		t->stream = tr->stream;
		t->syscall = tr->cause == EXECFOLIO_TRACE_SYSCALL;
	}
	return 0;
}

int execfolio_report_load(struct execfolio_report *r, FILE *in,
			  const char *name, char *err, size_t errlen)
{
	struct execfolio_trace_reader *reader = malloc(sizeof(*reader));
	struct execfolio_trace_record rec;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!reader)
		return no_memory(err, errlen, name);
	ret = execfolio_trace_read_header(reader, in, name, err, errlen);
	r->page_size = reader->page_size;
	while (!ret) {
		ret = execfolio_trace_read_record(reader, &rec, err, errlen);
		if (ret <= 0)
			break;
		/* The reader has checked that IDs are described. */
		if (rec.type == EXECFOLIO_TRACE_FILE)
			ret = add_file(r, &rec.file);
		else if (rec.type == EXECFOLIO_TRACE_SEG)
			ret = add_seg(r, rec.id, &rec.seg);
		else
			ret = add_read(r, rec.id, &rec.read);
		if (ret)
			ret = no_memory(err, errlen, name);
	}
	free(reader);
	return ret;
}

void execfolio_report_free(struct execfolio_report *r)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++) {
		free(r->files[i].path);
		free(r->files[i].segs);
		free(r->files[i].touches);
	}
	free(r->files);
	free(r->ids);
	memset(r, 0, sizeof(*r));
}
