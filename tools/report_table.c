// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio report: the human tables, in the rows of execfolio stat
 * with one column per simulated policy, then a line per
 * file with its suggested size.
 */
#include <inttypes.h>
#include <stdio.h>

#include <execfolio/bitops.h>
#include <execfolio/policy.h>
#include <execfolio/report.h>

#include "execfolio.h"

#define NCOL EXECFOLIO_REPORT_COLUMNS
/* Between one column's field of a result and the next one's. */
#define STRIDE (sizeof(struct execfolio_sim_result) / sizeof(uint64_t))

static bool any(const uint64_t *v, size_t stride)
{
	unsigned int k;

	for (k = 0; k < NCOL; k++)
		if (v[k * stride])
			return true;
	return false;
}

/* A row of shares of the mapped text; left out when all are 0. */
static void pct_row(FILE *out, const char *label,
		    const struct execfolio_sim_result *res,
		    const uint64_t *first, bool always)
{
	unsigned int k;

	if (!always && !any(first, STRIDE))
		return;
	fprintf(out, "| %-24s |", label);
	for (k = 0; k < NCOL; k++) {
		uint64_t text = res[k].text_mapped_pages;

		if (text)
			fprintf(out, " %6.0f%% |",
				100.0 * (double)first[k * STRIDE] /
					(double)text);
		else
			fprintf(out, " %7s |", "-");
	}
	fprintf(out, "\n");
}

/* @stride: STRIDE for a field of results, 1 for a plain array. */
static void num_row(FILE *out, const char *label, const uint64_t *first,
		    size_t stride, uint64_t div)
{
	unsigned int k;

	fprintf(out, "| %-24s |", label);
	for (k = 0; k < NCOL; k++)
		fprintf(out, " %7" PRIu64 " |", first[k * stride] / div);
	fprintf(out, "\n");
}

static void rule(FILE *out, char c)
{
	unsigned int k;

	fprintf(out, "|");
	for (k = 0; k < 26; k++)
		fputc(c, out);
	for (k = 0; k < NCOL; k++)
		fprintf(out, "|%.9s", c == '=' ? "=========" : "---------");
	fprintf(out, "|\n");
}

static void print_table(FILE *out, uint32_t page_size,
			const struct execfolio_sim_result *res)
{
	unsigned int pmd = execfolio_ilog2(page_size) - 3, o, k;
	uint32_t kb = page_size / 1024;
	uint64_t row[NCOL];
	char label[48];

	fprintf(out, "| %-24s |", "mapped text by folio");
	for (k = 0; k < NCOL; k++)
		fprintf(out, " %7s |", execfolio_report_column(k));
	fprintf(out, "\n");
	rule(out, '=');
	snprintf(label, sizeof(label), "base-page-%ukB", kb);
	pct_row(out, label, res, &res[0].aligned[0], true);
	for (o = 1; o < EXECFOLIO_SIM_ORDERS; o++) {
		snprintf(label, sizeof(label), "thp-aligned-%ukB", kb << o);
		pct_row(out, label, res, &res[0].aligned[o], false);
	}
	for (o = 1; o < EXECFOLIO_SIM_ORDERS; o++) {
		snprintf(label, sizeof(label), "thp-unaligned-%ukB", kb << o);
		pct_row(out, label, res, &res[0].unaligned[o], false);
	}
	pct_row(out, "thp-partial", res, &res[0].partial, true);
	snprintf(label, sizeof(label), "thp-pmd-mapped-%ukB", kb << pmd);
	pct_row(out, label, res, &res[0].pmd_mapped, false);
	rule(out, '-');
	pct_row(out, "cont-aligned-64kB", res, &res[0].cont_aligned, true);
	fprintf(out, "| %-24s |", "cont-aligned share");
	for (k = 0; k < NCOL; k++) {
		if (res[k].cont_eligible)
			fprintf(out, " %6.0f%% |",
				100.0 * (double)res[k].cont_aligned /
					(double)res[k].cont_eligible);
		else
			fprintf(out, " %7s |", "-");
	}
	fprintf(out, "\n");
	rule(out, '-');
	for (k = 0; k < NCOL; k++)
		row[k] = res[k].text_mapped_pages * (page_size / 1024);
	num_row(out, "mapped text kB", row, 1, 1);
	num_row(out, "read from backing kB", &res[0].read_bytes, STRIDE, 1024);
	num_row(out, "page cache kB", &res[0].cache_bytes, STRIDE, 1024);
	num_row(out, "major faults", &res[0].major_faults, STRIDE, 1);
	snprintf(label, sizeof(label), "TLB entries %ukB PTE", kb);
	num_row(out, label, &res[0].tlb_pte, STRIDE, 1);
	num_row(out, "TLB entries 64kB contpte", &res[0].tlb_contpte, STRIDE,
		1);
	snprintf(label, sizeof(label), "TLB entries %ukB PMD", kb << pmd);
	num_row(out, label, &res[0].tlb_pmd, STRIDE, 1);
	for (k = 0; k < NCOL; k++)
		row[k] = res[k].tlb_pte + res[k].tlb_contpte + res[k].tlb_pmd;
	num_row(out, "TLB entries total", row, 1, 1);
}

void report_print_tables(FILE *out, const struct execfolio_report *r,
			 const char *trace, bool per_file, bool all)
{
	char canon[EXECFOLIO_SIZE_STR];
	size_t i;

	fprintf(out,
		"trace %s: page size %u, %zu file%s with executable text%s\n",
		trace, r->page_size, r->nincluded, r->nincluded == 1 ? "" : "s",
		all ? " or not" : "");
	if (r->kernel == EXECFOLIO_SIM_KERNEL_6_12)
		fprintf(out,
			"model: Linux 6.12 page cache, the policy as the 6.12 backport applies it\n");
	else
		fprintf(out,
			"model: Linux 7.3 page cache on %s (exec folios of %u kB without a policy), the policy as the 7.3 series applies it\n",
			execfolio_sim_arch_name(r->arch),
			(r->page_size << execfolio_sim_arch_exec_order(
				 r->arch, r->page_size)) /
				1024);
	fprintf(out,
		"columns: stock readahead; option one (64K exec folios); this policy at 16K..2M; the policy as set\n\n");
	print_table(out, r->page_size, r->total);
	fprintf(out, "\n%-10s %-10s %-8s %-9s %s\n", "touched", "text",
		"policy", "suggested", "file");
	for (i = 0; i < r->nfiles; i++) {
		const struct execfolio_report_file *f = &r->files[i];
		const struct execfolio_sim_result *stock =
			&f->res[EXECFOLIO_REPORT_STOCK];

		if (!f->included)
			continue;
		fprintf(out, "%-10" PRIu64 " %-10" PRIu64 " %-8s ",
			stock->touched_pages, stock->text_touched_pages,
			execfolio_format_size(f->policy, canon));
		fprintf(out, "%-9s %s\n",
			execfolio_format_size(f->suggested, canon), f->path);
		if (per_file) {
			print_table(out, r->page_size, f->res);
			fprintf(out, "\n");
		}
	}
}
