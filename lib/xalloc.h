/* SPDX-License-Identifier: Apache-2.0 */
/* xalloc - allocation that cannot fail: on out of memory the tool prints
 * "<prog>: out of memory" and exits 1 (crun OOM(), util-linux err_oom).  The
 * only place where lib/ exits, the right trade for short-lived tools. */
#ifndef KILO_XALLOC_H
#define KILO_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
