// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The processes of a cgroup subtree, as thpmaps --cgroup gathers them:
 * cgroup.procs of the directory and of every cgroup below it (cgroup v2 and
 * v1), or v1's tasks file where cgroup.procs is absent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <execfolio/measure.h>

struct pid_list {
	pid_t *pids;
	size_t nr, max;
};

static int push_pid(struct pid_list *l, pid_t pid)
{
	if (l->nr == l->max) {
		size_t max = l->max ? l->max * 2 : 64;
		pid_t *pids = realloc(l->pids, max * sizeof(*pids));

		if (!pids)
			return -ENOMEM;
		l->pids = pids;
		l->max = max;
	}
	l->pids[l->nr++] = pid;
	return 0;
}

/* Read the PIDs of one cgroup; -ENOENT when it has no list file. */
static int read_procs(int dirfd, struct pid_list *l)
{
	int fd = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	long pid;
	FILE *f;
	int ret = 0;

	if (fd < 0 && errno == ENOENT)
		fd = openat(dirfd, "tasks", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (!ret && fscanf(f, "%ld", &pid) == 1)
		if (pid > 0)
			ret = push_pid(l, (pid_t)pid);
	if (!ret && ferror(f))
		ret = -EIO;
	fclose(f);
	return ret;
}

static int walk(int dirfd, struct pid_list *l, int depth)
{
	struct dirent *de;
	DIR *dir;
	int ret;

	ret = read_procs(dirfd, l);
	if (ret)
		return ret;
	/* cgroupfs nests far less deeply than this. */
	if (depth > 64)
		return -ELOOP;
	dir = fdopendir(dup(dirfd));
	if (!dir)
		return -errno;
	while (!ret && (de = readdir(dir))) {
		int sub;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, ".."))
			continue;
		sub = openat(dirfd, de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			/* A child cgroup removed while we walk is no error. */
			if (errno != ENOENT)
				ret = -errno;
			continue;
		}
		ret = walk(sub, l, depth + 1);
		if (ret == -ENOENT)
			ret = 0;
		close(sub);
	}
	closedir(dir);
	return ret;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int execfolio_cgroup_pids(const char *dir, pid_t **pids, size_t *nr, char *err,
			  size_t errlen)
{
	struct pid_list l = { 0 };
	size_t i, n = 0;
	int fd, ret;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cgroup %s: %s", dir, strerror(-ret));
		return ret;
	}
	ret = walk(fd, &l, 0);
	close(fd);
	if (ret == -ENOENT)
		snprintf(
			err, errlen,
			"%s is not a cgroup directory (it has neither cgroup.procs nor tasks)",
			dir);
	else if (ret)
		snprintf(err, errlen,
			 "cgroup %s: cannot read its processes: %s", dir,
			 strerror(-ret));
	if (ret) {
		free(l.pids);
		return ret;
	}
	if (l.nr)
		qsort(l.pids, l.nr, sizeof(*l.pids), cmp_pid);
	for (i = 0; i < l.nr; i++)
		if (!n || l.pids[n - 1] != l.pids[i])
			l.pids[n++] = l.pids[i];
	*pids = l.pids;
	*nr = n;
	return 0;
}
