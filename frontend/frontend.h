/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the three programs (execfolio, mkfs.execfolio, execfoliofs) share at
 * their edge and libexecfolio, which prints no messages, must not hold:
 * messages on standard error, the exit statuses, allocation that gives up
 * with a message, and the help text of the policy size grammar.
 *
 * Each program defines progname; messages start with it.
 */
#ifndef EXECFOLIO_FRONTEND_H
#define EXECFOLIO_FRONTEND_H

#include <stddef.h>

/* Exit statuses of all three programs (DESIGN.md section 7.4). */
enum exit_status {
	EXIT_OK = 0,
	EXIT_FAILED = 1, /* something failed; a message said what */
	EXIT_USAGE = 2, /* the command line was wrong; nothing was done */
};

/*
 * The policy size grammar (DESIGN.md section 2.2) as every usage text and
 * error message tells it; message.c checks it against policy.h's limits.
 */
#define POLICY_SIZE_HELP \
	"a power of two from 4k to 2m (e.g. 64k, 2m, 65536), or 0/none"

extern const char *progname;

/*
 * "PROGNAME: MESSAGE" on standard error, the one format of every error and
 * warning; a warning says "warning:" after the file it is about.
 */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A usage error: "PROGNAME[ CMD]: MESSAGE", then the --help hint; returns
 * EXIT_USAGE. @cmd is the subcommand, or NULL.
 */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The --help hint alone, after a parser said what is wrong: EXIT_USAGE. */
int usage_hint(const char *cmd);

/*
 * The usage error for what getopt_long() refused, @c being what it returned:
 * '?' for an unknown option, ':' for a missing argument (the option string
 * starts with ':', after any '+', and opterr is 0).
 */
int option_error(const char *cmd, int c, char **argv);

/*
 * Out of memory in the programs' own bookkeeping: say so and exit with
 * EXIT_FAILED (atexit handlers clean up). The x* allocators call it.
 */
void out_of_memory(void) __attribute__((noreturn));
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* EXECFOLIO_FRONTEND_H */
