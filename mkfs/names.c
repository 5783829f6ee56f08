// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names the protofile of xfsprogs 6.1 cannot carry. It splits tokens at
 * blanks, treats a token starting with ':' as a comment and "$" as the end
 * of a directory, and xfs_db splits its arguments at blanks too. Such a
 * name goes into the protofile as a placeholder of the same length, which
 * fixup.c later overwrites with the real bytes in the directory entry.
 *
 * Short-form directories store no hash, but block, leaf and node
 * directories index entries by the XFS name hash, so the placeholder is
 * chosen with the same hash as the real name. The hash is linear over GF(2)
 * in the bits of the name, so a placeholder is a solution of 32 linear
 * equations; its bytes all have bit 6 set (0x40-0x7f, 0xc0-0xff), which
 * excludes blanks, ':', '$', '/' and NUL, and leaves 7 free bits a byte.
 * Of the rest, xfs_db reads a backslash at the end of a line as a line
 * continuation: solutions with '\\' (or DEL) are drawn again, and real
 * names with a backslash get a placeholder too. Names shorter than 5
 * bytes rarely have such a twin; they only work in short-form directories,
 * and fixup.c stops with an error naming the file if the directory is
 * larger.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "mkfs.h"

#define FREE_BITS 7
static const unsigned char free_bit[FREE_BITS] = { 0, 1, 2, 3, 4, 5, 7 };
#define PLACEHOLDER_BASE 0x40
#define PLACEHOLDER_TRIES 64

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

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Gaussian elimination state: one basis vector per pivot bit. */
struct solver {
	size_t nvars;
	size_t words;
	uint32_t vec[32];
	uint64_t *combo; /* 32 rows of @words: which variables sum to it */
	bool used[32];
};

static int highest_bit(uint32_t v)
{
	return 31 - __builtin_clz(v);
}

static void solver_add(struct solver *s, uint32_t v, size_t var)
{
	uint64_t *row = calloc(s->words, sizeof(uint64_t));
	size_t w;
	int b;

	if (!row) {
		err_msg("out of memory");
		exit(EXIT_FAILED);
	}
	row[var / 64] |= 1ull << (var % 64);
	while (v) {
		b = highest_bit(v);
		if (!s->used[b]) {
			s->used[b] = true;
			s->vec[b] = v;
			memcpy(&s->combo[b * s->words], row,
			       s->words * sizeof(uint64_t));
			break;
		}
		v ^= s->vec[b];
		for (w = 0; w < s->words; w++)
			row[w] ^= s->combo[b * s->words + w];
	}
	free(row);
}

/* Make @out (len bytes) a same-hash placeholder for @name. */
static bool solve_placeholder(const unsigned char *name, size_t len,
			      uint64_t seed, unsigned char *out)
{
	struct solver s = { .nvars = len * FREE_BITS };
	uint64_t *sol;
	uint32_t target;
	size_t i, w;
	bool ok = false;

	s.words = (s.nvars + 63) / 64;
	s.combo = calloc(32 * s.words, sizeof(uint64_t));
	sol = calloc(s.words, sizeof(uint64_t));
	if (!s.combo || !sol) {
		err_msg("out of memory");
		exit(EXIT_FAILED);
	}
	/* Start from random bytes, then correct them towards the hash. */
	for (i = 0; i < len; i++)
		out[i] = PLACEHOLDER_BASE |
			 ((rng_next(&seed) & 0xbf) & ~PLACEHOLDER_BASE);
	target = xfs_dahash(name, len) ^ xfs_dahash(out, len);
	{
		unsigned char *unit = calloc(len, 1);
		size_t var, start = rng_next(&seed) % s.nvars;

		if (!unit) {
			err_msg("out of memory");
			exit(EXIT_FAILED);
		}
		for (i = 0; i < s.nvars; i++) {
			var = (start + i) % s.nvars;
			memset(unit, 0, len);
			unit[var / FREE_BITS] = 1u << free_bit[var % FREE_BITS];
			solver_add(&s, xfs_dahash(unit, len), var);
		}
		free(unit);
	}
	while (target) {
		int b = highest_bit(target);

		if (!s.used[b])
			goto out;
		target ^= s.vec[b];
		for (w = 0; w < s.words; w++)
			sol[w] ^= s.combo[b * s.words + w];
	}
	for (i = 0; i < s.nvars; i++)
		if (sol[i / 64] & (1ull << (i % 64)))
			out[i / FREE_BITS] ^= 1u << free_bit[i % FREE_BITS];
	ok = true;
out:
	free(s.combo);
	free(sol);
	return ok;
}

static bool sibling_has(const struct tree *t, const struct node *parent,
			const unsigned char *cand, size_t len)
{
	size_t i;

	for (i = 0; i < parent->nchildren; i++) {
		const struct node *c = &t->nodes[parent->children[i]];

		if (strlen(c->name) == len && !memcmp(c->name, cand, len))
			return true;
		if (c->img_name && strlen(c->img_name) == len &&
		    !memcmp(c->img_name, cand, len))
			return true;
	}
	return false;
}

static int make_placeholder(struct tree *t, struct node *n)
{
	const unsigned char *name = (const unsigned char *)n->name;
	const struct node *parent = &t->nodes[n->parent];
	size_t len = strlen(n->name), i;
	unsigned char *cand = malloc(len + 1);
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ xfs_dahash(name, len);
	int tries;

	if (!cand) {
		err_msg("out of memory");
		exit(EXIT_FAILED);
	}
	cand[len] = '\0';
	for (tries = 0; tries < PLACEHOLDER_TRIES; tries++) {
		seed += tries + 1;
		if (!solve_placeholder(name, len, seed, cand))
			break;
		if (!sibling_has(t, parent, cand, len) &&
		    !memchr(cand, '\\', len) && !memchr(cand, 0x7f, len)) {
			n->img_name = (char *)cand;
			n->same_hash = true;
			return 0;
		}
	}
	/* No twin with the same hash: fine in a short-form directory only. */
	for (tries = 0; tries < PLACEHOLDER_TRIES * 4; tries++) {
		for (i = 0; i < len; i++)
			cand[i] = 'A' + rng_next(&seed) % 26;
		if (!sibling_has(t, parent, cand, len)) {
			n->img_name = (char *)cand;
			return 0;
		}
	}
	free(cand);
	err_msg("%s: no free placeholder name of %zu bytes in its directory",
		n->rel, len);
	return -1;
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

	t->nodes[0].img_path = strdup("/");
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
		if (asprintf(&n->img_path, "%s%s%s", p->img_path,
			     n->parent ? "/" : "", n->img_name) < 0) {
			err_msg("out of memory");
			return -1;
		}
		if (n->type == NODE_SYMLINK) {
			if (target_is_proto_safe(n->target)) {
				n->proto_target = n->target;
			} else {
				n->proto_target = strdup(n->target);
				if (!n->proto_target) {
					err_msg("out of memory");
					return -1;
				}
				memset(n->proto_target, 'x', strlen(n->target));
				n->target_fixup = true;
			}
		}
	}
	return 0;
}
