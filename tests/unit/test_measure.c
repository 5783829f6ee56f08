// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libexecfolio folio measurement on synthetic proc trees: every row of the
 * result checked against counts worked out by hand from thpmaps' rules.
 * The fixture's pagemap and kpageflags are plain files, read like /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <execfolio/measure.h>

#include "../../lib/measure_internal.h"
#include "measure_fixture.h"

#define KB 1024ULL
#define PAGE 4096ULL
#define PMD (2048 * KB)

struct expect {
	uint64_t text, small, partial, pmd, eligible, cont;
	uint64_t aligned[EXECFOLIO_MAX_ORDER + 1];
	uint64_t unaligned[EXECFOLIO_MAX_ORDER + 1];
};

/* Compare every counter, in pages of @ps. */
static void check_stat(const struct execfolio_stat *st, const struct expect *e,
		       uint64_t ps)
{
	unsigned int o;

	assert_int_equal(st->text_bytes, e->text * ps);
	assert_int_equal(st->folio_bytes[0], e->small * ps);
	assert_int_equal(st->partial_bytes, e->partial * ps);
	assert_int_equal(st->pmd_mapped_bytes, e->pmd * ps);
	assert_int_equal(st->cont_eligible_64k_bytes, e->eligible * ps);
	assert_int_equal(st->cont_aligned_64k_bytes, e->cont * ps);
	for (o = 1; o <= EXECFOLIO_MAX_ORDER; o++) {
		if (st->aligned[o] != e->aligned[o] * ps ||
		    st->unaligned[o] != e->unaligned[o] * ps)
			fail_msg(
				"order %u: aligned %llu unaligned %llu bytes, expected %llu %llu pages",
				o, (unsigned long long)st->aligned[o],
				(unsigned long long)st->unaligned[o],
				(unsigned long long)e->aligned[o],
				(unsigned long long)e->unaligned[o]);
		assert_int_equal(st->folio_bytes[o],
				 (e->aligned[o] + e->unaligned[o]) * ps);
	}
}

static struct execfolio_measure *open_tree(const struct mfx *f, uint64_t pmd)
{
	struct execfolio_measure *m = NULL;
	char err[512];

	if (execfolio_measure_open(&m, f->root, f->page_size, pmd, err,
				   sizeof(err)))
		fail_msg("open %s: %s", f->root, err);
	return m;
}

static void measure_ok(struct execfolio_measure *m, int pid)
{
	char err[512];

	if (execfolio_measure_pid(m, pid, err, sizeof(err)))
		fail_msg("PID %d: %s", pid, err);
}

/*
 * The main text mapping of the fixture, virtual pages 0x400..0x43f, one
 * 64K block per line:
 *   0x400  64K folio at PFN 0x1000: aligned, one cont block
 *   0x410  16K folio (aligned), four small pages, an anonymous page, an
 *          unmapped page, a 16K folio at 0x41a (unaligned), two holes
 *   0x420  64K folio whose last page is not mapped: 15 partial pages,
 *          the block has a missing page
 *   0x430  two aligned 32K folios, not physically contiguous
 * then mappings cut through a folio: 0x440..0x447 (the folio goes on past
 * the end, and the block sticks out of the mapping) and 0x450..0x457 (the
 * mapping starts inside a folio), and a PMD-mapped 2M folio at 0x600.
 * Around them: a read-only file mapping and an anonymous executable one
 * with large folios, both ignored.
 */
static void build_text(struct mfx *f, struct mfx_proc *p)
{
	mfx_folio(f, 0x1000, 4, 0);
	mfx_map(p, 0x400, 0x1000, 16);

	mfx_folio(f, 0x2004, 2, 0);
	mfx_map(p, 0x410, 0x2004, 4);
	mfx_map(p, 0x414, 0x3000, 1);
	mfx_map(p, 0x415, 0x3005, 1);
	mfx_map(p, 0x416, 0x3009, 1);
	mfx_map(p, 0x417, 0x300a, 1);
	mfx_folio(f, 0x3100, 0, MFX_KPF_ANON);
	mfx_map(p, 0x418, 0x3100, 1);
	mfx_folio(f, 0x2100, 2, 0);
	mfx_map(p, 0x41a, 0x2100, 4);

	mfx_folio(f, 0x4000, 4, 0);
	mfx_map(p, 0x420, 0x4000, 15);

	mfx_folio(f, 0x5000, 3, 0);
	mfx_folio(f, 0x5010, 3, 0);
	mfx_map(p, 0x430, 0x5000, 8);
	mfx_map(p, 0x438, 0x5010, 8);
	mfx_vma(p, 0x400, 0x440, "r-xp", 1234, 0);

	mfx_folio(f, 0x6000, 4, 0);
	mfx_map(p, 0x440, 0x6000, 8);
	mfx_vma(p, 0x440, 0x448, "r-xp", 1234, 0);

	mfx_folio(f, 0x7000, 4, 0);
	mfx_map(p, 0x450, 0x7004, 8);
	mfx_vma(p, 0x450, 0x458, "r-xp", 1234, 0);

	mfx_folio(f, 0x10000, 9, 0);
	mfx_map(p, 0x600, 0x10000, 512);
	mfx_vma(p, 0x600, 0x800, "r-xp", 1234, PMD / KB);

	mfx_folio(f, 0x8000, 4, 0);
	mfx_map(p, 0x900, 0x8000, 16);
	mfx_vma(p, 0x900, 0x910, "r--p", 1234, 0);
	mfx_folio(f, 0x9000, 4, MFX_KPF_ANON);
	mfx_map(p, 0x910, 0x9000, 16);
	mfx_vma(p, 0x910, 0x920, "rwxp", 0, 0);
}

static void expect_text(struct expect *e)
{
	memset(e, 0, sizeof(*e));
	e->text = 59 + 8 + 8 + 512;
	e->small = 4;
	e->aligned[4] = 16;
	e->aligned[2] = 4;
	e->unaligned[2] = 4;
	e->aligned[3] = 16;
	e->aligned[9] = 512;
	e->partial = 15 + 8 + 8;
	e->pmd = 512;
	e->eligible = (4 + 32) * 16;
	e->cont = (1 + 32) * 16;
}

static void test_every_row(void **state)
{
	struct execfolio_measure *m;
	const struct execfolio_stat *st;
	struct expect e;
	struct mfx f;

	mfx_init(&f, PAGE, 0x10400, 0x1000);
	build_text(&f, mfx_proc(&f, 100));
	mfx_write(&f);

	m = open_tree(&f, PMD);
	measure_ok(m, 100);
	st = execfolio_measure_result(m);
	expect_text(&e);
	check_stat(st, &e, PAGE);
	assert_int_equal(st->pmd_order, 9);
	assert_int_equal(st->nr_pids, 1);
	assert_int_equal(st->pids[0], 100);
	/* Every text page is in exactly one row. */
	assert_int_equal(st->folio_bytes[0] + st->partial_bytes +
				 execfolio_stat_sum(st->aligned, 9) +
				 execfolio_stat_sum(st->unaligned, 9),
			 st->text_bytes);
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

/* A page shared by two processes is counted once; their own pages are not. */
static void test_shared_pages_counted_once(void **state)
{
	struct execfolio_measure *m;
	const struct execfolio_stat *st;
	struct mfx_proc *p2;
	struct expect e;
	struct mfx f;

	mfx_init(&f, PAGE, 0x10400, 0x1000);
	build_text(&f, mfx_proc(&f, 100));
	/* The same library elsewhere in the second process, plus a 32K folio. */
	p2 = mfx_proc(&f, 200);
	mfx_map(p2, 0xa00, 0x1000, 16);
	mfx_folio(&f, 0xc000, 3, 0);
	mfx_map(p2, 0xa13, 0xc000, 8); /* unaligned */
	mfx_vma(p2, 0xa00, 0xa20, "r-xp", 1234, 0);
	mfx_write(&f);

	m = open_tree(&f, PMD);
	measure_ok(m, 100);
	measure_ok(m, 200);
	st = execfolio_measure_result(m);
	expect_text(&e);
	e.text += 8;
	e.unaligned[3] += 8;
	e.eligible += 16; /* 0xa10: only new pages; 0xa00 was seen */
	check_stat(st, &e, PAGE);
	assert_int_equal(st->nr_pids, 2);
	assert_int_equal(st->pids[1], 200);
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

/* What execfolio_measure_each_mapping() saw. */
struct seen_mappings {
	struct execfolio_mapping maps[8];
	char paths[8][64];
	size_t nr;
};

static void see_mapping(const struct execfolio_mapping *map, void *arg)
{
	struct seen_mappings *seen = arg;

	assert_true(seen->nr < 8);
	seen->maps[seen->nr] = *map;
	snprintf(seen->paths[seen->nr], sizeof(seen->paths[0]), "%s",
		 map->path);
	seen->nr++;
}

/*
 * Each mapping on its own: the pages no earlier mapping counted, adding up
 * to the aggregate; the file's name as smaps gives it, spaces and all; no
 * mapping of a process that failed, none once the callback is removed.
 */
static void test_each_mapping(void **state)
{
	struct execfolio_stat sum;
	struct execfolio_measure *m;
	const struct execfolio_stat *st;
	struct seen_mappings seen = { 0 };
	struct mfx_proc *p1, *p2;
	unsigned int o;
	char err[512];
	struct mfx f;
	size_t i;

	mfx_init(&f, PAGE, 0x10400, 0x1000);
	p1 = mfx_proc(&f, 100);
	build_text(&f, p1);
	snprintf(p1->vmas[0].path, sizeof(p1->vmas[0].path), "%s",
		 "/usr/lib/libfoo.so.1");
	p2 = mfx_proc(&f, 200);
	mfx_map(p2, 0xa00, 0x1000, 16);
	mfx_folio(&f, 0xc000, 3, 0);
	mfx_map(p2, 0xa13, 0xc000, 8);
	mfx_vma(p2, 0xa00, 0xa20, "r-xp", 1234, 0);
	mfx_vma_path(p2, "/opt/my lib.so (deleted)");
	mfx_write(&f);

	m = open_tree(&f, PMD);
	execfolio_measure_each_mapping(m, see_mapping, &seen);
	measure_ok(m, 100);
	measure_ok(m, 200);
	assert_int_equal(execfolio_measure_pid(m, 300, err, sizeof(err)),
			 -ESRCH);
	st = execfolio_measure_result(m);

	/* p1's four executable file mappings, then p2's one. */
	assert_int_equal(seen.nr, 5);
	assert_int_equal(seen.maps[0].pid, 100);
	assert_int_equal(seen.maps[0].start, 0x400 * PAGE);
	assert_int_equal(seen.maps[0].end, 0x440 * PAGE);
	assert_string_equal(seen.paths[0], "/usr/lib/libfoo.so.1");
	assert_int_equal(seen.maps[0].st.text_bytes, 59 * PAGE);
	assert_int_equal(seen.maps[0].st.folio_bytes[0], 4 * PAGE);
	assert_int_equal(seen.maps[0].st.cont_eligible_64k_bytes, 64 * PAGE);
	assert_int_equal(seen.maps[0].st.cont_aligned_64k_bytes, 16 * PAGE);
	assert_int_equal(seen.maps[0].st.page_size, PAGE);
	assert_int_equal(seen.maps[0].st.pmd_order, 9);
	assert_string_equal(seen.paths[1], "/usr/bin/prog");
	assert_int_equal(seen.maps[3].start, 0x600 * PAGE);
	assert_int_equal(seen.maps[3].st.pmd_mapped_bytes, PMD);
	/* p2: the library's pages were counted in p1, its own 32K folio not. */
	assert_int_equal(seen.maps[4].pid, 200);
	assert_string_equal(seen.paths[4], "/opt/my lib.so (deleted)");
	assert_int_equal(seen.maps[4].st.text_bytes, 8 * PAGE);
	assert_int_equal(seen.maps[4].st.unaligned[3], 8 * PAGE);
	assert_int_equal(seen.maps[4].st.cont_eligible_64k_bytes, 16 * PAGE);
	assert_int_equal(seen.maps[4].st.cont_aligned_64k_bytes, 0);

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < seen.nr; i++) {
		const struct execfolio_stat *one = &seen.maps[i].st;

		sum.text_bytes += one->text_bytes;
		sum.partial_bytes += one->partial_bytes;
		sum.pmd_mapped_bytes += one->pmd_mapped_bytes;
		sum.cont_eligible_64k_bytes += one->cont_eligible_64k_bytes;
		sum.cont_aligned_64k_bytes += one->cont_aligned_64k_bytes;
		for (o = 0; o <= EXECFOLIO_MAX_ORDER; o++) {
			sum.folio_bytes[o] += one->folio_bytes[o];
			sum.aligned[o] += one->aligned[o];
			sum.unaligned[o] += one->unaligned[o];
		}
	}
	assert_int_equal(sum.text_bytes, st->text_bytes);
	assert_int_equal(sum.partial_bytes, st->partial_bytes);
	assert_int_equal(sum.pmd_mapped_bytes, st->pmd_mapped_bytes);
	assert_int_equal(sum.cont_eligible_64k_bytes,
			 st->cont_eligible_64k_bytes);
	assert_int_equal(sum.cont_aligned_64k_bytes,
			 st->cont_aligned_64k_bytes);
	for (o = 0; o <= EXECFOLIO_MAX_ORDER; o++) {
		assert_int_equal(sum.folio_bytes[o], st->folio_bytes[o]);
		assert_int_equal(sum.aligned[o], st->aligned[o]);
		assert_int_equal(sum.unaligned[o], st->unaligned[o]);
	}

	execfolio_measure_each_mapping(m, NULL, NULL);
	measure_ok(m, 100);
	assert_int_equal(seen.nr, 5);
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

/* A large folio off the LRU has no KPF_THP: thpmaps leaves it out. */
static void test_not_thp_is_small(void **state)
{
	struct execfolio_measure *m;
	struct mfx_proc *p;
	struct expect e;
	struct mfx f;

	mfx_init(&f, PAGE, 0x2000, 0x1000);
	p = mfx_proc(&f, 7);
	mfx_folio(&f, 0x1000, 4, MFX_NOT_THP);
	mfx_map(p, 0x400, 0x1000, 16);
	mfx_vma(p, 0x400, 0x410, "r-xs", 99, 0);
	mfx_write(&f);

	m = open_tree(&f, PMD);
	measure_ok(m, 7);
	memset(&e, 0, sizeof(e));
	e.text = e.small = 16;
	e.eligible = e.cont = 16; /* still one contpte-able folio */
	check_stat(execfolio_measure_result(m), &e, PAGE);
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

/* 16K pages: the 64K block is 4 pages, the PMD 32M (order 11). */
static void test_16k_pages(void **state)
{
	const uint64_t ps = 16384;
	struct execfolio_measure *m;
	struct mfx_proc *p;
	struct expect e;
	struct mfx f;

	mfx_init(&f, ps, 0x2000, 0x1000);
	p = mfx_proc(&f, 7);
	mfx_folio(&f, 0x1000, 2, 0); /* 64K folio, aligned */
	mfx_map(p, 0x400, 0x1000, 4);
	mfx_folio(&f, 0x1102, 1, 0); /* 32K folio at a 64K-unaligned PFN */
	mfx_map(p, 0x404, 0x1102, 2);
	mfx_vma(p, 0x400, 0x408, "r-xp", 5, 0);
	mfx_write(&f);

	m = open_tree(&f, ps * 2048);
	measure_ok(m, 7);
	assert_int_equal(execfolio_measure_result(m)->pmd_order, 11);
	memset(&e, 0, sizeof(e));
	e.text = 6;
	e.aligned[2] = 4;
	e.aligned[1] = 2;
	e.eligible = 8;
	e.cont = 4;
	check_stat(execfolio_measure_result(m), &e, ps);
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

/* 64K pages: every resident page is a whole 64K block. */
static void test_64k_pages(void **state)
{
	const uint64_t ps = 65536;
	struct execfolio_measure *m;
	struct mfx_proc *p;
	struct expect e;
	struct mfx f;

	mfx_init(&f, ps, 0x2000, 0x1000);
	p = mfx_proc(&f, 7);
	mfx_map(p, 0x400, 0x1000, 1);
	mfx_map(p, 0x402, 0x1007, 1);
	mfx_vma(p, 0x400, 0x404, "r-xp", 5, 0);
	mfx_write(&f);

	m = open_tree(&f, 512 * 1024 * KB);
	measure_ok(m, 7);
	memset(&e, 0, sizeof(e));
	e.text = e.small = 2;
	e.eligible = e.cont = 2;
	check_stat(execfolio_measure_result(m), &e, ps);
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

/* Without CAP_SYS_ADMIN pagemap reports PFN 0: an error, not zeros. */
static void test_hidden_pfns_fail(void **state)
{
	struct execfolio_measure *m;
	struct mfx_proc *p;
	char err[512];
	struct mfx f;
	int ret;

	mfx_init(&f, PAGE, 0x2000, 0x1000);
	p = mfx_proc(&f, 42);
	mfx_map(p, 0x400, 0, 1);
	mfx_vma(p, 0x400, 0x410, "r-xp", 5, 0);
	mfx_write(&f);

	m = open_tree(&f, PMD);
	ret = execfolio_measure_pid(m, 42, err, sizeof(err));
	assert_int_equal(ret, -EPERM);
	assert_non_null(strstr(err, "PID 42"));
	assert_non_null(strstr(err, "CAP_SYS_ADMIN"));
	/* Nothing was added to the aggregate. */
	assert_int_equal(execfolio_measure_result(m)->nr_pids, 0);
	assert_int_equal(execfolio_measure_result(m)->text_bytes, 0);
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

static void test_missing_process(void **state)
{
	struct execfolio_measure *m;
	char err[512];
	struct mfx f;

	mfx_init(&f, PAGE, 0x100, 0x100);
	mfx_write(&f);
	m = open_tree(&f, PMD);
	assert_int_equal(execfolio_measure_pid(m, 4242, err, sizeof(err)),
			 -ESRCH);
	assert_non_null(strstr(err, "PID 4242: no such process"));
	execfolio_measure_close(m);
	mfx_cleanup(&f);
}

static void test_no_kpageflags(void **state)
{
	struct execfolio_measure *m = NULL;
	char err[512], path[128];
	struct mfx f;

	mfx_init(&f, PAGE, 0x100, 0x100);
	mfx_write(&f);
	snprintf(path, sizeof(path), "%s/kpageflags", f.root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(execfolio_measure_open(&m, f.root, PAGE, PMD, err,
						sizeof(err)),
			 -ENOENT);
	assert_null(m);
	assert_non_null(strstr(err, "CONFIG_PROC_PAGE_MONITOR"));
	mfx_cleanup(&f);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = fopen(path, "w");
	assert_non_null(out);
	fputs(text, out);
	assert_int_equal(fclose(out), 0);
}

static void test_cgroup_pids(void **state)
{
	char dir[] = "/tmp/execfolio-cg.XXXXXX", sub[128], cmd[160], err[256];
	pid_t *pids = NULL;
	size_t nr = 0;

	assert_non_null(mkdtemp(dir));
	/* v2: the subtree's processes, sorted, each once. */
	write_file(dir, "cgroup.procs", "30\n10\n");
	snprintf(sub, sizeof(sub), "%s/child", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	write_file(sub, "cgroup.procs", "20\n30\n");
	assert_int_equal(
		execfolio_cgroup_pids(dir, &pids, &nr, err, sizeof(err)), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(pids[0], 10);
	assert_int_equal(pids[1], 20);
	assert_int_equal(pids[2], 30);
	free(pids);

	/* v1 with only a tasks file. */
	snprintf(cmd, sizeof(cmd), "%s/cgroup.procs", sub);
	assert_int_equal(unlink(cmd), 0);
	write_file(sub, "tasks", "55\n");
	assert_int_equal(
		execfolio_cgroup_pids(sub, &pids, &nr, err, sizeof(err)), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(pids[0], 55);
	free(pids);

	/* Not a cgroup. */
	snprintf(cmd, sizeof(cmd), "%s/tasks", sub);
	assert_int_equal(unlink(cmd), 0);
	assert_int_equal(execfolio_cgroup_pids(sub, &pids, &nr, err,
					       sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "not a cgroup"));

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The PFN set and the block map under it, across many growths. */
static void test_pfnset(void **state)
{
	struct pfnset set;
	uint64_t pfn;

	pfnset_init(&set);
	for (pfn = 0; pfn < 4000000; pfn += 997)
		assert_int_equal(pfnset_add(&set, pfn * 7919), 0);
	for (pfn = 0; pfn < 4000000; pfn += 997) {
		assert_true(pfnset_test(&set, pfn * 7919));
		assert_false(pfnset_test(&set, pfn * 7919 + 1));
	}
	pfnset_clear(&set, 997 * 7919);
	assert_false(pfnset_test(&set, 997 * 7919));
	assert_true(pfnset_test(&set, 0));
	pfnset_free(&set);
}

/* A folio's end is found in log2(size) reads, each entry read once. */
static void test_kpageflags_folio_end(void **state)
{
	struct kpf_cache c;
	uint64_t end, flags, preads;
	char path[128];
	struct mfx f;
	int fd;

	mfx_init(&f, PAGE, 0x20000, 0x10);
	mfx_folio(&f, 0x10000, 9, 0);
	mfx_folio(&f, 0x10200, 2, 0);
	mfx_write(&f);
	snprintf(path, sizeof(path), "%s/kpageflags", f.root);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(kpf_cache_init(&c, fd), 0);

	assert_int_equal(kpf_folio_end(&c, 0x10000, &end), 0);
	assert_int_equal(end, 0x10200);
	assert_int_equal(c.nr_preads, 10);
	/* From a tail in the middle: the same end. */
	assert_int_equal(kpf_folio_end(&c, 0x10123, &end), 0);
	assert_int_equal(end, 0x10200);
	assert_int_equal(kpf_folio_end(&c, 0x10201, &end), 0);
	assert_int_equal(end, 0x10204);
	/* A small page ends after itself. */
	assert_int_equal(kpf_folio_end(&c, 0x5000, &end), 0);
	assert_int_equal(end, 0x5001);

	preads = c.nr_preads;
	assert_int_equal(kpf_folio_end(&c, 0x10000, &end), 0);
	assert_int_equal(kpf_get(&c, 0x10200, &flags), 0);
	assert_true(flags & KPF_COMPOUND_HEAD);
	assert_int_equal(c.nr_preads, preads);
	/* A run of small pages in one pread. */
	assert_int_equal(kpf_read_run(&c, 0x3000, 40), 0);
	assert_int_equal(c.nr_preads, preads + 1);
	assert_true(kpf_cached(&c, 0x3000 + KPF_RUN_MAX - 1));
	assert_false(kpf_cached(&c, 0x3000 + KPF_RUN_MAX));
	/* Past the last PFN: no flags, no error. */
	assert_int_equal(kpf_get(&c, 0x100000, &flags), 0);
	assert_int_equal(flags, 0);
	kpf_cache_free(&c);
	close(fd);
	mfx_cleanup(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_shared_pages_counted_once),
		cmocka_unit_test(test_each_mapping),
		cmocka_unit_test(test_not_thp_is_small),
		cmocka_unit_test(test_16k_pages),
		cmocka_unit_test(test_64k_pages),
		cmocka_unit_test(test_hidden_pfns_fail),
		cmocka_unit_test(test_missing_process),
		cmocka_unit_test(test_no_kpageflags),
		cmocka_unit_test(test_cgroup_pids),
		cmocka_unit_test(test_pfnset),
		cmocka_unit_test(test_kpageflags_folio_end),
	};

	return cmocka_run_group_tests_name("measure", tests, NULL, NULL);
}
