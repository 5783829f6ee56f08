// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who applies a file's policy: the daemon's answer parsed strictly, file
 * systems that ignore the attribute, and an XFS whose kernel has no ioctl
 * (played by a procfs file: its ioctl answers ENOTTY as a kernel without
 * the series does). Real mounts are in tests/integration/policy-fs.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <execfolio/applied.h>
#include <execfolio/xattr.h>

static void parse_ok(const char *value, uint32_t want_size,
		     enum execfolio_source want_source, bool want_invalid)
{
	struct execfolio_daemon_policy policy = { .size = 1, .source = -1 };

	if (execfolio_applied_parse_daemon(value, strlen(value), &policy))
		fail_msg("'%s' refused", value);
	assert_true(policy.known);
	assert_int_equal(policy.size, want_size);
	assert_int_equal(policy.source, want_source);
	assert_int_equal(policy.invalid_xattr, want_invalid);
}

static void test_parse_daemon(void **state)
{
	static const char *const bad[] = {
		"",	      "64k",	       "64k ",
		" xattr",     "48k xattr",     "64k file",
		"64k xattrs", "64k  xattr",    "64k xattr x",
		"64k xattr ", "none none bad", "64K\nxattr",
	};
	struct execfolio_daemon_policy policy;
	size_t i;

	parse_ok("64k xattr", 64 << 10, EXECFOLIO_SOURCE_XATTR, false);
	parse_ok("2m mount", 2 << 20, EXECFOLIO_SOURCE_MOUNT, false);
	parse_ok("none none", 0, EXECFOLIO_SOURCE_NONE, false);
	parse_ok("none xattr", 0, EXECFOLIO_SOURCE_XATTR, false);
	parse_ok("none none invalid-xattr", 0, EXECFOLIO_SOURCE_NONE, true);
	parse_ok("64k mount invalid-xattr", 64 << 10, EXECFOLIO_SOURCE_MOUNT,
		 true);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (execfolio_applied_parse_daemon(bad[i], strlen(bad[i]),
						   &policy) != -EBADMSG)
			fail_msg("'%s' accepted", bad[i]);
	/* Not NUL-terminated: only @len bytes count. */
	assert_int_equal(
		execfolio_applied_parse_daemon("16k xattrXYZ", 9, &policy), 0);
	assert_int_equal(policy.size, 16 << 10);
	assert_int_equal(policy.source, EXECFOLIO_SOURCE_XATTR);
}

static void test_not_applied_elsewhere(void **state)
{
	struct execfolio_mount mnt = { .fstype = "tmpfs",
				       .mountpoint = "/tmp" };
	struct execfolio_applied applied;
	char why[512];

	/* No question is asked: any file will do, even a missing one. */
	assert_int_equal(
		execfolio_applied_query("/nonexistent/f", &mnt, &applied), 0);
	assert_int_equal(applied.by, EXECFOLIO_APPLIED_BY_NONE);
	assert_int_equal(applied.why, EXECFOLIO_NOT_APPLIED_FILESYSTEM);
	assert_int_equal(applied.size, 0);
	assert_int_equal(applied.source, EXECFOLIO_SOURCE_NONE);
	assert_string_equal(execfolio_applier_name(applied.by), "none");
	assert_string_equal(execfolio_not_applied_name(applied.why),
			    "filesystem");
	execfolio_not_applied_text(&applied, &mnt, why, sizeof(why));
	assert_non_null(strstr(why, "tmpfs (/tmp) does not apply"));
}

static void test_kernel_without_series(void **state)
{
	struct execfolio_mount mnt = { .fstype = "xfs", .mountpoint = "/srv" };
	struct execfolio_applied applied;
	char why[512];

	assert_int_equal(execfolio_applied_query("/proc/self/status", &mnt,
						 &applied),
			 0);
	assert_int_equal(applied.by, EXECFOLIO_APPLIED_BY_NONE);
	assert_int_equal(applied.why, EXECFOLIO_NOT_APPLIED_KERNEL);
	assert_int_equal(applied.kernel_err, ENOTTY);
	assert_string_equal(execfolio_not_applied_name(applied.why), "kernel");
	execfolio_not_applied_text(&applied, &mnt, why, sizeof(why));
	assert_non_null(strstr(why, "lacks the execfolio series"));
	assert_non_null(strstr(why, "(/srv)"));
	assert_non_null(strstr(why, "XFS_IOC_GET_EXEC_FOLIO: ENOTTY"));

	/* A file that cannot be opened cannot be asked: an error. */
	assert_int_equal(execfolio_applied_query("/nonexistent/f", &mnt,
						 &applied),
			 -ENOENT);
}

static void test_daemon_not_answering(void **state)
{
	struct execfolio_mount mnt = { .fstype = EXECFOLIO_FUSE_FSTYPE,
				       .mountpoint = "/mnt" };
	struct execfolio_applied applied;

	/*
	 * The kernel does not apply the daemon's policy. procfs has no
	 * xattrs: the "daemon" cannot be asked (as root; without
	 * CAP_SYS_ADMIN it is not asked).
	 */
	int ret = execfolio_applied_query("/proc/self/status", &mnt, &applied);

	assert_int_equal(applied.by, EXECFOLIO_APPLIED_BY_NONE);
	assert_int_equal(applied.why, EXECFOLIO_NOT_APPLIED_FUSE);
	assert_string_equal(execfolio_not_applied_name(applied.why), "fuse");
	assert_false(applied.daemon.known);
	if (execfolio_may_access_trusted())
		assert_true(ret < 0);
	else
		assert_int_equal(ret, 0);
	assert_string_equal(EXECFOLIO_FUSE_FSTYPE, "fuse.execfoliofs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_daemon),
		cmocka_unit_test(test_not_applied_elsewhere),
		cmocka_unit_test(test_kernel_without_series),
		cmocka_unit_test(test_daemon_not_answering),
	};

	return cmocka_run_group_tests_name("applied", tests, NULL, NULL);
}
