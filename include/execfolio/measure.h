/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Folio measurement of program text: how the resident pages of executable
 * file mappings are backed by page-cache folios, computed the way the
 * kernel's tools/mm/thpmaps computes its file-* statistics, from
 * /proc/PID/smaps, /proc/PID/pagemap and /proc/kpageflags.
 *
 * Every path is relative to a proc root ("/proc" normally), so tests can
 * feed a synthetic tree of those files.
 */
#ifndef EXECFOLIO_MEASURE_H
#define EXECFOLIO_MEASURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <execfolio/error.h>

/* Folio orders counted; 2M on 4K pages is order 9, 512M on 64K pages 13. */
#define EXECFOLIO_MAX_ORDER 20

/* The headline block: 64K of virtual address space (DESIGN.md section 2.10). */
#define EXECFOLIO_CONT_BLOCK 65536

/*
 * Aggregated result. All counts are bytes, each physical page counted once
 * however many mappings share it (the first mapping measured classifies it).
 * Anonymous (copy-on-write) pages inside file mappings are not text.
 */
struct execfolio_stat {
	uint64_t page_size;
	uint64_t pmd_size;
	unsigned int pmd_order; /* log2(pmd_size / page_size) */
	size_t nr_pids;
	pid_t *pids; /* the processes measured, in order */

	/* Resident file pages of executable file mappings. */
	uint64_t text_bytes;
	/*
	 * Fully mapped folios by order: aligned (mapped at a virtual address
	 * aligned to their size) or not. Order 0 holds small folios, which
	 * thpmaps leaves out; they are neither aligned nor unaligned.
	 * aligned[pmd_order] includes the PMD-mapped folios.
	 */
	uint64_t folio_bytes[EXECFOLIO_MAX_ORDER + 1];
	uint64_t aligned[EXECFOLIO_MAX_ORDER + 1];
	uint64_t unaligned[EXECFOLIO_MAX_ORDER + 1];
	/* Pages of large folios not fully and contiguously mapped. */
	uint64_t partial_bytes;
	/* FilePmdMapped + ShmemPmdMapped of smaps. */
	uint64_t pmd_mapped_bytes;
	/*
	 * 64K-aligned 64K blocks of virtual address space wholly inside one
	 * executable file mapping: eligible when a page is resident, aligned
	 * when all pages are resident, physically contiguous, 64K-aligned and
	 * in one folio (what one arm64 contpte entry needs). With 64K pages a
	 * block is one page. Eligible bytes are whole blocks, resident or not,
	 * so they are no part of text_bytes and may exceed it.
	 */
	uint64_t cont_eligible_64k_bytes;
	uint64_t cont_aligned_64k_bytes;
};

/* Sum of aligned[] or unaligned[] over all orders. */
uint64_t execfolio_stat_sum(const uint64_t *by_order, unsigned int max_order);

struct execfolio_measure;

/*
 * Open a measurement context. @proc_root is the proc directory ("/proc"
 * when NULL). @page_size and @pmd_size of 0 mean the running kernel's:
 * sysconf(_SC_PAGESIZE) and
 * /sys/kernel/mm/transparent_hugepage/hpage_pmd_size (or the page-table
 * geometry when THP is absent). Returns 0 or a negative errno with a
 * message in @err (e.g. kpageflags missing or not readable).
 */
int execfolio_measure_open(struct execfolio_measure **mp, const char *proc_root,
			   uint64_t page_size, uint64_t pmd_size, char *err,
			   size_t errlen);

/*
 * Measure one process and add it to the aggregate. Returns 0, or a negative
 * errno with a message naming the PID and the reason in @err: -ESRCH (no
 * such process), -EACCES (permission), -EPERM (pagemap hides physical frame
 * numbers: needs CAP_SYS_ADMIN), -EIO (read error). On error the aggregate
 * is unchanged.
 */
int execfolio_measure_pid(struct execfolio_measure *m, pid_t pid, char *err,
			  size_t errlen);

/* The aggregate so far; valid until the next call on @m. */
const struct execfolio_stat *
execfolio_measure_result(struct execfolio_measure *m);

void execfolio_measure_close(struct execfolio_measure *m);

/*
 * One executable file mapping of a measured process on its own: its
 * address range, the file as smaps names it ("" when it names none) and
 * the counts of its pages that no earlier mapping counted (a library's
 * pages are in the first process measured that maps them). @st has the
 * geometry of the aggregate; its pids are unused.
 */
struct execfolio_mapping {
	pid_t pid;
	uint64_t start, end;
	const char *path;
	struct execfolio_stat st;
};

typedef void (*execfolio_mapping_fn)(const struct execfolio_mapping *map,
				     void *arg);

/*
 * Call @fn for each executable file mapping of every process measured from
 * now on, in address order, once the process has been measured in full (a
 * process that fails reports no mapping). NULL stops it.
 */
void execfolio_measure_each_mapping(struct execfolio_measure *m,
				    execfolio_mapping_fn fn, void *arg);

/*
 * The processes of a cgroup subtree: cgroup.procs (v2, or v1) of @dir and
 * every cgroup below it, or v1's tasks where cgroup.procs is absent. Sorted,
 * without duplicates. Returns 0 or a negative errno with a message.
 */
int execfolio_cgroup_pids(const char *dir, pid_t **pids, size_t *nr, char *err,
			  size_t errlen);

#endif /* EXECFOLIO_MEASURE_H */
