// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The itlb plugin's report at exit: the vCPUs' counts summed per address
 * space (README: its columns).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

const char *const unwalkable_names[UNWALKABLE_REASONS] = {
	"not_mapped", "descriptor_read", "regime_not_modelled", "linear_map",
	"registers",  "recording_full",	 "pending_at_exit",
};

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

void report(qemu_plugin_id_t id, void *p)
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
		for (r = 0; r < vcpus[i]->log.n; r++) {
			struct fetch_record *rec = &vcpus[i]->log.records[r];
			struct space_stats *s = stats_of(vcpus[i], rec->key);

			s->fetches += rec->count;
			s->unwalkable += rec->count;
			vcpus[i]->unwalkable[UNWALKABLE_PENDING_AT_EXIT] +=
				rec->count;
		}
		vcpus[i]->log.n = 0;
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
		g_string_append_printf(
			out,
			"# linear map: not found (boot the guest with nokaslr, "
			"or give linear= and physbase=): no walk was done; last "
			"check: root 0x%" PRIx64 " %s 0x%" PRIx64
			" at 0x%" PRIx64 ": %s\n",
			linear_failure.root, arch == ARCH_ARM64 ? "tcr" : "cr4",
			linear_failure.regs, linear_failure.va,
			linear_failure.error == -EINVAL ?
				"translates elsewhere" :
				strerror(-linear_failure.error));
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
