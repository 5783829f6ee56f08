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
 *	readahead starts.  Prints "ready PID files N text_cached B
 *	file_cached B" and sleeps until killed: execfolio stat PID then gives
 *	the folio table of the text that a workload left in the page cache,
 *	also for programs that have exited.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <execfolio/elf.h>

#define ALIGN_2M (2ul << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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
	start = now_ns();
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
	end = now_ns();
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

/* Map one executable segment of @fd at a loader-like address, touch what is cached. */
static void hold_segment(int fd, const struct execfolio_segment *seg, long page,
			 struct hold_totals *t)
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
	}
	free(vec);
}

static void hold_file(const char *path, long page, struct hold_totals *t)
{
	struct execfolio_elf elf;
	const char *why;
	unsigned char *vec, first;
	struct stat st;
	uint64_t cached;
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
	if (mincore(p, 1, &first) || !(first & 1)) {
		munmap(p, (size_t)st.st_size);
		goto out;
	}
	vec = malloc((size_t)st.st_size / page + 1);
	cached = vec ? resident_bytes(p, (size_t)st.st_size, page, vec) : 0;
	free(vec);
	munmap(p, (size_t)st.st_size);
	if (execfolio_elf_analyse_file(path, &elf, &why))
		goto out;
	if (elf.nsegments) {
		t->files++;
		t->file_cached += cached;
		for (i = 0; i < elf.nsegments; i++)
			if (!elf.segments[i].past_eof)
				hold_segment(fd, &elf.segments[i], page, t);
	}
	execfolio_elf_free(&elf);
out:
	close(fd);
}

static __attribute__((noreturn)) void cmd_hold(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct hold_totals t = { 0 };
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			hold_file(line, page, &t);
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
	fprintf(stderr, "usage: benchhelper run OUTFILE COMMAND [ARG...]\n"
			"       benchhelper hold < LIST\n");
	return 2;
}
