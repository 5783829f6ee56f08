/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The instructions that invalidate translations, decoded from their
 * encoding (and, for arm64 TLBI, the value of their register operand)
 * into what the TLB model must drop.
 */
#ifndef ITLB_DECODE_H
#define ITLB_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum invalidation_kind {
	INVALIDATE_NONE,
	INVALIDATE_ALL, /* every entry */
	INVALIDATE_ASID, /* the non-global entries of one address space */
	INVALIDATE_VA, /* the entries covering [start, end) of one space */
	INVALIDATE_VA_ALL_ASID, /* ... of every address space */
	INVALIDATE_VA_NONGLOBAL, /* non-global entries of one space at start */
	INVALIDATE_NONGLOBAL, /* every non-global entry */
};

struct invalidation {
	enum invalidation_kind kind;
	bool broadcast; /* Inner or Outer Shareable: every CPU */
	uint16_t asid;
	uint64_t start, end;
};

/*
 * Whether @insn is an EL1 TLBI (SYS #0, C8, ...); when it is, its Rt
 * register number (31: none) goes to @rt.
 */
bool arm64_is_tlbi(uint32_t insn, unsigned int *rt);

/*
 * What the TLBI @insn with register value @xt invalidates, for 16-bit
 * (@asid16) or 8-bit ASIDs, with the 4KB granule.  Returns false for a
 * TLBI this model does not know (EL2 and EL3 ones, other granules).
 */
bool arm64_tlbi_decode(uint32_t insn, uint64_t xt, bool asid16,
		       struct invalidation *inv);

enum x86_invalidator {
	X86_NOT_INVALIDATING,
	X86_MOV_TO_CR3, /* the source register goes to @reg */
	X86_INVLPG,
	X86_INVPCID,
};

/* A memory operand: base + index * scale + disp, or RIP-relative. */
struct x86_mem_operand {
	int base; /* register number, -1: none */
	int index; /* register number, -1: none */
	unsigned int scale;
	int64_t disp;
	bool rip_relative; /* disp from the next instruction's address */
};

/*
 * What the x86 instruction in @bytes does to translations.  MOV to CR3:
 * its source register in @reg.  INVLPG: the address operand in @mem.
 * INVPCID: the type register in @reg, the descriptor's address in @mem.
 * Register numbers are the encoding's: 0 rax, 1 rcx, ... 15 r15.
 */
enum x86_invalidator x86_decode_invalidator(const uint8_t *bytes, size_t len,
					    unsigned int *reg,
					    struct x86_mem_operand *mem);

#endif
