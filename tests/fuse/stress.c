// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress DIR THREADS ITERATIONS: threads create, write, read back, rename,
 * link, stat, list and unlink files in DIR at the same time, some names
 * private to a thread (contents checked) and some shared (renamed over
 * each other; ENOENT allowed where another thread may have won). Any other
 * error or wrong content is counted; exit 0 only with none.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *dir;
static unsigned long iterations;
static unsigned long errors;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void error(int t, unsigned long i, const char *what, int err)
{
	pthread_mutex_lock(&lock);
	if (errors++ < 20)
		printf("# thread %d iteration %lu: %s: %s\n", t, i, what,
		       err ? strerror(err) : "wrong content");
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	int t = (int)(long)arg, fd;
	char a[4096], b[4096], c[4096], data[256], got[256];
	unsigned long i;
	struct stat st;
	ssize_t n;

	for (i = 0; i < iterations; i++) {
		snprintf(a, sizeof(a), "%s/t%d-%lu", dir, t, i % 64);
		snprintf(b, sizeof(b), "%s/t%d-renamed-%lu", dir, t, i % 64);
		snprintf(c, sizeof(c), "%s/shared-%lu", dir, i % 8);
		n = snprintf(data, sizeof(data), "thread %d iteration %lu\n", t,
			     i);
		fd = open(a, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0) {
			error(t, i, "create", errno);
			continue;
		}
		if (write(fd, data, n) != n)
			error(t, i, "write", errno);
		close(fd);
		if (rename(a, b))
			error(t, i, "rename", errno);
		fd = open(b, O_RDONLY);
		if (fd < 0) {
			error(t, i, "open", errno);
		} else {
			if (read(fd, got, sizeof(got)) != n ||
			    memcmp(got, data, n))
				error(t, i, "read back", 0);
			close(fd);
		}
		if (link(b, a) || stat(a, &st) || st.st_nlink != 2)
			error(t, i, "link", errno);
		if (unlink(a))
			error(t, i, "unlink of the link", errno);
		/* Shared names: another thread may have moved it first. */
		if (rename(b, c) && errno != ENOENT)
			error(t, i, "rename onto a shared name", errno);
		if (stat(c, &st) && errno != ENOENT)
			error(t, i, "stat of a shared name", errno);
		if (unlink(c) && errno != ENOENT)
			error(t, i, "unlink of a shared name", errno);
		if (!(i % 32)) {
			DIR *d = opendir(dir);

			if (!d) {
				error(t, i, "opendir", errno);
				continue;
			}
			while (readdir(d))
				;
			closedir(d);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];
	int threads, t;

	if (argc != 4) {
		fprintf(stderr, "usage: stress DIR THREADS ITERATIONS\n");
		return 2;
	}
	dir = argv[1];
	threads = atoi(argv[2]);
	iterations = strtoul(argv[3], NULL, 0);
	if (threads < 1 || threads > 64)
		return 2;
	for (t = 0; t < threads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)(long)t);
	for (t = 0; t < threads; t++)
		pthread_join(tid[t], NULL);
	printf("# stress: %d threads x %lu iterations, %lu errors\n", threads,
	       iterations, errors);
	return errors ? 1 : 0;
}
