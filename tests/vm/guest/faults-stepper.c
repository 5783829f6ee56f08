// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * faults-stepper: the functions of bigprog (tests/vm/gen-bigprog.py, several
 * MB of text), executed a part at a time, so that a test can make a running
 * program fault in text it has never touched at a moment of its choosing
 * (while page allocations are being made to fail, say).
 *
 *   faults-stepper PARTS GAP
 *
 * The functions are sorted by address and cut into PARTS parts with GAP
 * functions left out between two parts, so that the read-around of one
 * part's faults does not bring in the next part's text.  The program runs
 * part 1, prints "part 1 CHECKSUM" and waits for SIGUSR1 before each next
 * part; after the last it prints "done" and waits for a signal to end.  The
 * checksums depend only on the code executed: a copy run from elsewhere
 * must print the same ones.
 */
#define main bigprog_main
#include "bigprog.c"
#undef main

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NR_STEPS (sizeof(steps) / sizeof(steps[0]))

static int by_address(const void *a, const void *b)
{
	const step_fn *fa = a, *fb = b;
	uintptr_t x = (uintptr_t)*fa, y = (uintptr_t)*fb;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static step_fn sorted[NR_STEPS];
	unsigned long parts, gap, per_part, part, i, x;
	sigset_t usr1;
	int sig;

	if (argc != 3) {
		fprintf(stderr, "usage: faults-stepper PARTS GAP\n");
		return 2;
	}
	parts = strtoul(argv[1], NULL, 10);
	gap = strtoul(argv[2], NULL, 10);
	if (!parts || gap * (parts - 1) >= NR_STEPS) {
		fprintf(stderr,
			"faults-stepper: %lu parts with gaps of %lu do not fit in %zu functions\n",
			parts, gap, NR_STEPS);
		return 2;
	}
	per_part = (NR_STEPS - gap * (parts - 1)) / parts;

	memcpy(sorted, steps, sizeof(sorted));
	qsort(sorted, NR_STEPS, sizeof(sorted[0]), by_address);

	/* SIGUSR1 is taken with sigwait(), never delivered. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);

	for (part = 0; part < parts; part++) {
		if (part && sigwait(&usr1, &sig))
			return 1;
		x = 1;
		for (i = 0; i < per_part; i++)
			x = sorted[part * (per_part + gap) + i](x);
		printf("part %lu %lx\n", part + 1, x);
		fflush(stdout);
	}
	printf("done\n");
	fflush(stdout);
	pause();
	return 0;
}
