// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * In-memory ELF images for the ELF analysis tests, written field by field
 * so that every class and byte order can be produced on any host.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_builder.h"

struct writer {
	uint8_t *buf;
	bool big_endian;
	bool is64;
};

static void put(const struct writer *w, size_t off, uint64_t value, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++) {
		size_t shift = 8 * (w->big_endian ? size - 1 - i : i);

		w->buf[off + i] = (uint8_t)(value >> shift);
	}
}

/* A field of the class's structure: @off32/@off64 and the width by class. */
static void put_field(const struct writer *w, size_t base, size_t off32,
		      size_t off64, uint64_t value, size_t size32,
		      size_t size64)
{
	if (w->is64)
		put(w, base + off64, value, size64);
	else
		put(w, base + off32, value, size32);
}

#define PUT(w, base, type, field, value)                  \
	put_field(w, base, offsetof(Elf32_##type, field), \
		  offsetof(Elf64_##type, field), value,   \
		  sizeof(((Elf32_##type *)0)->field),     \
		  sizeof(((Elf64_##type *)0)->field))

uint8_t *test_elf_build(const struct test_elf *spec, size_t *len)
{
	bool is64 = spec->elf_class == 64;
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t phsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	size_t shsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	size_t shoff = ehsize + spec->nphdrs * phsize;
	size_t total = shoff + (spec->xnum ? shsize : 0);
	struct writer w = { .big_endian = spec->big_endian, .is64 = is64 };
	uint16_t phnum;
	size_t i;

	if (spec->file_size > total)
		total = spec->file_size;
	w.buf = calloc(1, total);
	if (!w.buf)
		abort();
	memcpy(w.buf, ELFMAG, SELFMAG);
	w.buf[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	w.buf[EI_DATA] = spec->big_endian ? ELFDATA2MSB : ELFDATA2LSB;
	w.buf[EI_VERSION] = EV_CURRENT;

	phnum = spec->xnum ? PN_XNUM : (uint16_t)spec->nphdrs;
	PUT(&w, 0, Ehdr, e_type, spec->e_type);
	PUT(&w, 0, Ehdr, e_machine, spec->machine);
	PUT(&w, 0, Ehdr, e_version, EV_CURRENT);
	PUT(&w, 0, Ehdr, e_phoff, spec->set_phoff ? spec->phoff : ehsize);
	PUT(&w, 0, Ehdr, e_shoff,
	    spec->set_shoff ? spec->shoff :
	    spec->xnum	    ? shoff :
			      0);
	PUT(&w, 0, Ehdr, e_ehsize, ehsize);
	PUT(&w, 0, Ehdr, e_phentsize,
	    spec->set_phentsize ? spec->phentsize : phsize);
	PUT(&w, 0, Ehdr, e_phnum, spec->set_phnum ? spec->phnum : phnum);
	PUT(&w, 0, Ehdr, e_shentsize, shsize);
	PUT(&w, 0, Ehdr, e_shnum, spec->xnum ? 1 : 0);

	for (i = 0; i < spec->nphdrs; i++) {
		const struct test_phdr *p = &spec->phdrs[i];
		size_t base = ehsize + i * phsize;

		PUT(&w, base, Phdr, p_type, p->type);
		PUT(&w, base, Phdr, p_flags, p->flags);
		PUT(&w, base, Phdr, p_offset, p->offset);
		PUT(&w, base, Phdr, p_vaddr, p->vaddr);
		PUT(&w, base, Phdr, p_paddr, p->vaddr);
		PUT(&w, base, Phdr, p_filesz, p->filesz);
		PUT(&w, base, Phdr, p_memsz, p->filesz);
		PUT(&w, base, Phdr, p_align, p->align);
	}
	if (spec->xnum)
		PUT(&w, shoff, Shdr, sh_info,
		    spec->set_sh_info ? spec->sh_info : spec->nphdrs);
	*len = total;
	return w.buf;
}

char *test_write_temp(const void *data, size_t len)
{
	char *path = strdup("/tmp/execfolio-unit.XXXXXX");
	int fd;

	if (!path)
		abort();
	fd = mkstemp(path);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || close(fd)) {
		perror("test_write_temp");
		abort();
	}
	return path;
}
