// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The itlb plugin's walks of guest tables: descriptors read through the
 * guest kernel's linear map, checked before use, and the plugin's cache
 * of what walks found (plugin.c says why the linear map).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

/*
 * Checked again until it passes, at each new kernel root and every
 * LINEAR_RECHECK walks: early in boot the kernel runs on tables that map
 * only its image, and newer kernels add the linear map to those same
 * tables later.
 */
#define LINEAR_RECHECK 65536
bool linear_ok;
struct linear_failure linear_failure;
static uint64_t linear_checked_root = ~0ull;
static unsigned int walks_since_check;
static GMutex linear_lock;

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
	int err;

	if (arch == ARCH_ARM64) {
		unsigned int va_bits = 64 - ((v->a64.tcr >> 16) & 0x3f);

		root = v->a64.ttbr1 & 0x0000ffffffffffc0ull;
		if (!linear_given)
			linear_base = ~0ull << va_bits;
	} else {
		root = v->x86.cr3 & 0x000ffffffffff000ull;
	}
	if (root == linear_checked_root && ++walks_since_check < LINEAR_RECHECK)
		return;
	linear_checked_root = root;
	walks_since_check = 0;
	for (i = 0; i < (physbase_given ? 1 : nbases); i++) {
		uint64_t va;

		if (!physbase_given)
			phys_base = bases[i];
		if (root < phys_base)
			continue;
		va = linear_base + (root - phys_base);
		err = walk_now(v, va, &t, &reads);
		if (!err && t.pbase + (va - t.vbase) == root) {
			linear_ok = true;
			return;
		}
		/* What the report says when no candidate passes. */
		linear_failure.root = root;
		linear_failure.regs = arch == ARCH_ARM64 ? v->a64.tcr :
							   v->x86.cr4;
		linear_failure.va = va;
		linear_failure.error = err ? err : -EINVAL;
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

int guest_walk(void *ctx, uint64_t va, struct tlb_translation *t,
	       unsigned int *reads)
{
	struct vcpu *v = ctx;
	struct walk_cache_slot *slot;
	uint64_t tag;
	int err;

	if (!regs.complete)
		return -ENODEV;
	/*
	 * The kernel changes roots without leaving its half (early boot,
	 * context switches): its walks start from the registers as they are
	 * now.  Replayed user fetches keep the ones their run had.
	 */
	if (v->privileged && !v->replaying)
		read_walk_registers(v);
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

enum unwalkable_reason reason_of(int err)
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
