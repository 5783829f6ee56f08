// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Directories: opendir, readdir and readdirplus (which instantiates an
 * inode per entry, so its lookup is undone when the entry does not fit),
 * releasedir and fsyncdir.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "execfoliofs.h"

static struct efs_file *dir_of(struct fuse_file_info *fi)
{
	return (struct efs_file *)(uintptr_t)fi->fh;
}

void efs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct efs_file *d = calloc(1, sizeof(*d));
	int fd;

	if (!d) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fd = openat(efs_inode(ino)->fd, ".",
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(d->dir = fdopendir(fd))) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		free(d);
		fuse_reply_err(req, err);
		return;
	}
	d->fd = fd;
	fi->fh = (uintptr_t)d;
	uatomic_inc(&efs.open_files);
	fuse_reply_open(req, fi);
}

static bool dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Add the pending entry to @p; returns its size, or 0 to skip it. */
static size_t add_entry(fuse_req_t req, fuse_ino_t ino, struct efs_file *d,
			char *p, size_t rem, bool plus, int *err)
{
	struct dirent *de = d->dir_entry;
	struct fuse_entry_param e;
	size_t size;

	memset(&e, 0, sizeof(e));
	e.attr.st_ino = de->d_ino;
	e.attr.st_mode = (mode_t)de->d_type << 12;
	if (!plus)
		return fuse_add_direntry(req, p, rem, de->d_name, &e.attr,
					 de->d_off);
	if (!dot_or_dotdot(de->d_name)) {
		*err = efs_do_lookup(ino, de->d_name, &e, NULL);
		if (*err == ENOENT) {
			/* Removed since readdir saw it. */
			*err = 0;
			return 0;
		}
		if (*err)
			return 0;
	}
	size = fuse_add_direntry_plus(req, p, rem, de->d_name, &e, de->d_off);
	if (size > rem && e.ino)
		efs_inode_forget(efs_inode(e.ino), 1);
	return size;
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t offset, struct fuse_file_info *fi, bool plus)
{
	struct efs_file *d = dir_of(fi);
	char *buf = calloc(1, size), *p = buf;
	size_t rem = size, entsize;
	int err = 0;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (offset != d->dir_offset) {
		seekdir(d->dir, offset);
		d->dir_entry = NULL;
		d->dir_offset = offset;
	}
	for (;;) {
		if (!d->dir_entry) {
			errno = 0;
			d->dir_entry = readdir(d->dir);
			if (!d->dir_entry) {
				err = errno;
				break;
			}
		}
		entsize = add_entry(req, ino, d, p, rem, plus, &err);
		if (err || entsize > rem)
			break;
		p += entsize;
		rem -= entsize;
		d->dir_offset = d->dir_entry->d_off;
		d->dir_entry = NULL;
	}
	/* An error after some entries: report them, the error comes next. */
	if (err && rem == size)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, size - rem);
	free(buf);
}

void efs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		 struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, false);
}

void efs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, true);
}

void efs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct efs_file *d = dir_of(fi);

	closedir(d->dir);
	free(d);
	uatomic_dec(&efs.open_files);
	fuse_reply_err(req, 0);
}

void efs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		  struct fuse_file_info *fi)
{
	int fd = dirfd(dir_of(fi)->dir);

	fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ? errno : 0);
}
