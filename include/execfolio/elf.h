/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ELF analysis: where the executable segments of a file lie, and whether
 * large folios of the file can be mapped with one contpte entry or one PMD.
 */
#ifndef EXECFOLIO_ELF_H
#define EXECFOLIO_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sizes at which segment alignment matters (DESIGN.md section 5). */
#define EXECFOLIO_CONTPTE_SIZE (64u << 10)
#define EXECFOLIO_PMD_SIZE (2u << 20)

/* Hostile files cannot make us allocate or loop without bound. */
#define EXECFOLIO_ELF_MAX_PHDRS 4096

struct execfolio_segment {
	uint64_t offset;	/* p_offset */
	uint64_t vaddr;		/* p_vaddr */
	uint64_t filesz;	/* p_filesz */
	uint64_t align;		/* p_align */
};

enum execfolio_elf_type {
	EXECFOLIO_ELF_NONE,	/* not an ELF file */
	EXECFOLIO_ELF_EXEC,	/* ET_EXEC, or ET_DYN with PT_INTERP */
	EXECFOLIO_ELF_DYN,	/* ET_DYN without PT_INTERP: a library */
	EXECFOLIO_ELF_OTHER,	/* relocatable, core, ... */
};

struct execfolio_elf {
	enum execfolio_elf_type type;
	unsigned int elf_class;	/* 32 or 64 */
	bool big_endian;
	uint16_t machine;	/* e_machine */
	size_t nsegments;	/* executable PT_LOAD segments */
	struct execfolio_segment *segments;
	uint64_t text_bytes;	/* sum of filesz of the segments above */
	bool contpte_ok;	/* all congruent modulo 64K (false if none) */
	bool pmd_ok;		/* all congruent modulo 2M (false if none) */
	uint32_t recommended;	/* policy size, 0 for none */
};

/*
 * Analyse the ELF image in @buf[0..@len). A buffer that is not ELF at all is
 * not an error: it yields type EXECFOLIO_ELF_NONE and no recommendation.
 * A buffer that claims to be ELF but is malformed or truncated returns
 * -EINVAL (or -ENOMEM) and sets *@why to a static string saying what is
 * wrong. Never reads outside the buffer. Free with execfolio_elf_free().
 */
int execfolio_elf_parse(const void *buf, size_t len, struct execfolio_elf *elf,
			const char **why);

/*
 * Map and analyse the file at @path. Returns 0, -EINVAL with *@why set for
 * a malformed ELF file, or another -errno for I/O errors.
 */
int execfolio_elf_analyse_file(const char *path, struct execfolio_elf *elf,
			       const char **why);

void execfolio_elf_free(struct execfolio_elf *elf);

/*
 * The size `execfolio set auto` and `mkfs.execfolio --auto` apply: the
 * largest of 2M and 64K at which the executable segments are congruent and
 * whose text is at least that size; 0 (none) otherwise.
 */
uint32_t execfolio_elf_recommend(const struct execfolio_elf *elf);

#endif /* EXECFOLIO_ELF_H */
