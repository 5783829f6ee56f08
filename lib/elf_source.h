/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the ELF parser gets its bytes: a buffer in memory, or a file read
 * with pread() so that only the headers of a large file are read and a file
 * truncated under us gives an error instead of SIGBUS.
 */
#ifndef EXECFOLIO_ELF_SOURCE_H
#define EXECFOLIO_ELF_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include <execfolio/elf.h>

struct elf_source {
	const uint8_t *buf; /* the image, or a prefix of the file */
	size_t buf_len;
	int fd; /* -1 when @buf is the whole image */
	uint64_t size; /* size of the whole image or file */
};

/*
 * Copy @len bytes at @off into @dst. Returns 0, -ERANGE when the range does
 * not lie within @src->size, -EIO when the file is shorter than it was, or
 * another -errno from pread().
 */
int elf_source_read(const struct elf_source *src, uint64_t off, void *dst,
		    size_t len);

/* execfolio_elf_parse() over any source. */
int elf_parse_source(const struct elf_source *src, struct execfolio_elf *elf,
		     char *err, size_t errlen);

#endif /* EXECFOLIO_ELF_SOURCE_H */
