// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xattrs, which the protofile cannot carry at all. xfs_db 6.1's attr_set
 * stores only values of repeated 'v's of the right length, so each xattr
 * is created with one (batch 2, or batch 3 for directories and symlinks),
 * found again in the listing of the attribute fork, and its value written
 * over in place: in the inode (batch 4) or in the attribute leaf block
 * (batch 5). Every value is read back from xfs_db's answer. What xfs_db
 * cannot store is reported and left out; the policy xattr never is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fixup.h"

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
void xattr_drop_unstorable(struct node *n)
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

/* attr_set for each xattr kept, then the listing to find them in. */
static void attr_set_cmds(struct fixup *f, const struct node *n)
{
	bool any = false;
	size_t j;

	for (j = 0; j < n->nxattrs; j++) {
		const struct xattr *x = &n->xattrs[j];

		if (x->dropped)
			continue;
		fprintf(f->cmds, "attr_set %s -v %zu -- %s\n", ns_flag[x->ns],
			x->len, x->name);
		any = true;
	}
	if (any)
		fputs("print core.aformat a\n", f->cmds);
}

void xattr_create_cmds(struct fixup *f, struct node *n)
{
	/*
	 * xfs_db 6.1 crashes when an attribute fork does not fit next to a
	 * data fork kept in the inode: directories and symlinks get their
	 * xattrs in batch 3, once the size of their data fork is known.
	 */
	if (n->nxattrs && (n->type == NODE_DIR || n->type == NODE_SYMLINK)) {
		n->late_attrs = true;
		f->need_late_attrs = true;
		fputs("print core.size\n", f->cmds);
		return;
	}
	attr_set_cmds(f, n);
}

/* Find each xattr of @n among @s, noting its slot; false if one is not. */
static bool match_attrs(struct node *n, const struct attr_slots *s)
{
	unsigned int k;
	size_t j;

	for (j = 0; j < n->nxattrs; j++) {
		struct xattr *x = &n->xattrs[j];
		char *want;

		if (x->dropped)
			continue;
		want = xfsdb_render_str((const unsigned char *)x->name,
					strlen(x->name));
		x->slot = -1;
		for (k = 0; k < s->count; k++) {
			const struct attr_slot *a = &s->slot[k];

			if (a->name && !strcmp(a->name, want) &&
			    a->root == (x->ns == ATTR_NS_ROOT) &&
			    a->secure == (x->ns == ATTR_NS_SECURE)) {
				x->slot = (int)k;
				x->remote = !a->local;
				break;
			}
		}
		free(want);
		if (x->slot < 0)
			return false;
	}
	return true;
}

int xattr_created_check(struct fixup *f, struct node *n)
{
	if (n->aformat == FORMAT_LOCAL && !match_attrs(n, &f->slots)) {
		err_msg("%s: an xattr set in the new image cannot be found "
			"there",
			n->rel);
		return -EIO;
	}
	/* In a leaf block: written in batch 5. */
	if (n->aformat > FORMAT_LOCAL)
		f->need_block_writes = true;
	return 0;
}

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

/* Drop them all: there is no room for them next to the data fork. */
static void drop_for_room(struct fixup *f, struct node *n)
{
	size_t j;

	for (j = 0; j < n->nxattrs; j++) {
		struct xattr *x = &n->xattrs[j];

		if (x->dropped)
			continue;
		x->dropped = true;
		report(n,
		       "xattr %s%s not copied: with the %s kept in the inode "
		       "there is no room for the xattrs, and xfs_db %d.%d "
		       "cannot move it",
		       ns_prefix[x->ns], x->name,
		       n->type == NODE_DIR ? "directory" : "symlink target",
		       f->x->major, f->x->minor);
	}
}

int xattr_late_cmds(struct fixup *f)
{
	const struct geometry g = { .inodesize = f->sb.inodesize,
				    .crc = f->sb.crc };
	size_t literal = inode_literal_bytes(&g);
	struct tree *t = f->t;
	size_t i;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		if (!n->late_attrs || n->skip)
			continue;
		if (n->dformat == FORMAT_LOCAL &&
		    ((n->dsize + 7) & ~7ull) + sf_attr_bytes(n) > literal) {
			drop_for_room(f, n);
			continue;
		}
		fprintf(f->cmds, "echo @@n %zu\ninode %" PRIu64 "\n", i,
			n->ino);
		attr_set_cmds(f, n);
	}
	return 0;
}

bool xattr_pending(const struct node *n)
{
	size_t j;

	for (j = 0; j < n->nxattrs; j++)
		if (!n->xattrs[j].dropped)
			return true;
	return false;
}

void xattr_inline_cmds(struct fixup *f, const struct node *n)
{
	size_t j;

	for (j = 0; j < n->nxattrs && n->aformat == FORMAT_LOCAL; j++) {
		const struct xattr *x = &n->xattrs[j];

		if (x->dropped)
			continue;
		fprintf(f->cmds, "write a.sfattr.list[%d].value ", x->slot);
		xfsdb_hex(f->cmds, (const unsigned char *)x->value, x->len);
		fputc('\n', f->cmds);
	}
}

void xattr_leaf_print_cmds(struct fixup *f, size_t i, const struct node *n)
{
	if (n->nxattrs && n->aformat > FORMAT_LOCAL)
		fprintf(f->cmds,
			"echo @@a %zu\nablock 0\nprint\ninode %" PRIu64 "\n", i,
			n->ino);
}

static struct xattr *attr_at_slot(struct node *n, unsigned int slot)
{
	size_t j;

	for (j = 0; j < n->nxattrs; j++)
		if (!n->xattrs[j].dropped && n->xattrs[j].slot == (int)slot)
			return &n->xattrs[j];
	return NULL;
}

/* @n's xattr in @slot reads back as @got: its value, as xfs_db prints it? */
static int check_value(struct node *n, const char *line, unsigned int slot,
		       const char *got)
{
	struct xattr *x = attr_at_slot(n, slot);
	char *want;
	int ret = 0;

	if (!x)
		return fixup_bad_line(n, line, -EIO);
	want = xfsdb_render_str((const unsigned char *)x->value, x->len);
	if (strcmp(got, want)) {
		err_msg("%s: an xattr reads back as %s, not %s", n->rel, got,
			want);
		ret = -EIO;
	}
	free(want);
	x->written = !ret;
	return ret ? ret : 1;
}

/* The leaf block listed must hold all of the xattrs of its inode. */
static int leaf_read(struct fixup *f)
{
	struct node *n = f->attr_leaf;
	bool found = f->slots.leaf_magic && match_attrs(n, &f->slots);

	f->attr_leaf = NULL;
	attr_slots_reset(&f->slots);
	if (!found) {
		err_msg("%s: its xattrs fill more than one attribute block; "
			"xfs_db %d.%d cannot rewrite their values. Store "
			"fewer or smaller xattrs on it",
			n->rel, f->x->major, f->x->minor);
		return -EINVAL;
	}
	return 0;
}

int xattr_inline_line(struct fixup *f, struct node *n, const char *line)
{
	unsigned int idx;
	const char *v;
	uint64_t arg;
	int ret;

	/* The next marker ends a leaf block's listing. */
	if (f->attr_leaf && !strncmp(line, "@@", 2)) {
		ret = leaf_read(f);
		if (ret)
			return ret;
	}
	ret = db_marker(line, "a", &arg, 1);
	if (ret) {
		if (ret < 0)
			return fixup_bad_line(n, line, ret);
		attr_slots_reset(&f->slots);
		f->attr_leaf = n;
		return 1;
	}
	if (f->attr_leaf) {
		ret = attr_slots_leaf_line(&f->slots, line);
		if (ret < 0)
			return fixup_bad_line(n, line, ret);
		if (!db_line_ok(line))
			return fixup_bad_line(n, line, -EINVAL);
		return 1;
	}
	ret = db_elem(line, "a.sfattr.list", "value", &idx, &v);
	if (ret < 0)
		return fixup_bad_line(n, line, ret);
	return ret ? check_value(n, line, idx, v) : 0;
}

int xattr_inline_check(struct fixup *f, struct node *n)
{
	return f->attr_leaf ? leaf_read(f) : 0;
}

/* Out-of-line values are beyond xfs_db 6.1: reported and removed. */
static int remove_remote(struct fixup *f, struct node *n, struct xattr *x)
{
	if (x->policy) {
		err_msg("%s: the policy xattr landed out of line", n->rel);
		return -EIO;
	}
	x->dropped = true;
	report(n,
	       "xattr %s%s not copied: its value (%zu bytes) is stored out "
	       "of line, which xfs_db %d.%d cannot write",
	       ns_prefix[x->ns], x->name, x->len, f->x->major, f->x->minor);
	fprintf(f->cmds, "inode %" PRIu64 "\nattr_remove %s -- %s\n", n->ino,
		ns_flag[x->ns], x->name);
	return 0;
}

int xattr_leaf_cmds(struct fixup *f, struct node *n)
{
	size_t j;

	for (j = 0; j < n->nxattrs && n->aformat > FORMAT_LOCAL; j++) {
		struct xattr *x = &n->xattrs[j];

		if (x->dropped)
			continue;
		if (x->remote) {
			if (remove_remote(f, n, x))
				return -EIO;
			continue;
		}
		fprintf(f->cmds,
			"inode %" PRIu64 "\nablock 0\nwrite nvlist[%d].value ",
			n->ino, x->slot);
		xfsdb_hex(f->cmds, (const unsigned char *)x->value, x->len);
		fputc('\n', f->cmds);
	}
	return 0;
}

int xattr_leaf_line(struct fixup *f, struct node *n, const char *line)
{
	unsigned int idx;
	const char *v;
	int ret = db_elem(line, "nvlist", "value", &idx, &v);

	if (ret < 0)
		return fixup_bad_line(n, line, ret);
	return ret ? check_value(n, line, idx, v) : 0;
}

int xattr_check_written(struct fixup *f)
{
	struct tree *t = f->t;
	size_t i, j;

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
