// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfolio: tag executables with an exec folio policy, analyse ELF files
 * and measure how program text is backed by page-cache folios.
 */
#include <stdio.h>
#include <string.h>

#include "execfolio.h"

const char *progname = "execfolio";

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "set", cmd_set, "set SIZE|auto PATH...   tag files with a policy" },
	{ "get", cmd_get,
	  "get PATH...             show stored and effective policy" },
	{ "clear", cmd_clear,
	  "clear PATH...           remove the policy xattr" },
	{ "scan", cmd_scan,
	  "scan PATH...            analyse ELF executable segments" },
	{ "stat", cmd_stat,
	  "stat PID...|--cgroup DIR  measure text folio sizes" },
	{ "report", cmd_report,
	  "report TRACE            simulate each policy on an execfoliofs trace" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const char *paths_text(char **paths, int npaths, char *buf, size_t len)
{
	if (npaths <= 1)
		snprintf(buf, len, "%s", npaths ? paths[0] : "");
	else
		snprintf(buf, len, "%s (and %d other path%s)", paths[0],
			 npaths - 1, npaths > 2 ? "s" : "");
	return buf;
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: %s COMMAND [OPTIONS] ARGS...\n\nCommands:\n",
		progname);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %s\n", commands[i].summary);
	fprintf(out,
		"\n'%s COMMAND --help' describes a command; man execfolio(1) "
		"has the details.\nExit status: 0 success, 1 something failed, "
		"2 usage error.\n",
		progname);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("execfolio %s\n", EXECFOLIO_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);

	err_msg("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
