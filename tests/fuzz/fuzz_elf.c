// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for execfolio_elf_parse(): any input must give either a
 * result that is consistent with itself or an error with a reason, and never
 * an out-of-bounds read (ASan) or undefined behaviour (UBSan). The same
 * input is also parsed the way files are (a short prefix in memory, the
 * rest with pread() from a memfd), which must give the same answer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <execfolio/elf.h>
#include <execfolio/policy.h>

#include "elf_source.h"

/* Small, so that most headers are read through pread(). */
#define FILE_PREFIX 64

static void check_result(const struct execfolio_elf *elf)
{
	uint64_t text = 0;
	size_t i, past_eof = 0;

	if (elf->nsegments > EXECFOLIO_ELF_MAX_PHDRS)
		abort();
	if (elf->nsegments && !elf->segments)
		abort();
	for (i = 0; i < elf->nsegments; i++) {
		const struct execfolio_segment *s = &elf->segments[i];

		text = text > UINT64_MAX - s->filesz ? UINT64_MAX :
						       text + s->filesz;
		past_eof += s->past_eof;
	}
	if (text != elf->text_bytes || past_eof != elf->npast_eof)
		abort();
	/* Congruence modulo 2M implies it modulo 64K. */
	if (elf->pmd_ok && !elf->contpte_ok)
		abort();
	if (elf->nsegments == 0 && (elf->contpte_ok || elf->recommended))
		abort();
	if (elf->recommended != execfolio_elf_recommend(elf))
		abort();
	/* Text past the end of the file gets no size. */
	if (elf->npast_eof && elf->recommended)
		abort();
	if (elf->recommended && (!execfolio_size_valid(elf->recommended) ||
				 elf->recommended > elf->text_bytes))
		abort();
	if (elf->type == EXECFOLIO_ELF_NONE && elf->nsegments)
		abort();
}

static bool same_result(int ret, const struct execfolio_elf *a,
			const char *why_a, int file_ret,
			const struct execfolio_elf *b, const char *why_b)
{
	size_t i;

	if (ret != file_ret)
		return false;
	if (ret)
		return !strcmp(why_a, why_b);
	if (a->type != b->type || a->elf_class != b->elf_class ||
	    a->big_endian != b->big_endian || a->machine != b->machine ||
	    a->nsegments != b->nsegments || a->npast_eof != b->npast_eof ||
	    a->text_bytes != b->text_bytes || a->contpte_ok != b->contpte_ok ||
	    a->pmd_ok != b->pmd_ok || a->recommended != b->recommended)
		return false;
	for (i = 0; i < a->nsegments; i++)
		if (memcmp(&a->segments[i], &b->segments[i],
			   sizeof(a->segments[i])))
			return false;
	return true;
}

/* Parse @data as execfolio_elf_analyse_file() would read it from a file. */
static int parse_as_file(const uint8_t *data, size_t size,
			 struct execfolio_elf *elf, char *why, size_t why_len)
{
	static int fd = -1;
	struct elf_source src = {
		.buf = data,
		.buf_len = size < FILE_PREFIX ? size : FILE_PREFIX,
		.size = size,
	};

	if (fd < 0) {
		fd = memfd_create("fuzz_elf", MFD_CLOEXEC);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	src.fd = fd;
	return elf_parse_source(&src, elf, why, why_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct execfolio_elf elf, file_elf;
	char why[256] = "", file_why[256] = "";
	int ret, file_ret;

	ret = execfolio_elf_parse(data, size, &elf, why, sizeof(why));
	if (ret == 0)
		check_result(&elf);
	else if ((ret != -EINVAL && ret != -ENOMEM) || !*why || elf.segments)
		abort();

	file_ret = parse_as_file(data, size, &file_elf, file_why,
				 sizeof(file_why));
	if (!same_result(ret, &elf, why, file_ret, &file_elf, file_why))
		abort();
	if (ret == 0)
		execfolio_elf_free(&elf);
	if (file_ret == 0)
		execfolio_elf_free(&file_elf);
	return 0;
}
