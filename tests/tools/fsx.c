// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsx: random file operations checked against an in-memory model of the
 * file, after the fsx of xfstests, for files cached in large folios.
 *
 *   fsx [-s SEED] [-n OPS] [-l MAXSIZE] [-c CHECK_EVERY] [-x OP]...
 *       [--self-check-corrupt] FILE
 *
 * Operations: buffered read and write, write beyond EOF, truncate up and
 * down, hole punch, zero range, allocation (which may extend the file),
 * fsync, mmap read and write (MAP_SHARED, msync), O_DIRECT read and write
 * (aligned to the file system block size), and fsync +
 * POSIX_FADV_DONTNEED to drop the cached folios.  Offsets and lengths are
 * drawn so that operations straddle 4K, 64K and 2M boundaries and EOF.
 * Every CHECK_EVERY operations (and at the end) the whole file is compared
 * with the model by read() and by mmap; at the end, through a fresh open
 * too.
 *
 * One program for the in-guest tests on XFS (tests/vm/guest/robust-fsx.sh,
 * built static by tests/vm/vm.mk) and for execfoliofs on the host
 * (tests/integration/fuse-stress.sh, fuse/fuse.mk).
 *
 * Every output line starts with "# " so that it can be embedded in TAP.
 * The seed is printed; -s SEED with the same other options replays the
 * run.  -x OP (read, write, extend, truncate, punch, zero, allocate,
 * fsync, mapread, mapwrite, dioread, diowrite, drop) leaves an operation
 * out.  With --self-check-corrupt the model is deliberately corrupted
 * before a full check half way through, which must then report the
 * mismatch.
 *
 * Exit status: 0 no mismatch; 1 mismatch (the tail of the operation log
 * and the first differing offset are printed); 2 usage; 3 a system call
 * failed; 4 the self-check corruption was not detected.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define SZ_4K (4096UL)
#define SZ_64K (65536UL)
#define SZ_2M (2097152UL)

#define EXIT_MISMATCH 1
#define EXIT_USAGE 2
#define EXIT_SYSCALL 3
#define EXIT_UNDETECTED 4

/* How many operations the log keeps for a mismatch report. */
#define LOG_SIZE 32

enum op {
	OP_READ,
	OP_WRITE,
	OP_EXTEND,
	OP_TRUNCATE,
	OP_PUNCH,
	OP_ZERO,
	OP_ALLOCATE,
	OP_FSYNC,
	OP_MAPREAD,
	OP_MAPWRITE,
	OP_DIOREAD,
	OP_DIOWRITE,
	OP_DROP,
	NR_OPS,
};

static const char *const op_names[NR_OPS] = {
	"read",	   "write",    "extend", "truncate", "punch",
	"zero",	   "allocate", "fsync",	 "mapread",  "mapwrite",
	"dioread", "diowrite", "drop",
};

/* Relative frequencies; data-moving operations dominate. */
static const unsigned int op_weights[NR_OPS] = {
	[OP_READ] = 12,	    [OP_WRITE] = 16,  [OP_EXTEND] = 4,
	[OP_TRUNCATE] = 6,  [OP_PUNCH] = 6,   [OP_ZERO] = 6,
	[OP_ALLOCATE] = 4,  [OP_FSYNC] = 2,   [OP_MAPREAD] = 10,
	[OP_MAPWRITE] = 10, [OP_DIOREAD] = 6, [OP_DIOWRITE] = 6,
	[OP_DROP] = 2,
};

struct log_entry {
	unsigned long nr;
	enum op op;
	uint64_t off, len;
	uint64_t size_before, size_after;
	const char *note;
};

struct fsx {
	const char *path;
	int fd;
	int dio_fd;
	unsigned char *model; /* max_size bytes, zero beyond size */
	unsigned char *buf; /* scratch, block aligned */
	uint64_t size;
	uint64_t max_size;
	uint64_t blksz;
	long page_size;
	uint64_t rng;
	unsigned long nr; /* the operation being run, from 1 */
	unsigned long counts[NR_OPS];
	unsigned long checks;
	bool enabled[NR_OPS];
	struct log_entry log[LOG_SIZE];
	bool corrupt; /* --self-check-corrupt */
	bool corrupted;
};

static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("# fsx: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* xorshift64*: small, fast and the same on every architecture. */
static uint64_t rnd(struct fsx *f)
{
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 2685821657736338717ULL;
}

/* Uniform in [0, n); 0 when n is 0. */
static uint64_t below(struct fsx *f, uint64_t n)
{
	return n ? rnd(f) % n : 0;
}

static void log_op(struct fsx *f, enum op op, uint64_t off, uint64_t len,
		   uint64_t size_before, const char *note)
{
	struct log_entry *e = &f->log[f->nr % LOG_SIZE];

	e->nr = f->nr;
	e->op = op;
	e->off = off;
	e->len = len;
	e->size_before = size_before;
	e->size_after = f->size;
	e->note = note;
	f->counts[op]++;
}

static void print_log(struct fsx *f)
{
	unsigned long first = f->nr >= LOG_SIZE ? f->nr - LOG_SIZE + 1 : 1;

	say("the last operations (nr op offset+length size: before -> after):");
	for (unsigned long i = first; i <= f->nr; i++) {
		struct log_entry *e = &f->log[i % LOG_SIZE];

		if (e->nr != i)
			continue;
		say("  %lu %s 0x%" PRIx64 "+0x%" PRIx64 " size 0x%" PRIx64
		    " -> 0x%" PRIx64 "%s%s",
		    e->nr, op_names[e->op], e->off, e->len, e->size_before,
		    e->size_after, e->note ? " " : "", e->note ? e->note : "");
	}
}

static void print_bytes(const char *what, const unsigned char *p, uint64_t off,
			uint64_t n)
{
	char line[3 * 16 + 1];

	for (uint64_t i = 0; i < n && i < 16; i++)
		sprintf(line + 3 * i, " %02x", p[i]);
	say("  %s at 0x%" PRIx64 ":%s", what, off, line);
}

/*
 * Compare @len bytes the file returned for [@off, @off + @len) with the
 * model; on a difference report it and exit.
 */
static void compare(struct fsx *f, const unsigned char *got, uint64_t off,
		    uint64_t len, const char *how)
{
	const unsigned char *want = f->model + off;
	uint64_t i, end;

	if (!memcmp(got, want, len))
		return;
	for (i = 0; got[i] == want[i]; i++)
		;
	for (end = i; end < len && got[end] != want[end]; end++)
		;
	say("MISMATCH after operation %lu (%s of 0x%" PRIx64 "+0x%" PRIx64
	    "): first difference at offset 0x%" PRIx64 " (%" PRIu64
	    "), file size 0x%" PRIx64,
	    f->nr, how, off, len, off + i, off + i, f->size);
	say("  %" PRIu64 " differing bytes from there", end - i);
	print_bytes("expected", want + i, off + i, len - i);
	print_bytes("got     ", got + i, off + i, len - i);
	print_log(f);
	say("replay: fsx -s SEED as printed above, same options");
	exit(EXIT_MISMATCH);
}

static void die(struct fsx *f, const char *what)
{
	say("%s of %s failed after operation %lu: %s", what, f->path, f->nr,
	    strerror(errno));
	print_log(f);
	exit(EXIT_SYSCALL);
}

/*
 * The data an operation writes: byte i of the file gets
 * 1 + (i + 17 * operation number) % 255, non-zero (unlike a hole) and
 * different from what other operations wrote there.  The pattern repeats
 * every 255 bytes: copy it from a table (a division per byte is slow under
 * emulation).
 */
#define PATTERN_CHUNK (255 * 256)
static unsigned char pattern[PATTERN_CHUNK + 255];

static void init_pattern(void)
{
	for (size_t i = 0; i < sizeof(pattern); i++)
		pattern[i] = 1 + i % 255;
}

static void fill(struct fsx *f, unsigned char *p, uint64_t off, uint64_t len)
{
	const unsigned char *from = pattern + (off + f->nr * 17) % 255;

	while (len) {
		uint64_t n = len < PATTERN_CHUNK ? len : PATTERN_CHUNK;

		memcpy(p, from, n);
		p += n;
		len -= n;
	}
}

static void set_size(struct fsx *f, uint64_t size)
{
	if (size < f->size)
		memset(f->model + size, 0, f->size - size);
	f->size = size;
}

/* A length: mostly small, sometimes up to @max. */
static uint64_t pick_len(struct fsx *f, uint64_t max)
{
	uint64_t r = below(f, 100), len;

	if (r < 50)
		len = 1 + below(f, 2 * SZ_4K);
	else if (r < 85)
		len = 1 + below(f, 2 * SZ_64K);
	else if (r < 97)
		len = 1 + below(f, 8 * SZ_64K);
	else
		len = 1 + below(f, SZ_2M + 2 * SZ_64K);
	return len < max ? len : max;
}

/*
 * An offset for @len bytes below @limit: anywhere, or so that the range
 * straddles a 4K, 64K or 2M boundary, or EOF.
 */
static uint64_t pick_off(struct fsx *f, uint64_t len, uint64_t limit)
{
	static const uint64_t granules[] = { SZ_4K, SZ_64K, SZ_2M };
	uint64_t r = below(f, 10), boundary, off;

	if (len >= limit)
		return 0;
	if (r < 2)
		return below(f, limit - len + 1);
	if (r < 8) {
		uint64_t g = granules[below(f, 3)];

		boundary = g * (1 + below(f, limit / g));
	} else {
		boundary = f->size;
	}
	/* [off, off + len) contains the boundary, or touches it. */
	off = boundary - (len > 1 ? below(f, len + 1) : below(f, 2));
	if (off > boundary) /* wrapped below 0 */
		off = 0;
	if (off + len > limit)
		off = limit - len;
	return off;
}

static void op_read(struct fsx *f)
{
	uint64_t len = pick_len(f, f->max_size), off, want;
	ssize_t n;

	off = pick_off(f, len, f->max_size);
	n = pread(f->fd, f->buf, len, off);
	if (n < 0)
		die(f, "read");
	want = off >= f->size ? 0 : f->size - off < len ? f->size - off : len;
	log_op(f, OP_READ, off, len, f->size, NULL);
	if ((uint64_t)n != want) {
		say("read of 0x%" PRIx64 "+0x%" PRIx64
		    " returned %zd, want %" PRIu64,
		    off, len, n, want);
		print_log(f);
		exit(EXIT_MISMATCH);
	}
	compare(f, f->buf, off, n, "read");
}

static void do_write(struct fsx *f, enum op op, uint64_t off, uint64_t len)
{
	uint64_t before = f->size;

	fill(f, f->buf, off, len);
	if (pwrite(f->fd, f->buf, len, off) != (ssize_t)len)
		die(f, "write");
	memcpy(f->model + off, f->buf, len);
	if (off + len > f->size)
		f->size = off + len;
	log_op(f, op, off, len, before, NULL);
}

static void op_write(struct fsx *f)
{
	uint64_t len = pick_len(f, f->max_size);

	do_write(f, OP_WRITE, pick_off(f, len, f->max_size), len);
}

/* A write that starts beyond EOF, leaving a hole before it. */
static void op_extend(struct fsx *f)
{
	uint64_t room = f->max_size - f->size, len, off;

	if (room < 2) {
		op_write(f);
		return;
	}
	len = pick_len(f, room - 1);
	off = pick_off(f, len, f->max_size);
	if (off <= f->size)
		off = f->size + 1 + below(f, room - len);
	do_write(f, OP_EXTEND, off, len);
}

static void op_truncate(struct fsx *f)
{
	uint64_t before = f->size, size;

	/* Onto a boundary or near EOF, up or down, then off it by a byte. */
	size = pick_off(f, 0, f->max_size);
	if (below(f, 2))
		size += size < f->max_size ? 1 : -1;
	else if (size && below(f, 2))
		size--;
	if (ftruncate(f->fd, size))
		die(f, "ftruncate");
	set_size(f, size);
	log_op(f, OP_TRUNCATE, size, 0, before, before < size ? "up" : "down");
}

static void op_fallocate(struct fsx *f, enum op op)
{
	uint64_t len = pick_len(f, f->max_size), off, end;
	uint64_t before = f->size;
	int mode = FALLOC_FL_KEEP_SIZE;
	const char *note = "keep-size";

	off = pick_off(f, len, f->max_size);
	if (op == OP_PUNCH)
		mode |= FALLOC_FL_PUNCH_HOLE;
	else if (op == OP_ZERO)
		mode |= FALLOC_FL_ZERO_RANGE;
	if (op != OP_PUNCH && below(f, 2)) {
		mode &= ~FALLOC_FL_KEEP_SIZE;
		note = NULL;
	}
	if (fallocate(f->fd, mode, off, len))
		die(f, op == OP_PUNCH ? "fallocate(PUNCH_HOLE)" :
		       op == OP_ZERO  ? "fallocate(ZERO_RANGE)" :
					"fallocate");
	end = off + len;
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > f->size)
		f->size = end;
	if (end > f->size)
		end = f->size;
	/* Allocation keeps the data; the model is zero beyond the old EOF. */
	if (op != OP_ALLOCATE && off < end)
		memset(f->model + off, 0, end - off);
	log_op(f, op, off, len, before, note);
}

static void op_fsync(struct fsx *f)
{
	bool data = below(f, 2);

	if (data ? fdatasync(f->fd) : fsync(f->fd))
		die(f, data ? "fdatasync" : "fsync");
	log_op(f, OP_FSYNC, 0, 0, f->size, data ? "fdatasync" : NULL);
}

/* Write everything back, then drop the file's clean folios. */
static void drop_cache(struct fsx *f)
{
	int err;

	if (fsync(f->fd))
		die(f, "fsync");
	err = posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err) {
		errno = err;
		die(f, "posix_fadvise(DONTNEED)");
	}
}

static void op_drop(struct fsx *f)
{
	drop_cache(f);
	log_op(f, OP_DROP, 0, 0, f->size, NULL);
}

/* Map [@off, @off + @len) of the file, from the page below @off. */
static unsigned char *map_range(struct fsx *f, uint64_t off, uint64_t len,
				int prot, uint64_t *map_off)
{
	void *p;

	*map_off = off & ~((uint64_t)f->page_size - 1);
	p = mmap(NULL, len + off - *map_off, prot, MAP_SHARED, f->fd, *map_off);
	if (p == MAP_FAILED)
		die(f, "mmap");
	return (unsigned char *)p + (off - *map_off);
}

static void op_mapread(struct fsx *f)
{
	uint64_t len, off, map_off;
	unsigned char *p;

	if (!f->size) {
		log_op(f, OP_MAPREAD, 0, 0, 0, "empty: skipped");
		return;
	}
	len = pick_len(f, f->size);
	off = pick_off(f, len, f->size);
	p = map_range(f, off, len, PROT_READ, &map_off);
	log_op(f, OP_MAPREAD, off, len, f->size, NULL);
	compare(f, p, off, len, "mmap read");
	munmap(p - (off - map_off), len + off - map_off);
}

/* As fsx does: a write past EOF extends the file with ftruncate first. */
static void op_mapwrite(struct fsx *f)
{
	uint64_t len = pick_len(f, f->max_size), off, map_off;
	uint64_t before = f->size;
	unsigned char *p;

	off = pick_off(f, len, f->max_size);
	if (off + len > f->size) {
		if (ftruncate(f->fd, off + len))
			die(f, "ftruncate");
		f->size = off + len;
	}
	p = map_range(f, off, len, PROT_READ | PROT_WRITE, &map_off);
	fill(f, f->model + off, off, len);
	memcpy(p, f->model + off, len);
	if (msync(p - (off - map_off), len + off - map_off, MS_SYNC))
		die(f, "msync");
	munmap(p - (off - map_off), len + off - map_off);
	log_op(f, OP_MAPWRITE, off, len, before,
	       before < f->size ? "extended" : NULL);
}

/* [off, off + len) widened to whole blocks, still below max_size. */
static void align_range(struct fsx *f, uint64_t *off, uint64_t *len)
{
	uint64_t end = (*off + *len + f->blksz - 1) & ~(f->blksz - 1);

	*off &= ~(f->blksz - 1);
	if (end > f->max_size)
		end = f->max_size & ~(f->blksz - 1);
	*len = end - *off;
	if (!*len)
		*len = f->blksz;
	if (*off + *len > f->max_size)
		*off -= f->blksz;
}

static void op_dioread(struct fsx *f)
{
	uint64_t len = pick_len(f, f->max_size), off, want;
	ssize_t n;

	off = pick_off(f, len, f->max_size);
	align_range(f, &off, &len);
	n = pread(f->dio_fd, f->buf, len, off);
	if (n < 0)
		die(f, "O_DIRECT read");
	want = off >= f->size ? 0 : f->size - off < len ? f->size - off : len;
	log_op(f, OP_DIOREAD, off, len, f->size, NULL);
	if ((uint64_t)n != want) {
		say("O_DIRECT read of 0x%" PRIx64 "+0x%" PRIx64
		    " returned %zd, want %" PRIu64,
		    off, len, n, want);
		print_log(f);
		exit(EXIT_MISMATCH);
	}
	compare(f, f->buf, off, n, "O_DIRECT read");
}

static void op_diowrite(struct fsx *f)
{
	uint64_t len = pick_len(f, f->max_size), off, before = f->size;

	off = pick_off(f, len, f->max_size);
	align_range(f, &off, &len);
	fill(f, f->buf, off, len);
	if (pwrite(f->dio_fd, f->buf, len, off) != (ssize_t)len)
		die(f, "O_DIRECT write");
	memcpy(f->model + off, f->buf, len);
	if (off + len > f->size)
		f->size = off + len;
	log_op(f, OP_DIOWRITE, off, len, before, NULL);
}

/* The whole file by read() and by mmap, and its size, against the model. */
static void check_file(struct fsx *f)
{
	struct stat st;
	uint64_t off = 0, map_off;
	unsigned char *p;

	if (f->corrupt && !f->corrupted && f->size) {
		uint64_t at = below(f, f->size);

		f->model[at] ^= 0x5a;
		f->corrupted = true;
		say("self-check: model byte at 0x%" PRIx64
		    " corrupted before the full check after operation %lu",
		    at, f->nr);
	}
	if (fstat(f->fd, &st))
		die(f, "fstat");
	if ((uint64_t)st.st_size != f->size) {
		say("MISMATCH after operation %lu: file size 0x%" PRIx64
		    ", model 0x%" PRIx64,
		    f->nr, (uint64_t)st.st_size, f->size);
		print_log(f);
		exit(EXIT_MISMATCH);
	}
	while (off < f->size) {
		uint64_t len = f->size - off < SZ_2M ? f->size - off : SZ_2M;
		ssize_t n = pread(f->fd, f->buf, len, off);

		if (n < 0)
			die(f, "read");
		if (n == 0) {
			say("MISMATCH after operation %lu: read() ends at 0x%" PRIx64
			    ", size 0x%" PRIx64,
			    f->nr, off, f->size);
			print_log(f);
			exit(EXIT_MISMATCH);
		}
		compare(f, f->buf, off, n, "full check by read()");
		off += n;
	}
	if (f->size) {
		p = map_range(f, 0, f->size, PROT_READ, &map_off);
		compare(f, p, 0, f->size, "full check by mmap");
		munmap(p, f->size);
	}
	f->checks++;
}

static enum op pick_op(struct fsx *f)
{
	unsigned int total = 0, r;
	int op;

	for (op = 0; op < NR_OPS; op++)
		total += f->enabled[op] ? op_weights[op] : 0;
	r = below(f, total);
	for (op = 0; op < NR_OPS; op++) {
		if (!f->enabled[op])
			continue;
		if (r < op_weights[op])
			break;
		r -= op_weights[op];
	}
	return op;
}

static void run_op(struct fsx *f, enum op op)
{
	switch (op) {
	case OP_READ:
		op_read(f);
		break;
	case OP_WRITE:
		op_write(f);
		break;
	case OP_EXTEND:
		op_extend(f);
		break;
	case OP_TRUNCATE:
		op_truncate(f);
		break;
	case OP_PUNCH:
	case OP_ZERO:
	case OP_ALLOCATE:
		op_fallocate(f, op);
		break;
	case OP_FSYNC:
		op_fsync(f);
		break;
	case OP_MAPREAD:
		op_mapread(f);
		break;
	case OP_MAPWRITE:
		op_mapwrite(f);
		break;
	case OP_DIOREAD:
		op_dioread(f);
		break;
	case OP_DIOWRITE:
		op_diowrite(f);
		break;
	default:
		op_drop(f);
		break;
	}
}

static int usage(void)
{
	fprintf(stderr,
		"usage: fsx [-s SEED] [-n OPS] [-l MAXSIZE] [-c CHECK_EVERY] [-x OP]...\n"
		"           [--self-check-corrupt] FILE\n");
	return EXIT_USAGE;
}

static int bad_arg(int opt, const char *arg, const char *want)
{
	fprintf(stderr, "fsx: -%c %s: want %s\n", opt, arg, want);
	return usage();
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && *s != '-';
}

static int exclude(struct fsx *f, const char *name)
{
	for (int op = 0; op < NR_OPS; op++) {
		if (!strcmp(op_names[op], name)) {
			f->enabled[op] = false;
			return 0;
		}
	}
	fprintf(stderr, "fsx: -x %s: no such operation\n", name);
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "self-check-corrupt", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	static struct fsx fsx = { .max_size = 6 * 1024 * 1024 + 40000 };
	struct fsx *f = &fsx;
	uint64_t seed, nops = 10000, check_every = 500, v;
	struct statvfs sv;
	int c;

	seed = (uint64_t)time(NULL) * 1000003 ^ (uint64_t)getpid();
	for (c = 0; c < NR_OPS; c++)
		f->enabled[c] = true;
	while ((c = getopt_long(argc, argv, "s:n:l:c:x:", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 's':
			if (!parse_u64(optarg, &seed))
				return bad_arg(c, optarg, "an unsigned number");
			break;
		case 'n':
			if (!parse_u64(optarg, &nops))
				return bad_arg(c, optarg, "an unsigned number");
			break;
		case 'l':
			if (!parse_u64(optarg, &v) || v < 2 * SZ_64K ||
			    v > 1UL << 30)
				return bad_arg(
					c, optarg,
					"a size from 131072 to 1073741824 bytes");
			f->max_size = v;
			break;
		case 'c':
			if (!parse_u64(optarg, &check_every) || !check_every)
				return bad_arg(c, optarg, "a number above 0");
			break;
		case 'x':
			if (exclude(f, optarg))
				return usage();
			break;
		case 'C':
			f->corrupt = true;
			break;
		default:
			return usage();
		}
	}
	if (optind + 1 != argc)
		return usage();
	for (c = 0; c < NR_OPS && !f->enabled[c]; c++)
		;
	if (c == NR_OPS) {
		fprintf(stderr, "fsx: every operation is left out (-x)\n");
		return EXIT_USAGE;
	}
	f->path = argv[optind];
	f->rng = seed * 0x9e3779b97f4a7c15ULL | 1;
	f->page_size = sysconf(_SC_PAGESIZE);
	init_pattern();

	f->fd = open(f->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (f->fd < 0)
		die(f, "open");
	if (fstatvfs(f->fd, &sv))
		die(f, "statvfs");
	f->blksz = sv.f_bsize;
	if (f->blksz < (uint64_t)f->page_size)
		f->blksz = f->page_size;
	f->dio_fd = -1;
	if (f->enabled[OP_DIOREAD] || f->enabled[OP_DIOWRITE]) {
		f->dio_fd = open(f->path, O_RDWR | O_DIRECT);
		if (f->dio_fd < 0) {
			say("O_DIRECT open of %s failed: %s (leave out dioread and diowrite with -x)",
			    f->path, strerror(errno));
			return EXIT_SYSCALL;
		}
	}
	f->model = calloc(1, f->max_size);
	if (!f->model ||
	    posix_memalign((void **)&f->buf, f->blksz, f->max_size + SZ_2M)) {
		say("cannot allocate %" PRIu64 " bytes of model", f->max_size);
		return EXIT_SYSCALL;
	}

	say("%s: seed %" PRIu64 ", %" PRIu64 " operations, max size %" PRIu64
	    ", full check every %" PRIu64 ", block size %" PRIu64 "%s",
	    f->path, seed, nops, f->max_size, check_every, f->blksz,
	    f->corrupt ? ", self-check: the model will be corrupted" : "");
	for (f->nr = 1; f->nr <= nops; f->nr++) {
		run_op(f, pick_op(f));
		if (f->nr % check_every == 0) {
			/* Every other full check reads what is on disk. */
			if ((f->nr / check_every) % 2 == 0)
				drop_cache(f);
			if (f->corrupt && f->nr * 2 < nops)
				continue;
			check_file(f);
		}
	}
	f->nr = nops;
	check_file(f);
	if (f->corrupt) {
		say("self-check: the corrupted model was NOT detected");
		return EXIT_UNDETECTED;
	}
	/* A fresh open sees the same. */
	close(f->fd);
	f->fd = open(f->path, O_RDONLY);
	if (f->fd < 0)
		die(f, "open");
	check_file(f);
	printf("# fsx: %s: %" PRIu64
	       " operations, %lu full checks, 0 mismatches:",
	       f->path, nops, f->checks);
	for (c = 0; c < NR_OPS; c++)
		printf(" %s %lu", op_names[c], f->counts[c]);
	printf("\n");
	return 0;
}
