// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A guest program for the iTLB instrument: 4MB of text, 1024 pages each
 * fetched once per pass (a branch at the start of each page to the
 * next), run PASSES times (default 100).  As /init (pid 1) it powers the
 * machine off when done.  With 4KB page-cache folios an L1 iTLB of fewer
 * than 1024 entries misses once per page and pass; with 64KB contpte
 * mappings once per 16 pages; with 2MB PMD mappings not at all once
 * warm (tests/tools/itlb/README).  It prints its pid, which the plugin's
 * report shows for its address space where the kernel writes it to
 * CONTEXTIDR_EL1.
 *
 *   itlb-page-chain [PASSES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/reboot.h>
#include <unistd.h>

#define CHAIN_PAGES 1024

/* page_chain(): 1023 pages that branch to the next, then a return. */
#if defined(__aarch64__)
__asm__(".section .text.page_chain,\"ax\",%progbits\n"
	".balign 4096\n"
	".globl page_chain\n"
	"page_chain:\n"
	".rept 1023\n"
	"b 1f\n"
	".balign 4096\n"
	"1:\n"
	".endr\n"
	"ret\n"
	".text\n");
#elif defined(__x86_64__)
__asm__(".section .text.page_chain,\"ax\",@progbits\n"
	".balign 4096\n"
	".globl page_chain\n"
	"page_chain:\n"
	".rept 1023\n"
	"jmp 1f\n"
	".balign 4096, 0xcc\n"
	"1:\n"
	".endr\n"
	"ret\n"
	".text\n");
#else
#error "page-chain: aarch64 or x86_64 only"
#endif

void page_chain(void);

int main(int argc, char **argv)
{
	long passes = argc > 1 ? strtol(argv[1], NULL, 0) : 100;
	long i;

	if (passes <= 0) {
		fprintf(stderr, "itlb-page-chain: PASSES must be a positive "
				"number\n");
		return 2;
	}
	for (i = 0; i < passes; i++)
		page_chain();
	printf("itlb-page-chain: pid %d: %ld passes over %d pages\n",
	       (int)getpid(), passes, CHAIN_PAGES);
	fflush(stdout);
	if (getpid() == 1) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}
