// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Path walking for set/get/clear/scan -r. nftw(3) has no user pointer, so
 * the walk in progress lives in one static; the command is single-threaded.
 */
#include <errno.h>
#include <ftw.h>
#include <string.h>

#include "execfolio.h"
#include "walk.h"

#define WALK_FDS 32

static struct {
	const char *cmd;
	walk_fn fn;
	void *ctx;
	dev_t dev; /* the file system of the directory being walked */
	int failed;
} walk;

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	/*
	 * Another file system mounted below: not crossed, but said, or a
	 * tree of mount points would be walked in silence.
	 */
	if ((type == FTW_D || type == FTW_F) && st->st_dev != walk.dev) {
		err_msg("%s: %s: note: a mount point, skipped (-r does not cross into other file systems; name it to visit it)",
			walk.cmd, path);
		/* Only a directory has a subtree to skip. */
		return type == FTW_D ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	}
	switch (type) {
	case FTW_F:
		if (S_ISREG(st->st_mode) && walk.fn(path, st, walk.ctx))
			walk.failed++;
		break;
	case FTW_DNR:
		err_msg("%s: %s: cannot read directory: %s", walk.cmd, path,
			strerror(errno ? errno : EACCES));
		walk.failed++;
		break;
	case FTW_NS:
		err_msg("%s: %s: cannot stat: %s", walk.cmd, path,
			strerror(errno ? errno : EACCES));
		walk.failed++;
		break;
	default:
		break;
	}
	return FTW_CONTINUE;
}

int walk_paths(const char *cmd, char **paths, int npaths, bool recursive,
	       walk_fn fn, void *ctx)
{
	struct stat st;
	int i;

	walk.cmd = cmd;
	walk.fn = fn;
	walk.ctx = ctx;
	walk.failed = 0;
	for (i = 0; i < npaths; i++) {
		if (stat(paths[i], &st)) {
			err_msg("%s: %s: %s", cmd, paths[i], strerror(errno));
			walk.failed++;
		} else if (S_ISREG(st.st_mode)) {
			if (fn(paths[i], &st, ctx))
				walk.failed++;
		} else if (S_ISDIR(st.st_mode) && recursive) {
			walk.dev = st.st_dev;
			if (nftw(paths[i], visit, WALK_FDS,
				 FTW_PHYS | FTW_ACTIONRETVAL)) {
				err_msg("%s: %s: %s", cmd, paths[i],
					strerror(errno));
				walk.failed++;
			}
		} else if (S_ISDIR(st.st_mode)) {
			err_msg("%s: %s: is a directory (use -r to recurse)",
				cmd, paths[i]);
			walk.failed++;
		} else {
			err_msg("%s: %s: not a regular file", cmd, paths[i]);
			walk.failed++;
		}
	}
	return walk.failed ? EXIT_FAILED : EXIT_OK;
}
