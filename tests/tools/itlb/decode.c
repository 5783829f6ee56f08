// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding of the instructions that invalidate translations (decode.h).
 *
 * arm64 (Arm ARM, "TLB maintenance instructions"): TLBI is SYS with op0
 * 1, CRn 8; at EL1 op1 is 0, CRm 1 (Outer Shareable), 3 (Inner
 * Shareable) or 7 (this CPU) with op2 0 VMALLE1, 1 VAE1, 2 ASIDE1,
 * 3 VAAE1, 5 VALE1, 7 VAALE1; CRm 5, 2 and 6 are the range forms RVAE1,
 * RVAAE1, RVALE1, RVAALE1 (op2 1, 3, 5, 7) in the same shareability.
 * Xt: ASID in bits 63:48; VA[55:12] in bits 43:0; for a range TG in
 * 47:46, SCALE 45:44, NUM 43:39, BaseADDR 36:0 (VA[48:12] with 4KB),
 * covering (NUM + 1) * 2^(5 * SCALE + 1) pages.
 *
 * x86: MOV CR3, r64 is 0F 22 /3 (mod 11); INVLPG m is 0F 01 /7 (mod not
 * 11); INVPCID r64, m128 is 66 0F 38 82 /r.  Memory operands in 64-bit
 * addressing (ModRM, SIB, displacement; REX.B, REX.X, REX.R); segment
 * and address-size prefixes are skipped, not applied.
 */
#include "decode.h"

#define SYS_MASK 0xfff80000u
#define SYS_TLBI 0xd5080000u /* SYS, op1 ignored: checked below */

bool arm64_is_tlbi(uint32_t insn, unsigned int *rt)
{
	if ((insn & SYS_MASK) != SYS_TLBI || ((insn >> 12) & 0xf) != 8 ||
	    ((insn >> 16) & 7) != 0)
		return false;
	*rt = insn & 0x1f;
	return true;
}

static uint64_t sign_extend(uint64_t v, unsigned int bit)
{
	return (uint64_t)((int64_t)(v << (63 - bit)) >> (63 - bit));
}

bool arm64_tlbi_decode(uint32_t insn, uint64_t xt, bool asid16,
		       struct invalidation *inv)
{
	unsigned int rt, crm, op2;
	bool range, by_asid;

	if (!arm64_is_tlbi(insn, &rt))
		return false;
	crm = (insn >> 8) & 0xf;
	op2 = (insn >> 5) & 7;
	switch (crm) {
	case 1:
	case 3:
	case 7:
		range = false;
		break;
	case 2:
	case 5:
	case 6:
		range = true;
		break;
	default:
		return false;
	}
	inv->broadcast = crm != 7 && crm != 6;
	inv->asid = asid16 ? xt >> 48 : (xt >> 48) & 0xff;
	if (!range && op2 == 0) {
		inv->kind = INVALIDATE_ALL;
		return true;
	}
	if (!range && op2 == 2) {
		inv->kind = INVALIDATE_ASID;
		return true;
	}
	if (!(op2 & 1))
		return false;
	by_asid = op2 == 1 || op2 == 5; /* VAE1, VALE1: not VAAE1, VAALE1 */
	inv->kind = by_asid ? INVALIDATE_VA : INVALIDATE_VA_ALL_ASID;
	if (!range) {
		inv->start = sign_extend((xt & 0xfffffffffffull) << 12, 55);
		inv->end = inv->start + 4096;
		return true;
	}
	if (((xt >> 46) & 3) != 1) /* TG: only the 4KB granule */
		return false;
	{
		unsigned int scale = (xt >> 44) & 3, num = (xt >> 39) & 0x1f;
		uint64_t pages = (uint64_t)(num + 1) << (5 * scale + 1);

		inv->start = sign_extend((xt & 0x1fffffffffull) << 12, 48);
		inv->end = inv->start + pages * 4096;
	}
	return true;
}

/*
 * The ModRM (and SIB, displacement) at @bytes[@i] of a memory operand, in
 * 64-bit addressing.  Returns false when @len ends first or the operand
 * is a register.
 */
static bool decode_modrm_memory(const uint8_t *bytes, size_t len, size_t i,
				unsigned int rex, struct x86_mem_operand *mem)
{
	uint8_t modrm = bytes[i], mod = modrm >> 6, rm = modrm & 7;
	size_t disp_len = mod == 1 ? 1 : mod == 2 ? 4 : 0;

	if (mod == 3)
		return false;
	mem->base = rm | (rex & 1 ? 8 : 0);
	mem->index = -1;
	mem->scale = 1;
	mem->disp = 0;
	mem->rip_relative = false;
	i++;
	if (rm == 4) {
		uint8_t sib;

		if (i >= len)
			return false;
		sib = bytes[i++];
		mem->scale = 1u << (sib >> 6);
		mem->index = ((sib >> 3) & 7) | (rex & 2 ? 8 : 0);
		if (mem->index == 4)
			mem->index = -1; /* no index */
		mem->base = (sib & 7) | (rex & 1 ? 8 : 0);
		if ((sib & 7) == 5 && mod == 0) {
			mem->base = -1;
			disp_len = 4;
		}
	} else if (rm == 5 && mod == 0) {
		mem->base = -1;
		mem->rip_relative = true;
		disp_len = 4;
	}
	if (i + disp_len > len)
		return false;
	if (disp_len == 1) {
		mem->disp = (int8_t)bytes[i];
	} else if (disp_len == 4) {
		uint32_t d = bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
			     (uint32_t)bytes[i + 3] << 24;

		mem->disp = (int32_t)d;
	}
	return true;
}

enum x86_invalidator x86_decode_invalidator(const uint8_t *bytes, size_t len,
					    unsigned int *reg,
					    struct x86_mem_operand *mem)
{
	bool opsize = false;
	unsigned int rex = 0;
	size_t i = 0;

	for (; i < len; i++) {
		uint8_t b = bytes[i];

		if (b == 0x66)
			opsize = true;
		else if (b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x3e ||
			 b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65 ||
			 b == 0x67)
			continue;
		else if ((b & 0xf0) == 0x40)
			rex = b;
		else
			break;
	}
	if (i + 2 >= len || bytes[i] != 0x0f)
		return X86_NOT_INVALIDATING;
	if (bytes[i + 1] == 0x22) {
		uint8_t modrm = bytes[i + 2];

		if ((modrm >> 6) == 3 && ((modrm >> 3) & 7) == 3) {
			*reg = (modrm & 7) | (rex & 1 ? 8 : 0);
			return X86_MOV_TO_CR3;
		}
	}
	if (bytes[i + 1] == 0x01 && ((bytes[i + 2] >> 3) & 7) == 7 &&
	    decode_modrm_memory(bytes, len, i + 2, rex, mem))
		return X86_INVLPG;
	if (opsize && bytes[i + 1] == 0x38 && i + 3 < len &&
	    bytes[i + 2] == 0x82 &&
	    decode_modrm_memory(bytes, len, i + 3, rex, mem)) {
		*reg = ((bytes[i + 3] >> 3) & 7) | (rex & 4 ? 8 : 0);
		return X86_INVPCID;
	}
	return X86_NOT_INVALIDATING;
}
