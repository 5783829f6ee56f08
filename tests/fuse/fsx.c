// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsx FILE OPS SEED: random write, read, truncate, hole punch, fallocate
 * and mmap read/write on FILE, each checked against an in-memory model of
 * the contents (after the fsx of the xfstests suite). Prints the number of
 * operations and mismatches; exit 0 only with none.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXLEN (1 << 20)
#define MAXOP (64 << 10)

static unsigned char model[MAXLEN], buf[MAXLEN];
static size_t size;
static long page;
static unsigned long mismatches;
static unsigned long long rng;

static unsigned long rnd(unsigned long n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return n ? (unsigned long)(rng >> 33) % n : 0;
}

static void mismatch(unsigned long op, const char *what, size_t off)
{
	if (mismatches++ < 10)
		printf("# op %lu: %s differs at offset %zu\n", op, what, off);
}

static void compare(unsigned long op, const char *what,
		    const unsigned char *got, size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (got[i] != model[off + i]) {
			mismatch(op, what, off + i);
			return;
		}
	}
}

static int fail(unsigned long op, const char *what)
{
	printf("# op %lu: %s: %s\n", op, what, strerror(errno));
	return 1;
}

static int check_all(int fd, unsigned long op)
{
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st))
		return fail(op, "fstat");
	if ((size_t)st.st_size != size) {
		printf("# op %lu: size %lld, model %zu\n", op,
		       (long long)st.st_size, size);
		mismatches++;
	}
	n = pread(fd, buf, MAXLEN, 0);
	if (n < 0)
		return fail(op, "pread");
	if ((size_t)n != size)
		mismatch(op, "length of a full read", n);
	compare(op, "full read", buf, 0, (size_t)n < size ? (size_t)n : size);
	return 0;
}

static int one_op(int fd, unsigned long op)
{
	size_t off = rnd(MAXLEN), len = 1 + rnd(MAXOP), i, moff;
	unsigned char *map;
	ssize_t n;

	if (off + len > MAXLEN)
		len = MAXLEN - off;
	switch (rnd(8)) {
	case 0:
	case 1: /* write */
		for (i = 0; i < len; i++)
			buf[i] = (unsigned char)rnd(256);
		if (pwrite(fd, buf, len, off) != (ssize_t)len)
			return fail(op, "pwrite");
		memcpy(model + off, buf, len);
		if (off > size)
			memset(model + size, 0, off - size);
		if (off + len > size)
			size = off + len;
		break;
	case 2: /* read */
		n = pread(fd, buf, len, off);
		if (n < 0)
			return fail(op, "pread");
		if ((size_t)n !=
		    (off >= size ? 0 : (off + len > size ? size - off : len)))
			mismatch(op, "read length", off);
		compare(op, "read", buf, off, n);
		break;
	case 3: /* truncate */
		if (ftruncate(fd, off))
			return fail(op, "ftruncate");
		if (off > size)
			memset(model + size, 0, off - size);
		size = off;
		break;
	case 4: /* punch a hole */
		if (off >= size)
			break;
		if (off + len > size)
			len = size - off;
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      off, len))
			return fail(op, "punch hole");
		memset(model + off, 0, len);
		break;
	case 5: /* fallocate, may extend */
		if (fallocate(fd, 0, off, len))
			return fail(op, "fallocate");
		if (off + len > size) {
			if (off > size)
				memset(model + size, 0, off - size);
			memset(model + (off > size ? off : size), 0,
			       off + len - (off > size ? off : size));
			size = off + len;
		}
		break;
	case 6: /* mmap write */
	case 7: /* mmap read */
		if (off >= size)
			break;
		if (off + len > size)
			len = size - off;
		moff = off & ~(size_t)(page - 1);
		map = mmap(NULL, len + off - moff, PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, moff);
		if (map == MAP_FAILED)
			return fail(op, "mmap");
		if (rnd(2)) {
			for (i = 0; i < len; i++)
				model[off + i] = map[off - moff + i] =
					(unsigned char)rnd(256);
			if (msync(map, len + off - moff, MS_SYNC))
				return fail(op, "msync");
		} else {
			compare(op, "mmap read", map + off - moff, off, len);
		}
		munmap(map, len + off - moff);
		break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long ops, op;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: fsx FILE OPS SEED\n");
		return 2;
	}
	ops = strtoul(argv[2], NULL, 0);
	rng = strtoull(argv[3], NULL, 0);
	page = sysconf(_SC_PAGESIZE);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (op = 1; op <= ops; op++) {
		if (one_op(fd, op))
			return 1;
		if (!(op % 100) && check_all(fd, op))
			return 1;
	}
	if (check_all(fd, op))
		return 1;
	close(fd);
	/* A fresh open sees the same. */
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || check_all(fd, op))
		return 1;
	close(fd);
	printf("# fsx: %lu operations, %lu mismatches\n", ops, mismatches);
	return mismatches ? 1 : 0;
}
