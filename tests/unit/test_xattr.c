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
#include <sys/xattr.h>
#include <fcntl.h>
#include <unistd.h>
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

static void test_set_get_remove(void **state)
{
	struct execfolio_stored stored;
	char raw[16];
	ssize_t len;

	need_root();
	assert_int_equal(execfolio_xattr_get(file, &stored), 0);
	assert_false(stored.present);

	assert_int_equal(execfolio_xattr_set(file, 64 << 10), 0);
	/* The canonical form, exactly, is what lands on disk. */
	len = getxattr(file, EXECFOLIO_XATTR, raw, sizeof(raw));
	assert_int_equal(len, 3);
	assert_memory_equal(raw, "64k", 3);
	assert_int_equal(execfolio_xattr_get(file, &stored), 0);
	assert_true(stored.present);
	assert_int_equal(stored.len, 3);

	assert_int_equal(execfolio_xattr_set(file, 0), 0);
	len = getxattr(file, EXECFOLIO_XATTR, raw, sizeof(raw));
	assert_int_equal(len, 4);
	assert_memory_equal(raw, "none", 4);

	assert_int_equal(execfolio_xattr_remove(file), 1);
	assert_int_equal(execfolio_xattr_get(file, &stored), 0);
	assert_false(stored.present);
	/* Removing what is not there is fine, and told apart. */
	assert_int_equal(execfolio_xattr_remove(file), 0);
}

static void test_invalid_size_not_written(void **state)
{
	struct execfolio_stored stored;

	need_root();
	assert_int_equal(execfolio_xattr_set(file, 48 << 10), -EINVAL);
	assert_int_equal(execfolio_xattr_set(file, 4 << 20), -EINVAL);
	assert_int_equal(execfolio_xattr_get(file, &stored), 0);
	assert_false(stored.present);
}

static void test_oversized_value(void **state)
{
	struct execfolio_stored stored;
	char big[EXECFOLIO_XATTR_READ_MAX + 10];

	need_root();
	memset(big, '1', sizeof(big));
	assert_int_equal(setxattr(file, EXECFOLIO_XATTR, big, sizeof(big), 0),
			 0);
	assert_int_equal(execfolio_xattr_get(file, &stored), -E2BIG);
	assert_true(stored.present);
	assert_int_equal(stored.len, sizeof(big));
	assert_int_equal(execfolio_xattr_remove(file), 1);
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
	const char *msg;

	need_root();
	if (set_inode_flags(FS_IMMUTABLE_FL))
		skip(); /* a tmpfs without chattr (Linux < 6.0) */
	assert_int_equal(execfolio_xattr_set(file, 64 << 10), -EPERM);
	assert_int_equal(execfolio_xattr_remove(file), -EPERM);
	msg = execfolio_xattr_change_strerror(file, -EPERM);
	assert_non_null(strstr(msg, "immutable (chattr +i)"));
	assert_null(strstr(msg, "CAP_SYS_ADMIN"));

	assert_int_equal(set_inode_flags(FS_APPEND_FL), 0);
	assert_int_equal(execfolio_xattr_set(file, 64 << 10), -EPERM);
	assert_non_null(strstr(execfolio_xattr_change_strerror(file, -EPERM),
			       "append-only (chattr +a)"));

	/* Neither flag, and the capability: not a capability problem. */
	assert_int_equal(set_inode_flags(0), 0);
	assert_null(strstr(execfolio_xattr_change_strerror(file, -EPERM),
			   "need CAP_SYS_ADMIN"));
	/* Other errors read as before. */
	assert_string_equal(execfolio_xattr_change_strerror(file, -EROFS),
			    execfolio_xattr_strerror(-EROFS));
}

static void test_errors(void **state)
{
	struct execfolio_stored stored;

	assert_int_equal(execfolio_xattr_get("/nonexistent/f", &stored),
			 -ENOENT);
	/* procfs has no xattr support. */
	if (execfolio_may_access_trusted())
		assert_int_equal(execfolio_xattr_set("/proc/self/status",
						     64 << 10),
				 -ENOTSUP);
	assert_non_null(
		strstr(execfolio_xattr_strerror(-EPERM), "CAP_SYS_ADMIN"));
	assert_non_null(
		strstr(execfolio_xattr_strerror(-ENOTSUP), "does not support"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_get_remove),
		cmocka_unit_test(test_invalid_size_not_written),
		cmocka_unit_test(test_oversized_value),
		cmocka_unit_test(test_immutable_file),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("xattr", tests, setup, teardown);
}
