/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BENCH_MONOTONIC_H
#define BENCH_MONOTONIC_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds: the guest helper's one clock. */
static inline uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
