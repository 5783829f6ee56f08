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

/* What makes @st no candidate, into @err; 0 if it is one. */
static int check_type(const struct stat *st, char *err, size_t errlen)
{
	const char *reason = NULL;
	int ret = 0;

	if (S_ISDIR(st->st_mode)) {
		reason = "is a directory";
		ret = -EISDIR;
	} else if (!S_ISREG(st->st_mode)) {
		reason = "not a regular file";
		ret = -ENODEV;
	} else if (st->st_size == 0) {
		reason = "empty file";
		ret = -EINVAL;
	}
	if (reason)
		snprintf(err, errlen, "%s", reason);
	return ret;
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

/*
 * The analysis of an open file, without a path: @err says what is wrong
 * with the file, and the caller says which file it is.
 */
int execfolio_elf_analyse_fd(int fd, struct execfolio_elf *elf, char *err,
			     size_t errlen)
{
	uint8_t prefix[ELF_PREFIX_SIZE];
	struct elf_source src = { .buf = prefix };
	struct stat st;
	ssize_t n;
	int ret;

	memset(elf, 0, sizeof(*elf));
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	ret = check_type(&st, err, errlen);
	if (ret)
		return ret;
	n = read_prefix(fd, prefix,
			(uint64_t)st.st_size < sizeof(prefix) ?
				(size_t)st.st_size :
				sizeof(prefix));
	if (n < 0) {
		snprintf(err, errlen, "%s", strerror((int)-n));
		return (int)n;
	}
	src.buf_len = (size_t)n;
	src.fd = fd;
	src.size = (uint64_t)st.st_size;
	return elf_parse_source(&src, elf, err, errlen);
}

int execfolio_elf_analyse_file(const char *path, struct execfolio_elf *elf,
			       char *err, size_t errlen)
{
	/* The reasons are short: the ELF field or the errno that is wrong. */
	char why[256];
	struct stat st;
	int fd, ret;

	memset(elf, 0, sizeof(*elf));
	/* Refuse FIFOs and devices before open() can block or act on them. */
	if (stat(path, &st))
		return fail_errno(err, errlen, path, -errno);
	ret = check_type(&st, why, sizeof(why));
	if (ret)
		return fail(err, errlen, path, why, ret);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fail_errno(err, errlen, path, -errno);
	/* The file may have been replaced since stat(): checked again. */
	ret = execfolio_elf_analyse_fd(fd, elf, why, sizeof(why));
	if (ret)
		fail(err, errlen, path, why, ret);
	close(fd);
	return ret;
}
