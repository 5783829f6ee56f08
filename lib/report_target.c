// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where `execfolio report --apply DIR` stores a suggestion: the trace's
 * path under DIR, only when that path stays inside DIR. A trace is just a
 * text file; it must not be able to name /etc/x or ../x, nor reach out of
 * DIR through a symlink in it: the file is opened with openat2(2) as if
 * DIR were the root directory (RESOLVE_IN_ROOT), so an absolute link in a
 * root file system tree resolves inside the tree, as in a chroot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include <execfolio/report.h>

static bool inside(const char *path)
{
	const char *p = path;

	/* "?": the daemon could not tell the file's path. */
	if (!*path || *path == '/' || !strcmp(path, "?"))
		return false;
	while (p) {
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return true;
}

int execfolio_report_target(const char *dir, const char *path, char *buf,
			    size_t len)
{
	int n;

	if (!inside(path))
		return -EINVAL;
	n = snprintf(buf, len, "%s/%s", dir, path);
	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	return 0;
}

/* Debian 12's glibc has no openat2() wrapper. */
static int openat2_in_root(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)flags | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

int execfolio_report_open_target(int dirfd, const char *dir, const char *path,
				 char *err, size_t errlen)
{
	struct stat found, opened;
	int fd, ret;

	if (!inside(path)) {
		snprintf(err, errlen,
			 "not applying to \"%s\": not a path inside %s", path,
			 dir);
		return -EINVAL;
	}
	/*
	 * First without opening the file itself (a device's open may do
	 * something): only a regular file is opened, and only the same one.
	 */
	fd = openat2_in_root(dirfd, path, O_PATH);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ENOSYS)
			snprintf(
				err, errlen,
				"%s/%s: the kernel has no openat2(2) (Linux 5.6 or later), which is needed to resolve the path without leaving %s",
				dir, path, dir);
		else
			snprintf(
				err, errlen,
				"%s/%s: %s (resolved inside %s, as if it were the root directory)",
				dir, path, strerror(-ret), dir);
		return ret;
	}
	ret = fstat(fd, &found) ? -errno : 0;
	close(fd);
	if (!ret && !S_ISREG(found.st_mode))
		ret = -EINVAL;
	if (!ret) {
		fd = openat2_in_root(dirfd, path,
				     O_RDONLY | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			ret = -errno;
	}
	if (!ret && (fstat(fd, &opened) || opened.st_dev != found.st_dev ||
		     opened.st_ino != found.st_ino)) {
		close(fd);
		ret = -ESTALE; /* replaced between the two opens */
	}
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s/%s: not a regular file", dir, path);
	else if (ret)
		snprintf(err, errlen, "%s/%s: %s", dir, path, strerror(-ret));
	return ret ? ret : fd;
}
