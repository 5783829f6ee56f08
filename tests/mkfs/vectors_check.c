// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vectors_check MKFS_EXECFOLIO POLICY_VEC
 *
 * Runs mkfs.execfolio --dry-run with every "parse" value of the shared test
 * vectors, as --exec-folio-size VALUE and as --rule x=VALUE, on a tree
 * holding one executable file "x": a valid value must be accepted and
 * stored in its canonical form, an invalid one refused as a usage error
 * (exit status 2, a message). TAP output, one test per vector line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <execfolio/policy.h>

#include "../vectors/vectors.h"

struct result {
	int status;
	char out[256];
	char err[1024];
};

static void slurp(int fd, char *buf, size_t len)
{
	char drain[512];
	size_t got = 0;
	ssize_t n;

	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	buf[got] = '\0';
	/* Whatever does not fit is read and dropped, so the child ends. */
	while (read(fd, drain, sizeof(drain)) > 0)
		;
}

static int run(char *const argv[], struct result *r)
{
	int out[2], err[2], status;
	pid_t pid;

	if (pipe(out) || pipe(err))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	slurp(out[0], r->out, sizeof(r->out));
	slurp(err[0], r->err, sizeof(r->err));
	close(out[0]);
	close(err[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	return 0;
}

/* Empty when the tool did what the vector says, else what went wrong. */
static void check(const char *tool, const char *dir, const char *opt,
		  const char *arg, const struct execfolio_vector *v, char *why,
		  size_t whylen)
{
	char image[4096], want[64], canon[EXECFOLIO_SIZE_STR];
	char *argv[] = { (char *)tool, "--dry-run", (char *)opt, (char *)arg,
			 (char *)dir,  image,	    NULL };
	struct result r;

	snprintf(image, sizeof(image), "%s.img", dir);
	why[0] = '\0';
	if (run(argv, &r)) {
		snprintf(why, whylen, "cannot run %s", tool);
		return;
	}
	if (v->expect_einval) {
		if (r.status != 2 || !r.err[0])
			snprintf(why, whylen,
				 "%s accepted (exit %d, stdout '%s')", opt,
				 r.status, r.out);
		return;
	}
	snprintf(want, sizeof(want), "x %s\n",
		 execfolio_format_size(v->expect_size, canon));
	if (r.status != 0 || strcmp(r.out, want))
		snprintf(why, whylen, "%s: exit %d, stdout '%s', stderr '%s'",
			 opt, r.status, r.out, r.err);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/mkfs-vectors.XXXXXX", path[4200], err[256];
	char why[2048], rule[EXECFOLIO_VECTOR_VALUE_MAX + 4];
	struct execfolio_vectors vecs;
	size_t i, nparse = 0, nnul = 0, n = 0;
	int failed = 0, fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s MKFS_EXECFOLIO POLICY_VEC\n",
			argv[0]);
		return 2;
	}
	if (execfolio_vectors_load(argv[2], &vecs, err, sizeof(err))) {
		printf("1..0 # SKIP cannot load vectors: %s\n", err);
		return 1;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/x", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0755);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	close(fd);
	for (i = 0; i < vecs.count; i++) {
		if (vecs.v[i].kind != EXECFOLIO_VECTOR_PARSE)
			continue;
		nparse++;
		/* argv strings end at the first NUL: such values cannot be
		 * given on a command line at all. */
		if (memchr(vecs.v[i].value.bytes, '\0', vecs.v[i].value.len))
			nnul++;
	}
	printf("1..%zu\n", nparse - nnul);
	for (i = 0; i < vecs.count; i++) {
		const struct execfolio_vector *v = &vecs.v[i];
		char value[EXECFOLIO_VECTOR_VALUE_MAX + 1];

		if (v->kind != EXECFOLIO_VECTOR_PARSE ||
		    memchr(v->value.bytes, '\0', v->value.len))
			continue;
		memcpy(value, v->value.bytes, v->value.len);
		value[v->value.len] = '\0';
		n++;
		check(argv[1], dir, "--exec-folio-size", value, v, why,
		      sizeof(why));
		if (!why[0]) {
			snprintf(rule, sizeof(rule), "x=%s", value);
			check(argv[1], dir, "--rule", rule, v, why,
			      sizeof(why));
		}
		if (why[0]) {
			failed++;
			printf("not ok %zu - line %u\n# %s\n", n, v->line, why);
		} else {
			printf("ok %zu - line %u\n", n, v->line);
		}
	}
	printf("# %s: %zu parse lines checked with --exec-folio-size and "
	       "--rule; %zu more hold NUL bytes, which no command line can "
	       "carry\n",
	       argv[2], n, nnul);
	unlink(path);
	rmdir(dir);
	execfolio_vectors_free(&vecs);
	return failed ? 1 : 0;
}
