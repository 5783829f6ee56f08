// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio get PATH...: the stored value, the mount default with its scope
 * and the effective policy: what the kernel (patched XFS) applies, none where
 * nothing applies it (execfoliofs too: its daemon's policy, which it
 * traces, is shown beside).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/applied.h>
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
	bool said_unprivileged; /* the CAP_SYS_ADMIN message, once */
	bool any_unknown;
	struct execfolio_json out;
};

/* What get learns about one file. */
struct file_policy {
	struct execfolio_stored stored;
	struct execfolio_mount mnt;
	bool mount_known;
	/*
	 * Who applies what is known: always with CAP_SYS_ADMIN; without it
	 * wherever the answer does not depend on the hidden attribute.
	 */
	bool known;
	/*
	 * The stored value read as the kernel reads it, for xattr_invalid (a
	 * malformed value is ignored); what applies is in @applied.
	 */
	struct execfolio_policy policy;
	/* Who applies what (known when privileged). */
	struct execfolio_applied applied;
	char why[PATH_MAX + 256]; /* applied by none: the reason, in words */
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
	       "exec folio size (0 for none) and SOURCE is xattr, mount or none: what\n"
	       "the kernel applies on XFS with the execfolio series (%s >\n"
	       "the mount's %s= default, for the files its\n"
	       "%s= covers > none). Elsewhere nothing applies the\n"
	       "attribute: SIZE SOURCE read \"0 none\", and a note on stderr says\n"
	       "why. On execfoliofs the daemon resolves the policy for its traces, but\n"
	       "the kernel does not apply it: \"0 none\" too, -v shows the daemon's.\n"
	       "-v adds the stored value, the mount default, its scope and who applies\n"
	       "the policy.\n"
	       "Reading %s needs CAP_SYS_ADMIN: without it, where the\n"
	       "policy depends on it, SIZE SOURCE read \"? unknown\". Paths are printed\n"
	       "with backslash and newline as \\\\ and \\n.\n\n"
	       "  -r, --recursive  visit regular files below directories\n"
	       "  -v, --verbose    add stored=, mount_default=, mount_scope=, fs=,\n"
	       "                   applied_by= and why=\n"
	       "      --json       a JSON array, one object per file\n",
	       progname, EXECFOLIO_XATTR, EXECFOLIO_MOUNT_OPTION,
	       EXECFOLIO_SCOPE_OPTION, EXECFOLIO_XATTR);
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

/* The mount default as -v shows it; the daemon keeps its own to itself. */
static const char *mount_default_text(const struct file_policy *fp, char *buf)
{
	if (fp->mnt.has_option)
		return execfolio_format_size(fp->mnt.size, buf);
	if (!strcmp(fp->mnt.fstype, EXECFOLIO_FUSE_FSTYPE))
		return "?";
	return "-";
}

/*
 * The files the mount default covers, as -v and --json show it: the
 * option's value, exec (the kernel's default) on a mount with a default
 * and no exec_folio_scope=, NULL on a mount with neither option.
 */
static const char *mount_scope_name(const struct execfolio_mount *mnt)
{
	if (!mnt->has_scope && !mnt->has_option)
		return NULL;
	return execfolio_scope_name(mnt->scope);
}

/* The scope as -v shows it; "?" where the daemon keeps it to itself. */
static const char *mount_scope_text(const struct file_policy *fp)
{
	const char *name = mount_scope_name(&fp->mnt);

	if (name)
		return name;
	if (!strcmp(fp->mnt.fstype, EXECFOLIO_FUSE_FSTYPE))
		return "?";
	return "-";
}

/* " daemon_size=SIZE daemon_source=SOURCE[ daemon_invalid_xattr=yes]" */
static void print_daemon(const struct execfolio_daemon_policy *daemon)
{
	char size[EXECFOLIO_SIZE_STR];

	if (!daemon->known) {
		printf(" daemon_size=? daemon_source=?");
		return;
	}
	printf(" daemon_size=%s daemon_source=%s",
	       daemon->size ? execfolio_format_size(daemon->size, size) : "0",
	       execfolio_source_name(daemon->source));
	if (daemon->invalid_xattr)
		printf(" daemon_invalid_xattr=yes");
}

static void print_line(struct get_ctx *ctx, const char *path,
		       const struct file_policy *fp)
{
	char size[EXECFOLIO_SIZE_STR], stored[64], mount[EXECFOLIO_SIZE_STR];
	const struct execfolio_applied *applied = &fp->applied;

	print_path(stdout, path);
	if (!fp->known)
		printf(" ? unknown");
	else
		printf(" %s %s",
		       applied->size ?
			       execfolio_format_size(applied->size, size) :
			       "0",
		       execfolio_source_name(applied->source));
	if (ctx->verbose) {
		if (ctx->privileged)
			stored_text(&fp->stored, stored, sizeof(stored));
		else
			snprintf(stored, sizeof(stored), "?");
		printf(" stored=%s mount_default=%s mount_scope=%s fs=%s",
		       stored, mount_default_text(fp, mount),
		       mount_scope_text(fp),
		       fp->mount_known ? fp->mnt.fstype : "?");
		if (applied->by == EXECFOLIO_APPLIED_BY_KERNEL)
			printf(" kernel_order=%u pending=%s",
			       applied->kernel.order,
			       applied->kernel.pending ? "yes" : "no");
		if (fp->known)
			printf(" applied_by=%s",
			       execfolio_applier_name(applied->by));
		if (fp->known && applied->by == EXECFOLIO_APPLIED_BY_NONE)
			printf(" why=%s",
			       execfolio_not_applied_name(applied->why));
		if (fp->known && applied->why == EXECFOLIO_NOT_APPLIED_FUSE)
			print_daemon(&applied->daemon);
	}
	putchar('\n');
}

static void print_json(struct get_ctx *ctx, const char *path,
		       const struct file_policy *fp)
{
	struct execfolio_json *j = &ctx->out;
	char size[EXECFOLIO_SIZE_STR], stored[64];

	const struct execfolio_applied *applied = &fp->applied;

	execfolio_json_object(j, NULL);
	execfolio_json_string(j, "path", path);
	execfolio_json_bool(j, "known", fp->known);
	if (fp->known) {
		execfolio_json_string(
			j, "size", execfolio_format_size(applied->size, size));
		execfolio_json_u64(j, "size_bytes", applied->size);
		execfolio_json_string(j, "source",
				      execfolio_source_name(applied->source));
		execfolio_json_string(j, "applied_by",
				      execfolio_applier_name(applied->by));
		if (applied->by == EXECFOLIO_APPLIED_BY_NONE) {
			execfolio_json_string(
				j, "not_applied",
				execfolio_not_applied_name(applied->why));
			execfolio_json_string(j, "why", fp->why);
		}
	}
	if (ctx->privileged && fp->stored.present) {
		stored_text(&fp->stored, stored, sizeof(stored));
		execfolio_json_string(j, "stored", stored);
		execfolio_json_bool(j, "stored_valid",
				    !fp->policy.xattr_invalid);
	}
	if (fp->mount_known) {
		execfolio_json_string(j, "mount", fp->mnt.mountpoint);
		execfolio_json_string(j, "fs", fp->mnt.fstype);
	}
	if (fp->mnt.has_option)
		execfolio_json_string(j, "mount_default",
				      execfolio_format_size(fp->mnt.size,
							    size));
	if (mount_scope_name(&fp->mnt))
		execfolio_json_string(j, "mount_scope",
				      mount_scope_name(&fp->mnt));
	if (applied->daemon.known) {
		const struct execfolio_daemon_policy *d = &applied->daemon;

		execfolio_json_object(j, "daemon");
		execfolio_json_string(j, "size",
				      execfolio_format_size(d->size, size));
		execfolio_json_u64(j, "size_bytes", d->size);
		execfolio_json_string(j, "source",
				      execfolio_source_name(d->source));
		execfolio_json_bool(j, "invalid_xattr", d->invalid_xattr);
		execfolio_json_end(j);
	}
	if (applied->by == EXECFOLIO_APPLIED_BY_KERNEL) {
		const struct execfolio_kernel_state *k = &applied->kernel;

		execfolio_json_object(j, "kernel");
		execfolio_json_string(j, "size",
				      execfolio_format_size(k->size, size));
		execfolio_json_string(j, "source",
				      execfolio_source_name(k->source));
		execfolio_json_u64(j, "order", k->order);
		execfolio_json_u64(j, "page_size", k->page_size);
		execfolio_json_bool(j, "pending", k->pending);
		execfolio_json_bool(j, "deferred", k->deferred);
		execfolio_json_end(j);
	}
	execfolio_json_end(j);
}

/*
 * Who applies the policy of @path. Without CAP_SYS_ADMIN a kernel with the
 * series refuses its ioctl, and the answer stays unknown (fp->known false);
 * elsewhere nothing applies the attribute, whatever it holds.
 */
static int query_applied(struct get_ctx *ctx, const char *path,
			 struct file_policy *fp)
{
	int ret = execfolio_applied_query(path, &fp->mnt, &fp->applied);

	if (!ret) {
		fp->known = true;
		return 0;
	}
	if (!ctx->privileged && (ret == -EPERM || ret == -EACCES))
		return 0;
	err_msg("%s: %s: cannot ask %s which policy it applies: %s", ctx->cmd,
		path,
		strcmp(fp->mnt.fstype, "xfs") ? "the execfoliofs daemon" :
						"the kernel",
		ret == -EBADMSG ? "malformed answer" : strerror(-ret));
	return 1;
}

static int get_one(const char *path, const struct stat *st, void *data)
{
	struct get_ctx *ctx = data;
	struct execfolio_inode inode = { .mode = st->st_mode };
	struct file_policy fp;
	char err[EXECFOLIO_ERR_MAX];
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
	if (fp.mnt.scope_invalid)
		err_msg("%s: %s: mount %s has a malformed %s= option; ignoring it",
			ctx->cmd, path, fp.mnt.mountpoint,
			EXECFOLIO_SCOPE_OPTION);

	if (ctx->privileged) {
		ret = execfolio_xattr_get(path, &fp.stored, err, sizeof(err));
		if (ret == -ENOTSUP) {
			ret = 0; /* no xattrs: nothing stored */
		} else if (ret && ret != -E2BIG) {
			err_msg("%s: %s", ctx->cmd, err);
			return 1;
		}
		inode.has_xattr = fp.stored.present;
		inode.xattr = fp.stored.value;
		inode.xattr_len = fp.stored.len;
	}
	execfolio_resolve(&inode, &fp.policy);
	if (query_applied(ctx, path, &fp))
		return 1;
	if (!fp.known) {
		ctx->any_unknown = true;
		if (!ctx->said_unprivileged)
			err_msg("%s: %s: cannot read %s without CAP_SYS_ADMIN, so the policy cannot be told: run as root",
				ctx->cmd, path, EXECFOLIO_XATTR);
		ctx->said_unprivileged = true;
	} else if (fp.applied.by == EXECFOLIO_APPLIED_BY_NONE) {
		execfolio_not_applied_text(&fp.applied, &fp.mnt, fp.why,
					   sizeof(fp.why));
		if (fs_first_seen(st->st_dev))
			err_msg("%s: %s: note: %s; no policy is in effect (0 none)",
				ctx->cmd, path, fp.why);
	}
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
	while ((opt = getopt_long(argc, argv, "+:rvh", get_options, NULL)) !=
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
			return option_error(ctx.cmd, opt, argv);
		}
	}
	if (optind >= argc)
		return usage_error(ctx.cmd, "missing PATH");

	ctx.privileged = execfolio_may_access_trusted();
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
	return ctx.any_unknown ? EXIT_FAILED : ret;
}
