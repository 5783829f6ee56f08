// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Messages on standard error, in the one format of frontend.h.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/policy.h>

#include "frontend.h"

/* POLICY_SIZE_HELP spells these limits out. */
_Static_assert(EXECFOLIO_SIZE_MIN == 4096 && EXECFOLIO_SIZE_MAX == 2u << 20,
	       "POLICY_SIZE_HELP names other limits than policy.h");

void err_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int usage_hint(const char *cmd)
{
	fprintf(stderr, "Try '%s%s%s --help'.\n", progname, cmd ? " " : "",
		cmd ? cmd : "");
	return EXIT_USAGE;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s%s%s: ", progname, cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return usage_hint(cmd);
}

int option_error(const char *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	char letter[3] = { '-', (char)optopt, '\0' };
	bool is_long = arg[0] == '-' && arg[1] == '-';

	/*
	 * getopt_long() has moved past a long option that is unknown (optopt
	 * 0), missing its argument, or given one it does not take (optopt
	 * its value then), but not always past a bundle of short options
	 * ("-xy"): name the letter of those.
	 */
	if (c == ':')
		return usage_error(cmd, "option '%s' needs an argument",
				   is_long ? arg : letter);
	if (!is_long || (optopt && !strchr(arg, '=')))
		arg = letter;
	return usage_error(cmd, "unknown option '%s'", arg);
}
