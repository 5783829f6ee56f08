// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Extended attributes, passed through to the backing file. The policy
 * xattr is validated like the patched kernel validates it (a malformed
 * value fails with EINVAL) and re-resolves the inode's policy when it
 * changes; the daemon's virtual attributes are read-only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include <execfolio/policy.h>

#include "execfoliofs.h"

static void reply_size_or_data(fuse_req_t req, char *buf, size_t size,
			       ssize_t len)
{
	if (len < 0)
		fuse_reply_err(req, errno);
	else if (!size)
		fuse_reply_xattr(req, len);
	else
		fuse_reply_buf(req, buf, len);
}

static void reresolve(struct efs_inode *inode)
{
	pthread_mutex_lock(&inode->lock);
	efs_policy_resolve(inode, inode->mode, false);
	pthread_mutex_unlock(&inode->lock);
}

void efs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		  const char *value, size_t size, int flags)
{
	struct efs_inode *inode = efs_inode(ino);
	struct efs_proc_path proc;
	uint32_t policy;

	if (efs_is_virtual_xattr(name)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	if (!strcmp(name, EXECFOLIO_XATTR) &&
	    execfolio_parse_size(value, size, &policy)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (setxattr(efs_proc_path(inode->fd, &proc), name, value, size,
		     flags)) {
		fuse_reply_err(req, errno);
		return;
	}
	if (!strcmp(name, EXECFOLIO_XATTR))
		reresolve(inode);
	fuse_reply_err(req, 0);
}

void efs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{
	struct efs_inode *inode = efs_inode(ino);
	struct efs_proc_path proc;
	char *buf = NULL;
	ssize_t len;

	if (size && !(buf = malloc(size))) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (efs_is_virtual_xattr(name)) {
		len = efs_virtual_xattr(inode, name, buf, size);
		if (len < 0) {
			errno = -len;
			len = -1;
		}
	} else {
		len = getxattr(efs_proc_path(inode->fd, &proc), name, buf,
			       size);
	}
	reply_size_or_data(req, buf, size, len);
	free(buf);
}

void efs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct efs_proc_path proc;
	char *buf = NULL;
	ssize_t len;

	if (size && !(buf = malloc(size))) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	len = listxattr(efs_proc_path(efs_inode(ino)->fd, &proc), buf, size);
	reply_size_or_data(req, buf, size, len);
	free(buf);
}

void efs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	struct efs_inode *inode = efs_inode(ino);
	struct efs_proc_path proc;

	if (efs_is_virtual_xattr(name)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	if (removexattr(efs_proc_path(inode->fd, &proc), name)) {
		fuse_reply_err(req, errno);
		return;
	}
	if (!strcmp(name, EXECFOLIO_XATTR))
		reresolve(inode);
	fuse_reply_err(req, 0);
}
