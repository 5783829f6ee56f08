// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfoliofs --report TRACE: read a trace (see trace.c for the format),
 * replay every file through the simulator under stock 6.12 readahead,
 * option one, the policy at each size from 16K to 2M and the policy the
 * files had, and print the seed's table per scenario, in total and with
 * --per-file for each file.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/json.h>
#include <execfolio/policy.h>
#include <execfolio/simulate.h>
#include <execfolio/xattr.h>

#include "execfoliofs.h"
#include "frontend.h"

#define NSIZES 8 /* 16K .. 2M */
#define NSCEN (NSIZES + 3)

struct rfile {
	char *path;
	uint64_t size;
	uint32_t policy;
	struct execfolio_sim_segment *segs;
	size_t nsegs;
	struct execfolio_sim_touch *touches;
	size_t ntouches, cap;
	struct execfolio_sim_result res[NSCEN];
	uint32_t suggested; /* learn: see suggest() */
};

/* Trace ids map to files; a re-instantiated inode gets a new id. */
struct rid {
	size_t file;
	bool owner; /* its seg records are the file's */
};

struct report {
	const char *trace;
	uint32_t page_size;
	struct rfile *files;
	size_t nfiles;
	struct rid *ids;
	size_t nids;
	bool all, per_file, json;
	const char *apply; /* --apply DIR: write the suggestions there */
	unsigned int ra_pages, fault_around_pages;
	struct execfolio_sim_result total[NSCEN];
	const char *names[NSCEN];
	char size_names[NSIZES][16];
	size_t nincluded;
};

static int fail(const struct report *r, unsigned int line, const char *what)
{
	err_msg("%s:%u: %s", r->trace, line, what);
	return -EINVAL;
}

static char *unescape(char *s)
{
	char *in = s, *out = s;

	for (; *in; in++) {
		if (*in == '\\' && in[1] == 'n') {
			*out++ = '\n';
			in++;
		} else if (*in == '\\' && in[1] == '\\') {
			*out++ = '\\';
			in++;
		} else {
			*out++ = *in;
		}
	}
	*out = '\0';
	return s;
}

static struct rfile *file_of_id(struct report *r, uint32_t id)
{
	if (id >= r->nids || r->ids[id].file == SIZE_MAX)
		return NULL;
	return &r->files[r->ids[id].file];
}

static int add_file(struct report *r, unsigned int line, uint32_t id,
		    uint64_t size, const char *policy, char *path)
{
	uint32_t psize = 0;
	size_t i;

	if (id >= r->nids) {
		size_t n = (size_t)id + 64;
		struct rid *ids = xrealloc(r->ids, n * sizeof(*ids));

		for (i = r->nids; i < n; i++)
			ids[i].file = SIZE_MAX;
		r->ids = ids;
		r->nids = n;
	}
	if (r->ids[id].file != SIZE_MAX)
		return fail(r, line, "file id described twice");
	if (execfolio_parse_size_str(policy, &psize))
		return fail(r, line, "bad policy size");
	unescape(path);
	for (i = 0; i < r->nfiles; i++) {
		if (!strcmp(r->files[i].path, path)) {
			if (size > r->files[i].size)
				r->files[i].size = size;
			r->ids[id].file = i;
			r->ids[id].owner = false;
			return 0;
		}
	}
	if (!(r->nfiles & 63))
		r->files = xrealloc(r->files,
				    (r->nfiles + 64) * sizeof(*r->files));
	memset(&r->files[r->nfiles], 0, sizeof(r->files[0]));
	r->files[r->nfiles].path = xstrdup(path);
	r->files[r->nfiles].size = size;
	r->files[r->nfiles].policy = psize;
	r->ids[id].file = r->nfiles++;
	r->ids[id].owner = true;
	return 0;
}

static void add_touch(struct rfile *f, uint64_t page, uint32_t stream,
		      bool syscall)
{
	if (f->ntouches == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->touches = xrealloc(f->touches, f->cap * sizeof(*f->touches));
	}
	f->touches[f->ntouches].page = page;
	f->touches[f->ntouches].stream = stream;
	f->touches[f->ntouches].syscall = syscall;
	f->ntouches++;
}

static int parse_line(struct report *r, unsigned int line, char *buf)
{
	unsigned long long a, b, c;
	unsigned int id, stream, mode;
	char policy[32], source[16], cause[16];
	struct rfile *f;
	int n = 0;

	if (sscanf(buf, "file %u %llu %o %31s %15s %n", &id, &a, &mode, policy,
		   source, &n) == 5 &&
	    n) {
		buf[strcspn(buf, "\n")] = '\0';
		return add_file(r, line, id, a, policy, buf + n);
	}
	if (sscanf(buf, "seg %u %llu %llu %llu", &id, &a, &b, &c) == 4) {
		struct execfolio_sim_segment *s;

		f = file_of_id(r, id);
		if (!f)
			return fail(r, line, "segment of an undescribed file");
		if (!r->ids[id].owner)
			return 0;
		s = xrealloc(f->segs, (f->nsegs + 1) * sizeof(*s));
		s[f->nsegs].offset = a;
		s[f->nsegs].vaddr = b;
		s[f->nsegs].filesz = c;
		f->segs = s;
		f->nsegs++;
		return 0;
	}
	/* CAUSE is optional: traces before it was recorded are faults. */
	n = sscanf(buf, "read %u %u %llu %llu %15s", &id, &stream, &a, &b,
		   cause);
	if (n >= 4) {
		bool syscall = n == 5 && !strcmp(cause, "syscall");
		uint64_t page;

		if (n == 5 && !syscall && strcmp(cause, "fault"))
			return fail(r, line, "unknown read cause");
		f = file_of_id(r, id);
		if (!f)
			return fail(r, line, "read of an undescribed file");
		for (page = a / r->page_size;
		     b && page <= (a + b - 1) / r->page_size; page++)
			add_touch(f, page, stream, syscall);
		return 0;
	}
	if (buf[0] == '#' || buf[0] == '\n')
		return 0;
	return fail(r, line, "unknown record");
}

static int load(struct report *r)
{
	FILE *in = fopen(r->trace, "re");
	unsigned int line = 2;
	char buf[8192];
	int ret = 0;

	if (!in) {
		err_msg("cannot read trace %s: %s", r->trace, strerror(errno));
		return -errno;
	}
	if (!fgets(buf, sizeof(buf), in) ||
	    strcmp(buf, "execfoliofs-trace 1\n") ||
	    !fgets(buf, sizeof(buf), in) ||
	    sscanf(buf, "page_size %" SCNu32, &r->page_size) != 1 ||
	    r->page_size < 4096 || (r->page_size & (r->page_size - 1))) {
		err_msg("%s is not an execfoliofs trace (version 1): it must start with \"execfoliofs-trace 1\" and a page_size line",
			r->trace);
		fclose(in);
		return -EINVAL;
	}
	while (!ret && fgets(buf, sizeof(buf), in)) {
		line++;
		ret = parse_line(r, line, buf);
	}
	if (!ret && ferror(in)) {
		err_msg("reading %s: %s", r->trace, strerror(errno));
		ret = -EIO;
	}
	fclose(in);
	return ret;
}

static unsigned int ilog2_u32(uint32_t x)
{
	return 31 - __builtin_clz(x);
}

/* Parameters of scenario @k for file @f. */
static void scenario(const struct report *r, const struct rfile *f,
		     unsigned int k, struct execfolio_sim_params *p)
{
	unsigned int max = execfolio_max_order(r->page_size);
	uint32_t size = 0;

	execfolio_sim_defaults(p, EXECFOLIO_SIM_STOCK, 0);
	p->page_size = r->page_size;
	p->ra_pages = r->ra_pages;
	p->fault_around_pages = r->fault_around_pages;
	if (k == 1) {
		/* Option one: 64K, whatever the page size (the seed). */
		p->mode = EXECFOLIO_SIM_EXEC_ORDER;
		p->order = r->page_size < (64u << 10) ?
				   ilog2_u32((64u << 10) / r->page_size) :
				   0;
		return;
	}
	if (k >= 2 && k < 2 + NSIZES)
		size = (16u << 10) << (k - 2);
	else if (k == NSCEN - 1)
		size = f->policy;
	if (!size)
		return;
	p->mode = EXECFOLIO_SIM_POLICY;
	/* The block size is assumed to be the page size (XFS default). */
	p->order =
		execfolio_order(size, r->page_size, r->page_size, f->size, max);
}

static uint64_t tlb_total(const struct execfolio_sim_result *s)
{
	return s->tlb_pte + s->tlb_contpte + s->tlb_pmd;
}

/*
 * learn: the size that maps the touched text with the fewest TLB entries
 * without reading more from the backing store than stock read-around;
 * ties go to the smaller size. 0 (none) when no size needs fewer entries
 * than stock.
 */
static uint32_t suggest(const struct rfile *f)
{
	uint64_t best = tlb_total(&f->res[0]);
	uint32_t size = 0;
	unsigned int k;

	for (k = 0; k < NSIZES; k++) {
		const struct execfolio_sim_result *s = &f->res[2 + k];

		if (s->read_bytes > f->res[0].read_bytes ||
		    tlb_total(s) >= best)
			continue;
		best = tlb_total(s);
		size = (16u << 10) << k;
	}
	return size;
}

/* Only paths inside the directory: the trace is just a text file. */
static bool safe_relative(const char *path)
{
	const char *p = path;

	if (!*path || *path == '/' || !strcmp(path, "?"))
		return false;
	while (p) {
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return true;
}

/* --apply DIR: set each suggestion on DIR/PATH; returns the failures. */
static int apply(const struct report *r, FILE *log)
{
	char path[8192], canon[EXECFOLIO_SIZE_STR];
	int failed = 0, ret;
	size_t i;

	for (i = 0; i < r->nfiles; i++) {
		const struct rfile *f = &r->files[i];

		if ((!r->all && !f->nsegs) || !f->suggested)
			continue;
		if (!safe_relative(f->path) ||
		    snprintf(path, sizeof(path), "%s/%s", r->apply, f->path) >=
			    (int)sizeof(path)) {
			err_msg("not applying to \"%s\": not a path inside %s",
				f->path, r->apply);
			failed++;
			continue;
		}
		ret = execfolio_xattr_set(path, f->suggested);
		if (ret) {
			err_msg("%s: %s", path, execfolio_xattr_strerror(ret));
			failed++;
			continue;
		}
		fprintf(log, "set %s %s\n",
			execfolio_format_size(f->suggested, canon), path);
	}
	return failed;
}

static int simulate(struct report *r)
{
	struct execfolio_sim_params p;
	size_t i;
	unsigned int k;
	int ret;

	for (i = 0; i < r->nfiles; i++) {
		struct rfile *f = &r->files[i];
		struct execfolio_sim_file in = { f->size, f->segs, f->nsegs,
						 f->touches, f->ntouches };

		if (!r->all && !f->nsegs)
			continue;
		r->nincluded++;
		for (k = 0; k < NSCEN; k++) {
			scenario(r, f, k, &p);
			ret = execfolio_sim_run(&in, &p, &f->res[k]);
			if (ret) {
				err_msg("simulating %s: %s", f->path,
					strerror(-ret));
				return ret;
			}
			execfolio_sim_add(&r->total[k], &f->res[k]);
		}
		f->suggested = suggest(f);
	}
	return 0;
}

static bool any(const uint64_t *v, size_t stride_words, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (v[k * stride_words])
			return true;
	return false;
}

#define STRIDE (sizeof(struct execfolio_sim_result) / sizeof(uint64_t))

static void pct_row(const char *label, const struct execfolio_sim_result *res,
		    const uint64_t *first, bool always)
{
	unsigned int k;

	if (!always && !any(first, STRIDE, NSCEN))
		return;
	printf("| %-24s |", label);
	for (k = 0; k < NSCEN; k++) {
		uint64_t text = res[k].text_mapped_pages;

		if (text)
			printf(" %6.0f%% |", 100.0 * (double)first[k * STRIDE] /
						     (double)text);
		else
			printf(" %7s |", "-");
	}
	printf("\n");
}

/* @stride: STRIDE for a field of results, 1 for a plain array. */
static void num_row(const char *label, const uint64_t *first, size_t stride,
		    uint64_t div)
{
	unsigned int k;

	printf("| %-24s |", label);
	for (k = 0; k < NSCEN; k++)
		printf(" %7" PRIu64 " |", first[k * stride] / div);
	printf("\n");
}

static void rule(char c)
{
	unsigned int k;

	printf("|");
	for (k = 0; k < 26; k++)
		putchar(c);
	for (k = 0; k < NSCEN; k++)
		printf("|%.9s", c == '=' ? "=========" : "---------");
	printf("|\n");
}

static void print_table(const struct report *r,
			const struct execfolio_sim_result *res)
{
	unsigned int pmd = ilog2_u32(r->page_size) - 3, o, k;
	uint32_t kb = r->page_size / 1024;
	uint64_t share[NSCEN], tlb[NSCEN];
	char label[48];

	printf("| %-24s |", "mapped text by folio");
	for (k = 0; k < NSCEN; k++)
		printf(" %7s |", r->names[k]);
	printf("\n");
	rule('=');
	snprintf(label, sizeof(label), "base-page-%ukB", kb);
	pct_row(label, res, &res[0].aligned[0], true);
	for (o = 1; o < EXECFOLIO_SIM_ORDERS; o++) {
		snprintf(label, sizeof(label), "thp-aligned-%ukB", kb << o);
		pct_row(label, res, &res[0].aligned[o], false);
	}
	for (o = 1; o < EXECFOLIO_SIM_ORDERS; o++) {
		snprintf(label, sizeof(label), "thp-unaligned-%ukB", kb << o);
		pct_row(label, res, &res[0].unaligned[o], false);
	}
	pct_row("thp-partial", res, &res[0].partial, true);
	snprintf(label, sizeof(label), "thp-pmd-mapped-%ukB", kb << pmd);
	pct_row(label, res, &res[0].pmd_mapped, false);
	rule('-');
	pct_row("cont-aligned-64kB", res, &res[0].cont_aligned, true);
	printf("| %-24s |", "cont-aligned share");
	for (k = 0; k < NSCEN; k++) {
		share[k] = res[k].cont_eligible;
		if (share[k])
			printf(" %6.0f%% |",
			       100.0 * (double)res[k].cont_aligned /
				       (double)share[k]);
		else
			printf(" %7s |", "-");
	}
	printf("\n");
	rule('-');
	for (k = 0; k < NSCEN; k++)
		share[k] = res[k].text_mapped_pages * (r->page_size / 1024);
	num_row("mapped text kB", share, 1, 1);
	num_row("read from backing kB", &res[0].read_bytes, STRIDE, 1024);
	num_row("page cache kB", &res[0].cache_bytes, STRIDE, 1024);
	num_row("major faults", &res[0].major_faults, STRIDE, 1);
	snprintf(label, sizeof(label), "TLB entries %ukB PTE", kb);
	num_row(label, &res[0].tlb_pte, STRIDE, 1);
	num_row("TLB entries 64kB contpte", &res[0].tlb_contpte, STRIDE, 1);
	snprintf(label, sizeof(label), "TLB entries %ukB PMD", kb << pmd);
	num_row(label, &res[0].tlb_pmd, STRIDE, 1);
	for (k = 0; k < NSCEN; k++)
		tlb[k] = res[k].tlb_pte + res[k].tlb_contpte + res[k].tlb_pmd;
	num_row("TLB entries total", tlb, 1, 1);
}

static void json_result(struct execfolio_json *j, const struct report *r,
			const char *key, const struct execfolio_sim_result *s)
{
	uint64_t ps = r->page_size, aligned = 0, unaligned = 0;
	unsigned int o;
	char size[24];

	execfolio_json_object(j, key);
	execfolio_json_u64(j, "touched_pages", s->touched_pages);
	execfolio_json_u64(j, "text_touched_pages", s->text_touched_pages);
	execfolio_json_u64(j, "text_bytes", s->text_mapped_pages * ps);
	/* As execfolio stat: fully mapped folios by size, base pages at 0. */
	execfolio_json_object(j, "folio_bytes");
	for (o = 0; o < EXECFOLIO_SIM_ORDERS; o++) {
		if (!s->aligned[o] && !s->unaligned[o])
			continue;
		snprintf(size, sizeof(size), "%" PRIu64, ps << o);
		execfolio_json_u64(j, size,
				   (s->aligned[o] + s->unaligned[o]) * ps);
	}
	execfolio_json_end(j);
	execfolio_json_object(j, "aligned");
	for (o = 0; o < EXECFOLIO_SIM_ORDERS; o++) {
		aligned += s->aligned[o];
		if (!s->aligned[o])
			continue;
		snprintf(size, sizeof(size), "%" PRIu64, ps << o);
		execfolio_json_u64(j, size, s->aligned[o] * ps);
	}
	execfolio_json_end(j);
	execfolio_json_object(j, "unaligned");
	for (o = 0; o < EXECFOLIO_SIM_ORDERS; o++) {
		unaligned += s->unaligned[o];
		if (!s->unaligned[o])
			continue;
		snprintf(size, sizeof(size), "%" PRIu64, ps << o);
		execfolio_json_u64(j, size, s->unaligned[o] * ps);
	}
	execfolio_json_end(j);
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

static void print_json(const struct report *r)
{
	struct execfolio_json j;
	char canon[EXECFOLIO_SIZE_STR];
	unsigned int k;
	size_t i;

	execfolio_json_init(&j, stdout);
	execfolio_json_object(&j, NULL);
	execfolio_json_string(&j, "trace", r->trace);
	execfolio_json_u64(&j, "page_size", r->page_size);
	execfolio_json_u64(&j, "files", r->nincluded);
	execfolio_json_object(&j, "total");
	for (k = 0; k < NSCEN; k++)
		json_result(&j, r, r->names[k], &r->total[k]);
	execfolio_json_end(&j);
	if (r->per_file) {
		execfolio_json_array(&j, "per_file");
		for (i = 0; i < r->nfiles; i++) {
			const struct rfile *f = &r->files[i];

			if (!r->all && !f->nsegs)
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
			for (k = 0; k < NSCEN; k++)
				json_result(&j, r, r->names[k], &f->res[k]);
			execfolio_json_end(&j);
		}
		execfolio_json_end(&j);
	}
	execfolio_json_end(&j);
	execfolio_json_finish(&j);
}

static void print_human(const struct report *r)
{
	char canon[EXECFOLIO_SIZE_STR];
	size_t i;

	printf("trace %s: page size %u, %zu file%s with executable text%s\n",
	       r->trace, r->page_size, r->nincluded,
	       r->nincluded == 1 ? "" : "s", r->all ? " or not" : "");
	printf("columns: stock 6.12 readahead; option one (64K exec folios); this policy at 16K..2M; the policy as set\n\n");
	print_table(r, r->total);
	printf("\n%-10s %-10s %-8s %-9s %s\n", "touched", "text", "policy",
	       "suggested", "file");
	for (i = 0; i < r->nfiles; i++) {
		const struct rfile *f = &r->files[i];

		if (!r->all && !f->nsegs)
			continue;
		printf("%-10" PRIu64 " %-10" PRIu64 " %-8s ",
		       f->res[0].touched_pages, f->res[0].text_touched_pages,
		       execfolio_format_size(f->policy, canon));
		printf("%-9s %s\n", execfolio_format_size(f->suggested, canon),
		       f->path);
		if (r->per_file) {
			print_table(r, f->res);
			printf("\n");
		}
	}
}

static void report_usage(void)
{
	printf("usage: execfoliofs --report TRACE [--per-file] [--all] [--json]\n"
	       "                   [--ra-kb KB] [--fault-around-kb KB] [--apply DIR]\n");
}

/* A number of kB up to 1G, checked before the trace is read. */
static int parse_kb(const char *arg, unsigned long *kb)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (*arg < '0' || *arg > '9' || *end || v > (1ul << 20))
		return -EINVAL;
	*kb = v;
	return 0;
}

int efs_report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "per-file", no_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "ra-kb", required_argument, NULL, 'r' },
		{ "fault-around-kb", required_argument, NULL, 'f' },
		{ "apply", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct report r;
	const char *ra_arg = "128", *fa_arg = "64";
	unsigned long ra_kb, fa_kb;
	unsigned int k;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			r.per_file = true;
			break;
		case 'a':
			r.all = true;
			break;
		case 'j':
			r.json = true;
			break;
		case 'r':
			ra_arg = optarg;
			break;
		case 'f':
			fa_arg = optarg;
			break;
		case 'A':
			r.apply = optarg;
			break;
		case 'h':
			report_usage();
			return EXIT_OK;
		default:
			return option_error("--report", c, argv);
		}
	}
	if (optind + 1 != argc)
		return usage_error("--report", "expected one TRACE file");
	if (parse_kb(ra_arg, &ra_kb) || parse_kb(fa_arg, &fa_kb))
		return usage_error(
			"--report",
			"--ra-kb and --fault-around-kb take a number of kB");
	r.trace = argv[optind];
	if (load(&r))
		return EXIT_FAILED;
	r.ra_pages = (unsigned int)(ra_kb * 1024 / r.page_size);
	r.fault_around_pages = (unsigned int)(fa_kb * 1024 / r.page_size);
	r.names[0] = "stock";
	r.names[1] = "opt-one";
	for (k = 0; k < NSIZES; k++) {
		execfolio_format_size((16u << 10) << k, r.size_names[k]);
		r.names[2 + k] = r.size_names[k];
	}
	r.names[NSCEN - 1] = "as-set";
	if (simulate(&r))
		return EXIT_FAILED;
	if (r.json)
		print_json(&r);
	else
		print_human(&r);
	if (r.apply && apply(&r, r.json ? stderr : stdout))
		return EXIT_FAILED;
	return EXIT_OK;
}
