// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xfsprogs and the image: finding the programs, the default image size,
 * running mkfs.xfs on the protofile and the optional xfs_repair -n check.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "mkfs.h"

/* mkfs.xfs refuses data sections smaller than this. */
#define IMAGE_MIN_SIZE (300ull << 20)
/* Log, AG headers and free-space slack beyond the data and inodes. */
#define IMAGE_OVERHEAD (96ull << 20)
/* Free space below which a failed write is the host's file system full. */
#define HOST_FULL_BELOW (4ull << 20)
/* xfs_db's "path" command appeared in xfsprogs 5.10 (Debian 11 and later). */
#define XFSPROGS_MIN_MAJOR 5
#define XFSPROGS_MIN_MINOR 10

static int find_program(const char *name, char *out, size_t outlen)
{
	const char *env = getenv("XFSPROGS_PATH");
	char *list, *dir, *save = NULL;
	int found = -ENOENT;

	if (env)
		list = xstrdup(env);
	else
		list = xasprintf("%s:/usr/sbin:/sbin",
				 getenv("PATH") ? getenv("PATH") : "/usr/bin");
	for (dir = strtok_r(list, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if ((size_t)snprintf(out, outlen, "%s/%s", dir, name) >= outlen)
			continue;
		if (!access(out, X_OK)) {
			found = 0;
			break;
		}
	}
	free(list);
	return found;
}

static int xfsprogs_version(struct xfsprogs *x)
{
	char *argv[] = { x->mkfs, "-V", NULL };
	char path[] = "/tmp/mkfs.execfolio-version.XXXXXX";
	char line[256] = "";
	const char *v;
	FILE *f;
	int fd, ret;

	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	close(fd);
	ret = run_program(argv, NULL, path, "/dev/null");
	f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	unlink(path);
	v = strstr(line, "version ");
	if (ret || !v || sscanf(v + 8, "%d.%d", &x->major, &x->minor) != 2) {
		err_msg("cannot tell the version of %s (its -V said: %s)",
			x->mkfs, line[0] ? line : "nothing");
		return -EINVAL;
	}
	return 0;
}

int xfsprogs_find(struct xfsprogs *x)
{
	static const struct {
		const char *name;
		size_t off;
	} progs[] = {
		{ "mkfs.xfs", offsetof(struct xfsprogs, mkfs) },
		{ "xfs_db", offsetof(struct xfsprogs, db) },
		{ "xfs_repair", offsetof(struct xfsprogs, repair) },
	};
	size_t i;

	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		char *slot = (char *)x + progs[i].off;

		if (find_program(progs[i].name, slot, sizeof(x->mkfs))) {
			err_msg("%s not found in %s: install xfsprogs "
				"(Debian: apt-get install xfsprogs)",
				progs[i].name,
				getenv("XFSPROGS_PATH") ?
					"$XFSPROGS_PATH" :
					"$PATH, /usr/sbin or /sbin");
			return -ENOENT;
		}
	}
	if (xfsprogs_version(x))
		return -EINVAL;
	if (x->major < XFSPROGS_MIN_MAJOR ||
	    (x->major == XFSPROGS_MIN_MAJOR && x->minor < XFSPROGS_MIN_MINOR)) {
		err_msg("xfsprogs %d.%d is too old: %d.%d or later is needed "
			"(xfs_db's path command)",
			x->major, x->minor, XFSPROGS_MIN_MAJOR,
			XFSPROGS_MIN_MINOR);
		return -EINVAL;
	}
	return 0;
}

uint64_t image_default_size(const struct tree *t, unsigned int inodesize)
{
	uint64_t meta = 0, size;
	size_t i;

	for (i = 0; i < t->count; i++) {
		const struct node *n = &t->nodes[i];

		/* The inode, its directory entry, and room for xattrs. */
		meta += 512 + inodesize;
		if (n->type == NODE_DIR)
			meta += 4096 + n->nchildren * 64;
		if (n->type == NODE_SYMLINK)
			meta += 4096;
	}
	size = (t->data_bytes + meta) / 4 * 5 + IMAGE_OVERHEAD;
	size = (size + (1ull << 20) - 1) & ~((1ull << 20) - 1);
	return size < IMAGE_MIN_SIZE ? IMAGE_MIN_SIZE : size;
}

int parse_image_size(const char *arg, uint64_t *size)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	if (arg[0] < '0' || arg[0] > '9')
		goto bad;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg)
		goto bad;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		end++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		end++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		end++;
		break;
	case 't':
	case 'T':
		shift = 40;
		end++;
		break;
	}
	if (*end || (shift && v > (ULLONG_MAX >> shift)))
		goto bad;
	*size = (uint64_t)v << shift;
	if (*size < IMAGE_MIN_SIZE) {
		err_msg("--size %s: mkfs.xfs needs at least 300m", arg);
		return -EINVAL;
	}
	return 0;
bad:
	err_msg("--size %s: expected bytes with an optional k, m, g or t "
		"suffix, e.g. 2g",
		arg);
	return -EINVAL;
}

/* mkfs.xfs's messages, without the usage text it adds to a refusal. */
static void show_file(const char *path, const char *prefix)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Usage: ", 7)) {
			fprintf(stderr, "%s(usage text left out)\n", prefix);
			break;
		}
		fprintf(stderr, "%s%s", prefix, line);
	}
	fclose(f);
}

/* Whether a line of @path holds one of the NULL-terminated @what. */
static bool file_mentions(const char *path, const char *const *what)
{
	char line[1024];
	bool found = false;
	size_t i;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		for (i = 0; what[i] && !found; i++)
			found = strstr(line, what[i]) != NULL;
	fclose(f);
	return found;
}

/*
 * Whether the file system that holds @path has no room left: mkfs.xfs
 * writes the image until it runs out. Some of what mkfs.xfs then says
 * (ENOSPC) reads like the image being full, some (a short write, EIO)
 * like a bad device; the free space tells.
 */
static bool host_full(const char *path, uint64_t *avail)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return false;
	*avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	return *avail < HOST_FULL_BELOW;
}

/* mkfs.xfs runs in the C locale: strerror(ENOSPC) in its messages. */
static const char *const no_space_said[] = {
	"No space left on device",
	NULL,
};

int image_mkfs(const struct xfsprogs *x, const struct options *o,
	       const char *tmp_image, const char *proto, const char *workdir,
	       uint64_t size)
{
	char **argv = xcalloc(o->nmkfs_args + 8, sizeof(char *));
	char *err_path = xasprintf("%s/mkfs.err", workdir);
	uint64_t avail;
	bool no_space;
	int argc = 0, i, ret;

	argv[argc++] = (char *)x->mkfs;
	argv[argc++] = "-q";
	argv[argc++] = "-p";
	argv[argc++] = (char *)proto;
	for (i = 0; i < o->nmkfs_args; i++)
		argv[argc++] = o->mkfs_args[i];
	argv[argc++] = (char *)tmp_image;
	argv[argc] = NULL;
	ret = run_program(argv, workdir, "/dev/null", err_path);
	if (ret > 0 && host_full(tmp_image, &avail)) {
		err_msg("mkfs.xfs failed (see its messages below):");
		show_file(err_path, "  mkfs.xfs: ");
		err_msg("the file system that holds IMAGE %s is full (%llu KiB "
			"free): the image takes as much room as the data of "
			"the tree and the log and metadata of the new file "
			"system; free some space there or write IMAGE to "
			"another file system",
			o->image, (unsigned long long)(avail >> 10));
		ret = -EIO;
		goto out;
	}
	no_space = ret > 0 && file_mentions(err_path, no_space_said);
	/* The default size is an estimate: the caller retries larger. */
	if (no_space && !o->image_size) {
		ret = -ENOSPC;
	} else if (ret) {
		err_msg("mkfs.xfs failed (%s):",
			ret < 0 ? strerror(-ret) : "see its messages below");
		show_file(err_path, "  mkfs.xfs: ");
		/* Other failures (bad options after --) need no other size. */
		if (no_space)
			err_msg("the tree does not fit in %llu MiB: give a "
				"larger --size (or none, to fit the tree)",
				(unsigned long long)(size >> 20));
		ret = -EIO;
	}
out:
	free(err_path);
	free(argv);
	return ret;
}

int image_repair_check(const struct xfsprogs *x, const char *image)
{
	char *argv[] = { (char *)x->repair, "-n", (char *)image, NULL };
	int ret;

	ret = run_program(argv, NULL, "/dev/null", "/dev/null");
	if (ret) {
		err_msg("xfs_repair -n found problems in the new image; "
			"run it on %s for details (the image is not kept)",
			image);
		return -EIO;
	}
	return 0;
}

static bool geometry_value(const char *line, const char *key, unsigned int *v)
{
	const char *p = strstr(line, key);

	return p && sscanf(p + strlen(key), "%u", v) == 1;
}

/*
 * What mkfs.xfs 6.1 says when MKFS_XFS_OPTIONS need a larger image than
 * @size: more allocation groups than a log of at least 64 MB leaves room
 * for (-d agcount=16 wants 1.1 GB), allocation groups or a log larger than
 * the image.
 */
static const char *const too_small_said[] = {
	"Log size must be at least",
	"too small, need at least",
	"last AG size",
	"filesystem is too small",
	"must fit in allocation group",
	"Must fit within an allocation group",
	"of data subvolume is too small",
	"too big, data area is",
	NULL,
};

int image_geometry(const struct xfsprogs *x, const struct options *o,
		   const char *workdir, uint64_t size, bool may_grow,
		   struct geometry *g)
{
	char **argv = xcalloc(o->nmkfs_args + 8, sizeof(char *));
	char *file = xasprintf("%s/geometry.img", workdir);
	char *out_path = xasprintf("%s/geometry.out", workdir);
	char *err_path = xasprintf("%s/geometry.err", workdir);
	char line[1024];
	unsigned int v, seen = 0;
	int argc = 0, i, ret = 0;
	bool too_small;
	FILE *f;

	f = fopen(file, "w");
	if (!f || ftruncate(fileno(f), size)) {
		err_msg("cannot create %s: %s", file, strerror(errno));
		if (f)
			fclose(f);
		ret = -EIO;
		goto out;
	}
	fclose(f);
	argv[argc++] = (char *)x->mkfs;
	argv[argc++] = "-N";
	for (i = 0; i < o->nmkfs_args; i++)
		argv[argc++] = o->mkfs_args[i];
	argv[argc++] = file;
	ret = run_program(argv, workdir, out_path, err_path);
	too_small = ret > 0 && file_mentions(err_path, too_small_said);
	if (too_small && may_grow) {
		ret = -ENOSPC;
		goto out;
	}
	if (ret) {
		err_msg("mkfs.xfs -N refused the options (%s):",
			ret < 0 ? strerror(-ret) : "see its messages below");
		show_file(err_path, "  mkfs.xfs: ");
		if (too_small && o->image_size)
			err_msg("the options after -- need an image larger "
				"than --size (%llu MiB): give a larger --size",
				(unsigned long long)(size >> 20));
		else if (too_small)
			err_msg("the options after -- need an image larger "
				"than %llu MiB, the largest tried: give fewer "
				"allocation groups or a smaller log",
				(unsigned long long)(size >> 20));
		ret = -EIO;
		goto out;
	}
	*g = (struct geometry){ 0 };
	f = fopen(out_path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (geometry_value(line, "isize=", &g->inodesize))
			seen |= 1;
		if (geometry_value(line, "crc=", &v)) {
			g->crc = v;
			seen |= 2;
		}
		if (geometry_value(line, "bigtime=", &v))
			g->bigtime = v;
		if (geometry_value(line, "agcount=", &g->agcount))
			seen |= 4;
		if (geometry_value(line, "agsize=", &g->agblocks))
			seen |= 8;
		if (!strncmp(line, "data", 4) &&
		    geometry_value(line, "bsize=", &g->blocksize))
			seen |= 16;
		if (geometry_value(line, "ftype=", &v))
			g->ftype = v;
	}
	if (f)
		fclose(f);
	if (seen != 31) {
		err_msg("cannot read the inode size, crc flag, block size and "
			"allocation groups in what mkfs.xfs -N printed");
		ret = -EIO;
	}
out:
	unlink(file);
	free(file);
	free(out_path);
	free(err_path);
	free(argv);
	return ret;
}
