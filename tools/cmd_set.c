// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio set SIZE|auto PATH... and execfolio clear PATH...
 *
 * The size is validated before any file is touched, and the canonical form
 * is what gets written. Each file is changed with one setxattr/removexattr
 * call, so a failure leaves it as it was.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/applied.h>
#include <execfolio/elf.h>
#include <execfolio/mount.h>
#include <execfolio/policy.h>
#include <execfolio/xattr.h>

#include "execfolio.h"
#include "walk.h"

struct set_ctx {
	const char *cmd;
	bool auto_size;
	bool dry_run;
	bool verbose;
	bool if_unset;
	uint32_t size;
};

static const struct option set_options[] = {
	{ "recursive", no_argument, NULL, 'r' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "if-unset", no_argument, NULL, 'u' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void set_usage(void)
{
	printf("Usage: %s set [-r] [-n] [-v] [--if-unset] SIZE|auto PATH...\n"
	       "       %s clear [-r] [-n] [-v] PATH...\n\n"
	       "set writes the exec folio policy xattr (%s) on each file.\n"
	       "SIZE is " POLICY_SIZE_HELP ";\n"
	       "none opts a file out of the mount default. auto picks the size\n"
	       "`%s scan` recommends for ELF executables and shared libraries\n"
	       "and leaves other files alone. clear removes the xattr. Only XFS under a\n"
	       "kernel with the execfolio series applies the policy (execfoliofs records\n"
	       "it in its traces): elsewhere set still writes it, and warns once per file\n"
	       "system. Exit status: 0 success, 1 some file failed, 2 usage.\n\n"
	       "  -r, --recursive  visit regular files below directories\n"
	       "  -n, --dry-run    say what would be done, change nothing\n"
	       "  -v, --verbose    print each file changed\n"
	       "      --if-unset   set: leave files that have a valid policy xattr\n"
	       "                   alone (a malformed one is replaced, with a warning)\n",
	       progname, progname, EXECFOLIO_XATTR, progname);
}

static int pick_auto_size(struct set_ctx *ctx, const char *path, uint32_t *size)
{
	struct execfolio_elf elf;
	char err[EXECFOLIO_ERR_MAX];
	int ret;

	ret = execfolio_elf_analyse_file(path, &elf, err, sizeof(err));
	if (ret) {
		err_msg("%s: %s", ctx->cmd, err);
		return ret;
	}
	*size = elf.type == EXECFOLIO_ELF_EXEC ||
				elf.type == EXECFOLIO_ELF_DYN ?
			execfolio_elf_recommend(&elf) :
			0;
	if (elf.npast_eof)
		err_msg("%s: %s: warning: an executable segment runs past the end of the file (truncated or damaged); left alone",
			ctx->cmd, path);
	execfolio_elf_free(&elf);
	return 0;
}

/*
 * The attribute is written wherever the file system stores it (an image may
 * be built from this tree), but a user who tags files where nothing reads
 * the policy must hear that it changes nothing here: once per file system.
 */
static void warn_if_not_applied(struct set_ctx *ctx, const char *path)
{
	struct execfolio_applied applied;
	struct execfolio_mount mnt;
	char why[PATH_MAX + 256];
	int ret;

	ret = execfolio_mount_lookup(path, &mnt);
	if (!ret)
		ret = execfolio_applied_query(path, &mnt, &applied);
	if (ret) {
		err_msg("%s: %s: warning: cannot tell whether this system applies the policy: %s",
			ctx->cmd, path, strerror(-ret));
		return;
	}
	if (applied.by != EXECFOLIO_APPLIED_BY_NONE)
		return;
	err_msg("%s: %s: warning: %s; the attribute is stored%s", ctx->cmd,
		path,
		execfolio_not_applied_text(&applied, &mnt, why, sizeof(why)),
		applied.why == EXECFOLIO_NOT_APPLIED_FUSE ?
			" and traced" :
			", but it changes nothing on this system");
}

/*
 * --if-unset: whether @path has a policy to keep. A malformed value is
 * none (the kernel and the daemon ignore it): it is replaced, and said so.
 * Returns 1 to keep the file as it is, 0 to set it, -1 on failure.
 */
static int has_policy(struct set_ctx *ctx, const char *path)
{
	struct execfolio_stored stored;
	char err[EXECFOLIO_ERR_MAX];
	uint32_t size;
	int ret;

	ret = execfolio_xattr_get(path, &stored, err, sizeof(err));
	if (ret && ret != -E2BIG) {
		err_msg("%s: %s", ctx->cmd, err);
		return -1;
	}
	if (!stored.present)
		return 0;
	if (ret != -E2BIG &&
	    !execfolio_parse_size(stored.value, stored.len, &size))
		return 1;
	err_msg("%s: %s: warning: the stored %s is malformed, so it is no policy (the kernel ignores it): replacing it",
		ctx->cmd, path, EXECFOLIO_XATTR);
	return 0;
}

static int set_one(const char *path, const struct stat *st, void *data)
{
	struct set_ctx *ctx = data;
	char canon[EXECFOLIO_SIZE_STR];
	char err[EXECFOLIO_ERR_MAX];
	uint32_t size = ctx->size;
	int ret;

	if (ctx->if_unset) {
		ret = has_policy(ctx, path);
		if (ret < 0)
			return 1;
		if (ret) {
			if (ctx->verbose)
				printf("%s: left alone (has a policy)\n", path);
			return 0;
		}
	}
	if (ctx->auto_size) {
		/* An empty file is no ELF file: nothing to recommend. */
		if (!st->st_size)
			size = 0;
		else if (pick_auto_size(ctx, path, &size))
			return 1;
		if (!size) {
			if (ctx->verbose)
				printf("%s: left alone (%s recommends none)\n",
				       path, "scan");
			return 0;
		}
	}
	execfolio_format_size(size, canon);
	if (ctx->dry_run) {
		printf("%s: would set %s\n", path, canon);
		return 0;
	}
	ret = execfolio_xattr_set(path, size, err, sizeof(err));
	if (ret) {
		err_msg("%s: %s", ctx->cmd, err);
		return 1;
	}
	if (ctx->verbose)
		printf("%s: set %s\n", path, canon);
	if (fs_first_seen(st->st_dev))
		warn_if_not_applied(ctx, path);
	return 0;
}

static int clear_one(const char *path, const struct stat *st, void *data)
{
	struct set_ctx *ctx = data;
	struct execfolio_stored stored;
	char err[EXECFOLIO_ERR_MAX];
	int ret;

	if (ctx->dry_run) {
		/* Without the privilege every file looks bare: say "would". */
		if (execfolio_may_access_trusted() &&
		    !execfolio_xattr_get(path, &stored, NULL, 0) &&
		    !stored.present)
			printf("%s: would leave alone (has no policy xattr)\n",
			       path);
		else
			printf("%s: would clear\n", path);
		return 0;
	}
	ret = execfolio_xattr_remove(path, err, sizeof(err));
	/* An immutable file refuses even a removal of nothing. */
	if (ret == -EPERM && !execfolio_xattr_get(path, &stored, NULL, 0) &&
	    !stored.present)
		ret = 0;
	if (ret < 0) {
		err_msg("%s: %s", ctx->cmd, err);
		return 1;
	}
	if (ctx->verbose)
		printf(ret ? "%s: cleared\n" :
			     "%s: left alone (had no policy xattr)\n",
		       path);
	return 0;
}

static int set_or_clear(int argc, char **argv, bool clear)
{
	struct set_ctx ctx = { .cmd = argv[0] };
	bool recursive = false;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:rnvh", set_options, NULL)) !=
	       -1) {
		switch (opt) {
		case 'r':
			recursive = true;
			break;
		case 'n':
			ctx.dry_run = true;
			break;
		case 'v':
			ctx.verbose = true;
			break;
		case 'u':
			if (clear)
				return usage_error(
					ctx.cmd, "--if-unset is for set only");
			ctx.if_unset = true;
			break;
		case 'h':
			set_usage();
			return EXIT_OK;
		default:
			return option_error(ctx.cmd, opt, argv);
		}
	}

	if (!clear) {
		if (optind >= argc)
			return usage_error(ctx.cmd, "missing SIZE");
		if (!strcmp(argv[optind], "auto"))
			ctx.auto_size = true;
		else if (execfolio_parse_size_str(argv[optind], &ctx.size))
			return usage_error(
				ctx.cmd,
				"invalid size '%s': expected auto or " POLICY_SIZE_HELP,
				argv[optind]);
		optind++;
	}
	if (optind >= argc)
		return usage_error(ctx.cmd, "missing PATH");

	/* Fail once, before touching anything, rather than once per file. */
	if (!ctx.dry_run && !execfolio_may_access_trusted()) {
		char paths[PATH_MAX + 64];

		err_msg("%s: %s: changing %s needs CAP_SYS_ADMIN: run as root (nothing was changed)",
			ctx.cmd,
			paths_text(argv + optind, argc - optind, paths,
				   sizeof(paths)),
			EXECFOLIO_XATTR);
		return EXIT_FAILED;
	}
	return walk_paths(ctx.cmd, argv + optind, argc - optind, recursive,
			  clear ? clear_one : set_one, &ctx);
}

int cmd_set(int argc, char **argv)
{
	return set_or_clear(argc, argv, false);
}

int cmd_clear(int argc, char **argv)
{
	return set_or_clear(argc, argv, true);
}
