/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Builds ELF headers in memory for the tests: any class and byte order,
 * program headers right after the ELF header, and header fields that can be
 * overridden with hostile values.
 */
#ifndef EXECFOLIO_TEST_ELF_BUILDER_H
#define EXECFOLIO_TEST_ELF_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct test_phdr {
	uint32_t type;
	uint32_t flags;
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
	uint64_t align;
};

struct test_elf {
	unsigned int elf_class; /* 32 or 64 */
	bool big_endian;
	uint16_t e_type;
	uint16_t machine;
	const struct test_phdr *phdrs;
	size_t nphdrs;
	/* e_phnum = PN_XNUM, the count in sh_info of section header 0. */
	bool xnum;
	/* Overrides of what is written into the headers, when set. */
	bool set_phnum;
	uint16_t phnum;
	bool set_phoff;
	uint64_t phoff;
	bool set_phentsize;
	uint16_t phentsize;
	bool set_shoff;
	uint64_t shoff;
	bool set_sh_info;
	uint32_t sh_info;
	/*
	 * Zeros after the headers up to this many bytes, so that segments lie
	 * inside the "file"; 0 for the headers alone.
	 */
	size_t file_size;
};

/*
 * Returns a malloc'd image of exactly the headers (ELF header, program
 * headers, section header 0 with xnum), padded with zeros to file_size
 * when that is larger, and stores its length in *@len. Aborts on
 * allocation failure.
 */
uint8_t *test_elf_build(const struct test_elf *spec, size_t *len);

/* Write @len bytes of @data to a new temporary file; returns its path. */
char *test_write_temp(const void *data, size_t len);

#endif /* EXECFOLIO_TEST_ELF_BUILDER_H */
