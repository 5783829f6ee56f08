// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Making the image say what the protofile cannot, with xfs_db -x, in at
 * most three batches however large the tree:
 *
 *  1. for every entry: find its inode by path; create its xattrs with
 *     attr_set, which in xfsprogs 6.1 can only store values of repeated
 *     'v's of the right length; print where they and renamed directory
 *     entries landed;
 *  2. by inode number: rewrite short-form xattr values, symlink targets and
 *     short-form directory entries with the real bytes; set timestamps and
 *     the sticky bit; print the leaf attribute blocks and directory blocks
 *     that hold something still to be rewritten;
 *  3. rewrite those, and give entries whose placeholder had a hash next to
 *     their name's (names.c) their real hash in the leaf and node entries.
 *
 * Every write is read back from xfs_db's answer and compared with the bytes
 * meant; any error line or mismatch fails the build. Later batches go by
 * inode number, so renaming entries does not disturb them.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <execfolio/policy.h>

#include "mkfs.h"

/* Directory data blocks lie below this byte offset (XFS_DIR2_LEAF_OFFSET). */
#define DIR2_LEAF_OFFSET (32ull << 30)
/* ... and leaf and node blocks below this one (XFS_DIR2_FREE_OFFSET). */
#define DIR2_FREE_OFFSET (64ull << 30)
#define BIGTIME_EPOCH_OFFSET (1ll << 31)
#define FORMAT_LOCAL 1

/* A leaf or node entry holding the hash of a placeholder, to be rewritten. */
struct hash_write {
	size_t dir; /* node index of the directory */
	size_t child; /* ... and of the renamed entry */
	uint64_t block; /* directory block, in file system blocks */
	const char *field; /* "bleaf", "lents" or "nbtree" */
	int index;
	bool done; /* written and read back */
};

struct fixup {
	struct tree *t;
	const struct xfsprogs *x;
	const char *image;
	const char *workdir;
	char *cmd_path;
	FILE *cmds;
	bool bigtime;
	bool crc;
	unsigned int inodesize;
	bool need_pass1b;
	unsigned int blocklog;
	unsigned int dirblklog;
	bool need_pass3;
	struct hash_write *hash_writes;
	size_t nhash_writes;
};

static const char *const ns_flag[] = {
	[ATTR_NS_USER] = "-u",
	[ATTR_NS_ROOT] = "-r",
	[ATTR_NS_SECURE] = "-s",
};
static const char *const ns_prefix[] = {
	[ATTR_NS_USER] = "user.",
	[ATTR_NS_ROOT] = "trusted.",
	[ATTR_NS_SECURE] = "security.",
};

static int batch_open(struct fixup *f)
{
	f->cmds = fopen(f->cmd_path, "w");
	if (!f->cmds) {
		err_msg("cannot write %s: %s", f->cmd_path, strerror(errno));
		return -errno;
	}
	return 0;
}

static int batch_run(struct fixup *f, struct dbout *out)
{
	if (fclose(f->cmds)) {
		err_msg("cannot write %s: %s", f->cmd_path, strerror(errno));
		return -errno;
	}
	f->cmds = NULL;
	return xfsdb_run(f->x, f->image, f->cmd_path, f->workdir, out);
}

/* xfs_db splits arguments at blanks; a final '\\' continues the line. */
static bool attr_name_db_safe(const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		if (*p == ' ' || (*p >= '\t' && *p <= '\r') || *p == '\\')
			return false;
	return name[0];
}

/*
 * Report and drop the xattrs xfs_db cannot store: names it would split,
 * and empty values (its attr_set takes a value length of 0 as a removal).
 */
static void drop_unstorable_xattrs(struct node *n)
{
	size_t j;

	for (j = 0; j < n->nxattrs; j++) {
		struct xattr *x = &n->xattrs[j];

		if (x->dropped)
			continue;
		if (!attr_name_db_safe(x->name)) {
			x->dropped = true;
			report(n,
			       "xattr %s%s not copied: xfs_db cannot "
			       "take a name with blanks or '\\'",
			       ns_prefix[x->ns], x->name);
		} else if (!x->len) {
			x->dropped = true;
			report(n,
			       "xattr %s%s not copied: xfs_db cannot "
			       "store an empty value",
			       ns_prefix[x->ns], x->name);
		}
	}
}

static bool node_has_renamed_child(const struct tree *t, const struct node *n)
{
	size_t i;

	for (i = 0; i < n->nchildren; i++)
		if (t->nodes[n->children[i]].renamed)
			return true;
	return false;
}

/* A renamed entry whose hash changes with its name (names.c). */
static bool needs_new_hash(const struct node *c)
{
	return c->renamed && c->near_hash;
}

static bool node_has_new_hash_child(const struct tree *t, const struct node *n)
{
	size_t i;

	for (i = 0; i < n->nchildren; i++)
		if (needs_new_hash(&t->nodes[n->children[i]]))
			return true;
	return false;
}

/* The sysv encoding XFS stores device numbers in. */
static uint32_t sysv_dev(unsigned int major, unsigned int minor)
{
	return (uint32_t)major << 18 | minor;
}

static uint32_t hash_of(const char *name)
{
	return xfs_dahash((const unsigned char *)name, strlen(name));
}

/* ---- batch 1 --------------------------------------------------------- */

static int timestamp_cmds(struct fixup *f, struct node *n, const char *field,
			  const struct timespec *ts);

static void pass1_cmds(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];
		bool has_attrs = false;

		if (n->skip)
			continue;
		fprintf(f->cmds, "echo @@n %zu\npath %s\ninode\n", i,
			n->img_path);
		drop_unstorable_xattrs(n);
		timestamp_cmds(f, n, "atime", &n->st.st_atim);
		timestamp_cmds(f, n, "mtime", &n->st.st_mtim);
		/*
		 * The protofile has no sticky bit, and mkfs.xfs lets a
		 * setgid directory pass its bit on to subdirectories.
		 */
		if ((n->st.st_mode & S_ISVTX) || n->type == NODE_DIR)
			fprintf(f->cmds, "write core.mode 0%o\n",
				(unsigned int)n->st.st_mode);
		/*
		 * xfs_db 6.1 crashes when an attribute fork does not fit next
		 * to a data fork kept in the inode: directories and symlinks
		 * get their xattrs in batch 1b, once their size is known.
		 */
		if (n->nxattrs &&
		    (n->type == NODE_DIR || n->type == NODE_SYMLINK)) {
			n->late_attrs = true;
			f->need_pass1b = true;
			fputs("print core.size\n", f->cmds);
			if (n->type == NODE_SYMLINK ||
			    !node_has_renamed_child(t, n))
				fputs("print core.format\n", f->cmds);
		}
		for (j = 0; j < n->nxattrs && !n->late_attrs; j++) {
			struct xattr *x = &n->xattrs[j];

			if (x->dropped)
				continue;
			fprintf(f->cmds, "attr_set %s -v %zu -- %s\n",
				ns_flag[x->ns], x->len, x->name);
			has_attrs = true;
		}
		if (has_attrs)
			fputs("print core.aformat a\n", f->cmds);
		if (n->type == NODE_DIR && node_has_renamed_child(t, n))
			fputs("print core.format u3\nbmap -d\n", f->cmds);
		if (n->type == NODE_SYMLINK && !n->late_attrs)
			fputs("print core.format\n", f->cmds);
		if (n->type == NODE_CHR || n->type == NODE_BLK)
			fprintf(f->cmds, "print %s.dev\n", f->crc ? "u3" : "u");
	}
}

/* "PREFIX[N].FIELD = VALUE": N and VALUE, for a known PREFIX and FIELD. */
static bool field_at(const char *line, const char *prefix, const char *field,
		     int *index, const char **value)
{
	size_t plen = strlen(prefix), flen = strlen(field);
	const char *p;
	char *end;
	long v;

	if (strncmp(line, prefix, plen) || line[plen] != '[')
		return false;
	v = strtol(line + plen + 1, &end, 10);
	if (end == line + plen + 1 || strncmp(end, "].", 2))
		return false;
	p = end + 2;
	if (strncmp(p, field, flen) || strncmp(p + flen, " = ", 3))
		return false;
	*index = (int)v;
	*value = p + flen + 3;
	return true;
}

/* Names, in xfs_db's rendering, and namespace flags of attribute slots. */
struct slots {
	char **name;
	int *root;
	int *secure;
	int *local;
	int count;
};

static void slots_reset(struct slots *s)
{
	int i;

	for (i = 0; i < s->count; i++)
		free(s->name[i]);
	free(s->name);
	free(s->root);
	free(s->secure);
	free(s->local);
	memset(s, 0, sizeof(*s));
}

static void slots_grow(struct slots *s, int index)
{
	int i;

	if (index < s->count)
		return;
	s->name = realloc(s->name, (index + 1) * sizeof(*s->name));
	s->root = realloc(s->root, (index + 1) * sizeof(int));
	s->secure = realloc(s->secure, (index + 1) * sizeof(int));
	s->local = realloc(s->local, (index + 1) * sizeof(int));
	if (!s->name || !s->root || !s->secure || !s->local) {
		err_msg("out of memory");
		exit(EXIT_FAILED);
	}
	for (i = s->count; i <= index; i++) {
		s->name[i] = NULL;
		s->root[i] = s->secure[i] = 0;
		s->local[i] = 1;
	}
	s->count = index + 1;
}

static void slots_set_name(struct slots *s, int index, const char *value)
{
	slots_grow(s, index);
	free(s->name[index]);
	s->name[index] = strdup(value);
}

/* Find each xattr of @n among @s; false if one is missing. */
static bool match_attrs(struct node *n, const struct slots *s)
{
	size_t j;
	int k;

	for (j = 0; j < n->nxattrs; j++) {
		struct xattr *x = &n->xattrs[j];
		char *want;

		if (x->dropped)
			continue;
		want = xfsdb_render_str((const unsigned char *)x->name,
					strlen(x->name));
		x->slot = -1;
		for (k = 0; k < s->count; k++) {
			if (s->name[k] && !strcmp(s->name[k], want) &&
			    s->root[k] == (x->ns == ATTR_NS_ROOT) &&
			    s->secure[k] == (x->ns == ATTR_NS_SECURE)) {
				x->slot = k;
				x->remote = !s->local[k];
				break;
			}
		}
		free(want);
		if (x->slot < 0)
			return false;
	}
	return true;
}

static bool rendered_eq(const char *value, const char *bytes)
{
	char *want =
		xfsdb_render_str((const unsigned char *)bytes, strlen(bytes));
	bool eq = !strcmp(value, want);

	free(want);
	return eq;
}

static void add_dblocks(struct fixup *f, struct node *n, const char *line)
{
	unsigned long long off, count;
	const char *p = strstr(line, " count ");
	uint64_t stride = 1ull << f->dirblklog, b;
	/* Leaf and node blocks too when a hash in them is to be rewritten. */
	uint64_t limit = (node_has_new_hash_child(f->t, n) ?
				  DIR2_FREE_OFFSET :
				  DIR2_LEAF_OFFSET) >>
			 f->blocklog;

	if (sscanf(line, "data offset %llu", &off) != 1 || !p ||
	    sscanf(p, " count %llu", &count) != 1)
		return;
	for (b = (off + stride - 1) & ~(stride - 1);
	     b < off + count && b < limit; b += stride) {
		n->dblocks = realloc(n->dblocks,
				     (n->ndblocks + 1) * sizeof(uint64_t));
		if (!n->dblocks) {
			err_msg("out of memory");
			exit(EXIT_FAILED);
		}
		n->dblocks[n->ndblocks++] = b;
	}
}

static int bad_line(const struct node *n, const char *line)
{
	err_msg("xfs_db on the new image, at %s: %s",
		n ? (n->rel[0] ? n->rel : ".") : "the superblock", line);
	return -EIO;
}

static int finish_node1(struct fixup *f, struct node *n, struct slots *s)
{
	struct tree *t = f->t;
	size_t i;

	if (!n)
		return 0;
	if (!n->ino) {
		err_msg("%s: not found in the new image", n->rel);
		return -EIO;
	}
	if ((n->type == NODE_CHR || n->type == NODE_BLK) &&
	    (!n->image_rdev_read ||
	     n->image_rdev !=
		     sysv_dev(major(n->st.st_rdev), minor(n->st.st_rdev)))) {
		err_file(n,
			 "device number %u:%u reads back as 0x%x in the new "
			 "image, not 0x%x",
			 major(n->st.st_rdev), minor(n->st.st_rdev),
			 n->image_rdev,
			 sysv_dev(major(n->st.st_rdev), minor(n->st.st_rdev)));
		return -EIO;
	}
	if (n->aformat == FORMAT_LOCAL && !match_attrs(n, s)) {
		err_msg("%s: an xattr set in the new image cannot be found "
			"there",
			n->rel);
		return -EIO;
	}
	if (n->aformat > FORMAT_LOCAL)
		f->need_pass3 = true;
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
	if (n->target_fixup && n->dformat != FORMAT_LOCAL) {
		err_msg("%s: symlink target with blanks, too long to be "
			"rewritten in the inode; xfsprogs %d.%d's protofile "
			"cannot express it",
			n->rel, f->x->major, f->x->minor);
		return -EINVAL;
	}
	for (i = 0; i < n->nchildren; i++) {
		struct node *c = &t->nodes[n->children[i]];

		if (!c->renamed)
			continue;
		if (n->dformat == FORMAT_LOCAL) {
			if (c->dirent_slot < 0) {
				err_msg("%s: its directory entry cannot be "
					"found in the new image",
					c->rel);
				return -EIO;
			}
			continue;
		}
		if (!c->same_hash && !c->near_hash) {
			err_file(
				c,
				"name cannot be expressed: xfsprogs %d.%d's "
				"protofile cannot carry it, and in a directory "
				"too large for the inode its placeholder needs "
				"its hash or one next to it, which the hashes "
				"of its sibling names leave none of; rename it",
				f->x->major, f->x->minor);
			return -EINVAL;
		}
		f->need_pass3 = true;
	}
	slots_reset(s);
	return 0;
}

static void version_flags(struct fixup *f, const char *line)
{
	f->bigtime = strstr(line, "BIGTIME") != NULL;
	f->crc = strstr(line, ",CRC") != NULL;
}

/* Batch 0: the geometry and features the later batches depend on. */
static int pass0(struct fixup *f)
{
	fputs("echo @@sb\nsb 0\nprint blocklog dirblklog inodesize\nversion\n",
	      f->cmds);
	return 0;
}

static int pass1_parse(struct fixup *f, struct dbout *out)
{
	struct tree *t = f->t;
	struct node *n = NULL;
	struct slots s = { 0 };
	bool in_sb = false;
	const char *v;
	size_t line;
	int idx, ret;

	for (line = 0; line < t->count; line++)
		t->nodes[line].dirent_slot = -1;
	for (line = 0; line < out->nlines; line++) {
		const char *l = out->lines[line];
		unsigned long long u;
		size_t i;

		if (!strcmp(l, "@@sb")) {
			in_sb = true;
			continue;
		}
		if (sscanf(l, "@@n %zu", &i) == 1 && i < t->count) {
			ret = finish_node1(f, n, &s);
			if (ret)
				return ret;
			in_sb = false;
			n = &t->nodes[i];
			continue;
		}
		if (in_sb) {
			if (sscanf(l, "blocklog = %llu", &u) == 1)
				f->blocklog = u;
			else if (sscanf(l, "dirblklog = %llu", &u) == 1)
				f->dirblklog = u;
			else if (sscanf(l, "inodesize = %llu", &u) == 1)
				f->inodesize = u;
			else if (!strncmp(l, "versionnum ", 11))
				version_flags(f, l);
			else if (!xfsdb_line_ok(l))
				return bad_line(NULL, l);
			continue;
		}
		if (!n)
			return bad_line(NULL, l);
		if (sscanf(l, "current inode number is %llu", &u) == 1) {
			if (n->ino)
				return bad_line(n, l);
			n->ino = u;
		} else if (sscanf(l, "core.aformat = %d", &idx) == 1) {
			n->aformat = idx;
		} else if (sscanf(l, "core.format = %d", &idx) == 1) {
			n->dformat = idx;
		} else if (sscanf(l, "core.size = %llu", &u) == 1) {
			n->dsize = u;
		} else if (sscanf(l, "u3.dev = %llx", &u) == 1 ||
			   sscanf(l, "u.dev = %llx", &u) == 1) {
			n->image_rdev = u;
			n->image_rdev_read = true;
		} else if (field_at(l, "a.sfattr.list", "name", &idx, &v)) {
			slots_set_name(&s, idx, v);
		} else if (field_at(l, "a.sfattr.list", "root", &idx, &v)) {
			slots_grow(&s, idx);
			s.root[idx] = atoi(v);
		} else if (field_at(l, "a.sfattr.list", "secure", &idx, &v)) {
			slots_grow(&s, idx);
			s.secure[idx] = atoi(v);
		} else if (field_at(l, "u3.sfdir3.list", "name", &idx, &v)) {
			for (i = 0; i < n->nchildren; i++) {
				struct node *c = &t->nodes[n->children[i]];

				if (c->renamed && rendered_eq(v, c->img_name))
					c->dirent_slot = idx;
			}
		} else if (!strncmp(l, "data offset ", 12)) {
			add_dblocks(f, n, l);
		} else if (!xfsdb_line_ok(l)) {
			return bad_line(n, l);
		}
	}
	ret = finish_node1(f, n, &s);
	slots_reset(&s);
	return ret;
}

/* ---- batch 1b: xattrs of directories and symlinks -------------------- */

/* Bytes of a short-form attribute fork holding all of @n's xattrs. */
static size_t sf_attr_bytes(const struct node *n)
{
	size_t j, bytes = 4;

	for (j = 0; j < n->nxattrs; j++)
		if (!n->xattrs[j].dropped)
			bytes += 3 + strlen(n->xattrs[j].name) +
				 n->xattrs[j].len;
	return bytes;
}

static int pass1b_cmds(struct fixup *f)
{
	struct tree *t = f->t;
	size_t literal = f->inodesize - (f->crc ? 176 : 100);
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		if (!n->late_attrs || n->skip)
			continue;
		if (n->dformat == FORMAT_LOCAL &&
		    ((n->dsize + 7) & ~7ull) + sf_attr_bytes(n) > literal) {
			for (j = 0; j < n->nxattrs; j++) {
				struct xattr *x = &n->xattrs[j];

				if (x->dropped)
					continue;
				x->dropped = true;
				report(n,
				       "xattr %s%s not copied: with the %s kept "
				       "in the inode there is no room for the "
				       "xattrs, and xfs_db %d.%d cannot move it",
				       ns_prefix[x->ns], x->name,
				       n->type == NODE_DIR ? "directory" :
							     "symlink target",
				       f->x->major, f->x->minor);
			}
			continue;
		}
		fprintf(f->cmds, "echo @@n %zu\ninode %" PRIu64 "\n", i,
			n->ino);
		for (j = 0; j < n->nxattrs; j++) {
			struct xattr *x = &n->xattrs[j];

			if (x->dropped)
				continue;
			fprintf(f->cmds, "attr_set %s -v %zu -- %s\n",
				ns_flag[x->ns], x->len, x->name);
		}
		fputs("print core.aformat a\n", f->cmds);
	}
	return 0;
}

static int pass1b_parse(struct fixup *f, struct dbout *out)
{
	struct tree *t = f->t;
	struct node *n = NULL;
	struct slots s = { 0 };
	const char *v;
	size_t line, i;
	int idx;

	for (line = 0; line <= out->nlines; line++) {
		const char *l = line < out->nlines ? out->lines[line] : NULL;

		if (!l || (sscanf(l, "@@n %zu", &i) == 1 && i < t->count)) {
			if (n && n->aformat == FORMAT_LOCAL &&
			    !match_attrs(n, &s)) {
				err_msg("%s: an xattr set in the new image "
					"cannot be found there",
					n->rel);
				slots_reset(&s);
				return -EIO;
			}
			if (n && n->aformat > FORMAT_LOCAL)
				f->need_pass3 = true;
			slots_reset(&s);
			n = l ? &t->nodes[i] : NULL;
			continue;
		}
		if (!n)
			return bad_line(NULL, l);
		if (sscanf(l, "core.aformat = %d", &idx) == 1) {
			n->aformat = idx;
		} else if (field_at(l, "a.sfattr.list", "name", &idx, &v)) {
			slots_set_name(&s, idx, v);
		} else if (field_at(l, "a.sfattr.list", "root", &idx, &v)) {
			slots_grow(&s, idx);
			s.root[idx] = atoi(v);
		} else if (field_at(l, "a.sfattr.list", "secure", &idx, &v)) {
			slots_grow(&s, idx);
			s.secure[idx] = atoi(v);
		} else if (!xfsdb_line_ok(l)) {
			slots_reset(&s);
			return bad_line(n, l);
		}
	}
	return 0;
}

/* ---- batch 2 --------------------------------------------------------- */

static int timestamp_cmds(struct fixup *f, struct node *n, const char *field,
			  const struct timespec *ts)
{
	int64_t sec = ts->tv_sec;

	if (f->bigtime) {
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
		return 0;
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
	return 0;
}

/* Only entries with something left to write are visited again. */
static bool needs_pass2(const struct tree *t, const struct node *n)
{
	size_t j;

	for (j = 0; j < n->nxattrs; j++)
		if (!n->xattrs[j].dropped)
			return true;
	return n->target_fixup ||
	       (n->type == NODE_DIR && node_has_renamed_child(t, n));
}

static void pass2_cmds(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		if (n->skip || !needs_pass2(t, n))
			continue;
		fprintf(f->cmds, "echo @@n %zu\ninode %" PRIu64 "\n", i,
			n->ino);
		for (j = 0; j < n->nxattrs && n->aformat == FORMAT_LOCAL; j++) {
			struct xattr *x = &n->xattrs[j];

			if (x->dropped)
				continue;
			fprintf(f->cmds, "write a.sfattr.list[%d].value ",
				x->slot);
			xfsdb_hex(f->cmds, (unsigned char *)x->value, x->len);
			fputc('\n', f->cmds);
		}
		if (n->target_fixup) {
			fputs("write u3.symlink ", f->cmds);
			xfsdb_hex(f->cmds, (unsigned char *)n->target,
				  strlen(n->target));
			fputc('\n', f->cmds);
		}
		for (j = 0; j < n->nchildren; j++) {
			struct node *c = &t->nodes[n->children[j]];

			if (!c->renamed || n->dformat != FORMAT_LOCAL)
				continue;
			fprintf(f->cmds, "write u3.sfdir3.list[%d].name ",
				c->dirent_slot);
			xfsdb_hex(f->cmds, (unsigned char *)c->name,
				  strlen(c->name));
			fputc('\n', f->cmds);
		}
		if (n->nxattrs && n->aformat > FORMAT_LOCAL)
			fprintf(f->cmds,
				"echo @@a %zu\nablock 0\nprint\n"
				"inode %" PRIu64 "\n",
				i, n->ino);
		if (n->type == NODE_DIR && n->dformat != FORMAT_LOCAL &&
		    node_has_renamed_child(t, n)) {
			for (j = 0; j < n->ndblocks; j++)
				fprintf(f->cmds,
					"echo @@b %zu %" PRIu64 "\n"
					"dblock %" PRIu64 "\nprint\n",
					i, n->dblocks[j], n->dblocks[j]);
			fprintf(f->cmds, "inode %" PRIu64 "\n", n->ino);
		}
	}
}

static struct xattr *attr_at_slot(struct node *n, int slot)
{
	size_t j;

	for (j = 0; j < n->nxattrs; j++)
		if (!n->xattrs[j].dropped && n->xattrs[j].slot == slot)
			return &n->xattrs[j];
	return NULL;
}

static int check_written(struct node *n, const char *what, const char *got,
			 const char *bytes, size_t len)
{
	char *want = xfsdb_render_str((const unsigned char *)bytes, len);
	int ret = 0;

	if (strcmp(got, want)) {
		err_msg("%s: %s reads back as %s, not %s", n->rel, what, got,
			want);
		ret = -EIO;
	}
	free(want);
	return ret;
}

/* "N:[hash,nameidx,incomplete,root,secure,local]" of an attr leaf block. */
static void leaf_entry(struct slots *s, const char *l)
{
	unsigned int hash, nameidx, incomplete, root, secure, local;
	int idx;

	if (sscanf(l, "%d:[%x,%u,%u,%u,%u,%u]", &idx, &hash, &nameidx,
		   &incomplete, &root, &secure, &local) != 7 ||
	    idx < 0)
		return;
	slots_grow(s, idx);
	s->root[idx] = root;
	s->secure[idx] = secure;
	s->local[idx] = local;
}

static int finish_leaf(struct fixup *f, struct node *n, struct slots *s,
		       bool leaf_magic)
{
	if (!n)
		return 0;
	if (!leaf_magic || !match_attrs(n, s)) {
		err_msg("%s: its xattrs fill more than one attribute block; "
			"xfs_db %d.%d cannot rewrite their values. Store "
			"fewer or smaller xattrs on it",
			n->rel, f->x->major, f->x->minor);
		return -EINVAL;
	}
	slots_reset(s);
	return 0;
}

/* A leaf or node entry of directory @dir with hash @hash, in @block. */
static void note_hash(struct fixup *f, size_t dir, uint64_t block,
		      const char *field, int index, uint32_t hash)
{
	const struct node *n = &f->t->nodes[dir];
	size_t i;

	for (i = 0; i < n->nchildren; i++) {
		const struct node *c = &f->t->nodes[n->children[i]];
		struct hash_write *w;

		if (!needs_new_hash(c) || hash_of(c->img_name) != hash)
			continue;
		f->hash_writes = realloc(f->hash_writes,
					 (f->nhash_writes + 1) *
						 sizeof(*f->hash_writes));
		if (!f->hash_writes) {
			err_msg("out of memory");
			exit(EXIT_FAILED);
		}
		w = &f->hash_writes[f->nhash_writes++];
		*w = (struct hash_write){ .dir = dir,
					  .child = n->children[i],
					  .block = block,
					  .field = field,
					  .index = index };
	}
}

static int pass2_parse(struct fixup *f, struct dbout *out)
{
	struct tree *t = f->t;
	struct node *n = NULL, *leaf = NULL;
	struct slots s = { 0 };
	bool leaf_magic = false;
	uint64_t block = 0;
	const char *v;
	size_t line, i, cur = 0;
	unsigned int hash;
	int idx, ret;

	for (line = 0; line < out->nlines; line++) {
		const char *l = out->lines[line];
		unsigned long long u;
		struct xattr *x;

		if (sscanf(l, "@@n %zu", &i) == 1 && i < t->count) {
			ret = finish_leaf(f, leaf, &s, leaf_magic);
			if (ret)
				return ret;
			n = &t->nodes[i];
			cur = i;
			leaf = NULL;
			continue;
		}
		if (!n)
			return bad_line(NULL, l);
		if (sscanf(l, "@@a %zu", &i) == 1) {
			leaf = n;
			leaf_magic = false;
			continue;
		}
		if (sscanf(l, "@@b %zu %llu", &i, &u) == 2) {
			ret = finish_leaf(f, leaf, &s, leaf_magic);
			if (ret)
				return ret;
			leaf = NULL;
			block = u;
			continue;
		}
		if (leaf) {
			if (!strcmp(l, "hdr.info.hdr.magic = 0x3bee") ||
			    !strcmp(l, "hdr.info.magic = 0xfbee"))
				leaf_magic = true;
			else if (field_at(l, "nvlist", "name", &idx, &v))
				slots_set_name(&s, idx, v);
			else if (isdigit((unsigned char)l[0]))
				leaf_entry(&s, l);
			if (!xfsdb_line_ok(l))
				return bad_line(n, l);
			continue;
		}
		if (field_at(l, "a.sfattr.list", "value", &idx, &v)) {
			x = attr_at_slot(n, idx);
			if (!x ||
			    check_written(n, "an xattr", v, x->value, x->len))
				return -EIO;
			x->written = true;
		} else if (!strncmp(l, "u3.symlink = ", 13)) {
			if (check_written(n, "the symlink target", l + 13,
					  n->target, strlen(n->target)))
				return -EIO;
		} else if (field_at(l, "u3.sfdir3.list", "name", &idx, &v)) {
			for (i = 0; i < n->nchildren; i++) {
				struct node *c = &t->nodes[n->children[i]];

				if (c->renamed && c->dirent_slot == idx &&
				    check_written(c, "its name", v, c->name,
						  strlen(c->name)))
					return -EIO;
			}
		} else if (field_at(l, "bleaf", "hashval", &idx, &v) ||
			   field_at(l, "lents", "hashval", &idx, &v)) {
			note_hash(f, cur, block,
				  l[0] == 'b' ? "bleaf" : "lents", idx,
				  strtoul(v, NULL, 16));
		} else if (sscanf(l, "%d:[%x,", &idx, &hash) == 2) {
			/* "N:[hashval,before]" of a node block's nbtree. */
			note_hash(f, cur, block, "nbtree", idx, hash);
		} else if (field_at(l, "bu", "name", &idx, &v) ||
			   field_at(l, "du", "name", &idx, &v)) {
			for (i = 0; i < n->nchildren; i++) {
				struct node *c = &t->nodes[n->children[i]];

				if (!c->renamed || c->dirent_in_block ||
				    !rendered_eq(v, c->img_name))
					continue;
				c->dirent_in_block = true;
				c->dirent_block = block;
				c->dirent_slot = idx;
				memcpy(c->dirent_field, l, 2);
				c->dirent_field[2] = '\0';
			}
		} else if (!xfsdb_line_ok(l)) {
			return bad_line(n, l);
		}
	}
	ret = finish_leaf(f, leaf, &s, leaf_magic);
	slots_reset(&s);
	return ret;
}

/* ---- batch 3 --------------------------------------------------------- */

/* The real hash of @c into every leaf and node entry that has its old one. */
static int hash_write_cmds(struct fixup *f, size_t dir, const struct node *c)
{
	const struct node *n = &f->t->nodes[dir];
	bool in_leaf = false;
	size_t k;

	for (k = 0; k < f->nhash_writes; k++) {
		const struct hash_write *w = &f->hash_writes[k];

		if (w->dir != dir || &f->t->nodes[w->child] != c)
			continue;
		in_leaf |= strcmp(w->field, "nbtree") != 0;
		fprintf(f->cmds,
			"echo @@h %zu\ninode %" PRIu64 "\ndblock %" PRIu64
			"\nwrite %s[%d].hashval 0x%x\n",
			k, n->ino, w->block, w->field, w->index,
			hash_of(c->name));
	}
	if (!in_leaf) {
		err_file(c, "the hash of its directory entry cannot be found "
			    "in the new image");
		return -EIO;
	}
	return 0;
}

static int pass3_cmds(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		if (n->skip)
			continue;
		fprintf(f->cmds, "echo @@n %zu\n", i);
		for (j = 0; j < n->nxattrs && n->aformat > FORMAT_LOCAL; j++) {
			struct xattr *x = &n->xattrs[j];

			if (x->dropped)
				continue;
			if (x->remote) {
				if (x->policy) {
					err_msg("%s: the policy xattr landed "
						"out of line",
						n->rel);
					return -EIO;
				}
				x->dropped = true;
				report(n,
				       "xattr %s%s not copied: its value (%zu "
				       "bytes) is stored out of line, which "
				       "xfs_db %d.%d cannot write",
				       ns_prefix[x->ns], x->name, x->len,
				       f->x->major, f->x->minor);
				fprintf(f->cmds,
					"inode %" PRIu64 "\n"
					"attr_remove %s -- %s\n",
					n->ino, ns_flag[x->ns], x->name);
				continue;
			}
			fprintf(f->cmds,
				"inode %" PRIu64 "\nablock 0\n"
				"write nvlist[%d].value ",
				n->ino, x->slot);
			xfsdb_hex(f->cmds, (unsigned char *)x->value, x->len);
			fputc('\n', f->cmds);
		}
		for (j = 0; j < n->nchildren; j++) {
			struct node *c = &t->nodes[n->children[j]];

			if (!c->renamed || n->dformat == FORMAT_LOCAL)
				continue;
			if (!c->dirent_in_block) {
				err_msg("%s: its directory entry cannot be "
					"found in the new image",
					c->rel);
				return -EIO;
			}
			/*
			 * A block directory's verifier checks each name
			 * against the hashes in the same block: it holds
			 * again once the hash is written, just after.
			 */
			fprintf(f->cmds,
				"echo @@w %zu\ninode %" PRIu64
				"\ndblock %" PRIu64 "\nwrite %s%s[%d].name ",
				n->children[j], n->ino, c->dirent_block,
				needs_new_hash(c) &&
						!strcmp(c->dirent_field, "bu") ?
					"-d " :
					"",
				c->dirent_field, c->dirent_slot);
			xfsdb_hex(f->cmds, (unsigned char *)c->name,
				  strlen(c->name));
			fputc('\n', f->cmds);
			if (needs_new_hash(c) && hash_write_cmds(f, i, c))
				return -EIO;
		}
	}
	return 0;
}

static int pass3_parse(struct fixup *f, struct dbout *out)
{
	struct tree *t = f->t;
	struct node *n = NULL, *renamed = NULL;
	struct hash_write *hw = NULL;
	const char *v;
	size_t line, i;
	int idx;

	for (line = 0; line < out->nlines; line++) {
		const char *l = out->lines[line];
		struct xattr *x;

		if (sscanf(l, "@@n %zu", &i) == 1 && i < t->count) {
			n = &t->nodes[i];
			renamed = NULL;
			hw = NULL;
			continue;
		}
		if (sscanf(l, "@@w %zu", &i) == 1 && i < t->count) {
			renamed = &t->nodes[i];
			hw = NULL;
			continue;
		}
		if (sscanf(l, "@@h %zu", &i) == 1 && i < f->nhash_writes) {
			hw = &f->hash_writes[i];
			renamed = NULL;
			continue;
		}
		/* What "write -d" says; the hash written next mends it. */
		if (renamed && !strcmp(l, "Allowing write of corrupted data "
					  "with good CRC"))
			continue;
		if (!n)
			return bad_line(NULL, l);
		if (hw && field_at(l, hw->field, "hashval", &idx, &v)) {
			struct node *c = &t->nodes[hw->child];

			if (idx != hw->index ||
			    strtoul(v, NULL, 16) != hash_of(c->name)) {
				err_file(c,
					 "the hash of its directory entry "
					 "reads back as %s, not 0x%x",
					 v, hash_of(c->name));
				return -EIO;
			}
			hw->done = true;
			hw = NULL;
		} else if (field_at(l, "nvlist", "value", &idx, &v)) {
			x = attr_at_slot(n, idx);
			if (!x ||
			    check_written(n, "an xattr", v, x->value, x->len))
				return -EIO;
			x->written = true;
		} else if (renamed && (field_at(l, "bu", "name", &idx, &v) ||
				       field_at(l, "du", "name", &idx, &v))) {
			if (idx != renamed->dirent_slot ||
			    check_written(renamed, "its name", v, renamed->name,
					  strlen(renamed->name)))
				return -EIO;
			renamed = NULL;
		} else if (!xfsdb_line_ok(l)) {
			return bad_line(n, l);
		}
	}
	return 0;
}

/* Every xattr meant for the image is there with its value, or reported. */
static int check_all_written(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i, j;

	for (i = 0; i < f->nhash_writes; i++) {
		if (!f->hash_writes[i].done) {
			err_file(&t->nodes[f->hash_writes[i].child],
				 "the hash of its directory entry was not "
				 "written");
			return -EIO;
		}
	}
	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		for (j = 0; j < n->nxattrs && !n->skip; j++) {
			struct xattr *x = &n->xattrs[j];

			if (x->dropped && x->policy) {
				err_msg("%s: the policy xattr cannot be stored",
					n->rel);
				return -EIO;
			}
			if (!x->dropped && !x->written) {
				err_msg("%s: xattr %s%s was not written",
					n->rel, ns_prefix[x->ns], x->name);
				return -EIO;
			}
		}
	}
	return 0;
}

typedef void (*cmds_fn)(struct fixup *f);
typedef int (*parse_fn)(struct fixup *f, struct dbout *out);

static int run_pass(struct fixup *f, int (*cmds)(struct fixup *f),
		    parse_fn parse)
{
	struct dbout out;
	int ret;

	ret = batch_open(f);
	if (ret)
		return ret;
	ret = cmds(f);
	if (ret) {
		fclose(f->cmds);
		f->cmds = NULL;
		return ret;
	}
	ret = batch_run(f, &out);
	if (!ret)
		ret = parse(f, &out);
	dbout_free(&out);
	return ret;
}

static int pass1(struct fixup *f)
{
	pass1_cmds(f);
	return 0;
}

static int pass2(struct fixup *f)
{
	pass2_cmds(f);
	return 0;
}

int fixup_image(struct tree *t, const struct xfsprogs *x, const char *image,
		const char *workdir)
{
	struct fixup f = {
		.t = t,
		.x = x,
		.image = image,
		.workdir = workdir,
	};
	int ret;

	if (asprintf(&f.cmd_path, "%s/db.cmds", workdir) < 0)
		return -ENOMEM;
	ret = run_pass(&f, pass0, pass1_parse);
	if (!ret)
		ret = run_pass(&f, pass1, pass1_parse);
	if (!ret && f.need_pass1b)
		ret = run_pass(&f, pass1b_cmds, pass1b_parse);
	if (!ret)
		ret = run_pass(&f, pass2, pass2_parse);
	if (!ret && f.need_pass3)
		ret = run_pass(&f, pass3_cmds, pass3_parse);
	if (!ret)
		ret = check_all_written(&f);
	free(f.cmd_path);
	free(f.hash_writes);
	return ret;
}
