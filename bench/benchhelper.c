// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The benchmarks' guest helper (static, in the VM's initramfs).
 *
 *   benchhelper run OUTFILE COMMAND [ARG...]
 *	Run COMMAND, wait for it and write one line to OUTFILE:
 *	"cpu_ns N wall_ns N majflt N status N": the CPU time (user + system)
 *	of COMMAND and everything it waited for, the wall-clock (monotonic)
 *	time, its major faults and its wait status.  Under QEMU's
 *	-icount shift=0 one instruction is one nanosecond of guest time, so
 *	cpu_ns counts the instructions the command executed; the kernel
 *	keeps utime + stime equal to the scheduler's exact runtime.
 *
 *   benchhelper hold < LIST
 *	For each path in LIST (one a line) whose first page is in the page
 *	cache (so that nothing is read from disk to look at it), map its
 *	executable segments the way the ELF loader does (the virtual address
 *	congruent to the file offset modulo 2M as p_vaddr is) and touch the
 *	pages that are already cached (mincore), with MADV_RANDOM so that no
 *	readahead starts and MADV_NOHUGEPAGE so that khugepaged does not
 *	collapse (and read) them.  Prints "ready PID files N text_cached B
 *	file_cached B" and sleeps until killed: execfolio stat PID then gives
 *	the folio table of the text that a workload left in the page cache,
 *	also for programs that have exited.
 *
 *	With BENCH_HOLD_REPORT=FILE in the environment it also writes, per
 *	file of LIST with any page cached (ELF or not), where the cache is:
 *	  file PATH size N cached N policy N map M
 *	policy is the effective exec folio order of XFS_IOC_GET_EXEC_FOLIO
 *	(- where the ioctl fails), map one character per 64K of the file:
 *	. (nothing cached), 1-f (that many 4K pages), X (all of it).  For
 *	the executable segments it holds, per segment:
 *	  text PATH off N len N eligible N aligned N
 *	the cont-aligned share's 64K blocks (DESIGN.md section 2.10) in bytes,
 *	and for each eligible block that is not cont-aligned:
 *	  miss PATH off N folios F
 *	F lists the block's pages as runs SIZExCOUNT: SIZE is the size (kB)
 *	of the folio holding the page, prefixed by u when the page is not at
 *	its place in a 64K-aligned physical block, or - for a page not
 *	resident.  E.g. "-x14,u8x2": only the last 8K, in an 8K folio.
 *
 *   benchhelper dm-delay NAME DEVICE MS
 *	A device-mapper delay device over DEVICE (bench/dm_delay.c).
 *
 *   benchhelper create DIR N
 *	Create N files in DIR and open each again (bench/create_files.c).
 *
 *   benchhelper ask OUTFILE ADDRESS REQUEST REPLY [TIMEOUT_MS]
 *	The time until a starting daemon answers (bench/ask_daemon.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <execfolio/elf.h>
#include <execfolio/xfs_exec_folio.h>

#include "ask_daemon.h"
#include "create_files.h"
#include "dm_delay.h"
#include "monotonic.h"

#define ALIGN_2M (2ul << 20)

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull +
	       (uint64_t)tv.tv_usec * 1000;
}

static int cmd_run(int argc, char **argv)
{
	struct rusage ru;
	uint64_t start, end;
	int status;
	FILE *out;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr,
			"usage: benchhelper run OUTFILE COMMAND [ARG...]\n");
		return 2;
	}
	out = fopen(argv[0], "w");
	if (!out) {
		fprintf(stderr, "benchhelper: %s: %s\n", argv[0],
			strerror(errno));
		return 1;
	}
	start = monotonic_ns();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "benchhelper: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "benchhelper: %s: %s\n", argv[1],
			strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		fprintf(stderr, "benchhelper: wait: %s\n", strerror(errno));
		return 1;
	}
	end = monotonic_ns();
	fprintf(out, "cpu_ns %llu wall_ns %llu majflt %ld status %d\n",
		(unsigned long long)(tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime)),
		(unsigned long long)(end - start), ru.ru_majflt, status);
	if (fclose(out)) {
		fprintf(stderr, "benchhelper: %s: %s\n", argv[0],
			strerror(errno));
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Resident bytes of [p, p + len) (p page-aligned), per mincore(2). */
static uint64_t resident_bytes(void *p, size_t len, long page,
			       unsigned char *vec)
{
	uint64_t bytes = 0;
	size_t i, pages = (len + page - 1) / page;

	if (mincore(p, len, vec))
		return 0;
	for (i = 0; i < pages; i++)
		if (vec[i] & 1)
			bytes += page;
	return bytes;
}

struct hold_totals {
	unsigned long files;
	uint64_t text_cached, file_cached;
};

/* The per-file report (BENCH_HOLD_REPORT), when asked for. */
struct hold_report {
	FILE *out;
	int pagemap_fd, kpageflags_fd;
	/* The folio found last: [head, head + nr). */
	uint64_t head, nr;
};

#define BLOCK_64K 65536ul
#define PM_PRESENT (1ull << 63)
#define PM_PFN_MASK ((1ull << 55) - 1)
#define KPF_COMPOUND_HEAD (1ull << 15)
#define KPF_COMPOUND_TAIL (1ull << 16)
/* Larger than any page-cache folio (2M on 4K pages is 512). */
#define FOLIO_MAX_PAGES 8192

static uint64_t kpageflags(struct hold_report *r, uint64_t pfn)
{
	uint64_t flags;

	if (pread(r->kpageflags_fd, &flags, sizeof(flags),
		  (off_t)(pfn * sizeof(flags))) != sizeof(flags))
		return 0;
	return flags;
}

/* The folio holding @pfn, as [r->head, r->head + r->nr). */
static void folio_of(struct hold_report *r, uint64_t pfn)
{
	uint64_t flags, head = pfn, end = pfn + 1;

	if (pfn >= r->head && pfn < r->head + r->nr)
		return;
	flags = kpageflags(r, pfn);
	if (flags & KPF_COMPOUND_TAIL)
		while (head > 0 && pfn - head < FOLIO_MAX_PAGES &&
		       (kpageflags(r, head - 1) & KPF_COMPOUND_TAIL))
			head--;
	if (flags & (KPF_COMPOUND_HEAD | KPF_COMPOUND_TAIL)) {
		if (flags & KPF_COMPOUND_TAIL)
			head--; /* the head before the tails */
		while (end - head < FOLIO_MAX_PAGES &&
		       (kpageflags(r, end) & KPF_COMPOUND_TAIL))
			end++;
	}
	r->head = head;
	r->nr = end - head;
}

/*
 * One token per page of a block that is not cont-aligned: the size in kB
 * of its folio, "u" before it when the page is not at its place in a
 * 64K-aligned physical block, "-" for a page not resident.
 */
static void page_token(struct hold_report *r, uint64_t pm, size_t i,
		       size_t pages, long page, char *tok, size_t len)
{
	uint64_t pfn = pm & PM_PFN_MASK;

	if (!(pm & PM_PRESENT)) {
		snprintf(tok, len, "-");
		return;
	}
	folio_of(r, pfn);
	snprintf(tok, len, "%s%llu", pfn % pages == i ? "" : "u",
		 (unsigned long long)(r->nr * (uint64_t)page / 1024));
}

static void report_miss(struct hold_report *r, const char *path, uint64_t off,
			const uint64_t *pm, size_t pages, long page)
{
	char tok[24], prev[24] = "";
	size_t i, run = 0;

	fprintf(r->out, "miss %s off %llu folios", path,
		(unsigned long long)off);
	for (i = 0; i <= pages; i++) {
		if (i < pages)
			page_token(r, pm[i], i, pages, page, tok, sizeof(tok));
		if (i < pages && run && !strcmp(tok, prev)) {
			run++;
			continue;
		}
		if (run)
			fprintf(r->out, "%s%sx%zu", i - run ? "," : " ", prev,
				run);
		if (i < pages) {
			strcpy(prev, tok);
			run = 1;
		}
	}
	fputc('\n', r->out);
}

/*
 * Whether the @pages pages of @pm are one contpte block (DESIGN.md
 * section 2.10).
 */
static bool block_cont_aligned(struct hold_report *r, const uint64_t *pm,
			       size_t pages)
{
	uint64_t pfn0 = pm[0] & PM_PFN_MASK;
	size_t i;

	for (i = 0; i < pages; i++)
		if (!(pm[i] & PM_PRESENT) || (pm[i] & PM_PFN_MASK) != pfn0 + i)
			return false;
	if (pfn0 % pages)
		return false;
	folio_of(r, pfn0);
	return r->head <= pfn0 && r->head + r->nr >= pfn0 + pages;
}

/*
 * The 64K blocks of the held segment [p, p + len) (file offset @off): the
 * "text" line and a "miss" line per eligible block not cont-aligned.
 */
static void report_segment(struct hold_report *r, const char *path,
			   unsigned char *p, size_t len, uint64_t off,
			   long page)
{
	size_t pages = BLOCK_64K > (unsigned long)page ? BLOCK_64K / page : 1;
	uintptr_t b = ((uintptr_t)p + BLOCK_64K - 1) & ~(BLOCK_64K - 1);
	uint64_t eligible = 0, aligned = 0, pm[BLOCK_64K / 4096];
	size_t i, resident;

	for (; b + BLOCK_64K <= (uintptr_t)p + len; b += BLOCK_64K) {
		if (pread(r->pagemap_fd, pm, pages * sizeof(pm[0]),
			  (off_t)(b / page * sizeof(pm[0]))) !=
		    (ssize_t)(pages * sizeof(pm[0])))
			continue;
		for (i = 0, resident = 0; i < pages; i++)
			resident += !!(pm[i] & PM_PRESENT);
		if (!resident)
			continue;
		eligible += BLOCK_64K;
		if (block_cont_aligned(r, pm, pages))
			aligned += BLOCK_64K;
		else
			report_miss(r, path, off + (b - (uintptr_t)p), pm,
				    pages, page);
	}
	fprintf(r->out, "text %s off %llu len %zu eligible %llu aligned %llu\n",
		path, (unsigned long long)off, len,
		(unsigned long long)eligible, (unsigned long long)aligned);
}

/* The "file" line: the policy and where the file is cached. */
static void report_file(struct hold_report *r, const char *path, int fd,
			uint64_t size, uint64_t cached,
			const unsigned char *vec, long page)
{
	size_t per = BLOCK_64K > (unsigned long)page ? BLOCK_64K / page : 1;
	size_t pages = (size + page - 1) / page, i, n;
	struct xfs_exec_folio ef = { 0 };
	char policy[8] = "-";

	if (!ioctl(fd, XFS_IOC_GET_EXEC_FOLIO, &ef))
		snprintf(policy, sizeof(policy), "%u", ef.ef_order);
	fprintf(r->out, "file %s size %llu cached %llu policy %s map ", path,
		(unsigned long long)size, (unsigned long long)cached, policy);
	for (i = 0; i < pages; i += per) {
		size_t in = pages - i < per ? pages - i : per, j;

		for (j = 0, n = 0; j < in; j++)
			n += vec[i + j] & 1;
		fputc(!n      ? '.' :
		      n == in ? 'X' :
				"0123456789abcdef"[n & 15],
		      r -> out);
	}
	fputc('\n', r->out);
}

/* Map one executable segment of @fd at a loader-like address, touch what is cached. */
static void hold_segment(int fd, const char *path,
			 const struct execfolio_segment *seg, long page,
			 struct hold_totals *t, struct hold_report *rep)
{
	uint64_t off = seg->offset & ~(uint64_t)(page - 1);
	size_t len = seg->offset + seg->filesz - off;
	uintptr_t base, addr;
	unsigned char *vec, *p;
	volatile unsigned char sink;
	size_t i;
	void *r;

	/* Reserve room, then place the segment congruent to p_vaddr modulo 2M. */
	r = mmap(NULL, len + 2 * ALIGN_2M, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return;
	base = ((uintptr_t)r + ALIGN_2M - 1) & ~(ALIGN_2M - 1);
	addr = base + ((seg->vaddr & ~(uint64_t)(page - 1)) & (ALIGN_2M - 1));
	p = mmap((void *)addr, len, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | MAP_FIXED, fd, (off_t)off);
	if (p == MAP_FAILED)
		return;
	madvise(p, len, MADV_RANDOM);
	/*
	 * khugepaged would collapse the held text into 2M folios, reading
	 * the pages of the range that are not cached, and the range's pages
	 * are not mapped while it does: the measure would change what it
	 * measures (once on stock 7.3 the view saw exactly 2M less text than
	 * was held).
	 */
	madvise(p, len, MADV_NOHUGEPAGE);
	vec = malloc(len / page + 1);
	if (!vec)
		return;
	if (!mincore(p, len, vec)) {
		for (i = 0; i < (len + page - 1) / page; i++) {
			if (vec[i] & 1) {
				sink = p[i * page];
				(void)sink;
				t->text_cached += page;
			}
		}
		if (rep)
			report_segment(rep, path, p,
				       (len + page - 1) & ~(size_t)(page - 1),
				       off, page);
	}
	free(vec);
}

static void hold_file(const char *path, long page, struct hold_totals *t,
		      struct hold_report *rep)
{
	struct execfolio_elf elf;
	unsigned char *vec;
	struct stat st;
	uint64_t cached;
	bool first;
	void *p;
	size_t i;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0)
		goto out;
	/* Look at the page cache before reading anything. */
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		goto out;
	madvise(p, (size_t)st.st_size, MADV_NOHUGEPAGE);
	vec = malloc((size_t)st.st_size / page + 1);
	cached = vec ? resident_bytes(p, (size_t)st.st_size, page, vec) : 0;
	first = cached && (vec[0] & 1);
	if (rep && cached)
		report_file(rep, path, fd, (uint64_t)st.st_size, cached, vec,
			    page);
	free(vec);
	munmap(p, (size_t)st.st_size);
	/* A file whose first page is not cached was not executed. */
	if (!first)
		goto out;
	if (execfolio_elf_analyse_file(path, &elf, NULL, 0))
		goto out;
	if (elf.nsegments) {
		t->files++;
		t->file_cached += cached;
		for (i = 0; i < elf.nsegments; i++)
			if (!elf.segments[i].past_eof)
				hold_segment(fd, path, &elf.segments[i], page,
					     t, rep);
	}
	execfolio_elf_free(&elf);
out:
	close(fd);
}

/* Open the per-file report of BENCH_HOLD_REPORT; NULL when not asked for. */
static struct hold_report *open_report(struct hold_report *r)
{
	const char *path = getenv("BENCH_HOLD_REPORT");

	if (!path || !path[0])
		return NULL;
	r->out = fopen(path, "w");
	r->pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	r->kpageflags_fd = open("/proc/kpageflags", O_RDONLY);
	if (!r->out || r->pagemap_fd < 0 || r->kpageflags_fd < 0) {
		fprintf(stderr,
			"benchhelper: BENCH_HOLD_REPORT=%s needs the file, /proc/self/pagemap and /proc/kpageflags (root): %s\n",
			path, strerror(errno));
		exit(1);
	}
	r->head = r->nr = 0;
	return r;
}

static __attribute__((noreturn)) void cmd_hold(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct hold_totals t = { 0 };
	struct hold_report report, *rep = open_report(&report);
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			hold_file(line, page, &t, rep);
	}
	if (rep && fclose(rep->out)) {
		fprintf(stderr, "benchhelper: BENCH_HOLD_REPORT: %s\n",
			strerror(errno));
		exit(1);
	}
	printf("ready %d files %lu text_cached %llu file_cached %llu\n",
	       (int)getpid(), t.files, (unsigned long long)t.text_cached,
	       (unsigned long long)t.file_cached);
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "hold"))
		cmd_hold();
	if (argc >= 2 && !strcmp(argv[1], "dm-delay"))
		return cmd_dm_delay(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return cmd_create(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "ask"))
		return cmd_ask(argc - 2, argv + 2);
	fprintf(stderr,
		"usage: benchhelper run OUTFILE COMMAND [ARG...]\n"
		"       benchhelper hold < LIST\n"
		"       benchhelper dm-delay NAME DEVICE MS\n"
		"       benchhelper create DIR N\n"
		"       benchhelper ask OUTFILE ADDRESS REQUEST REPLY [TIMEOUT_MS]\n");
	return 2;
}
