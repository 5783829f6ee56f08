/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ELF analysis: where the executable segments of a file lie, and whether
 * large folios of the file can be mapped with one contpte entry or one PMD.
 *
 * Only the ELF header, the program header table and (for PN_XNUM) section
 * header 0 are read; segment contents never are.
 */
#ifndef EXECFOLIO_ELF_H
#define EXECFOLIO_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <execfolio/error.h>

/* Sizes at which segment alignment matters (DESIGN.md section 7.2). */
#define EXECFOLIO_CONTPTE_SIZE (64u << 10)
#define EXECFOLIO_PMD_SIZE (2u << 20)
/* Smallest size execfolio_elf_recommend() proposes (16K-page contpte). */
#define EXECFOLIO_RECOMMEND_MIN (16u << 10)

/*
 * Hostile files cannot make us allocate or loop without bound: a file with
 * more program headers is refused. Real programs have a few dozen at most.
 */
#define EXECFOLIO_ELF_MAX_PHDRS 4096

struct execfolio_segment {
	uint64_t offset; /* p_offset */
	uint64_t vaddr; /* p_vaddr */
	uint64_t filesz; /* p_filesz */
	uint64_t align; /* p_align */
	bool past_eof; /* p_offset + p_filesz lies beyond the file */
};

enum execfolio_elf_type {
	EXECFOLIO_ELF_NONE, /* not an ELF file */
	EXECFOLIO_ELF_EXEC, /* ET_EXEC, or ET_DYN with PT_INTERP */
	EXECFOLIO_ELF_DYN, /* ET_DYN without PT_INTERP: a library (or a
				 * static PIE, which looks the same here) */
	EXECFOLIO_ELF_OTHER, /* relocatable, core, ... */
};

struct execfolio_elf {
	enum execfolio_elf_type type;
	unsigned int elf_class; /* 32 or 64; 0 when not ELF */
	bool big_endian;
	uint16_t machine; /* e_machine */
	size_t nsegments; /* executable (PF_X) PT_LOAD segments */
	struct execfolio_segment *segments;
	size_t npast_eof; /* how many of them have past_eof set */
	uint64_t text_bytes; /* sum of filesz of the segments above */
	bool contpte_ok; /* all congruent modulo 64K (false if none) */
	bool pmd_ok; /* all congruent modulo 2M (false if none) */
	uint32_t recommended; /* execfolio_elf_recommend(), 0 for none */
};

/*
 * Analyse the ELF image in @buf[0..@len). A buffer that is not ELF at all
 * (no ELF magic) is not an error: it yields type EXECFOLIO_ELF_NONE and no
 * recommendation. A buffer that claims to be ELF but is malformed or
 * truncated returns -EINVAL (or -ENOMEM) with the field that is wrong in
 * @err. Never reads outside the buffer; @elf needs execfolio_elf_free()
 * after success, and nothing after a failure.
 */
int execfolio_elf_parse(const void *buf, size_t len, struct execfolio_elf *elf,
			char *err, size_t errlen);

/*
 * Analyse the file at @path, reading only its headers. Returns 0, or a
 * negative errno with "PATH: what is wrong" in @err: -EINVAL for a
 * malformed ELF file or an empty file, -EISDIR for a directory, -ENODEV
 * for any other file that is not a regular file, -EIO when the file shrank
 * while it was read, or the errno of open/fstat/pread (@err then has its
 * strerror()).
 */
int execfolio_elf_analyse_file(const char *path, struct execfolio_elf *elf,
			       char *err, size_t errlen);

/*
 * The same for a file already open for reading, from its headers only:
 * callers that open every file anyway analyse it without a second lookup
 * of its path. The file is checked with fstat() as above; @err says what
 * is wrong without naming the file, which the caller knows.
 */
int execfolio_elf_analyse_fd(int fd, struct execfolio_elf *elf, char *err,
			     size_t errlen);

void execfolio_elf_free(struct execfolio_elf *elf);

/* Short lower-case name of a type: "executable", "shared-library", ... */
const char *execfolio_elf_type_name(enum execfolio_elf_type type);

/*
 * The size `execfolio set auto` and `mkfs.execfolio --auto` apply: the
 * largest of 2M, 64K and 16K such that every executable segment's p_vaddr
 * and p_offset are congruent modulo that size and the total p_filesz of the
 * executable segments is at least that size. 0 (none) for files that are
 * not ELF, relocatable or core files (type EXECFOLIO_ELF_OTHER), files
 * without executable segments, text smaller than 16K, and files with an
 * executable segment past their end (npast_eof: truncated or damaged).
 */
uint32_t execfolio_elf_recommend(const struct execfolio_elf *elf);

#endif /* EXECFOLIO_ELF_H */
