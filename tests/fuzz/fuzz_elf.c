// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for execfolio_elf_parse(): any input must give either a
 * result that is consistent with itself or an error with a reason, and never
 * an out-of-bounds read (ASan) or undefined behaviour (UBSan).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <execfolio/elf.h>
#include <execfolio/policy.h>

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
	if (elf->recommended && (!execfolio_size_valid(elf->recommended) ||
				 elf->recommended > elf->text_bytes))
		abort();
	if (elf->type == EXECFOLIO_ELF_NONE && elf->nsegments)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct execfolio_elf elf;
	const char *why = NULL;
	int ret;

	ret = execfolio_elf_parse(data, size, &elf, &why);
	if (ret == 0) {
		check_result(&elf);
		execfolio_elf_free(&elf);
	} else if ((ret != -EINVAL && ret != -ENOMEM) || !why || !*why ||
		   elf.segments) {
		abort();
	}
	return 0;
}
