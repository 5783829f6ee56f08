// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libexecfolio ELF analysis: built images of every class and byte order,
 * congruence and recommendation rules, truncated and hostile headers, the
 * file reader, and real binaries compared with readelf.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <execfolio/elf.h>

#include "elf_builder.h"

#define K(n) ((uint64_t)(n) << 10)
#define M(n) ((uint64_t)(n) << 20)

static const struct {
	unsigned int elf_class;
	bool big_endian;
} variants[] = {
	{ 32, false },
	{ 32, true },
	{ 64, false },
	{ 64, true },
};

#define NR_VARIANTS (sizeof(variants) / sizeof(variants[0]))

static const struct test_phdr interp = { PT_INTERP, PF_R, 0x238, 0x238, 28, 1 };
static const struct test_phdr data_seg = { PT_LOAD,  PF_R | PF_W, 0x500000,
					   0xd00000, 0x3000,	  0x1000 };

/* Parse a copy of exactly @len bytes, so that reading past it is a bug. */
static int parse_exact(const uint8_t *img, size_t len,
		       struct execfolio_elf *elf, char *err, size_t errlen)
{
	uint8_t *copy = malloc(len ? len : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, img, len);
	ret = execfolio_elf_parse(copy, len, elf, err, errlen);
	free(copy);
	return ret;
}

static int parse_spec(const struct test_elf *spec, struct execfolio_elf *elf,
		      char *err, size_t errlen)
{
	size_t len;
	uint8_t *img = test_elf_build(spec, &len);
	int ret = parse_exact(img, len, elf, err, errlen);

	free(img);
	return ret;
}

/* Parse a well-formed spec that must succeed. */
static void parse_ok(const struct test_elf *spec, struct execfolio_elf *elf)
{
	char err[EXECFOLIO_ERR_MAX] = "";
	int ret = parse_spec(spec, elf, err, sizeof(err));

	if (ret)
		fail_msg("ELF%u %s: %d %s", spec->elf_class,
			 spec->big_endian ? "BE" : "LE", ret, err);
}

/* Parse a spec that must be refused with a reason containing @needle. */
static void parse_fails(const struct test_elf *spec, const char *needle)
{
	struct execfolio_elf elf;
	char err[EXECFOLIO_ERR_MAX] = "";
	int ret = parse_spec(spec, &elf, err, sizeof(err));

	assert_int_equal(ret, -EINVAL);
	assert_true(err[0]);
	if (!strstr(err, needle))
		fail_msg("reason \"%s\" does not mention \"%s\"", err, needle);
	assert_null(elf.segments);
}

static void test_all_variants_pie(void **state)
{
	const struct test_phdr phdrs[] = {
		interp,
		{ PT_LOAD, PF_R, 0, 0x400000, 0x800, 0x200000 },
		{ PT_LOAD, PF_R | PF_X, 0x1000, 0x601000, 0x300000, 0x200000 },
		{ PT_LOAD, PF_R | PF_X, 0x310000, 0xb10000, 0x22000, 0x10000 },
		data_seg,
	};
	size_t i;

	for (i = 0; i < NR_VARIANTS; i++) {
		struct test_elf spec = {
			.elf_class = variants[i].elf_class,
			.big_endian = variants[i].big_endian,
			.e_type = ET_DYN,
			.machine = EM_AARCH64,
			.phdrs = phdrs,
			.nphdrs = 5,
		};
		struct execfolio_elf elf;

		parse_ok(&spec, &elf);
		assert_int_equal(elf.type, EXECFOLIO_ELF_EXEC);
		assert_int_equal(elf.elf_class, variants[i].elf_class);
		assert_int_equal(elf.big_endian, variants[i].big_endian);
		assert_int_equal(elf.machine, EM_AARCH64);
		assert_int_equal(elf.nsegments, 2);
		assert_int_equal(elf.segments[0].offset, 0x1000);
		assert_int_equal(elf.segments[0].vaddr, 0x601000);
		assert_int_equal(elf.segments[0].filesz, 0x300000);
		assert_int_equal(elf.segments[0].align, 0x200000);
		assert_int_equal(elf.segments[1].offset, 0x310000);
		assert_int_equal(elf.segments[1].vaddr, 0xb10000);
		assert_int_equal(elf.segments[1].filesz, 0x22000);
		assert_int_equal(elf.segments[1].align, 0x10000);
		assert_int_equal(elf.text_bytes, 0x322000);
		/*
		 * Headers only: every segment lies beyond this "file", which
		 * is damaged, so no size is recommended for it.
		 */
		assert_int_equal(elf.npast_eof, 2);
		assert_true(elf.contpte_ok);
		assert_true(elf.pmd_ok);
		assert_int_equal(elf.recommended, 0);
		assert_int_equal(execfolio_elf_recommend(&elf), 0);
		execfolio_elf_free(&elf);

		/* The whole file: its text decides. */
		spec.file_size = 0x310000 + 0x22000;
		parse_ok(&spec, &elf);
		assert_int_equal(elf.npast_eof, 0);
		assert_int_equal(elf.recommended, M(2));
		assert_int_equal(execfolio_elf_recommend(&elf), M(2));
		execfolio_elf_free(&elf);
		spec.file_size = 0;

		/* Without PT_INTERP the same file is a library. */
		spec.phdrs = phdrs + 1;
		spec.nphdrs = 4;
		parse_ok(&spec, &elf);
		assert_int_equal(elf.type, EXECFOLIO_ELF_DYN);
		assert_int_equal(elf.nsegments, 2);
		execfolio_elf_free(&elf);

		spec.e_type = ET_EXEC;
		parse_ok(&spec, &elf);
		assert_int_equal(elf.type, EXECFOLIO_ELF_EXEC);
		execfolio_elf_free(&elf);
	}
}

/* One executable segment whose vaddr - offset is @delta, @filesz long. */
static void one_segment(unsigned int v, uint64_t delta, uint64_t filesz,
			struct execfolio_elf *elf)
{
	const struct test_phdr phdrs[] = {
		{ PT_LOAD, PF_R | PF_X, 0x1000, 0x1000 + delta, filesz,
		  0x1000 },
		data_seg,
	};
	struct test_elf spec = {
		.elf_class = variants[v].elf_class,
		.big_endian = variants[v].big_endian,
		.e_type = ET_DYN,
		.phdrs = phdrs,
		.nphdrs = 2,
		.file_size = 0x1000 + filesz,
	};

	parse_ok(&spec, elf);
	assert_int_equal(elf->nsegments, 1);
	assert_int_equal(elf->npast_eof, 0);
}

static void test_congruence_and_recommendation(void **state)
{
	static const struct {
		uint64_t delta, filesz;
		bool contpte_ok, pmd_ok;
		uint32_t recommended;
	} cases[] = {
		{ M(4), M(3), true, true, M(2) },
		{ M(4), M(2), true, true, M(2) },
		/* Congruent modulo 2M, but less than 2M of text. */
		{ M(4), M(2) - 1, true, true, K(64) },
		{ M(4) + K(64), M(3), true, false, K(64) },
		{ K(64), K(64), true, false, K(64) },
		{ K(64), K(64) - 1, true, false, K(16) },
		{ K(16), M(1), false, false, K(16) },
		{ K(48), K(16), false, false, K(16) },
		{ K(48), K(16) - 1, false, false, 0 },
		{ K(4), M(8), false, false, 0 },
		{ 0x123, M(8), false, false, 0 },
		/* A negative delta (vaddr below offset) modulo 2^64. */
		{ (uint64_t)0 - M(2), M(2), true, true, M(2) },
		{ (uint64_t)0 - K(4), M(2), false, false, 0 },
	};
	size_t v, i;

	for (v = 0; v < NR_VARIANTS; v++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct execfolio_elf elf;

			/* ELF32 addresses are 32 bits wide. */
			if (variants[v].elf_class == 32 &&
			    cases[i].delta > UINT32_MAX)
				continue;
			one_segment(v, cases[i].delta, cases[i].filesz, &elf);
			if (elf.contpte_ok != cases[i].contpte_ok ||
			    elf.pmd_ok != cases[i].pmd_ok ||
			    elf.recommended != cases[i].recommended)
				fail_msg(
					"ELF%u case %zu: contpte %d pmd %d recommended %u",
					variants[v].elf_class, i,
					elf.contpte_ok, elf.pmd_ok,
					elf.recommended);
			execfolio_elf_free(&elf);
		}
	}
}

/* The segments must all be congruent: one bad segment spoils the file. */
static void test_several_segments(void **state)
{
	const struct test_phdr phdrs[] = {
		{ PT_LOAD, PF_R | PF_X, 0x0, 0x0, M(1), 0x200000 },
		{ PT_LOAD, PF_X, M(1), M(5), M(1), 0x200000 },
		{ PT_LOAD, PF_R | PF_X, M(2), M(2) + K(64), K(512), 0x10000 },
		{ PT_LOAD, PF_R | PF_X, M(3), M(3) + K(20), K(64), 0x1000 },
	};
	struct test_elf spec = {
		.elf_class = 64,
		.e_type = ET_EXEC,
		.phdrs = phdrs,
		.file_size = M(4),
	};
	struct execfolio_elf elf;

	spec.nphdrs = 2;
	parse_ok(&spec, &elf);
	assert_int_equal(elf.nsegments, 2);
	assert_true(elf.pmd_ok);
	assert_int_equal(elf.recommended, M(2));
	execfolio_elf_free(&elf);

	spec.nphdrs = 3;
	parse_ok(&spec, &elf);
	assert_int_equal(elf.nsegments, 3);
	assert_true(elf.contpte_ok);
	assert_false(elf.pmd_ok);
	assert_int_equal(elf.recommended, K(64));
	execfolio_elf_free(&elf);

	spec.nphdrs = 4;
	parse_ok(&spec, &elf);
	assert_int_equal(elf.nsegments, 4);
	assert_int_equal(elf.text_bytes, M(2) + K(576));
	assert_false(elf.contpte_ok);
	assert_false(elf.pmd_ok);
	assert_int_equal(elf.recommended, 0);
	execfolio_elf_free(&elf);
}

static void test_no_exec_segment(void **state)
{
	const struct test_phdr phdrs[] = {
		interp,
		{ PT_LOAD, PF_R, 0, 0, M(4), 0x200000 },
		/* Executable, but not loaded. */
		{ PT_GNU_STACK, PF_R | PF_W | PF_X, 0, 0, 0, 16 },
		data_seg,
	};
	size_t v;

	for (v = 0; v < NR_VARIANTS; v++) {
		struct test_elf spec = {
			.elf_class = variants[v].elf_class,
			.big_endian = variants[v].big_endian,
			.e_type = ET_DYN,
			.phdrs = phdrs,
			.nphdrs = 4,
		};
		struct execfolio_elf elf;

		parse_ok(&spec, &elf);
		assert_int_equal(elf.type, EXECFOLIO_ELF_EXEC);
		assert_int_equal(elf.nsegments, 0);
		assert_null(elf.segments);
		assert_int_equal(elf.text_bytes, 0);
		assert_false(elf.contpte_ok);
		assert_false(elf.pmd_ok);
		assert_int_equal(elf.recommended, 0);
		execfolio_elf_free(&elf);
	}
}

static void test_other_types_get_no_recommendation(void **state)
{
	const struct test_phdr phdrs[] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0, M(8), 0x200000 },
	};
	const uint16_t types[] = { ET_REL, ET_CORE, ET_NONE, 0xfe00 };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct test_elf spec = {
			.elf_class = 64,
			.e_type = types[i],
			.phdrs = phdrs,
			.nphdrs = 1,
		};
		struct execfolio_elf elf;

		parse_ok(&spec, &elf);
		assert_int_equal(elf.type, EXECFOLIO_ELF_OTHER);
		assert_int_equal(elf.nsegments, 1);
		assert_true(elf.pmd_ok);
		assert_int_equal(elf.recommended, 0);
		execfolio_elf_free(&elf);
	}
}

static void test_not_elf(void **state)
{
	static const char *const inputs[] = {
		"",
		"\x7f",
		"\x7f"
		"EL",
		"#!/bin/sh\necho hi\n",
		"\x7f"
		"elf"
		"\x02\x01\x01",
		"MZ\x90",
		"ELF\x7f",
	};
	size_t i;

	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		struct execfolio_elf elf;
		char err[EXECFOLIO_ERR_MAX] = "";

		assert_int_equal(parse_exact((const uint8_t *)inputs[i],
					     strlen(inputs[i]), &elf, err,
					     sizeof(err)),
				 0);
		assert_int_equal(elf.type, EXECFOLIO_ELF_NONE);
		assert_int_equal(elf.nsegments, 0);
		assert_int_equal(elf.recommended, 0);
		assert_int_equal(execfolio_elf_recommend(&elf), 0);
		assert_string_equal(execfolio_elf_type_name(elf.type), "none");
	}
}

/* Every proper prefix of the headers is refused, naming the right part. */
static void test_truncated_everywhere(void **state)
{
	const struct test_phdr phdrs[] = {
		interp,
		{ PT_LOAD, PF_R | PF_X, 0, 0, M(1), 0x1000 },
		data_seg,
	};
	size_t v, cut, checked = 0;

	for (v = 0; v < NR_VARIANTS; v++) {
		for (int xnum = 0; xnum < 2; xnum++) {
			struct test_elf spec = {
				.elf_class = variants[v].elf_class,
				.big_endian = variants[v].big_endian,
				.e_type = ET_DYN,
				.phdrs = phdrs,
				.nphdrs = 3,
				.xnum = xnum,
			};
			size_t len, ehsize = spec.elf_class == 64 ? 64 : 52;
			uint8_t *img = test_elf_build(&spec, &len);
			struct execfolio_elf elf;
			char err[EXECFOLIO_ERR_MAX] = "";

			assert_int_equal(parse_exact(img, len, &elf, err,
						     sizeof(err)),
					 0);
			assert_int_equal(elf.nsegments, 1);
			execfolio_elf_free(&elf);
			for (cut = 0; cut < len; cut++) {
				const char *want;
				int ret;

				err[0] = '\0';
				ret = parse_exact(img, cut, &elf, err,
						  sizeof(err));
				checked++;
				if (cut < SELFMAG) {
					assert_int_equal(ret, 0);
					assert_int_equal(elf.type,
							 EXECFOLIO_ELF_NONE);
					continue;
				}
				if (cut < EI_NIDENT)
					want = "e_ident";
				else if (cut < ehsize)
					want = "truncated ELF header";
				else if (xnum)
					want = "section header 0";
				else
					want = "truncated program header table";
				assert_int_equal(ret, -EINVAL);
				assert_true(err[0]);
				if (!strstr(err, want))
					fail_msg(
						"cut at %zu: \"%s\", expected \"%s\"",
						cut, err, want);
				assert_null(elf.segments);
			}
			free(img);
		}
	}
	print_message("# checked %zu truncated headers\n", checked);
}

static void test_hostile_headers(void **state)
{
	const struct test_phdr phdrs[] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0, M(1), 0x1000 },
	};
	struct test_elf base = {
		.elf_class = 64,
		.e_type = ET_EXEC,
		.phdrs = phdrs,
		.nphdrs = 1,
	};
	struct test_elf spec;
	struct execfolio_elf elf;
	size_t v;

	for (v = 0; v < NR_VARIANTS; v++) {
		base.elf_class = variants[v].elf_class;
		base.big_endian = variants[v].big_endian;

		spec = base;
		spec.set_phnum = true;
		spec.phnum = EXECFOLIO_ELF_MAX_PHDRS + 1;
		parse_fails(&spec, "too many program headers (e_phnum");

		/* The count claims more entries than the file holds. */
		spec.phnum = 2;
		parse_fails(&spec, "truncated program header table");
		spec.phnum = PN_XNUM - 1;
		parse_fails(&spec, "too many program headers");

		spec = base;
		spec.set_phentsize = true;
		spec.phentsize = base.elf_class == 64 ? 55 : 31;
		parse_fails(&spec, "e_phentsize");
		spec.phentsize = 0;
		parse_fails(&spec, "e_phentsize");
		spec.phentsize = 0xffff;
		parse_fails(&spec, "truncated program header table");

		spec = base;
		spec.set_phoff = true;
		spec.phoff = base.elf_class == 64 ? UINT64_MAX : UINT32_MAX;
		parse_fails(&spec, "truncated program header table (e_phoff");
		/* phoff + size wraps around in 64 bits. */
		spec.phoff = base.elf_class == 64 ? UINT64_MAX - 8 :
						    UINT32_MAX - 8;
		parse_fails(&spec, "truncated program header table");
		/* One byte too far for the file. */
		spec.phoff = base.elf_class == 64 ? sizeof(Elf64_Ehdr) + 1 :
						    sizeof(Elf32_Ehdr) + 1;
		parse_fails(&spec, "truncated program header table");

		/* PN_XNUM with the count where it belongs works... */
		spec = base;
		spec.xnum = true;
		parse_ok(&spec, &elf);
		assert_int_equal(elf.nsegments, 1);
		assert_true(elf.pmd_ok);
		execfolio_elf_free(&elf);
		/* ...but not without section header 0, or a hostile count. */
		spec.set_shoff = true;
		spec.shoff = 0;
		parse_fails(&spec, "PN_XNUM");
		spec.shoff = base.elf_class == 64 ? UINT64_MAX - 4 : UINT32_MAX;
		parse_fails(&spec, "section header 0 (e_shoff)");
		spec.set_shoff = false;
		spec.set_sh_info = true;
		spec.sh_info = UINT32_MAX;
		parse_fails(&spec, "too many program headers");
		spec.sh_info = 0;
		parse_ok(&spec, &elf);
		assert_int_equal(elf.nsegments, 0);
		execfolio_elf_free(&elf);
	}
}

static void test_bad_identification(void **state)
{
	struct test_elf spec = { .elf_class = 64, .e_type = ET_EXEC };
	struct execfolio_elf elf;
	char err[EXECFOLIO_ERR_MAX] = "";
	size_t len;
	uint8_t *img = test_elf_build(&spec, &len);

	img[EI_CLASS] = ELFCLASSNONE;
	assert_int_equal(parse_exact(img, len, &elf, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "EI_CLASS"));
	img[EI_CLASS] = 3;
	assert_int_equal(parse_exact(img, len, &elf, err, sizeof(err)),
			 -EINVAL);
	img[EI_CLASS] = ELFCLASS64;
	img[EI_DATA] = 3;
	assert_int_equal(parse_exact(img, len, &elf, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "EI_DATA"));
	img[EI_DATA] = ELFDATA2LSB;
	assert_int_equal(parse_exact(img, len, &elf, err, sizeof(err)), 0);
	free(img);
}

/* Segments beyond the end of the file are reported, never read. */
static void test_segments_past_eof(void **state)
{
	const struct test_phdr phdrs[] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0, 0x40, 0x1000 },
		{ PT_LOAD, PF_R | PF_X, 0x40, 0x40, 0x1000, 0x1000 },
		{ PT_LOAD, PF_R | PF_X, UINT64_MAX, UINT64_MAX, 2, 0x1000 },
		{ PT_LOAD, PF_R | PF_X, 8, 8, UINT64_MAX, 0x1000 },
	};
	struct test_elf spec = {
		.elf_class = 64,
		.e_type = ET_EXEC,
		.phdrs = phdrs,
		.nphdrs = 4,
	};
	struct execfolio_elf elf;

	parse_ok(&spec, &elf);
	assert_int_equal(elf.nsegments, 4);
	assert_false(elf.segments[0].past_eof);
	assert_true(elf.segments[1].past_eof);
	assert_true(elf.segments[2].past_eof);
	assert_true(elf.segments[3].past_eof);
	assert_int_equal(elf.npast_eof, 3);
	/* The sum saturates instead of wrapping. */
	assert_int_equal(elf.text_bytes, UINT64_MAX);
	/* A damaged file gets no size, however its segments are aligned. */
	assert_int_equal(elf.recommended, 0);
	execfolio_elf_free(&elf);
}

/* Text that runs one page past the end spoils an otherwise perfect file. */
static void test_truncated_text_gets_no_size(void **state)
{
	const struct test_phdr phdrs[] = {
		{ PT_LOAD, PF_R | PF_X, 0x1000, 0x1000, K(64), 0x1000 },
	};
	struct test_elf spec = {
		.elf_class = 64,
		.e_type = ET_EXEC,
		.phdrs = phdrs,
		.nphdrs = 1,
		.file_size = 0x1000 + K(64),
	};
	struct execfolio_elf elf;

	parse_ok(&spec, &elf);
	assert_int_equal(elf.npast_eof, 0);
	assert_int_equal(elf.recommended, K(64));
	execfolio_elf_free(&elf);

	spec.file_size = K(64);
	parse_ok(&spec, &elf);
	assert_int_equal(elf.npast_eof, 1);
	assert_true(elf.segments[0].past_eof);
	assert_true(elf.contpte_ok);
	assert_int_equal(elf.recommended, 0);
	assert_int_equal(execfolio_elf_recommend(&elf), 0);
	execfolio_elf_free(&elf);
}

/* "PATH: REASON", what the conventions of <execfolio/error.h> ask. */
static void assert_file_error(const char *err, const char *path,
			      const char *reason)
{
	char want[EXECFOLIO_ERR_MAX];

	snprintf(want, sizeof(want), "%s: %s", path, reason);
	assert_string_equal(err, want);
}

static void test_file_errors(void **state)
{
	struct execfolio_elf elf;
	char err[EXECFOLIO_ERR_MAX] = "";
	char *path = test_write_temp("", 0);
	char dir[] = "/tmp/execfolio-unit.XXXXXX", fifo[64];

	assert_int_equal(execfolio_elf_analyse_file(path, &elf, err,
						    sizeof(err)),
			 -EINVAL);
	assert_file_error(err, path, "empty file");
	unlink(path);
	assert_int_equal(execfolio_elf_analyse_file(path, &elf, err,
						    sizeof(err)),
			 -ENOENT);
	assert_file_error(err, path, strerror(ENOENT));
	free(path);

	assert_int_equal(execfolio_elf_analyse_file("/tmp", &elf, err,
						    sizeof(err)),
			 -EISDIR);
	assert_file_error(err, "/tmp", "is a directory");
	assert_int_equal(execfolio_elf_analyse_file("/dev/null", &elf, err,
						    sizeof(err)),
			 -ENODEV);
	assert_file_error(err, "/dev/null", "not a regular file");

	/* Must not block waiting for a writer. */
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(execfolio_elf_analyse_file(fifo, &elf, err,
						    sizeof(err)),
			 -ENODEV);
	unlink(fifo);
	rmdir(dir);

	path = test_write_temp("#!/bin/sh\n", 10);
	assert_int_equal(
		execfolio_elf_analyse_file(path, &elf, err, sizeof(err)), 0);
	assert_int_equal(elf.type, EXECFOLIO_ELF_NONE);
	unlink(path);
	free(path);
}

/*
 * A caller that wants only the errno passes no buffer; a short buffer gets
 * the start of the message, NUL-terminated.
 */
static void test_error_buffer(void **state)
{
	struct test_elf spec = { .elf_class = 64, .e_type = ET_EXEC };
	struct execfolio_elf elf;
	char err[8];
	size_t len;
	uint8_t *img = test_elf_build(&spec, &len);

	img[EI_CLASS] = ELFCLASSNONE;
	assert_int_equal(execfolio_elf_parse(img, len, &elf, NULL, 0), -EINVAL);
	assert_int_equal(execfolio_elf_analyse_file("/tmp", &elf, NULL, 0),
			 -EISDIR);
	assert_int_equal(execfolio_elf_parse(img, len, &elf, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "unknown");
	assert_int_equal(execfolio_elf_analyse_file("/tmp", &elf, err,
						    sizeof(err)),
			 -EISDIR);
	assert_string_equal(err, "/tmp: i");
	free(img);
}

/* Bytes this process has read through read()/pread() so far. */
static uint64_t bytes_read_so_far(void)
{
	FILE *f = fopen("/proc/self/io", "r");
	char line[128];
	unsigned long long rchar = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "rchar: %llu", &rchar) == 1)
			break;
	fclose(f);
	return rchar;
}

/*
 * A 1 GiB sparse file whose program header table lies at 512 MiB: the
 * headers are found with pread() and the rest of the file is not read.
 */
static void test_large_file_reads_headers_only(void **state)
{
	const struct test_phdr phdrs[] = {
		{ PT_LOAD, PF_R | PF_X, M(2), M(6), M(3), 0x200000 },
	};
	const uint64_t phoff = M(512);
	struct test_elf spec = {
		.elf_class = 64,
		.big_endian = true,
		.e_type = ET_EXEC,
		.phdrs = phdrs,
		.nphdrs = 1,
		.set_phoff = true,
		.phoff = phoff,
	};
	struct execfolio_elf elf;
	char err[EXECFOLIO_ERR_MAX] = "";
	uint64_t before, after;
	size_t len;
	uint8_t *img = test_elf_build(&spec, &len);
	char *path = test_write_temp(img, sizeof(Elf64_Ehdr));
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, img + sizeof(Elf64_Ehdr),
				len - sizeof(Elf64_Ehdr), (off_t)phoff),
			 (ssize_t)(len - sizeof(Elf64_Ehdr)));
	assert_int_equal(ftruncate(fd, (off_t)M(1024)), 0);
	close(fd);

	before = bytes_read_so_far();
	assert_int_equal(
		execfolio_elf_analyse_file(path, &elf, err, sizeof(err)), 0);
	after = bytes_read_so_far();
	assert_int_equal(elf.nsegments, 1);
	assert_true(elf.big_endian);
	assert_false(elf.segments[0].past_eof);
	assert_int_equal(elf.recommended, M(2));
	execfolio_elf_free(&elf);
	print_message("# analysing a 1 GiB file read %llu bytes\n",
		      (unsigned long long)(after - before));
	/* The first page, one program header, and /proc/self/io itself. */
	assert_true(after - before < K(64));

	/* The same file cut before its program header table. */
	assert_int_equal(truncate(path, (off_t)phoff + 10), 0);
	assert_int_equal(execfolio_elf_analyse_file(path, &elf, err,
						    sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "truncated program header table"));
	unlink(path);
	free(path);
	free(img);
}

struct readelf_load {
	uint64_t offset, vaddr, filesz, align;
};

/*
 * The executable PT_LOAD segments and PT_INTERP presence as readelf -lW
 * sees them. Returns the number of segments, -1 if readelf could not run.
 */
static int readelf_exec_loads(const char *path, struct readelf_load *out,
			      int max, bool *has_interp)
{
	char cmd[512], line[512];
	FILE *p;
	int n = 0, status;

	snprintf(cmd, sizeof(cmd), "readelf -lW '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	*has_interp = false;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long off, vaddr, paddr, filesz, memsz;
		char *last, *flags;
		int used = 0;

		if (sscanf(line, " INTERP %llx", &off) == 1)
			*has_interp = true;
		if (sscanf(line, " LOAD %llx %llx %llx %llx %llx %n", &off,
			   &vaddr, &paddr, &filesz, &memsz, &used) != 5 ||
		    !used)
			continue;
		/* Flags ("R E", "RWE"...) then the alignment, last. */
		flags = line + used;
		last = strrchr(flags, ' ');
		if (!last || !memchr(flags, 'E', (size_t)(last - flags)))
			continue;
		if (n == max)
			return -1;
		out[n].offset = off;
		out[n].vaddr = vaddr;
		out[n].filesz = filesz;
		out[n].align = strtoull(last + 1, NULL, 16);
		n++;
	}
	status = pclose(p);
	return status == 0 ? n : -1;
}

static void check_against_readelf(const char *path, uint16_t machine)
{
	struct readelf_load loads[16];
	struct execfolio_elf elf;
	char err[EXECFOLIO_ERR_MAX] = "";
	bool has_interp = false;
	int n, i, ret;

	if (access(path, R_OK)) {
		print_message("# %s is not here\n", path);
		skip();
	}
	n = readelf_exec_loads(path, loads, 16, &has_interp);
	assert_true(n > 0);
	ret = execfolio_elf_analyse_file(path, &elf, err, sizeof(err));
	if (ret)
		fail_msg("%s", err);
	assert_int_equal(elf.machine, machine);
	assert_int_equal(elf.type,
			 has_interp ? EXECFOLIO_ELF_EXEC : EXECFOLIO_ELF_DYN);
	assert_int_equal(elf.nsegments, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(elf.segments[i].offset, loads[i].offset);
		assert_int_equal(elf.segments[i].vaddr, loads[i].vaddr);
		assert_int_equal(elf.segments[i].filesz, loads[i].filesz);
		assert_int_equal(elf.segments[i].align, loads[i].align);
		assert_false(elf.segments[i].past_eof);
	}
	print_message(
		"# %s: %d executable segment(s), %llu bytes of text, recommended %u\n",
		path, n, (unsigned long long)elf.text_bytes, elf.recommended);
	execfolio_elf_free(&elf);
}

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#define HOST_LIBC "/lib/x86_64-linux-gnu/libc.so.6"
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#define HOST_LIBC "/lib/aarch64-linux-gnu/libc.so.6"
#endif

static void test_real_executable(void **state)
{
	check_against_readelf("/bin/ls", HOST_MACHINE);
}

static void test_real_library(void **state)
{
	check_against_readelf(HOST_LIBC, HOST_MACHINE);
}

/* Installed by make deps (libc6-dev-arm64-cross). */
static void test_real_arm64_library(void **state)
{
	check_against_readelf("/usr/aarch64-linux-gnu/lib/libc.so.6",
			      EM_AARCH64);
}

/*
 * An open file gives what its path gives, from pread() alone (the file
 * offset does not move), and the same refusals.
 */
static void test_analyse_fd(void **state)
{
	struct execfolio_elf by_path, by_fd;
	char why[256] = "";
	char *path = test_write_temp("", 0);
	size_t i;
	int fd;

	assert_int_equal(execfolio_elf_analyse_file(HOST_LIBC, &by_path, why,
						    sizeof(why)),
			 0);
	fd = open(HOST_LIBC, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(lseek(fd, 10, SEEK_SET), 10);
	assert_int_equal(execfolio_elf_analyse_fd(fd, &by_fd, why, sizeof(why)),
			 0);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 10);
	close(fd);
	assert_int_equal(by_fd.type, by_path.type);
	assert_int_equal(by_fd.machine, by_path.machine);
	assert_int_equal(by_fd.nsegments, by_path.nsegments);
	assert_true(by_fd.nsegments > 0);
	for (i = 0; i < by_fd.nsegments; i++) {
		assert_int_equal(by_fd.segments[i].offset,
				 by_path.segments[i].offset);
		assert_int_equal(by_fd.segments[i].vaddr,
				 by_path.segments[i].vaddr);
		assert_int_equal(by_fd.segments[i].filesz,
				 by_path.segments[i].filesz);
	}
	assert_int_equal(by_fd.recommended, by_path.recommended);
	execfolio_elf_free(&by_fd);
	execfolio_elf_free(&by_path);

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(execfolio_elf_analyse_fd(fd, &by_fd, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "empty file");
	close(fd);
	unlink(path);
	free(path);

	fd = open("/tmp", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(execfolio_elf_analyse_fd(fd, &by_fd, why, sizeof(why)),
			 -EISDIR);
	assert_string_equal(why, "is a directory");
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(execfolio_elf_analyse_fd(fd, &by_fd, why, sizeof(why)),
			 -ENODEV);
	assert_string_equal(why, "not a regular file");
	close(fd);
	assert_int_equal(execfolio_elf_analyse_fd(-1, &by_fd, why, sizeof(why)),
			 -EBADF);
	assert_string_equal(why, strerror(EBADF));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_variants_pie),
		cmocka_unit_test(test_congruence_and_recommendation),
		cmocka_unit_test(test_several_segments),
		cmocka_unit_test(test_no_exec_segment),
		cmocka_unit_test(test_other_types_get_no_recommendation),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_hostile_headers),
		cmocka_unit_test(test_bad_identification),
		cmocka_unit_test(test_segments_past_eof),
		cmocka_unit_test(test_truncated_text_gets_no_size),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_error_buffer),
		cmocka_unit_test(test_large_file_reads_headers_only),
		cmocka_unit_test(test_real_executable),
		cmocka_unit_test(test_real_library),
		cmocka_unit_test(test_real_arm64_library),
		cmocka_unit_test(test_analyse_fd),
	};

	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
