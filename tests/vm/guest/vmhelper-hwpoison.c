// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmhelper hwpoison: a hardware-poisoned page in a large page-cache folio
 * that memory failure could not split, and what a later fault on another
 * page of that folio maps (guest/hwpoison.sh).
 *
 * Memory failure splits a large folio before it isolates the poisoned
 * page.  A folio it cannot split (here one pinned by a pipe that
 * vmsplice() filled from it; on a large-block-size mapping, any folio of
 * the minimum order) stays in the page cache whole, the page marked
 * poisoned and the folio marked as holding one.  A fault on a healthy page
 * of that folio that maps the whole folio must leave the poisoned page
 * unmapped, as fault-around and do_set_pmd() do, so that touching it
 * faults and the fault handler sees the poison: it drops the clean folio
 * and reads the page again (7.3) or fails the fault with SIGBUS (6.12,
 * while another page of the folio is mapped), instead of consuming the
 * poison.  The caller makes such faults reach finish_fault() by setting
 * fault_around_bytes to one page.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kernel-page-flags.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmhelper.h"

#ifndef MADV_HWPOISON
#define MADV_HWPOISON 100
#endif

/* /proc/PID/pagemap bits (Documentation/admin-guide/mm/pagemap.rst). */
#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_PFN_MASK ((1ULL << 55) - 1)

static long page_size;
static sigjmp_buf sigbus_jump;

/* The pagemap entry of the page at @addr of this process, or 0. */
static uint64_t pagemap_entry(const volatile void *addr)
{
	uint64_t entry = 0;
	off_t off = (uintptr_t)addr / page_size * sizeof(entry);
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0 || pread(fd, &entry, sizeof(entry), off) != sizeof(entry))
		entry = 0;
	if (fd >= 0)
		close(fd);
	return entry;
}

/* The /proc/kpageflags entry of the page mapped at @addr, or 0. */
static uint64_t page_flags(const volatile void *addr)
{
	uint64_t entry = pagemap_entry(addr), flags = 0;
	off_t off = (entry & PAGEMAP_PFN_MASK) * sizeof(flags);
	int fd;

	if (!(entry & PAGEMAP_PRESENT))
		return 0;
	fd = open("/proc/kpageflags", O_RDONLY);
	if (fd < 0 || pread(fd, &flags, sizeof(flags), off) != sizeof(flags))
		flags = 0;
	if (fd >= 0)
		close(fd);
	return flags;
}

static bool in_large_folio(uint64_t flags)
{
	return flags &
	       ((1ULL << KPF_COMPOUND_HEAD) | (1ULL << KPF_COMPOUND_TAIL));
}

/*
 * Poison the page at @page from a child process: memory failure signals
 * the task that injected it, and the parent must keep its mapping and
 * the pipe that pins the folio.  Returns 0 once the child has gone.
 */
static int inject_poison(volatile char *page)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (madvise((void *)page, page_size, MADV_HWPOISON) &&
		    errno != EHWPOISON) {
			fprintf(stderr,
				"vmhelper: madvise(MADV_HWPOISON): %s\n",
				strerror(errno));
			_exit(3);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 3 ? -1 : 0;
}

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(sigbus_jump, 1);
}

/*
 * Read the page at @page and say what the read got: "sigbus" when the
 * fault failed, "poisoned" when it read the poisoned page itself (what
 * consumes the poison on real hardware), "fresh" when the kernel dropped
 * the clean folio and read the page again into a new one.
 */
static const char *read_outcome(volatile char *page)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	const char *outcome;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(sigbus_jump, 1)) {
		outcome = "sigbus";
	} else {
		(void)*page;
		outcome = page_flags(page) & (1ULL << KPF_HWPOISON) ?
				  "poisoned" :
				  "fresh";
	}
	sigaction(SIGBUS, &old, NULL);
	return outcome;
}

/*
 * Poison page @poison_arg of PATH while its folio is pinned, then map PATH
 * afresh, read page @touch_arg (of the same folio) and report
 * "large=L poisoned=P mapped=M access=sigbus|poisoned|fresh": whether the
 * poisoned page was still in a large folio after memory failure, whether
 * it was poisoned, whether the fault on the other page mapped it too, and
 * what reading it then got (read_outcome()).
 */
int cmd_hwpoison(const char *path, const char *poison_arg,
		 const char *touch_arg)
{
	size_t poison = strtoul(poison_arg, NULL, 10);
	size_t touch = strtoul(touch_arg, NULL, 10);
	volatile char *map;
	struct iovec iov;
	struct stat st;
	uint64_t flags;
	int pipefd[2];
	bool mapped;
	int fd;

	page_size = sysconf(_SC_PAGESIZE);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "vmhelper: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if ((off_t)((poison > touch ? poison : touch) + 1) * page_size >
	    st.st_size) {
		fprintf(stderr,
			"vmhelper: %s: pages %zu and %zu are not both inside it\n",
			path, poison, touch);
		return 2;
	}

	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("vmhelper: mmap");
		return 1;
	}
	(void)map[poison * page_size];
	/* The pipe holds a reference to the folio: memory failure cannot split it. */
	iov.iov_base = (void *)(map + poison * page_size);
	iov.iov_len = page_size;
	if (pipe(pipefd) || vmsplice(pipefd[1], &iov, 1, 0) != page_size) {
		perror("vmhelper: vmsplice");
		return 1;
	}
	if (inject_poison(map + poison * page_size))
		return 1;
	flags = page_flags(map + poison * page_size);
	printf("large=%d poisoned=%d", in_large_folio(flags),
	       !!(flags & (1ULL << KPF_HWPOISON)));
	close(pipefd[0]);
	close(pipefd[1]);
	munmap((void *)map, st.st_size);

	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("vmhelper: mmap");
		return 1;
	}
	(void)map[touch * page_size];
	mapped = pagemap_entry(map + poison * page_size) & PAGEMAP_PRESENT;
	printf(" mapped=%d access=%s\n", mapped,
	       read_outcome(map + poison * page_size));
	munmap((void *)map, st.st_size);
	close(fd);
	return 0;
}
