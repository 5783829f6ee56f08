// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Streaming JSON writer. Strings are emitted byte for byte with control
 * characters escaped; valid UTF-8 passes through unchanged, and each byte
 * that is not part of valid UTF-8 (file names may hold any) is written as
 * \u00XX of the byte so the document stays valid.
 */
#include <stdlib.h>

#include <execfolio/json.h>

void execfolio_json_init(struct execfolio_json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->need_comma[0] = false;
	j->closer[0] = '\0';
}

/*
 * Length of the well-formed UTF-8 sequence (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF) that starts with the non-ASCII
 * byte at @p, or 0. Stops at a NUL, which is never a continuation byte.
 */
static size_t utf8_sequence_len(const unsigned char *p)
{
	uint32_t cp;
	size_t len, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
		return 0;
	if (len == 4 && (cp < 0x10000 || cp > 0x10ffff))
		return 0;
	return len;
}

static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len;

	fputc('"', out);
	while (*p) {
		if (*p >= 0x80) {
			len = utf8_sequence_len(p);
			if (len) {
				fwrite(p, 1, len, out);
				p += len;
			} else {
				fprintf(out, "\\u%04x", *p++);
			}
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
		p++;
	}
	fputc('"', out);
}

static void begin_value(struct execfolio_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
	if (key) {
		put_string(j->out, key);
		fputc(':', j->out);
	}
}

static void open_container(struct execfolio_json *j, const char *key,
			   char opener, char closer)
{
	begin_value(j, key);
	fputc(opener, j->out);
	/* Our documents are shallow; deeper nesting is a programming error. */
	if (j->depth + 1 >= EXECFOLIO_JSON_DEPTH)
		abort();
	j->depth++;
	j->need_comma[j->depth] = false;
	j->closer[j->depth] = closer;
}

void execfolio_json_object(struct execfolio_json *j, const char *key)
{
	open_container(j, key, '{', '}');
}

void execfolio_json_array(struct execfolio_json *j, const char *key)
{
	open_container(j, key, '[', ']');
}

void execfolio_json_end(struct execfolio_json *j)
{
	if (j->depth == 0)
		abort();
	fputc(j->closer[j->depth], j->out);
	j->depth--;
}

void execfolio_json_string(struct execfolio_json *j, const char *key,
			   const char *value)
{
	begin_value(j, key);
	put_string(j->out, value);
}

void execfolio_json_u64(struct execfolio_json *j, const char *key,
			uint64_t value)
{
	begin_value(j, key);
	fprintf(j->out, "%llu", (unsigned long long)value);
}

void execfolio_json_bool(struct execfolio_json *j, const char *key, bool value)
{
	begin_value(j, key);
	fputs(value ? "true" : "false", j->out);
}

void execfolio_json_finish(struct execfolio_json *j)
{
	while (j->depth > 0)
		execfolio_json_end(j);
	fputc('\n', j->out);
}
