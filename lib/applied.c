// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who applies a file's policy: the patched XFS answers its ioctl; the
 * execfoliofs daemon answers in its virtual attribute the policy it
 * traces, which the kernel does not apply; every other file system
 * ignores the attribute it stores.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/xattr.h>

#include <execfolio/applied.h>
#include <execfolio/xattr.h>

/* Room for the daemon's answer: "2097152 mount invalid-xattr" and more. */
#define DAEMON_VALUE_MAX 128

static bool is_token(const char *s, size_t len, const char *token)
{
	return len == strlen(token) && !memcmp(s, token, len);
}

int execfolio_applied_parse_daemon(const char *value, size_t len,
				   struct execfolio_daemon_policy *policy)
{
	const char *end = value + len, *src, *rest;
	enum execfolio_source *source = &policy->source;
	size_t src_len;

	memset(policy, 0, sizeof(*policy));
	src = memchr(value, ' ', len);
	if (!src ||
	    execfolio_parse_size(value, (size_t)(src - value), &policy->size))
		return -EBADMSG;
	src++;
	rest = memchr(src, ' ', (size_t)(end - src));
	src_len = (size_t)((rest ? rest : end) - src);
	if (rest &&
	    !is_token(rest + 1, (size_t)(end - rest - 1), "invalid-xattr"))
		return -EBADMSG;
	if (is_token(src, src_len, "xattr"))
		*source = EXECFOLIO_SOURCE_XATTR;
	else if (is_token(src, src_len, "mount"))
		*source = EXECFOLIO_SOURCE_MOUNT;
	else if (is_token(src, src_len, "none"))
		*source = EXECFOLIO_SOURCE_NONE;
	else
		return -EBADMSG;
	policy->invalid_xattr = rest != NULL;
	policy->known = true;
	return 0;
}

/*
 * The kernel caches a FUSE mount's files without the policy; the daemon
 * says which one it resolved and traces. The kernel hides trusted.* from
 * a process without CAP_SYS_ADMIN: then it is left unknown.
 */
static int ask_daemon(const char *path, struct execfolio_applied *applied)
{
	char value[DAEMON_VALUE_MAX];
	ssize_t len;

	applied->why = EXECFOLIO_NOT_APPLIED_FUSE;
	if (!execfolio_may_access_trusted())
		return 0;
	len = getxattr(path, EXECFOLIO_FUSE_XATTR_POLICY, value, sizeof(value));
	if (len < 0)
		return -errno;
	return execfolio_applied_parse_daemon(value, (size_t)len,
					      &applied->daemon);
}

static int ask_kernel(const char *path, struct execfolio_applied *applied)
{
	int ret = execfolio_kernel_query(path, &applied->kernel);

	/* What a kernel without the ioctl, hence without the series, says. */
	if (ret == -ENOTTY || ret == -EOPNOTSUPP || ret == -ENOTSUP) {
		applied->why = EXECFOLIO_NOT_APPLIED_KERNEL;
		applied->kernel_err = -ret;
		return 0;
	}
	if (ret)
		return ret;
	applied->by = EXECFOLIO_APPLIED_BY_KERNEL;
	applied->size = applied->kernel.size;
	applied->source = applied->kernel.source;
	return 0;
}

int execfolio_applied_query(const char *path, const struct execfolio_mount *mnt,
			    struct execfolio_applied *applied)
{
	memset(applied, 0, sizeof(*applied));
	applied->by = EXECFOLIO_APPLIED_BY_NONE;
	applied->why = EXECFOLIO_NOT_APPLIED_FILESYSTEM;
	if (!strcmp(mnt->fstype, "xfs"))
		return ask_kernel(path, applied);
	if (!strcmp(mnt->fstype, EXECFOLIO_FUSE_FSTYPE))
		return ask_daemon(path, applied);
	return 0;
}

const char *execfolio_applier_name(enum execfolio_applier by)
{
	switch (by) {
	case EXECFOLIO_APPLIED_BY_KERNEL:
		return "kernel";
	case EXECFOLIO_APPLIED_BY_NONE:
		break;
	}
	return "none";
}

const char *execfolio_not_applied_name(enum execfolio_not_applied why)
{
	switch (why) {
	case EXECFOLIO_NOT_APPLIED_KERNEL:
		return "kernel";
	case EXECFOLIO_NOT_APPLIED_FUSE:
		return "fuse";
	case EXECFOLIO_NOT_APPLIED_FILESYSTEM:
		break;
	}
	return "filesystem";
}

char *execfolio_not_applied_text(const struct execfolio_applied *applied,
				 const struct execfolio_mount *mnt, char *buf,
				 size_t len)
{
	const char *err_name;
	struct utsname uts;

	if (applied->why == EXECFOLIO_NOT_APPLIED_KERNEL) {
		if (uname(&uts))
			snprintf(uts.release, sizeof(uts.release), "?");
		err_name = strerrorname_np(applied->kernel_err);
		snprintf(
			buf, len,
			"the running kernel (%s) lacks the execfolio series, so XFS (%s) ignores the policy (XFS_IOC_GET_EXEC_FOLIO: %s)",
			uts.release, mnt->mountpoint,
			err_name ? err_name : strerror(applied->kernel_err));
	} else if (applied->why == EXECFOLIO_NOT_APPLIED_FUSE) {
		snprintf(
			buf, len,
			"on execfoliofs (%s) the daemon resolves the policy and records it in its traces (for execfolio report), but the kernel does not apply it: it caches the files of a FUSE mount as it would without a policy",
			mnt->mountpoint);
	} else {
		snprintf(
			buf, len,
			"%s (%s) does not apply exec folio policies: only XFS on a kernel with the execfolio series does",
			mnt->fstype, mnt->mountpoint);
	}
	return buf;
}
