/* SPDX-License-Identifier: Apache-2.0 */
/* xalloc - allocation that cannot fail: on out of memory the tool prints
 * "<prog>: out of memory" and exits 1 (crun OOM(), util-linux err_oom).  The
 * only place where lib/ exits or writes to stderr (the layering lint's one
 * named exception), the right trade for short-lived tools.  <prog> is
 * program_invocation_short_name: nothing below the CLI layer knows more. */
#ifndef KILO_XALLOC_H
#define KILO_XALLOC_H

#include <stddef.h>

/* malloc(size) (size 0 allocates 1 byte); never NULL.  Free with free(). */
void *xmalloc(size_t size);
/* calloc(n, size), zeroed; never NULL. */
void *xcalloc(size_t n, size_t size);
/* realloc(p, size); never NULL; p is invalid afterwards. */
void *xrealloc(void *p, size_t size);
/* strdup(s); never NULL. */
char *xstrdup(const char *s);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
