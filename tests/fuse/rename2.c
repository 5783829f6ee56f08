// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rename2 noreplace|exchange|none OLD NEW: renameat2(2) with that flag;
 * prints "ok" or the errno name (EEXIST, ...) and exits 0 either way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	unsigned int flags = 0;

	if (argc != 4) {
		fprintf(stderr,
			"usage: rename2 noreplace|exchange|none OLD NEW\n");
		return 2;
	}
	if (!strcmp(argv[1], "noreplace"))
		flags = RENAME_NOREPLACE;
	else if (!strcmp(argv[1], "exchange"))
		flags = RENAME_EXCHANGE;
	if (renameat2(AT_FDCWD, argv[2], AT_FDCWD, argv[3], flags))
		printf("%s\n", strerrorname_np(errno));
	else
		printf("ok\n");
	return 0;
}
