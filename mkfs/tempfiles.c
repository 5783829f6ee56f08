// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The build's temporary files: the hidden image next to IMAGE and the work
 * directory. A signal removes them (main.c), but SIGKILL or a crash cannot:
 * so each is locked (flock) by its run for as long as the run lives, the
 * kernel dropping the lock when the process dies however it dies, and a
 * later run removes those of its names that nobody holds.
 *
 * A run that makes one locks it right after, then checks that it still
 * has a name: a run cleaning up may have found it in between, unlocked,
 * and removed it, and then another is made.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mkfs.h"

/* What makes a name one of ours; mkstemp() and mkdtemp() add 6 letters. */
#define WORKDIR_PREFIX "mkfs.execfolio.work."
#define IMAGE_MARK ".mkfs.execfolio."
#define RANDOM_LETTERS 6
/* Tries at a name a run cleaning up does not take away at once. */
#define MAKE_TRIES 8

static bool random_letters(const char *s)
{
	size_t i;

	for (i = 0; i < RANDOM_LETTERS; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return !s[RANDOM_LETTERS];
}

static bool is_temp_name(const char *name, enum temp_kind kind)
{
	size_t len = strlen(name), mark = strlen(IMAGE_MARK);

	if (kind == TEMP_WORKDIR)
		return !strncmp(name, WORKDIR_PREFIX, strlen(WORKDIR_PREFIX)) &&
		       random_letters(name + strlen(WORKDIR_PREFIX));
	/* ".IMAGE.mkfs.execfolio.XXXXXX", IMAGE not empty */
	return name[0] == '.' && len > mark + RANDOM_LETTERS + 1 &&
	       !strncmp(name + len - RANDOM_LETTERS - mark, IMAGE_MARK, mark) &&
	       random_letters(name + len - RANDOM_LETTERS);
}

int remove_dir_at(int at, const char *dir, int depth)
{
	char buf[4096];
	long n, off;
	bool removed = true;
	int fd = openat(at, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

	if (fd < 0)
		return -1;
	/* Read again from the start while entries go, until none is left. */
	while (removed) {
		removed = false;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) >
		       0) {
			for (off = 0; off < n;) {
				struct dirent64 *de =
					(struct dirent64 *)(buf + off);

				off += de->d_reclen;
				if (!strcmp(de->d_name, ".") ||
				    !strcmp(de->d_name, ".."))
					continue;
				if (de->d_type == DT_DIR && depth < 8)
					remove_dir_at(fd, de->d_name,
						      depth + 1);
				else if (!unlinkat(fd, de->d_name, 0))
					removed = true;
			}
		}
	}
	close(fd);
	return unlinkat(at, dir, AT_REMOVEDIR);
}

/*
 * Whether @fd, open on @name in @dfd, is a leftover this run may remove:
 * nobody holds its lock, it is ours (the owner we run as: never follow
 * another user's names), and @name still is that file or directory.
 */
static bool unclaimed(int dfd, const char *name, int fd, enum temp_kind kind)
{
	struct stat st, now;

	if (flock(fd, LOCK_EX | LOCK_NB) || fstat(fd, &st) ||
	    st.st_uid != geteuid() ||
	    fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW))
		return false;
	if (st.st_dev != now.st_dev || st.st_ino != now.st_ino)
		return false;
	return kind == TEMP_WORKDIR ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

void temp_remove_leftovers(const char *dir, enum temp_kind kind)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		int fd, ret;

		if (!is_temp_name(de->d_name, kind))
			continue;
		fd = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
				    (kind == TEMP_WORKDIR ? O_DIRECTORY : 0));
		if (fd < 0)
			continue;
		if (unclaimed(dirfd(d), de->d_name, fd, kind)) {
			if (kind == TEMP_WORKDIR)
				ret = remove_dir_at(dirfd(d), de->d_name, 0);
			else
				ret = unlinkat(dirfd(d), de->d_name, 0);
			if (!ret)
				err_msg("removed %s/%s, left behind by a run "
					"that was killed",
					dir, de->d_name);
		}
		close(fd);
	}
	closedir(d);
}

/*
 * Lock @fd, just made: 0, or -EAGAIN when a run cleaning up removed it
 * before the lock was taken (make another), or another error. Where the
 * file system has no locks (NFS gives no exclusive lock on a directory
 * opened to read), it goes unlocked: a run cleaning up cannot lock it
 * either, and leaves it alone.
 */
static int claim(int fd)
{
	struct stat st;

	if (flock(fd, LOCK_EX) && errno == EINTR)
		return -EINTR;
	if (fstat(fd, &st))
		return -errno;
	return st.st_nlink ? 0 : -EAGAIN;
}

int temp_make_workdir(const char *parent, char *path, size_t size, int *lock)
{
	int tries, ret = -EAGAIN;

	temp_remove_leftovers(parent, TEMP_WORKDIR);
	for (tries = 0; ret == -EAGAIN && tries < MAKE_TRIES; tries++) {
		if ((size_t)snprintf(path, size, "%s/" WORKDIR_PREFIX "XXXXXX",
				     parent) >= size)
			return -ENAMETOOLONG;
		if (!mkdtemp(path))
			return -errno;
		*lock = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (*lock < 0) {
			/* ENOENT: removed as a leftover already. */
			ret = errno == ENOENT ? -EAGAIN : -errno;
		} else {
			ret = claim(*lock);
			if (ret)
				close(*lock);
		}
		if (ret && ret != -EAGAIN)
			rmdir(path);
	}
	if (ret)
		*lock = -1;
	return ret;
}

int temp_make_image(const char *dir, const char *base, char *path, size_t size,
		    int *fd)
{
	int tries, ret = -EAGAIN;

	temp_remove_leftovers(dir, TEMP_IMAGE);
	for (tries = 0; ret == -EAGAIN && tries < MAKE_TRIES; tries++) {
		/* Room for the mark in a name of at most 255 bytes. */
		if ((size_t)snprintf(path, size,
				     "%s/.%.200s" IMAGE_MARK "XXXXXX", dir,
				     base) >= size)
			return -ENAMETOOLONG;
		*fd = mkostemp(path, O_CLOEXEC);
		if (*fd < 0)
			return -errno;
		ret = claim(*fd);
		if (ret) {
			close(*fd);
			if (ret != -EAGAIN)
				unlink(path);
		}
	}
	if (ret)
		*fd = -1;
	return ret;
}
