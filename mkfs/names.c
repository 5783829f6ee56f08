// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names the protofile of xfsprogs 6.1 cannot carry. It splits tokens at
 * blanks, treats a token starting with ':' as a comment and "$" as the end
 * of a directory, and xfs_db splits its arguments at blanks too. Such a
 * name goes into the protofile as a placeholder, which fixup_names.c later
 * overwrites with the real bytes in the directory entry.
 *
 * A short-form directory packs its entries one after the other in the
 * inode and stores no hash: there the placeholder must have the real
 * name's length, and any free name of that length does. Block, leaf and
 * node directories index their entries by the XFS name hash, so the
 * placeholder is chosen with the same hash where one exists: the hash is
 * linear over GF(2) in the bits of the name, so such a twin solves 32
 * linear equations in the 8 bits of each byte, and twins with bytes the
 * protofile and xfs_db take are searched among the solutions. Names of up
 * to about 6 bytes have few twins, sometimes none that qualify; they get
 * a placeholder whose hash is next to theirs, with no hash of the
 * directory in between, or failing that any free name of their length.
 * Outside the short form fixup_names.c then gives the entry its real hash
 * in the hash index (dirindex.c), which moves no other entry when the
 * hashes were next to each other.
 *
 * Only where every name of the real name's length a placeholder may have
 * is taken, by a directory too large for the short form, does the
 * placeholder get another length: one whose data block entries take as
 * many bytes, with and without file types (1 to 4 bytes all take 16), so
 * that fixup_names.c rewrites the length byte and nothing moves.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "mkfs.h"

#define HASH_BITS 32
#define PLACEHOLDER_TRIES 256
/* Null spaces up to this dimension are searched in full. */
#define ENUMERATE_MAX_DIM 16
/* Hashes next to a name's tried first, then random ones in its gap. */
#define NEIGHBOUR_NEAR 4096
#define NEIGHBOUR_TRIES 65536
#define NAME_MAX_BYTES 255

static bool byte_is_blank(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

bool name_is_proto_safe(const char *name)
{
	const unsigned char *p;

	if (!name[0] || name[0] == ':' || !strcmp(name, "$"))
		return false;
	for (p = (const unsigned char *)name; *p; p++)
		if (byte_is_blank(*p) || *p == '\\')
			return false;
	return true;
}

/*
 * Bytes a placeholder may have: no NUL or '/', no blanks, no '\\' (xfs_db
 * reads a final one as a line continuation), no quotes, '#', ':' or '$'
 * that a reader of the protofile or of xfs_db commands might take apart.
 */
static bool placeholder_byte_ok(unsigned char c)
{
	return c && !byte_is_blank(c) && c != 0x7f && !strchr("\"#$'/:\\", c);
}

static uint32_t rol32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

/* The XFS directory and attribute name hash (xfs_da_hashname). */
uint32_t xfs_dahash(const unsigned char *name, size_t len)
{
	uint32_t hash = 0;

	for (; len >= 4; len -= 4, name += 4)
		hash = ((uint32_t)name[0] << 21) ^ ((uint32_t)name[1] << 14) ^
		       ((uint32_t)name[2] << 7) ^ name[3] ^ rol32(hash, 7 * 4);
	switch (len) {
	case 3:
		return ((uint32_t)name[0] << 14) ^ ((uint32_t)name[1] << 7) ^
		       name[2] ^ rol32(hash, 7 * 3);
	case 2:
		return ((uint32_t)name[0] << 7) ^ name[1] ^ rol32(hash, 7 * 2);
	case 1:
		return name[0] ^ rol32(hash, 7 * 1);
	default:
		return hash;
	}
}

static uint32_t name_hash(const char *name)
{
	return xfs_dahash((const unsigned char *)name, strlen(name));
}

size_t xfs_dirent_bytes(size_t namelen, bool ftype)
{
	/* Inode number, name length, name, file type, 2-byte tag. */
	return (8 + 1 + namelen + (ftype ? 1 : 0) + 2 + 7) & ~(size_t)7;
}

/* Entries of names of @a and @b bytes take as many bytes in any image. */
static bool same_entry_bytes(size_t a, size_t b)
{
	return xfs_dirent_bytes(a, true) == xfs_dirent_bytes(b, true) &&
	       xfs_dirent_bytes(a, false) == xfs_dirent_bytes(b, false);
}

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * The hash of names of one length as a GF(2) matrix in row echelon form:
 * one basis vector per pivot bit with the name bits that sum to it, and a
 * basis of the null space (names of hash 0), kept when it is small enough
 * to be searched in full. Name bit v is bit v % 8 of byte v / 8.
 */
struct hash_basis {
	size_t len;
	size_t words; /* 64-bit words of a name bit set */
	uint32_t vec[HASH_BITS];
	uint64_t *combo; /* HASH_BITS rows of @words */
	bool used[HASH_BITS];
	uint64_t *null; /* @nnull rows of @words, if @nnull is small */
	size_t nnull;
};

static struct hash_basis *bases[NAME_MAX_BYTES + 1];

static int highest_bit(uint32_t v)
{
	return 31 - __builtin_clz(v);
}

static void basis_add(struct hash_basis *b, uint32_t v, uint64_t *row)
{
	size_t w;
	int hb;

	while (v) {
		hb = highest_bit(v);
		if (!b->used[hb]) {
			b->used[hb] = true;
			b->vec[hb] = v;
			memcpy(&b->combo[hb * b->words], row,
			       b->words * sizeof(uint64_t));
			return;
		}
		v ^= b->vec[hb];
		for (w = 0; w < b->words; w++)
			row[w] ^= b->combo[hb * b->words + w];
	}
	/* A combination of name bits with hash 0. */
	if (b->nnull < ENUMERATE_MAX_DIM + 1) {
		b->null = xrealloc(b->null, (b->nnull + 1) * b->words *
						    sizeof(uint64_t));
		memcpy(&b->null[b->nnull * b->words], row,
		       b->words * sizeof(uint64_t));
	}
	b->nnull++;
}

static const struct hash_basis *basis_of(size_t len)
{
	/* Low bits first: they become the pivots a random base is fixed
	 * with, which leaves bits 6 and 7, and so most bytes, alone. */
	static const unsigned char bit_order[8] = { 0, 1, 2, 3, 4, 5, 7, 6 };
	struct hash_basis *b = bases[len];
	unsigned char *unit;
	uint64_t *row;
	size_t i, k;

	if (b)
		return b;
	b = xcalloc(1, sizeof(*b));
	b->len = len;
	b->words = (len * 8 + 63) / 64;
	b->combo = xcalloc(HASH_BITS * b->words, sizeof(uint64_t));
	unit = xcalloc(len, 1);
	row = xcalloc(b->words, sizeof(uint64_t));
	for (k = 0; k < 8; k++) {
		for (i = 0; i < len; i++) {
			size_t var = i * 8 + bit_order[k];

			memset(unit, 0, len);
			unit[i] = 1u << bit_order[k];
			memset(row, 0, b->words * sizeof(uint64_t));
			row[var / 64] = 1ull << (var % 64);
			basis_add(b, xfs_dahash(unit, len), row);
		}
	}
	free(unit);
	free(row);
	bases[len] = b;
	return b;
}

/* @x: name bits whose hash is @target; false if no name has it. */
static bool basis_solve(const struct hash_basis *b, uint32_t target,
			uint64_t *x)
{
	size_t w;
	int hb;

	memset(x, 0, b->words * sizeof(uint64_t));
	while (target) {
		hb = highest_bit(target);
		if (!b->used[hb])
			return false;
		target ^= b->vec[hb];
		for (w = 0; w < b->words; w++)
			x[w] ^= b->combo[hb * b->words + w];
	}
	return true;
}

static void flip_bits(unsigned char *name, const uint64_t *x, size_t len)
{
	size_t v;

	for (v = 0; v < len * 8; v++)
		if (x[v / 64] & (1ull << (v % 64)))
			name[v / 8] ^= 1u << (v % 8);
}

/* Placeholder bytes, a protofile token, and no other entry's name. */
static bool placeholder_ok(const struct tree *t, const struct node *n,
			   const unsigned char *cand, size_t len)
{
	const struct node *parent = &t->nodes[n->parent];
	size_t i;

	for (i = 0; i < len; i++)
		if (!placeholder_byte_ok(cand[i]))
			return false;
	if ((len == 1 && cand[0] == '.') ||
	    (len == 2 && cand[0] == '.' && cand[1] == '.'))
		return false;
	for (i = 0; i < parent->nchildren; i++) {
		const struct node *c = &t->nodes[parent->children[i]];

		if (strlen(c->name) == len && !memcmp(c->name, cand, len))
			return false;
		if (c->img_name && strlen(c->img_name) == len &&
		    !memcmp(c->img_name, cand, len))
			return false;
	}
	return true;
}

/*
 * A placeholder of @len bytes for @n with hash @target in @out: every
 * solution when there are few, random ones otherwise (random placeholder
 * bytes, then the pivot bits set to reach the hash).
 */
static bool find_with_hash(const struct tree *t, const struct node *n,
			   size_t len, uint32_t target, uint64_t *seed,
			   unsigned char *out)
{
	size_t i, k, w;
	const struct hash_basis *b = basis_of(len);
	uint64_t *x = xcalloc(b->words, sizeof(uint64_t)), *y;
	unsigned char *base = xcalloc(len, 1);
	bool found = false;

	if (b->nnull <= ENUMERATE_MAX_DIM) {
		uint64_t mask;

		if (!basis_solve(b, target, x))
			goto out;
		y = xcalloc(b->words, sizeof(uint64_t));
		for (mask = 0; mask < (1ull << b->nnull) && !found; mask++) {
			memcpy(y, x, b->words * sizeof(uint64_t));
			for (k = 0; k < b->nnull; k++)
				if (mask & (1ull << k))
					for (w = 0; w < b->words; w++)
						y[w] ^= b->null[k * b->words +
								w];
			memset(out, 0, len);
			flip_bits(out, y, len);
			found = placeholder_ok(t, n, out, len);
		}
		free(y);
		goto out;
	}
	for (k = 0; k < PLACEHOLDER_TRIES && !found; k++) {
		for (i = 0; i < len; i++) {
			do
				base[i] = 0x40 | (rng_next(seed) & 0xbf);
			while (!placeholder_byte_ok(base[i]));
		}
		if (!basis_solve(b, target ^ xfs_dahash(base, len), x))
			break;
		memcpy(out, base, len);
		flip_bits(out, x, len);
		found = placeholder_ok(t, n, out, len);
	}
out:
	free(x);
	free(base);
	return found;
}

/*
 * The gap around @n's hash: the nearest hashes below and above it of the
 * other entries of its directory, "." and ".." included, by their names
 * and their placeholders. False if another entry has the same hash.
 */
static bool hash_gap(const struct tree *t, const struct node *n, int64_t *lo,
		     int64_t *hi)
{
	static const unsigned char dots[] = "..";
	const struct node *dir = &t->nodes[n->parent];
	uint32_t h = name_hash(n->name), other[4];
	size_t i, k, nother;

	*lo = -1;
	*hi = (int64_t)UINT32_MAX + 1;
	for (i = 0; i <= dir->nchildren; i++) {
		const struct node *c = NULL;

		if (i == dir->nchildren) {
			other[0] = xfs_dahash(dots, 1);
			other[1] = xfs_dahash(dots, 2);
			nother = 2;
		} else {
			c = &t->nodes[dir->children[i]];
			if (c == n || c->skip)
				continue;
			other[0] = name_hash(c->name);
			nother = 1;
			if (c->img_name)
				other[nother++] = name_hash(c->img_name);
		}
		for (k = 0; k < nother; k++) {
			if (other[k] == h)
				return false;
			if (other[k] < h && other[k] > *lo)
				*lo = other[k];
			if (other[k] > h && other[k] < *hi)
				*hi = other[k];
		}
	}
	return true;
}

/* A placeholder with a hash in the gap around the name's: near it first. */
static bool find_in_gap(const struct tree *t, const struct node *n,
			uint64_t *seed, unsigned char *out)
{
	size_t len = strlen(n->name);
	uint32_t hash = name_hash(n->name);
	int64_t lo, hi, d, h;
	int side, tries;

	if (!hash_gap(t, n, &lo, &hi))
		return false;
	for (d = 1; d <= NEIGHBOUR_NEAR; d++) {
		for (side = 0; side < 2; side++) {
			h = side ? (int64_t)hash - d : (int64_t)hash + d;
			if (h > lo && h < hi &&
			    find_with_hash(t, n, len, (uint32_t)h, seed, out))
				return true;
		}
	}
	for (tries = 0; tries < NEIGHBOUR_TRIES && hi - lo > 2; tries++) {
		h = lo + 1 +
		    (int64_t)(rng_next(seed) % (uint64_t)(hi - lo - 1));
		if (h != hash &&
		    find_with_hash(t, n, len, (uint32_t)h, seed, out))
			return true;
	}
	return false;
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The first free placeholder of @len bytes in @n's directory, in byte
 * order: the names of that length taken there ("." and ".." too), sorted,
 * are walked beside the candidates until one is missing. False if every
 * one is taken.
 */
static bool find_free(const struct tree *t, const struct node *n, size_t len,
		      unsigned char *out)
{
	const struct node *dir = &t->nodes[n->parent];
	unsigned char ok[256];
	size_t nok = 0, ntaken = 0, i, j;
	unsigned int *digit = xcalloc(len, sizeof(*digit));
	const char **taken = xcalloc(2 * dir->nchildren + 1, sizeof(*taken));
	bool found = true;
	int c;

	for (c = 1; c < 256; c++)
		if (placeholder_byte_ok((unsigned char)c))
			ok[nok++] = (unsigned char)c;
	if (len <= 2)
		taken[ntaken++] = len == 1 ? "." : "..";
	for (i = 0; i < dir->nchildren; i++) {
		const struct node *s = &t->nodes[dir->children[i]];

		if (strlen(s->name) == len)
			taken[ntaken++] = s->name;
		if (s->img_name && s->img_name != s->name &&
		    strlen(s->img_name) == len)
			taken[ntaken++] = s->img_name;
	}
	qsort(taken, ntaken, sizeof(*taken), cmp_name_ptr);
	memset(out, ok[0], len);
	for (j = 0; j < ntaken && found; j++) {
		c = memcmp(taken[j], out, len);
		if (c > 0)
			break;
		if (c < 0)
			continue;
		/* Taken: the next candidate, the last byte counting fastest. */
		for (i = len; i-- > 0;) {
			if (++digit[i] < nok) {
				out[i] = ok[digit[i]];
				break;
			}
			digit[i] = 0;
			out[i] = ok[0];
		}
		found = i < len;
	}
	free((void *)taken);
	free(digit);
	return found;
}

static int make_placeholder(struct tree *t, struct node *n)
{
	uint32_t hash = name_hash(n->name);
	size_t len = strlen(n->name), other;
	unsigned char *cand = xcalloc(NAME_MAX_BYTES + 1, 1);
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ hash;

	n->same_hash = find_with_hash(t, n, len, hash, &seed, cand);
	if (n->same_hash || find_in_gap(t, n, &seed, cand) ||
	    find_free(t, n, len, cand))
		goto found;
	/* Every placeholder of its length taken: another length. */
	for (other = 1; other <= NAME_MAX_BYTES; other++) {
		if (other == len || !same_entry_bytes(other, len))
			continue;
		memset(cand, 0, NAME_MAX_BYTES + 1);
		n->same_hash = find_with_hash(t, n, other, hash, &seed, cand);
		if (n->same_hash || find_free(t, n, other, cand))
			goto found;
	}
	free(cand);
	err_file(n,
		 "the protofile cannot carry this name, and no placeholder of "
		 "%zu bytes or of a length whose directory entries take as "
		 "many bytes is free in its directory; rename it",
		 len);
	return -1;
found:
	n->img_name = (char *)cand;
	return 0;
}

static bool target_is_proto_safe(const char *target)
{
	const unsigned char *p;

	if (target[0] == ':')
		return false;
	for (p = (const unsigned char *)target; *p; p++)
		if (byte_is_blank(*p))
			return false;
	return true;
}

int names_assign(struct tree *t)
{
	size_t i;

	t->nodes[0].img_path = xstrdup("/");
	for (i = 1; i < t->count; i++) {
		struct node *n = &t->nodes[i];
		const struct node *p = &t->nodes[n->parent];

		if (n->skip)
			continue;
		if (name_is_proto_safe(n->name)) {
			n->img_name = n->name;
		} else {
			if (make_placeholder(t, n))
				return -1;
			n->renamed = true;
		}
		n->img_path = xasprintf("%s%s%s", p->img_path,
					n->parent ? "/" : "", n->img_name);
		if (n->type == NODE_SYMLINK) {
			if (target_is_proto_safe(n->target)) {
				n->proto_target = n->target;
			} else {
				n->proto_target = xstrdup(n->target);
				memset(n->proto_target, 'x', strlen(n->target));
				n->target_fixup = true;
			}
		}
	}
	return 0;
}
