/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bit arithmetic the library's page and folio orders are made of, and the
 * programs that print them share.
 */
#ifndef EXECFOLIO_BITOPS_H
#define EXECFOLIO_BITOPS_H

#include <stdint.h>

/* floor(log2(@x)), the kernel's ilog2(); @x must not be 0. */
static inline unsigned int execfolio_ilog2(uint64_t x)
{
	return 63 - __builtin_clzll(x);
}

#endif /* EXECFOLIO_BITOPS_H */
