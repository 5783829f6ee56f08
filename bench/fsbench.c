// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsbench: the file system figures of the execfoliofs benchmark, one
 * number per run on stdout.
 *
 *   fsbench seqread FILE           MB/s reading FILE in 1M blocks
 *   fsbench randread FILE N [uncache]
 *				    4K preads/s at N random offsets; with
 *				    uncache, FILE's cached pages are dropped
 *				    first (on a FUSE mount: the mount's pages
 *				    only, the backing file stays cached)
 *   fsbench meta DIR N             creates/s stats/s unlinks/s of N files
 *   fsbench lookup DIR N THREADS SECONDS
 *				    stat()s/s over DIR/f0..f(N-1) from THREADS
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int seqread(const char *path)
{
	static char buf[1 << 20];
	double t0 = now();
	long long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	printf("%.1f\n", total / (now() - t0) / 1e6);
	return 0;
}

static int randread(const char *path, long n, bool uncache)
{
	unsigned long long rng = 42;
	char buf[4096];
	struct stat st;
	double t0;
	long i;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) || st.st_size < 4096) {
		perror(path);
		return 1;
	}
	if (uncache && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) {
		fprintf(stderr, "%s: cannot drop cached pages\n", path);
		return 1;
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		if (pread(fd, buf, sizeof(buf),
			  ((rng >> 20) % (st.st_size / 4096)) * 4096) < 0) {
			perror("pread");
			return 1;
		}
	}
	close(fd);
	printf("%.0f\n", n / (now() - t0));
	return 0;
}

static int meta(const char *dir, long n)
{
	char path[4096];
	struct stat st;
	double t0, t1, t2, t3;
	long i;
	int fd;

	t0 = now();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/m%ld", dir, i);
		fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		close(fd);
	}
	t1 = now();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/m%ld", dir, i);
		if (stat(path, &st)) {
			perror(path);
			return 1;
		}
	}
	t2 = now();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/m%ld", dir, i);
		if (unlink(path)) {
			perror(path);
			return 1;
		}
	}
	t3 = now();
	printf("%.0f %.0f %.0f\n", n / (t1 - t0), n / (t2 - t1), n / (t3 - t2));
	return 0;
}

static const char *lookup_dir;
static long lookup_files;
static double lookup_end;

static void *lookup_worker(void *arg)
{
	unsigned long long rng = (unsigned long)arg + 1;
	long *count = malloc(sizeof(*count));
	char path[4096];
	struct stat st;

	if (!count)
		exit(1);
	*count = 0;
	while (now() < lookup_end) {
		int i;

		for (i = 0; i < 64; i++) {
			rng = rng * 6364136223846793005ull +
			      1442695040888963407ull;
			snprintf(path, sizeof(path), "%s/f%llu", lookup_dir,
				 (rng >> 20) % lookup_files);
			if (stat(path, &st)) {
				perror(path);
				exit(1);
			}
		}
		*count += 64;
	}
	return count;
}

static int lookup(const char *dir, long n, int threads, double seconds)
{
	pthread_t tid[16];
	long total = 0;
	double t0;
	int t;

	lookup_dir = dir;
	lookup_files = n;
	t0 = now();
	lookup_end = t0 + seconds;
	for (t = 0; t < threads; t++)
		pthread_create(&tid[t], NULL, lookup_worker,
			       (void *)(unsigned long)t);
	for (t = 0; t < threads; t++) {
		void *count;

		pthread_join(tid[t], &count);
		total += *(long *)count;
		free(count);
	}
	printf("%.0f\n", total / (now() - t0));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "seqread"))
		return seqread(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "randread"))
		return randread(argv[2], atol(argv[3]), false);
	if (argc == 5 && !strcmp(argv[1], "randread") &&
	    !strcmp(argv[4], "uncache"))
		return randread(argv[2], atol(argv[3]), true);
	if (argc == 4 && !strcmp(argv[1], "meta"))
		return meta(argv[2], atol(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "lookup") && atoi(argv[4]) >= 1 &&
	    atoi(argv[4]) <= 16)
		return lookup(argv[2], atol(argv[3]), atoi(argv[4]),
			      atof(argv[5]));
	fprintf(stderr, "usage: see the comment at the top of fsbench.c\n");
	return 2;
}
