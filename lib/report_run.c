// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's columns: each file of the trace replayed through the model
 * of Linux 7.3 or 6.12 under stock readahead, option one, this policy at
 * each size from 16K to 2M and the policy the file had, then the size to
 * suggest for it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/bitops.h>
#include <execfolio/policy.h>
#include <execfolio/report.h>

static const char *const column_names[EXECFOLIO_REPORT_COLUMNS] = {
	"stock", "opt-one", "16k", "32k", "64k",    "128k",
	"256k",	 "512k",    "1m",  "2m",  "as-set",
};

const char *execfolio_report_column(unsigned int k)
{
	return k < EXECFOLIO_REPORT_COLUMNS ? column_names[k] : "?";
}

/* The policy size of column @k: 16K << (k - FIRST_SIZE). */
static uint32_t column_size(unsigned int k)
{
	return (16u << 10) << (k - EXECFOLIO_REPORT_FIRST_SIZE);
}

/* Parameters of column @k for file @f. */
static void column_params(const struct execfolio_report *r,
			  const struct execfolio_report_file *f,
			  const struct execfolio_report_options *opts,
			  unsigned int k, struct execfolio_sim_params *p)
{
	unsigned int max = execfolio_max_order(r->page_size);
	uint32_t size = 0;

	execfolio_sim_defaults(p, EXECFOLIO_SIM_STOCK, 0);
	p->kernel = r->kernel;
	p->arch = r->arch;
	p->page_size = r->page_size;
	p->ra_pages =
		(unsigned int)((uint64_t)opts->ra_kb * 1024 / r->page_size);
	p->fault_around_pages = (unsigned int)((uint64_t)opts->fault_around_kb *
					       1024 / r->page_size);
	if (k == EXECFOLIO_REPORT_OPT_ONE) {
		/* Option one: 64K, whatever the page size. */
		p->mode = EXECFOLIO_SIM_EXEC_ORDER;
		p->order = r->page_size < (64u << 10) ?
				   execfolio_ilog2((64u << 10) / r->page_size) :
				   0;
		return;
	}
	if (k >= EXECFOLIO_REPORT_FIRST_SIZE && k < EXECFOLIO_REPORT_AS_SET)
		size = column_size(k);
	else if (k == EXECFOLIO_REPORT_AS_SET)
		size = f->policy;
	if (!size)
		return;
	p->mode = EXECFOLIO_SIM_POLICY;
	/*
	 * The block size is assumed to be the page size (XFS default). The
	 * order does not depend on the file's size, on 7.3 and on the 6.12
	 * backport.
	 */
	p->order = execfolio_order(size, r->page_size, r->page_size, max);
}

static uint64_t tlb_total(const struct execfolio_sim_result *s)
{
	return s->tlb_pte + s->tlb_contpte + s->tlb_pmd;
}

static uint32_t suggest(const struct execfolio_report_file *f)
{
	const struct execfolio_sim_result *stock =
		&f->res[EXECFOLIO_REPORT_STOCK];
	uint64_t best = tlb_total(stock);
	uint32_t size = 0;
	unsigned int k;

	for (k = EXECFOLIO_REPORT_FIRST_SIZE; k < EXECFOLIO_REPORT_AS_SET;
	     k++) {
		const struct execfolio_sim_result *s = &f->res[k];

		if (s->read_bytes > stock->read_bytes || tlb_total(s) >= best)
			continue;
		best = tlb_total(s);
		size = column_size(k);
	}
	return size;
}

int execfolio_report_run(struct execfolio_report *r,
			 const struct execfolio_report_options *opts, char *err,
			 size_t errlen)
{
	struct execfolio_sim_params p;
	unsigned int k;
	size_t i;
	int ret;

	if (opts->ra_kb > EXECFOLIO_REPORT_KB_MAX ||
	    opts->fault_around_kb > EXECFOLIO_REPORT_KB_MAX) {
		snprintf(
			err, errlen,
			"read-ahead and fault-around windows are at most %u kB",
			EXECFOLIO_REPORT_KB_MAX);
		return -EINVAL;
	}
	if ((unsigned int)opts->kernel > EXECFOLIO_SIM_KERNEL_6_12 ||
	    (unsigned int)opts->arch > EXECFOLIO_SIM_ARCH_X86_64) {
		snprintf(
			err, errlen,
			"no model of kernel %u on architecture %u: the models are of 7.3 and 6.12, on arm64 and x86_64",
			(unsigned int)opts->kernel, (unsigned int)opts->arch);
		return -EINVAL;
	}
	r->kernel = opts->kernel;
	r->arch = execfolio_sim_arch_resolve(opts->arch);
	r->nincluded = 0;
	memset(r->total, 0, sizeof(r->total));
	for (i = 0; i < r->nfiles; i++) {
		struct execfolio_report_file *f = &r->files[i];
		struct execfolio_sim_file in = { f->size, f->segs, f->nsegs,
						 f->touches, f->ntouches };

		f->included = opts->all || f->nsegs;
		f->suggested = 0;
		if (!f->included)
			continue;
		r->nincluded++;
		for (k = 0; k < EXECFOLIO_REPORT_COLUMNS; k++) {
			column_params(r, f, opts, k, &p);
			ret = execfolio_sim_run(&in, &p, &f->res[k]);
			if (ret) {
				snprintf(err, errlen, "simulating %s: %s",
					 f->path, strerror(-ret));
				return ret;
			}
			execfolio_sim_add(&r->total[k], &f->res[k]);
		}
		f->suggested = suggest(f);
	}
	return 0;
}
