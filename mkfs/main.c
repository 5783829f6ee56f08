// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs.execfolio [OPTIONS] SOURCE_DIR IMAGE [-- MKFS_XFS_OPTIONS]
 *
 * Builds the image in a hidden temporary file next to IMAGE and renames it
 * into place only when everything worked, so a failed run never leaves an
 * image that looks good.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <execfolio/policy.h>

#include "mkfs.h"

const char *progname = "mkfs.execfolio";

/* Removed by the signal handler too: async-signal-safe unlink() only. */
static char tmp_image[4096];
static char workdir[4096];
/* Open, and locked (tempfiles.c), while they are in use; -1 if not. */
static int tmp_image_fd = -1;
static int workdir_lock = -1;

/* mkfs.xfs runs with the estimated size, then twice and four times that. */
#define MKFS_TRIES 3
/* Geometries asked of mkfs.xfs -N while fitting the default size. */
#define FIT_TRIES 4
/* Doublings of the default size for MKFS_XFS_OPTIONS: up to 128 times. */
#define GROW_TRIES 8

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [OPTIONS] SOURCE_DIR IMAGE [-- MKFS_XFS_OPTIONS]\n"
		"\n"
		"Build an XFS image file from SOURCE_DIR, without root, with the "
		"exec folio\npolicy (trusted.exec_folio_size) on the chosen "
		"files.\n"
		"\n"
		"  --exec-folio-size SIZE  on regular files with an execute bit\n"
		"  --auto                  on ELF executables and shared "
		"libraries, the size\n"
		"                          `execfolio scan` recommends\n"
		"  --rule GLOB=SIZE        on files whose path below SOURCE_DIR "
		"matches GLOB\n"
		"                          (fnmatch, no flags; a leading / is "
		"the image root);\n"
		"                          repeatable, applied last, the last "
		"match wins;\n"
		"                          SIZE none stores \"none\"\n"
		"  --size SIZE             image size (k/m/g/t suffix; default: "
		"fits the tree,\n"
		"                          at least 300m)\n"
		"  --force                 replace an existing IMAGE\n"
		"  --report FILE           write the per-file report of "
		"differences to FILE\n"
		"                          (default: standard error)\n"
		"  --strict                fail if the image differs from the "
		"source at all\n"
		"  --check                 run xfs_repair -n on the image "
		"before keeping it\n"
		"  -n, --dry-run           make the checks a build makes, print "
		"the policy\n"
		"                          chosen for each file and stop\n"
		"  -v, --verbose           say what was built\n"
		"  -h, --help              this text\n"
		"      --version           print the version and exit\n"
		"\n"
		"SIZE: " POLICY_SIZE_HELP ".\n"
		"Exit status: 0 success, 1 failure (no image made), 2 usage "
		"error.\nSee mkfs.execfolio(8).\n",
		progname);
}

/*
 * Interrupted: stop mkfs.xfs or xfs_db, remove the temporary image and the
 * work directory, then die of the signal. IMAGE itself is only ever
 * replaced by the final rename, so an interrupted --force leaves it as it
 * was.
 */
static void on_signal(int sig)
{
	pid_t child = running_child;

	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (tmp_image[0])
		unlink(tmp_image);
	if (workdir[0])
		remove_dir_at(AT_FDCWD, workdir, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void cleanup(bool keep_image)
{
	if (!keep_image && tmp_image[0])
		unlink(tmp_image);
	tmp_image[0] = '\0';
	if (tmp_image_fd >= 0)
		close(tmp_image_fd);
	tmp_image_fd = -1;
	/* For debugging: keep the protofile and the xfs_db batches. */
	if (workdir[0] && getenv("MKFS_EXECFOLIO_KEEP_WORKDIR"))
		err_msg("work directory kept: %s", workdir);
	else if (workdir[0])
		nftw(workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	workdir[0] = '\0';
	/* Unlocked once removed: a run cleaning up then finds nothing. */
	if (workdir_lock >= 0)
		close(workdir_lock);
	workdir_lock = -1;
}

/* An exit on the way (out_of_memory()) leaves no image either. */
static void cleanup_at_exit(void)
{
	cleanup(false);
}

enum {
	OPT_EXEC_SIZE = 256,
	OPT_AUTO,
	OPT_RULE,
	OPT_SIZE,
	OPT_FORCE,
	OPT_REPORT,
	OPT_STRICT,
	OPT_CHECK,
	OPT_VERSION,
};

/* --dry-run: "PATH VALUE" for each file that gets the policy xattr. */
static void print_policies(const struct tree *t)
{
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		const struct node *n = &t->nodes[i];

		for (j = 0; j < n->nxattrs; j++) {
			const struct xattr *x = &n->xattrs[j];

			if (!x->policy)
				continue;
			fput_escaped(stdout, n->rel, strlen(n->rel));
			putchar(' ');
			fput_escaped(stdout, x->value, x->len);
			putchar('\n');
		}
	}
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "exec-folio-size", required_argument, NULL, OPT_EXEC_SIZE },
		{ "auto", no_argument, NULL, OPT_AUTO },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int nopts = argc, i, c;

	/* Everything after the first "--" goes to mkfs.xfs untouched. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			nopts = i;
			o->mkfs_args = argv + i + 1;
			o->nmkfs_args = argc - i - 1;
			break;
		}
	}
	opterr = 0;
	while ((c = getopt_long(nopts, argv, ":nvh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_EXEC_SIZE:
			if (execfolio_parse_size_str(optarg, &o->exec_size))
				return usage_error(
					NULL,
					"--exec-folio-size '%s': not a policy "
					"size: expected " POLICY_SIZE_HELP,
					optarg);
			o->have_exec_size = true;
			break;
		case OPT_AUTO:
			o->auto_size = true;
			break;
		case OPT_RULE:
			o->rules = xrealloc(
				o->rules, (o->nrules + 1) * sizeof(*o->rules));
			if (parse_rule(optarg, &o->rules[o->nrules]))
				return usage_hint(NULL);
			o->nrules++;
			break;
		case OPT_SIZE:
			if (parse_image_size(optarg, &o->image_size))
				return usage_hint(NULL);
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_REPORT:
			o->report = optarg;
			break;
		case OPT_STRICT:
			o->strict = true;
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		case OPT_VERSION:
			printf("%s %s\n", progname, EXECFOLIO_VERSION);
			exit(EXIT_OK);
		default:
			return option_error(NULL, c, argv);
		}
	}
	if (nopts - optind != 2)
		return usage_error(NULL, "expected SOURCE_DIR and IMAGE%s",
				   nopts - optind > 2 ?
					   " (MKFS_XFS_OPTIONS go after --)" :
					   "");
	o->source = argv[optind];
	o->image = argv[optind + 1];
	/* Found now, not once the image is built. */
	if (!o->source[0] || !o->image[0])
		return usage_error(NULL, "%s is empty: expected a path",
				   o->source[0] ? "IMAGE" : "SOURCE_DIR");
	if (o->image[strlen(o->image) - 1] == '/')
		return usage_error(NULL,
				   "IMAGE %s ends in '/': expected the path of "
				   "the image file",
				   o->image);
	return 0;
}

/* IMAGE's directory takes new files: found before the tree is read. */
static int check_image_dir(const struct options *o)
{
	char *copy = xstrdup(o->image);
	const char *dir = dirname(copy);
	int ret = 0;

	if (access(dir, W_OK | X_OK)) {
		err_msg("cannot create IMAGE %s in %s: %s", o->image, dir,
			strerror(errno));
		ret = -1;
	}
	free(copy);
	return ret;
}

static int check_image_path(const struct options *o)
{
	struct stat st;

	if (lstat(o->image, &st)) {
		if (errno == ENOENT)
			return check_image_dir(o);
		err_msg("cannot use IMAGE %s: %s", o->image, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		err_msg("IMAGE %s exists and is not a regular file; "
			"mkfs.execfolio writes image files only",
			o->image);
		return -1;
	}
	if (!o->force) {
		err_msg("IMAGE %s exists; use --force to replace it", o->image);
		return -1;
	}
	return 0;
}

static int make_workdir(void)
{
	const char *tmpdir = getenv("TMPDIR");
	int err;

	if (!tmpdir || !tmpdir[0])
		tmpdir = "/tmp";
	err = temp_make_workdir(tmpdir, workdir, sizeof(workdir),
				&workdir_lock);
	if (err) {
		err_msg("cannot create a work directory in %s: %s", tmpdir,
			strerror(-err));
		workdir[0] = '\0';
		return -1;
	}
	return 0;
}

static int make_temp_image(const struct options *o, uint64_t size)
{
	char *copy = xstrdup(o->image), *copy2 = xstrdup(o->image), *dir;
	int err, ret = -1;

	/* Absolute: mkfs.xfs and xfs_db run in the work directory. */
	dir = realpath(dirname(copy), NULL);
	if (!dir) {
		err_msg("cannot use the directory of IMAGE %s: %s", o->image,
			strerror(errno));
		goto out;
	}
	err = temp_make_image(dir, basename(copy2), tmp_image,
			      sizeof(tmp_image), &tmp_image_fd);
	if (err) {
		err_msg("cannot create a file next to IMAGE %s: %s", o->image,
			strerror(-err));
		tmp_image[0] = '\0';
		goto out;
	}
	if (ftruncate(tmp_image_fd, size)) {
		err_msg("cannot size %s to %llu bytes: %s", tmp_image,
			(unsigned long long)size, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(dir);
	free(copy);
	free(copy2);
	return ret;
}

/* As other tools create files: mode 0666 less the umask. */
static int keep_image(const struct options *o)
{
	mode_t mask = umask(0);

	umask(mask);
	if (fchmod(tmp_image_fd, 0666 & ~mask) || fsync(tmp_image_fd)) {
		err_msg("cannot set the mode of and sync %s: %s", tmp_image,
			strerror(errno));
		return -1;
	}
	if (rename(tmp_image, o->image)) {
		err_msg("cannot rename %s to %s: %s", tmp_image, o->image,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void summary(const struct options *o, const struct tree *t,
		    const struct xfsprogs *x, uint64_t size)
{
	size_t i, j, tagged = 0;

	for (i = 0; i < t->count; i++)
		for (j = 0; j < t->nodes[i].nxattrs; j++)
			tagged += t->nodes[i].xattrs[j].policy;
	printf("%s: %zu entries, %zu with %s, %llu MiB, xfsprogs %d.%d, "
	       "%zu differences reported\n",
	       o->image, t->count, tagged, EXECFOLIO_XATTR,
	       (unsigned long long)(size >> 20), x->major, x->minor,
	       report_count());
}

/*
 * mkfs.xfs -N's geometry for an image of *@size, which, when it is the
 * default, doubles while MKFS_XFS_OPTIONS need a larger image (-d
 * agcount=16: every allocation group must hold a 64 MB log).
 */
static int fitted_geometry(const struct xfsprogs *x, const struct options *o,
			   uint64_t *size, struct geometry *g)
{
	int tries, err;

	for (tries = 0;; tries++) {
		err = image_geometry(x, o, workdir, *size,
				     !o->image_size && tries < GROW_TRIES, g);
		if (err != -ENOSPC)
			return err;
		*size *= 2;
	}
}

static int build(const struct options *o)
{
	/* The options with what fit.c adds to MKFS_XFS_OPTIONS. */
	struct options eff = *o;
	unsigned int inodesize = 0;
	struct xfsprogs x;
	struct geometry geo;
	struct tree t;
	uint64_t size, least;
	char *proto = NULL;
	int ret = EXIT_FAILED, tries;

	if ((!o->dry_run && check_image_path(o)) || xfsprogs_find(&x))
		return EXIT_FAILED;
	if (report_open(o->report))
		return EXIT_FAILED;
	if (tree_read(&t, o->source, o->auto_size) || select_policies(&t, o))
		goto out;
	/* What a build refuses, a dry run refuses too: the same checks. */
	if (names_assign(&t))
		goto out;
	size = o->image_size ? o->image_size : image_default_size(&t, 512);
	if (make_workdir() || fitted_geometry(&x, &eff, &size, &geo))
		goto out;
	if (fit_inode_size(&t, &eff, &geo, &inodesize) &&
	    fitted_geometry(&x, &eff, &size, &geo))
		goto out;
	/* No smaller than the options need. */
	least = size;
	/* The allocation groups grow with the size: until it holds. */
	for (tries = 0; !o->image_size && tries < FIT_TRIES; tries++) {
		uint64_t want = fit_default_size(&t, &geo);

		if (want < least)
			want = least;
		if (want == size)
			break;
		size = want;
		if (fitted_geometry(&x, &eff, &size, &geo))
			goto out;
	}
	if (tree_check(&t, &geo))
		goto out;
	if (o->dry_run) {
		if (o->strict && report_count()) {
			err_msg("--strict: the image would differ from %s in "
				"%zu ways (listed above)",
				o->source, report_count());
			goto out;
		}
		print_policies(&t);
		ret = EXIT_OK;
		goto out;
	}
	if (make_temp_image(o, size))
		goto out;
	proto = xasprintf("%s/protofile", workdir);
	if (proto_write(&t, proto, workdir))
		goto out;
	for (tries = 0;; tries++) {
		int err = image_mkfs(&x, &eff, tmp_image, proto, workdir, size);

		if (!err)
			break;
		if (err != -ENOSPC || tries == MKFS_TRIES - 1) {
			if (err == -ENOSPC)
				err_msg("the tree does not fit in %llu MiB, the "
					"largest size tried: give a larger "
					"--size",
					(unsigned long long)(size >> 20));
			goto out;
		}
		/* Files of a directory share an allocation group: grow. */
		size *= 2;
		if (truncate(tmp_image, 0) || truncate(tmp_image, size)) {
			err_msg("cannot size %s: %s", tmp_image,
				strerror(errno));
			goto out;
		}
	}
	if (fixup_image(&t, &x, tmp_image, workdir))
		goto out;
	if (o->check && image_repair_check(&x, tmp_image))
		goto out;
	if (o->strict && report_count()) {
		err_msg("--strict: the image would differ from %s in %zu "
			"ways (listed above); no image made",
			o->source, report_count());
		goto out;
	}
	if (keep_image(o))
		goto out;
	if (o->verbose)
		summary(o, &t, &x, size);
	ret = EXIT_OK;
out:
	if (ret != EXIT_OK && report_count() && o->report)
		err_msg("the report is in %s", o->report);
	cleanup(ret == EXIT_OK);
	if (report_close() && ret == EXIT_OK) {
		err_msg("cannot write the report %s", o->report);
		ret = EXIT_FAILED;
	}
	free(proto);
	tree_free(&t);
	if (inodesize) {
		free(eff.mkfs_args[eff.nmkfs_args - 1]);
		free(eff.mkfs_args[eff.nmkfs_args - 2]);
		free(eff.mkfs_args);
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret;
	atexit(cleanup_at_exit);
	{
		struct sigaction sa = { .sa_handler = on_signal };

		/* Other signals wait until the first handler is done. */
		sigfillset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		/* A reader of the messages gone: clean up all the same. */
		sigaction(SIGPIPE, &sa, NULL);
	}
	ret = build(&o);
	while (o.nrules--)
		free(o.rules[o.nrules].glob);
	free(o.rules);
	return ret;
}
