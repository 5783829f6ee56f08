// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading what xfs_db prints: each line is matched literally, names first,
 * and every number is read whole, no sign, no overflow, so that a line cut
 * short or changed by another xfs_db version is an error rather than a
 * value silently misread. dbparse.h lists the line kinds.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dbparse.h"

/* XFS's limits: 512-byte to 64k blocks and directory blocks, inodes. */
#define XFS_BLOCKLOG_MAX 16
#define XFS_INODESIZE_MIN 256
#define XFS_INODESIZE_MAX 2048

int dbout_split(struct dbout *out)
{
	size_t cap = 0;
	char *p;

	for (p = out->buf; p < out->buf + out->len;) {
		char *nl = memchr(p, '\n', out->buf + out->len - p), *e;

		if (!nl)
			nl = out->buf + out->len;
		if (out->nlines == cap) {
			char **grown;

			cap = cap ? cap * 2 : 1024;
			grown = realloc(out->lines, cap * sizeof(*out->lines));
			if (!grown)
				return -ENOMEM;
			out->lines = grown;
		}
		out->lines[out->nlines++] = p;
		for (e = nl; e > p && e[-1] == ' '; e--)
			;
		*e = '\0';
		p = nl + 1;
	}
	return 0;
}

void dbout_free(struct dbout *out)
{
	free(out->buf);
	free(out->lines);
	memset(out, 0, sizeof(*out));
}

/* @p past @s if it starts with it, else NULL. */
static const char *skip_lit(const char *p, const char *s)
{
	size_t len = strlen(s);

	return p && !strncmp(p, s, len) ? p + len : NULL;
}

/* A number at @p, decimal or "0x" hex: the byte after it, or NULL. */
static const char *read_u64(const char *p, uint64_t *v)
{
	unsigned int base = 10;
	uint64_t n = 0;
	const char *start;

	if (!p)
		return NULL;
	if (p[0] == '0' && p[1] == 'x') {
		base = 16;
		p += 2;
	}
	for (start = p; isxdigit((unsigned char)*p); p++) {
		unsigned int d = isdigit((unsigned char)*p) ?
					 (unsigned int)(*p - '0') :
					 (unsigned int)(tolower(*p) - 'a' + 10);

		if (d >= base || n > (UINT64_MAX - d) / base)
			return NULL;
		n = n * base + d;
	}
	if (p == start)
		return NULL;
	*v = n;
	return p;
}

/* A decimal index no larger than DB_INDEX_MAX. */
static const char *read_index(const char *p, unsigned int *index)
{
	const char *end;
	uint64_t v;

	if (!p || !isdigit((unsigned char)*p) || (p[0] == '0' && p[1] == 'x'))
		return NULL;
	end = read_u64(p, &v);
	if (!end || v > DB_INDEX_MAX)
		return NULL;
	*index = (unsigned int)v;
	return end;
}

int db_marker(const char *line, const char *tag, uint64_t *args, int nargs)
{
	const char *p = skip_lit(line, "@@");
	int i;

	p = skip_lit(p, tag);
	if (!p || (*p && *p != ' '))
		return 0;
	for (i = 0; i < nargs; i++) {
		p = skip_lit(p, " ");
		if (!p || !isdigit((unsigned char)*p))
			return -EINVAL;
		p = read_u64(p, &args[i]);
		if (!p)
			return -EINVAL;
	}
	return *p ? -EINVAL : 1;
}

int db_field(const char *line, const char *name, const char **value)
{
	const char *p = skip_lit(skip_lit(line, name), " = ");

	if (!p)
		return 0;
	*value = p;
	return 1;
}

/* A whole value: a number and nothing but xfs_db's note after it. */
int db_value_u64(const char *value, uint64_t *v)
{
	const char *p = read_u64(value, v);
	size_t len;

	if (!p)
		return -EINVAL;
	if (!*p)
		return 1;
	len = strlen(p);
	if (len > 3 && !strncmp(p, " (", 2) && p[len - 1] == ')')
		return 1;
	return -EINVAL;
}

int db_field_u64(const char *line, const char *name, uint64_t *v)
{
	const char *value;

	if (!db_field(line, name, &value))
		return 0;
	return db_value_u64(value, v);
}

int db_elem(const char *line, const char *prefix, const char *member,
	    unsigned int *index, const char **value)
{
	const char *p = skip_lit(skip_lit(line, prefix), "[");
	const char *end;

	if (!p)
		return 0;
	end = read_index(p, index);
	/* "PREFIX[0-2] = ..." heads an array printed whole. */
	if (end && *end == '-')
		return 0;
	p = skip_lit(end, "].");
	if (!p)
		return -EINVAL;
	p = skip_lit(skip_lit(p, member), " = ");
	if (!p)
		return 0;
	*value = p;
	return 1;
}

int db_entry(const char *line, unsigned int *index, uint64_t *vals, int nvals)
{
	const char *p = line;
	uint64_t v;
	int n = 0;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	/* "N:V N:V" is an array of plain values, not of entries. */
	if (strncmp(p, ":[", 2))
		return 0;
	p = skip_lit(read_index(line, index), ":[");
	for (;;) {
		p = read_u64(p, &v);
		if (!p)
			return -EINVAL;
		if (n < nvals)
			vals[n] = v;
		n++;
		if (*p == ']')
			break;
		p = skip_lit(p, ",");
	}
	if (p[1])
		return -EINVAL;
	/* Another array's entries, with another number of values. */
	return n == nvals ? 1 : 0;
}

int db_inode_number(const char *line, uint64_t *ino)
{
	const char *p = skip_lit(line, "current inode number is ");

	if (!p)
		return 0;
	p = read_u64(p, ino);
	return p && !*p ? 1 : -EINVAL;
}

int db_data_extent(const char *line, uint64_t *offset, uint64_t *count)
{
	const char *p = skip_lit(line, "data offset ");
	uint64_t unused;

	if (!p)
		return 0;
	p = skip_lit(read_u64(p, offset), " startblock ");
	p = skip_lit(read_u64(p, &unused), " (");
	p = skip_lit(read_u64(p, &unused), "/");
	p = skip_lit(read_u64(p, &unused), ") count ");
	p = skip_lit(read_u64(p, count), " flag ");
	p = read_u64(p, &unused);
	return p && !*p ? 1 : -EINVAL;
}

/* "versionnum [0xb4b5+0x18a] = V5,NLINK,...,CRC,FTYPE,...,BIGTIME" */
static int version_flags(const char *line, struct db_sb *sb)
{
	const char *p = skip_lit(line, "versionnum [");
	const char *end;

	if (!p)
		return 0;
	p = strstr(p, "] = ");
	if (!p || !p[4])
		return -EINVAL;
	sb->crc = sb->bigtime = sb->ftype = false;
	for (p += 4; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ',');
		if (end - p == 3 && !strncmp(p, "CRC", 3))
			sb->crc = true;
		else if (end - p == 7 && !strncmp(p, "BIGTIME", 7))
			sb->bigtime = true;
		else if (end - p == 5 && !strncmp(p, "FTYPE", 5))
			sb->ftype = true;
	}
	sb->seen |= DB_SB_VERSION;
	return 1;
}

int db_sb_line(const char *line, struct db_sb *sb)
{
	static const struct {
		const char *name;
		unsigned int flag;
		size_t offset;
		unsigned int min, max;
	} fields[] = {
		{ "blocklog", DB_SB_BLOCKLOG, offsetof(struct db_sb, blocklog),
		  9, XFS_BLOCKLOG_MAX },
		{ "dirblklog", DB_SB_DIRBLKLOG,
		  offsetof(struct db_sb, dirblklog), 0, XFS_BLOCKLOG_MAX - 9 },
		{ "inodesize", DB_SB_INODESIZE,
		  offsetof(struct db_sb, inodesize), XFS_INODESIZE_MIN,
		  XFS_INODESIZE_MAX },
	};
	size_t i;
	uint64_t v;
	int ret;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		ret = db_field_u64(line, fields[i].name, &v);
		if (!ret)
			continue;
		if (ret < 0 || v < fields[i].min || v > fields[i].max)
			return -EINVAL;
		*(unsigned int *)((char *)sb + fields[i].offset) = v;
		sb->seen |= fields[i].flag;
		return 1;
	}
	return version_flags(line, sb);
}

bool db_line_ok(const char *line)
{
	const char *p = line;

	if (!strncmp(line, "@@", 2) ||
	    !strncmp(line, "current inode number is ", 24) || !line[0])
		return true;
	if (isdigit((unsigned char)*p)) {
		while (isdigit((unsigned char)*p))
			p++;
		return *p == ':';
	}
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
	       *p == '[' || *p == ']' || *p == '-')
		p++;
	return p != line && !strncmp(p, " = ", 3);
}

static int slot_at(struct attr_slots *s, unsigned int index)
{
	struct attr_slot *grown;
	unsigned int i;

	if (index < s->count)
		return 0;
	grown = realloc(s->slot, (index + 1) * sizeof(*s->slot));
	if (!grown)
		return -ENOMEM;
	s->slot = grown;
	for (i = s->count; i <= index; i++)
		s->slot[i] = (struct attr_slot){ .local = true };
	s->count = index + 1;
	return 0;
}

static int set_name(struct attr_slots *s, unsigned int index, const char *value)
{
	char *name = strdup(value);

	if (!name || slot_at(s, index)) {
		free(name);
		return -ENOMEM;
	}
	free(s->slot[index].name);
	s->slot[index].name = name;
	return 1;
}

/* A flag of a short-form slot: "0" or "1". */
static int set_flag(struct attr_slots *s, unsigned int index, const char *value,
		    bool root)
{
	uint64_t v;

	if (db_value_u64(value, &v) < 0 || v > 1)
		return -EINVAL;
	if (slot_at(s, index))
		return -ENOMEM;
	if (root)
		s->slot[index].root = v;
	else
		s->slot[index].secure = v;
	return 1;
}

int attr_slots_sf_line(struct attr_slots *s, const char *line)
{
	const char *v;
	unsigned int idx;
	int ret;

	ret = db_elem(line, "a.sfattr.list", "name", &idx, &v);
	if (ret)
		return ret < 0 ? ret : set_name(s, idx, v);
	ret = db_elem(line, "a.sfattr.list", "root", &idx, &v);
	if (ret)
		return ret < 0 ? ret : set_flag(s, idx, v, true);
	ret = db_elem(line, "a.sfattr.list", "secure", &idx, &v);
	if (ret)
		return ret < 0 ? ret : set_flag(s, idx, v, false);
	return 0;
}

/* "N:[hashval,nameidx,incomplete,root,secure,local]" of entries[]. */
static int leaf_entry(struct attr_slots *s, const char *line)
{
	uint64_t v[6];
	unsigned int idx;
	int ret = db_entry(line, &idx, v, 6);

	if (ret <= 0)
		return ret;
	if (v[3] > 1 || v[4] > 1 || v[5] > 1)
		return -EINVAL;
	if (slot_at(s, idx))
		return -ENOMEM;
	s->slot[idx].root = v[3];
	s->slot[idx].secure = v[4];
	s->slot[idx].local = v[5];
	return 1;
}

int attr_slots_leaf_line(struct attr_slots *s, const char *line)
{
	const char *v;
	unsigned int idx;
	int ret;

	/* The magic of a v5 leaf block, then of a v4 one. */
	if (!strcmp(line, "hdr.info.hdr.magic = 0x3bee") ||
	    !strcmp(line, "hdr.info.magic = 0xfbee")) {
		s->leaf_magic = true;
		return 1;
	}
	ret = db_elem(line, "nvlist", "name", &idx, &v);
	if (ret)
		return ret < 0 ? ret : set_name(s, idx, v);
	return leaf_entry(s, line);
}

void attr_slots_reset(struct attr_slots *s)
{
	unsigned int i;

	for (i = 0; i < s->count; i++)
		free(s->slot[i].name);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}
