// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation that gives up with a message, for the bookkeeping the
 * programs cannot go on without. A zero size asks for one byte, so that
 * NULL always means out of memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

void out_of_memory(void)
{
	err_msg("out of memory");
	exit(EXIT_FAILED);
}

static void *checked(void *p)
{
	if (!p)
		out_of_memory();
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return checked(realloc(p, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return checked(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (ret < 0)
		out_of_memory();
	return s;
}
