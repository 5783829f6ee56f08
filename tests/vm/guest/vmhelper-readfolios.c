// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmhelper readfolios: the folios one read(2) of a file range leaves in
 * the page cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/kernel-page-flags.h>

#include "vmhelper.h"

#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_PFN_MASK ((1ULL << 55) - 1)

static uint64_t read_u64(int fd, uint64_t index)
{
	uint64_t v = 0;

	if (pread(fd, &v, sizeof(v), index * sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

/*
 * Of the @len bytes mapped at @map: how many pages are cached
 * (@cached, by mincore(), before anything is touched), and, touching
 * those, how many are in folios of a single page (@small).
 */
static int count_folios(volatile char *map, size_t len, size_t page,
			size_t *cached, size_t *small)
{
	const uint64_t compound = (1ULL << KPF_COMPOUND_HEAD) |
				  (1ULL << KPF_COMPOUND_TAIL);
	unsigned char *vec = malloc(len / page);
	int pagemap = open("/proc/self/pagemap", O_RDONLY);
	int kpageflags = open("/proc/kpageflags", O_RDONLY);
	int ret = -1;

	if (!vec || pagemap < 0 || kpageflags < 0 ||
	    mincore((void *)map, len, vec)) {
		perror("vmhelper: mincore, pagemap or kpageflags");
		goto out;
	}
	*cached = *small = 0;
	for (size_t i = 0; i < len / page; i++) {
		uint64_t entry;

		if (!(vec[i] & 1))
			continue;
		(*cached)++;
		(void)map[i * page];
		entry = read_u64(pagemap, (uintptr_t)(map + i * page) / page);
		if ((entry & PAGEMAP_PRESENT) &&
		    !(read_u64(kpageflags, entry & PAGEMAP_PFN_MASK) &
		      compound))
			(*small)++;
	}
	ret = 0;
out:
	free(vec);
	if (pagemap >= 0)
		close(pagemap);
	if (kpageflags >= 0)
		close(kpageflags);
	return ret;
}

/*
 * One pread() of LEN bytes at OFFSET of PATH, then "cached=N small=M":
 * the bytes of that range in the page cache, and how many of them are in
 * single-page folios.  OFFSET and LEN must be page aligned.
 */
int cmd_readfolios(const char *path, const char *offset_arg,
		   const char *len_arg)
{
	size_t page = sysconf(_SC_PAGESIZE), cached, small;
	char *end1, *end2, *buf;
	unsigned long long offset = strtoull(offset_arg, &end1, 0);
	unsigned long long len = strtoull(len_arg, &end2, 0);
	void *map;
	int fd;

	if (*end1 || *end2 || !len || offset % page || len % page) {
		fprintf(stderr,
			"vmhelper: readfolios: '%s' and '%s' must be page-aligned byte counts, the length not 0\n",
			offset_arg, len_arg);
		return 2;
	}
	fd = open(path, O_RDONLY);
	buf = malloc(len);
	if (fd < 0 || !buf) {
		fprintf(stderr, "vmhelper: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (pread(fd, buf, len, offset) != (ssize_t)len) {
		fprintf(stderr, "vmhelper: %s: short read at %llu\n", path,
			offset);
		return 1;
	}
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, offset);
	if (map == MAP_FAILED) {
		perror("vmhelper: mmap");
		return 1;
	}
	if (count_folios(map, len, page, &cached, &small))
		return 1;
	printf("cached=%zu small=%zu\n", cached * page, small * page);
	return 0;
}
