// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One TLB level: set-associative, several sizes, LRU (tlb.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tlb.h"

static bool is_power_of_two(unsigned int n)
{
	return n && !(n & (n - 1));
}

int tlb_init(struct tlb *tlb, const struct tlb_geometry *geo)
{
	unsigned int i;

	memset(tlb, 0, sizeof(*tlb));
	if (!geo->entries || !geo->ways || geo->entries % geo->ways ||
	    !is_power_of_two(geo->entries / geo->ways) || !geo->nsizes ||
	    geo->nsizes > TLB_MAX_SIZES)
		return -EINVAL;
	for (i = 0; i < geo->nsizes; i++)
		if (geo->shifts[i] < 12 || geo->shifts[i] > 40 ||
		    (i && geo->shifts[i] <= geo->shifts[i - 1]))
			return -EINVAL;
	tlb->entries = calloc(geo->entries, sizeof(*tlb->entries));
	if (!tlb->entries)
		return -ENOMEM;
	tlb->geo = *geo;
	tlb->sets = geo->entries / geo->ways;
	return 0;
}

void tlb_destroy(struct tlb *tlb)
{
	free(tlb->entries);
	tlb->entries = NULL;
}

static struct tlb_entry *set_of(struct tlb *tlb, uint64_t va, uint8_t shift)
{
	uint64_t set = (va >> shift) & (tlb->sets - 1);

	return &tlb->entries[set * tlb->geo.ways];
}

static bool covers(const struct tlb_entry *e, uint64_t va)
{
	return e->valid && (va >> e->shift) == (e->vbase >> e->shift);
}

static bool matches(const struct tlb_entry *e, uint64_t va, uint16_t asid)
{
	return covers(e, va) && (e->global || e->asid == asid);
}

bool tlb_lookup(struct tlb *tlb, uint64_t va, uint16_t asid,
		struct tlb_translation *out)
{
	unsigned int s, w;

	for (s = 0; s < tlb->geo.nsizes; s++) {
		uint8_t shift = tlb->geo.shifts[s];
		struct tlb_entry *set = set_of(tlb, va, shift);

		for (w = 0; w < tlb->geo.ways; w++) {
			struct tlb_entry *e = &set[w];

			if (e->shift != shift || !matches(e, va, asid))
				continue;
			e->last_use = ++tlb->clock;
			if (out) {
				out->vbase = e->vbase;
				out->pbase = e->pbase;
				out->asid = e->asid;
				out->shift = e->shift;
				out->global = e->global;
			}
			return true;
		}
	}
	return false;
}

/* The largest size the level holds that is not larger than @shift. */
static int held_shift(const struct tlb *tlb, uint8_t shift)
{
	int s;

	for (s = (int)tlb->geo.nsizes - 1; s >= 0; s--)
		if (tlb->geo.shifts[s] <= shift)
			return tlb->geo.shifts[s];
	return -1;
}

void tlb_fill(struct tlb *tlb, const struct tlb_translation *t, uint64_t va)
{
	int shift = held_shift(tlb, t->shift);
	struct tlb_entry *set, *victim;
	uint64_t mask, offset;
	unsigned int w;

	/* Smaller than any size held: the level cannot hold it. */
	if (shift < 0)
		return;
	mask = ~((1ull << shift) - 1);
	offset = (va & mask) - t->vbase;
	set = set_of(tlb, va, shift);
	victim = &set[0];
	for (w = 0; w < tlb->geo.ways; w++) {
		struct tlb_entry *e = &set[w];

		if (!e->valid) {
			victim = e;
			break;
		}
		if (e->last_use < victim->last_use)
			victim = e;
	}
	victim->vbase = va & mask;
	victim->pbase = t->pbase + offset;
	victim->asid = t->asid;
	victim->shift = shift;
	victim->global = t->global;
	victim->valid = true;
	victim->last_use = ++tlb->clock;
}

void tlb_flush_all(struct tlb *tlb)
{
	unsigned int i;

	for (i = 0; i < tlb->geo.entries; i++)
		tlb->entries[i].valid = false;
}

void tlb_flush_asid(struct tlb *tlb, uint16_t asid)
{
	unsigned int i;

	for (i = 0; i < tlb->geo.entries; i++) {
		struct tlb_entry *e = &tlb->entries[i];

		if (!e->global && e->asid == asid)
			e->valid = false;
	}
}

void tlb_flush_va(struct tlb *tlb, uint64_t va, uint16_t asid, bool any_asid)
{
	unsigned int i;

	for (i = 0; i < tlb->geo.entries; i++) {
		struct tlb_entry *e = &tlb->entries[i];

		if (covers(e, va) && (any_asid || e->global || e->asid == asid))
			e->valid = false;
	}
}

void tlb_flush_va_nonglobal(struct tlb *tlb, uint64_t va, uint16_t asid)
{
	unsigned int i;

	for (i = 0; i < tlb->geo.entries; i++) {
		struct tlb_entry *e = &tlb->entries[i];

		if (covers(e, va) && !e->global && e->asid == asid)
			e->valid = false;
	}
}

void tlb_flush_range(struct tlb *tlb, uint64_t start, uint64_t end,
		     uint16_t asid, bool any_asid)
{
	unsigned int i;

	for (i = 0; i < tlb->geo.entries; i++) {
		struct tlb_entry *e = &tlb->entries[i];
		uint64_t last = e->vbase + ((1ull << e->shift) - 1);

		if (e->valid && e->vbase < end && last >= start &&
		    (any_asid || e->global || e->asid == asid))
			e->valid = false;
	}
}

void tlb_flush_nonglobal(struct tlb *tlb)
{
	unsigned int i;

	for (i = 0; i < tlb->geo.entries; i++)
		if (!tlb->entries[i].global)
			tlb->entries[i].valid = false;
}

unsigned int tlb_occupancy(const struct tlb *tlb)
{
	unsigned int i, n = 0;

	for (i = 0; i < tlb->geo.entries; i++)
		n += tlb->entries[i].valid;
	return n;
}
