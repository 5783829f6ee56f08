/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The execfolio command: one file per subcommand, this header between them.
 */
#ifndef EXECFOLIO_TOOL_H
#define EXECFOLIO_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "frontend.h"

/* Each subcommand gets argv with argv[0] the subcommand name. */
int cmd_set(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_stat(int argc, char **argv);
/* Also execfoliofs --report, with argv[0] "--report". */
int cmd_report(int argc, char **argv);

struct execfolio_report;

/* report_table.c: the tables of `report`, a line per file after them. */
void report_print_tables(FILE *out, const struct execfolio_report *r,
			 const char *trace, bool per_file, bool all);
/* report_json.c: `report --json`. */
void report_print_json(FILE *out, const struct execfolio_report *r,
		       const char *trace, bool per_file);

/*
 * @paths as a message names them: "PATH" for one, "PATH (and N other
 * paths)" for more, into @buf of @len bytes. Returns @buf.
 */
const char *paths_text(char **paths, int npaths, char *buf, size_t len);

/*
 * @path on @out with backslash and newline written as \\ and \n, so that
 * a line of output stays one line per file.
 */
void print_path(FILE *out, const char *path);

/* True the first time a file of file system @dev is met in this run. */
bool fs_first_seen(dev_t dev);

#endif /* EXECFOLIO_TOOL_H */
