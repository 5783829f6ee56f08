// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF analysis of a file: only the headers are read (the first page, and
 * with pread() whatever header lies further in), never the whole file.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <execfolio/elf.h>

#include "elf_source.h"

/* Holds the ELF header and the program headers of nearly every file. */
#define ELF_PREFIX_SIZE 4096

static int check_type(const struct stat *st, const char **why)
{
	if (S_ISDIR(st->st_mode)) {
		*why = "is a directory";
		return -EISDIR;
	}
	if (!S_ISREG(st->st_mode)) {
		*why = "not a regular file";
		return -ENODEV;
	}
	if (st->st_size == 0) {
		*why = "empty file";
		return -EINVAL;
	}
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

int execfolio_elf_analyse_fd(int fd, struct execfolio_elf *elf,
			     const char **why)
{
	uint8_t prefix[ELF_PREFIX_SIZE];
	struct elf_source src = { .buf = prefix };
	struct stat st;
	ssize_t n;
	int ret;

	memset(elf, 0, sizeof(*elf));
	if (fstat(fd, &st)) {
		ret = -errno;
		*why = strerror(errno);
		return ret;
	}
	ret = check_type(&st, why);
	if (ret)
		return ret;
	n = read_prefix(fd, prefix,
			(uint64_t)st.st_size < sizeof(prefix) ?
				(size_t)st.st_size :
				sizeof(prefix));
	if (n < 0) {
		*why = strerror((int)-n);
		return (int)n;
	}
	src.buf_len = (size_t)n;
	src.fd = fd;
	src.size = (uint64_t)st.st_size;
	return elf_parse_source(&src, elf, why);
}

int execfolio_elf_analyse_file(const char *path, struct execfolio_elf *elf,
			       const char **why)
{
	struct stat st;
	int fd, ret;

	memset(elf, 0, sizeof(*elf));
	/* Refuse FIFOs and devices before open() can block or act on them. */
	if (stat(path, &st)) {
		ret = -errno;
		*why = strerror(errno);
		return ret;
	}
	ret = check_type(&st, why);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		*why = strerror(errno);
		return ret;
	}
	/* The file may have been replaced since stat(): checked again. */
	ret = execfolio_elf_analyse_fd(fd, elf, why);
	close(fd);
	return ret;
}
