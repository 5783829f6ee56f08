// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execfoliofs --report [REPORT OPTIONS] TRACE: runs execfolio report with
 * the same arguments. The daemon holds none of the report's code: the
 * command is execfolio's (tools/cmd_report.c), so its options, output,
 * messages and exit status are that command's.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "execfoliofs.h"
#include "frontend.h"

/*
 * The directory of this program, from /proc/self/exe: a build tree and an
 * installation in one directory keep execfolio beside execfoliofs. NULL
 * when /proc is not mounted.
 */
static char *own_dir(void)
{
	char self[PATH_MAX];
	ssize_t len;

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return NULL;
	self[len] = '\0';
	return xstrdup(dirname(self));
}

int efs_run_report(int argc, char **argv)
{
	char **args = xcalloc((size_t)argc + 2, sizeof(*args));
	char *dir = own_dir(), *beside = NULL;
	int i;

	/* argv[0] is "--report": "execfolio report" takes its place. */
	args[0] = "execfolio";
	args[1] = "report";
	for (i = 1; i < argc; i++)
		args[i + 1] = argv[i];

	if (dir) {
		beside = xasprintf("%s/execfolio", dir);
		execv(beside, args);
		if (errno != ENOENT) {
			err_msg("--report: cannot run %s: %s", beside,
				strerror(errno));
			return EXIT_FAILED;
		}
	}
	execvp("execfolio", args);
	if (errno != ENOENT)
		err_msg("--report: cannot run execfolio from PATH: %s",
			strerror(errno));
	else
		err_msg("--report runs execfolio report, but execfolio is "
			"neither in %s nor in PATH: install execfolio or add "
			"its directory to PATH",
			dir ? dir : "the directory of execfoliofs");
	return EXIT_FAILED;
}
