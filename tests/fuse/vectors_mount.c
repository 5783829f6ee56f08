// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared policy vectors against a running execfoliofs.
 *
 *   vectors_mount --list-mounts VECTORS
 *	print each pair of mount values of the resolve vectors, "SIZE SCOPE"
 *	("-" for one left out; both left out is not listed), that can be
 *	given as -o exec_folio_size=SIZE,exec_folio_scope=SCOPE, with "ok" or
 *	"EINVAL" (what the daemon must do with them)
 *   vectors_mount VECTORS BACKING MNT SIZE|- [SCOPE|-]
 *	"- -": every parse vector as a setxattr through MNT (malformed:
 *	EINVAL; valid: stored as given), and the resolve vectors without
 *	mount values; otherwise the resolve vectors with those mount values
 *	(SCOPE left out is "-"). A resolve vector becomes a node of its mode
 *	made in BACKING, with its xattr written there (as if offline), whose
 *	policy is then read through MNT (trusted.execfoliofs.policy). The
 *	order is the kernel's business and is not checked here.
 *
 * Prints how many lines were checked; exit 0 when all agree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "../vectors/vectors.h"

static bool argv_safe(const struct execfolio_vector_value *v)
{
	size_t i;

	if (!v->len)
		return false;
	for (i = 0; i < v->len; i++)
		if (v->bytes[i] <= ' ' || v->bytes[i] > '~' ||
		    v->bytes[i] == ',' || v->bytes[i] == '\\')
			return false;
	return true;
}

static bool same_value(const struct execfolio_vector_value *a,
		       const struct execfolio_vector_value *b)
{
	return a->present == b->present && a->len == b->len &&
	       !memcmp(a->bytes, b->bytes, a->len);
}

/* "-" for a value left out. */
static void print_value(const struct execfolio_vector_value *v)
{
	if (v->present)
		printf("%.*s", (int)v->len, v->bytes);
	else
		putchar('-');
}

static int list_mounts(const struct execfolio_vectors *vecs)
{
	size_t i, j;

	for (i = 0; i < vecs->count; i++) {
		const struct execfolio_vector *v = &vecs->v[i];
		bool seen = false;

		if (v->kind != EXECFOLIO_VECTOR_RESOLVE ||
		    (!v->mount.present && !v->scope.present) ||
		    (v->mount.present && !argv_safe(&v->mount)) ||
		    (v->scope.present && !argv_safe(&v->scope)))
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = vecs->v[j].kind == EXECFOLIO_VECTOR_RESOLVE &&
			       same_value(&vecs->v[j].mount, &v->mount) &&
			       same_value(&vecs->v[j].scope, &v->scope);
		if (seen)
			continue;
		print_value(&v->mount);
		putchar(' ');
		print_value(&v->scope);
		printf(" %s\n", v->expect_einval ? "EINVAL" : "ok");
	}
	return 0;
}

/* Does @v hold @arg, "-" meaning left out? */
static bool value_is(const struct execfolio_vector_value *v, const char *arg)
{
	if (!strcmp(arg, "-"))
		return !v->present;
	return v->present && v->len == strlen(arg) &&
	       !memcmp(v->bytes, arg, v->len);
}

static int check_parse(const struct execfolio_vector *v, const char *mnt)
{
	char path[4096], got[EXECFOLIO_VECTOR_VALUE_MAX];
	ssize_t n;
	int ret;

	snprintf(path, sizeof(path), "%s/parse-target", mnt);
	ret = setxattr(path, EXECFOLIO_XATTR, v->value.bytes, v->value.len, 0);
	if (v->expect_einval) {
		if (ret == 0 || errno != EINVAL) {
			printf("# line %u: setxattr gave %s, expected EINVAL\n",
			       v->line, ret ? strerror(errno) : "success");
			return 1;
		}
		return 0;
	}
	if (ret) {
		printf("# line %u: setxattr failed: %s\n", v->line,
		       strerror(errno));
		return 1;
	}
	n = getxattr(path, EXECFOLIO_XATTR, got, sizeof(got));
	if (n != (ssize_t)v->value.len || memcmp(got, v->value.bytes, n)) {
		printf("# line %u: value not stored as given\n", v->line);
		return 1;
	}
	return 0;
}

static int make_node(const char *path, mode_t mode)
{
	int ret;

	switch (mode & S_IFMT) {
	case S_IFDIR:
		ret = mkdir(path, 0700);
		break;
	case S_IFLNK:
		return symlink("target", path);
	case S_IFREG:
		ret = mknod(path, S_IFREG | 0600, 0);
		break;
	default:
		ret = mknod(path, (mode & S_IFMT) | 0600, makedev(1, 3));
	}
	return ret ? ret : chmod(path, mode & 07777);
}

static int check_resolve(const struct execfolio_vector *v, const char *backing,
			 const char *mnt)
{
	char bpath[4096], mpath[4096], got[128], want[128];
	char canon[EXECFOLIO_SIZE_STR];
	ssize_t n;

	snprintf(bpath, sizeof(bpath), "%s/resolve-%u", backing, v->line);
	snprintf(mpath, sizeof(mpath), "%s/resolve-%u", mnt, v->line);
	if (make_node(bpath, v->mode)) {
		printf("# line %u: cannot make %s: %s\n", v->line, bpath,
		       strerror(errno));
		return 1;
	}
	if (S_ISREG(v->mode) && truncate(bpath, v->file_size))
		return 1;
	if (v->xattr.present &&
	    lsetxattr(bpath, EXECFOLIO_XATTR, v->xattr.bytes, v->xattr.len,
		      0) &&
	    S_ISREG(v->mode)) {
		printf("# line %u: cannot set the xattr on %s: %s\n", v->line,
		       bpath, strerror(errno));
		return 1;
	}
	n = lgetxattr(mpath, "trusted.execfoliofs.policy", got,
		      sizeof(got) - 1);
	if (n < 0) {
		printf("# line %u: reading the policy of %s: %s\n", v->line,
		       mpath, strerror(errno));
		return 1;
	}
	got[n] = '\0';
	snprintf(want, sizeof(want), "%s %s%s",
		 execfolio_format_size(v->expect_size, canon),
		 execfolio_source_name(v->expect_source),
		 v->expect_xattr_invalid ? " invalid-xattr" : "");
	if (strcmp(got, want)) {
		printf("# line %u: policy \"%s\", expected \"%s\"\n", v->line,
		       got, want);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct execfolio_vectors vecs;
	size_t i, parse = 0, resolve = 0, wrong = 0;
	const char *size_arg, *scope_arg;
	char err[512], path[4096];
	bool no_options;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "--list-mounts")) {
		if (execfolio_vectors_load(argv[2], &vecs, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		return list_mounts(&vecs);
	}
	if (argc != 5 && argc != 6) {
		fprintf(stderr,
			"usage: vectors_mount VECTORS BACKING MNT SIZE|- [SCOPE|-]\n");
		return 2;
	}
	if (execfolio_vectors_load(argv[1], &vecs, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	size_arg = argv[4];
	scope_arg = argc == 6 ? argv[5] : "-";
	no_options = !strcmp(size_arg, "-") && !strcmp(scope_arg, "-");
	if (no_options) {
		snprintf(path, sizeof(path), "%s/parse-target", argv[3]);
		fd = open(path, O_CREAT | O_WRONLY, 0755);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		close(fd);
	}
	for (i = 0; i < vecs.count; i++) {
		const struct execfolio_vector *v = &vecs.v[i];

		if (v->kind == EXECFOLIO_VECTOR_PARSE) {
			if (!no_options)
				continue;
			parse++;
			wrong += check_parse(v, argv[3]);
			continue;
		}
		if (v->expect_einval)
			continue; /* the daemon refuses to start: see --list */
		if (!value_is(&v->mount, size_arg) ||
		    !value_is(&v->scope, scope_arg))
			continue;
		resolve++;
		wrong += check_resolve(v, argv[2], argv[3]);
	}
	printf("# execfoliofs: checked %zu vector lines (%zu parse, %zu resolve), %zu wrong\n",
	       parse + resolve, parse, resolve, wrong);
	execfolio_vectors_free(&vecs);
	return wrong || !(parse + resolve) ? 1 : 0;
}
