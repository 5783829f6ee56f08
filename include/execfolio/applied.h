/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who applies a file's exec folio policy on the running system: the kernel
 * (XFS with the execfolio series) or nobody. A policy stored where nothing
 * reads it is kept (an image may be built from the tree) but changes
 * nothing here, and the tools say so. The execfoliofs daemon resolves the
 * policy of its files and records it in its traces, but the kernel caches
 * the files of a FUSE mount without it: applied by nobody, the daemon's
 * answer kept beside.
 */
#ifndef EXECFOLIO_APPLIED_H
#define EXECFOLIO_APPLIED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <execfolio/error.h>
#include <execfolio/kernel.h>
#include <execfolio/mount.h>
#include <execfolio/policy.h>

/* The FUSE subtype of execfoliofs mounts, and the type mountinfo shows. */
#define EXECFOLIO_FUSE_SUBTYPE "execfoliofs"
#define EXECFOLIO_FUSE_FSTYPE "fuse." EXECFOLIO_FUSE_SUBTYPE
/*
 * The read-only attribute execfoliofs answers itself on every file: the
 * policy the daemon applies, "SIZE SOURCE" (canonical size, then xattr,
 * mount or none), followed by " invalid-xattr" when it ignored a malformed
 * stored value.
 */
#define EXECFOLIO_FUSE_XATTR_POLICY "trusted.execfoliofs.policy"

enum execfolio_applier {
	EXECFOLIO_APPLIED_BY_NONE,
	EXECFOLIO_APPLIED_BY_KERNEL,
};

/* Why nobody applies the policy (applier EXECFOLIO_APPLIED_BY_NONE). */
enum execfolio_not_applied {
	EXECFOLIO_NOT_APPLIED_FILESYSTEM, /* neither XFS nor execfoliofs */
	EXECFOLIO_NOT_APPLIED_KERNEL, /* XFS, but the kernel lacks the series */
	/* execfoliofs: its daemon resolves and traces it, the kernel not */
	EXECFOLIO_NOT_APPLIED_FUSE,
};

/* What the execfoliofs daemon answers in EXECFOLIO_FUSE_XATTR_POLICY. */
struct execfolio_daemon_policy {
	bool known; /* asked and answered (needs CAP_SYS_ADMIN) */
	uint32_t size;
	enum execfolio_source source;
	bool invalid_xattr; /* it ignored a malformed stored value */
};

struct execfolio_applied {
	enum execfolio_applier by;
	enum execfolio_not_applied why; /* when by is EXECFOLIO_APPLIED_BY_NONE */
	int kernel_err; /* why KERNEL: the ioctl's errno (ENOTTY, ...) */
	/* The policy in force: by the kernel, else 0/none. */
	uint32_t size;
	enum execfolio_source source;
	/* by KERNEL: all XFS_IOC_GET_EXEC_FOLIO said. */
	struct execfolio_kernel_state kernel;
	/* why FUSE: the policy the daemon traces, when it could be asked. */
	struct execfolio_daemon_policy daemon;
};

/*
 * Find out who applies the policy of the regular file @path on its mount
 * @mnt, and what it applies. XFS is asked with XFS_IOC_GET_EXEC_FOLIO (a
 * kernel without the series answers ENOTTY, one with it EPERM without
 * CAP_SYS_ADMIN); on an execfoliofs mount nobody applies it and the daemon
 * is asked through EXECFOLIO_FUSE_XATTR_POLICY what it traces (without
 * CAP_SYS_ADMIN it is not asked: applied->daemon.known is false). Returns
 * 0, or -errno when the kernel or the daemon could not be asked (-EPERM:
 * the kernel wants CAP_SYS_ADMIN; -EBADMSG: the daemon's answer is not
 * "SIZE SOURCE").
 */
int execfolio_applied_query(const char *path, const struct execfolio_mount *mnt,
			    struct execfolio_applied *applied);

/*
 * Parse the daemon's "SIZE SOURCE[ invalid-xattr]" of @len bytes into
 * @policy (known set). Returns 0 or -EBADMSG.
 */
int execfolio_applied_parse_daemon(const char *value, size_t len,
				   struct execfolio_daemon_policy *policy);

/* "kernel" or "none". */
const char *execfolio_applier_name(enum execfolio_applier by);

/* "filesystem", "kernel" or "fuse": the short reason of get -v and --json. */
const char *execfolio_not_applied_name(enum execfolio_not_applied why);

/*
 * A sentence saying why nothing applies the policy on mount @mnt, for
 * messages: "tmpfs (/tmp) does not apply ..." into @buf of @len bytes.
 * Returns @buf.
 */
char *execfolio_not_applied_text(const struct execfolio_applied *applied,
				 const struct execfolio_mount *mnt, char *buf,
				 size_t len);

#endif /* EXECFOLIO_APPLIED_H */
