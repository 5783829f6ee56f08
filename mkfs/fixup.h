/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fix-ups xfs_db makes after mkfs.xfs, shared by the files that make
 * them: fixup.c runs the batches and reads the fields every job needs,
 * fixup_inode.c sets inode core fields (timestamps, mode) and checks
 * device numbers and symlinks, fixup_xattr.c writes xattrs and
 * fixup_names.c writes names and symlink targets the protofile could not
 * carry. Each job writes commands into the batch being built and reads
 * the lines of xfs_db's answer meant for it (dbparse.h).
 *
 * A job's line readers return 1 for a line they read, 0 for a line that
 * is not theirs, and a negative errno for an error they have reported.
 */
#ifndef MKFS_FIXUP_H
#define MKFS_FIXUP_H

#include "dbparse.h"
#include "mkfs.h"

/* The inode fork format that keeps the data in the inode. */
#define FORMAT_LOCAL 1

/* A leaf or node entry holding the hash of a placeholder, to be rewritten. */
struct hash_write {
	size_t dir; /* node index of the directory */
	size_t child; /* ... and of the renamed entry */
	uint64_t block; /* directory block, in file system blocks */
	const char *field; /* "bleaf", "lents" or "nbtree" */
	unsigned int index;
	bool done; /* written and read back */
};

struct fixup {
	struct tree *t;
	const struct xfsprogs *x;
	const char *image;
	const char *workdir;
	char *cmd_path;
	FILE *cmds; /* the batch being written */
	struct db_sb sb;
	bool need_late_attrs; /* a directory or symlink has xattrs */
	bool need_block_writes; /* something to write outside inodes */
	/* Reading an answer: the xattrs listed for the current inode... */
	struct attr_slots slots;
	struct node *attr_leaf; /* ... whose attribute leaf block it is */
	/* ... or the directory block it is. */
	uint64_t dir_block;
	/* What the current write of the last batch is meant to read back. */
	struct node *renamed;
	struct hash_write *hash_write;
	struct hash_write *hash_writes;
	size_t nhash_writes;
};

/* fixup.c */
/*
 * Say that xfs_db's line @line about @n (NULL: before the first) is not
 * understood, or that memory ran out (@err -ENOMEM): the error to return.
 */
int fixup_bad_line(const struct node *n, const char *line, int err);
bool node_has_renamed_child(const struct tree *t, const struct node *n);

/* fixup_inode.c */
/* Batch 2: timestamps and mode; then ask for the device number. */
void inode_core_cmds(struct fixup *f, struct node *n);
void inode_dev_cmds(struct fixup *f, const struct node *n);
int inode_dev_line(struct fixup *f, struct node *n, const char *line);
/* After batch 2: the device number and the symlink form are right. */
int inode_check(struct fixup *f, struct node *n);

/* fixup_xattr.c */
void xattr_drop_unstorable(struct node *n);
/*
 * Batch 2: create the xattrs of all but directories and symlinks; batch 3
 * those. After each, they are found in the short-form listing read into
 * f->slots, or left to batch 5 in a leaf block.
 */
void xattr_create_cmds(struct fixup *f, struct node *n);
int xattr_late_cmds(struct fixup *f);
int xattr_created_check(struct fixup *f, struct node *n);
/* Batch 4: write short-form values; list attribute leaf blocks. */
bool xattr_pending(const struct node *n);
void xattr_inline_cmds(struct fixup *f, const struct node *n);
void xattr_leaf_print_cmds(struct fixup *f, size_t i, const struct node *n);
int xattr_inline_line(struct fixup *f, struct node *n, const char *line);
int xattr_inline_check(struct fixup *f, struct node *n);
/* Batch 5: write leaf values, remove out-of-line ones. */
int xattr_leaf_cmds(struct fixup *f, struct node *n);
int xattr_leaf_line(struct fixup *f, struct node *n, const char *line);
/* At the end: each xattr written and read back, or reported. */
int xattr_check_written(struct fixup *f);

/* fixup_names.c */
/* Batch 2: where the entries of renamed names are. */
void names_locate_cmds(struct fixup *f, const struct node *n);
int names_locate_line(struct fixup *f, struct node *n, const char *line);
int names_located_check(struct fixup *f, struct node *n);
/* Batch 4: write in-inode names and targets; list directory blocks. */
bool names_pending(const struct tree *t, const struct node *n);
void names_inline_cmds(struct fixup *f, const struct node *n);
void names_block_print_cmds(struct fixup *f, size_t i, const struct node *n);
int names_inline_line(struct fixup *f, struct node *n, const char *line);
/* Batch 5: write names and hashes in directory blocks. */
int names_block_cmds(struct fixup *f, size_t i, const struct node *n);
int names_block_line(struct fixup *f, struct node *n, const char *line);
/* At the end: every hash meant to be rewritten was. */
int names_check_written(struct fixup *f);

#endif /* MKFS_FIXUP_H */
