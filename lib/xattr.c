// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy xattr on files. trusted.* needs CAP_SYS_ADMIN both ways: writes
 * fail with EPERM without it, but reads quietly report ENODATA, which is why
 * callers ask execfolio_may_access_trusted() before trusting an absence.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/fs.h>

#include <execfolio/xattr.h>

#define CAP_SYS_ADMIN_BIT 21

bool execfolio_may_access_trusted(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_SYS_ADMIN_BIT / 32].effective &
	       (1u << (CAP_SYS_ADMIN_BIT % 32));
}

/* What an errno of the xattr calls means for the policy xattr. */
static const char *meaning(int ret)
{
	switch (ret) {
	case -EPERM:
		return "permission denied: trusted.* xattrs need CAP_SYS_ADMIN (run as root)";
	case -EACCES:
		return "permission denied";
	case -ENOTSUP:
		return "the filesystem does not support trusted.* xattrs (use XFS, ext4, btrfs, tmpfs...)";
	case -EROFS:
		return "read-only filesystem";
	case -ENOSPC:
	case -EDQUOT:
		return "no space left for the xattr";
	case -E2BIG:
		return "stored value is too long to be a policy size";
	case -EINVAL:
		return "the kernel rejected the value";
	case -ENOENT:
		return "no such file or directory";
	default:
		return strerror(-ret);
	}
}

/* "PATH: REASON" into @err; returns @ret. */
static int fail(char *err, size_t errlen, const char *path, const char *reason,
		int ret)
{
	snprintf(err, errlen, "%s: %s", path, reason);
	return ret;
}

/* "PATH: what @ret means" into @err; returns @ret. */
static int fail_errno(char *err, size_t errlen, const char *path, int ret)
{
	return fail(err, errlen, path, meaning(ret), ret);
}

/* The inode flags (chattr) of the open file @fd, or -errno. */
static int inode_flags_fd(int fd, unsigned int *flags)
{
	int attr = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &attr))
		return -errno;
	*flags = (unsigned int)attr;
	return 0;
}

/* The inode flags of @path, or of @fd when it is not negative. */
static int inode_flags(const char *path, int fd, unsigned int *flags)
{
	int ret;

	if (fd >= 0)
		return inode_flags_fd(fd, flags);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	ret = inode_flags_fd(fd, flags);
	close(fd);
	return ret;
}

/*
 * fail_errno() for a change of the xattr, telling the causes of EPERM
 * apart: an immutable or append-only file (chattr +i/+a) refuses every
 * xattr change, even root's; only when the file is neither does EPERM mean
 * a missing CAP_SYS_ADMIN, or, with the capability, a refusal by a
 * security module. The file is @fd when it is not negative, else @path.
 */
static int change_failed(char *err, size_t errlen, const char *path, int fd,
			 int ret)
{
	unsigned int flags = 0;

	if (ret != -EPERM)
		return fail_errno(err, errlen, path, ret);
	if (!inode_flags(path, fd, &flags)) {
		if (flags & FS_IMMUTABLE_FL)
			return fail(
				err, errlen, path,
				"the file is immutable (chattr +i), which forbids changing its xattrs even to root: remove the flag with 'chattr -i' first",
				ret);
		if (flags & FS_APPEND_FL)
			return fail(
				err, errlen, path,
				"the file is append-only (chattr +a), which forbids changing its xattrs even to root: remove the flag with 'chattr -a' first",
				ret);
	}
	if (!execfolio_may_access_trusted())
		return fail_errno(err, errlen, path, ret);
	return fail(
		err, errlen, path,
		"operation not permitted although this process has CAP_SYS_ADMIN: a security module or the filesystem refused it",
		ret);
}

int execfolio_xattr_get(const char *path, struct execfolio_stored *stored,
			char *err, size_t errlen)
{
	ssize_t len;
	int ret;

	stored->present = false;
	stored->len = 0;
	len = getxattr(path, EXECFOLIO_XATTR, stored->value,
		       sizeof(stored->value));
	if (len >= 0) {
		stored->present = true;
		stored->len = (size_t)len;
		return 0;
	}
	ret = -errno;
	if (ret == -ENODATA)
		return 0;
	if (ret == -ERANGE) {
		/* Longer than any valid value: report it as such. */
		len = getxattr(path, EXECFOLIO_XATTR, NULL, 0);
		if (len < 0)
			return fail_errno(err, errlen, path, -errno);
		stored->present = true;
		stored->len = (size_t)len;
		ret = -E2BIG;
	}
	return fail_errno(err, errlen, path, ret);
}

/* setxattr() of @path, or fsetxattr() of @fd when it is not negative. */
static int set_value(const char *path, int fd, uint32_t size, char *err,
		     size_t errlen)
{
	char value[EXECFOLIO_SIZE_STR];
	int ret;

	if (!execfolio_size_valid(size)) {
		snprintf(err, errlen, "%s: %" PRIu32 " is not a policy size",
			 path, size);
		return -EINVAL;
	}
	execfolio_format_size(size, value);
	if (fd >= 0)
		ret = fsetxattr(fd, EXECFOLIO_XATTR, value, strlen(value), 0);
	else
		ret = setxattr(path, EXECFOLIO_XATTR, value, strlen(value), 0);
	if (ret)
		return change_failed(err, errlen, path, fd, -errno);
	return 0;
}

int execfolio_xattr_set(const char *path, uint32_t size, char *err,
			size_t errlen)
{
	return set_value(path, -1, size, err, errlen);
}

int execfolio_xattr_fset(int fd, const char *name, uint32_t size, char *err,
			 size_t errlen)
{
	return set_value(name, fd, size, err, errlen);
}

int execfolio_xattr_remove(const char *path, char *err, size_t errlen)
{
	if (!removexattr(path, EXECFOLIO_XATTR))
		return 1;
	if (errno == ENODATA)
		return 0;
	return change_failed(err, errlen, path, -1, -errno);
}
