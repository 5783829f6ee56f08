// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libexecfolio JSON writer: structure, escaping, and UTF-8 file names
 * passing through while invalid bytes are escaped one by one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <execfolio/json.h>

struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static void capture_start(struct capture *c, struct execfolio_json *j)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	execfolio_json_init(j, c->f);
}

/* Finish the document and compare it with @want; frees the capture. */
static void capture_check(struct capture *c, struct execfolio_json *j,
			  const char *want)
{
	execfolio_json_finish(j);
	assert_int_equal(fclose(c->f), 0);
	assert_string_equal(c->buf, want);
	free(c->buf);
}

/* The JSON string literal written for @value, newline included. */
static void check_string(const char *value, const char *want)
{
	struct execfolio_json j;
	struct capture c;

	capture_start(&c, &j);
	execfolio_json_string(&j, NULL, value);
	capture_check(&c, &j, want);
}

static void test_structure(void **state)
{
	struct execfolio_json j;
	struct capture c;

	capture_start(&c, &j);
	execfolio_json_array(&j, NULL);
	execfolio_json_object(&j, NULL);
	execfolio_json_string(&j, "path", "/bin/ls");
	execfolio_json_bool(&j, "elf", true);
	execfolio_json_array(&j, "exec_segments");
	execfolio_json_object(&j, NULL);
	execfolio_json_u64(&j, "offset", UINT64_MAX);
	execfolio_json_end(&j);
	execfolio_json_end(&j);
	execfolio_json_bool(&j, "pmd_ok", false);
	execfolio_json_end(&j);
	execfolio_json_object(&j, NULL);
	execfolio_json_end(&j);
	capture_check(&c, &j,
		      "[{\"path\":\"/bin/ls\",\"elf\":true,\"exec_segments\":"
		      "[{\"offset\":18446744073709551615}],\"pmd_ok\":false},"
		      "{}]\n");

	/* finish closes whatever is still open. */
	capture_start(&c, &j);
	execfolio_json_array(&j, NULL);
	execfolio_json_object(&j, NULL);
	execfolio_json_array(&j, "a");
	capture_check(&c, &j, "[{\"a\":[]}]\n");
}

static void test_ascii_escapes(void **state)
{
	check_string("plain", "\"plain\"\n");
	check_string("", "\"\"\n");
	check_string("a\"b\\c", "\"a\\\"b\\\\c\"\n");
	check_string("l1\nl2\tx", "\"l1\\nl2\\tx\"\n");
	check_string("\x01\x1f\r", "\"\\u0001\\u001f\\u000d\"\n");
	check_string("del\x7f", "\"del\x7f\"\n");
}

static void test_valid_utf8_passes_through(void **state)
{
	/* U+00E9, U+20AC, U+1F600, and the extremes of each length. */
	check_string("caf\xc3\xa9", "\"caf\xc3\xa9\"\n");
	check_string("\xe2\x82\xac 5", "\"\xe2\x82\xac 5\"\n");
	check_string("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"\n");
	check_string("\xc2\x80\xdf\xbf", "\"\xc2\x80\xdf\xbf\"\n");
	check_string("\xe0\xa0\x80\xef\xbf\xbf",
		     "\"\xe0\xa0\x80\xef\xbf\xbf\"\n");
	check_string("\xed\x9f\xbf\xee\x80\x80",
		     "\"\xed\x9f\xbf\xee\x80\x80\"\n");
	check_string("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
		     "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"\n");
	check_string("/usr/lib/\xe6\x97\xa5\xe6\x9c\xac/libx.so",
		     "\"/usr/lib/\xe6\x97\xa5\xe6\x9c\xac/libx.so\"\n");
}

static void test_invalid_bytes_escaped(void **state)
{
	/* Latin-1 file name bytes. */
	check_string("caf\xe9", "\"caf\\u00e9\"\n");
	check_string("\xff\xfe", "\"\\u00ff\\u00fe\"\n");
	/* A lone continuation byte. */
	check_string("a\x80z", "\"a\\u0080z\"\n");
	/* Overlong forms of '/' and of U+07FF, U+FFFF. */
	check_string("\xc0\xaf", "\"\\u00c0\\u00af\"\n");
	check_string("\xc1\xbf", "\"\\u00c1\\u00bf\"\n");
	check_string("\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"\n");
	check_string("\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"\n");
	/* A UTF-16 surrogate, and code points above U+10FFFF. */
	check_string("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"\n");
	check_string("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"\n");
	check_string("\xf5\x80\x80\x80", "\"\\u00f5\\u0080\\u0080\\u0080\"\n");
	/* Sequences cut short, at the end and before ASCII. */
	check_string("x\xe2\x82", "\"x\\u00e2\\u0082\"\n");
	check_string("\xf0\x9f\x98/", "\"\\u00f0\\u009f\\u0098/\"\n");
	/* A bad byte before a good sequence leaves the good one alone. */
	check_string("\xe2\xc3\xa9", "\"\\u00e2\xc3\xa9\"\n");
}

static void test_keys_are_escaped(void **state)
{
	struct execfolio_json j;
	struct capture c;

	capture_start(&c, &j);
	execfolio_json_object(&j, NULL);
	execfolio_json_u64(&j, "k\"\xff", 0);
	capture_check(&c, &j, "{\"k\\\"\\u00ff\":0}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_ascii_escapes),
		cmocka_unit_test(test_valid_utf8_passes_through),
		cmocka_unit_test(test_invalid_bytes_escaped),
		cmocka_unit_test(test_keys_are_escaped),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
