/* SPDX-License-Identifier: Apache-2.0 */
/* promtext - Prometheus text exposition format 0.0.4 and the node_exporter
 * textfile collector (k8s-conventions.md section 6).
 *
 * A struct promtext collects metric families in memory: promtext_family()
 * starts a family (HELP and TYPE first), promtext_sample() adds its samples,
 * which therefore stay contiguous as the format requires.  HELP text and
 * label values are escaped; integers print exactly, other values with
 * the shortest precision that round-trips; no client-side timestamps (the textfile collector
 * refuses them).  promtext_write_textfile() publishes the text atomically.
 */
#ifndef KILO_PROMTEXT_H
#define KILO_PROMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

struct promtext;

/* A new, empty collection.  Never NULL (aborts on out of memory). */
struct promtext *promtext_new(void);

/* Free p (NULL is allowed). */
void promtext_free(struct promtext *p);

/* Start the family name ([a-zA-Z_][a-zA-Z0-9_]*, not checked) of type
 * ("gauge", "counter", "untyped") with a HELP line. */
void promtext_family(struct promtext *p, const char *name, const char *type, const char *help);

/* One sample of the current family: name (the family's, or with a suffix),
 * labels as a NULL-terminated list of name, value pairs (NULL: none), value.
 * _i64 prints an integer exactly, _f64 a double (NaN and infinities as
 * "NaN", "+Inf", "-Inf"). */
void promtext_sample_i64(struct promtext *p, const char *name, const char *const *labels,
			 int64_t value);
void promtext_sample_f64(struct promtext *p, const char *name, const char *const *labels,
			 double value);

/* The text so far (borrowed, NUL-terminated, ends in '\n' unless empty). */
const char *promtext_text(const struct promtext *p);

/* Write the text to f.  Returns 0, or -1 with e set (ERR_SYSTEM). */
int promtext_write(const struct promtext *p, FILE *f, struct err *e);

/* Publish the text as dir/name, mode 0644, with atomicfile_write(): the
 * temporary file (".<name>.<pid>.tmp") does not end in ".prom", so the
 * textfile collector never reads it.  Returns 0, or -1 with e set
 * (ERR_SYSTEM naming the path; errnum ENOSPC, EACCES...). */
int promtext_write_textfile(const struct promtext *p, const char *dir, const char *name,
			    struct err *e);

#endif
