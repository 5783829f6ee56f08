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
 * and reads the page again, or fails the fault with SIGBUS when it cannot
 * drop it, instead of consuming the poison.  The caller makes such faults reach finish_fault() by setting
 * fault_around_bytes to one page.
 *
 * Memory failure signals the task that injected the poison (and, with
 * vm.memory_failure_early_kill set, every task mapping the page, which
 * the default leaves alone): a child injects it, the parent keeps the
 * mapping and the pin.
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

/* The test file is tagged 64k: 16 pages of 4K, physically aligned. */
#define HWPOISON_PAGE_SIZE 4096
#define FOLIO_PAGES 16

static sigjmp_buf sigbus_jump;

/*
 * Poison the page at @page from a child process, which memory failure
 * kills with SIGBUS when it cannot split the folio.  Returns 0 when the
 * child died that way.
 */
static int inject_poison(volatile char *page)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("vmhelper: fork");
		return -1;
	}
	if (pid == 0) {
		if (madvise((void *)page, HWPOISON_PAGE_SIZE, MADV_HWPOISON) &&
		    errno != EHWPOISON) {
			fprintf(stderr,
				"vmhelper: madvise(MADV_HWPOISON): %s\n",
				strerror(errno));
			_exit(3);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("vmhelper: waitpid");
		return -1;
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS)
		return 0;
	fprintf(stderr,
		"vmhelper: the task that poisoned the page was not killed by SIGBUS (wait status %#x)\n",
		status);
	return -1;
}

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(sigbus_jump, 1);
}

/*
 * Read the page at @page and say what the read got: "sigbus" when the
 * fault failed, "poisoned" when it read @poisoned_pfn itself (what
 * consumes the poison on real hardware), "fresh" when another page was
 * mapped there: the kernel dropped the clean folio and read it again.
 */
static const char *read_outcome(volatile char *page, uint64_t poisoned_pfn)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	const char *outcome;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(sigbus_jump, 1)) {
		outcome = "sigbus";
	} else {
		(void)*page;
		outcome = vmhelper_mapped_pfn(page) == poisoned_pfn ?
				  "poisoned" :
				  "fresh";
	}
	sigaction(SIGBUS, &old, NULL);
	return outcome;
}

/* How many pages of the folio-sized block at @block are mapped. */
static int mapped_pages(const volatile char *block)
{
	int i, n = 0;

	for (i = 0; i < FOLIO_PAGES; i++)
		n += !!vmhelper_mapped_pfn(block + i * HWPOISON_PAGE_SIZE);
	return n;
}

/* @len bytes of @fd mapped shared and read-only, or NULL (reported). */
static volatile char *map_file(int fd, size_t len)
{
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

	if (map == MAP_FAILED) {
		perror("vmhelper: mmap");
		return NULL;
	}
	return map;
}

static int parse_page(const char *arg, size_t *page)
{
	char *end;

	errno = 0;
	*page = strtoul(arg, &end, 10);
	if (errno || end == arg || *end) {
		fprintf(stderr, "vmhelper: '%s' is not a page number\n", arg);
		return -1;
	}
	return 0;
}

/*
 * Poison page @poison_arg of PATH while its folio is pinned, then map PATH
 * afresh, read page @touch_arg of the same folio and report
 * "large=L samefolio=S poisoned=P kept=K mapped=M access=A": whether the
 * poisoned page was in a large folio after memory failure, together with
 * the touched page, and poisoned; whether the second fault found that
 * folio still cached; how many of the folio's pages that fault mapped
 * (1 when only the touched page; FOLIO_PAGES when the whole folio); and
 * what reading the poisoned page then got (read_outcome()).
 */
int cmd_hwpoison(char **args)
{
	const char *path = args[0], *poison_arg = args[1], *touch_arg = args[2];
	volatile char *map = NULL, *poison_page, *touch_page;
	uint64_t poison_pfn, touch_pfn;
	int pipefd[2] = { -1, -1 };
	size_t poison, touch, len = 0;
	struct iovec iov;
	struct stat st;
	int fd, ret = 1;

	if (sysconf(_SC_PAGESIZE) != HWPOISON_PAGE_SIZE) {
		fprintf(stderr, "vmhelper: hwpoison is written for 4K pages\n");
		return 2;
	}
	if (parse_page(poison_arg, &poison) || parse_page(touch_arg, &touch))
		return 2;
	if (poison == touch || poison / FOLIO_PAGES != touch / FOLIO_PAGES) {
		fprintf(stderr,
			"vmhelper: pages %zu and %zu must be two pages of one 64K block\n",
			poison, touch);
		return 2;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "vmhelper: %s: %s\n", path, strerror(errno));
		goto out;
	}
	len = st.st_size;
	if ((poison / FOLIO_PAGES + 1) * FOLIO_PAGES * HWPOISON_PAGE_SIZE >
	    len) {
		fprintf(stderr,
			"vmhelper: %s: its block of pages %zu and %zu is past EOF\n",
			path, poison, touch);
		goto out;
	}

	map = map_file(fd, len);
	if (!map)
		goto out;
	poison_page = map + poison * HWPOISON_PAGE_SIZE;
	touch_page = map + touch * HWPOISON_PAGE_SIZE;
	(void)*poison_page;
	(void)*touch_page;
	poison_pfn = vmhelper_mapped_pfn(poison_page);
	touch_pfn = vmhelper_mapped_pfn(touch_page);
	/* The pipe holds a reference to the folio: memory failure cannot split it. */
	iov.iov_base = (void *)poison_page;
	iov.iov_len = HWPOISON_PAGE_SIZE;
	if (pipe(pipefd)) {
		perror("vmhelper: pipe");
		goto out;
	}
	if (vmsplice(pipefd[1], &iov, 1, 0) != HWPOISON_PAGE_SIZE) {
		fprintf(stderr, "vmhelper: vmsplice did not take the page\n");
		goto out;
	}
	if (inject_poison(poison_page))
		goto out;
	printf("large=%d samefolio=%d poisoned=%d",
	       vmhelper_pfn_in_large_folio(poison_pfn) &&
		       vmhelper_pfn_in_large_folio(touch_pfn),
	       poison_pfn &&
		       poison_pfn / FOLIO_PAGES == touch_pfn / FOLIO_PAGES &&
		       poison_pfn - touch_pfn == poison - touch,
	       !!(vmhelper_pfn_flags(poison_pfn) & (1ULL << KPF_HWPOISON)));
	close(pipefd[0]);
	close(pipefd[1]);
	pipefd[0] = pipefd[1] = -1;
	munmap((void *)map, len);
	map = map_file(fd, len);
	if (!map)
		goto out;
	poison_page = map + poison * HWPOISON_PAGE_SIZE;
	touch_page = map + touch * HWPOISON_PAGE_SIZE;
	(void)*touch_page;
	printf(" kept=%d mapped=%d",
	       vmhelper_mapped_pfn(touch_page) == touch_pfn,
	       mapped_pages(map + touch / FOLIO_PAGES * FOLIO_PAGES *
					  HWPOISON_PAGE_SIZE));
	printf(" access=%s\n", read_outcome(poison_page, poison_pfn));
	ret = 0;
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (map)
		munmap((void *)map, len);
	if (fd >= 0)
		close(fd);
	return ret;
}
