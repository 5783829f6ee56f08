// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report on a trace (lib/report*.c): files gathered by path, reads
 * turned into first touches, the columns simulated with the numbers of
 * tests/unit/test_simulate.c, the suggestion, and where --apply may write.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <execfolio/report.h>

#define HEADER "execfoliofs-trace 1\npage_size 4096\n"
/* tests/integration/fuse-trace.sh's workload: pages 100 101 108 128. */
#define TEXT_1M                               \
	"file 1 1048576 644 none none text\n" \
	"seg 1 0 0 1048576\n"                 \
	"read 1 1 409600 4096 fault\n"        \
	"read 1 1 413696 4096 fault\n"        \
	"read 1 1 442368 4096 fault\n"        \
	"read 1 1 524288 4096 fault\n"

/* Zeroed kernel and architecture: 7.3 on this machine's. */
static const struct execfolio_report_options defaults = {
	.ra_kb = 128,
	.fault_around_kb = 64,
};

static const struct execfolio_report_options model_612 = {
	.ra_kb = 128,
	.fault_around_kb = 64,
	.kernel = EXECFOLIO_SIM_KERNEL_6_12,
};

static int load(struct execfolio_report *r, const char *text, char *err,
		size_t err_len)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(in);
	ret = execfolio_report_load(r, in, "t", err, err_len);
	fclose(in);
	return ret;
}

static void test_columns(void **state)
{
	static const char *const names[] = {
		"stock", "opt-one", "16k", "32k", "64k",    "128k",
		"256k",	 "512k",    "1m",  "2m",  "as-set",
	};
	unsigned int k;

	for (k = 0; k < EXECFOLIO_REPORT_COLUMNS; k++)
		assert_string_equal(execfolio_report_column(k), names[k]);
	assert_string_equal(execfolio_report_column(k), "?");
}

/* The 6.12 numbers fuse-trace.sh checks on a real mount, without one. */
static void test_simulated(void **state)
{
	struct execfolio_report r;
	const struct execfolio_sim_result *s;
	char err[256];

	assert_int_equal(load(&r, HEADER TEXT_1M, err, sizeof(err)), 0);
	assert_int_equal(r.page_size, 4096);
	assert_int_equal(r.nfiles, 1);
	assert_int_equal(r.files[0].ntouches, 4);
	assert_int_equal(r.files[0].touches[2].page, 108);
	assert_false(r.files[0].touches[2].syscall);
	assert_int_equal(execfolio_report_run(&r, &model_612, err, sizeof(err)),
			 0);
	assert_int_equal(r.nincluded, 1);
	s = &r.total[EXECFOLIO_REPORT_STOCK];
	assert_int_equal(s->touched_pages, 4);
	assert_int_equal(s->read_bytes, 262144);
	assert_int_equal(s->cache_bytes, 262144);
	assert_int_equal(s->major_faults, 1);
	assert_int_equal(s->tlb_pte + s->tlb_contpte, 4);
	s = &r.total[EXECFOLIO_REPORT_OPT_ONE];
	assert_int_equal(s->read_bytes, 131072);
	assert_int_equal(s->major_faults, 2);
	assert_int_equal(s->tlb_pte, 1);
	assert_int_equal(s->tlb_contpte, 1);
	/* 2m, clamped to the 1M file: one order-8 folio. */
	assert_int_equal(r.total[EXECFOLIO_REPORT_AS_SET - 1].read_bytes,
			 1048576);
	/* No policy: as-set is stock. */
	assert_memory_equal(&r.total[EXECFOLIO_REPORT_AS_SET],
			    &r.total[EXECFOLIO_REPORT_STOCK],
			    sizeof(r.total[0]));
	assert_int_equal(r.files[0].suggested, 64 << 10);
	execfolio_report_free(&r);
	assert_null(r.files);
}

/*
 * The same trace on 7.3 (tests/unit/test_simulate.c has the steps): on
 * arm64 stock is upstream's 64K exec folios, as option one; on x86_64
 * stock reads [100, 132) in pages and 64k reads more than it, so no size
 * is suggested. The report records the model, the native architecture
 * resolved when not chosen.
 */
static void test_simulated_73(void **state)
{
	struct execfolio_report_options opts = defaults;
	const struct execfolio_sim_result *s;
	struct execfolio_report r;
	char err[256];

	assert_int_equal(load(&r, HEADER TEXT_1M, err, sizeof(err)), 0);
	assert_int_equal(execfolio_report_run(&r, &opts, err, sizeof(err)), 0);
	assert_int_equal(r.kernel, EXECFOLIO_SIM_KERNEL_7_3);
	assert_int_equal(r.arch,
			 execfolio_sim_arch_resolve(EXECFOLIO_SIM_ARCH_NATIVE));
	assert_int_not_equal(r.arch, EXECFOLIO_SIM_ARCH_NATIVE);

	opts.arch = EXECFOLIO_SIM_ARCH_ARM64;
	assert_int_equal(execfolio_report_run(&r, &opts, err, sizeof(err)), 0);
	assert_int_equal(r.arch, EXECFOLIO_SIM_ARCH_ARM64);
	s = &r.total[EXECFOLIO_REPORT_STOCK];
	assert_int_equal(s->read_bytes, 262144);
	assert_int_equal(s->major_faults, 2);
	assert_int_equal(s->tlb_contpte, 2);
	assert_memory_equal(s, &r.total[EXECFOLIO_REPORT_OPT_ONE], sizeof(*s));

	opts.arch = EXECFOLIO_SIM_ARCH_X86_64;
	assert_int_equal(execfolio_report_run(&r, &opts, err, sizeof(err)), 0);
	s = &r.total[EXECFOLIO_REPORT_STOCK];
	assert_int_equal(s->read_bytes, 131072);
	assert_int_equal(s->major_faults, 1);
	assert_int_equal(s->tlb_pte, 4);
	assert_int_equal(s->tlb_contpte, 0);
	assert_int_equal(r.total[EXECFOLIO_REPORT_FIRST_SIZE + 2].read_bytes,
			 262144);
	assert_int_equal(r.files[0].suggested, 0);

	opts.kernel = 2;
	assert_int_equal(execfolio_report_run(&r, &opts, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(
		err,
		"no model of kernel 2 on architecture 2: the models are of 7.3 and 6.12, on arm64 and x86_64");
	execfolio_report_free(&r);
}

/* as-set is the file's own policy; a changed window changes stock. */
static void test_as_set_and_windows(void **state)
{
	struct execfolio_report_options small = {
		.ra_kb = 16,
		.fault_around_kb = 4,
		.kernel = EXECFOLIO_SIM_KERNEL_6_12,
	};
	struct execfolio_report r;
	char err[256];

	assert_int_equal(load(&r,
			      HEADER "file 1 1048576 755 64k xattr text\n"
				     "seg 1 0 0 1048576\n"
				     "read 1 1 409600 4096 fault\n",
			      err, sizeof(err)),
			 0);
	assert_int_equal(r.files[0].policy, 64 << 10);
	assert_int_equal(execfolio_report_run(&r, &model_612, err, sizeof(err)),
			 0);
	assert_memory_equal(&r.total[EXECFOLIO_REPORT_AS_SET],
			    &r.total[EXECFOLIO_REPORT_FIRST_SIZE + 2],
			    sizeof(r.total[0]));
	assert_int_equal(r.total[EXECFOLIO_REPORT_STOCK].read_bytes, 128 << 10);
	assert_int_equal(execfolio_report_run(&r, &small, err, sizeof(err)), 0);
	assert_int_equal(r.total[EXECFOLIO_REPORT_STOCK].read_bytes, 16 << 10);
	small.ra_kb = EXECFOLIO_REPORT_KB_MAX + 1;
	assert_int_equal(execfolio_report_run(&r, &small, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(
		err,
		"read-ahead and fault-around windows are at most 1048576 kB");
	execfolio_report_free(&r);
}

/*
 * A path described again (the daemon forgot the inode) is one file: its
 * reads continue, its segments are the first description's, its size the
 * largest. Reads of several pages are a touch per page.
 */
static void test_files_by_path(void **state)
{
	struct execfolio_report r;
	char err[256];

	assert_int_equal(load(&r,
			      HEADER "file 1 8192 755 none none prog\n"
				     "seg 1 0 0 8192\n"
				     "read 1 1 4000 200 syscall\n"
				     "file 2 16384 755 none none data\n"
				     "read 2 2 0 0 fault\n"
				     "file 3 12288 755 none none prog\n"
				     "seg 3 4096 4096 4096\n"
				     "read 3 3 8192 4096 fault\n",
			      err, sizeof(err)),
			 0);
	assert_int_equal(r.nfiles, 2);
	assert_string_equal(r.files[0].path, "prog");
	assert_int_equal(r.files[0].size, 12288);
	assert_int_equal(r.files[0].nsegs, 1);
	assert_int_equal(r.files[0].segs[0].filesz, 8192);
	assert_int_equal(r.files[0].ntouches, 3);
	assert_int_equal(r.files[0].touches[0].page, 0);
	assert_int_equal(r.files[0].touches[1].page, 1);
	assert_true(r.files[0].touches[1].syscall);
	assert_int_equal(r.files[0].touches[2].page, 2);
	assert_int_equal(r.files[0].touches[2].stream, 3);
	assert_int_equal(r.files[1].ntouches, 0);

	/* Without executable segments a file is left out, unless --all. */
	assert_int_equal(execfolio_report_run(&r, &defaults, err, sizeof(err)),
			 0);
	assert_int_equal(r.nincluded, 1);
	assert_false(r.files[1].included);
	{
		struct execfolio_report_options all = defaults;

		all.all = true;
		assert_int_equal(
			execfolio_report_run(&r, &all, err, sizeof(err)), 0);
		assert_int_equal(r.nincluded, 2);
		assert_true(r.files[1].included);
	}
	execfolio_report_free(&r);
}

/* A malformed trace: the reader's message, and nothing leaks. */
static void test_load_errors(void **state)
{
	struct execfolio_report r;
	char err[256];

	assert_int_equal(load(&r, HEADER TEXT_1M "read 1 1 0 x\n", err,
			      sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "t:9: read: LENGTH \"x\" is not a decimal number");
	execfolio_report_free(&r);
	assert_int_equal(load(&r, "execfoliofs-trace 1\n", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(
		err,
		"t:2: the trace ends before its page_size line (cut short?)");
	execfolio_report_free(&r);
}

static void test_target(void **state)
{
	static const char *const refused[] = {
		"",	"?",	     "/etc/passwd", "../x",    "..",
		"a/..", "a/../../x", "a/../b",	    "a//../b",
	};
	char buf[32];
	size_t i;

	assert_int_equal(execfolio_report_target("/srv", "usr/bin/x", buf,
						 sizeof(buf)),
			 0);
	assert_string_equal(buf, "/srv/usr/bin/x");
	assert_int_equal(
		execfolio_report_target("d", "..a/b..", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "d/..a/b..");
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (execfolio_report_target("/srv", refused[i], buf,
					    sizeof(buf)) != -EINVAL)
			fail_msg("\"%s\" was not refused", refused[i]);
	/* 27 + 1 + 4 bytes do not fit 32 with the NUL. */
	assert_int_equal(execfolio_report_target("/a-directory-of-27-bytes-xx",
						 "file", buf, sizeof(buf)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_simulated),
		cmocka_unit_test(test_simulated_73),
		cmocka_unit_test(test_as_set_and_windows),
		cmocka_unit_test(test_files_by_path),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_target),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
