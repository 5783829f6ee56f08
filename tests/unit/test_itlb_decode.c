// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The invalidating instructions of tests/tools/itlb/decode.c, on
 * encodings from the GNU assembler (aarch64-linux-gnu-as -march=armv8.4-a,
 * as): what each TLBI drops, and which x86 instructions write CR3 or
 * invalidate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "decode.h"

static struct invalidation tlbi(uint32_t insn, uint64_t xt)
{
	struct invalidation inv = { INVALIDATE_NONE, false, 0, 0, 0 };

	assert_true(arm64_tlbi_decode(insn, xt, true, &inv));
	return inv;
}

static void arm64_tlbi_kinds(void **state)
{
	struct invalidation inv;
	unsigned int rt;

	(void)state;
	inv = tlbi(0xd508831f, 0); /* tlbi vmalle1is */
	assert_int_equal(inv.kind, INVALIDATE_ALL);
	assert_true(inv.broadcast);
	inv = tlbi(0xd508871f, 0); /* tlbi vmalle1 */
	assert_int_equal(inv.kind, INVALIDATE_ALL);
	assert_false(inv.broadcast);

	assert_true(arm64_is_tlbi(0xd5088342, &rt)); /* tlbi aside1is, x2 */
	assert_int_equal(rt, 2);
	inv = tlbi(0xd5088342, 0x00ab000000000000ull);
	assert_int_equal(inv.kind, INVALIDATE_ASID);
	assert_int_equal(inv.asid, 0xab);

	/* tlbi vae1is, x0: a user page of ASID 7. */
	inv = tlbi(0xd5088320, (7ull << 48) | (0x400123000ull >> 12));
	assert_int_equal(inv.kind, INVALIDATE_VA);
	assert_int_equal(inv.asid, 7);
	assert_int_equal(inv.start, 0x400123000ull);
	assert_int_equal(inv.end, 0x400124000ull);
	/* tlbi vale1, x4: a kernel page, VA[55] set: sign-extended. */
	inv = tlbi(0xd50887a4, 0xffff800008010000ull >> 12 & 0xfffffffffffull);
	assert_int_equal(inv.kind, INVALIDATE_VA);
	assert_false(inv.broadcast);
	assert_int_equal(inv.start, 0xffff800008010000ull);
	/* tlbi vaale1is, x3 and tlbi vae1os, x7. */
	inv = tlbi(0xd50883e3, 0x10);
	assert_int_equal(inv.kind, INVALIDATE_VA_ALL_ASID);
	assert_int_equal(inv.start, 0x10000);
	inv = tlbi(0xd5088127, 0x10);
	assert_int_equal(inv.kind, INVALIDATE_VA);
	assert_true(inv.broadcast);

	/* 8-bit ASIDs take the low byte. */
	assert_true(arm64_tlbi_decode(0xd5088342, 0x12ab000000000000ull, false,
				      &inv));
	assert_int_equal(inv.asid, 0xab);
}

static void arm64_tlbi_ranges(void **state)
{
	struct invalidation inv;
	uint64_t xt;

	(void)state;
	/* tlbi rvae1is, x5: ASID 3, 4KB (TG 1), SCALE 1, NUM 2 from 1MB:
	 * 3 * 2^6 = 192 pages. */
	xt = (3ull << 48) | (1ull << 46) | (1ull << 44) | (2ull << 39) |
	     (0x100000ull >> 12);
	inv = tlbi(0xd5088225, xt);
	assert_int_equal(inv.kind, INVALIDATE_VA);
	assert_true(inv.broadcast);
	assert_int_equal(inv.asid, 3);
	assert_int_equal(inv.start, 0x100000);
	assert_int_equal(inv.end, 0x100000 + 192 * 4096ull);
	/* tlbi rvaale1, x6: this CPU, every ASID; SCALE 0 NUM 0: 2 pages. */
	xt = (1ull << 46) | (0x2000ull >> 12);
	inv = tlbi(0xd50886e6, xt);
	assert_int_equal(inv.kind, INVALIDATE_VA_ALL_ASID);
	assert_false(inv.broadcast);
	assert_int_equal(inv.end - inv.start, 2 * 4096);
	/* A 64KB-granule range is not modelled. */
	assert_false(arm64_tlbi_decode(0xd5088225, 3ull << 46, true, &inv));
}

static void arm64_not_tlbi(void **state)
{
	struct invalidation inv;
	unsigned int rt;

	(void)state;
	assert_false(arm64_is_tlbi(0xd50c871f, &rt)); /* tlbi alle2 */
	assert_false(arm64_is_tlbi(0xd503201f, &rt)); /* nop */
	assert_false(arm64_is_tlbi(0xd5087620, &rt)); /* dc ivac, x0 */
	assert_false(arm64_tlbi_decode(0xd503201f, 0, true, &inv));
}

static enum x86_invalidator x86(const uint8_t *bytes, size_t len,
				unsigned int *reg, struct x86_mem_operand *mem)
{
	return x86_decode_invalidator(bytes, len, reg, mem);
}

static void x86_cr3_writes(void **state)
{
	static const uint8_t mov_rax_cr3[] = { 0x0f, 0x22, 0xd8 };
	static const uint8_t mov_r9_cr3[] = { 0x41, 0x0f, 0x22, 0xd9 };
	static const uint8_t mov_cr3_rax[] = { 0x0f, 0x20, 0xd8 };
	static const uint8_t truncated[] = { 0x41, 0x0f };
	struct x86_mem_operand mem;
	unsigned int reg = 99;

	(void)state;
	assert_int_equal(x86(mov_rax_cr3, 3, &reg, &mem), X86_MOV_TO_CR3);
	assert_int_equal(reg, 0);
	assert_int_equal(x86(mov_r9_cr3, 4, &reg, &mem), X86_MOV_TO_CR3);
	assert_int_equal(reg, 9);
	assert_int_equal(x86(mov_cr3_rax, 3, &reg, &mem), X86_NOT_INVALIDATING);
	assert_int_equal(x86(truncated, 2, &reg, &mem), X86_NOT_INVALIDATING);
}

/* Encodings from as: invlpg (%rax), 0x10(%r12), -8(%rbx,%r13,8),
 * 0x100(%rip), and invpcid (%rax),%rcx / (%rdi),%r10. */
static void x86_invalidating_operands(void **state)
{
	static const uint8_t invlpg_rax[] = { 0x0f, 0x01, 0x38 };
	static const uint8_t invlpg_r12[] = {
		0x41, 0x0f, 0x01, 0x7c, 0x24, 0x10
	};
	static const uint8_t invlpg_sib[] = {
		0x42, 0x0f, 0x01, 0x7c, 0xeb, 0xf8
	};
	static const uint8_t invlpg_rip[] = { 0x0f, 0x01, 0x3d, 0x00,
					      0x01, 0x00, 0x00 };
	static const uint8_t invpcid_rcx[] = { 0x66, 0x0f, 0x38, 0x82, 0x08 };
	static const uint8_t invpcid_r10[] = { 0x66, 0x44, 0x0f,
					       0x38, 0x82, 0x17 };
	static const uint8_t swapgs[] = { 0x0f, 0x01, 0xf8 };
	static const uint8_t lgdt[] = { 0x0f, 0x01, 0x10 };
	static const uint8_t invlpg_cut[] = { 0x0f, 0x01, 0x3d, 0x00 };
	struct x86_mem_operand mem;
	unsigned int reg = 99;

	(void)state;
	assert_int_equal(x86(invlpg_rax, 3, &reg, &mem), X86_INVLPG);
	assert_int_equal(mem.base, 0);
	assert_int_equal(mem.index, -1);
	assert_int_equal(mem.disp, 0);
	assert_false(mem.rip_relative);
	assert_int_equal(x86(invlpg_r12, 6, &reg, &mem), X86_INVLPG);
	assert_int_equal(mem.base, 12);
	assert_int_equal(mem.index, -1);
	assert_int_equal(mem.disp, 0x10);
	assert_int_equal(x86(invlpg_sib, 6, &reg, &mem), X86_INVLPG);
	assert_int_equal(mem.base, 3);
	assert_int_equal(mem.index, 13);
	assert_int_equal(mem.scale, 8);
	assert_int_equal(mem.disp, -8);
	assert_int_equal(x86(invlpg_rip, 7, &reg, &mem), X86_INVLPG);
	assert_true(mem.rip_relative);
	assert_int_equal(mem.base, -1);
	assert_int_equal(mem.disp, 0x100);
	assert_int_equal(x86(invpcid_rcx, 5, &reg, &mem), X86_INVPCID);
	assert_int_equal(reg, 1);
	assert_int_equal(mem.base, 0);
	assert_int_equal(x86(invpcid_r10, 6, &reg, &mem), X86_INVPCID);
	assert_int_equal(reg, 10);
	assert_int_equal(mem.base, 7);

	assert_int_equal(x86(swapgs, 3, &reg, &mem), X86_NOT_INVALIDATING);
	assert_int_equal(x86(lgdt, 3, &reg, &mem), X86_NOT_INVALIDATING);
	assert_int_equal(x86(invlpg_cut, 4, &reg, &mem), X86_NOT_INVALIDATING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arm64_tlbi_kinds),
		cmocka_unit_test(arm64_tlbi_ranges),
		cmocka_unit_test(arm64_not_tlbi),
		cmocka_unit_test(x86_cr3_writes),
		cmocka_unit_test(x86_invalidating_operands),
	};

	return cmocka_run_group_tests_name("itlb_decode", tests, NULL, NULL);
}
