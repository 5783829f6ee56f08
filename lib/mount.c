// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mount lookup through /proc/self/mountinfo. The kernel shows filesystem
 * options such as exec_folio_size= and exec_folio_scope= in the "super
 * options" field (the last one); statx()'s mount ID picks the line without
 * guessing from paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <execfolio/mount.h>
#include <execfolio/policy.h>

#define MOUNTINFO_FIELDS_MIN 10

/* mountinfo escapes blanks, tabs, newlines and backslashes as \ooo. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static void copy_field(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Look for exec_folio_size= and exec_folio_scope= in a comma-separated
 * option list. A malformed value reads as the option's default.
 */
static void find_options(char *options, struct execfolio_mount *mnt)
{
	static const char size_key[] = EXECFOLIO_MOUNT_OPTION "=";
	static const char scope_key[] = EXECFOLIO_SCOPE_OPTION "=";
	char *opt, *save = NULL;

	for (opt = strtok_r(options, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (!strncmp(opt, size_key, sizeof(size_key) - 1)) {
			mnt->has_option = true;
			mnt->option_invalid =
				execfolio_parse_size_str(
					opt + sizeof(size_key) - 1,
					&mnt->size) != 0;
			if (mnt->option_invalid)
				mnt->size = 0;
		} else if (!strncmp(opt, scope_key, sizeof(scope_key) - 1)) {
			mnt->has_scope = true;
			mnt->scope_invalid =
				execfolio_parse_scope_str(
					opt + sizeof(scope_key) - 1,
					&mnt->scope) != 0;
			if (mnt->scope_invalid)
				mnt->scope = EXECFOLIO_SCOPE_EXEC;
		}
	}
}

static bool is_path_prefix(const char *prefix, const char *path)
{
	size_t n = strlen(prefix);

	if (!strcmp(prefix, "/"))
		return true;
	return !strncmp(prefix, path, n) && (path[n] == '/' || !path[n]);
}

int execfolio_mount_find(FILE *mountinfo, int mount_id, unsigned int dev_major,
			 unsigned int dev_minor, const char *realpath,
			 struct execfolio_mount *mnt)
{
	char *line = NULL, *field[64], *save, *p;
	size_t cap = 0, best_len = 0;
	unsigned int major, minor;
	int nfields, sep, id, ret = -ENOENT;

	while (getline(&line, &cap, mountinfo) > 0) {
		line[strcspn(line, "\n")] = '\0';
		nfields = 0;
		save = NULL;
		for (p = strtok_r(line, " ", &save); p && nfields < 64;
		     p = strtok_r(NULL, " ", &save))
			field[nfields++] = p;
		/* Optional fields end at a lone "-". */
		for (sep = 6; sep < nfields && strcmp(field[sep], "-"); sep++)
			;
		/* After "-": fstype, source, super options. */
		if (nfields < MOUNTINFO_FIELDS_MIN || sep + 3 >= nfields ||
		    sscanf(field[2], "%u:%u", &major, &minor) != 2) {
			ret = -EINVAL;
			break;
		}
		id = atoi(field[0]);
		unescape(field[4]);
		if (mount_id >= 0) {
			if (id != mount_id)
				continue;
		} else {
			if (major != dev_major || minor != dev_minor ||
			    !is_path_prefix(field[4], realpath) ||
			    strlen(field[4]) < best_len)
				continue;
			best_len = strlen(field[4]);
		}
		memset(mnt, 0, sizeof(*mnt));
		mnt->mount_id = id;
		copy_field(mnt->mountpoint, sizeof(mnt->mountpoint), field[4]);
		copy_field(mnt->fstype, sizeof(mnt->fstype), field[sep + 1]);
		find_options(field[sep + 3], mnt);
		ret = 0;
		if (mount_id >= 0)
			break;
	}
	free(line);
	return ret;
}

int execfolio_mount_lookup(const char *path, struct execfolio_mount *mnt)
{
	char *resolved = NULL;
	struct statx stx;
	int mount_id = -1, ret;
	FILE *f;

	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID, &stx))
		return -errno;
	if (stx.stx_mask & STATX_MNT_ID) {
		mount_id = (int)stx.stx_mnt_id;
	} else {
		/* Kernels before 5.8: fall back to device and path prefix. */
		resolved = realpath(path, NULL);
		if (!resolved)
			return -errno;
	}

	f = fopen("/proc/self/mountinfo", "r");
	if (!f) {
		ret = -errno;
		free(resolved);
		return ret;
	}
	ret = execfolio_mount_find(f, mount_id, stx.stx_dev_major,
				   stx.stx_dev_minor, resolved, mnt);
	fclose(f);
	free(resolved);
	return ret;
}
