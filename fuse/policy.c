// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec folio policy of each inode, resolved by libexecfolio exactly as
 * the kernel resolves it (xattr > mount default for executable files, or
 * for every regular file under exec_folio_scope=all), and
 * the read-only virtual xattrs that make it and the daemon's counters
 * observable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/xattr.h>

#include "execfoliofs.h"

/*
 * Called when the inode is instantiated and when its mode or xattr change.
 * @no_xattr: the caller knows the file has no xattr (the daemon has just
 * created it), so the backing file is not asked: its policy is the mount
 * default by mode and scope.
 */
void efs_policy_resolve(struct efs_inode *inode, mode_t mode, bool no_xattr)
{
	struct execfolio_inode in = {
		.mode = mode,
		.has_mount = efs.has_mount_policy,
		.mount_size = efs.mount_policy,
		.mount_scope = efs.mount_scope,
	};
	struct execfolio_stored stored;
	struct efs_proc_path proc;
	int ret;

	inode->mode = mode;
	if (S_ISREG(mode) && !no_xattr) {
		ret = execfolio_xattr_get(efs_proc_path(inode->fd, &proc),
					  &stored, NULL, 0);
		/* Too long to be valid (-E2BIG) still counts as present. */
		if ((!ret || ret == -E2BIG) && stored.present) {
			in.has_xattr = true;
			in.xattr = stored.value;
			in.xattr_len = stored.len;
		}
	}
	execfolio_resolve(&in, &inode->policy);
}

bool efs_is_virtual_xattr(const char *name)
{
	return !strcmp(name, EFS_XATTR_POLICY) ||
	       !strcmp(name, EFS_XATTR_STATS);
}

int efs_virtual_xattr(struct efs_inode *inode, const char *name, char *buf,
		      size_t size)
{
	char value[128], canon[EXECFOLIO_SIZE_STR];
	struct execfolio_policy policy;
	int len;

	if (!strcmp(name, EFS_XATTR_STATS)) {
		if (inode != &efs.root)
			return -ENODATA;
		len = snprintf(value, sizeof(value), "inodes=%lu open=%lu",
			       uatomic_read(&efs.inodes),
			       uatomic_read(&efs.open_files));
	} else {
		pthread_mutex_lock(&inode->lock);
		policy = inode->policy;
		pthread_mutex_unlock(&inode->lock);
		len = snprintf(value, sizeof(value), "%s %s%s",
			       execfolio_format_size(policy.size, canon),
			       execfolio_source_name(policy.source),
			       policy.xattr_invalid ? " invalid-xattr" : "");
	}
	if (!size)
		return len;
	if ((size_t)len > size)
		return -ERANGE;
	memcpy(buf, value, len);
	return len;
}
