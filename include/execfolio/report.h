/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report on an execfoliofs trace (`execfolio report`): the trace
 * gathered per file, each file replayed through the simulator
 * (simulate.h) in every column, totals, and a suggested size per file.
 * Printing is the caller's.
 */
#ifndef EXECFOLIO_REPORT_H
#define EXECFOLIO_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <execfolio/error.h>
#include <execfolio/simulate.h>

/* Policy sizes 16K .. 2M, one column each. */
#define EXECFOLIO_REPORT_SIZES 8
/* The columns, in order: stock, opt-one, 16k .. 2m, as-set. */
#define EXECFOLIO_REPORT_STOCK 0
#define EXECFOLIO_REPORT_OPT_ONE 1
#define EXECFOLIO_REPORT_FIRST_SIZE 2
#define EXECFOLIO_REPORT_AS_SET (EXECFOLIO_REPORT_SIZES + 2)
#define EXECFOLIO_REPORT_COLUMNS (EXECFOLIO_REPORT_SIZES + 3)

/* One file of the trace: every ID a path was described under. */
struct execfolio_report_file {
	char *path; /* as in the trace: relative to the backing directory */
	uint64_t size; /* the largest size it was described with */
	uint32_t policy; /* the policy it had when first described */
	struct execfolio_sim_segment *segs; /* executable segments */
	size_t nsegs;
	struct execfolio_sim_touch *touches; /* first touches, in order */
	size_t ntouches, touches_room;
	/* After execfolio_report_run(): */
	bool included; /* simulated: has executable segments, or --all */
	struct execfolio_sim_result res[EXECFOLIO_REPORT_COLUMNS];
	uint32_t suggested; /* a policy size, 0 for none */
};

/* A trace ID: the file it names, and whether its seg records count. */
struct execfolio_report_id {
	size_t file;
	bool owner; /* the first ID of the path: its segments are the file's */
};

struct execfolio_report {
	uint32_t page_size;
	struct execfolio_report_file *files;
	size_t nfiles;
	struct execfolio_report_id *ids; /* ID 1 at [0] */
	size_t nids, ids_room;
	/* After execfolio_report_run(): */
	size_t nincluded;
	struct execfolio_sim_result total[EXECFOLIO_REPORT_COLUMNS];
	enum execfolio_sim_kernel kernel; /* the model the columns are of */
	enum execfolio_sim_arch arch; /* resolved: never NATIVE */
};

struct execfolio_report_options {
	bool all; /* every file, not only those with executable segments */
	unsigned int ra_kb; /* the bdi read-ahead window (128) */
	unsigned int fault_around_kb; /* fault_around_bytes / 1024 (64) */
	/* The kernel modelled, 7.3 when zeroed; 6.12 for the backport. */
	enum execfolio_sim_kernel kernel;
	/* For 7.3's exec_folio_order(); zeroed: the native architecture. */
	enum execfolio_sim_arch arch;
};

/* The largest --ra-kb and --fault-around-kb: 1G. */
#define EXECFOLIO_REPORT_KB_MAX (1u << 20)

/*
 * Read the trace @in (named @name in messages) into @r, which is zeroed
 * first. Returns 0, or -errno with "NAME[:LINE]: what is wrong" in @err
 * (-EINVAL: not a trace, or a malformed one; -ENOMEM). Free @r with
 * execfolio_report_free() either way.
 */
int execfolio_report_load(struct execfolio_report *r, FILE *in,
			  const char *name, char *err, size_t errlen);

/*
 * Simulate every file in every column, add up the totals and suggest a
 * size per file: of 16K..2M the one that maps the touched text with the
 * fewest TLB entries without reading more than stock (ties to the
 * smaller), none when no size beats stock. The policy columns take the
 * order as the series does on both kernels: execfolio_order(). Returns
 * 0, or -errno with the file and the reason in @err (-EINVAL: options out
 * of range).
 */
int execfolio_report_run(struct execfolio_report *r,
			 const struct execfolio_report_options *opts, char *err,
			 size_t errlen);

/* The name of column @k: "stock", "opt-one", "16k" .. "2m", "as-set". */
const char *execfolio_report_column(unsigned int k);

/*
 * DIR/PATH for storing a suggestion of the file at @path (as in the
 * trace) under the directory @dir, into @buf. Returns 0, or -EINVAL when
 * @path is not a relative path that stays inside @dir (a trace is just a
 * text file: "/etc/x", "../x", "?" are refused) or does not fit.
 */
int execfolio_report_target(const char *dir, const char *path, char *buf,
			    size_t len);

/*
 * Open the file at @path (as in the trace) for storing its suggestion,
 * inside the directory open as @dirfd (named @dir in messages): @path must
 * pass execfolio_report_target()'s check, and is resolved by openat2(2)
 * with RESOLVE_IN_ROOT, as if @dirfd were the root directory: "..", an
 * absolute symlink and a relative one climbing out all stay inside it.
 * Only a regular file is opened (read-only). Returns the descriptor, or
 * -errno with "DIR/PATH: what is wrong" in @err (-EINVAL: a path out of
 * the directory or not a regular file; -ENOSYS: a kernel without
 * openat2, before Linux 5.6).
 */
int execfolio_report_open_target(int dirfd, const char *dir, const char *path,
				 char *err, size_t errlen);

void execfolio_report_free(struct execfolio_report *r);

#endif /* EXECFOLIO_REPORT_H */
