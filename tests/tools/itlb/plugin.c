// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * itlb: a QEMU TCG plugin (system emulation, aarch64 and x86_64) that
 * feeds every instruction fetch of the guest, once per translation block
 * and per page it crosses, to a model of a real core's instruction TLBs
 * (core.c), with translations found by walking the guest's own page
 * tables (walk_arm64.c, walk_x86_64.c), and counts per address space
 * (ASID or PCID) the instructions, L1 iTLB misses, L2 TLB misses and
 * modelled walk cycles.  README beside this file: how to load it and
 * what it does not model yet.
 *
 * QEMU's plugin API version 4 reads guest memory only by virtual address
 * in the vCPU's current regime, so descriptors are read through the
 * guest kernel's linear map (linear= and physbase= below; the kernel
 * booted with nokaslr).  On arm64 the linear map cannot be read while
 * the vCPU is at EL0 (QEMU checks EL0 permissions even for debug reads):
 * a fetch at EL0 whose walk is not cached yet starts a recording of the
 * fetches that follow, in order, which are replayed through the model at
 * the next kernel instruction, when the tables are still the ones EL0
 * used (only the kernel changes them).
 *
 * Arguments: core=neoverse-n1|zen4 (default by target), out=FILE (the
 * report; default QEMU's log), linear=VA and physbase=PA (where physical
 * address physbase appears in the linear map; defaults: arm64
 * -(1 << VA_BITS) and 0x40000000 or 0, the first that passes the check;
 * x86_64 0xffff888000000000 and 0).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

#include "core.h"
#include "decode.h"
#include "walk.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 64
#define WALK_CACHE_SLOTS 4096
#define MAX_RECORDS (1u << 20)
#define KEY_KERNEL 0x10000u
#define KEY_UNTRANSLATED 0x10001u
/* A walk that must wait for the kernel (arm64 EL0). */
#define WALK_DEFERRED (-EAGAIN)
/* The linear map did not pass its check. */
#define WALK_NO_LINEAR_MAP (-ENOTRECOVERABLE)

enum arch { ARCH_ARM64, ARCH_X86_64 };

enum unwalkable_reason {
	UNWALKABLE_NOT_MAPPED, /* -ENOENT */
	UNWALKABLE_READ, /* -EFAULT */
	UNWALKABLE_REGIME, /* -EOPNOTSUPP */
	UNWALKABLE_LINEAR_MAP,
	UNWALKABLE_REGISTERS,
	UNWALKABLE_RECORDING_FULL,
	UNWALKABLE_PENDING_AT_EXIT,
	UNWALKABLE_REASONS,
};

static const char *const unwalkable_names[UNWALKABLE_REASONS] = {
	"not_mapped", "descriptor_read", "regime_not_modelled", "linear_map",
	"registers",  "recording_full",	 "pending_at_exit",
};

struct space_stats {
	uint64_t instructions;
	uint64_t fetches;
	uint64_t l1_misses;
	uint64_t l2_misses;
	uint64_t walk_cycles;
	uint64_t unwalkable;
	uint64_t pid; /* arm64 CONTEXTIDR_EL1 when last seen, or 0 */
};

struct tb_info {
	uint64_t pages[2];
	unsigned int npages;
	unsigned int ninsns;
	bool upper; /* the kernel's half of the address space */
};

struct record {
	uint64_t va;
	uint32_t key;
	uint32_t count; /* fetches of the same page in a row */
};

struct walk_cache_slot {
	uint64_t tag; /* root | page, 0: empty */
	uint64_t generation;
	struct tlb_translation t;
	unsigned int reads;
};

struct vcpu {
	GMutex lock; /* the model, walk cache and stats: TLBI IS from others */
	struct core_model model;
	bool started;
	bool upper; /* running in the kernel's half */
	bool privileged; /* EL1 or CPL 0, read when the half changed */
	bool mmu_on;
	uint32_t key; /* stats key of the current address space */
	uint16_t asid; /* tag of lookups */
	uint64_t pid;
	struct walk_arm64_regs a64;
	struct walk_x86_64_regs x86;
	bool replaying;
	bool reread; /* a root changed: read the translation state again */
	struct record *records;
	unsigned int nrecords;
	struct walk_cache_slot *walk_cache;
	uint64_t walk_generation;
	GHashTable *stats; /* key -> struct space_stats */
	uint64_t unwalkable[UNWALKABLE_REASONS];
	uint64_t x86_unreadable_invpcid;
	GByteArray *buf;
};

/* Register handles, found at the first vCPU's init. */
struct registers {
	struct qemu_plugin_register *ttbr0, *ttbr1, *tcr, *contextidr, *sctlr;
	struct qemu_plugin_register *cpsr; /* PSTATE: the exception level */
	struct qemu_plugin_register *cr0, *cr3, *cr4;
	struct qemu_plugin_register *cs; /* its low bits: the privilege level */
	struct qemu_plugin_register *gpr[32];
	bool complete;
};

static enum arch arch;
static const struct core_desc *core;
static struct registers regs;
static struct vcpu *vcpus[MAX_VCPUS];
static GMutex vcpus_lock;
static char *out_path;
static uint64_t linear_base, phys_base;
static bool linear_given, physbase_given;
/*
 * Checked again at each new kernel root until it passes: early in boot
 * the kernel runs on tables that map only its image, not the linear map.
 */
static bool linear_ok;
static uint64_t linear_checked_root = ~0ull;
static GMutex linear_lock;

static struct qemu_plugin_register *find_register(GArray *list,
						  const char *name)
{
	guint i;

	for (i = 0; i < list->len; i++) {
		qemu_plugin_reg_descriptor *d =
			&g_array_index(list, qemu_plugin_reg_descriptor, i);

		if (!g_ascii_strcasecmp(d->name, name))
			return d->handle;
	}
	return NULL;
}

static void find_registers(void)
{
	static const char *const x86_gprs[16] = {
		"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
		"r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
	};
	GArray *list = qemu_plugin_get_registers();
	char name[8];
	unsigned int i;

	if (arch == ARCH_ARM64) {
		regs.ttbr0 = find_register(list, "TTBR0_EL1");
		regs.ttbr1 = find_register(list, "TTBR1_EL1");
		regs.tcr = find_register(list, "TCR_EL1");
		/* QEMU 10 lists SCTLR_EL1 under its AArch32 name. */
		regs.sctlr = find_register(list, "SCTLR_EL1");
		if (!regs.sctlr)
			regs.sctlr = find_register(list, "SCTLR");
		regs.contextidr = find_register(list, "CONTEXTIDR_EL1");
		regs.cpsr = find_register(list, "cpsr");
		for (i = 0; i < 31; i++) {
			snprintf(name, sizeof(name), "x%u", i);
			regs.gpr[i] = find_register(list, name);
		}
		regs.complete = regs.ttbr0 && regs.ttbr1 && regs.tcr &&
				regs.sctlr;
	} else {
		regs.cr0 = find_register(list, "cr0");
		regs.cr3 = find_register(list, "cr3");
		regs.cr4 = find_register(list, "cr4");
		regs.cs = find_register(list, "cs");
		for (i = 0; i < 16; i++)
			regs.gpr[i] = find_register(list, x86_gprs[i]);
		regs.complete = regs.cr0 && regs.cr3 && regs.cr4;
	}
	g_array_free(list, true);
	if (!regs.complete)
		qemu_plugin_outs(
			"itlb: this QEMU does not expose the translation "
			"registers to plugins: every walk is counted "
			"as unwalkable\n");
}

static uint64_t read_reg(struct vcpu *v, struct qemu_plugin_register *reg)
{
	uint64_t value = 0;
	int n;

	if (!reg)
		return 0;
	g_byte_array_set_size(v->buf, 0);
	n = qemu_plugin_read_register(reg, v->buf);
	if (n > 0)
		memcpy(&value, v->buf->data, MIN((size_t)n, sizeof(value)));
	return value;
}

static struct space_stats *stats_of(struct vcpu *v, uint32_t key)
{
	struct space_stats *s =
		g_hash_table_lookup(v->stats, GUINT_TO_POINTER(key + 1));

	if (!s) {
		s = g_new0(struct space_stats, 1);
		g_hash_table_insert(v->stats, GUINT_TO_POINTER(key + 1), s);
	}
	return s;
}

/* --- reading descriptors through the linear map ----------------------- */

static int read_phys(void *ctx, uint64_t pa, uint64_t *desc)
{
	struct vcpu *v = ctx;

	if (pa < phys_base)
		return -EFAULT;
	g_byte_array_set_size(v->buf, 0);
	if (!qemu_plugin_read_memory_vaddr(linear_base + (pa - phys_base),
					   v->buf, 8))
		return -EFAULT;
	memcpy(desc, v->buf->data, 8);
	return 0;
}

static int walk_now(struct vcpu *v, uint64_t va, struct tlb_translation *t,
		    unsigned int *reads)
{
	if (arch == ARCH_ARM64)
		return walk_arm64(&v->a64, va, read_phys, v, t, reads);
	return walk_x86_64(&v->x86, va, read_phys, v, t, reads);
}

/*
 * The linear map is where linear= and physbase= say if the root table of
 * the kernel's half, read through it, translates its own linear address
 * back to itself.  Done once, from the kernel.
 */
static void check_linear_map(struct vcpu *v)
{
	/* QEMU virt's RAM starts at 1GB, the PC's at 0. */
	static const uint64_t arm64_bases[] = { 0x40000000ull, 0 };
	static const uint64_t x86_bases[] = { 0 };
	const uint64_t *bases = arch == ARCH_ARM64 ? arm64_bases : x86_bases;
	unsigned int nbases = arch == ARCH_ARM64 ? 2 : 1, i;
	struct tlb_translation t;
	unsigned int reads;
	uint64_t root;

	if (arch == ARCH_ARM64) {
		unsigned int va_bits = 64 - ((v->a64.tcr >> 16) & 0x3f);

		root = v->a64.ttbr1 & 0x0000ffffffffffc0ull;
		if (!linear_given)
			linear_base = ~0ull << va_bits;
	} else {
		root = v->x86.cr3 & 0x000ffffffffff000ull;
	}
	if (root == linear_checked_root)
		return;
	linear_checked_root = root;
	for (i = 0; i < (physbase_given ? 1 : nbases); i++) {
		uint64_t va;

		if (!physbase_given)
			phys_base = bases[i];
		if (root < phys_base)
			continue;
		va = linear_base + (root - phys_base);
		if (!walk_now(v, va, &t, &reads) &&
		    t.pbase + (va - t.vbase) == root) {
			linear_ok = true;
			return;
		}
	}
}

/* --- the walk cache: what walks found, until an invalidation ---------- */

static uint64_t walk_root(struct vcpu *v, uint64_t va)
{
	if (arch == ARCH_ARM64)
		return (((va >> 55) & 1) ? v->a64.ttbr1 : v->a64.ttbr0) &
		       0x0000ffffffffffc0ull;
	return v->x86.cr3 & 0x000ffffffffff000ull;
}

static struct walk_cache_slot *walk_cache_slot(struct vcpu *v, uint64_t va,
					       uint64_t *tag)
{
	uint64_t page = va >> 12;

	*tag = (walk_root(v, va) * 0x9e3779b97f4a7c15ull) ^ page ^ 1;
	return &v->walk_cache[(page ^ (page >> 12)) % WALK_CACHE_SLOTS];
}

static int walk(void *ctx, uint64_t va, struct tlb_translation *t,
		unsigned int *reads)
{
	struct vcpu *v = ctx;
	struct walk_cache_slot *slot;
	uint64_t tag;
	int err;

	if (!regs.complete)
		return -ENODEV;
	slot = walk_cache_slot(v, va, &tag);
	if (slot->tag == tag && slot->generation == v->walk_generation) {
		*t = slot->t;
		*reads = slot->reads;
		return 0;
	}
	if (arch == ARCH_ARM64 && !v->privileged && !v->replaying)
		return WALK_DEFERRED;
	if (!linear_ok) {
		g_mutex_lock(&linear_lock);
		if (!linear_ok)
			check_linear_map(v);
		g_mutex_unlock(&linear_lock);
	}
	if (!linear_ok)
		return WALK_NO_LINEAR_MAP;
	err = walk_now(v, va, t, reads);
	if (!err) {
		slot->tag = tag;
		slot->generation = v->walk_generation;
		slot->t = *t;
		slot->reads = *reads;
	}
	return err;
}

static enum unwalkable_reason reason_of(int err)
{
	switch (err) {
	case -ENOENT:
		return UNWALKABLE_NOT_MAPPED;
	case -EFAULT:
		return UNWALKABLE_READ;
	case -EOPNOTSUPP:
		return UNWALKABLE_REGIME;
	case WALK_NO_LINEAR_MAP:
		return UNWALKABLE_LINEAR_MAP;
	default:
		return UNWALKABLE_REGISTERS;
	}
}

/* --- fetches ------------------------------------------------------------ */

static void account(struct vcpu *v, uint32_t key, uint64_t count,
		    const struct fetch_result *r)
{
	struct space_stats *s = stats_of(v, key);

	s->fetches += count;
	switch (r->outcome) {
	case FETCH_L1_HIT:
		break;
	case FETCH_WALK:
		s->l2_misses++;
		/* fall through */
	case FETCH_L2_HIT:
		s->l1_misses++;
		s->walk_cycles += r->cycles;
		break;
	case FETCH_UNWALKABLE:
		s->unwalkable += count;
		v->unwalkable[reason_of(r->error)] += count;
		break;
	}
}

static void record(struct vcpu *v, uint64_t va, uint32_t key)
{
	struct record *last = v->nrecords ? &v->records[v->nrecords - 1] : NULL;

	if (last && last->key == key && last->va >> 12 == va >> 12) {
		last->count++;
		return;
	}
	if (v->nrecords == MAX_RECORDS) {
		stats_of(v, key)->fetches++;
		stats_of(v, key)->unwalkable++;
		v->unwalkable[UNWALKABLE_RECORDING_FULL]++;
		return;
	}
	if (!v->records)
		v->records = g_new(struct record, MAX_RECORDS);
	v->records[v->nrecords++] = (struct record){ va, key, 1 };
}

static void fetch(struct vcpu *v, uint64_t va)
{
	struct fetch_result r;

	if (v->nrecords) {
		record(v, va, v->key);
		return;
	}
	r = core_fetch(&v->model, va, v->asid, walk, v);
	if (r.outcome == FETCH_UNWALKABLE && r.error == WALK_DEFERRED) {
		record(v, va, v->key);
		return;
	}
	account(v, v->key, 1, &r);
}

/* Replays the fetches recorded at EL0, now that walks can be done. */
static void replay(struct vcpu *v, uint16_t asid)
{
	unsigned int i;

	v->replaying = true;
	for (i = 0; i < v->nrecords; i++) {
		struct record *rec = &v->records[i];
		struct fetch_result r =
			core_fetch(&v->model, rec->va, asid, walk, v);

		account(v, rec->key, 1, &r);
		/* The same page again: hits now. */
		stats_of(v, rec->key)->fetches += rec->count - 1;
	}
	v->nrecords = 0;
	v->replaying = false;
}

/* The translation state, read when execution moves between halves. */
static void read_translation_state(struct vcpu *v, bool upper)
{
	uint16_t user_asid = v->asid;

	if (arch == ARCH_ARM64) {
		v->a64.ttbr0 = read_reg(v, regs.ttbr0);
		v->a64.ttbr1 = read_reg(v, regs.ttbr1);
		v->a64.tcr = read_reg(v, regs.tcr);
		v->mmu_on = read_reg(v, regs.sctlr) & 1;
		v->pid = read_reg(v, regs.contextidr);
		v->privileged = regs.cpsr ? (read_reg(v, regs.cpsr) >> 2) & 3 :
					    upper;
		user_asid = walk_arm64_asid(&v->a64, 0);
	} else {
		v->mmu_on = read_reg(v, regs.cr0) >> 31 & 1;
		v->x86.cr3 = read_reg(v, regs.cr3);
		v->x86.cr4 = read_reg(v, regs.cr4);
		v->privileged = regs.cs ? !(read_reg(v, regs.cs) & 3) : upper;
		user_asid = walk_x86_64_pcid(&v->x86);
	}
	v->asid = user_asid;
	if (!regs.complete)
		v->mmu_on = true; /* counted as unwalkable, not hidden */
	if (!v->mmu_on)
		v->key = KEY_UNTRANSLATED;
	else
		v->key = v->privileged ? KEY_KERNEL : user_asid;
	if (v->mmu_on && !v->privileged)
		stats_of(v, v->key)->pid = v->pid;
}

static void vcpu_tb_exec(unsigned int vcpu_index, void *udata)
{
	struct tb_info *tb = udata;
	struct vcpu *v = vcpus[vcpu_index];
	unsigned int i;

	g_mutex_lock(&v->lock);
	if (!v->started || tb->upper != v->upper || v->reread) {
		uint16_t recorded_asid = v->asid;

		v->started = true;
		v->upper = tb->upper;
		if (tb->upper && v->nrecords)
			replay(v, recorded_asid);
		read_translation_state(v, tb->upper);
		v->reread = false;
	}
	stats_of(v, v->key)->instructions += tb->ninsns;
	if (v->key == KEY_UNTRANSLATED) {
		stats_of(v, v->key)->fetches += tb->npages;
	} else {
		for (i = 0; i < tb->npages; i++)
			fetch(v, tb->pages[i]);
	}
	g_mutex_unlock(&v->lock);
}

/* --- invalidation --------------------------------------------------------- */

static void invalidate(struct vcpu *v, const struct invalidation *inv)
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

/* --- translation ----------------------------------------------------------- */

static void instrument_insn(struct qemu_plugin_insn *insn)
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

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *qtb)
{
	size_t n = qemu_plugin_tb_n_insns(qtb), i;
	struct tb_info *tb = g_new0(struct tb_info, 1);
	uint64_t start = qemu_plugin_tb_vaddr(qtb);

	tb->ninsns = n;
	tb->upper = arch == ARCH_ARM64 ? (start >> 55) & 1 : start >> 63;
	tb->pages[0] = start & ~0xfffull;
	tb->npages = 1;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(qtb, i);
		uint64_t last = qemu_plugin_insn_vaddr(insn) +
				qemu_plugin_insn_size(insn) - 1;

		if ((last & ~0xfffull) != tb->pages[tb->npages - 1] &&
		    tb->npages < 2)
			tb->pages[tb->npages++] = last & ~0xfffull;
		instrument_insn(insn);
	}
	/* Freed with the plugin: QEMU keeps no handle to free it earlier. */
	qemu_plugin_register_vcpu_tb_exec_cb(qtb, vcpu_tb_exec,
					     QEMU_PLUGIN_CB_R_REGS, tb);
}

/* --- vCPUs and the report ------------------------------------------------- */

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct vcpu *v;

	if (vcpu_index >= MAX_VCPUS) {
		qemu_plugin_outs("itlb: more vCPUs than the plugin models\n");
		exit(1);
	}
	g_mutex_lock(&vcpus_lock);
	if (!vcpu_index && !regs.ttbr0 && !regs.cr3)
		find_registers();
	v = g_new0(struct vcpu, 1);
	g_mutex_init(&v->lock);
	if (core_model_init(&v->model, core)) {
		qemu_plugin_outs("itlb: cannot allocate the TLB model\n");
		exit(1);
	}
	v->walk_cache = g_new0(struct walk_cache_slot, WALK_CACHE_SLOTS);
	v->stats = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	v->buf = g_byte_array_new();
	v->x86.coalesce = !strcmp(core->name, "zen4");
	vcpus[vcpu_index] = v;
	g_mutex_unlock(&vcpus_lock);
}

static void add_stats(GHashTable *total, gpointer key, struct space_stats *s)
{
	struct space_stats *t = g_hash_table_lookup(total, key);

	if (!t) {
		t = g_new0(struct space_stats, 1);
		g_hash_table_insert(total, key, t);
	}
	t->instructions += s->instructions;
	t->fetches += s->fetches;
	t->l1_misses += s->l1_misses;
	t->l2_misses += s->l2_misses;
	t->walk_cycles += s->walk_cycles;
	t->unwalkable += s->unwalkable;
	if (s->pid)
		t->pid = s->pid;
}

static gint compare_keys(gconstpointer a, gconstpointer b)
{
	guint ka = GPOINTER_TO_UINT(a), kb = GPOINTER_TO_UINT(b);

	return ka < kb ? -1 : ka > kb;
}

static void print_space(GString *out, const char *name,
			const struct space_stats *s)
{
	g_string_append_printf(out,
			       "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			       "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			       "\t%" PRIu64 "\n",
			       name, s->pid, s->instructions, s->fetches,
			       s->l1_misses, s->l2_misses, s->walk_cycles,
			       s->unwalkable);
}

static void report(qemu_plugin_id_t id, void *p)
{
	GHashTable *total = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	uint64_t unwalkable[UNWALKABLE_REASONS] = { 0 }, x86_unreadable = 0;
	struct space_stats sum = { 0 };
	GString *out = g_string_new(NULL);
	GList *keys, *k;
	unsigned int i, r;

	for (i = 0; i < MAX_VCPUS; i++) {
		GHashTableIter it;
		gpointer key, value;

		if (!vcpus[i])
			continue;
		g_mutex_lock(&vcpus[i]->lock);
		/* Walks need a running vCPU: what is still recorded is
		 * counted, not modelled. */
		for (r = 0; r < vcpus[i]->nrecords; r++) {
			struct record *rec = &vcpus[i]->records[r];
			struct space_stats *s = stats_of(vcpus[i], rec->key);

			s->fetches += rec->count;
			s->unwalkable += rec->count;
			vcpus[i]->unwalkable[UNWALKABLE_PENDING_AT_EXIT] +=
				rec->count;
		}
		vcpus[i]->nrecords = 0;
		g_hash_table_iter_init(&it, vcpus[i]->stats);
		while (g_hash_table_iter_next(&it, &key, &value))
			add_stats(total, key, value);
		for (r = 0; r < UNWALKABLE_REASONS; r++)
			unwalkable[r] += vcpus[i]->unwalkable[r];
		x86_unreadable += vcpus[i]->x86_unreadable_invpcid;
		g_mutex_unlock(&vcpus[i]->lock);
	}
	g_string_append_printf(out, "# itlb: core %s (%s), target %s\n",
			       core->name, core->source,
			       arch == ARCH_ARM64 ? "aarch64" : "x86_64");
	g_string_append(out, "# space\tpid\tinstructions\tfetches\t"
			     "l1_itlb_misses\tl2_tlb_misses\twalk_cycles\t"
			     "unwalkable\n");
	keys = g_list_sort(g_hash_table_get_keys(total), compare_keys);
	for (k = keys; k; k = k->next) {
		guint key = GPOINTER_TO_UINT(k->data) - 1;
		struct space_stats *s = g_hash_table_lookup(total, k->data);
		char name[32];

		if (key == KEY_KERNEL)
			snprintf(name, sizeof(name), "kernel");
		else if (key == KEY_UNTRANSLATED)
			snprintf(name, sizeof(name), "mmu_off");
		else
			snprintf(name, sizeof(name), "%s:%u",
				 arch == ARCH_ARM64 ? "asid" : "pcid", key);
		print_space(out, name, s);
		add_stats(total, GUINT_TO_POINTER(0xffffffffu), s);
	}
	{
		struct space_stats *t = g_hash_table_lookup(
			total, GUINT_TO_POINTER(0xffffffffu));

		if (t)
			sum = *t;
		sum.pid = 0;
		print_space(out, "total", &sum);
	}
	if (linear_ok)
		g_string_append_printf(out,
				       "# linear map: linear=0x%" PRIx64
				       " physbase=0x%" PRIx64 "\n",
				       linear_base, phys_base);
	else
		g_string_append(out, "# linear map: not found (boot the guest "
				     "with nokaslr, or give linear= and "
				     "physbase=): no walk was done\n");
	g_string_append(out, "# unwalkable");
	for (r = 0; r < UNWALKABLE_REASONS; r++)
		g_string_append_printf(out, " %s=%" PRIu64, unwalkable_names[r],
				       unwalkable[r]);
	g_string_append(out, "\n");
	if (arch == ARCH_X86_64)
		g_string_append_printf(out,
				       "# x86 invpcid with an unreadable "
				       "descriptor (everything dropped): "
				       "%" PRIu64 "\n",
				       x86_unreadable);
	if (out_path) {
		FILE *f = fopen(out_path, "w");

		if (!f || fputs(out->str, f) == EOF || fclose(f)) {
			fprintf(stderr, "itlb: cannot write %s: %s\n", out_path,
				strerror(errno));
			qemu_plugin_outs(out->str);
		}
	} else {
		qemu_plugin_outs(out->str);
	}
	g_list_free(keys);
	g_string_free(out, true);
	g_hash_table_destroy(total);
}

static bool parse_u64(const char *value, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(value, &end, 0);
	return !errno && *value && !*end;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	const char *core_name = NULL;
	int i;

	if (info->system_emulation == false) {
		fprintf(stderr, "itlb: only system emulation has page tables "
				"to walk\n");
		return -1;
	}
	if (!strcmp(info->target_name, "aarch64")) {
		arch = ARCH_ARM64;
		phys_base = 0x40000000ull;
		core_name = "neoverse-n1";
	} else if (!strcmp(info->target_name, "x86_64")) {
		arch = ARCH_X86_64;
		linear_base = 0xffff888000000000ull;
		core_name = "zen4";
	} else {
		fprintf(stderr,
			"itlb: target %s is not modelled: use aarch64 or "
			"x86_64\n",
			info->target_name);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *value = eq ? eq + 1 : "";
		size_t klen = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

		if (klen == 4 && !strncmp(argv[i], "core", 4)) {
			core_name = value;
		} else if (klen == 3 && !strncmp(argv[i], "out", 3) && *value) {
			out_path = g_strdup(value);
		} else if (klen == 6 && !strncmp(argv[i], "linear", 6) &&
			   parse_u64(value, &linear_base)) {
			linear_given = true;
		} else if (klen == 8 && !strncmp(argv[i], "physbase", 8) &&
			   parse_u64(value, &phys_base)) {
			physbase_given = true;
		} else {
			fprintf(stderr,
				"itlb: unknown or bad argument '%s': use core=, "
				"out=FILE, linear=VA, physbase=PA\n",
				argv[i]);
			return -1;
		}
	}
	core = core_desc_find(core_name);
	if (!core) {
		fprintf(stderr, "itlb: unknown core '%s':", core_name);
		for (i = 0; i < (int)core_desc_count; i++)
			fprintf(stderr, " %s", core_descs[i].name);
		fprintf(stderr, "\n");
		return -1;
	}
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, report, NULL);
	return 0;
}
