// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vecstage VECTORS DIR: stage the files of the policy vectors whose xattr
 * is malformed (guest/vectors-offline.h) under DIR/vectors/, each with the
 * vector's mode and size and its xattr value byte for byte, for
 * mkfs.execfolio to copy into the test disk as it is.  The host kernel
 * knows nothing of the policy and stores any value; the guest's kernel
 * must ignore these when it reads the inode (guest/vmvectors.c).
 * Needs CAP_SYS_ADMIN (trusted.* xattrs).  Exit status: 0, 1 on an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest/vectors-offline.h"

static int stage(const struct execfolio_vector *vec, const char *top)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/" VECTORS_OFFLINE_FMT, top, vec->line);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, vec->file_size) ||
	    fchmod(fd, vec->mode & 07777) ||
	    fsetxattr(fd, EXECFOLIO_XATTR, vec->xattr.bytes, vec->xattr.len,
		      0)) {
		fprintf(stderr, "vecstage: %s (vector line %u): %s\n", path,
			vec->line, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct execfolio_vectors vecs;
	char err[256], dir[4096];
	unsigned int staged = 0;
	int ret = 0;
	size_t i;

	if (argc != 3) {
		fprintf(stderr, "usage: vecstage VECTORS DIR\n");
		return 2;
	}
	if (execfolio_vectors_load(argv[1], &vecs, err, sizeof(err))) {
		fprintf(stderr, "vecstage: %s\n", err);
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/vectors", argv[2]);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "vecstage: %s: %s\n", dir, strerror(errno));
		execfolio_vectors_free(&vecs);
		return 1;
	}
	for (i = 0; i < vecs.count && !ret; i++) {
		if (!vector_is_offline(&vecs.v[i]))
			continue;
		ret = stage(&vecs.v[i], argv[2]);
		staged++;
	}
	execfolio_vectors_free(&vecs);
	if (!ret && !staged) {
		fprintf(stderr,
			"vecstage: %s has no vector with a malformed xattr\n",
			argv[1]);
		return 1;
	}
	return ret;
}
