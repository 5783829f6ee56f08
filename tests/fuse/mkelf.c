// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkelf FILE SIZE [VADDR]: write a SIZE-byte file that is an ELF64 image
 * with one executable PT_LOAD segment covering the whole file at VADDR
 * (default 0), for traces with a known text layout. The rest is a byte
 * pattern, so each page's content is distinct.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;
	} h;
	unsigned long long size, vaddr = 0, i;
	FILE *out;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: mkelf FILE SIZE [VADDR]\n");
		return 2;
	}
	size = strtoull(argv[2], NULL, 0);
	if (argc == 4)
		vaddr = strtoull(argv[3], NULL, 0);
	if (size < sizeof(h)) {
		fprintf(stderr, "mkelf: SIZE below the headers' %zu bytes\n",
			sizeof(h));
		return 2;
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.eh.e_ident, ELFMAG, SELFMAG);
	h.eh.e_ident[EI_CLASS] = ELFCLASS64;
	h.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	h.eh.e_ident[EI_VERSION] = EV_CURRENT;
	h.eh.e_type = ET_DYN;
	h.eh.e_machine = EM_X86_64;
	h.eh.e_version = EV_CURRENT;
	h.eh.e_phoff = sizeof(h.eh);
	h.eh.e_ehsize = sizeof(h.eh);
	h.eh.e_phentsize = sizeof(h.ph);
	h.eh.e_phnum = 1;
	h.ph.p_type = PT_LOAD;
	h.ph.p_flags = PF_R | PF_X;
	h.ph.p_offset = 0;
	h.ph.p_vaddr = vaddr;
	h.ph.p_paddr = vaddr;
	h.ph.p_filesz = size;
	h.ph.p_memsz = size;
	h.ph.p_align = 0x200000;
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fwrite(&h, sizeof(h), 1, out);
	for (i = sizeof(h); i < size; i++)
		fputc((int)((i >> 12) + i) & 0xff, out);
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
