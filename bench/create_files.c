// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * benchhelper create DIR N: create N empty files DIR/f0 ... (open with
 * O_CREAT | O_EXCL, close), then open and close each of them again, in
 * one process, so that benchhelper run counts the instructions of file
 * creation and of the opens that follow it with nothing else around
 * them: what the series may add to every create and open of a file
 * system that does not use it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "create_files.h"

static int open_each(const char *dir, unsigned long count, int flags)
{
	char path[PATH_MAX];
	unsigned long i;
	int fd;

	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/f%lu", dir, i);
		fd = open(path, flags, 0644);
		if (fd < 0) {
			fprintf(stderr, "benchhelper: create: %s: %s\n", path,
				strerror(errno));
			return 1;
		}
		close(fd);
	}
	return 0;
}

int cmd_create(int argc, char **argv)
{
	unsigned long count;
	char *end;

	if (argc != 2) {
		fprintf(stderr, "usage: benchhelper create DIR N\n");
		return 2;
	}
	errno = 0;
	count = strtoul(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || !count) {
		fprintf(stderr,
			"benchhelper: create: bad count '%s': give a number of files\n",
			argv[1]);
		return 2;
	}
	if (open_each(argv[0], count, O_WRONLY | O_CREAT | O_EXCL))
		return 1;
	return open_each(argv[0], count, O_RDONLY);
}
