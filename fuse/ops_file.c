// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Open files: open/create, read (traced in trace mode), write, flush,
 * release, fsync, fallocate and lseek. Data goes through the page cache
 * (no direct_io) so programs can be executed and mapped from the mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "execfoliofs.h"
#include "touch_recorder.h"

static struct efs_file *file_of(struct fuse_file_info *fi)
{
	return (struct efs_file *)(uintptr_t)fi->fh;
}

static int attach(struct fuse_file_info *fi, int fd)
{
	struct efs_file *file = calloc(1, sizeof(*file));

	if (!file)
		return -ENOMEM;
	file->fd = fd;
	file->stream = efs.trace ? efs_trace_stream() : 0;
	fi->fh = (uintptr_t)file;
	/*
	 * Keep cached pages across opens: the backing files change only
	 * through us (FUSE_CAP_AUTO_INVAL_DATA catches the rest by mtime),
	 * and a trace must see a page once, as the page cache would.
	 */
	fi->keep_cache = 1;
	fi->direct_io = 0;
	uatomic_inc(&efs.open_files);
	return 0;
}

void efs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct efs_proc_path proc;
	int fd, err;

	fd = open(efs_proc_path(efs_inode(ino)->fd, &proc),
		  (fi->flags & ~O_NOFOLLOW) | O_CLOEXEC);
	if (fd < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	err = attach(fi, fd);
	if (err) {
		close(fd);
		fuse_reply_err(req, -err);
		return;
	}
	fuse_reply_open(req, fi);
}

void efs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		mode_t mode, struct fuse_file_info *fi)
{
	int dir = efs_inode(parent)->fd,
	    flags = (fi->flags | O_CREAT) & ~O_NOFOLLOW;
	struct fuse_entry_param e;
	struct stat st;
	bool created;
	int fd, err;

	/*
	 * Exclusively first: a file this call creates has no xattr, so its
	 * policy is the mount default by mode, without asking the backing
	 * file. A name that exists (created behind the kernel's back) is
	 * opened as asked and resolved as any other.
	 */
	fd = openat(dir, name, flags | O_EXCL, mode);
	created = fd >= 0;
	if (fd < 0 && errno == EEXIST && !(flags & O_EXCL))
		fd = openat(dir, name, flags, mode);
	if (fd < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	err = efs_set_owner(req, parent, name, mode);
	if (!err && created && fstat(fd, &st))
		err = -errno;
	if (!err)
		err = -efs_do_lookup(parent, name, &e, created ? &st : NULL);
	if (!err)
		err = attach(fi, fd);
	if (err) {
		close(fd);
		fuse_reply_err(req, -err);
		return;
	}
	if (fuse_reply_create(req, &e, fi) == -ENOENT) {
		/* The kernel gave up on the request: undo the lookup. */
		efs_inode_forget(efs_inode(e.ino), 1);
		efs_release(NULL, e.ino, fi);
	}
}

void efs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	      struct fuse_file_info *fi)
{
	struct efs_file *file = file_of(fi);
	struct fuse_bufvec buf = FUSE_BUFVEC_INIT(size);

	if (efs.trace)
		efs_trace_read(efs_inode(ino), file, off, size,
			       fuse_req_ctx(req)->pid);
	buf.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
	buf.buf[0].fd = file->fd;
	buf.buf[0].pos = off;
	fuse_reply_data(req, &buf, FUSE_BUF_SPLICE_MOVE);
}

void efs_write_buf(fuse_req_t req, fuse_ino_t ino, struct fuse_bufvec *in,
		   off_t off, struct fuse_file_info *fi)
{
	struct fuse_bufvec out = FUSE_BUFVEC_INIT(fuse_buf_size(in));
	ssize_t n;

	out.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
	out.buf[0].fd = file_of(fi)->fd;
	out.buf[0].pos = off;
	n = fuse_buf_copy(&out, in, 0);
	if (n < 0)
		fuse_reply_err(req, -n);
	else
		fuse_reply_write(req, n);
}

/* close() of a duplicate runs the backing file system's flush. */
void efs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	int fd = dup(file_of(fi)->fd);

	if (fd < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_err(req, close(fd) ? errno : 0);
}

void efs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct efs_file *file = file_of(fi);

	close(file->fd);
	free(file);
	uatomic_dec(&efs.open_files);
	if (req)
		fuse_reply_err(req, 0);
}

void efs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	       struct fuse_file_info *fi)
{
	int fd = file_of(fi)->fd;

	fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ? errno : 0);
}

void efs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset,
		   off_t length, struct fuse_file_info *fi)
{
	fuse_reply_err(req, fallocate(file_of(fi)->fd, mode, offset, length) ?
				    errno :
				    0);
}

void efs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	       struct fuse_file_info *fi)
{
	off_t res = lseek(file_of(fi)->fd, off, whence);

	if (res < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_lseek(req, res);
}
