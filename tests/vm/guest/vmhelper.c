// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmhelper: what the in-guest tests need beyond busybox, built static for
 * the guest.
 *
 *   vmhelper state PATH          the kernel's exec folio state of PATH
 *   vmhelper setxattr PATH VALUE set trusted.exec_folio_size (VALUE may use
 *                                \n escapes); prints "ok" or the errno name
 *   vmhelper rmxattr PATH        remove it; prints "ok" or the errno name
 *   vmhelper read PATH           read PATH to EOF with read(2)
 *
 * Exit status: 0 when the operation succeeded, 1 when it failed, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <execfolio/policy.h>

/* The kernel series' uapi (fs/xfs/libxfs/xfs_fs.h), not in the libc headers. */
struct xfs_exec_folio {
	uint32_t ef_size;
	uint8_t ef_source;
	uint8_t ef_order;
	uint8_t ef_page_shift;
	uint8_t ef_flags;
	uint64_t ef_pad[3];
};

#define XFS_IOC_GET_EXEC_FOLIO _IOR('X', 135, struct xfs_exec_folio)
#define XFS_EXEC_FOLIO_PENDING 0x1
#define XFS_EXEC_FOLIO_DEFERRED 0x2

static const char *const source_names[] = { "none", "xattr", "mount" };

static const char *errno_name(int err)
{
	switch (err) {
	case EINVAL:
		return "EINVAL";
	case EPERM:
		return "EPERM";
	case ENODATA:
		return "ENODATA";
	case ENOTTY:
		return "ENOTTY";
	case ENOMEM:
		return "ENOMEM";
	default:
		return strerror(err);
	}
}

static int report(int ret)
{
	if (ret) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

static int cmd_state(const char *path)
{
	struct xfs_exec_folio ef;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "vmhelper: %s: %s\n", path, strerror(errno));
		return 1;
	}
	memset(&ef, 0xff, sizeof(ef));
	if (ioctl(fd, XFS_IOC_GET_EXEC_FOLIO, &ef)) {
		printf("%s\n", errno_name(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("size=%u source=%s order=%u folio=%lu pending=%d deferred=%d\n",
	       ef.ef_size, ef.ef_source < 3 ? source_names[ef.ef_source] : "?",
	       ef.ef_order, (1UL << ef.ef_page_shift) << ef.ef_order,
	       !!(ef.ef_flags & XFS_EXEC_FOLIO_PENDING),
	       !!(ef.ef_flags & XFS_EXEC_FOLIO_DEFERRED));
	return 0;
}

/* Decode \n and \0 so tests can pass awkward values through the shell. */
static size_t unescape(const char *in, char *out, size_t size)
{
	size_t n = 0;

	while (*in && n < size) {
		if (in[0] == '\\' && in[1] == 'n') {
			out[n++] = '\n';
			in += 2;
		} else if (in[0] == '\\' && in[1] == '0') {
			out[n++] = '\0';
			in += 2;
		} else {
			out[n++] = *in++;
		}
	}
	return n;
}

static int cmd_read(const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return report(-1);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return report(n < 0 ? -1 : 0);
}

int main(int argc, char **argv)
{
	char value[256];
	size_t len;

	if (argc == 3 && !strcmp(argv[1], "state"))
		return cmd_state(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "setxattr")) {
		len = unescape(argv[3], value, sizeof(value));
		return report(
			setxattr(argv[2], EXECFOLIO_XATTR, value, len, 0));
	}
	if (argc == 3 && !strcmp(argv[1], "rmxattr"))
		return report(removexattr(argv[2], EXECFOLIO_XATTR));
	if (argc == 3 && !strcmp(argv[1], "read"))
		return cmd_read(argv[2]);
	fprintf(stderr,
		"usage: vmhelper state|rmxattr|read PATH | setxattr PATH VALUE\n");
	return 2;
}
