/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fix-ups xfs_db makes after mkfs.xfs, shared by the files that make
 * them: fixup.c runs the batches, fixup_answer.c reads xfs_db's answers
 * and the fields every job needs, fixup_util.c holds what they share,
 * fixup_inode.c sets inode core fields (timestamps, mode) and checks
 * device numbers and symlinks, fixup_xattr.c writes xattrs and
 * fixup_names.c writes names and symlink targets the protofile could not
 * carry (and, through dirindex.c, the hash index of directories). Each job writes commands into the batch being built and reads
 * the lines of xfs_db's answer meant for it (dbparse.h).
 *
 * A job's line readers return 1 for a line they read, 0 for a line that
 * is not theirs, and a negative errno for an error they have reported.
 */
#ifndef MKFS_FIXUP_H
#define MKFS_FIXUP_H

#include "dbparse.h"
#include "dirindex.h"
#include "mkfs.h"

/* The inode fork format that keeps the data in the inode. */
#define FORMAT_LOCAL 1

/*
 * A write into a directory block, planned in batch 4 and made in batch 5:
 * a renamed entry's name, name length or file type, or a field of the
 * directory's hash index (dirindex.h).
 */
struct dir_write {
	size_t dir; /* node index of the directory */
	size_t about; /* ... and of the node errors name */
	uint64_t block; /* directory block, in file system blocks */
	size_t seq; /* the order planned, kept within a block */
	char field[32]; /* "du[3].name", "lents[17].hashval" */
	unsigned char *bytes; /* a name's bytes, or NULL: ... */
	size_t nbytes;
	uint64_t value; /* ... a number */
	bool forced; /* write -d: the block is whole only after the last */
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
	/* The renamed entries of the directory being read (node indexes). */
	const struct node *renamed_of;
	size_t *renamed;
	size_t nrenamed;
	bool renamed_new_hash; /* one of them with a hash not its name's */
	/* The hash index of the directory being read in batch 4. */
	struct dir_index *index;
	/* What batch 5 writes in directory blocks; the current write. */
	struct dir_write *writes;
	size_t nwrites;
	struct dir_write *write;
};

/* fixup_util.c */
/*
 * Say that xfs_db's line @line about @n (NULL: before the first) is not
 * understood, or that memory ran out (@err -ENOMEM): the error to return.
 */
int fixup_bad_line(const struct node *n, const char *line, int err);
bool node_has_renamed_child(const struct tree *t, const struct node *n);

/* fixup_answer.c */
/* A batch of xfs_db commands and the readers of its answer (fixup.c). */
struct batch {
	/* Write the batch's commands into f->cmds. */
	int (*cmds)(struct fixup *f);
	/* Read the whole answer; if NULL, node by node with what follows. */
	int (*read)(struct fixup *f, const struct dbout *out);
	/* Each line after the "@@n INDEX" marker naming its node. */
	int (*line)(struct fixup *f, struct node *n, const char *line);
	/* Each node, once its lines are read (may be NULL). */
	int (*check)(struct fixup *f, struct node *n);
};

/* Lines about the inode itself: its number and what its forks hold. */
int inode_fields_line(struct node *n, const char *line);
/* A line of the short-form xattr listing, into f->slots. */
int attr_listing_line(struct fixup *f, struct node *n, const char *line);
/* The answer node by node: each "@@n INDEX" ends the lines of the last. */
int read_nodes(struct fixup *f, const struct dbout *out, const struct batch *b);
/* The answer ends with the batch's last marker, which it drops. */
int answer_complete(struct dbout *out);

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
/*
 * Batch 4: write in-inode names and targets; read the directory blocks
 * and plan what to write in them.
 */
bool names_pending(const struct tree *t, const struct node *n);
void names_inline_cmds(struct fixup *f, const struct node *n);
void names_block_print_cmds(struct fixup *f, size_t i, const struct node *n);
int names_inline_line(struct fixup *f, struct node *n, const char *line);
int names_inline_check(struct fixup *f, struct node *n);
/* Batch 5: the writes planned in directory blocks. */
int names_block_cmds(struct fixup *f, size_t i, const struct node *n);
int names_block_line(struct fixup *f, struct node *n, const char *line);
/* At the end: every write planned was made and read back. */
int names_check_written(struct fixup *f);
void names_free(struct fixup *f);

#endif /* MKFS_FIXUP_H */
