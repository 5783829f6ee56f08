/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execfoliofs: a passthrough FUSE file system that applies the exec folio
 * policy and can trace what a workload faults in. This header is shared by
 * the files of the daemon; each file has one job (see fuse/fuse.mk).
 */
#ifndef EXECFOLIOFS_H
#define EXECFOLIOFS_H

#define FUSE_USE_VERSION 312

#include <dirent.h>
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include <execfolio/applied.h>
#include <execfolio/policy.h>

/*
 * Virtual read-only xattrs answered by the daemon itself. The policy one is
 * how `execfolio get` learns what the daemon applies.
 */
#define EFS_XATTR_POLICY EXECFOLIO_FUSE_XATTR_POLICY
#define EFS_XATTR_STATS "trusted.execfoliofs.stats"

/*
 * One backing inode the kernel knows about. The FUSE node id is the
 * address of this structure; the kernel holds @nlookup references and
 * returns them with forget. Once the last reference is gone it leaves the
 * table and its descriptor is closed; the memory is freed after an RCU
 * grace period.
 */
struct efs_inode {
	struct cds_lfht_node node;
	struct rcu_head rcu;
	int fd; /* O_PATH, O_NOFOLLOW: identifies the backing inode */
	dev_t dev;
	ino_t ino;
	uint64_t nlookup; /* atomic; 0 means dying */
	bool is_root;

	pthread_mutex_t lock; /* protects the fields below */
	mode_t mode;
	struct execfolio_policy policy;
	uint32_t trace_id; /* 0 until the trace has described it */
};

/* An open file or directory: fi->fh points to it. */
struct efs_file {
	int fd;
	uint32_t stream; /* trace: one read-ahead state per open */
	DIR *dir; /* directories only */
	off_t dir_offset;
	struct dirent *dir_entry; /* pending entry that did not fit */
};

struct efs_fs {
	char *backing; /* as given */
	char *mountpoint;
	int backing_fd;
	struct efs_inode root;
	struct cds_lfht *table;
	unsigned long inodes; /* atomic: in the table, root excluded */
	unsigned long open_files; /* atomic */
	double timeout;

	bool has_mount_policy;
	uint32_t mount_policy; /* exec_folio_size=, 0 for none */
	enum execfolio_scope mount_scope; /* exec_folio_scope= */

	char *trace_path;
	struct efs_trace *trace;
	bool debug;
};

extern struct efs_fs efs;
extern const struct fuse_lowlevel_ops efs_ops;

/* inode.c */
int efs_table_init(void);
void efs_table_destroy(void);
void efs_rcu_thread(void);
struct efs_inode *efs_inode(fuse_ino_t ino);
/*
 * Find or create the inode for @fd (O_PATH) with stat @st; takes @fd.
 * @created: the daemon has just created this file, so it has no xattr.
 */
struct efs_inode *efs_inode_get(int fd, const struct stat *st, bool created);
void efs_inode_forget(struct efs_inode *inode, uint64_t n);

/* The operations (fuse/ops.c puts them in one table). */
void efs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name);
void efs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup);
void efs_forget_multi(fuse_req_t req, size_t count,
		      struct fuse_forget_data *forgets);
void efs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void efs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int valid,
		 struct fuse_file_info *fi);
void efs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
	       dev_t rdev);
void efs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode);
void efs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		 const char *name);
void efs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	      const char *newname);
void efs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name);
void efs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name);
void efs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		fuse_ino_t newparent, const char *newname, unsigned int flags);
void efs_readlink(fuse_req_t req, fuse_ino_t ino);
void efs_statfs(fuse_req_t req, fuse_ino_t ino);
void efs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void efs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		mode_t mode, struct fuse_file_info *fi);
void efs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	      struct fuse_file_info *fi);
void efs_write_buf(fuse_req_t req, fuse_ino_t ino, struct fuse_bufvec *buf,
		   off_t off, struct fuse_file_info *fi);
void efs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void efs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void efs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	       struct fuse_file_info *fi);
void efs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset,
		   off_t length, struct fuse_file_info *fi);
void efs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	       struct fuse_file_info *fi);
void efs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void efs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		 struct fuse_file_info *fi);
void efs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi);
void efs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void efs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		  struct fuse_file_info *fi);
void efs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		  const char *value, size_t size, int flags);
void efs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		  size_t size);
void efs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size);
void efs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name);
void efs_init(void *userdata, struct fuse_conn_info *conn);
void efs_destroy(void *userdata);

/* ops_entry.c helpers used by other ops */

/*
 * "/proc/self/fd/FD", the path of the backing file @fd holds for the calls
 * that take no descriptor (open, chmod, truncate, utimensat, the xattr
 * calls). The buffer holds the path of any int, so it is never cut short
 * and efs_proc_path() cannot fail; it returns @buf->s.
 */
struct efs_proc_path {
	char s[sizeof("/proc/self/fd/") + 3 * sizeof(int)];
};
const char *efs_proc_path(int fd, struct efs_proc_path *buf);
void efs_reply_entry(fuse_req_t req, fuse_ino_t parent, const char *name);
/* @created: stat of the file this request has just created, or NULL. */
int efs_do_lookup(fuse_ino_t parent, const char *name,
		  struct fuse_entry_param *e, const struct stat *created);
/* Give a new name the caller's ownership; returns 0 or -errno. */
int efs_set_owner(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode);

/* policy.c */
void efs_policy_resolve(struct efs_inode *inode, mode_t mode, bool no_xattr);
/* Returns bytes written into @buf, -ERANGE if too small, or -errno. */
int efs_virtual_xattr(struct efs_inode *inode, const char *name, char *buf,
		      size_t size);
bool efs_is_virtual_xattr(const char *name);

/*
 * report.c: `execfoliofs --report [OPTIONS] TRACE` runs `execfolio report
 * [OPTIONS] TRACE`, @argv[0] being "--report". Returns only on failure,
 * after a message: EXIT_FAILED.
 */
int efs_run_report(int argc, char **argv);

#endif /* EXECFOLIOFS_H */
