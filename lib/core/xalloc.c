// SPDX-License-Identifier: Apache-2.0
/* xalloc - allocation that cannot fail (see xalloc.h) */
#include "core/xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

static void *oom(void *p)
{
	if (!p) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		exit(KILO_EXIT_FAIL);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return oom(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return oom(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return oom(realloc(p, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return oom(strdup(s));
}

char *xasprintf(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return oom(n < 0 ? NULL : s);
}
