/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small streaming JSON writer for the tools' --json output: enough for
 * objects, arrays, strings (escaped, any bytes), integers and booleans.
 */
#ifndef EXECFOLIO_JSON_H
#define EXECFOLIO_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <execfolio/error.h>

#define EXECFOLIO_JSON_DEPTH 16

struct execfolio_json {
	FILE *out;
	int depth;
	bool need_comma[EXECFOLIO_JSON_DEPTH];
	char closer[EXECFOLIO_JSON_DEPTH]; /* '}' or ']' per level */
};

void execfolio_json_init(struct execfolio_json *j, FILE *out);
/* Open/close a container; @key is NULL inside arrays and at top level. */
void execfolio_json_object(struct execfolio_json *j, const char *key);
void execfolio_json_array(struct execfolio_json *j, const char *key);
void execfolio_json_end(struct execfolio_json *j);
void execfolio_json_string(struct execfolio_json *j, const char *key,
			   const char *value);
void execfolio_json_u64(struct execfolio_json *j, const char *key,
			uint64_t value);
void execfolio_json_bool(struct execfolio_json *j, const char *key, bool value);
/* Ends the document with a newline. */
void execfolio_json_finish(struct execfolio_json *j);

#endif /* EXECFOLIO_JSON_H */
