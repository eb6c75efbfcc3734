/* SPDX-License-Identifier: Apache-2.0 */
/* docmeta - what kilo's own documents share, for their modules: the
 * "metadata" member every one carries ({"node":..., "timestamp":...},
 * SCHEMAS.md; core/jsonio's jsonio_metadata() writes it), lists of process
 * or thread ids, lists of messages and closed sets of names.  Pure.
 */
#ifndef KILO_DOCMETA_H
#define KILO_DOCMETA_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"

/* Read doc's metadata: *node a new copy of metadata.node (NULL when absent
 * or null), *timestamp_ms metadata.timestamp (RFC 3339, ms since the
 * epoch; -1 when absent).  kind names the document in messages.  Returns
 * 0, or -1 with e set (ERR_INPUT, "<kind>.metadata.timestamp: expected an
 * RFC 3339 time, got ...") and *node NULL. */
int docmeta_from_json(const json_t *doc, const char *kind, char **node, int64_t *timestamp_ms,
		      struct err *e);

/* The largest figure (a count, bytes, ms since the epoch) kilo's documents
 * hold: what a JSON number holds exactly, 2^53. */
#define DOCMETA_FIGURE_MAX (INT64_C(1) << 53)

/* Read the figure obj.key, 0..DOCMETA_FIGURE_MAX, into *out: -1 when
 * absent or null, which is an error when required ("<ctx>.<key>: expected
 * an integer 0..9007199254740992, got nothing").  Returns 0, or -1 with e
 * set. */
int docmeta_get_figure(const json_t *obj, const char *ctx, const char *key, int required,
		       int64_t *out, struct err *e);

/* Read the array obj.key (absent or null: none) of process or thread ids
 * (1..INT32_MAX) into a new *ids (NULL when none) of *n.  Returns 0, or -1
 * with e set ("<ctx>.<key>[2]: expected a process id, got 0") and *ids
 * NULL. */
int docmeta_ids_from_json(const json_t *obj, const char *ctx, const char *key, int64_t **ids,
			  size_t *n, struct err *e);

/* ids[0..n) as a JSON array.  New reference. */
json_t *docmeta_ids_json(const int64_t *ids, size_t n);

/* Read the array obj.key (absent or null: none) of strings into a new
 * *strs of *n copies.  Returns 0, or -1 with e set ("<ctx>.<key>[0]:
 * expected a string, got 5") and *strs NULL. */
int docmeta_strings_from_json(const json_t *obj, const char *ctx, const char *key, char ***strs,
			      size_t *n, struct err *e);

/* Free strs[0..n) and strs. */
void docmeta_strings_free(char **strs, size_t n);

/* Read obj.key, a string, as one of names[0..n) into *index.  Absent or
 * null leaves *index untouched and returns 0 when !required.  Returns 0,
 * or -1 with e set ("<ctx>.<key>: expected one of a, b, got ..."). */
int docmeta_get_name(const json_t *obj, const char *ctx, const char *key, const char *const *names,
		     int n, int required, int *index, struct err *e);

/* Read the array obj.key (absent or null: none) into a new *items of
 * elements of size bytes each (zeroed), each by read(v, "<ctx>.<key>[i]",
 * element, e).  *n counts the elements begun, the one that failed too (its
 * release must accept what it left).  Returns 0, or -1 with e set (the
 * array's or the element's message). */
int docmeta_items_from_json(
	const json_t *obj, const char *ctx, const char *key, size_t size, void **items, size_t *n,
	int (*read)(const json_t *v, const char *ctx, void *item, struct err *e), struct err *e);

/* The rule of a report item's "error": a string exactly when the item
 * failed.  what names the item ("item", "group").  Returns 0, or -1 with e
 * set ("<ctx>.error: expected a string (the item failed), got null"). */
int docmeta_check_error(const json_t *obj, const char *ctx, const char *what, int failed,
			const char *error, struct err *e);

/* An item v that names a container: an object whose "id" is a valid YARN
 * container id (doc/containerid.h), borrowed into *id.  Returns 0, or -1
 * with e set ("<ctx>.id: expected a YARN container id, got ..."). */
int docmeta_get_container_id(const json_t *v, const char *ctx, const char **id, struct err *e);

#endif
