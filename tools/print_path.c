// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A path in a line of output: one line per file must hold whatever bytes
 * the name has, so newline and backslash are escaped.
 */
#include "execfolio.h"

void print_path(FILE *out, const char *path)
{
	for (; *path; path++) {
		if (*path == '\\')
			fputs("\\\\", out);
		else if (*path == '\n')
			fputs("\\n", out);
		else
			fputc(*path, out);
	}
}
