// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder of trace mode (`-o trace=FILE`): with the kernel's
 * readahead off for the mount, every first touch of a page reaches us as a
 * one-page read, in order, and is recorded in the trace file. libexecfolio writes the records (include/execfolio/trace.h; the
 * format is specified in DESIGN.md section 8.5 and execfoliofs(8)): a file
 * record just before a file's first read, with its executable segments,
 * then a read record per read with its stream (one per open(2)) and its
 * cause (see read_cause()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <execfolio/elf.h>
#include <execfolio/trace.h>

#include "execfoliofs.h"
#include "touch_recorder.h"

struct efs_trace {
	FILE *out;
	pthread_mutex_t lock;
	uint32_t next_file;
	uint32_t next_stream; /* atomic */
	char backing[PATH_MAX];
	size_t backing_len;
};

int efs_trace_open(const char *path, char *err, size_t err_len)
{
	struct efs_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	if (!realpath(efs.backing, t->backing)) {
		snprintf(err, err_len, "%s: %s", efs.backing, strerror(errno));
		free(t);
		return -errno;
	}
	t->backing_len = strlen(t->backing);
	t->out = fopen(path, "we");
	if (!t->out) {
		int ret = -errno;

		snprintf(err, err_len, "cannot create trace file %s: %s", path,
			 strerror(errno));
		free(t);
		return ret;
	}
	setvbuf(t->out, NULL, _IOFBF, 1 << 16);
	if (execfolio_trace_write_header(t->out,
					 (uint32_t)sysconf(_SC_PAGESIZE))) {
		snprintf(err, err_len, "cannot write trace file %s", path);
		fclose(t->out);
		free(t);
		return -EIO;
	}
	pthread_mutex_init(&t->lock, NULL);
	efs.trace = t;
	return 0;
}

uint32_t efs_trace_stream(void)
{
	return uatomic_add_return(&efs.trace->next_stream, 1);
}

/* The path of @fd relative to the backing directory, or "?" if gone. */
static const char *relative_path(struct efs_trace *t, int fd, char *buf,
				 size_t len)
{
	struct efs_proc_path proc;
	ssize_t n;

	n = readlink(efs_proc_path(fd, &proc), buf, len - 1);
	if (n < 0)
		return "?";
	buf[n] = '\0';
	if (!strncmp(buf, t->backing, t->backing_len) &&
	    buf[t->backing_len] == '/')
		return buf + t->backing_len + 1;
	return buf;
}

static void describe(struct efs_trace *t, struct efs_inode *inode)
{
	struct efs_proc_path proc;
	char path[PATH_MAX];
	struct execfolio_trace_record rec = { .type = EXECFOLIO_TRACE_FILE };
	struct execfolio_policy policy;
	struct execfolio_elf elf;
	struct stat st;
	size_t i;

	inode->trace_id = ++t->next_file;
	if (fstatat(inode->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		memset(&st, 0, sizeof(st));
	pthread_mutex_lock(&inode->lock);
	policy = inode->policy;
	pthread_mutex_unlock(&inode->lock);
	rec.id = inode->trace_id;
	rec.file.size = (uint64_t)st.st_size;
	rec.file.mode = st.st_mode & 07777;
	rec.file.policy = policy.size;
	rec.file.source = policy.source;
	rec.file.path = relative_path(t, inode->fd, path, sizeof(path));
	/*
	 * A path under PATH_MAX always fits a line; a write error (a full
	 * disk) leaves a trace that the reader finds cut short.
	 */
	execfolio_trace_write(t->out, &rec);

	if (execfolio_elf_analyse_file(efs_proc_path(inode->fd, &proc), &elf,
				       NULL, 0))
		return;
	rec.type = EXECFOLIO_TRACE_SEG;
	for (i = 0; i < elf.nsegments; i++) {
		rec.seg.offset = elf.segments[i].offset;
		rec.seg.vaddr = elf.segments[i].vaddr;
		rec.seg.filesz = elf.segments[i].filesz;
		execfolio_trace_write(t->out, &rec);
	}
	execfolio_elf_free(&elf);
}

/* The first @len - 1 bytes of /proc/TID/NAME; 0 if it cannot be read. */
static ssize_t read_proc(pid_t tid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)tid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	return n;
}

/*
 * Why the kernel reads the page: FUSE does not say, but the task that
 * needs it waits until we answer. Its kernel stack (/proc/TID/stack, root
 * only) tells a page fault (handle_mm_fault, also for a fault the kernel
 * takes on user memory inside a system call, such as execve(2) zeroing the
 * end of a data segment) from a read by a system call (filemap_read).
 * Without the stack, or before the task is asleep, /proc/TID/syscall tells
 * whether it is in a system call that reads files (read(2), execve(2)...).
 * "fault" when it cannot be told.
 */
static enum execfolio_trace_cause read_cause(pid_t tid)
{
	static const long readers[] = {
		SYS_read,     SYS_pread64,  SYS_readv,		 SYS_preadv,
		SYS_execve,   SYS_execveat, SYS_copy_file_range, SYS_splice,
		SYS_sendfile,
	};
	char buf[4096];
	size_t i;
	long nr;

	if (tid <= 0)
		return EXECFOLIO_TRACE_FAULT;
	/* An empty or partial stack: the task is not asleep yet, wait. */
	for (i = 0; i < 50 && read_proc(tid, "stack", buf, sizeof(buf)); i++) {
		if (strstr(buf, "handle_mm_fault"))
			return EXECFOLIO_TRACE_FAULT;
		if (strstr(buf, "filemap_read"))
			return EXECFOLIO_TRACE_SYSCALL;
		usleep(200);
	}
	if (!read_proc(tid, "syscall", buf, sizeof(buf)) ||
	    sscanf(buf, "%ld", &nr) != 1)
		return EXECFOLIO_TRACE_FAULT;
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++)
		if (nr == readers[i])
			return EXECFOLIO_TRACE_SYSCALL;
	return EXECFOLIO_TRACE_FAULT;
}

void efs_trace_read(struct efs_inode *inode, const struct efs_file *file,
		    off_t off, size_t len, pid_t tid)
{
	struct efs_trace *t = efs.trace;
	struct execfolio_trace_record rec = { .type = EXECFOLIO_TRACE_READ };

	if (!S_ISREG(inode->mode))
		return;
	rec.read.stream = file->stream;
	rec.read.offset = (uint64_t)off;
	rec.read.length = len;
	rec.read.cause = read_cause(tid);
	pthread_mutex_lock(&t->lock);
	if (!inode->trace_id)
		describe(t, inode);
	rec.id = inode->trace_id;
	execfolio_trace_write(t->out, &rec);
	pthread_mutex_unlock(&t->lock);
}

void efs_trace_close(void)
{
	struct efs_trace *t = efs.trace;

	if (!t)
		return;
	fclose(t->out);
	pthread_mutex_destroy(&t->lock);
	free(t);
	efs.trace = NULL;
}
