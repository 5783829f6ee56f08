// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF analysis of a file: only the headers are read (the first page, and
 * with pread() whatever header lies further in), never the whole file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <execfolio/elf.h>

#include "elf_source.h"

/* Holds the ELF header and the program headers of nearly every file. */
#define ELF_PREFIX_SIZE 4096

/* "PATH: REASON" into @err; returns @ret. */
static int fail(char *err, size_t errlen, const char *path, const char *reason,
		int ret)
{
	snprintf(err, errlen, "%s: %s", path, reason);
	return ret;
}

/* "PATH: strerror" into @err; returns @ret. */
static int fail_errno(char *err, size_t errlen, const char *path, int ret)
{
	return fail(err, errlen, path, strerror(-ret), ret);
}

static int check_type(const struct stat *st, const char *path, char *err,
		      size_t errlen)
{
	if (S_ISDIR(st->st_mode))
		return fail(err, errlen, path, "is a directory", -EISDIR);
	if (!S_ISREG(st->st_mode))
		return fail(err, errlen, path, "not a regular file", -ENODEV);
	if (st->st_size == 0)
		return fail(err, errlen, path, "empty file", -EINVAL);
	return 0;
}

static ssize_t read_prefix(int fd, uint8_t *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, buf + done, len - done, (off_t)done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int execfolio_elf_analyse_file(const char *path, struct execfolio_elf *elf,
			       char *err, size_t errlen)
{
	uint8_t prefix[ELF_PREFIX_SIZE];
	struct elf_source src = { .buf = prefix };
	/* The parser's reasons are short: the ELF field that is wrong. */
	char why[256];
	struct stat st;
	ssize_t n;
	int fd, ret;

	memset(elf, 0, sizeof(*elf));
	/* Refuse FIFOs and devices before open() can block or act on them. */
	if (stat(path, &st))
		return fail_errno(err, errlen, path, -errno);
	ret = check_type(&st, path, err, errlen);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fail_errno(err, errlen, path, -errno);
	/* The file may have been replaced since stat(). */
	if (fstat(fd, &st)) {
		ret = fail_errno(err, errlen, path, -errno);
		goto out;
	}
	ret = check_type(&st, path, err, errlen);
	if (ret)
		goto out;
	n = read_prefix(fd, prefix,
			(uint64_t)st.st_size < sizeof(prefix) ?
				(size_t)st.st_size :
				sizeof(prefix));
	if (n < 0) {
		ret = fail_errno(err, errlen, path, (int)n);
		goto out;
	}
	src.buf_len = (size_t)n;
	src.fd = fd;
	src.size = (uint64_t)st.st_size;
	ret = elf_parse_source(&src, elf, why, sizeof(why));
	if (ret)
		fail(err, errlen, path, why, ret);
out:
	close(fd);
	return ret;
}
