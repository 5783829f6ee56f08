// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel query on a kernel without the series: it must say "not
 * supported" (the in-guest tests check the answers of a patched kernel).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <execfolio/kernel.h>

static void test_unsupported_and_missing(void **state)
{
	struct execfolio_kernel_state ks;
	int ret;

	ret = execfolio_kernel_query("/proc/self/status", &ks);
	assert_true(ret == -ENOTTY || ret == -EOPNOTSUPP || ret == -EINVAL);
	assert_int_equal(execfolio_kernel_query("/nonexistent/f", &ks),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unsupported_and_missing),
	};

	return cmocka_run_group_tests_name("kernel", tests, NULL, NULL);
}
