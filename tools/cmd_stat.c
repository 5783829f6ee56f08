// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio stat: how the text of running processes is backed by folios,
 * aggregated over PIDs or a cgroup, as the folio table (DESIGN.md section
 * 7.1) or JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/json.h>
#include <execfolio/measure.h>

#include "execfolio.h"

static void stat_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s stat [--json] [--per-mapping] PID...\n"
		"       %s stat [--json] [--per-mapping] --cgroup DIR\n"
		"\n"
		"Measure how the resident text (executable file mappings) of the\n"
		"processes is backed by page-cache folios, as the kernel's\n"
		"tools/mm/thpmaps does, counting a page shared by several\n"
		"processes once. Needs root (CAP_SYS_ADMIN) for pagemap PFNs and\n"
		"/proc/kpageflags.\n"
		"\n"
		"  --json         one JSON object instead of the table\n"
		"  --per-mapping  a line per executable mapping too: the pages\n"
		"                 no mapping before it counted\n"
		"  --cgroup DIR   every process of the cgroup (v1 or v2) and below\n"
		"  --proc DIR     read DIR instead of /proc\n",
		progname, progname);
}

/* The mappings measured, for --per-mapping, in the order measured. */
struct mapping_list {
	struct execfolio_mapping *maps;
	size_t nr, max;
};

static void keep_mapping(const struct execfolio_mapping *map, void *arg)
{
	struct mapping_list *list = arg;

	if (list->nr == list->max) {
		list->max = list->max ? list->max * 2 : 64;
		list->maps =
			xrealloc(list->maps, list->max * sizeof(*list->maps));
	}
	list->maps[list->nr] = *map;
	list->maps[list->nr].path = xstrdup(map->path);
	list->nr++;
}

static void free_mappings(struct mapping_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free((char *)list->maps[i].path);
	free(list->maps);
}

/* "89.4%", or "-" without a 64K block of resident text. */
static const char *share_text(const struct execfolio_stat *st, char *buf,
			      size_t len)
{
	if (!st->cont_eligible_64k_bytes)
		return "-";
	snprintf(buf, len, "%.1f%%",
		 100.0 * (double)st->cont_aligned_64k_bytes /
			 (double)st->cont_eligible_64k_bytes);
	return buf;
}

static void print_mappings(const struct mapping_list *list, uint64_t page_size)
{
	char base[32], share[16];
	size_t i;

	snprintf(base, sizeof(base), "%" PRIu64 "kB-pages", page_size / 1024);
	printf("\nmappings (each page counted in the first that maps it):\n");
	printf("%-8s %-16s %10s %12s %12s  %s\n", "PID", "start", "text kB",
	       base, "cont-aligned", "file");
	for (i = 0; i < list->nr; i++) {
		const struct execfolio_mapping *map = &list->maps[i];

		printf("%-8d %-16" PRIx64 " %10" PRIu64 " %12" PRIu64
		       " %12s  %s\n",
		       (int)map->pid, map->start, map->st.text_bytes / 1024,
		       map->st.folio_bytes[0] / 1024,
		       share_text(&map->st, share, sizeof(share)), map->path);
	}
}

static void print_row(const char *label, uint64_t bytes, uint64_t text)
{
	printf("%-26s %12" PRIu64 " kB", label, bytes / 1024);
	if (text)
		printf("  %5.1f%%\n", 100.0 * (double)bytes / (double)text);
	else
		printf("      -\n");
}

static void print_table(const struct execfolio_stat *st)
{
	uint64_t text = st->text_bytes;
	unsigned int o;
	char label[64];
	size_t i;

	printf("processes:");
	for (i = 0; i < st->nr_pids; i++)
		printf(" %d", (int)st->pids[i]);
	printf("%s\n", st->nr_pids ? "" : " none");
	printf("%-26s %12s %9s\n", "text folios", "", "% of text");
	print_row("text", text, text);
	snprintf(label, sizeof(label), "base-page-%" PRIu64 "kB",
		 st->page_size / 1024);
	print_row(label, st->folio_bytes[0], text);
	for (o = 1; o <= st->pmd_order; o++) {
		snprintf(label, sizeof(label), "thp-aligned-%" PRIu64 "kB",
			 (st->page_size << o) / 1024);
		print_row(label, st->aligned[o], text);
	}
	for (o = 1; o <= st->pmd_order; o++) {
		snprintf(label, sizeof(label), "thp-unaligned-%" PRIu64 "kB",
			 (st->page_size << o) / 1024);
		print_row(label, st->unaligned[o], text);
	}
	print_row("thp-partial", st->partial_bytes, text);
	snprintf(label, sizeof(label), "thp-pmd-mapped-%" PRIu64 "kB",
		 st->pmd_size / 1024);
	print_row(label, st->pmd_mapped_bytes, text);
	print_row("cont-aligned-64kB", st->cont_aligned_64k_bytes, text);
	/*
	 * Whole 64K blocks of address space, resident pages or not: no part
	 * of the text, so no share of it (it may exceed the text).
	 */
	printf("%-26s %12" PRIu64 " kB  %6s\n", "cont-eligible-64kB",
	       st->cont_eligible_64k_bytes / 1024, "blocks");
	if (st->cont_eligible_64k_bytes)
		printf("cont-aligned share: %.1f%% of the 64K blocks with resident text\n",
		       100.0 * (double)st->cont_aligned_64k_bytes /
			       (double)st->cont_eligible_64k_bytes);
	else
		printf("cont-aligned share: - (no 64K block with resident text)\n");
}

/* The counters of @st, as members of the object open in @j. */
static void json_counters(struct execfolio_json *j,
			  const struct execfolio_stat *st)
{
	unsigned int o;
	char key[32];

	execfolio_json_u64(j, "text_bytes", st->text_bytes);
	execfolio_json_object(j, "folio_bytes");
	for (o = 0; o <= st->pmd_order; o++) {
		snprintf(key, sizeof(key), "%" PRIu64, st->page_size << o);
		execfolio_json_u64(j, key, st->folio_bytes[o]);
	}
	execfolio_json_end(j);
	execfolio_json_u64(j, "aligned_bytes",
			   execfolio_stat_sum(st->aligned, st->pmd_order));
	execfolio_json_u64(j, "unaligned_bytes",
			   execfolio_stat_sum(st->unaligned, st->pmd_order));
	execfolio_json_u64(j, "partial_bytes", st->partial_bytes);
	execfolio_json_u64(j, "cont_aligned_64k_bytes",
			   st->cont_aligned_64k_bytes);
	execfolio_json_u64(j, "cont_eligible_64k_bytes",
			   st->cont_eligible_64k_bytes);
	execfolio_json_u64(j, "pmd_mapped_bytes", st->pmd_mapped_bytes);
}

static void print_json(const struct execfolio_stat *st,
		       const struct mapping_list *list)
{
	struct execfolio_json j;
	size_t i;

	execfolio_json_init(&j, stdout);
	execfolio_json_object(&j, NULL);
	execfolio_json_array(&j, "pids");
	for (i = 0; i < st->nr_pids; i++)
		execfolio_json_u64(&j, NULL, (uint64_t)st->pids[i]);
	execfolio_json_end(&j);
	json_counters(&j, st);
	if (list) {
		execfolio_json_array(&j, "mappings");
		for (i = 0; i < list->nr; i++) {
			const struct execfolio_mapping *map = &list->maps[i];

			execfolio_json_object(&j, NULL);
			execfolio_json_u64(&j, "pid", (uint64_t)map->pid);
			execfolio_json_u64(&j, "start", map->start);
			execfolio_json_u64(&j, "end", map->end);
			execfolio_json_string(&j, "path", map->path);
			json_counters(&j, &map->st);
			execfolio_json_end(&j);
		}
		execfolio_json_end(&j);
	}
	execfolio_json_end(&j);
	execfolio_json_finish(&j);
}

static int parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > 0x7fffffff)
		return -EINVAL;
	*pid = (pid_t)v;
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "per-mapping", no_argument, NULL, 'm' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "proc", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cgroup = NULL, *proc_root = "/proc";
	struct execfolio_measure *m;
	bool json = false, per_mapping = false, from_cgroup;
	struct mapping_list mappings = { 0 };
	int c, ret, status = EXIT_OK;
	size_t nr = 0, i, measured = 0;
	pid_t *pids = NULL;
	char err[EXECFOLIO_ERR_MAX];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:jmc:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'm':
			per_mapping = true;
			break;
		case 'c':
			cgroup = optarg;
			break;
		case 'p':
			proc_root = optarg;
			break;
		case 'h':
			stat_usage(stdout);
			return EXIT_OK;
		default:
			return option_error("stat", c, argv);
		}
	}
	from_cgroup = cgroup != NULL;
	if (from_cgroup && optind < argc)
		return usage_error("stat", "give PIDs or --cgroup, not both");
	if (!from_cgroup && optind == argc)
		return usage_error("stat", "no PID given");

	if (from_cgroup) {
		ret = execfolio_cgroup_pids(cgroup, &pids, &nr, err,
					    sizeof(err));
		if (ret) {
			err_msg("stat: %s", err);
			return EXIT_FAILED;
		}
	} else {
		nr = (size_t)(argc - optind);
		pids = xcalloc(nr, sizeof(*pids));
		for (i = 0; i < nr; i++) {
			if (parse_pid(argv[optind + i], &pids[i])) {
				free(pids);
				return usage_error("stat", "'%s' is not a PID",
						   argv[optind + i]);
			}
		}
	}

	ret = execfolio_measure_open(&m, proc_root, 0, 0, err, sizeof(err));
	if (ret) {
		err_msg("stat: %s", err);
		free(pids);
		return EXIT_FAILED;
	}
	if (per_mapping)
		execfolio_measure_each_mapping(m, keep_mapping, &mappings);
	for (i = 0; i < nr; i++) {
		ret = execfolio_measure_pid(m, pids[i], err, sizeof(err));
		if (!ret) {
			measured++;
			continue;
		}
		/* A cgroup's process may exit between listing and measuring. */
		if (from_cgroup && ret == -ESRCH)
			continue;
		err_msg("stat: %s", err);
		status = EXIT_FAILED;
		/* Without PFNs or flags no process can be measured. */
		if (ret == -EPERM || ret == -ENOMEM)
			break;
	}
	if (measured || (from_cgroup && status == EXIT_OK)) {
		const struct execfolio_stat *st = execfolio_measure_result(m);

		if (json) {
			print_json(st, per_mapping ? &mappings : NULL);
		} else {
			print_table(st);
			if (per_mapping)
				print_mappings(&mappings, st->page_size);
		}
	} else if (json) {
		/* Nothing measured: still JSON, an empty array of results. */
		printf("[]\n");
	}
	execfolio_measure_close(m);
	free_mappings(&mappings);
	free(pids);
	return status;
}
