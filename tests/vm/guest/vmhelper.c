// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmhelper: what the in-guest tests need beyond busybox, built static for
 * the guest.
 *
 *   vmhelper state PATH          the kernel's exec folio state of PATH
 *   vmhelper setxattr PATH VALUE set trusted.exec_folio_size (VALUE may use
 *                                \n escapes); prints "ok" or the errno name
 *   vmhelper rmxattr PATH        remove it; prints "ok" or the errno name
 *   vmhelper read PATH           read PATH to EOF with read(2)
 *   vmhelper sum PATH            FNV-1a 64 of PATH's bytes by read(2)
 *   vmhelper mmapsum PATH        the same by a shared mapping of PATH
 *   vmhelper execsum PATH        the same by a private executable mapping of
 *                                PATH, as the dynamic loader maps a library
 *   vmhelper cached PATH         bytes of PATH in the page cache (mincore(2)
 *                                of a read-only mapping, which faults nothing)
 *   vmhelper willneed PATH       posix_fadvise(POSIX_FADV_WILLNEED) on all
 *                                of PATH, as a preloader does
 *   vmhelper randread PATH N SEED [SIZE [random]]
 *                                N pread()s of SIZE bytes (4K) at random
 *                                SIZE-aligned offsets of PATH (a seeded
 *                                generator); with random, after
 *                                posix_fadvise(POSIX_FADV_RANDOM)
 *   vmhelper append SRC DST BYTES
 *                                append BYTES of SRC to DST in 4K writes,
 *                                O_APPEND | O_DSYNC
 *   vmhelper acl PATH access|default OCTAL
 *                                set PATH's access (or a directory's default)
 *                                POSIX ACL to the three entries of OCTAL,
 *                                as setfacl does; prints "ok" or the errno
 *   vmhelper mount DEV DIR [remount] VALUE
 *                                mount(2) XFS DEV on DIR (or remount DIR) with
 *                                exec_folio_size=VALUE (escapes as setxattr);
 *                                prints "ok" or the errno name
 *   vmhelper as-user UID GID CMD...
 *                                run CMD with no supplementary groups and
 *                                the given real, effective and saved ids
 *   vmhelper hog MIB             allocate and touch MIB MiB of anonymous
 *                                memory, print "hog ready", wait for a signal
 *   vmhelper fragment KIB        take nearly all free memory in mlocked 4K
 *                                pages, free all but one page of each
 *                                physically aligned KIB block, take the
 *                                KIB blocks still free as KIB folios,
 *                                print "fragment ready ...", wait for a
 *                                signal
 *   vmhelper collapse PATH       MADV_COLLAPSE of the PMD-sized block of
 *                                PATH that holds its end (past EOF), mapped
 *                                read-only at an aligned address with none
 *                                of its pages touched; prints "ok" or the
 *                                errno name
 *   vmhelper readfolios PATH OFFSET LENGTH
 *                                one pread() of LENGTH bytes at OFFSET of
 *                                PATH; prints "cached=B small=S
 *                                smallest=F": the range's bytes then
 *                                cached, those of them in single-page
 *                                folios and the smallest folio's size
 *                                (vmhelper-readfolios.c)
 *   vmhelper seqtouch PATH PAGE...
 *                                read a byte of each page PAGE of PATH, in
 *                                turn, through a shared mapping with
 *                                MADV_SEQUENTIAL; prints "ok"
 *   vmhelper hwpoison PATH POISON TOUCH
 *                                poison page POISON of PATH while its
 *                                folio is pinned, map PATH again, read page
 *                                TOUCH and report what the fault mapped
 *                                (vmhelper-hwpoison.c)
 *
 * Exit status: 0 when the operation succeeded, 1 when it failed, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* Linux 6.1; glibc's headers have it from 2.37 on. */
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#include <execfolio/kernel.h>
#include <execfolio/policy.h>
#include <execfolio/xfs_exec_folio.h>

#include "vmhelper.h"

static const char *const source_names[] = {
	[XFS_EXEC_FOLIO_SOURCE_NONE] = "none",
	[XFS_EXEC_FOLIO_SOURCE_XATTR] = "xattr",
	[XFS_EXEC_FOLIO_SOURCE_MOUNT] = "mount",
};

static const char *errno_name(int err)
{
	switch (err) {
	case EINVAL:
		return "EINVAL";
	case EPERM:
		return "EPERM";
	case ENODATA:
		return "ENODATA";
	case ENOTTY:
		return "ENOTTY";
	case ENOMEM:
		return "ENOMEM";
	default:
		return strerror(err);
	}
}

static int usage(void);

static int report(int ret)
{
	if (ret) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

static int cmd_state(char **args)
{
	const char *path = args[0];
	struct xfs_exec_folio ef;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "vmhelper: %s: %s\n", path, strerror(errno));
		return 1;
	}
	memset(&ef, 0xff, sizeof(ef));
	if (ioctl(fd, XFS_IOC_GET_EXEC_FOLIO, &ef)) {
		printf("%s\n", errno_name(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("size=%u source=%s order=%u folio=%lu pending=%d deferred=%d\n",
	       ef.ef_size, ef.ef_source < 3 ? source_names[ef.ef_source] : "?",
	       ef.ef_order, (1UL << ef.ef_page_shift) << ef.ef_order,
	       !!(ef.ef_flags & XFS_EXEC_FOLIO_PENDING),
	       !!(ef.ef_flags & XFS_EXEC_FOLIO_DEFERRED));
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode the escapes of tests/vectors/policy.vec (\n, \r, \t, \\, \",
 * \0, \xHH) so tests can pass awkward values through the shell.
 */
static size_t unescape(const char *in, char *out, size_t size)
{
	static const char plain[] = "nrt\\\"0", coded[] = "\n\r\t\\\"\0";
	const char *p;
	size_t n = 0;

	while (*in && n < size) {
		if (in[0] == '\\' && in[1] && (p = strchr(plain, in[1]))) {
			out[n++] = coded[p - plain];
			in += 2;
		} else if (in[0] == '\\' && in[1] == 'x' &&
			   hex_digit(in[2]) >= 0 && hex_digit(in[3]) >= 0) {
			out[n++] = hex_digit(in[2]) << 4 | hex_digit(in[3]);
			in += 4;
		} else {
			out[n++] = *in++;
		}
	}
	return n;
}

static int cmd_setxattr(char **args)
{
	char value[1024];
	size_t len = unescape(args[1], value, sizeof(value));

	return report(setxattr(args[0], EXECFOLIO_XATTR, value, len, 0));
}

static int cmd_rmxattr(char **args)
{
	return report(removexattr(args[0], EXECFOLIO_XATTR));
}

/*
 * DEV DIR [remount] VALUE: exec_folio_size=VALUE as mount data; a NUL in
 * VALUE would cut it short.
 */
static int cmd_mount(char **args)
{
	const char *dev = args[0], *dir = args[1], *value = args[2];
	bool remount = args[3];
	char data[4096] = "exec_folio_size=";
	size_t prefix = strlen(data), len;

	if (remount) {
		if (strcmp(args[2], "remount"))
			return usage();
		value = args[3];
	}
	len = unescape(value, data + prefix, sizeof(data) - prefix - 1);
	if (memchr(data + prefix, '\0', len)) {
		fprintf(stderr,
			"vmhelper: mount data cannot hold a NUL byte\n");
		return 2;
	}
	data[prefix + len] = '\0';
	return report(mount(dev, dir, "xfs", remount ? MS_REMOUNT : 0, data));
}

static int cmd_as_user(char **args)
{
	uid_t uid = strtoul(args[0], NULL, 10);
	gid_t gid = strtoul(args[1], NULL, 10);

	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid)) {
		perror("vmhelper: as-user");
		return 1;
	}
	execvp(args[2], args + 2);
	fprintf(stderr, "vmhelper: %s: %s\n", args[2], strerror(errno));
	return 1;
}

static int cmd_read(char **args)
{
	const char *path = args[0];
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return report(-1);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return report(n < 0 ? -1 : 0);
}

#define FNV1A_INIT 0xcbf29ce484222325ULL

static uint64_t fnv1a(uint64_t hash, const unsigned char *p, size_t n)
{
	while (n--)
		hash = (hash ^ *p++) * 0x100000001b3ULL;
	return hash;
}

/* A checksum of PATH by read(2), to compare with cmd_mmapsum()'s. */
static int cmd_sum(char **args)
{
	const char *path = args[0];
	static unsigned char buf[65536];
	uint64_t hash = FNV1A_INIT;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return report(-1);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		hash = fnv1a(hash, buf, n);
	close(fd);
	if (n < 0)
		return report(-1);
	printf("%016llx\n", (unsigned long long)hash);
	return 0;
}

/* Print the checksum of @len bytes mapped at @p, unmap them, close @fd. */
static int print_mapping_sum(void *p, size_t len, int fd)
{
	uint64_t hash = len ? fnv1a(FNV1A_INIT, p, len) : FNV1A_INIT;

	if (len)
		munmap(p, len);
	close(fd);
	printf("%016llx\n", (unsigned long long)hash);
	return 0;
}

/* A checksum of PATH by a mapping of it with @prot and @flags. */
static int mapping_sum(const char *path, int prot, int flags)
{
	struct stat st;
	void *p = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return report(-1);
	if (st.st_size) {
		p = mmap(NULL, st.st_size, prot, flags, fd, 0);
		if (p == MAP_FAILED)
			return report(-1);
	}
	return print_mapping_sum(p, st.st_size, fd);
}

static int cmd_mmapsum(char **args)
{
	return mapping_sum(args[0], PROT_READ, MAP_SHARED);
}

/* As the dynamic loader maps a library. */
static int cmd_execsum(char **args)
{
	return mapping_sum(args[0], PROT_READ | PROT_EXEC, MAP_PRIVATE);
}

/*
 * @len bytes of @fd from @offset mapped shared and read-only, or MAP_FAILED,
 * kept from khugepaged by MADV_NOHUGEPAGE: with THP "always", 7.3
 * collapses a regular file's mapping too, and a collapse reads in the
 * pages of the 2M range that are not cached (seen: 2M read after a
 * count), which would change what the commands that map a file measure.
 */
void *vmhelper_map_uncollapsed(int fd, size_t len, off_t offset)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, offset);

	/* Fails with EINVAL without THP: nothing to keep off then. */
	if (p != MAP_FAILED)
		madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

/* Bytes of PATH in the page cache: mincore(2) of a mapping never touched. */
static int cmd_cached(char **args)
{
	const char *path = args[0];
	long page_size = sysconf(_SC_PAGESIZE);
	unsigned long long cached = 0;
	unsigned char *resident;
	size_t pages, i;
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return report(-1);
	pages = (st.st_size + page_size - 1) / page_size;
	if (pages) {
		p = vmhelper_map_uncollapsed(fd, st.st_size, 0);
		if (p == MAP_FAILED)
			return report(-1);
		resident = malloc(pages);
		if (!resident || mincore(p, st.st_size, resident))
			return report(-1);
		for (i = 0; i < pages; i++)
			cached += resident[i] & 1;
		free(resident);
		munmap(p, st.st_size);
	}
	close(fd);
	printf("%llu\n", cached * page_size);
	return 0;
}

static int cmd_willneed(char **args)
{
	const char *path = args[0];
	int fd = open(path, O_RDONLY);
	int err;

	if (fd < 0)
		return report(-1);
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
	close(fd);
	if (err)
		errno = err;
	return report(err ? -1 : 0);
}

/* A small seeded generator, so that two files get the same offsets. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/*
 * PATH N SEED [SIZE [random]]: N pread()s of SIZE bytes (4096 by default)
 * at random SIZE-aligned offsets; with "random", after
 * posix_fadvise(POSIX_FADV_RANDOM), as a database opens its files.
 */
static int cmd_randread(char **args)
{
	static char buf[1 << 20];
	const char *path = args[0];
	unsigned long n = strtoul(args[1], NULL, 10);
	uint64_t state = strtoull(args[2], NULL, 10) | 1;
	size_t size = args[3] ? strtoul(args[3], NULL, 10) : 4096;
	struct stat st;
	int fd, err;

	if (!size || size > sizeof(buf) ||
	    (args[3] && args[4] && strcmp(args[4], "random"))) {
		errno = EINVAL;
		return report(-1);
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || (size_t)st.st_size < size)
		return report(-1);
	if (args[3] && args[4]) {
		err = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
		if (err) {
			errno = err;
			close(fd);
			return report(-1);
		}
	}
	while (n--) {
		off_t off = (next_random(&state) % (st.st_size / size)) * size;
		ssize_t got = pread(fd, buf, size, off);

		if (got < 0 || (size_t)got != size) {
			if (got >= 0)
				errno = EIO;
			close(fd);
			return report(-1);
		}
	}
	close(fd);
	return report(0);
}

/*
 * SRC DST BYTES: append the first BYTES of SRC to DST in 4K write()s with
 * O_APPEND | O_DSYNC, so that what was written is clean at once, as a log
 * writer that syncs its records does.
 */
static int cmd_append(char **args)
{
	static char buf[4096];
	unsigned long long left = strtoull(args[2], NULL, 10);
	int in = open(args[0], O_RDONLY);
	int out = open(args[1], O_WRONLY | O_APPEND | O_DSYNC);
	int ret = -1;

	if (in < 0 || out < 0)
		goto out;
	while (left) {
		size_t chunk = left < sizeof(buf) ? left : sizeof(buf);
		ssize_t got = read(in, buf, chunk);

		if (got <= 0 || write(out, buf, got) != got) {
			if (got == 0)
				errno = EIO;
			goto out;
		}
		left -= got;
	}
	ret = 0;
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return report(ret);
}

/*
 * The POSIX ACL xattr format (linux/posix_acl_xattr.h): a version, then
 * (tag, permissions, id) entries, little-endian.  Three entries make a
 * minimal ACL, equivalent to the mode's permission bits.
 */
#define ACL_XATTR_VERSION 2
#define ACL_TAG_USER_OBJ 0x01
#define ACL_TAG_GROUP_OBJ 0x04
#define ACL_TAG_OTHER 0x20

static void put_le(unsigned char *p, uint32_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = v >> (8 * i);
}

/* PATH access|default OCTAL */
static int cmd_acl(char **args)
{
	static const uint16_t tags[] = { ACL_TAG_USER_OBJ, ACL_TAG_GROUP_OBJ,
					 ACL_TAG_OTHER };
	const char *path = args[0], *which = args[1];
	unsigned char value[4 + 3 * 8];
	unsigned long perm = strtoul(args[2], NULL, 8);
	const char *name;

	if (!strcmp(which, "access"))
		name = "system.posix_acl_access";
	else if (!strcmp(which, "default"))
		name = "system.posix_acl_default";
	else
		return usage();
	put_le(value, ACL_XATTR_VERSION, 4);
	for (int i = 0; i < 3; i++) {
		unsigned char *e = value + 4 + 8 * i;

		put_le(e, tags[i], 2);
		put_le(e + 2, (perm >> (3 * (2 - i))) & 7, 2);
		put_le(e + 4, UINT32_MAX, 4);
	}
	return report(setxattr(path, name, value, sizeof(value), 0));
}

/*
 * A collapse of a file range that ends past EOF, as khugepaged tries
 * through the loader's reservation of a library: the block that holds
 * PATH's end, mapped at a PMD-aligned address (the file's block over the
 * aligned half of a reservation twice its size).  Nothing of the block is
 * touched, so whatever the collapse reads shows in "vmhelper cached".
 */
static int cmd_collapse(char **args)
{
	const char *path = args[0];
	size_t pmd = execfolio_kernel_thp_pmd_size();
	struct stat st;
	char *area, *block;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return report(-1);
	if (!pmd || st.st_size % pmd == 0) {
		fprintf(stderr,
			"vmhelper: %s: no PMD size, or the file ends on a PMD boundary\n",
			path);
		return 1;
	}
	area = mmap(NULL, 2 * pmd, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	if (area == MAP_FAILED)
		return report(-1);
	block = (char *)(((uintptr_t)area + pmd - 1) & ~(uintptr_t)(pmd - 1));
	if (mmap(block, pmd, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
		 st.st_size / pmd * pmd) == MAP_FAILED)
		return report(-1);
	return report(madvise(block, pmd, MADV_COLLAPSE));
}

/*
 * The commands, with how many operands each takes after its name (-1: no
 * upper bound; the operands are NULL-terminated, as argv is).
 */
static const struct {
	const char *name;
	int (*run)(char **args);
	int min_args, max_args;
	const char *usage;
} commands[] = {
	{ "state", cmd_state, 1, 1, "state PATH" },
	{ "setxattr", cmd_setxattr, 2, 2, "setxattr PATH VALUE" },
	{ "rmxattr", cmd_rmxattr, 1, 1, "rmxattr PATH" },
	{ "read", cmd_read, 1, 1, "read PATH" },
	{ "sum", cmd_sum, 1, 1, "sum PATH" },
	{ "mmapsum", cmd_mmapsum, 1, 1, "mmapsum PATH" },
	{ "execsum", cmd_execsum, 1, 1, "execsum PATH" },
	{ "cached", cmd_cached, 1, 1, "cached PATH" },
	{ "willneed", cmd_willneed, 1, 1, "willneed PATH" },
	{ "randread", cmd_randread, 3, 5,
	  "randread PATH N SEED [SIZE [random]]" },
	{ "append", cmd_append, 3, 3, "append SRC DST BYTES" },
	{ "acl", cmd_acl, 3, 3, "acl PATH access|default OCTAL" },
	{ "mount", cmd_mount, 3, 4, "mount DEV DIR [remount] VALUE" },
	{ "as-user", cmd_as_user, 3, -1, "as-user UID GID CMD..." },
	{ "hog", cmd_hog, 1, 1, "hog MIB" },
	{ "fragment", cmd_fragment, 1, 1, "fragment KIB" },
	{ "collapse", cmd_collapse, 1, 1, "collapse PATH" },
	{ "readfolios", cmd_readfolios, 3, 3, "readfolios PATH OFFSET LENGTH" },
	{ "seqtouch", cmd_seqtouch, 2, -1, "seqtouch PATH PAGE..." },
	{ "hwpoison", cmd_hwpoison, 3, 3, "hwpoison PATH POISON TOUCH" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static int usage(void)
{
	size_t i;

	fprintf(stderr, "usage: vmhelper COMMAND ARGS..., one of:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(stderr, "  %s\n", commands[i].usage);
	return 2;
}

int main(int argc, char **argv)
{
	int nargs = argc - 2;
	size_t i;

	if (argc < 2)
		return usage();
	for (i = 0; i < NR_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (nargs < commands[i].min_args ||
		    (commands[i].max_args >= 0 && nargs > commands[i].max_args))
			break;
		return commands[i].run(argv + 2);
	}
	return usage();
}
