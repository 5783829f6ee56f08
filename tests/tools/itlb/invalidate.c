// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The itlb plugin's invalidations: the instructions that drop
 * translations, found at translation (decode.c) and applied to the
 * models when they run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

/* --- invalidation --------------------------------------------------------- */

void invalidate(struct vcpu *v, const struct invalidation *inv)
{
	struct tlb *levels[2] = { &v->model.l1, &v->model.l2 };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		switch (inv->kind) {
		case INVALIDATE_ALL:
			tlb_flush_all(levels[i]);
			break;
		case INVALIDATE_ASID:
			tlb_flush_asid(levels[i], inv->asid);
			break;
		case INVALIDATE_VA:
		case INVALIDATE_VA_ALL_ASID:
			tlb_flush_range(levels[i], inv->start, inv->end,
					inv->asid,
					inv->kind == INVALIDATE_VA_ALL_ASID);
			break;
		case INVALIDATE_VA_NONGLOBAL:
			tlb_flush_va_nonglobal(levels[i], inv->start,
					       inv->asid);
			break;
		case INVALIDATE_NONGLOBAL:
			tlb_flush_nonglobal(levels[i]);
			break;
		case INVALIDATE_NONE:
			break;
		}
	}
	v->walk_generation++;
}

static void arm64_tlbi_exec(unsigned int vcpu_index, void *udata)
{
	uint32_t insn = GPOINTER_TO_UINT(udata);
	struct vcpu *self = vcpus[vcpu_index];
	struct invalidation inv;
	unsigned int rt = 31, i;
	uint64_t xt = 0;

	arm64_is_tlbi(insn, &rt);
	if (rt < 31)
		xt = read_reg(self, regs.gpr[rt]);
	if (!arm64_tlbi_decode(insn, xt, self->a64.tcr & (1ull << 36), &inv)) {
		/* Not modelled: drop everything rather than keep stale. */
		inv.kind = INVALIDATE_ALL;
		inv.broadcast = true;
	}
	if (!inv.broadcast) {
		g_mutex_lock(&self->lock);
		invalidate(self, &inv);
		g_mutex_unlock(&self->lock);
		return;
	}
	g_mutex_lock(&vcpus_lock);
	for (i = 0; i < MAX_VCPUS; i++) {
		if (!vcpus[i])
			continue;
		g_mutex_lock(&vcpus[i]->lock);
		invalidate(vcpus[i], &inv);
		g_mutex_unlock(&vcpus[i]->lock);
	}
	g_mutex_unlock(&vcpus_lock);
}

/*
 * MOV to CR3 (AMD64 APM vol. 2, "CR3"): with CR4.PCIDE and bit 63 of the
 * new value set nothing is flushed; otherwise the non-global entries of
 * the new PCID (every non-global entry without PCIDE).
 */
static void x86_cr3_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpus[vcpu_index];
	unsigned int reg = GPOINTER_TO_UINT(udata);
	uint64_t value = read_reg(v, regs.gpr[reg]);
	uint64_t cr4 = read_reg(v, regs.cr4);
	struct invalidation inv = { INVALIDATE_ASID, false, value & 0xfff, 0,
				    0 };

	g_mutex_lock(&v->lock);
	v->reread = true;
	if (!(cr4 & (1ull << 17))) {
		tlb_flush_nonglobal(&v->model.l1);
		tlb_flush_nonglobal(&v->model.l2);
		v->walk_generation++;
	} else if (!(value >> 63)) {
		invalidate(v, &inv);
	} else {
		v->walk_generation++;
	}
	g_mutex_unlock(&v->lock);
}

/* An INVLPG or INVPCID: its operands, decoded at translation. */
struct x86_invalidating_insn {
	struct x86_mem_operand mem;
	unsigned int reg;
	uint64_t next_rip;
};

static uint64_t x86_operand_address(struct vcpu *v,
				    const struct x86_invalidating_insn *insn)
{
	const struct x86_mem_operand *m = &insn->mem;
	uint64_t address = m->rip_relative ? insn->next_rip : 0;

	if (m->base >= 0)
		address += read_reg(v, regs.gpr[m->base]);
	if (m->index >= 0)
		address += read_reg(v, regs.gpr[m->index]) * m->scale;
	return address + (uint64_t)m->disp;
}

/* The PCID now: the kernel may have written CR3 since it was read. */
static uint16_t x86_current_pcid(struct vcpu *v)
{
	struct walk_x86_64_regs now = { read_reg(v, regs.cr3),
					read_reg(v, regs.cr4), false };

	return walk_x86_64_pcid(&now);
}

/*
 * INVLPG (AMD64 APM vol. 3): the translations of the page, of the
 * current PCID and global ones.
 */
static void x86_invlpg_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = vcpus[vcpu_index];
	struct invalidation inv = { INVALIDATE_VA, false, 0, 0, 0 };

	inv.start = x86_operand_address(v, udata);
	inv.end = inv.start + 1;
	inv.asid = x86_current_pcid(v);
	g_mutex_lock(&v->lock);
	invalidate(v, &inv);
	g_mutex_unlock(&v->lock);
}

/*
 * INVPCID (AMD64 APM vol. 3): the type in a register, a 16-byte
 * descriptor (PCID in bits 11:0, then the address) in memory.  Type 0:
 * one address of one PCID, global translations kept; 1: the PCID's
 * non-global translations; 2: everything; 3: every non-global one.
 */
static void x86_invpcid_exec(unsigned int vcpu_index, void *udata)
{
	const struct x86_invalidating_insn *insn = udata;
	struct vcpu *v = vcpus[vcpu_index];
	struct invalidation inv = { INVALIDATE_ALL, false, 0, 0, 0 };
	uint64_t type = read_reg(v, regs.gpr[insn->reg]), desc[2];
	bool readable;

	g_byte_array_set_size(v->buf, 0);
	readable = qemu_plugin_read_memory_vaddr(x86_operand_address(v, insn),
						 v->buf, sizeof(desc));
	if (readable)
		memcpy(desc, v->buf->data, sizeof(desc));
	g_mutex_lock(&v->lock);
	if (!readable && type < 2) {
		/* Drop everything rather than keep stale entries. */
		v->x86_unreadable_invpcid++;
	} else if (type == 0) {
		inv.kind = INVALIDATE_VA_NONGLOBAL;
		inv.asid = desc[0] & 0xfff;
		inv.start = desc[1];
	} else if (type == 1) {
		inv.kind = INVALIDATE_ASID;
		inv.asid = desc[0] & 0xfff;
	} else if (type == 3) {
		inv.kind = INVALIDATE_NONGLOBAL;
	}
	invalidate(v, &inv);
	g_mutex_unlock(&v->lock);
}

void instrument_insn(struct qemu_plugin_insn *insn)
{
	uint8_t bytes[16];
	size_t len = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
	unsigned int reg;

	if (arch == ARCH_ARM64) {
		uint32_t word;

		if (len != 4)
			return;
		memcpy(&word, bytes, 4);
		if (arm64_is_tlbi(word, &reg))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, arm64_tlbi_exec, QEMU_PLUGIN_CB_R_REGS,
				GUINT_TO_POINTER(word));
		return;
	}
	struct x86_invalidating_insn *operands;
	struct x86_mem_operand mem;
	enum x86_invalidator kind;

	kind = x86_decode_invalidator(bytes, len, &reg, &mem);
	switch (kind) {
	case X86_MOV_TO_CR3:
		qemu_plugin_register_vcpu_insn_exec_cb(insn, x86_cr3_exec,
						       QEMU_PLUGIN_CB_R_REGS,
						       GUINT_TO_POINTER(reg));
		break;
	case X86_INVLPG:
	case X86_INVPCID:
		/* Freed with the plugin, like the translation blocks' records. */
		operands = g_new0(struct x86_invalidating_insn, 1);
		operands->mem = mem;
		operands->reg = reg;
		operands->next_rip = qemu_plugin_insn_vaddr(insn) + len;
		qemu_plugin_register_vcpu_insn_exec_cb(
			insn,
			kind == X86_INVLPG ? x86_invlpg_exec : x86_invpcid_exec,
			QEMU_PLUGIN_CB_R_REGS, operands);
		break;
	case X86_NOT_INVALIDATING:
		break;
	}
}
