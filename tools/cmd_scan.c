// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio scan PATH...: where the executable segments of ELF files lie,
 * whether they can be mapped with contpte entries or PMDs, and the size
 * `set auto` would choose.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <execfolio/elf.h>
#include <execfolio/json.h>
#include <execfolio/policy.h>

#include "execfolio.h"
#include "walk.h"

struct scan_ctx {
	const char *cmd;
	bool json;
	bool header_printed; /* with the first row: none when all failed */
	struct execfolio_json out;
};

static const struct option scan_options[] = {
	{ "recursive", no_argument, NULL, 'r' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void scan_usage(void)
{
	printf("Usage: %s scan [-r] [--json] PATH...\n\n"
	       "Analyses ELF files: their executable PT_LOAD segments, the text size\n"
	       "(sum of p_filesz), whether every executable segment's p_vaddr and\n"
	       "p_offset are congruent modulo 64K (contpte) and 2M (PMD), and the size\n"
	       "`%s set auto` would apply: the largest of 2m, 64k and 16k at which\n"
	       "the segments are congruent and the text is at least that size, else\n"
	       "none (\"truncated\" when an executable segment runs past the end of the\n"
	       "file). Files that are not ELF are listed as such; malformed ones fail.\n\n"
	       "  -r, --recursive  visit regular files below directories\n"
	       "                   (symlinks and special files below them are skipped)\n"
	       "      --json       a JSON array, one object per file\n\n"
	       "Exit status: 0 success, 1 some file could not be analysed, 2 usage.\n",
	       progname, progname);
}

/* Sizes for people: 1023, 1.0K, 85.8K, 1.3M. */
static const char *human_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	double value = (double)bytes;
	int unit = -1;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64, bytes);
		return buf;
	}
	while (value >= 1024 && unit < (int)sizeof(units) - 2) {
		value /= 1024;
		unit++;
	}
	snprintf(buf, len, "%.1f%c", value, units[unit]);
	return buf;
}

static const char *yes_no(const struct execfolio_elf *elf, bool value)
{
	if (elf->nsegments == 0)
		return "-";
	return value ? "yes" : "no";
}

static void print_header(void)
{
	printf("%-14s %8s %8s %-7s %-3s %-11s %s\n", "TYPE", "SEGMENTS", "TEXT",
	       "CONTPTE", "PMD", "RECOMMENDED", "PATH");
}

static void print_row(struct scan_ctx *ctx, const char *path,
		      const struct execfolio_elf *elf)
{
	char text[32], size[EXECFOLIO_SIZE_STR];

	if (!ctx->header_printed) {
		print_header();
		ctx->header_printed = true;
	}

	if (elf->type == EXECFOLIO_ELF_NONE) {
		printf("%-14s %8s %8s %-7s %-3s %-11s ", "not-elf", "-", "-",
		       "-", "-", "none");
	} else {
		/* Text past the end of the file: say why there is no size. */
		printf("%-14s %8zu %8s %-7s %-3s %-11s ",
		       execfolio_elf_type_name(elf->type), elf->nsegments,
		       human_bytes(elf->text_bytes, text, sizeof(text)),
		       yes_no(elf, elf->contpte_ok), yes_no(elf, elf->pmd_ok),
		       elf->npast_eof ?
			       "truncated" :
			       execfolio_format_size(elf->recommended, size));
	}
	print_path(stdout, path);
	putchar('\n');
}

static void print_json(struct scan_ctx *ctx, const char *path,
		       const struct execfolio_elf *elf)
{
	struct execfolio_json *j = &ctx->out;
	char size[EXECFOLIO_SIZE_STR];
	size_t i;

	execfolio_json_object(j, NULL);
	execfolio_json_string(j, "path", path);
	execfolio_json_bool(j, "elf", elf->type != EXECFOLIO_ELF_NONE);
	execfolio_json_string(j, "type", execfolio_elf_type_name(elf->type));
	execfolio_json_array(j, "exec_segments");
	for (i = 0; i < elf->nsegments; i++) {
		const struct execfolio_segment *s = &elf->segments[i];

		execfolio_json_object(j, NULL);
		execfolio_json_u64(j, "offset", s->offset);
		execfolio_json_u64(j, "vaddr", s->vaddr);
		execfolio_json_u64(j, "filesz", s->filesz);
		execfolio_json_u64(j, "align", s->align);
		execfolio_json_bool(j, "past_eof", s->past_eof);
		execfolio_json_end(j);
	}
	execfolio_json_end(j);
	execfolio_json_u64(j, "text_bytes", elf->text_bytes);
	execfolio_json_bool(j, "contpte_ok", elf->contpte_ok);
	execfolio_json_bool(j, "pmd_ok", elf->pmd_ok);
	/* Why a well-aligned file may be recommended none. */
	execfolio_json_bool(j, "truncated", elf->npast_eof > 0);
	execfolio_json_string(j, "recommended",
			      execfolio_format_size(elf->recommended, size));
	execfolio_json_end(j);
}

static int scan_one(const char *path, const struct stat *st, void *data)
{
	struct scan_ctx *ctx = data;
	struct execfolio_elf elf;
	char err[EXECFOLIO_ERR_MAX];
	int ret;

	/*
	 * An empty file met while recursing is simply not ELF (a tree has
	 * many); a named one is refused before the walk (scan_path()).
	 */
	if (st->st_size == 0) {
		memset(&elf, 0, sizeof(elf));
	} else {
		ret = execfolio_elf_analyse_file(path, &elf, err, sizeof(err));
		if (ret) {
			err_msg("%s: %s", ctx->cmd, err);
			return ret;
		}
	}
	if (elf.npast_eof)
		err_msg("%s: %s: warning: %zu executable segment(s) reach beyond the end of the file (p_offset + p_filesz); the file is damaged or truncated, so no size is recommended for it",
			ctx->cmd, path, elf.npast_eof);
	if (ctx->json)
		print_json(ctx, path, &elf);
	else
		print_row(ctx, path, &elf);
	execfolio_elf_free(&elf);
	return 0;
}

static int scan_path(struct scan_ctx *ctx, char *path, bool recursive)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
		err_msg("%s: %s: empty file: nothing to analyse", ctx->cmd,
			path);
		return EXIT_FAILED;
	}
	return walk_paths(ctx->cmd, &path, 1, recursive, scan_one, ctx);
}

int cmd_scan(int argc, char **argv)
{
	struct scan_ctx ctx = { .cmd = "scan" };
	bool recursive = false;
	int opt, i, status = EXIT_OK;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:rh", scan_options, NULL)) !=
	       -1) {
		switch (opt) {
		case 'r':
			recursive = true;
			break;
		case 'j':
			ctx.json = true;
			break;
		case 'h':
			scan_usage();
			return EXIT_OK;
		default:
			return option_error(ctx.cmd, opt, argv);
		}
	}
	if (optind >= argc)
		return usage_error(ctx.cmd, "no PATH given");

	if (ctx.json) {
		execfolio_json_init(&ctx.out, stdout);
		execfolio_json_array(&ctx.out, NULL);
	}
	for (i = optind; i < argc; i++)
		if (scan_path(&ctx, argv[i], recursive) != EXIT_OK)
			status = EXIT_FAILED;
	if (ctx.json)
		execfolio_json_finish(&ctx.out);
	if (fflush(stdout) || ferror(stdout)) {
		err_msg("%s: cannot write the output: %s", ctx.cmd,
			strerror(errno));
		status = EXIT_FAILED;
	}
	return status;
}
