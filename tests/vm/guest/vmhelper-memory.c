// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmhelper hog and vmhelper fragment: memory pressure and real
 * fragmentation for the vm-faults tier (guest/faults-inject.sh), without
 * fault injection.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmhelper.h"

/* Touch every page so the memory is really allocated, then hold it. */
int cmd_hog(char **args)
{
	size_t size = strtoul(args[0], NULL, 10) << 20;
	char *mem = malloc(size);
	size_t i;

	if (!mem) {
		perror("vmhelper: hog");
		return 1;
	}
	for (i = 0; i < size; i += 4096)
		mem[i] = 1;
	printf("hog ready %zu\n", size);
	fflush(stdout);
	pause();
	return 0;
}

/* The sum of the zones' low watermarks, in pages (/proc/zoneinfo). */
static long zone_low_pages(void)
{
	char line[256];
	long sum = 0, pages;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " low %ld", &pages) == 1)
			sum += pages;
	fclose(f);
	return sum;
}

/* MemFree of /proc/meminfo, in pages. */
static long free_pages(long page_size)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib < 0 ? -1 : kib * 1024 / page_size;
}

#define FRAGMENT_MAX_CHUNKS 256
/* Physical blocks known to hold a kept page: 2^20 blocks, 64 GiB of 64K. */
#define FRAGMENT_MAX_BLOCKS (1UL << 20)
#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_PFN_MASK ((1ULL << 55) - 1)

static unsigned char kept_blocks[FRAGMENT_MAX_BLOCKS / 8];

/*
 * Keep the page at PFN if its block has no kept page yet.  A block beyond
 * the bitmap keeps every page: freeing nothing there cannot help a large
 * allocation.
 */
static bool keep_page(uint64_t pfn, unsigned int block_shift)
{
	uint64_t block = pfn >> block_shift;

	if (block >= FRAGMENT_MAX_BLOCKS)
		return true;
	if (kept_blocks[block / 8] & (1 << (block % 8)))
		return false;
	kept_blocks[block / 8] |= 1 << (block % 8);
	return true;
}

/*
 * Free all pages of [addr, addr + len) but one per physical block, by
 * munmap() of each run of pages to free (MADV_DONTNEED refuses locked
 * ranges).  Returns the number of pages freed, or -1.
 */
static long fragment_chunk(int pagemap, char *addr, size_t len, long page_size,
			   unsigned int block_shift)
{
	static uint64_t entries[512];
	size_t pages = len / page_size, i, j, n, run = 0;
	long freed = 0;
	bool free_it;

	for (i = 0; i < pages; i += n) {
		n = pages - i < 512 ? pages - i : 512;
		if (pread(pagemap, entries, n * 8,
			  (uintptr_t)(addr + i * page_size) / page_size * 8) !=
		    (ssize_t)(n * 8))
			return -1;
		for (j = 0; j < n; j++) {
			if ((entries[j] & PAGEMAP_PRESENT) &&
			    !(entries[j] & PAGEMAP_PFN_MASK)) {
				errno = EPERM; /* PFNs hidden: not root */
				return -1;
			}
			free_it = !(entries[j] & PAGEMAP_PRESENT) ||
				  !keep_page(entries[j] & PAGEMAP_PFN_MASK,
					     block_shift);
			if (free_it) {
				run++;
				continue;
			}
			if (run && munmap(addr + (i + j - run) * page_size,
					  run * page_size))
				return -1;
			freed += run;
			run = 0;
		}
	}
	if (run && munmap(addr + (pages - run) * page_size, run * page_size))
		return -1;
	return freed + run;
}

/*
 * Pages free in blocks of 2^MIN_ORDER pages or more, in all zones
 * (/proc/buddyinfo: "Node 0, zone DMA32 <count of order 0> ...").
 */
static long buddy_free_pages(unsigned int min_order)
{
	char line[512], *p;
	unsigned int order;
	long sum = 0, count;
	int used;
	FILE *f = fopen("/proc/buddyinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "zone");
		if (!p)
			continue;
		used = 0;
		sscanf(p, "zone %*s%n", &used);
		if (!used)
			continue;
		p += used;
		for (order = 0; sscanf(p, " %ld%n", &count, &used) == 1;
		     order++, p += used)
			if (order >= min_order)
				sum += count << order;
	}
	fclose(f);
	return sum;
}

/* Kept free above the low watermarks while taking memory in 4K pages. */
#define FRAGMENT_MARGIN (32L << 20)
/* Taken at most per step in large blocks. */
#define FRAGMENT_BLOCK_STEP (8L << 20)

struct fragment_stats {
	long held; /* pages taken in 4K pages */
	long freed; /* of those, freed again */
	long left; /* pages free once they were taken */
	long blocks; /* pages taken in large blocks */
	unsigned int steps;
};

/*
 * Take what is free down to FRAGMENT_MARGIN above the low watermarks in
 * mlocked 4K pages (MADV_NOHUGEPAGE), then free all but one page of every
 * physically aligned block of 2^BLOCK_SHIFT pages.  The margin is wide:
 * the rest of the system allocates meanwhile, and MemFree counts pages
 * that the allocation cannot have (a DMA zone behind its reserve), so a
 * narrow one ends in the OOM killer.
 */
static int fragment_small(unsigned int block_shift, long page_size,
			  struct fragment_stats *st)
{
	static struct {
		char *addr;
		size_t len;
	} chunks[FRAGMENT_MAX_CHUNKS];
	long low = zone_low_pages(), avail, freed;
	unsigned int nr = 0, c, settle = 0;
	int pagemap;
	size_t len;
	char *p;

	if (low < 0) {
		perror("vmhelper: fragment: /proc/zoneinfo");
		return 1;
	}
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0) {
		perror("vmhelper: fragment: /proc/self/pagemap");
		return 1;
	}
	/*
	 * Halve the distance to the floor at each step; near it, give
	 * reclaim a moment and take what it freed too.
	 */
	while (nr < FRAGMENT_MAX_CHUNKS) {
		avail = free_pages(page_size) - low -
			FRAGMENT_MARGIN / page_size;
		if (avail < 64 && settle++ < 5) {
			usleep(200000);
			continue;
		}
		if (avail < 64)
			break;
		len = (avail > 512 ? avail / 2 : avail) * page_size;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		if (madvise(p, len, MADV_NOHUGEPAGE) || mlock(p, len)) {
			munmap(p, len);
			break;
		}
		chunks[nr].addr = p;
		chunks[nr++].len = len;
		st->held += len / page_size;
	}
	st->steps = nr;
	st->left = free_pages(page_size);
	for (c = 0; c < nr; c++) {
		freed = fragment_chunk(pagemap, chunks[c].addr, chunks[c].len,
				       page_size, block_shift);
		if (freed < 0) {
			perror("vmhelper: fragment: /proc/self/pagemap");
			close(pagemap);
			return 1;
		}
		st->freed += freed;
	}
	close(pagemap);
	return 0;
}

/*
 * What fragment_small() left free is mostly in large blocks (4K
 * allocations take the smallest free blocks first).  Take those with
 * block-sized anonymous folios, mlocked (the caller enables that folio
 * size): a fault takes a whole free block if there is one, else falls
 * back to a 4K page from the holes, of which there are plenty now, so
 * nothing runs short.  Stop when no block is left, or when three steps
 * in a row no longer shrink what is free in blocks: what is left, the
 * allocation cannot reach (a DMA zone behind its reserve), and neither
 * can the page cache.
 */
static void fragment_take_blocks(unsigned int block_shift, long page_size,
				 struct fragment_stats *st)
{
	size_t block = (size_t)page_size << block_shift, len;
	long before, after, step;
	unsigned int idle = 0;
	char *p, *aligned;

	while (idle < 3) {
		before = buddy_free_pages(block_shift);
		if (before < (1L << block_shift))
			break;
		step = before < FRAGMENT_BLOCK_STEP / page_size ?
			       before :
			       FRAGMENT_BLOCK_STEP / page_size;
		len = (size_t)(step >> block_shift) * block;
		p = mmap(NULL, len + block, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		aligned = (char *)(((uintptr_t)p + block - 1) & ~(block - 1));
		if (mlock(aligned, len)) {
			munmap(p, len + block);
			break;
		}
		st->blocks += len / page_size;
		after = buddy_free_pages(block_shift);
		if (before - after < (long)(len / page_size / 2))
			idle++;
		else
			idle = 0;
	}
}

/*
 * Real fragmentation, no fault injection: free memory plentiful but in
 * pieces smaller than KIB.  With vm.compact_unevictable_allowed=0,
 * compaction cannot move the locked pages to make a KIB block free again.
 * The caller lowers vm.min_free_kbytes while this runs (the watermark
 * reserve would stay free in large blocks) and enables anonymous folios
 * of KIB (fragment_take_blocks()).
 */
int cmd_fragment(char **args)
{
	const char *kib = args[0];
	long page_size = sysconf(_SC_PAGESIZE);
	unsigned long block = strtoul(kib, NULL, 10) * 1024;
	struct fragment_stats st = { 0 };
	unsigned int block_shift = 0;
	long k = page_size / 1024;
	int ret;

	while (((unsigned long)page_size << block_shift) < block)
		block_shift++;
	if (((unsigned long)page_size << block_shift) != block ||
	    !block_shift) {
		fprintf(stderr,
			"vmhelper: fragment: %s KiB is not a power-of-two multiple of the page size\n",
			kib);
		return 2;
	}
	ret = fragment_small(block_shift, page_size, &st);
	if (ret)
		return ret;
	fragment_take_blocks(block_shift, page_size, &st);
	printf("fragment ready took %ld KiB in %u steps (%ld KiB left free), keeps %ld KiB, freed %ld KiB, then took %ld KiB in %s KiB blocks (%ld KiB free in such blocks, %ld KiB free)\n",
	       st.held * k, st.steps, st.left * k, (st.held - st.freed) * k,
	       st.freed * k, st.blocks * k, kib,
	       buddy_free_pages(block_shift) * k, free_pages(page_size) * k);
	fflush(stdout);
	pause();
	return 0;
}
