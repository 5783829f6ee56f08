/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The execfolio command: one file per subcommand, this header between them.
 */
#ifndef EXECFOLIO_TOOL_H
#define EXECFOLIO_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "frontend.h"

/* Each subcommand gets argv with argv[0] the subcommand name. */
int cmd_set(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_stat(int argc, char **argv);

/*
 * @paths as a message names them: "PATH" for one, "PATH (and N other
 * paths)" for more, into @buf of @len bytes. Returns @buf.
 */
const char *paths_text(char **paths, int npaths, char *buf, size_t len);

/* True the first time a file of file system @dev is met in this run. */
bool fs_first_seen(dev_t dev);

#endif /* EXECFOLIO_TOOL_H */
