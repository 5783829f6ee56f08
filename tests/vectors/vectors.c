// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader for the policy test vectors; the grammar is in vectors.h. Only the
 * tests link it (DESIGN.md section 2.9), not libexecfolio.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors.h"

struct cursor {
	const char *p;
	const char *path;
	unsigned int line;
	char *err;
	size_t err_len;
};

static int fail(struct cursor *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->err_len, "%s:%u: ", c->path, c->line);
	if (n < 0 || (size_t)n >= c->err_len)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->err_len - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void skip_blanks(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static bool at_end(struct cursor *c)
{
	skip_blanks(c);
	return !*c->p || *c->p == '#';
}

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static int put_byte(struct cursor *c, struct execfolio_vector_value *val,
		    char ch)
{
	if (val->len >= sizeof(val->bytes))
		return fail(c, "value longer than %zu bytes",
			    sizeof(val->bytes));
	val->bytes[val->len++] = ch;
	return 0;
}

static int read_escape(struct cursor *c, char *ch)
{
	int hi, lo;

	switch (*c->p++) {
	case 'n':
		*ch = '\n';
		return 0;
	case 't':
		*ch = '\t';
		return 0;
	case 'r':
		*ch = '\r';
		return 0;
	case '0':
		*ch = '\0';
		return 0;
	case '\\':
		*ch = '\\';
		return 0;
	case '"':
		*ch = '"';
		return 0;
	case 'x':
		hi = hex_digit(c->p[0]);
		lo = hi < 0 ? -1 : hex_digit(c->p[1]);
		if (lo < 0)
			return fail(c, "\\x needs two hex digits");
		c->p += 2;
		*ch = (char)(hi << 4 | lo);
		return 0;
	default:
		return fail(c, "unknown escape \\%c", c->p[-1]);
	}
}

/* A bare word, or a quoted string with escapes. */
static int read_value(struct cursor *c, struct execfolio_vector_value *val)
{
	char ch;
	int ret;

	val->present = true;
	val->len = 0;
	if (*c->p != '"') {
		while (*c->p && *c->p != ' ' && *c->p != '\t' && *c->p != '#') {
			ret = put_byte(c, val, *c->p++);
			if (ret)
				return ret;
		}
		if (!val->len)
			return fail(c, "empty value (write \"\" for one)");
		if (val->len == 1 && val->bytes[0] == '-')
			val->present = false;
		return 0;
	}

	c->p++;
	while (*c->p != '"') {
		if (!*c->p)
			return fail(c, "unterminated string");
		ch = *c->p++;
		if (ch == '\\') {
			ret = read_escape(c, &ch);
			if (ret)
				return ret;
		}
		ret = put_byte(c, val, ch);
		if (ret)
			return ret;
	}
	c->p++;
	return 0;
}

/* The next blank-separated word, NUL-terminated into @buf. */
static int read_word(struct cursor *c, char *buf, size_t len)
{
	size_t n = 0;

	skip_blanks(c);
	while (*c->p && *c->p != ' ' && *c->p != '\t' && *c->p != '#') {
		if (n + 1 >= len)
			return fail(c, "word too long");
		buf[n++] = *c->p++;
	}
	buf[n] = '\0';
	if (!n)
		return fail(c, "unexpected end of line");
	return 0;
}

static int parse_number(struct cursor *c, const char *key, const char *text,
			int base, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(text, &end, base);
	if (errno || end == text || *end)
		return fail(c, "%s: bad number '%s'", key, text);
	return 0;
}

static int parse_canon_size(struct cursor *c, const char *text, uint32_t *size)
{
	char canon[EXECFOLIO_SIZE_STR];

	/* Expected sizes must themselves be written canonically. */
	if (execfolio_parse_size_str(text, size) ||
	    strcmp(execfolio_format_size(*size, canon), text))
		return fail(c, "'%s' is not a canonical size", text);
	return 0;
}

static int parse_arrow(struct cursor *c)
{
	char word[8];
	int ret = read_word(c, word, sizeof(word));

	if (ret)
		return ret;
	if (strcmp(word, "->"))
		return fail(c, "expected '->', got '%s'", word);
	return 0;
}

static int parse_parse_line(struct cursor *c, struct execfolio_vector *vec)
{
	char word[32];
	int ret;

	vec->kind = EXECFOLIO_VECTOR_PARSE;
	skip_blanks(c);
	ret = read_value(c, &vec->value);
	if (!ret && !vec->value.present)
		ret = fail(c, "parse needs a value");
	if (!ret)
		ret = parse_arrow(c);
	if (!ret)
		ret = read_word(c, word, sizeof(word));
	if (ret)
		return ret;
	if (!strcmp(word, "EINVAL"))
		vec->expect_einval = true;
	else
		ret = parse_canon_size(c, word, &vec->expect_size);
	return ret;
}

static int parse_key(struct cursor *c, struct execfolio_vector *vec,
		     const char *key, bool expect, unsigned int *seen)
{
	char word[32];
	uint64_t num;
	int ret;

	if (!expect && !strcmp(key, "xattr"))
		return read_value(c, &vec->xattr);
	if (!expect && !strcmp(key, "mount"))
		return read_value(c, &vec->mount);
	if (!expect && !strcmp(key, "scope"))
		return read_value(c, &vec->scope);

	ret = read_word(c, word, sizeof(word));
	if (ret)
		return ret;
	if (!expect && !strcmp(key, "mode")) {
		*seen |= 1;
		ret = parse_number(c, key, word, 8, &num);
		vec->mode = (mode_t)num;
	} else if (!expect && !strcmp(key, "page")) {
		*seen |= 2;
		ret = parse_number(c, key, word, 10, &num);
		vec->page_size = (uint32_t)num;
	} else if (!expect && !strcmp(key, "bsize")) {
		*seen |= 4;
		ret = parse_number(c, key, word, 10, &num);
		vec->block_size = (uint32_t)num;
	} else if (!expect && !strcmp(key, "fsize")) {
		*seen |= 8;
		ret = parse_number(c, key, word, 10, &vec->file_size);
	} else if (expect && !strcmp(key, "size")) {
		*seen |= 16;
		ret = parse_canon_size(c, word, &vec->expect_size);
	} else if (expect && !strcmp(key, "source")) {
		*seen |= 32;
		if (!strcmp(word, "xattr"))
			vec->expect_source = EXECFOLIO_SOURCE_XATTR;
		else if (!strcmp(word, "mount"))
			vec->expect_source = EXECFOLIO_SOURCE_MOUNT;
		else if (!strcmp(word, "none"))
			vec->expect_source = EXECFOLIO_SOURCE_NONE;
		else
			ret = fail(c, "unknown source '%s'", word);
	} else if (expect && !strcmp(key, "order")) {
		*seen |= 64;
		ret = parse_number(c, key, word, 10, &num);
		vec->expect_order = (unsigned int)num;
	} else {
		ret = fail(c, "unknown key '%s'", key);
	}
	return ret;
}

static int parse_resolve_line(struct cursor *c, struct execfolio_vector *vec)
{
	bool expect = false;
	unsigned int seen = 0;
	char key[16];
	size_t n;
	int ret;

	vec->kind = EXECFOLIO_VECTOR_RESOLVE;
	while (!at_end(c)) {
		if (!expect && !strncmp(c->p, "->", 2)) {
			ret = parse_arrow(c);
			if (ret)
				return ret;
			expect = true;
			skip_blanks(c);
			if (!strncmp(c->p, "EINVAL", 6)) {
				c->p += 6;
				vec->expect_einval = true;
				seen |= 16 | 32 | 64;
			}
			continue;
		}
		if (expect && !strncmp(c->p, "xattr_invalid", 13)) {
			c->p += 13;
			vec->expect_xattr_invalid = true;
			continue;
		}
		for (n = 0; c->p[n] && c->p[n] != '='; n++)
			if (n + 1 >= sizeof(key) || c->p[n] == ' ')
				return fail(c, "expected key=value");
		if (!c->p[n])
			return fail(c, "expected key=value");
		memcpy(key, c->p, n);
		key[n] = '\0';
		c->p += n + 1;
		ret = parse_key(c, vec, key, expect, &seen);
		if (ret)
			return ret;
	}
	if (!expect)
		return fail(c, "missing '->'");
	if ((seen & 127) != 127)
		return fail(
			c,
			"resolve needs mode, page, bsize, fsize -> size, source, order");
	if (vec->page_size < 4096 || vec->page_size & (vec->page_size - 1))
		return fail(c, "page must be a power of two >= 4096");
	return 0;
}

static int parse_line(struct cursor *c, struct execfolio_vector *vec)
{
	char word[16];
	int ret;

	ret = read_word(c, word, sizeof(word));
	if (ret)
		return ret;
	if (!strcmp(word, "parse"))
		ret = parse_parse_line(c, vec);
	else if (!strcmp(word, "resolve"))
		ret = parse_resolve_line(c, vec);
	else
		return fail(c, "unknown line kind '%s'", word);
	if (!ret && !at_end(c))
		ret = fail(c, "trailing text '%s'", c->p);
	return ret;
}

int execfolio_vectors_load(const char *path, struct execfolio_vectors *vecs,
			   char *err, size_t err_len)
{
	struct cursor c = { .path = path, .err = err, .err_len = err_len };
	struct execfolio_vector *grown;
	size_t cap = 0, len;
	char *line = NULL;
	size_t line_cap = 0;
	ssize_t got;
	FILE *f;
	int ret = 0;

	vecs->count = 0;
	vecs->v = NULL;
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return ret;
	}

	while ((got = getline(&line, &line_cap, f)) >= 0) {
		c.line++;
		len = (size_t)got;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != len) {
			ret = fail(&c, "NUL byte in line (use \\0)");
			break;
		}
		c.p = line;
		if (at_end(&c))
			continue;
		if (vecs->count == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(vecs->v, cap * sizeof(*grown));
			if (!grown) {
				ret = -ENOMEM;
				snprintf(err, err_len, "%s: out of memory",
					 path);
				break;
			}
			vecs->v = grown;
		}
		memset(&vecs->v[vecs->count], 0, sizeof(vecs->v[0]));
		vecs->v[vecs->count].line = c.line;
		ret = parse_line(&c, &vecs->v[vecs->count]);
		if (ret)
			break;
		vecs->count++;
	}
	if (!ret && ferror(f)) {
		ret = -EIO;
		snprintf(err, err_len, "%s: read error", path);
	}
	free(line);
	fclose(f);
	if (!ret && !vecs->count) {
		ret = -EINVAL;
		snprintf(err, err_len, "%s: no vectors", path);
	}
	if (ret)
		execfolio_vectors_free(vecs);
	return ret;
}

void execfolio_vectors_free(struct execfolio_vectors *vecs)
{
	free(vecs->v);
	vecs->v = NULL;
	vecs->count = 0;
}

static bool check_parse(const struct execfolio_vector *vec, char *why,
			size_t why_len)
{
	char got_s[EXECFOLIO_SIZE_STR], want_s[EXECFOLIO_SIZE_STR];
	uint32_t size = 0;
	int ret;

	ret = execfolio_parse_size(vec->value.bytes, vec->value.len, &size);
	if (vec->expect_einval) {
		if (ret == -EINVAL)
			return true;
		snprintf(why, why_len, "accepted as %s, expected EINVAL",
			 execfolio_format_size(size, got_s));
		return false;
	}
	if (ret) {
		snprintf(why, why_len, "rejected, expected %s",
			 execfolio_format_size(vec->expect_size, want_s));
		return false;
	}
	if (size != vec->expect_size) {
		snprintf(why, why_len, "parsed as %s, expected %s",
			 execfolio_format_size(size, got_s),
			 execfolio_format_size(vec->expect_size, want_s));
		return false;
	}
	return true;
}

static bool check_resolve(const struct execfolio_vector *vec, char *why,
			  size_t why_len)
{
	char got_s[EXECFOLIO_SIZE_STR], want_s[EXECFOLIO_SIZE_STR];
	struct execfolio_inode inode = { .mode = vec->mode };
	struct execfolio_policy policy;
	unsigned int order, max_order;
	int ret = 0;

	if (vec->mount.present) {
		ret = execfolio_parse_size(vec->mount.bytes, vec->mount.len,
					   &inode.mount_size);
		if (!ret)
			inode.has_mount = true;
	}
	if (!ret && vec->scope.present)
		ret = execfolio_parse_scope(vec->scope.bytes, vec->scope.len,
					    &inode.mount_scope);
	if (ret) {
		if (vec->expect_einval)
			return true;
		snprintf(why, why_len, "mount option rejected");
		return false;
	}
	if (vec->expect_einval) {
		snprintf(why, why_len,
			 "mount options accepted, expected EINVAL");
		return false;
	}
	inode.has_xattr = vec->xattr.present;
	inode.xattr = vec->xattr.bytes;
	inode.xattr_len = vec->xattr.len;
	execfolio_resolve(&inode, &policy);
	max_order = execfolio_max_order(vec->page_size);
	order = execfolio_order(policy.size, vec->page_size, vec->block_size,
				max_order);
	if (policy.size != vec->expect_size ||
	    policy.source != vec->expect_source || order != vec->expect_order ||
	    policy.xattr_invalid != vec->expect_xattr_invalid) {
		snprintf(
			why, why_len,
			"got size=%s source=%s order=%u%s, expected size=%s source=%s order=%u%s",
			execfolio_format_size(policy.size, got_s),
			execfolio_source_name(policy.source), order,
			policy.xattr_invalid ? " xattr_invalid" : "",
			execfolio_format_size(vec->expect_size, want_s),
			execfolio_source_name(vec->expect_source),
			vec->expect_order,
			vec->expect_xattr_invalid ? " xattr_invalid" : "");
		return false;
	}
	return true;
}

bool execfolio_vector_check(const struct execfolio_vector *vec, char *why,
			    size_t why_len)
{
	if (vec->kind == EXECFOLIO_VECTOR_PARSE)
		return check_parse(vec, why, why_len);
	return check_resolve(vec, why, why_len);
}
