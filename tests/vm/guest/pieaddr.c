// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pieaddr: print the address this program was loaded at (that of its ELF
 * header), for piebias.sh.  Built as a static position-independent
 * program, whose text is larger than 64K and smaller than 2M.
 */
#include <stdio.h>

/* Defined by the linker at the start of the loaded image. */
extern const char __ehdr_start[];

int main(void)
{
	printf("%p\n", (const void *)__ehdr_start);
	return 0;
}
