/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the itlb plugin share (plugin.c says what it does):
 * the per-vCPU state, the register handles, the options.
 */
#ifndef ITLB_PLUGIN_H
#define ITLB_PLUGIN_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <qemu-plugin.h>

#include "core.h"
#include "decode.h"
#include "fetch_log.h"
#include "walk.h"

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
	struct fetch_log log; /* arm64: user fetches waiting for the kernel */
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

extern enum arch arch;
extern const struct core_desc *core;
extern struct registers regs;
extern struct vcpu *vcpus[MAX_VCPUS];
extern GMutex vcpus_lock;
extern char *out_path;
extern uint64_t linear_base, phys_base;
extern bool linear_given, physbase_given;
extern bool linear_ok;
/* The last check of the linear map that failed: root table, TCR_EL1 or
 * CR4, the linear address tried, the walk's error (-EINVAL: it
 * translated elsewhere). */
struct linear_failure {
	uint64_t root, regs, va;
	int error;
};
extern struct linear_failure linear_failure;

uint64_t read_reg(struct vcpu *v, struct qemu_plugin_register *reg);
/* The registers walks start from, as they are now (in a callback with
 * register access). */
void read_walk_registers(struct vcpu *v);
struct space_stats *stats_of(struct vcpu *v, uint32_t key);

/* walk_guest.c: the core model's walk, from the guest's memory. */
int guest_walk(void *ctx, uint64_t va, struct tlb_translation *t,
	       unsigned int *reads);
enum unwalkable_reason reason_of(int err);

/* invalidate.c */
void invalidate(struct vcpu *v, const struct invalidation *inv);
void instrument_insn(struct qemu_plugin_insn *insn);

/* report.c */
extern const char *const unwalkable_names[UNWALKABLE_REASONS];
void report(qemu_plugin_id_t id, void *p);

#endif
