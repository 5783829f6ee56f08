// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The operation table handed to libfuse. Operations left out (locks, ioctl,
 * poll, bmap) get libfuse's ENOSYS, for which the kernel has local
 * fallbacks (flock/posix locks are then handled by the kernel itself).
 */
#include "execfoliofs.h"

const struct fuse_lowlevel_ops efs_ops = {
	.init = efs_init,
	.destroy = efs_destroy,
	.lookup = efs_lookup,
	.forget = efs_forget,
	.forget_multi = efs_forget_multi,
	.getattr = efs_getattr,
	.setattr = efs_setattr,
	.readlink = efs_readlink,
	.mknod = efs_mknod,
	.mkdir = efs_mkdir,
	.symlink = efs_symlink,
	.link = efs_link,
	.unlink = efs_unlink,
	.rmdir = efs_rmdir,
	.rename = efs_rename,
	.statfs = efs_statfs,
	.create = efs_create,
	.open = efs_open,
	.read = efs_read,
	.write_buf = efs_write_buf,
	.flush = efs_flush,
	.release = efs_release,
	.fsync = efs_fsync,
	.fallocate = efs_fallocate,
	.lseek = efs_lseek,
	.opendir = efs_opendir,
	.readdir = efs_readdir,
	.readdirplus = efs_readdirplus,
	.releasedir = efs_releasedir,
	.fsyncdir = efs_fsyncdir,
	.setxattr = efs_setxattr,
	.getxattr = efs_getxattr,
	.listxattr = efs_listxattr,
	.removexattr = efs_removexattr,
};
