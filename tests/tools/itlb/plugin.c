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

#include "plugin.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum arch arch;
const struct core_desc *core;
struct registers regs;
struct vcpu *vcpus[MAX_VCPUS];
GMutex vcpus_lock;
char *out_path;
uint64_t linear_base, phys_base;
bool linear_given, physbase_given;

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

uint64_t read_reg(struct vcpu *v, struct qemu_plugin_register *reg)
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

struct space_stats *stats_of(struct vcpu *v, uint32_t key)
{
	struct space_stats *s =
		g_hash_table_lookup(v->stats, GUINT_TO_POINTER(key + 1));

	if (!s) {
		s = g_new0(struct space_stats, 1);
		g_hash_table_insert(v->stats, GUINT_TO_POINTER(key + 1), s);
	}
	return s;
}

/* --- fetches ------------------------------------------------------------ */

static void account(void *ctx, uint32_t key, uint64_t count,
		    const struct fetch_result *r)
{
	struct vcpu *v = ctx;
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

static void record(struct vcpu *v, uint64_t va)
{
	struct space_stats *s;

	if (fetch_log_add(&v->log, va, v->key))
		return;
	s = stats_of(v, v->key);
	s->fetches++;
	s->unwalkable++;
	v->unwalkable[UNWALKABLE_RECORDING_FULL]++;
}

static void fetch(struct vcpu *v, uint64_t va)
{
	struct fetch_result r;

	if (v->log.n) {
		record(v, va);
		return;
	}
	r = core_fetch(&v->model, va, v->asid, guest_walk, v);
	if (r.outcome == FETCH_UNWALKABLE && r.error == WALK_DEFERRED) {
		record(v, va);
		return;
	}
	account(v, v->key, 1, &r);
}

/* Replays the fetches recorded at EL0, now that walks can be done. */
static void replay(struct vcpu *v, uint16_t asid)
{
	v->replaying = true;
	fetch_log_replay(&v->log, &v->model, asid, guest_walk, v, account, v);
	v->replaying = false;
}

void read_walk_registers(struct vcpu *v)
{
	if (arch == ARCH_ARM64) {
		v->a64.ttbr0 = read_reg(v, regs.ttbr0);
		v->a64.ttbr1 = read_reg(v, regs.ttbr1);
		v->a64.tcr = read_reg(v, regs.tcr);
	} else {
		v->x86.cr3 = read_reg(v, regs.cr3);
		v->x86.cr4 = read_reg(v, regs.cr4);
	}
}

/* The translation state, read when execution moves between halves. */
static void read_translation_state(struct vcpu *v, bool upper)
{
	uint16_t user_asid = v->asid;

	read_walk_registers(v);
	if (arch == ARCH_ARM64) {
		v->mmu_on = read_reg(v, regs.sctlr) & 1;
		v->pid = read_reg(v, regs.contextidr);
		v->privileged = regs.cpsr ? (read_reg(v, regs.cpsr) >> 2) & 3 :
					    upper;
		user_asid = walk_arm64_asid(&v->a64, 0);
	} else {
		v->mmu_on = read_reg(v, regs.cr0) >> 31 & 1;
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
		if (tb->upper && v->log.n)
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

/* --- translation ----------------------------------------------------------- */

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
	fetch_log_init(&v->log, MAX_RECORDS);
	v->x86.coalesce = !strcmp(core->name, "zen4");
	vcpus[vcpu_index] = v;
	g_mutex_unlock(&vcpus_lock);
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
