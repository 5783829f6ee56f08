// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio get PATH...: the stored value, the mount default and the
 * effective policy, resolved the way the kernel resolves it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/json.h>
#include <execfolio/kernel.h>
#include <execfolio/mount.h>
#include <execfolio/policy.h>
#include <execfolio/xattr.h>

#include "execfolio.h"
#include "walk.h"

struct get_ctx {
	const char *cmd;
	bool json;
	bool verbose;
	bool privileged;
	struct execfolio_json out;
};

/* What get learns about one file. */
struct file_policy {
	struct execfolio_stored stored;
	struct execfolio_mount mnt;
	bool mount_known;
	struct execfolio_policy policy;
	bool kernel_known; /* a patched kernel answered */
	struct execfolio_kernel_state kernel;
};

static const struct option get_options[] = {
	{ "recursive", no_argument, NULL, 'r' },
	{ "json", no_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void get_usage(void)
{
	printf("Usage: %s get [-r] [-v] [--json] PATH...\n\n"
	       "Prints one line per file: PATH SIZE SOURCE, where SIZE is the effective\n"
	       "exec folio size (0 for none) and SOURCE is xattr, mount or none, resolved\n"
	       "as the kernel does: %s > the mount's %s= default\n"
	       "(files with an execute bit) > none. -v adds the stored value and the mount\n"
	       "default. Reading %s needs CAP_SYS_ADMIN: without it the\n"
	       "policy cannot be told and SIZE SOURCE read \"? unknown\".\n\n"
	       "  -r, --recursive  visit regular files below directories\n"
	       "  -v, --verbose    add stored=, mount_default= and fs=\n"
	       "      --json       a JSON array, one object per file\n",
	       progname, EXECFOLIO_XATTR, EXECFOLIO_MOUNT_OPTION,
	       EXECFOLIO_XATTR);
}

static void stored_text(const struct execfolio_stored *stored, char *buf,
			size_t len)
{
	size_t i, n = 0;

	if (!stored->present) {
		snprintf(buf, len, "-");
		return;
	}
	/* Show what is there, escaping what would break a line. */
	for (i = 0; i < stored->len && i < sizeof(stored->value) && n + 5 < len;
	     i++) {
		unsigned char c = (unsigned char)stored->value[i];

		if (c > ' ' && c < 0x7f && c != '\\')
			buf[n++] = (char)c;
		else
			n += (size_t)snprintf(buf + n, len - n, "\\x%02x", c);
	}
	buf[n] = '\0';
}

static void print_line(struct get_ctx *ctx, const char *path,
		       const struct file_policy *fp)
{
	char size[EXECFOLIO_SIZE_STR], stored[64], mount[EXECFOLIO_SIZE_STR];

	if (!ctx->privileged)
		printf("%s ? unknown", path);
	else
		printf("%s %s %s", path,
		       fp->policy.size ?
			       execfolio_format_size(fp->policy.size, size) :
			       "0",
		       execfolio_source_name(fp->policy.source));
	if (ctx->verbose) {
		if (ctx->privileged)
			stored_text(&fp->stored, stored, sizeof(stored));
		else
			snprintf(stored, sizeof(stored), "?");
		printf(" stored=%s mount_default=%s fs=%s", stored,
		       fp->mnt.has_option ?
			       execfolio_format_size(fp->mnt.size, mount) :
			       "-",
		       fp->mount_known ? fp->mnt.fstype : "?");
		if (fp->kernel_known)
			printf(" kernel_order=%u pending=%s", fp->kernel.order,
			       fp->kernel.pending ? "yes" : "no");
	}
	putchar('\n');
}

static void print_json(struct get_ctx *ctx, const char *path,
		       const struct file_policy *fp)
{
	struct execfolio_json *j = &ctx->out;
	char size[EXECFOLIO_SIZE_STR], stored[64];

	execfolio_json_object(j, NULL);
	execfolio_json_string(j, "path", path);
	execfolio_json_bool(j, "known", ctx->privileged);
	if (ctx->privileged) {
		execfolio_json_string(j, "size",
				      execfolio_format_size(fp->policy.size,
							    size));
		execfolio_json_u64(j, "size_bytes", fp->policy.size);
		execfolio_json_string(j, "source",
				      execfolio_source_name(fp->policy.source));
		if (fp->stored.present) {
			stored_text(&fp->stored, stored, sizeof(stored));
			execfolio_json_string(j, "stored", stored);
			execfolio_json_bool(j, "stored_valid",
					    !fp->policy.xattr_invalid);
		}
	}
	if (fp->mount_known) {
		execfolio_json_string(j, "mount", fp->mnt.mountpoint);
		execfolio_json_string(j, "fs", fp->mnt.fstype);
	}
	if (fp->mnt.has_option)
		execfolio_json_string(j, "mount_default",
				      execfolio_format_size(fp->mnt.size,
							    size));
	if (fp->kernel_known) {
		execfolio_json_object(j, "kernel");
		execfolio_json_string(j, "size",
				      execfolio_format_size(fp->kernel.size,
							    size));
		execfolio_json_string(j, "source",
				      execfolio_source_name(fp->kernel.source));
		execfolio_json_u64(j, "order", fp->kernel.order);
		execfolio_json_u64(j, "page_size", fp->kernel.page_size);
		execfolio_json_bool(j, "pending", fp->kernel.pending);
		execfolio_json_bool(j, "deferred", fp->kernel.deferred);
		execfolio_json_end(j);
	}
	execfolio_json_end(j);
}

static int get_one(const char *path, const struct stat *st, void *data)
{
	struct get_ctx *ctx = data;
	struct execfolio_inode inode = { .mode = st->st_mode };
	struct file_policy fp;
	int ret;

	memset(&fp, 0, sizeof(fp));
	ret = execfolio_mount_lookup(path, &fp.mnt);
	if (ret) {
		err_msg("%s: %s: cannot find its mount: %s", ctx->cmd, path,
			strerror(-ret));
		return 1;
	}
	fp.mount_known = true;
	if (fp.mnt.option_invalid)
		err_msg("%s: %s: mount %s has a malformed %s= option; ignoring it",
			ctx->cmd, path, fp.mnt.mountpoint,
			EXECFOLIO_MOUNT_OPTION);
	/* The default exists only where the kernel parsed it: on XFS. */
	inode.has_mount = fp.mnt.has_option && !fp.mnt.option_invalid &&
			  !strcmp(fp.mnt.fstype, "xfs");
	inode.mount_size = fp.mnt.size;

	if (ctx->privileged) {
		ret = execfolio_xattr_get(path, &fp.stored);
		if (ret == -ENOTSUP) {
			ret = 0; /* no xattrs: nothing stored */
		} else if (ret && ret != -E2BIG) {
			err_msg("%s: %s: %s", ctx->cmd, path,
				execfolio_xattr_strerror(ret));
			return 1;
		}
		inode.has_xattr = fp.stored.present;
		inode.xattr = fp.stored.value;
		inode.xattr_len = fp.stored.len;
	}
	execfolio_resolve(&inode, &fp.policy);
	/* Only the patched XFS answers; elsewhere there is nothing to add. */
	if (ctx->privileged && !strcmp(fp.mnt.fstype, "xfs"))
		fp.kernel_known = !execfolio_kernel_query(path, &fp.kernel);
	if (ctx->privileged && fp.policy.xattr_invalid)
		err_msg("%s: %s: stored %s is malformed; the kernel ignores it (fix it with '%s set')",
			ctx->cmd, path, EXECFOLIO_XATTR, progname);

	if (ctx->json)
		print_json(ctx, path, &fp);
	else
		print_line(ctx, path, &fp);
	return 0;
}

int cmd_get(int argc, char **argv)
{
	struct get_ctx ctx = { .cmd = argv[0] };
	bool recursive = false;
	int opt, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+rvh", get_options, NULL)) !=
	       -1) {
		switch (opt) {
		case 'r':
			recursive = true;
			break;
		case 'j':
			ctx.json = true;
			break;
		case 'v':
			ctx.verbose = true;
			break;
		case 'h':
			get_usage();
			return EXIT_OK;
		default:
			return unknown_option(ctx.cmd, argv);
		}
	}
	if (optind >= argc)
		return usage_error(ctx.cmd, "missing PATH");

	ctx.privileged = execfolio_may_access_trusted();
	if (!ctx.privileged)
		err_msg("%s: cannot read %s without CAP_SYS_ADMIN, so the policy cannot be told: run as root",
			ctx.cmd, EXECFOLIO_XATTR);
	if (ctx.json) {
		execfolio_json_init(&ctx.out, stdout);
		execfolio_json_array(&ctx.out, NULL);
	}
	ret = walk_paths(ctx.cmd, argv + optind, argc - optind, recursive,
			 get_one, &ctx);
	if (ctx.json)
		execfolio_json_finish(&ctx.out);
	if (fflush(stdout)) {
		err_msg("%s: writing output: %s", ctx.cmd, strerror(errno));
		return EXIT_FAILED;
	}
	/* Unknown is not an answer: say so in the exit status too. */
	return ctx.privileged ? ret : EXIT_FAILED;
}
