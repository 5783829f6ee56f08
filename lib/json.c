// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Streaming JSON writer. Strings are emitted byte for byte with control
 * characters escaped; bytes that are not valid UTF-8 (file names may hold
 * any) are written as \u00XX of the byte so the document stays valid.
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

static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p >= 0x80)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
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
