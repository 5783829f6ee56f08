// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio report --json (DESIGN.md section 7.3): per column the byte
 * keys of execfolio stat --json plus the simulator's counts, in total and
 * with --per-file for each file.
 */
#include <inttypes.h>
#include <stdio.h>

#include <execfolio/json.h>
#include <execfolio/policy.h>
#include <execfolio/report.h>

#include "execfolio.h"

/* An object of folio size (bytes, as a string key) to bytes. */
static uint64_t by_size(struct execfolio_json *j, const char *key,
			uint64_t page_size, const uint64_t *a,
			const uint64_t *b)
{
	uint64_t pages = 0;
	unsigned int o;
	char size[24];

	execfolio_json_object(j, key);
	for (o = 0; o < EXECFOLIO_SIM_ORDERS; o++) {
		uint64_t n = a[o] + (b ? b[o] : 0);

		pages += a[o];
		if (!n)
			continue;
		snprintf(size, sizeof(size), "%" PRIu64, page_size << o);
		execfolio_json_u64(j, size, n * page_size);
	}
	execfolio_json_end(j);
	return pages;
}

static void json_result(struct execfolio_json *j, uint32_t page_size,
			const char *key, const struct execfolio_sim_result *s)
{
	uint64_t ps = page_size, aligned, unaligned;

	execfolio_json_object(j, key);
	execfolio_json_u64(j, "touched_pages", s->touched_pages);
	execfolio_json_u64(j, "text_touched_pages", s->text_touched_pages);
	execfolio_json_u64(j, "text_bytes", s->text_mapped_pages * ps);
	/* As execfolio stat: fully mapped folios by size, base pages at 0. */
	by_size(j, "folio_bytes", ps, s->aligned, s->unaligned);
	aligned = by_size(j, "aligned", ps, s->aligned, NULL);
	unaligned = by_size(j, "unaligned", ps, s->unaligned, NULL);
	/* The key names of execfolio stat --json, for comparison. */
	execfolio_json_u64(j, "aligned_bytes", (aligned - s->aligned[0]) * ps);
	execfolio_json_u64(j, "unaligned_bytes", unaligned * ps);
	execfolio_json_u64(j, "partial_bytes", s->partial * ps);
	execfolio_json_u64(j, "cont_aligned_64k_bytes", s->cont_aligned * ps);
	execfolio_json_u64(j, "cont_eligible_64k_bytes", s->cont_eligible * ps);
	execfolio_json_u64(j, "pmd_mapped_bytes", s->pmd_mapped * ps);
	execfolio_json_u64(j, "read_bytes", s->read_bytes);
	execfolio_json_u64(j, "cache_bytes", s->cache_bytes);
	execfolio_json_u64(j, "major_faults", s->major_faults);
	execfolio_json_u64(j, "tlb_pte", s->tlb_pte);
	execfolio_json_u64(j, "tlb_contpte", s->tlb_contpte);
	execfolio_json_u64(j, "tlb_pmd", s->tlb_pmd);
	execfolio_json_end(j);
}

static void json_columns(struct execfolio_json *j, uint32_t page_size,
			 const struct execfolio_sim_result *res)
{
	unsigned int k;

	for (k = 0; k < EXECFOLIO_REPORT_COLUMNS; k++)
		json_result(j, page_size, execfolio_report_column(k), &res[k]);
}

void report_print_json(FILE *out, const struct execfolio_report *r,
		       const char *trace, bool per_file)
{
	char canon[EXECFOLIO_SIZE_STR];
	struct execfolio_json j;
	size_t i;

	execfolio_json_init(&j, out);
	execfolio_json_object(&j, NULL);
	execfolio_json_string(&j, "trace", trace);
	execfolio_json_u64(&j, "page_size", r->page_size);
	execfolio_json_string(&j, "kernel",
			      execfolio_sim_kernel_name(r->kernel));
	execfolio_json_string(&j, "arch", execfolio_sim_arch_name(r->arch));
	execfolio_json_u64(&j, "files", r->nincluded);
	execfolio_json_object(&j, "total");
	json_columns(&j, r->page_size, r->total);
	execfolio_json_end(&j);
	if (per_file) {
		execfolio_json_array(&j, "per_file");
		for (i = 0; i < r->nfiles; i++) {
			const struct execfolio_report_file *f = &r->files[i];

			if (!f->included)
				continue;
			execfolio_json_object(&j, NULL);
			execfolio_json_string(&j, "path", f->path);
			execfolio_json_u64(&j, "size", f->size);
			execfolio_json_string(&j, "policy",
					      execfolio_format_size(f->policy,
								    canon));
			execfolio_json_string(
				&j, "suggested",
				execfolio_format_size(f->suggested, canon));
			json_columns(&j, r->page_size, f->res);
			execfolio_json_end(&j);
		}
		execfolio_json_end(&j);
	}
	execfolio_json_end(&j);
	execfolio_json_finish(&j);
}
