/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Visiting the files named on the command line, recursively with -r. */
#ifndef EXECFOLIO_WALK_H
#define EXECFOLIO_WALK_H

#include <stdbool.h>
#include <sys/stat.h>

/* Return 0 on success; non-zero counts the file as failed. */
typedef int (*walk_fn)(const char *path, const struct stat *st, void *ctx);

/*
 * Call @fn for each regular file among @paths. A named path is followed if
 * it is a symlink; a named directory is an error unless @recursive, in which
 * case the regular files below it are visited (symlinks and special files
 * below it are skipped, mount points are not crossed but each is named in
 * a note on stderr, which is no failure). Errors are reported
 * with the path and reason. Returns EXIT_OK, or EXIT_FAILED if @fn or the
 * walk failed for any path.
 */
int walk_paths(const char *cmd, char **paths, int npaths, bool recursive,
	       walk_fn fn, void *ctx);

#endif /* EXECFOLIO_WALK_H */
