/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading what xfs_db prints (dbparse.c), one line at a time, the line
 * without its newline and trailing blanks. Its lines are fields,
 * "NAME = VALUE", where a NAME inside an array is "PREFIX[INDEX].MEMBER";
 * the entries of an array printed whole, "INDEX:[V,V,...]"; "current inode
 * number is N"; bmap's extents; and the "@@TAG N ..." markers the fix-up
 * batches echo between their commands.
 *
 * Each parser returns 1 when it read the line, 0 when the line is not of
 * its kind, and -EINVAL when it is but does not parse (a number cut short
 * or out of range, a bracket missing): output that is not understood fails
 * the build instead of passing unread. The attribute slot table may also
 * return -ENOMEM.
 */
#ifndef MKFS_DBPARSE_H
#define MKFS_DBPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* xfs_db's answer to a batch: its output, and the lines in it. */
struct dbout {
	char *buf;
	size_t len;
	char **lines;
	size_t nlines;
};
/*
 * Cut @out->buf, of @out->len bytes and room for one more, into lines
 * without their newline and trailing blanks (echo and array headers leave
 * one): 0, or -ENOMEM.
 */
int dbout_split(struct dbout *out);
void dbout_free(struct dbout *out);

/* No XFS block holds more entries than this (64k blocks, 8-byte entries). */
#define DB_INDEX_MAX 65535

/* "@@TAG A B ...", with exactly @nargs decimal arguments. */
int db_marker(const char *line, const char *tag, uint64_t *args, int nargs);

/* "NAME = VALUE" for exactly @name; @value points into @line. */
int db_field(const char *line, const char *name, const char **value);
/*
 * ... whose VALUE is a number, decimal or "0x" hex, maybe followed by
 * xfs_db's note in parentheses ("core.format = 1 (local)").
 */
int db_field_u64(const char *line, const char *name, uint64_t *v);
/* ... and such a VALUE, as db_field() and db_elem() return it. */
int db_value_u64(const char *value, uint64_t *v);
/* "PREFIX[INDEX].MEMBER = VALUE" for exactly @prefix and @member. */
int db_elem(const char *line, const char *prefix, const char *member,
	    unsigned int *index, const char **value);
/* "INDEX:[V,...]" with exactly @nvals numbers, decimal or "0x" hex. */
int db_entry(const char *line, unsigned int *index, uint64_t *vals, int nvals);
/* "current inode number is N", what `inode` and `path` print. */
int db_inode_number(const char *line, uint64_t *ino);
/* bmap -d: "data offset N startblock N (AG/AGBLOCK) count N flag N". */
int db_data_extent(const char *line, uint64_t *offset, uint64_t *count);

/* What `sb 0`, `print blocklog dirblklog inodesize` and `version` say. */
struct db_sb {
	unsigned int blocklog;
	unsigned int dirblklog;
	unsigned int inodesize;
	bool crc;
	bool bigtime;
	bool ftype; /* directory entries hold the file type */
	unsigned int seen; /* DB_SB_* of the lines read */
};
#define DB_SB_BLOCKLOG 1u
#define DB_SB_DIRBLKLOG 2u
#define DB_SB_INODESIZE 4u
#define DB_SB_VERSION 8u
#define DB_SB_ALL 15u
int db_sb_line(const char *line, struct db_sb *sb);

/*
 * True for what xfs_db prints when a command works: fields, array entries,
 * "current inode number is N", the markers and blank lines. xfs_db prints
 * its errors on stdout between them: anything else is one.
 */
bool db_line_ok(const char *line);

/*
 * The xattrs of an attribute fork as xfs_db lists them: names in xfs_db's
 * rendering (quotes included) and namespace flags, by slot, from a short
 * form fork (a.sfattr.list) or from an attribute leaf block.
 */
struct attr_slot {
	char *name; /* NULL until its name line is read */
	bool root; /* trusted.* */
	bool secure; /* security.* */
	bool local; /* value in the block, not out of line */
};
struct attr_slots {
	struct attr_slot *slot;
	unsigned int count;
	bool leaf_magic; /* a leaf block's magic number was read */
};
/* a.sfattr.list[N].name, .root and .secure lines. */
int attr_slots_sf_line(struct attr_slots *s, const char *line);
/* A leaf block's magic, nvlist[N].name and entries[] lines. */
int attr_slots_leaf_line(struct attr_slots *s, const char *line);
void attr_slots_reset(struct attr_slots *s);

#endif /* MKFS_DBPARSE_H */
