// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The executable file mappings of /proc/PID/smaps, with the per-mapping
 * counters the folio accounting needs (Rss, Anonymous, PMD-mapped).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure_internal.h"

/*
 * A mapping's header line: "start-end perms offset major:minor inode name".
 * Counter lines ("Rss:   12 kB") never parse as all seven fields. @name
 * is the offset of the name field (padded with spaces, possibly empty).
 */
static bool parse_header(const char *line, struct exec_vma *vma, bool *exec,
			 int *name)
{
	unsigned long long start, end, offset, inode;
	unsigned int major, minor;
	char perms[8];

	*name = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu%n", &start, &end, perms,
		   &offset, &major, &minor, &inode, name) != 7)
		return false;
	memset(vma, 0, sizeof(*vma));
	vma->start = start;
	vma->end = end;
	/* A file mapping has an inode; anonymous memory and [vdso] have 0. */
	*exec = strlen(perms) >= 3 && perms[2] == 'x' && inode != 0;
	return true;
}

/* The name field of a header line: a path may hold spaces, not newlines. */
static char *header_path(const char *line, int name)
{
	const char *p = line + name;
	size_t len;

	p += strspn(p, " \t");
	len = strcspn(p, "\n");
	return strndup(p, len);
}

static void parse_counter(const char *line, struct exec_vma *vma)
{
	unsigned long long kb;
	char name[32];

	if (sscanf(line, "%31[^:]: %llu kB", name, &kb) != 2)
		return;
	if (!strcmp(name, "Rss"))
		vma->rss_kb = kb;
	else if (!strcmp(name, "Anonymous"))
		vma->anon_kb = kb;
	else if (!strcmp(name, "FilePmdMapped") ||
		 !strcmp(name, "ShmemPmdMapped"))
		vma->pmd_mapped_kb += kb;
}

int smaps_read_exec_vmas(int fd, struct exec_vma **vmas, size_t *nr)
{
	struct exec_vma *list = NULL, cur;
	size_t count = 0, max = 0;
	bool in_exec = false, exec;
	char *line = NULL;
	int name;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	fd = dup(fd);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	errno = 0;
	while (getline(&line, &cap, f) >= 0) {
		if (parse_header(line, &cur, &exec, &name)) {
			in_exec = exec;
			if (!exec)
				continue;
			cur.path = header_path(line, name);
			if (!cur.path) {
				ret = -ENOMEM;
				goto out;
			}
			if (count == max) {
				size_t nmax = max ? max * 2 : 16;
				struct exec_vma *n =
					realloc(list, nmax * sizeof(*n));

				if (!n) {
					free(cur.path);
					ret = -ENOMEM;
					goto out;
				}
				list = n;
				max = nmax;
			}
			list[count++] = cur;
		} else if (in_exec) {
			parse_counter(line, &list[count - 1]);
		}
	}
	if (ferror(f))
		ret = errno ? -errno : -EIO;
out:
	free(line);
	fclose(f);
	if (ret) {
		smaps_free_exec_vmas(list, count);
		return ret;
	}
	*vmas = list;
	*nr = count;
	return 0;
}

void smaps_free_exec_vmas(struct exec_vma *vmas, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(vmas[i].path);
	free(vmas);
}
