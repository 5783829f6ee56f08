// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mount lookup: parsing /proc/self/mountinfo for the exec_folio_size= default
 * and its exec_folio_scope=.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <execfolio/mount.h>

static const char mountinfo[] =
	"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	"30 22 0:25 / /proc rw,nosuid - proc proc rw\n"
	"41 22 7:0 / /srv/xfs rw,relatime shared:20 - xfs /dev/loop0 rw,attr2,inode64,exec_folio_size=64k,noquota\n"
	"42 22 7:1 / /srv/none rw,relatime - xfs /dev/loop1 rw,exec_folio_size=none\n"
	"43 22 7:2 / /srv/with\\040space rw - xfs /dev/loop2 rw,attr2\n"
	"44 41 7:0 /sub /srv/xfs/bind rw - xfs /dev/loop0 rw,exec_folio_size=64k\n"
	"45 22 7:3 / /srv/bad rw - xfs /dev/loop3 rw,exec_folio_size=48k\n"
	"46 22 7:4 / /srv/all rw - xfs /dev/loop4 rw,attr2,exec_folio_size=64k,exec_folio_scope=all,noquota\n"
	"47 22 7:5 / /srv/exec rw - xfs /dev/loop5 rw,exec_folio_size=2m,exec_folio_scope=exec\n"
	"48 22 7:6 / /srv/scope rw - xfs /dev/loop6 rw,exec_folio_scope=all\n"
	"49 22 7:7 / /srv/badscope rw - xfs /dev/loop7 rw,exec_folio_size=64k,exec_folio_scope=ALL\n";

static int find(int id, unsigned int maj, unsigned int min, const char *path,
		struct execfolio_mount *mnt)
{
	FILE *f = fmemopen((void *)mountinfo, sizeof(mountinfo) - 1, "r");
	int ret;

	assert_non_null(f);
	ret = execfolio_mount_find(f, id, maj, min, path, mnt);
	fclose(f);
	return ret;
}

static void test_by_mount_id(void **state)
{
	struct execfolio_mount mnt;

	assert_int_equal(find(41, 0, 0, NULL, &mnt), 0);
	assert_string_equal(mnt.fstype, "xfs");
	assert_string_equal(mnt.mountpoint, "/srv/xfs");
	assert_true(mnt.has_option);
	assert_false(mnt.option_invalid);
	assert_int_equal(mnt.size, 64 << 10);

	assert_int_equal(find(42, 0, 0, NULL, &mnt), 0);
	assert_true(mnt.has_option);
	assert_int_equal(mnt.size, 0);

	assert_int_equal(find(22, 0, 0, NULL, &mnt), 0);
	assert_string_equal(mnt.fstype, "ext4");
	assert_false(mnt.has_option);

	assert_int_equal(find(99, 0, 0, NULL, &mnt), -ENOENT);
}

static void test_escaped_mountpoint(void **state)
{
	struct execfolio_mount mnt;

	assert_int_equal(find(43, 0, 0, NULL, &mnt), 0);
	assert_string_equal(mnt.mountpoint, "/srv/with space");
	assert_false(mnt.has_option);
}

static void test_malformed_option(void **state)
{
	struct execfolio_mount mnt;

	assert_int_equal(find(45, 0, 0, NULL, &mnt), 0);
	assert_true(mnt.has_option);
	assert_true(mnt.option_invalid);
	assert_int_equal(mnt.size, 0);
}

/* exec_folio_scope= beside exec_folio_size=, or alone; exec when absent. */
static void test_scope(void **state)
{
	struct execfolio_mount mnt;

	assert_int_equal(find(46, 0, 0, NULL, &mnt), 0);
	assert_true(mnt.has_option);
	assert_int_equal(mnt.size, 64 << 10);
	assert_true(mnt.has_scope);
	assert_false(mnt.scope_invalid);
	assert_int_equal(mnt.scope, EXECFOLIO_SCOPE_ALL);

	assert_int_equal(find(47, 0, 0, NULL, &mnt), 0);
	assert_int_equal(mnt.size, 2 << 20);
	assert_true(mnt.has_scope);
	assert_int_equal(mnt.scope, EXECFOLIO_SCOPE_EXEC);

	assert_int_equal(find(48, 0, 0, NULL, &mnt), 0);
	assert_false(mnt.has_option);
	assert_true(mnt.has_scope);
	assert_int_equal(mnt.scope, EXECFOLIO_SCOPE_ALL);

	assert_int_equal(find(41, 0, 0, NULL, &mnt), 0);
	assert_false(mnt.has_scope);
	assert_int_equal(mnt.scope, EXECFOLIO_SCOPE_EXEC);
}

/* A scope the kernel would refuse reads as exec, and is flagged. */
static void test_malformed_scope(void **state)
{
	struct execfolio_mount mnt;

	assert_int_equal(find(49, 0, 0, NULL, &mnt), 0);
	assert_true(mnt.has_option);
	assert_false(mnt.option_invalid);
	assert_true(mnt.has_scope);
	assert_true(mnt.scope_invalid);
	assert_int_equal(mnt.scope, EXECFOLIO_SCOPE_EXEC);
}

/* Without a mount ID: the device's mount with the longest path prefix. */
static void test_by_device_and_prefix(void **state)
{
	struct execfolio_mount mnt;

	assert_int_equal(find(-1, 7, 0, "/srv/xfs/bin/ls", &mnt), 0);
	assert_int_equal(mnt.mount_id, 41);
	assert_int_equal(find(-1, 7, 0, "/srv/xfs/bind/ls", &mnt), 0);
	assert_int_equal(mnt.mount_id, 44);
	/* "/srv/xfsX" is not below "/srv/xfs". */
	assert_int_equal(find(-1, 7, 0, "/srv/xfsX/ls", &mnt), -ENOENT);
	assert_int_equal(find(-1, 254, 0, "/etc/passwd", &mnt), 0);
	assert_int_equal(mnt.mount_id, 22);
}

static void test_malformed_mountinfo(void **state)
{
	static const char bad[] = "41 22 7:0 / /srv/xfs rw - xfs\n";
	struct execfolio_mount mnt;
	FILE *f = fmemopen((void *)bad, sizeof(bad) - 1, "r");

	assert_int_equal(execfolio_mount_find(f, 41, 0, 0, NULL, &mnt),
			 -EINVAL);
	fclose(f);
}

/* The live lookup finds the mount of a real file. */
static void test_live_lookup(void **state)
{
	struct execfolio_mount mnt;

	assert_int_equal(execfolio_mount_lookup("/proc/self/status", &mnt), 0);
	assert_string_equal(mnt.fstype, "proc");
	assert_int_equal(execfolio_mount_lookup("/nonexistent/file", &mnt),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_mount_id),
		cmocka_unit_test(test_escaped_mountpoint),
		cmocka_unit_test(test_malformed_option),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_malformed_scope),
		cmocka_unit_test(test_by_device_and_prefix),
		cmocka_unit_test(test_malformed_mountinfo),
		cmocka_unit_test(test_live_lookup),
	};

	return cmocka_run_group_tests_name("mount", tests, NULL, NULL);
}
