// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs.execfolio's readers of xfs_db output (mkfs/dbparse.c) against what
 * xfs_db 6.1 printed for the commands of the fix-up batches, recorded by
 * tests/mkfs/record_xfsdb.sh in tests/unit/data/xfsdb/, whose tree gives
 * the values expected here; then lines cut short or changed, which must
 * be errors or not read, never misread or a crash.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mkfs.h"
#include "xfsdb_recording.h"

/* report.c, which names.c's xfs_dahash() comes with, prints this. */
const char *progname = "test_mkfs_dbparse";

/* The sysv encoding XFS keeps device numbers in. */
#define SYSV_DEV(major, minor) ((uint64_t)(major) << 18 | (minor))
/* XFS_DIR2_LEAF_OFFSET and XFS_DIR2_FREE_OFFSET in 4k blocks. */
#define LEAF_BLOCK ((32ull << 30) >> 12)
#define FREE_BLOCK ((64ull << 30) >> 12)

/* Index of the line after "@@TAG ARGS" (the batches' markers), or fail. */
static size_t after_marker(const struct dbout *out, const char *marker)
{
	size_t k;

	for (k = 0; k < out->nlines; k++)
		if (!strcmp(out->lines[k], marker))
			return k + 1;
	fail_msg("no %s in the recording", marker);
	return 0;
}

/* Whether line @k starts a new section: a marker. */
static bool section_end(const struct dbout *out, size_t k)
{
	return k >= out->nlines || !strncmp(out->lines[k], "@@", 2);
}

/* Name bytes from xfs_db's rendering of plain names (no escapes). */
static void unquote(const char *rendered, char *name, size_t size)
{
	size_t len = strlen(rendered);

	assert_true(len >= 2 && len - 2 < size);
	assert_int_equal(rendered[0], '"');
	assert_int_equal(rendered[len - 1], '"');
	assert_null(memchr(rendered, '\\', len));
	memcpy(name, rendered + 1, len - 2);
	name[len - 2] = '\0';
}

static void test_split_lines(void **state)
{
	struct dbout out = { 0 };

	out.buf = strdup("@@n 1 \nu3.bmx[0] = [a,b] \n\ncut");
	out.len = strlen(out.buf);
	assert_int_equal(dbout_split(&out), 0);
	assert_int_equal(out.nlines, 4);
	assert_string_equal(out.lines[0], "@@n 1");
	assert_string_equal(out.lines[1], "u3.bmx[0] = [a,b]");
	assert_string_equal(out.lines[2], "");
	assert_string_equal(out.lines[3], "cut");
	dbout_free(&out);
	assert_null(out.buf);
}

static void read_sb(const char *name, struct db_sb *sb)
{
	struct dbout out;
	size_t k;

	xfsdb_recording_load(name, &out);
	memset(sb, 0, sizeof(*sb));
	k = after_marker(&out, "@@sb");
	for (; !section_end(&out, k); k++)
		assert_int_equal(db_sb_line(out.lines[k], sb), 1);
	assert_int_equal(sb->seen, DB_SB_ALL);
	dbout_free(&out);
}

static void test_superblock(void **state)
{
	struct db_sb sb;
	struct dbout out;
	uint64_t v;
	size_t k;

	read_sb("sb-v5.out", &sb);
	assert_int_equal(sb.blocklog, 12);
	assert_int_equal(sb.dirblklog, 0);
	assert_int_equal(sb.inodesize, 512);
	assert_true(sb.crc);
	assert_true(sb.bigtime);
	assert_true(sb.ftype);

	/* -m crc=0, which leaves the file type in directory entries. */
	read_sb("v4.out", &sb);
	assert_int_equal(sb.blocklog, 12);
	assert_int_equal(sb.inodesize, 256);
	assert_false(sb.crc);
	assert_false(sb.bigtime);
	assert_true(sb.ftype);
	/* ... whose data fork is "u", not "u3". */
	xfsdb_recording_load("v4.out", &out);
	k = after_marker(&out, "@@n 1");
	assert_int_equal(db_inode_number(out.lines[k], &v), 1);
	assert_int_equal(db_field_u64(out.lines[k + 1], "u3.dev", &v), 0);
	assert_int_equal(db_field_u64(out.lines[k + 1], "u.dev", &v), 1);
	assert_int_equal(v, SYSV_DEV(10, 200));
	dbout_free(&out);
}

/* What batch 2 learns about one inode. */
struct found {
	uint64_t ino;
	uint64_t aformat, format, size, dev;
	struct attr_slots slots;
	char *sfdir[4];
	uint64_t ext_off[16], ext_count[16];
	unsigned int nexts;
};

static void read_found(const struct dbout *out, unsigned int node,
		       struct found *fd)
{
	char marker[16];
	size_t k;

	memset(fd, 0, sizeof(*fd));
	snprintf(marker, sizeof(marker), "@@n %u", node);
	for (k = after_marker(out, marker); !section_end(out, k); k++) {
		const char *l = out->lines[k], *v;
		unsigned int idx;
		uint64_t vals[4];
		int ret;

		int got[] = {
			db_inode_number(l, &fd->ino),
			db_field_u64(l, "core.aformat", &fd->aformat),
			db_field_u64(l, "core.format", &fd->format),
			db_field_u64(l, "core.size", &fd->size),
			db_field_u64(l, "u3.dev", &fd->dev),
			attr_slots_sf_line(&fd->slots, l),
		};
		bool read = false;
		size_t i;

		/* Each line of one kind at most, and none misread. */
		for (i = 0; i < sizeof(got) / sizeof(got[0]); i++) {
			assert_true(got[i] == 0 || got[i] == 1);
			assert_false(read && got[i]);
			read |= got[i];
		}
		if (read)
			continue;
		ret = db_elem(l, "u3.sfdir3.list", "name", &idx, &v);
		if (ret) {
			assert_int_equal(ret, 1);
			assert_true(idx < 4);
			fd->sfdir[idx] = strdup(v);
			continue;
		}
		ret = db_data_extent(l, &fd->ext_off[fd->nexts],
				     &fd->ext_count[fd->nexts]);
		if (ret) {
			assert_int_equal(ret, 1);
			fd->nexts++;
			continue;
		}
		/* Nothing else here is an error, or to be misread. */
		assert_true(db_line_ok(l));
		assert_true(db_entry(l, &idx, vals, 4) >= 0);
	}
}

static void found_free(struct found *fd)
{
	size_t i;

	attr_slots_reset(&fd->slots);
	for (i = 0; i < 4; i++)
		free(fd->sfdir[i]);
}

static void test_found(void **state)
{
	struct dbout out;
	struct found fd;

	xfsdb_recording_load("found.out", &out);

	/* file: user.one, trusted.two, security.three in the inode. */
	read_found(&out, 1, &fd);
	assert_true(fd.ino > 0);
	assert_int_equal(fd.aformat, 1);
	assert_int_equal(fd.slots.count, 3);
	assert_string_equal(fd.slots.slot[0].name, "\"one\"");
	assert_false(fd.slots.slot[0].root || fd.slots.slot[0].secure);
	assert_string_equal(fd.slots.slot[1].name, "\"two\"");
	assert_true(fd.slots.slot[1].root && !fd.slots.slot[1].secure);
	assert_string_equal(fd.slots.slot[2].name, "\"three\"");
	assert_true(!fd.slots.slot[2].root && fd.slots.slot[2].secure);
	assert_true(fd.slots.slot[2].local);
	found_free(&fd);

	/* many: its xattrs in a block (extents). */
	read_found(&out, 2, &fd);
	assert_int_equal(fd.aformat, 2);
	assert_int_equal(fd.slots.count, 0);
	found_free(&fd);

	/* dir: short form, "a b" in slot 0, nothing to map. */
	read_found(&out, 3, &fd);
	assert_int_equal(fd.format, 1);
	assert_int_equal(fd.size, 17);
	assert_string_equal(fd.sfdir[0], "\"a b\"");
	assert_int_equal(fd.nexts, 0);
	found_free(&fd);

	/* sl -> target: in the inode. */
	read_found(&out, 4, &fd);
	assert_int_equal(fd.format, 1);
	assert_int_equal(fd.size, strlen("target"));
	found_free(&fd);

	read_found(&out, 5, &fd);
	assert_int_equal(fd.dev, SYSV_DEV(10, 200));
	found_free(&fd);
	read_found(&out, 6, &fd);
	assert_int_equal(fd.dev, SYSV_DEV(259, 7));
	found_free(&fd);

	/* block: one directory block. */
	read_found(&out, 7, &fd);
	assert_int_equal(fd.format, 2);
	assert_int_equal(fd.nexts, 1);
	assert_int_equal(fd.ext_off[0], 0);
	assert_int_equal(fd.ext_count[0], 1);
	found_free(&fd);

	/* leaf: two data blocks, then the leaf block. */
	read_found(&out, 8, &fd);
	assert_int_equal(fd.nexts, 3);
	assert_int_equal(fd.ext_off[1], 1);
	assert_int_equal(fd.ext_off[2], LEAF_BLOCK);
	found_free(&fd);

	/* node: data, node and leaf blocks, and the free index. */
	read_found(&out, 9, &fd);
	assert_true(fd.nexts > 3);
	assert_int_equal(fd.ext_off[fd.nexts - 1], FREE_BLOCK);
	assert_int_equal(fd.ext_off[fd.nexts - 2], LEAF_BLOCK + 1);
	assert_int_equal(fd.ext_count[fd.nexts - 2], 2);
	assert_int_equal(fd.ext_off[fd.nexts - 3], LEAF_BLOCK);
	found_free(&fd);

	dbout_free(&out);
}

static void test_attr_leaf(void **state)
{
	struct attr_slots s = { 0 };
	struct dbout out;
	bool seen[20] = { 0 };
	unsigned int i, n;
	size_t k;

	xfsdb_recording_load("blocks.out", &out);
	for (k = after_marker(&out, "@@a 2"); !section_end(&out, k); k++) {
		assert_true(db_line_ok(out.lines[k]));
		assert_true(attr_slots_leaf_line(&s, out.lines[k]) >= 0);
	}
	assert_true(s.leaf_magic);
	/* user.attr0 to 19, and the policy trusted.exec_folio_size. */
	assert_int_equal(s.count, 21);
	for (i = 0; i < s.count; i++) {
		const struct attr_slot *a = &s.slot[i];

		assert_non_null(a->name);
		assert_true(a->local);
		assert_false(a->secure);
		if (!strcmp(a->name, "\"exec_folio_size\"")) {
			assert_true(a->root);
			continue;
		}
		assert_false(a->root);
		assert_int_equal(sscanf(a->name, "\"attr%u\"", &n), 1);
		assert_true(n < 20 && !seen[n]);
		seen[n] = true;
	}
	attr_slots_reset(&s);
	assert_int_equal(s.count, 0);
	dbout_free(&out);
}

/* One directory block's entries and the hashes of its leaf or node. */
struct dir_block {
	char names[512][32];
	unsigned int nnames;
	uint32_t hashes[512];
	unsigned int nhashes;
	uint64_t nbtree[2][2];
	unsigned int nnbtree;
};

static void read_block(const struct dbout *out, const char *marker,
		       const char *name_field, const char *hash_field,
		       struct dir_block *b)
{
	size_t k;

	memset(b, 0, sizeof(*b));
	for (k = after_marker(out, marker); !section_end(out, k); k++) {
		const char *l = out->lines[k], *v;
		unsigned int idx;
		uint64_t hash, vals[2];
		int ret;

		assert_true(db_line_ok(l));
		ret = db_elem(l, name_field, "name", &idx, &v);
		if (ret) {
			assert_int_equal(ret, 1);
			assert_int_equal(idx, b->nnames);
			assert_true(b->nnames < 512);
			unquote(v, b->names[b->nnames++], 32);
			continue;
		}
		ret = db_elem(l, hash_field, "hashval", &idx, &v);
		if (ret) {
			assert_int_equal(ret, 1);
			assert_int_equal(idx, b->nhashes);
			assert_int_equal(db_value_u64(v, &hash), 1);
			assert_true(b->nhashes < 512 && hash <= UINT32_MAX);
			b->hashes[b->nhashes++] = hash;
			continue;
		}
		ret = db_entry(l, &idx, vals, 2);
		if (ret) {
			assert_int_equal(ret, 1);
			assert_int_equal(idx, b->nnbtree);
			assert_true(b->nnbtree < 2);
			memcpy(b->nbtree[b->nnbtree++], vals, sizeof(vals));
		}
	}
}

static bool has_name(const struct dir_block *b, const char *name)
{
	unsigned int i;

	for (i = 0; i < b->nnames; i++)
		if (!strcmp(b->names[i], name))
			return true;
	return false;
}

static bool has_hash(const struct dir_block *b, uint32_t hash)
{
	unsigned int i;

	for (i = 0; i < b->nhashes; i++)
		if (b->hashes[i] == hash)
			return true;
	return false;
}

static uint32_t hash_of(const char *name)
{
	return xfs_dahash((const unsigned char *)name, strlen(name));
}

static void test_dir_blocks(void **state)
{
	static struct dir_block b, leaf;
	struct dbout out;
	unsigned int i;

	xfsdb_recording_load("blocks.out", &out);

	/* block: ".", "..", f0 to f39, "a b" and " ", each with its hash. */
	read_block(&out, "@@b 7 0", "bu", "bleaf", &b);
	assert_int_equal(b.nnames, 44);
	assert_int_equal(b.nhashes, 44);
	assert_true(has_name(&b, "a b") && has_name(&b, " "));
	assert_true(has_name(&b, "..") && has_name(&b, "f39"));
	for (i = 0; i < b.nnames; i++)
		assert_true(has_hash(&b, hash_of(b.names[i])));
	for (i = 1; i < b.nhashes; i++)
		assert_true(b.hashes[i - 1] <= b.hashes[i]);

	/* leaf: the first data block's names are in the leaf block. */
	read_block(&out, "@@b 8 0", "du", "lents", &b);
	read_block(&out, "@@b 8 8388608", "du", "lents", &leaf);
	assert_true(b.nnames > 100 && b.nhashes == 0);
	assert_int_equal(leaf.nhashes, 303);
	for (i = 0; i < b.nnames; i++)
		assert_true(has_hash(&leaf, hash_of(b.names[i])));

	/* node: a node block over two leaf blocks, hashes ascending. */
	read_block(&out, "@@b 9 8388608", "du", "lents", &b);
	assert_int_equal(b.nnbtree, 2);
	assert_true(b.nbtree[0][0] < b.nbtree[1][0]);
	assert_true(b.nbtree[0][1] >= LEAF_BLOCK + 1);
	assert_true(b.nbtree[1][1] >= LEAF_BLOCK + 1);
	assert_true(b.nbtree[0][1] != b.nbtree[1][1]);
	/* A node entry holds the last hash of the leaf block it points to. */
	i = b.nbtree[0][1] == LEAF_BLOCK + 1 ? 0 : 1;
	assert_int_equal(b.nbtree[i][1], LEAF_BLOCK + 1);
	read_block(&out, "@@b 9 8388609", "du", "lents", &leaf);
	assert_true(leaf.nhashes > 100);
	assert_int_equal(leaf.hashes[leaf.nhashes - 1], b.nbtree[i][0]);
	for (i = 1; i < leaf.nhashes; i++)
		assert_true(leaf.hashes[i - 1] <= leaf.hashes[i]);

	dbout_free(&out);
}

static void test_error_lines(void **state)
{
	struct dbout out;
	size_t k;

	xfsdb_recording_load("errors.out", &out);
	k = after_marker(&out, "@@n 1");
	assert_int_equal(out.nlines - k, 4);
	for (; k < out.nlines; k++)
		assert_false(db_line_ok(out.lines[k]));
	dbout_free(&out);
}

static void test_malformed_lines(void **state)
{
	unsigned int idx;
	uint64_t v, vals[6];
	struct db_sb sb = { 0 };
	struct attr_slots s = { 0 };
	const char *value;

	/* Numbers: whole, unsigned, in range; a note only in parentheses. */
	assert_int_equal(db_field_u64("core.size = ", "core.size", &v),
			 -EINVAL);
	assert_int_equal(db_field_u64("core.size = 17x", "core.size", &v),
			 -EINVAL);
	assert_int_equal(db_field_u64("core.size = -1", "core.size", &v),
			 -EINVAL);
	assert_int_equal(db_field_u64("core.size = 18446744073709551616",
				      "core.size", &v),
			 -EINVAL);
	assert_int_equal(db_field_u64("core.size = 18446744073709551615",
				      "core.size", &v),
			 1);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(db_field_u64("u3.dev = 0x", "u3.dev", &v), -EINVAL);
	assert_int_equal(db_field_u64("core.format = 1 (local", "core.format",
				      &v),
			 -EINVAL);
	assert_int_equal(db_field_u64("core.format = 1 ()", "core.format", &v),
			 -EINVAL);
	/* Another field, longer or shorter, is not this one. */
	assert_int_equal(db_field_u64("core.sizes = 5", "core.size", &v), 0);
	assert_int_equal(db_field_u64("core.size= 5", "core.size", &v), 0);

	/* Array elements: an index in brackets, then the member. */
	assert_int_equal(db_elem("a.sfattr.list[", "a.sfattr.list", "name",
				 &idx, &value),
			 -EINVAL);
	assert_int_equal(db_elem("a.sfattr.list[-1].name = \"x\"",
				 "a.sfattr.list", "name", &idx, &value),
			 -EINVAL);
	assert_int_equal(db_elem("a.sfattr.list[65536].name = \"x\"",
				 "a.sfattr.list", "name", &idx, &value),
			 -EINVAL);
	assert_int_equal(db_elem("a.sfattr.list[3]name = \"x\"",
				 "a.sfattr.list", "name", &idx, &value),
			 -EINVAL);
	assert_int_equal(db_elem("a.sfattr.list[0].namelen = 3",
				 "a.sfattr.list", "name", &idx, &value),
			 0);
	assert_int_equal(db_elem("hdr.freemap[0-2] = [base,size]",
				 "hdr.freemap", "base", &idx, &value),
			 0);

	/* Entries: "N:[...]" closed, with numbers only. */
	assert_int_equal(db_entry("0:[0x1e9d3930,3424,0,0,0", &idx, vals, 6),
			 -EINVAL);
	assert_int_equal(db_entry("0:[1,2]x", &idx, vals, 2), -EINVAL);
	assert_int_equal(db_entry("0:[]", &idx, vals, 2), -EINVAL);
	assert_int_equal(db_entry("0:[0xzz,1]", &idx, vals, 2), -EINVAL);
	assert_int_equal(db_entry("99999999:[1,2]", &idx, vals, 2), -EINVAL);
	assert_int_equal(db_entry("0:[1,2]", &idx, vals, 6), 0);
	assert_int_equal(db_entry("0:0 1:0xc90", &idx, vals, 2), 0);

	/* Markers, inode numbers, extents. */
	assert_int_equal(db_marker("@@n", "n", &v, 1), -EINVAL);
	assert_int_equal(db_marker("@@n -1", "n", &v, 1), -EINVAL);
	assert_int_equal(db_marker("@@n 5 6", "n", &v, 1), -EINVAL);
	assert_int_equal(db_marker("@@nx 5", "n", &v, 1), 0);
	assert_int_equal(db_inode_number("current inode number is ", &v),
			 -EINVAL);
	assert_int_equal(db_inode_number("current inode number is 12a", &v),
			 -EINVAL);
	assert_int_equal(db_data_extent("data offset 0 startblock 15 (0/15) "
					"count",
					&v, &v),
			 -EINVAL);

	/* The superblock: sizes XFS can have, and a feature list. */
	assert_int_equal(db_sb_line("blocklog = 64", &sb), -EINVAL);
	assert_int_equal(db_sb_line("inodesize = 100", &sb), -EINVAL);
	assert_int_equal(db_sb_line("versionnum [0xb4b5+0x18a] = ", &sb),
			 -EINVAL);
	assert_int_equal(db_sb_line("versionnum [0xb4b5", &sb), -EINVAL);
	assert_int_equal(sb.seen, 0);
	/* "CRC" as a whole feature name only. */
	assert_int_equal(
		db_sb_line("versionnum [0x1] = V5,NOCRC,BIGTIMES,FTYPES", &sb),
		1);
	assert_false(sb.crc || sb.bigtime || sb.ftype);
	/* -m crc=0 -n ftype=0: no FTYPE. */
	assert_int_equal(db_sb_line("versionnum [0xb4a4+0x8a] = V4,NLINK,DIRV2",
				    &sb),
			 1);
	assert_false(sb.ftype);

	/* Attribute slots: flags are 0 or 1; unnamed slots stay NULL. */
	assert_int_equal(attr_slots_sf_line(&s, "a.sfattr.list[0].root = 2"),
			 -EINVAL);
	assert_int_equal(attr_slots_leaf_line(&s, "0:[0x1,2,0,0,0,2]"),
			 -EINVAL);
	assert_int_equal(
		attr_slots_sf_line(&s, "a.sfattr.list[3].name = \"x\""), 1);
	assert_int_equal(s.count, 4);
	assert_null(s.slot[0].name);
	assert_string_equal(s.slot[3].name, "\"x\"");
	attr_slots_reset(&s);
}

/* Every parser on @line: an answer of its kind, never a crash. */
static void parse_all(const char *line)
{
	static const char *const fields[] = { "core.size", "core.format",
					      "u3.dev", "blocklog" };
	struct attr_slots s = { 0 };
	struct db_sb sb = { 0 };
	const char *value;
	uint64_t v, vals[6];
	unsigned int idx;
	size_t i;
	int ret;

	for (i = 0; i < 4; i++) {
		ret = db_field_u64(line, fields[i], &v);
		assert_true(ret >= -EINVAL && ret <= 1);
	}
	for (i = 1; i <= 6; i++) {
		ret = db_entry(line, &idx, vals, i);
		assert_true(ret == -EINVAL || ret == 0 ||
			    (ret == 1 && idx <= DB_INDEX_MAX));
	}
	ret = db_elem(line, "bu", "name", &idx, &value);
	assert_true(ret == -EINVAL || ret == 0 ||
		    (ret == 1 && idx <= DB_INDEX_MAX));
	assert_true(db_marker(line, "b", vals, 2) >= -EINVAL);
	assert_true(db_inode_number(line, &v) >= -EINVAL);
	assert_true(db_data_extent(line, &v, &v) >= -EINVAL);
	assert_true(db_sb_line(line, &sb) >= -EINVAL);
	assert_true(attr_slots_sf_line(&s, line) >= -EINVAL);
	assert_true(attr_slots_leaf_line(&s, line) >= -EINVAL);
	db_line_ok(line);
	attr_slots_reset(&s);
}

/* Lines cut short at every byte: an error where a value is cut. */
static void test_truncated_lines(void **state)
{
	static const char *const files[] = { "sb-v5.out", "found.out",
					     "blocks.out", "errors.out",
					     "v4.out" };
	unsigned int idx, cut_entries = 0, cut_extents = 0;
	char line[256];
	size_t f, k, len, cut;
	uint64_t v, vals[6];

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct dbout out;

		xfsdb_recording_load(files[f], &out);
		for (k = 0; k < out.nlines; k++) {
			const char *full = out.lines[k];
			bool entry = db_entry(full, &idx, vals, 6) == 1 ||
				     db_entry(full, &idx, vals, 2) == 1;
			bool extent = db_data_extent(full, &v, &v) == 1;

			len = strlen(full);
			assert_true(len < sizeof(line));
			for (cut = 0; cut <= len; cut++) {
				memcpy(line, full, cut);
				line[cut] = '\0';
				parse_all(line);
				/* Past "N:[", short of "]": cut. */
				if (entry &&
				    cut > (size_t)(strchr(full, '[') - full) &&
				    cut < len) {
					assert_int_equal(db_entry(line, &idx,
								  vals, 6),
							 -EINVAL);
					cut_entries++;
				}
				if (extent && cut >= strlen("data offset ") &&
				    cut < len) {
					assert_int_equal(db_data_extent(line,
									&v, &v),
							 -EINVAL);
					cut_extents++;
				}
			}
		}
		/* The whole recording cut short: still lines, no crash. */
		for (cut = 0; cut < out.len && out.len < 4096; cut++) {
			struct dbout part = { 0 };

			xfsdb_recording_read(files[f], &part.buf, &part.len);
			part.len = cut;
			assert_int_equal(dbout_split(&part), 0);
			for (k = 0; k < part.nlines; k++)
				parse_all(part.lines[k]);
			dbout_free(&part);
		}
		dbout_free(&out);
	}
	print_message("# %u entries and %u extents cut short\n", cut_entries,
		      cut_extents);
	assert_true(cut_entries > 500);
	assert_true(cut_extents > 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_lines),
		cmocka_unit_test(test_superblock),
		cmocka_unit_test(test_found),
		cmocka_unit_test(test_attr_leaf),
		cmocka_unit_test(test_dir_blocks),
		cmocka_unit_test(test_error_lines),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_truncated_lines),
	};

	return cmocka_run_group_tests_name("mkfs_dbparse", tests, NULL, NULL);
}
