// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF analysis: the ELF header and the program header table of 32- and
 * 64-bit files of either byte order, read field by field with explicit
 * bounds checks, since the input may be anything a user points us at.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/elf.h>

#include "elf_source.h"

#define STRINGIFY(x) #x
#define XSTRINGIFY(x) STRINGIFY(x)

struct elf_reader {
	const struct elf_source *src;
	bool is64;
	bool big_endian;
};

static uint16_t get16(const struct elf_reader *r, const uint8_t *p)
{
	if (r->big_endian)
		return (uint16_t)(p[0] << 8 | p[1]);
	return (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32(const struct elf_reader *r, const uint8_t *p)
{
	if (r->big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

static uint64_t get64(const struct elf_reader *r, const uint8_t *p)
{
	uint64_t hi = get32(r, p + (r->big_endian ? 0 : 4));
	uint64_t lo = get32(r, p + (r->big_endian ? 4 : 0));

	return hi << 32 | lo;
}

/* Offsets, addresses and sizes: 4 bytes in ELF32, 8 in ELF64. */
static uint64_t get_word(const struct elf_reader *r, const uint8_t *p)
{
	return r->is64 ? get64(r, p) : get32(r, p);
}

/* Offset of a field in the structure of the reader's class. */
#define FIELD(r, type, field)                        \
	((r)->is64 ? offsetof(Elf64_##type, field) : \
		     offsetof(Elf32_##type, field))
#define GET16(r, buf, type, field) get16(r, (buf) + FIELD(r, type, field))
#define GET32(r, buf, type, field) get32(r, (buf) + FIELD(r, type, field))
#define GETW(r, buf, type, field) get_word(r, (buf) + FIELD(r, type, field))

static int fail(char *err, size_t errlen, const char *what, int ret)
{
	snprintf(err, errlen, "%s", what);
	return ret;
}

/*
 * A read of a range the caller has already checked against the file size
 * can still fail when the file shrinks under us, or on an I/O error.
 */
static int read_failed(char *err, size_t errlen, int ret, const char *truncated)
{
	if (ret == -ERANGE)
		return fail(err, errlen, truncated, -EINVAL);
	if (ret == -EIO)
		return fail(err, errlen,
			    "file shrank while its headers were read", -EIO);
	return fail(err, errlen, strerror(-ret), ret);
}

/*
 * e_phnum == PN_XNUM: the real count is in sh_info of section header 0
 * (what the kernel writes into core files with many segments).
 */
static int read_xnum(const struct elf_reader *r, uint64_t shoff,
		     uint16_t shentsize, uint32_t *phnum, char *err,
		     size_t errlen)
{
	uint8_t shdr[sizeof(Elf64_Shdr)];
	size_t shsize = r->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	int ret;

	if (shoff == 0)
		return fail(
			err, errlen,
			"e_phnum is PN_XNUM but e_shoff is 0: no section header 0 holds the program header count",
			-EINVAL);
	if (shentsize < shsize)
		return fail(
			err, errlen,
			"e_shentsize is smaller than a section header (needed for e_phnum PN_XNUM)",
			-EINVAL);
	ret = elf_source_read(r->src, shoff, shdr, shsize);
	if (ret)
		return read_failed(
			err, errlen, ret,
			"truncated section header 0 (e_shoff), which holds the program header count");
	*phnum = GET32(r, shdr, Shdr, sh_info);
	return 0;
}

static bool segments_congruent(const struct execfolio_elf *elf, uint64_t size)
{
	size_t i;

	if (elf->nsegments == 0)
		return false;
	for (i = 0; i < elf->nsegments; i++) {
		const struct execfolio_segment *s = &elf->segments[i];

		if ((s->vaddr - s->offset) & (size - 1))
			return false;
	}
	return true;
}

static void add_segment(struct execfolio_elf *elf, const struct elf_reader *r,
			const uint8_t *phdr)
{
	struct execfolio_segment *s = &elf->segments[elf->nsegments++];
	uint64_t size = r->src->size;

	s->offset = GETW(r, phdr, Phdr, p_offset);
	s->vaddr = GETW(r, phdr, Phdr, p_vaddr);
	s->filesz = GETW(r, phdr, Phdr, p_filesz);
	s->align = GETW(r, phdr, Phdr, p_align);
	/* Reported, never read: we only look at headers. */
	s->past_eof = s->offset > size || s->filesz > size - s->offset;
	if (s->past_eof)
		elf->npast_eof++;
	if (elf->text_bytes > UINT64_MAX - s->filesz)
		elf->text_bytes = UINT64_MAX;
	else
		elf->text_bytes += s->filesz;
}

static int read_phdrs(struct execfolio_elf *elf, const struct elf_reader *r,
		      uint64_t phoff, uint16_t phentsize, uint32_t phnum,
		      bool *has_interp, char *err, size_t errlen)
{
	uint8_t phdr[sizeof(Elf64_Phdr)];
	size_t phsize = r->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	uint64_t size = r->src->size;
	uint32_t i;
	int ret;

	if (phnum == 0)
		return 0;
	if (phnum > EXECFOLIO_ELF_MAX_PHDRS)
		return fail(
			err, errlen,
			"too many program headers (e_phnum above " XSTRINGIFY(
				EXECFOLIO_ELF_MAX_PHDRS) ")",
			-EINVAL);
	if (phentsize < phsize)
		return fail(err, errlen,
			    "e_phentsize is smaller than a program header",
			    -EINVAL);
	/* At most 4096 * 65535: no overflow in 64 bits. */
	if (phoff > size || (uint64_t)phnum * phentsize > size - phoff)
		return fail(
			err, errlen,
			"truncated program header table (e_phoff + e_phnum * e_phentsize lies beyond the end of the file)",
			-EINVAL);

	/* Bounded by EXECFOLIO_ELF_MAX_PHDRS entries. */
	elf->segments = calloc(phnum, sizeof(*elf->segments));
	if (!elf->segments)
		return fail(err, errlen, "out of memory for the segment list",
			    -ENOMEM);
	for (i = 0; i < phnum; i++) {
		uint32_t type, flags;

		ret = elf_source_read(r->src, phoff + (uint64_t)i * phentsize,
				      phdr, phsize);
		if (ret)
			return read_failed(err, errlen, ret,
					   "truncated program header table");
		type = GET32(r, phdr, Phdr, p_type);
		flags = GET32(r, phdr, Phdr, p_flags);
		if (type == PT_INTERP)
			*has_interp = true;
		else if (type == PT_LOAD && (flags & PF_X))
			add_segment(elf, r, phdr);
	}
	if (elf->nsegments == 0) {
		free(elf->segments);
		elf->segments = NULL;
	}
	return 0;
}

static enum execfolio_elf_type classify(uint16_t e_type, bool has_interp)
{
	switch (e_type) {
	case ET_EXEC:
		return EXECFOLIO_ELF_EXEC;
	case ET_DYN:
		return has_interp ? EXECFOLIO_ELF_EXEC : EXECFOLIO_ELF_DYN;
	default:
		return EXECFOLIO_ELF_OTHER;
	}
}

int elf_parse_source(const struct elf_source *src, struct execfolio_elf *elf,
		     char *err, size_t errlen)
{
	uint8_t ehdr[sizeof(Elf64_Ehdr)];
	struct elf_reader r = { .src = src };
	size_t ehsize;
	uint64_t phoff;
	uint32_t phnum;
	bool has_interp = false;
	int ret;

	memset(elf, 0, sizeof(*elf));
	/* Anything without the magic is simply not ELF. */
	if (src->size < SELFMAG)
		return 0;
	ret = elf_source_read(src, 0, ehdr, SELFMAG);
	if (ret)
		return read_failed(err, errlen, ret, "truncated ELF magic");
	if (memcmp(ehdr, ELFMAG, SELFMAG))
		return 0;

	ret = elf_source_read(src, 0, ehdr, EI_NIDENT);
	if (ret)
		return read_failed(err, errlen, ret,
				   "truncated ELF identification (e_ident)");
	switch (ehdr[EI_CLASS]) {
	case ELFCLASS32:
		r.is64 = false;
		break;
	case ELFCLASS64:
		r.is64 = true;
		break;
	default:
		return fail(
			err, errlen,
			"unknown ELF class in e_ident[EI_CLASS] (neither 32- nor 64-bit)",
			-EINVAL);
	}
	switch (ehdr[EI_DATA]) {
	case ELFDATA2LSB:
		r.big_endian = false;
		break;
	case ELFDATA2MSB:
		r.big_endian = true;
		break;
	default:
		return fail(
			err, errlen,
			"unknown byte order in e_ident[EI_DATA] (neither little- nor big-endian)",
			-EINVAL);
	}
	ehsize = r.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	ret = elf_source_read(src, 0, ehdr, ehsize);
	if (ret)
		return read_failed(err, errlen, ret, "truncated ELF header");

	elf->elf_class = r.is64 ? 64 : 32;
	elf->big_endian = r.big_endian;
	elf->machine = GET16(&r, ehdr, Ehdr, e_machine);
	phoff = GETW(&r, ehdr, Ehdr, e_phoff);
	phnum = GET16(&r, ehdr, Ehdr, e_phnum);
	if (phnum == PN_XNUM) {
		ret = read_xnum(&r, GETW(&r, ehdr, Ehdr, e_shoff),
				GET16(&r, ehdr, Ehdr, e_shentsize), &phnum, err,
				errlen);
		if (ret)
			return ret;
	}
	ret = read_phdrs(elf, &r, phoff, GET16(&r, ehdr, Ehdr, e_phentsize),
			 phnum, &has_interp, err, errlen);
	if (ret) {
		execfolio_elf_free(elf);
		return ret;
	}

	elf->type = classify(GET16(&r, ehdr, Ehdr, e_type), has_interp);
	elf->contpte_ok = segments_congruent(elf, EXECFOLIO_CONTPTE_SIZE);
	elf->pmd_ok = segments_congruent(elf, EXECFOLIO_PMD_SIZE);
	elf->recommended = execfolio_elf_recommend(elf);
	return 0;
}

int execfolio_elf_parse(const void *buf, size_t len, struct execfolio_elf *elf,
			char *err, size_t errlen)
{
	struct elf_source src = {
		.buf = buf,
		.buf_len = len,
		.fd = -1,
		.size = len,
	};

	return elf_parse_source(&src, elf, err, errlen);
}

void execfolio_elf_free(struct execfolio_elf *elf)
{
	free(elf->segments);
	elf->segments = NULL;
	elf->nsegments = 0;
}

const char *execfolio_elf_type_name(enum execfolio_elf_type type)
{
	switch (type) {
	case EXECFOLIO_ELF_EXEC:
		return "executable";
	case EXECFOLIO_ELF_DYN:
		return "shared-library";
	case EXECFOLIO_ELF_OTHER:
		return "other";
	case EXECFOLIO_ELF_NONE:
	default:
		return "none";
	}
}

uint32_t execfolio_elf_recommend(const struct execfolio_elf *elf)
{
	static const uint32_t sizes[] = {
		EXECFOLIO_PMD_SIZE,
		EXECFOLIO_CONTPTE_SIZE,
		EXECFOLIO_RECOMMEND_MIN,
	};
	size_t i;

	if (elf->type != EXECFOLIO_ELF_EXEC && elf->type != EXECFOLIO_ELF_DYN)
		return 0;
	/*
	 * Text that runs past the end of the file is not what runs: the file
	 * is truncated or damaged, and its layout no basis for a size.
	 */
	if (elf->npast_eof)
		return 0;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (elf->text_bytes >= sizes[i] &&
		    segments_congruent(elf, sizes[i]))
			return sizes[i];
	return 0;
}
