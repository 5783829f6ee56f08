// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libexecfolio policy: the size grammar, resolution, and every line of the
 * shared test vectors.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <execfolio/policy.h>

#include "../vectors/vectors.h"

static const char *vectors_path(void)
{
	const char *path = getenv("EXECFOLIO_VECTORS");

	return path ? path : "tests/vectors/policy.vec";
}

static void test_vectors(void **state)
{
	struct execfolio_vectors vecs;
	size_t i, parse = 0, resolve = 0, bad = 0;
	char err[256], why[256];
	int ret;

	ret = execfolio_vectors_load(vectors_path(), &vecs, err, sizeof(err));
	if (ret)
		fail_msg("%s", err);
	for (i = 0; i < vecs.count; i++) {
		const struct execfolio_vector *v = &vecs.v[i];

		if (v->kind == EXECFOLIO_VECTOR_PARSE)
			parse++;
		else
			resolve++;
		if (!execfolio_vector_check(v, why, sizeof(why))) {
			print_message("# %s:%u: %s\n", vectors_path(), v->line,
				      why);
			bad++;
		}
	}
	print_message(
		"# library: checked %zu vector lines (%zu parse, %zu resolve), %zu wrong\n",
		vecs.count, parse, resolve, bad);
	assert_true(parse > 50);
	assert_true(resolve > 50);
	execfolio_vectors_free(&vecs);
	assert_int_equal(bad, 0);
}

static void test_canonical_round_trip(void **state)
{
	char buf[EXECFOLIO_SIZE_STR];
	uint32_t size, again;

	assert_string_equal(execfolio_format_size(0, buf), "none");
	for (size = EXECFOLIO_SIZE_MIN; size <= EXECFOLIO_SIZE_MAX;
	     size <<= 1) {
		execfolio_format_size(size, buf);
		assert_int_equal(execfolio_parse_size_str(buf, &again), 0);
		assert_int_equal(again, size);
		assert_true(strlen(buf) < EXECFOLIO_SIZE_STR);
	}
	assert_string_equal(execfolio_format_size(64 << 10, buf), "64k");
	assert_string_equal(execfolio_format_size(2 << 20, buf), "2m");
}

/* Every non-power-of-two decimal in range must be rejected. */
static void test_exhaustive_decimal(void **state)
{
	char buf[16];
	uint32_t n, size;
	unsigned int accepted = 0;

	for (n = 1; n <= EXECFOLIO_SIZE_MAX + 4096; n++) {
		snprintf(buf, sizeof(buf), "%u", n);
		if (!execfolio_parse_size_str(buf, &size)) {
			assert_int_equal(size, n);
			assert_true(execfolio_size_valid(n) && n);
			accepted++;
		}
	}
	assert_int_equal(accepted, 10); /* 4k .. 2m */
}

/* The parser must never read past len: put the value at a page end. */
static void test_no_read_past_len(void **state)
{
	const char *vals[] = { "64k", "none", "2097152", "1", "64" };
	uint32_t size = 1234;
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		size_t len = strlen(vals[i]);
		char *buf = malloc(len);

		memcpy(buf, vals[i], len);
		execfolio_parse_size(buf, len, &size);
		free(buf);
	}
	/* "64" without the k is not a size; untouched output on error. */
	size = 1234;
	assert_int_equal(execfolio_parse_size("64", 2, &size), -EINVAL);
	assert_int_equal(size, 1234);
	assert_int_equal(execfolio_parse_size("64k", 2, &size), -EINVAL);
	assert_int_equal(execfolio_parse_size("64kXXXX", 3, &size), 0);
	assert_int_equal(size, 64 << 10);
}

static void test_max_order(void **state)
{
	assert_int_equal(execfolio_max_order(4096), 9);
	assert_int_equal(execfolio_max_order(16384), 11);
	assert_int_equal(execfolio_max_order(65536), 11);
	/* A kernel with a lower cap clamps the order. */
	assert_int_equal(execfolio_order(2 << 20, 4096, 4096, 4), 4);
	assert_int_equal(execfolio_order(64 << 10, 4096, 4096, 9), 4);
}

static void test_source_names(void **state)
{
	assert_string_equal(execfolio_source_name(EXECFOLIO_SOURCE_NONE),
			    "none");
	assert_string_equal(execfolio_source_name(EXECFOLIO_SOURCE_XATTR),
			    "xattr");
	assert_string_equal(execfolio_source_name(EXECFOLIO_SOURCE_MOUNT),
			    "mount");
}

/* exec_folio_scope= takes exec or all, spelt exactly so, as the kernel. */
static void test_scope_syntax(void **state)
{
	enum execfolio_scope scope = EXECFOLIO_SCOPE_EXEC;

	assert_int_equal(execfolio_parse_scope_str("all", &scope), 0);
	assert_int_equal(scope, EXECFOLIO_SCOPE_ALL);
	assert_int_equal(execfolio_parse_scope_str("exec", &scope), 0);
	assert_int_equal(scope, EXECFOLIO_SCOPE_EXEC);
	/* Never past len, and untouched on error. */
	assert_int_equal(execfolio_parse_scope("allx", 3, &scope), 0);
	assert_int_equal(scope, EXECFOLIO_SCOPE_ALL);
	assert_int_equal(execfolio_parse_scope_str("exe", &scope), -EINVAL);
	assert_int_equal(execfolio_parse_scope_str("", &scope), -EINVAL);
	assert_int_equal(execfolio_parse_scope_str("all\n", &scope), -EINVAL);
	assert_int_equal(execfolio_parse_scope("all\0", 4, &scope), -EINVAL);
	assert_int_equal(scope, EXECFOLIO_SCOPE_ALL);
	assert_string_equal(execfolio_scope_name(EXECFOLIO_SCOPE_EXEC), "exec");
	assert_string_equal(execfolio_scope_name(EXECFOLIO_SCOPE_ALL), "all");
}

/* The loader itself rejects malformed vector files with a line number. */
static void test_vector_file_errors(void **state)
{
	static const char *const bad[] = {
		"parse 64k -> 48k\n",
		"parse 64k -> 64K\n",
		"parse \"64k -> 64k\n",
		"parse \"\\q\" -> EINVAL\n",
		"resolve mode=0100755 page=4096 -> size=none source=none order=0\n",
		"resolve mode=0100755 page=4096 bsize=4096 fsize=1\n",
		"frobnicate 1\n",
		"parse 64k -> 64k trailing\n",
		"# only a comment\n",
	};
	struct execfolio_vectors vecs;
	char path[] = "/tmp/execfolio-vec-XXXXXX";
	char err[256];
	size_t i;
	int fd;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, bad[i], strlen(bad[i])),
				 (ssize_t)strlen(bad[i]));
		close(fd);
		err[0] = '\0';
		assert_int_equal(execfolio_vectors_load(path, &vecs, err,
							sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, path));
		unlink(path);
		strcpy(path, "/tmp/execfolio-vec-XXXXXX");
	}
	assert_int_equal(execfolio_vectors_load("/nonexistent/x.vec", &vecs,
						err, sizeof(err)),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_canonical_round_trip),
		cmocka_unit_test(test_exhaustive_decimal),
		cmocka_unit_test(test_no_read_past_len),
		cmocka_unit_test(test_max_order),
		cmocka_unit_test(test_source_names),
		cmocka_unit_test(test_scope_syntax),
		cmocka_unit_test(test_vector_file_errors),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
