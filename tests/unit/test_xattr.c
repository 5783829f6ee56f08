// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy xattr on real files. tmpfs stores trusted.* xattrs, so a
 * private tmpfs mount (root only) gives a filesystem to write them on.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <fcntl.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <cmocka.h>

#include <execfolio/xattr.h>

static char dir[] = "/tmp/execfolio-xattr-XXXXXX";
static char file[sizeof(dir) + 16];

static int setup(void **state)
{
	int fd;

	if (!mkdtemp(dir))
		return -1;
	if (geteuid() == 0 && mount("none", dir, "tmpfs", 0, "size=1m"))
		return -1;
	snprintf(file, sizeof(file), "%s/f", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	unlink(file);
	if (geteuid() == 0)
		umount(dir);
	rmdir(dir);
	return 0;
}

static void need_root(void)
{
	if (!execfolio_may_access_trusted())
		skip();
}

/* Raise or drop CAP_SYS_ADMIN in the effective set (the permitted keeps it). */
static void set_sys_admin(bool on)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	assert_int_equal(syscall(SYS_capget, &hdr, data), 0);
	if (on)
		data[CAP_SYS_ADMIN / 32].effective |= 1u
						      << (CAP_SYS_ADMIN % 32);
	else
		data[CAP_SYS_ADMIN / 32].effective &=
			~(1u << (CAP_SYS_ADMIN % 32));
	assert_int_equal(syscall(SYS_capset, &hdr, data), 0);
}

/* @err is "PATH: ..." and says @what. */
static void assert_says(const char *err, const char *path, const char *what)
{
	size_t len = strlen(path);

	if (strncmp(err, path, len) || strncmp(err + len, ": ", 2) ||
	    !strstr(err, what))
		fail_msg("\"%s\" is not \"%s: ...%s...\"", err, path, what);
}

static void test_set_get_remove(void **state)
{
	struct execfolio_stored stored;
	char raw[16], err[EXECFOLIO_ERR_MAX];
	ssize_t len;

	need_root();
	assert_int_equal(execfolio_xattr_get(file, &stored, err, sizeof(err)),
			 0);
	assert_false(stored.present);

	assert_int_equal(execfolio_xattr_set(file, 64 << 10, err, sizeof(err)),
			 0);
	/* The canonical form, exactly, is what lands on disk. */
	len = getxattr(file, EXECFOLIO_XATTR, raw, sizeof(raw));
	assert_int_equal(len, 3);
	assert_memory_equal(raw, "64k", 3);
	assert_int_equal(execfolio_xattr_get(file, &stored, err, sizeof(err)),
			 0);
	assert_true(stored.present);
	assert_int_equal(stored.len, 3);

	assert_int_equal(execfolio_xattr_set(file, 0, err, sizeof(err)), 0);
	len = getxattr(file, EXECFOLIO_XATTR, raw, sizeof(raw));
	assert_int_equal(len, 4);
	assert_memory_equal(raw, "none", 4);

	assert_int_equal(execfolio_xattr_remove(file, err, sizeof(err)), 1);
	assert_int_equal(execfolio_xattr_get(file, &stored, err, sizeof(err)),
			 0);
	assert_false(stored.present);
	/* Removing what is not there is fine, and told apart. */
	assert_int_equal(execfolio_xattr_remove(file, err, sizeof(err)), 0);
}

static void test_invalid_size_not_written(void **state)
{
	struct execfolio_stored stored;
	char err[EXECFOLIO_ERR_MAX];

	need_root();
	assert_int_equal(execfolio_xattr_set(file, 48 << 10, err, sizeof(err)),
			 -EINVAL);
	assert_says(err, file, "49152 is not a policy size");
	assert_int_equal(execfolio_xattr_set(file, 4 << 20, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(execfolio_xattr_get(file, &stored, err, sizeof(err)),
			 0);
	assert_false(stored.present);
}

static void test_oversized_value(void **state)
{
	struct execfolio_stored stored;
	char big[EXECFOLIO_XATTR_READ_MAX + 10], err[EXECFOLIO_ERR_MAX];

	need_root();
	memset(big, '1', sizeof(big));
	assert_int_equal(setxattr(file, EXECFOLIO_XATTR, big, sizeof(big), 0),
			 0);
	assert_int_equal(execfolio_xattr_get(file, &stored, err, sizeof(err)),
			 -E2BIG);
	assert_says(err, file, "too long to be a policy size");
	assert_true(stored.present);
	assert_int_equal(stored.len, sizeof(big));
	assert_int_equal(execfolio_xattr_remove(file, err, sizeof(err)), 1);
}

static int set_inode_flags(int flags)
{
	int fd = open(file, O_RDONLY), ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	close(fd);
	return ret;
}

/* EPERM from an immutable file is no missing capability, even as root. */
static void test_immutable_file(void **state)
{
	char err[EXECFOLIO_ERR_MAX];

	need_root();
	if (set_inode_flags(FS_IMMUTABLE_FL))
		skip(); /* a tmpfs without chattr (Linux < 6.0) */
	assert_int_equal(execfolio_xattr_set(file, 64 << 10, err, sizeof(err)),
			 -EPERM);
	assert_says(err, file, "immutable (chattr +i)");
	assert_null(strstr(err, "CAP_SYS_ADMIN"));
	assert_int_equal(execfolio_xattr_remove(file, err, sizeof(err)),
			 -EPERM);
	assert_says(err, file, "immutable (chattr +i)");

	assert_int_equal(set_inode_flags(FS_APPEND_FL), 0);
	assert_int_equal(execfolio_xattr_set(file, 64 << 10, err, sizeof(err)),
			 -EPERM);
	assert_says(err, file, "append-only (chattr +a)");
	assert_int_equal(set_inode_flags(0), 0);
}

/* Without CAP_SYS_ADMIN, EPERM is that: the message says what to do. */
static void test_missing_capability(void **state)
{
	char err[EXECFOLIO_ERR_MAX];
	int ret;

	need_root();
	set_sys_admin(false);
	ret = execfolio_xattr_set(file, 64 << 10, err, sizeof(err));
	set_sys_admin(true);
	assert_int_equal(ret, -EPERM);
	assert_says(err, file,
		    "trusted.* xattrs need CAP_SYS_ADMIN (run as root)");
}

static void test_errors(void **state)
{
	struct execfolio_stored stored;
	char err[EXECFOLIO_ERR_MAX];

	assert_int_equal(execfolio_xattr_get("/nonexistent/f", &stored, err,
					     sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "/nonexistent/f: no such file or directory");
	/* A caller that wants only the errno passes no buffer. */
	assert_int_equal(execfolio_xattr_get("/nonexistent/f", &stored, NULL,
					     0),
			 -ENOENT);
	assert_int_equal(execfolio_xattr_remove("/nonexistent/f", NULL, 0),
			 -ENOENT);
	/* procfs has no xattr support. */
	if (execfolio_may_access_trusted()) {
		assert_int_equal(execfolio_xattr_set("/proc/self/status",
						     64 << 10, err,
						     sizeof(err)),
				 -ENOTSUP);
		assert_says(err, "/proc/self/status",
			    "does not support trusted.* xattrs");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_get_remove),
		cmocka_unit_test(test_invalid_size_not_written),
		cmocka_unit_test(test_oversized_value),
		cmocka_unit_test(test_immutable_file),
		cmocka_unit_test(test_missing_capability),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("xattr", tests, setup, teardown);
}
