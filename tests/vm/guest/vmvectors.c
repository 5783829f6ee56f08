// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmvectors VECTORS DIR DEVICE [DEVICE]...: check the kernel's exec folio
 * policy against the shared test vectors, as TAP, inside a test guest.
 *
 * Each DEVICE is an XFS filesystem that vmvectors mounts on DIR (and
 * remounts per vector); the first, the test disk, has 4K blocks and the
 * files vecstage wrote, the others (empty) other block sizes, for the
 * vectors of those sizes (large block sizes on 4K pages, 16K blocks on
 * 16K pages).  For "parse" vectors it sets the value as
 * trusted.exec_folio_size on a 4 MiB file and expects EINVAL, or the size
 * (XFS_IOC_GET_EXEC_FOLIO) of the canonical value.  For "resolve" vectors
 * it mounts the disk of the vector's block size with the vector's mount
 * options, exec_folio_size= and exec_folio_scope= (expecting the mount to
 * fail for EINVAL), creates a file of the vector's size and mode, sets the
 * xattr (or sets and removes one, which re-resolves the policy as the
 * kernel does on any xattr change) and compares size, source and order.  A
 * vector with a malformed xattr, which the kernel refuses to set, has its
 * file written offline on the disk (vecstage, vectors-offline.h): after
 * the remount, the kernel resolves it when it reads the inode.  Vectors the
 * kernel cannot be driven into from here are skipped, with the reason:
 * non-regular files, another page size, a block size no DEVICE has, and
 * mount values with NUL or comma bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <execfolio/policy.h>
#include <execfolio/xfs_exec_folio.h>

#include "../../vectors/vectors.h"
#include "vectors-offline.h"

/* The disks: their device and block size; disks[0] is the test disk. */
#define MAX_DISKS 8
static struct {
	const char *dev;
	unsigned long block_size;
} disks[MAX_DISKS];
static unsigned int ndisks;
/* The disk mounted on dir, or -1. */
static int mounted = -1;
static const char *dir;
static unsigned int test_no, failed, skipped;

static void result(bool ok, const struct execfolio_vector *vec, const char *why)
{
	printf("%sok %u - line %u%s%s\n", ok ? "" : "not ", ++test_no,
	       vec->line, why[0] ? ": " : "", why);
	if (!ok)
		failed++;
}

static void skip(const struct execfolio_vector *vec, const char *why)
{
	printf("ok %u # SKIP line %u: %s\n", ++test_no, vec->line, why);
	skipped++;
}

/*
 * Mount disk @disk on DIR afresh, with "exec_folio_size=VALUE" for the
 * vector's mount value and "exec_folio_scope=VALUE" for its scope, those it
 * has (none when @vec is NULL).
 */
static int remount(int disk, const struct execfolio_vector *vec)
{
	char data[128] = "";
	int n = 0;

	if (mounted >= 0)
		umount(dir);
	mounted = -1;
	if (vec && vec->mount.present)
		n = snprintf(data, sizeof(data), "%s=%.*s",
			     EXECFOLIO_MOUNT_OPTION, (int)vec->mount.len,
			     vec->mount.bytes);
	if (vec && vec->scope.present)
		snprintf(data + n, sizeof(data) - n, "%s%s=%.*s", n ? "," : "",
			 EXECFOLIO_SCOPE_OPTION, (int)vec->scope.len,
			 vec->scope.bytes);
	if (mount(disks[disk].dev, dir, "xfs", 0, data))
		return -errno;
	mounted = disk;
	return 0;
}

/* The disk whose block size is @block_size, or -1. */
static int disk_of_block_size(uint32_t block_size)
{
	unsigned int i;

	for (i = 0; i < ndisks; i++)
		if (disks[i].block_size == block_size)
			return (int)i;
	return -1;
}

static int get_state(const char *path, struct xfs_exec_folio *ef)
{
	int fd = open(path, O_RDONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, XFS_IOC_GET_EXEC_FOLIO, ef))
		ret = -errno;
	close(fd);
	return ret;
}

static void check_parse(const struct execfolio_vector *vec, const char *path)
{
	struct xfs_exec_folio ef;
	char why[160] = "", want[EXECFOLIO_SIZE_STR], got[EXECFOLIO_SIZE_STR];
	int ret;

	/* The parse file is on the test disk. */
	if (mounted != 0) {
		ret = remount(0, NULL);
		if (ret) {
			snprintf(why, sizeof(why), "mount %s: %s", disks[0].dev,
				 strerror(-ret));
			result(false, vec, why);
			return;
		}
	}
	removexattr(path, EXECFOLIO_XATTR);
	ret = setxattr(path, EXECFOLIO_XATTR, vec->value.bytes, vec->value.len,
		       0) ?
		      -errno :
		      0;
	if (vec->expect_einval) {
		if (ret != -EINVAL)
			snprintf(why, sizeof(why),
				 "setxattr gave %d, want EINVAL", ret);
		result(ret == -EINVAL, vec, why);
		return;
	}
	if (ret) {
		snprintf(why, sizeof(why), "setxattr failed: %s",
			 strerror(-ret));
		result(false, vec, why);
		return;
	}
	ret = get_state(path, &ef);
	if (!ret && (ef.ef_size != vec->expect_size ||
		     ef.ef_source != EXECFOLIO_SOURCE_XATTR))
		snprintf(why, sizeof(why), "size %s source %u, want %s xattr",
			 execfolio_format_size(ef.ef_size, got), ef.ef_source,
			 execfolio_format_size(vec->expect_size, want));
	else if (ret)
		snprintf(why, sizeof(why), "ioctl: %s", strerror(-ret));
	result(!why[0], vec, why);
}

static bool unusable_mount_value(const struct execfolio_vector_value *v)
{
	return v->present && (memchr(v->bytes, '\0', v->len) ||
			      memchr(v->bytes, ',', v->len) || v->len > 40);
}

/* Where vecstage put the file of @vec on the disk. */
static const char *offline_path(const struct execfolio_vector *vec, char *path,
				size_t len)
{
	snprintf(path, len, "%s/" VECTORS_OFFLINE_FMT, dir, vec->line);
	return path;
}

/* Compare the policy of @path with @vec's, report, and unlink if asked. */
static void check_state(const struct execfolio_vector *vec, const char *path,
			bool remove)
{
	struct xfs_exec_folio ef;
	char why[640] = "", want[EXECFOLIO_SIZE_STR], got[EXECFOLIO_SIZE_STR];
	int ret = get_state(path, &ef);

	if (ret)
		snprintf(why, sizeof(why), "%s: ioctl: %s", path,
			 strerror(-ret));
	else if (ef.ef_size != vec->expect_size ||
		 ef.ef_source != vec->expect_source ||
		 ef.ef_order != vec->expect_order)
		snprintf(
			why, sizeof(why),
			"size=%s source=%s order=%u, want size=%s source=%s order=%u",
			execfolio_format_size(ef.ef_size, got),
			execfolio_source_name(ef.ef_source), ef.ef_order,
			execfolio_format_size(vec->expect_size, want),
			execfolio_source_name(vec->expect_source),
			vec->expect_order);
	if (remove)
		unlink(path);
	result(!why[0], vec, why);
}

static void check_resolve(const struct execfolio_vector *vec)
{
	char path[512], why[640] = "";
	int disk, fd, ret;

	if (!S_ISREG(vec->mode))
		return skip(vec, "not a regular file");
	if (vec->page_size != (uint32_t)getpagesize())
		return skip(vec, "another page size");
	disk = disk_of_block_size(vec->block_size);
	if (disk < 0) {
		snprintf(why, sizeof(why), "no disk with %u-byte blocks",
			 vec->block_size);
		return skip(vec, why);
	}
	if (unusable_mount_value(&vec->mount) ||
	    unusable_mount_value(&vec->scope))
		return skip(vec, "mount value not expressible as mount data");

	ret = remount(disk, vec);
	if (vec->expect_einval) {
		if (ret != -EINVAL)
			snprintf(why, sizeof(why), "mount gave %d, want EINVAL",
				 ret);
		result(ret == -EINVAL, vec, why);
		return;
	}
	if (ret) {
		snprintf(why, sizeof(why), "mount failed: %s", strerror(-ret));
		return result(false, vec, why);
	}

	if (vector_is_offline(vec))
		return check_state(vec, offline_path(vec, path, sizeof(path)),
				   false);

	snprintf(path, sizeof(path), "%s/resolve-%u", dir, vec->line);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, vec->file_size) ||
	    fchmod(fd, vec->mode & 07777)) {
		snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return result(false, vec, why);
	}
	close(fd);
	/* Any xattr change re-resolves the policy with the current size. */
	ret = setxattr(path, EXECFOLIO_XATTR,
		       vec->xattr.present ? vec->xattr.bytes : "none",
		       vec->xattr.present ? vec->xattr.len : 4, 0);
	if (!ret && !vec->xattr.present)
		ret = removexattr(path, EXECFOLIO_XATTR);
	if (ret) {
		snprintf(why, sizeof(why), "xattr: %s", strerror(errno));
		return result(false, vec, why);
	}
	check_state(vec, path, true);
}

int main(int argc, char **argv)
{
	struct execfolio_vectors vecs;
	char err[256], path[512];
	size_t i;
	int fd;

	if (argc < 4 || argc - 3 > MAX_DISKS) {
		fprintf(stderr,
			"usage: vmvectors VECTORS DIR DEVICE [DEVICE]... (at most %d)\n",
			MAX_DISKS);
		return 2;
	}
	dir = argv[2];
	if (execfolio_vectors_load(argv[1], &vecs, err, sizeof(err))) {
		printf("1..1\nnot ok 1 - %s\n", err);
		return 1;
	}
	printf("1..%zu\n", vecs.count);

	/*
	 * Whatever an earlier test left mounted on DIR goes: mounted over, it
	 * would keep its superblock and ignore each vector's mount option.
	 */
	umount(dir);
	/* Each disk's block size, as XFS reports it. */
	for (ndisks = 0; ndisks < (unsigned int)argc - 3; ndisks++) {
		struct statfs st;

		disks[ndisks].dev = argv[3 + ndisks];
		if (remount((int)ndisks, NULL) || statfs(dir, &st)) {
			printf("# mount %s on %s: %s\n", disks[ndisks].dev, dir,
			       strerror(errno));
			return 1;
		}
		disks[ndisks].block_size = (unsigned long)st.f_bsize;
		printf("# %s: %lu-byte blocks\n", disks[ndisks].dev,
		       disks[ndisks].block_size);
	}
	/* vecstage's files, for the offline vectors, are on the test disk. */
	if (disks[0].block_size != VECTORS_DISK_BLOCK_SIZE) {
		printf("# the test disk %s has %lu-byte blocks, not %u\n",
		       disks[0].dev, disks[0].block_size,
		       VECTORS_DISK_BLOCK_SIZE);
		return 1;
	}
	if (remount(0, NULL)) {
		printf("# mount %s on %s: %s\n", disks[0].dev, dir,
		       strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/parse", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || ftruncate(fd, 4 << 20)) {
		printf("# %s: %s\n", path, strerror(errno));
		return 1;
	}
	close(fd);

	for (i = 0; i < vecs.count; i++) {
		if (vecs.v[i].kind == EXECFOLIO_VECTOR_PARSE)
			check_parse(&vecs.v[i], path);
		else
			check_resolve(&vecs.v[i]);
	}
	if (mounted != 0)
		remount(0, NULL);
	unlink(path);
	umount(dir);
	printf("# checked %u of %zu vector lines against the kernel (%u skipped), %u failed\n",
	       test_no - skipped, vecs.count, skipped, failed);
	execfolio_vectors_free(&vecs);
	return failed ? 1 : 0;
}
