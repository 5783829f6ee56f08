// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Name and attribute operations: lookup/forget, getattr/setattr, creation
 * and removal of names, rename, readlink and statfs. Everything works on
 * the O_PATH descriptor of the parent or of the inode, never on a path
 * built from names, so a concurrent rename cannot redirect an operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "execfoliofs.h"

const char *efs_proc_path(int fd, struct efs_proc_path *buf)
{
	snprintf(buf->s, sizeof(buf->s), "/proc/self/fd/%d", fd);
	return buf->s;
}

static int stat_fd(int fd, struct stat *st)
{
	return fstatat(fd, "", st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
}

/* A chmod behind our back, or through us, changes the exec-bit default. */
static void refresh(struct efs_inode *inode, const struct stat *st)
{
	pthread_mutex_lock(&inode->lock);
	if (inode->mode != st->st_mode)
		efs_policy_resolve(inode, st->st_mode, false);
	pthread_mutex_unlock(&inode->lock);
}

int efs_do_lookup(fuse_ino_t parent, const char *name,
		  struct fuse_entry_param *e, const struct stat *created)
{
	struct efs_inode *dir = efs_inode(parent), *inode;
	struct stat st;
	int fd;

	memset(e, 0, sizeof(*e));
	fd = openat(dir->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (stat_fd(fd, &st)) {
		int err = errno;

		close(fd);
		return err;
	}
	/* The name may have been replaced in the backing directory since. */
	inode = efs_inode_get(fd, &st,
			      created && created->st_dev == st.st_dev &&
				      created->st_ino == st.st_ino);
	if (!inode)
		return errno;
	refresh(inode, &st);
	e->ino = inode == &efs.root ? FUSE_ROOT_ID : (uintptr_t)inode;
	e->attr = st;
	e->attr_timeout = efs.timeout;
	e->entry_timeout = efs.timeout;
	return 0;
}

void efs_reply_entry(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	int err = efs_do_lookup(parent, name, &e, NULL);

	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

void efs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	efs_reply_entry(req, parent, name);
}

void efs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	efs_inode_forget(efs_inode(ino), nlookup);
	fuse_reply_none(req);
}

void efs_forget_multi(fuse_req_t req, size_t count,
		      struct fuse_forget_data *forgets)
{
	size_t i;

	for (i = 0; i < count; i++)
		efs_inode_forget(efs_inode(forgets[i].ino), forgets[i].nlookup);
	fuse_reply_none(req);
}

void efs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct efs_inode *inode = efs_inode(ino);
	struct stat st;

	if (stat_fd(inode->fd, &st)) {
		fuse_reply_err(req, errno);
		return;
	}
	refresh(inode, &st);
	fuse_reply_attr(req, &st, efs.timeout);
}

static int set_times(int fd, bool by_path, const struct stat *attr, int valid)
{
	struct timespec tv[2] = { { .tv_nsec = UTIME_OMIT },
				  { .tv_nsec = UTIME_OMIT } };
	struct efs_proc_path proc;

	if (valid & FUSE_SET_ATTR_ATIME_NOW)
		tv[0].tv_nsec = UTIME_NOW;
	else if (valid & FUSE_SET_ATTR_ATIME)
		tv[0] = attr->st_atim;
	if (valid & FUSE_SET_ATTR_MTIME_NOW)
		tv[1].tv_nsec = UTIME_NOW;
	else if (valid & FUSE_SET_ATTR_MTIME)
		tv[1] = attr->st_mtim;
	if (!by_path)
		return futimens(fd, tv);
	return utimensat(AT_FDCWD, efs_proc_path(fd, &proc), tv, 0);
}

void efs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int valid,
		 struct fuse_file_info *fi)
{
	struct efs_inode *inode = efs_inode(ino);
	struct efs_file *file = fi ? (struct efs_file *)(uintptr_t)fi->fh :
				     NULL;
	struct efs_proc_path proc;
	const char *path = efs_proc_path(inode->fd, &proc);
	int ret = 0;

	if (valid & FUSE_SET_ATTR_MODE)
		ret = file ? fchmod(file->fd, attr->st_mode) :
			     chmod(path, attr->st_mode);
	if (!ret && (valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID))) {
		uid_t uid = valid & FUSE_SET_ATTR_UID ? attr->st_uid :
							(uid_t)-1;
		gid_t gid = valid & FUSE_SET_ATTR_GID ? attr->st_gid :
							(gid_t)-1;

		ret = fchownat(inode->fd, "", uid, gid,
			       AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	}
	if (!ret && (valid & FUSE_SET_ATTR_SIZE))
		ret = file ? ftruncate(file->fd, attr->st_size) :
			     truncate(path, attr->st_size);
	if (!ret && (valid & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)))
		ret = set_times(file ? file->fd : inode->fd, !file, attr,
				valid);
	if (ret) {
		fuse_reply_err(req, errno);
		return;
	}
	efs_getattr(req, ino, fi);
}

/*
 * The daemon runs as root; new names get the caller's ownership (the group
 * stays the one a set-group-ID directory gave them). Root's chown clears
 * the set-ID bits, so they are put back.
 */
int efs_set_owner(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	struct efs_inode *dir = efs_inode(parent);
	struct stat dst;
	gid_t gid = ctx->gid;

	if (!ctx->uid && !ctx->gid)
		return 0;
	if (!stat_fd(dir->fd, &dst) && (dst.st_mode & S_ISGID))
		gid = (gid_t)-1;
	if (fchownat(dir->fd, name, ctx->uid, gid, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if ((mode & (S_ISUID | S_ISGID)) && !S_ISLNK(mode) &&
	    fchmodat(dir->fd, name, mode & 07777, 0))
		return -errno;
	return 0;
}

/* Undo a creation whose ownership could not be set. */
static void created(fuse_req_t req, fuse_ino_t parent, const char *name,
		    mode_t mode)
{
	int err = efs_set_owner(req, parent, name, mode);

	if (err) {
		unlinkat(efs_inode(parent)->fd, name,
			 S_ISDIR(mode) ? AT_REMOVEDIR : 0);
		fuse_reply_err(req, -err);
		return;
	}
	efs_reply_entry(req, parent, name);
}

void efs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
	       dev_t rdev)
{
	if (mknodat(efs_inode(parent)->fd, name, mode, rdev))
		fuse_reply_err(req, errno);
	else
		created(req, parent, name, mode);
}

void efs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	if (mkdirat(efs_inode(parent)->fd, name, mode))
		fuse_reply_err(req, errno);
	else
		created(req, parent, name, S_IFDIR | mode);
}

void efs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		 const char *name)
{
	if (symlinkat(link, efs_inode(parent)->fd, name))
		fuse_reply_err(req, errno);
	else
		created(req, parent, name, S_IFLNK | 0777);
}

void efs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	      const char *newname)
{
	if (linkat(efs_inode(ino)->fd, "", efs_inode(newparent)->fd, newname,
		   AT_EMPTY_PATH))
		fuse_reply_err(req, errno);
	else
		efs_reply_entry(req, newparent, newname);
}

void efs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req,
		       unlinkat(efs_inode(parent)->fd, name, 0) ? errno : 0);
}

void efs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req,
		       unlinkat(efs_inode(parent)->fd, name, AT_REMOVEDIR) ?
			       errno :
			       0);
}

void efs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	int ret = renameat2(efs_inode(parent)->fd, name,
			    efs_inode(newparent)->fd, newname, flags);

	fuse_reply_err(req, ret ? errno : 0);
}

void efs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char buf[PATH_MAX + 1];
	ssize_t n = readlinkat(efs_inode(ino)->fd, "", buf, sizeof(buf));

	if (n < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	if (n == sizeof(buf)) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	buf[n] = '\0';
	fuse_reply_readlink(req, buf);
}

void efs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	if (fstatvfs(efs_inode(ino)->fd, &sv))
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &sv);
}
