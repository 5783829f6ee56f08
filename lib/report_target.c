// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where `execfolio report --apply DIR` stores a suggestion: the trace's
 * path under DIR, only when that path stays inside DIR. A trace is just a
 * text file; it must not be able to name /etc/x or ../x.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <execfolio/report.h>

static bool inside(const char *path)
{
	const char *p = path;

	/* "?": the daemon could not tell the file's path. */
	if (!*path || *path == '/' || !strcmp(path, "?"))
		return false;
	while (p) {
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return true;
}

int execfolio_report_target(const char *dir, const char *path, char *buf,
			    size_t len)
{
	int n;

	if (!inside(path))
		return -EINVAL;
	n = snprintf(buf, len, "%s/%s", dir, path);
	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	return 0;
}
