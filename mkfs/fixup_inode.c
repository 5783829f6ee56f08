// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The inode core fields the protofile cannot set, written in batch 2:
 * timestamps (clamped to what the filesystem stores, and reported) and
 * the mode, for the sticky bit; then the checks of what mkfs.xfs made
 * from the protofile: device numbers read back as the source has them,
 * and symlink targets kept in the inode.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "fixup.h"

/* bigtime timestamps count nanoseconds from 1901, not seconds from 1970. */
#define BIGTIME_EPOCH_OFFSET (1ll << 31)

/* The sysv encoding XFS stores device numbers in. */
static uint32_t sysv_dev(unsigned int major, unsigned int minor)
{
	return (uint32_t)major << 18 | minor;
}

static void timestamp_cmds(struct fixup *f, struct node *n, const char *field,
			   const struct timespec *ts)
{
	int64_t sec = ts->tv_sec;

	if (f->sb.bigtime) {
		/* Seconds since 1901 in nanoseconds, in one 64-bit field. */
		int64_t max = INT64_MAX / 1000000000 - BIGTIME_EPOCH_OFFSET;

		if (sec < -BIGTIME_EPOCH_OFFSET || sec > max) {
			report(n, "%s out of the range XFS stores; clamped",
			       field);
			sec = sec < 0 ? -BIGTIME_EPOCH_OFFSET : max;
		}
		fprintf(f->cmds, "write core.%s.sec %" PRIu64 "\n", field,
			(uint64_t)(sec + BIGTIME_EPOCH_OFFSET) *
					UINT64_C(1000000000) +
				(uint64_t)ts->tv_nsec);
		return;
	}
	if (sec < INT32_MIN || sec > INT32_MAX) {
		report(n,
		       "%s out of the range XFS without bigtime stores; "
		       "clamped",
		       field);
		sec = sec < 0 ? INT32_MIN : INT32_MAX;
	}
	/*
	 * xfs_db 6.1 writes either half of a timestamp as the whole 64-bit
	 * field: seconds in the high word, nanoseconds in the low one. It
	 * reads the number as signed, so pre-1970 times are negative.
	 */
	fprintf(f->cmds, "write -- core.%s.sec %" PRId64 "\n", field,
		(int64_t)(((uint64_t)(uint32_t)(int32_t)sec << 32) |
			  (uint64_t)ts->tv_nsec));
}

void inode_core_cmds(struct fixup *f, struct node *n)
{
	timestamp_cmds(f, n, "atime", &n->st.st_atim);
	timestamp_cmds(f, n, "mtime", &n->st.st_mtim);
	/*
	 * The protofile has no sticky bit, and mkfs.xfs lets a setgid
	 * directory pass its bit on to subdirectories.
	 */
	if ((n->st.st_mode & S_ISVTX) || n->type == NODE_DIR)
		fprintf(f->cmds, "write core.mode 0%o\n",
			(unsigned int)n->st.st_mode);
}

/* v5 inodes (crc) name their data fork u3, older ones u. */
static const char *dev_field(const struct fixup *f)
{
	return f->sb.crc ? "u3.dev" : "u.dev";
}

void inode_dev_cmds(struct fixup *f, const struct node *n)
{
	if (n->type == NODE_CHR || n->type == NODE_BLK)
		fprintf(f->cmds, "print %s\n", dev_field(f));
}

int inode_dev_line(struct fixup *f, struct node *n, const char *line)
{
	uint64_t dev;
	int ret = db_field_u64(line, dev_field(f), &dev);

	if (ret > 0 && dev > UINT32_MAX)
		ret = -EINVAL;
	if (ret < 0)
		return fixup_bad_line(n, line, ret);
	if (ret) {
		n->image_rdev = dev;
		n->image_rdev_read = true;
	}
	return ret;
}

int inode_check(struct fixup *f, struct node *n)
{
	unsigned int maj = major(n->st.st_rdev), min = minor(n->st.st_rdev);

	if ((n->type == NODE_CHR || n->type == NODE_BLK) &&
	    (!n->image_rdev_read || n->image_rdev != sysv_dev(maj, min))) {
		err_file(n,
			 "device number %u:%u reads back as 0x%x in the new "
			 "image, not 0x%x",
			 maj, min, n->image_rdev, sysv_dev(maj, min));
		return -EIO;
	}
	/*
	 * mkfs.xfs 6.1 writes the block of a symlink too long for the inode
	 * without the header v5 filesystems need: xfs_repair clears it.
	 */
	if (n->type == NODE_SYMLINK && n->dformat != FORMAT_LOCAL) {
		err_msg("%s: symlink target of %zu bytes is too long to be kept "
			"in the inode, and mkfs.xfs %d.%d writes longer ones "
			"without their metadata header (xfs_repair would "
			"clear it); shorten the target",
			n->rel, strlen(n->target), f->x->major, f->x->minor);
		return -EINVAL;
	}
	return 0;
}
