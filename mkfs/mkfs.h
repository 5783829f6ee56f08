/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfs.execfolio: an XFS image from a directory tree, with the exec folio
 * policy xattr on the chosen files, built without root by driving
 * mkfs.xfs -p and xfs_db -x (DESIGN.md section 9).
 *
 * The steps, one file each: tree.c reads the source, select.c chooses the
 * policies, names.c makes names the protofile can carry, fit.c fits
 * mkfs.xfs's geometry to the tree, proto.c writes
 * the protofile, image.c runs mkfs.xfs, check.c refuses what a build
 * cannot make; fixup.c makes what the protofile cannot say with xfs_db
 * batches (fixup.h: timestamps, modes and device numbers in
 * fixup_inode.c, xattrs in fixup_xattr.c, names in fixup_names.c), which
 * xfsdb.c runs and dbparse.c reads; report.c lists what differs;
 * tempfiles.c makes the hidden image and the work directory, and removes
 * those killed runs left.
 */
#ifndef MKFS_EXECFOLIO_H
#define MKFS_EXECFOLIO_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <execfolio/elf.h>

#include "dbparse.h"
#include "frontend.h"

/* Below XFS_SYMLINK_MAXLEN: Linux refuses longer targets on XFS. */
#define XFS_SYMLINK_MAX 1023

/* XFS attribute namespaces, as xfs_db's attr_set flags name them. */
enum attr_ns {
	ATTR_NS_USER, /* user.* */
	ATTR_NS_ROOT, /* trusted.* */
	ATTR_NS_SECURE, /* security.* */
};

struct xattr {
	enum attr_ns ns;
	char *name; /* inside the namespace, without "user." etc. */
	char *value;
	size_t len;
	/*
	 * trusted.exec_folio_size of a regular file, with a valid value in
	 * canonical form: chosen by the options or the source's own.
	 */
	bool policy;
	bool written; /* value rewritten and read back */
	bool dropped; /* could not be stored; reported */
	int slot; /* its index in the short-form list or leaf block */
	bool remote; /* leaf entry with its value out of line */
};

/*
 * What --auto needs of a regular file's ELF headers, read while the tree
 * is read, from the file opened then (once, and its headers only).
 */
struct elf_headers {
	bool read; /* analysed: --auto, and not an empty file */
	int err; /* execfolio_elf_analyse_fd()'s error, 0 if none */
	char *why; /* "SOURCE: reason", when err (allocated) */
	enum execfolio_elf_type type;
	uint32_t recommended; /* execfolio_elf_recommend() */
	bool past_eof; /* an executable segment runs past the end */
};

enum node_type {
	NODE_REG,
	NODE_DIR,
	NODE_SYMLINK,
	NODE_CHR,
	NODE_BLK,
	NODE_FIFO,
	NODE_SOCK,
};

struct node {
	char *rel; /* path below SOURCE_DIR, "" for the root */
	char *name; /* last component, NULL for the root */
	char *img_name; /* name written to the protofile */
	char *img_path; /* "/"-rooted path through img_name, for xfs_db */
	size_t parent;
	size_t *children;
	size_t nchildren;
	size_t children_cap;
	enum node_type type;
	struct stat st;
	char *target; /* symlink target */
	char *proto_target; /* symlink target written to the protofile */
	struct xattr *xattrs;
	size_t nxattrs;
	bool skip; /* not in the image (sockets); reported */
	size_t link_of; /* hard link: node with the same inode, or 0 */
	bool renamed; /* img_name is a placeholder for name */
	bool same_hash; /* ... with the same XFS directory hash */
	bool target_fixup; /* proto_target is a placeholder for target */
	struct elf_headers elf; /* regular files, for --auto */
	/* Filled in from the image. */
	uint64_t ino;
	int aformat; /* attribute fork format, 1 local */
	int dformat; /* data fork format (directories, symlinks) */
	uint64_t dsize; /* data fork bytes, when in the inode */
	uint32_t image_rdev; /* device number, as the inode keeps it */
	bool image_rdev_read;
	bool late_attrs; /* xattrs set after the data fork is known */
	uint64_t *dblocks; /* directory data blocks, file offsets */
	size_t ndblocks;
	int dirent_slot; /* where the entry of a renamed node is */
	bool dirent_in_block; /* ... in a directory block, not short form */
	uint64_t dirent_block;
	char dirent_field[4]; /* "bu" (block) or "du" (data block) */
	bool have_tag; /* ... its offset in the block read */
	uint16_t dirent_tag;
};

struct tree {
	char *source; /* SOURCE_DIR, absolute */
	bool read_elf; /* analyse the ELF headers of regular files */
	struct node *nodes; /* nodes[0] is the root, parents first */
	size_t count;
	size_t cap;
	uint64_t data_bytes; /* file data rounded up to 4K blocks */
	size_t nattrs; /* xattrs to write in all */
};

struct rule {
	const char *arg; /* GLOB=SIZE as given, for messages */
	char *glob; /* without the leading '/' an absolute GLOB has */
	uint32_t size;
};

struct options {
	const char *source;
	const char *image;
	bool have_exec_size;
	uint32_t exec_size;
	bool auto_size;
	struct rule *rules;
	size_t nrules;
	uint64_t image_size; /* 0: fit the tree */
	bool force;
	bool strict; /* differences from the source are errors */
	bool check; /* run xfs_repair -n on the result */
	bool verbose;
	bool dry_run; /* print the policies chosen, make nothing */
	const char *report; /* report file, NULL for stderr */
	char **mkfs_args; /* after "--" */
	int nmkfs_args;
};

/* report.c: what the image cannot carry, one line per file and reason. */
int report_open(const char *path);
void report(const struct node *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A line of the report that is no difference for --strict: the file reads
 * back the same, only how it is stored differs (a sparse file).
 */
void report_note(const struct node *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
size_t report_count(void);
int report_close(void);
/* An error about one file: its path below SOURCE_DIR, escaped, first. */
void err_file(const struct node *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Write @len bytes of @s with non-printable bytes as C escapes. */
void fput_escaped(FILE *out, const void *s, size_t len);
/* What @put writes of @len bytes at @s, in a string the caller frees. */
char *render_str(void (*put)(FILE *, const void *, size_t), const void *s,
		 size_t len);

/* tree.c */
/* @read_elf: analyse each regular file's ELF headers (node.elf) too. */
int tree_read(struct tree *t, const char *source, bool read_elf);
void tree_free(struct tree *t);
/* SOURCE_DIR/rel, in a buffer the caller frees. */
char *tree_source_path(const struct tree *t, const struct node *n);

/* select.c: the policy options of DESIGN.md section 9. */
int select_policies(struct tree *t, const struct options *o);
/* Both parsers say on stderr what is wrong with @arg. */
int parse_rule(const char *arg, struct rule *rule);

/* names.c */
bool name_is_proto_safe(const char *name);
uint32_t xfs_dahash(const unsigned char *name, size_t len);
/*
 * Bytes a directory data block entry of a @namelen-byte name takes, with
 * the file type in entries (@ftype) or without (xfs_dir2_data_entsize()).
 */
size_t xfs_dirent_bytes(size_t namelen, bool ftype);
int names_assign(struct tree *t);

/* proto.c */
int proto_write(const struct tree *t, const char *path, const char *workdir);

/* image.c */
struct xfsprogs {
	char mkfs[256];
	char db[256];
	char repair[256];
	int major;
	int minor;
};
int xfsprogs_find(struct xfsprogs *x);
/* An estimate from the data and entries, with @inodesize-byte inodes. */
uint64_t image_default_size(const struct tree *t, unsigned int inodesize);
int parse_image_size(const char *arg, uint64_t *size); /* says why not */
/*
 * -ENOSPC, quietly, when the default size was too small: try larger.
 * Other failures, a full file system under IMAGE among them, are said.
 */
int image_mkfs(const struct xfsprogs *x, const struct options *o,
	       const char *tmp_image, const char *proto, const char *workdir,
	       uint64_t size);
int image_repair_check(const struct xfsprogs *x, const char *image);
/* What mkfs.xfs -N says it would make with MKFS_XFS_OPTIONS. */
struct geometry {
	unsigned int inodesize;
	unsigned int blocksize;
	unsigned int agcount;
	unsigned int agblocks;
	bool crc;
	bool bigtime;
	bool ftype; /* directory entries hold the file type */
};
/*
 * -ENOSPC, quietly, when @may_grow and MKFS_XFS_OPTIONS need a larger
 * image than @size (many allocation groups, each holding a 64 MB log).
 */
int image_geometry(const struct xfsprogs *x, const struct options *o,
		   const char *workdir, uint64_t size, bool may_grow,
		   struct geometry *g);

/*
 * fit.c: the geometry the tree needs. fit_inode_size() adds -i size=N to
 * @o's MKFS_XFS_OPTIONS (a copy) when the longest symlink target needs a
 * larger inode and the options set none: 1 and the size if it did.
 * fit_default_size() is the default image size with room in every
 * allocation group for the largest file; fit_ag_room() the largest file
 * an allocation group of @g takes.
 */
int fit_inode_size(const struct tree *t, struct options *o,
		   const struct geometry *g, unsigned int *inodesize);
uint64_t fit_default_size(const struct tree *t, const struct geometry *g);
uint64_t fit_ag_room(const struct geometry *g);

/* check.c: what a build refuses, found before it starts (and by -n). */
/* Bytes of an inode's literal area, for data kept in the inode. */
unsigned int inode_literal_bytes(const struct geometry *g);
int tree_check(const struct tree *t, const struct geometry *g);

/* xfsdb.c: one xfs_db process per batch of commands. */
/* The program run_program() waits for, for the signal handler to stop. */
extern volatile sig_atomic_t running_child;
int run_program(char *const argv[], const char *cwd, const char *out_path,
		const char *err_path);
int xfsdb_run(const struct xfsprogs *x, const char *image, const char *cmd_path,
	      const char *workdir, struct dbout *out);
/* Print bytes as xfs_db prints a string field, quotes included. */
void xfsdb_render(FILE *out, const void *s, size_t len);
char *xfsdb_render_str(const unsigned char *s, size_t len);
/* "#hex" as xfs_db's write takes arbitrary bytes. */
void xfsdb_hex(FILE *out, const unsigned char *s, size_t len);

/*
 * tempfiles.c: the hidden image next to IMAGE and the work directory, each
 * locked by its run while it lives; what killed runs left is removed when
 * the next run makes its own (messages say what).
 */
enum temp_kind {
	TEMP_IMAGE, /* DIR/.IMAGE.mkfs.execfolio.XXXXXX */
	TEMP_WORKDIR, /* TMPDIR/mkfs.execfolio.work.XXXXXX */
};
/* Make and lock the work directory in @parent: 0 or -errno. */
int temp_make_workdir(const char *parent, char *path, size_t size, int *lock);
/* Make and lock the hidden image for @base in @dir: 0 or -errno. */
int temp_make_image(const char *dir, const char *base, char *path, size_t size,
		    int *fd);
void temp_remove_leftovers(const char *dir, enum temp_kind kind);
/* Remove @dir below @at and what it holds; async-signal-safe. */
int remove_dir_at(int at, const char *dir, int depth);

/* fixup.c: the xfs_db batches, after mkfs.xfs (fixup.h). */
int fixup_image(struct tree *t, const struct xfsprogs *x, const char *image,
		const char *workdir);

#endif /* MKFS_EXECFOLIO_H */
