// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fetch log of tests/tools/itlb (fetch_log.c): fetches logged and
 * replayed later must count exactly what the same fetches fed to the
 * model at once count, pages fetched in a row are one record, and a
 * full log refuses fetches.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fetch_log.h"

#define PAGE 4096ull

struct counts {
	uint64_t fetches, l1_misses, l2_misses, cycles, unwalkable;
};

static void account(void *ctx, uint32_t key, uint64_t count,
		    const struct fetch_result *r)
{
	struct counts *c = &((struct counts *)ctx)[key];

	c->fetches += count;
	c->l1_misses += r->outcome == FETCH_L2_HIT || r->outcome == FETCH_WALK;
	c->l2_misses += r->outcome == FETCH_WALK;
	c->cycles += r->cycles;
	if (r->outcome == FETCH_UNWALKABLE)
		c->unwalkable += count;
}

/*
 * Text of 4KB pages, 64KB runs from 1MB and a 2MB block from 2MB; the
 * page at 7MB cannot be walked.
 */
static int walk(void *ctx, uint64_t va, struct tlb_translation *t,
		unsigned int *reads)
{
	unsigned int shift = va >= 2 * 1024 * 1024 && va < 4 * 1024 * 1024 ?
				     21 :
			     va >= 1024 * 1024 && va < 2 * 1024 * 1024 ? 16 :
									 12;

	(void)ctx;
	if (va >> 12 == (7ull << 20) >> 12)
		return -EFAULT;
	t->shift = shift;
	t->vbase = va & ~((1ull << shift) - 1);
	t->pbase = 0x40000000ull + t->vbase;
	t->asid = 1;
	t->global = false;
	*reads = shift == 21 ? 3 : 4;
	return 0;
}

/* A stream with repeats, loops over more pages than the L1 holds, the
 * three sizes and the unwalkable page, keys 0 and 1. */
static unsigned int stream(uint64_t *va, uint32_t *key, unsigned int max)
{
	unsigned int n = 0, pass, i;
	uint64_t x = 12345;

	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < 300 && n + 4 < max; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			va[n] = ((x >> 33) % 1024) * PAGE + (x & 0xffc);
			key[n++] = pass & 1;
			/* The same page again, sometimes. */
			if (x & (1ull << 40)) {
				va[n] = va[n - 1] + 4;
				key[n] = key[n - 1];
				n++;
			}
		}
		va[n] = 7ull << 20;
		key[n++] = 0;
		va[n] = (7ull << 20) + 8;
		key[n++] = 0;
	}
	return n;
}

static void replay_equals_immediate(void **state)
{
	static uint64_t va[4096];
	static uint32_t key[4096];
	struct counts now[2], later[2];
	struct core_model a, b;
	struct fetch_log log;
	unsigned int n = stream(va, key, 4096), i;

	(void)state;
	memset(now, 0, sizeof(now));
	memset(later, 0, sizeof(later));
	assert_int_equal(core_model_init(&a, core_desc_find("neoverse-n1")), 0);
	assert_int_equal(core_model_init(&b, core_desc_find("neoverse-n1")), 0);
	fetch_log_init(&log, 4096);
	for (i = 0; i < n; i++) {
		struct fetch_result r = core_fetch(&a, va[i], 1, walk, NULL);

		account(now, key[i], 1, &r);
		assert_true(fetch_log_add(&log, va[i], key[i]));
		/* Replayed in pieces, as user runs end at kernel entries. */
		if (i % 97 == 0)
			fetch_log_replay(&log, &b, 1, walk, NULL, account,
					 later);
	}
	fetch_log_replay(&log, &b, 1, walk, NULL, account, later);
	assert_int_equal(log.n, 0);
	for (i = 0; i < 2; i++) {
		assert_true(now[i].fetches > 0);
		assert_int_equal(later[i].fetches, now[i].fetches);
		assert_int_equal(later[i].l1_misses, now[i].l1_misses);
		assert_int_equal(later[i].l2_misses, now[i].l2_misses);
		assert_int_equal(later[i].cycles, now[i].cycles);
		assert_int_equal(later[i].unwalkable, now[i].unwalkable);
	}
	/* The stream did exercise misses, walks and the unwalkable page. */
	assert_true(now[0].l1_misses > 100);
	assert_true(now[0].l2_misses > 100);
	assert_int_equal(now[0].unwalkable, 6);
	fetch_log_destroy(&log);
	core_model_destroy(&a);
	core_model_destroy(&b);
}

static void same_page_in_a_row_is_one_record(void **state)
{
	struct fetch_log log;

	(void)state;
	fetch_log_init(&log, 2);
	assert_true(fetch_log_add(&log, 0x1000, 0));
	assert_true(fetch_log_add(&log, 0x1ffc, 0));
	assert_true(fetch_log_add(&log, 0x1004, 0));
	assert_int_equal(log.n, 1);
	assert_int_equal(log.records[0].count, 3);
	/* Another address space: another record. */
	assert_true(fetch_log_add(&log, 0x1000, 1));
	assert_int_equal(log.n, 2);
	/* Full: a new page is refused, the last one still counts. */
	assert_false(fetch_log_add(&log, 0x2000, 1));
	assert_true(fetch_log_add(&log, 0x1008, 1));
	assert_int_equal(log.records[1].count, 2);
	fetch_log_destroy(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replay_equals_immediate),
		cmocka_unit_test(same_page_in_a_row_is_one_record),
	};

	return cmocka_run_group_tests_name("itlb_fetch_log", tests, NULL, NULL);
}
