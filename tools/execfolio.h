/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The execfolio command: one file per subcommand, this header between them.
 */
#ifndef EXECFOLIO_TOOL_H
#define EXECFOLIO_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Exit statuses (DESIGN.md section 7.4). */
#define EXIT_OK 0
#define EXIT_FAILED 1
#define EXIT_USAGE 2

extern const char *progname;

/* Each subcommand gets argv with argv[0] the subcommand name. */
int cmd_set(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_stat(int argc, char **argv);

/* Print "execfolio: " and the message to stderr. */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error: message, a pointer to --help, and EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The usage error for what getopt_long() just refused. */
int unknown_option(const char *cmd, char **argv);

/*
 * @paths as a message names them: "PATH" for one, "PATH (and N other
 * paths)" for more, into @buf of @len bytes. Returns @buf.
 */
const char *paths_text(char **paths, int npaths, char *buf, size_t len);

/* True the first time a file of file system @dev is met in this run. */
bool fs_first_seen(dev_t dev);

#endif /* EXECFOLIO_TOOL_H */
