/* SPDX-License-Identifier: Apache-2.0 */
/* jsonio - kilo's JSON documents on pipes (SCHEMAS.md, DESIGN.md section 4).
 *
 * Input is a stream of whitespace-separated JSON objects (`{ a; b; } | c`).
 * The reader frames one document at a time, so a stream of a million small
 * documents never needs more memory than its largest document, and every
 * error carries "name:line:column".  Duplicate keys, NaN/Infinity text,
 * invalid UTF-8 and integers beyond int64 are refused (jansson).
 *
 * Typed getters give the one-line error style of every tool:
 *   "NodeUsage.capacity.cpuMilli: expected an integer 0..9223372036854775807, got -5"
 */
#ifndef KILO_JSONIO_H
#define KILO_JSONIO_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

#define KILO_API_VERSION "kilo/v1"

struct jsonio_reader;

/* A reader over f (not closed by the reader).  name is used in messages
 * ("stdin", a path).  Never returns NULL (aborts on out of memory). */
struct jsonio_reader *jsonio_reader_new(FILE *f, const char *name);

/* Free the reader (NULL is allowed). */
void jsonio_reader_free(struct jsonio_reader *r);

/* Read the next document.  Returns 1 and a new reference in *doc, 0 at the
 * end of the stream, or -1 with e set (ERR_INPUT, "name:line:column: text";
 * ERR_SYSTEM on a read error).  A top-level value that is not an object is
 * an error. */
int jsonio_read(struct jsonio_reader *r, json_t **doc, struct err *e);

/* What of a document to build: the keys of an object to keep, each with
 * its own filter for its value (NULL: all of it); an array's elements take
 * the filter of the array.  A list ends with a NULL key.  Example: only
 * {"kind", "metadata":{"name"}}:
 *   static const struct jsonio_filter meta[] = { { "name" }, { NULL } };
 *   static const struct jsonio_filter doc[] = { { "kind" }, { "metadata", meta }, { NULL } };
 * each (jsonio_parse_filtered_each() only; NULL elsewhere): when the
 * member's value is an array, every element is built, handed to each(elem,
 * index, arg) (borrowed: freed when it returns) and left out of the array,
 * which stays empty: one element in memory at a time, however long the
 * array (an element that is itself an array, where keep names an object's
 * keys, is checked and handed over as null, never built).  A non-zero return of each stops nothing (the document is still
 * checked to its end); record errors in arg.  A key "*" keeps the first
 * member the others do not name, its value null (never built): the caller
 * sees that one was there (a key "*" in the text is such a member). */
struct jsonio_filter {
	const char *key;
	const struct jsonio_filter *keep;
	int (*each)(const json_t *elem, size_t index, void *arg);
};

/* From now on, build only what keep names of the documents read (borrowed,
 * static).  The rest is still checked (syntax, UTF-8, int64 range, depth)
 * but never allocated, which makes reading large Kubernetes objects several
 * times faster; duplicate keys are found only among the keys kept.  Errors
 * are the same as without a filter. */
void jsonio_reader_filter(struct jsonio_reader *r, const struct jsonio_filter *keep);

/* Parse one JSON value from data (n bytes, no NUL needed) keeping what keep
 * names (jsonio_filter.c).  New reference, or NULL when the text is not
 * valid JSON (the caller decodes it with jansson for the message). */
json_t *jsonio_parse_filtered(const char *data, size_t n, const struct jsonio_filter *keep);

/* The same, calling the each hooks of keep with arg (see jsonio_filter). */
json_t *jsonio_parse_filtered_each(const char *data, size_t n, const struct jsonio_filter *keep,
				   void *arg);

/* The plain-JSON fast path of jsonio_read() and jsonio_parse(): one object
 * or array (surrounded by JSON whitespace) in data[0, n), as jansson with
 * JSON_REJECT_DUPLICATES decodes it.  Returns a new reference, or NULL when
 * the text is not in the subset it reads (non-ASCII or \u in strings,
 * nesting deeper than 64) or is invalid: jansson then decodes it or names
 * the error.  For tests and benchmarks. */
json_t *jsonio_decode_fast(const char *data, size_t n);

/* The 1-based line on which the last document read began. */
long jsonio_reader_line(const struct jsonio_reader *r);

/* Parse exactly one JSON object from a NUL-terminated string (a file's
 * content, an annotation value).  Returns a new reference, or NULL with e set
 * (ERR_INPUT, "name:line:column: text"). */
json_t *jsonio_parse(const char *text, const char *name, struct err *e);

/* Documents of a kilo stream, by kind.  want[] lists kinds ("NodeUsage",
 * "ContainerList", or foreign kinds like "PodList"); got[i] receives a new
 * reference to the last document whose kind equals want[i] (and, for kilo's
 * own kinds, whose apiVersion is kilo/v1), or NULL.  Other kinds are
 * ignored.  keep (NULL: everything) is a filter as for
 * jsonio_reader_filter(); it must keep "kind" and "apiVersion".  Returns
 * the number of documents read, or -1 with e set. */
long jsonio_collect(FILE *f, const char *name, const char *const *want, size_t nwant, json_t **got,
		    const struct jsonio_filter *keep, struct err *e);

/* ERR_INPUT "missing required document of kind '<kind>' on <name>" when doc
 * is NULL; 0 otherwise. */
int jsonio_require(const json_t *doc, const char *kind, const char *name, struct err *e);

/* A new document {"apiVersion":"kilo/v1","kind":kind}.  New reference. */
json_t *jsonio_new_doc(const char *kind);

/* {"node":node (omitted when NULL),"timestamp":RFC 3339 of now_ms}.  New reference. */
json_t *jsonio_metadata(const char *node, int64_t now_ms);

/* Write doc to f: compact on one line, or indented by 2 when pretty, then
 * a newline.  Key order is insertion order.  Returns 0, or -1 with e set
 * (ERR_SYSTEM) on a write error. */
int jsonio_write(FILE *f, const json_t *doc, int pretty, struct err *e);

/* A growing text buffer (zero it to start; jsonio_buf_release() frees it). */
struct jsonio_buf {
	char *p;
	size_t len, cap;
};

void jsonio_buf_release(struct jsonio_buf *b);

/* Append the n bytes at s to b, growing it (xalloc: no failure). */
void jsonio_buf_put(struct jsonio_buf *b, const char *s, size_t n);

/* Append to b the compact JSON object {keys[0]:values[0], ...} (n members,
 * a NULL value is null): the bytes json_dumps(JSON_COMPACT) gives for a
 * jansson object with those members, without building one, for records
 * written by the thousand (qos-cgset's report items).  Returns 0, or -1
 * with b as it was when a key or value is not ASCII: build that record
 * with jansson (jsonio_buf_put_json) instead. */
int jsonio_record(struct jsonio_buf *b, const char *const *keys, const char *const *values,
		  size_t n);

/* Append the compact text of v (no newline) to b.  Returns 0, or -1 when
 * jansson cannot encode it. */
int jsonio_buf_put_json(struct jsonio_buf *b, const json_t *v);

/* Write doc as jsonio_write() does with one more member, key (doc must not
 * hold it yet), an array of the n elements item(i, arg, b) appends to b as
 * compact JSON text (it returns 1; 0 leaves i out; -1 fails the write).  Compact output is
 * written an element at a time, so a report of thousands of items never
 * holds them all; pretty output parses them back into an array first.  doc
 * is left as it was.  Returns 0, or -1 with e set (ERR_SYSTEM) on a write
 * error. */
int jsonio_write_items(FILE *f, json_t *doc, const char *key, size_t n,
		       int (*item)(size_t i, void *arg, struct jsonio_buf *b), void *arg,
		       int pretty, struct err *e);

/* The compact form jsonio_write() prints for doc (an object or array), with
 * its newline, in a new buffer of *len bytes; NULL when doc holds a real,
 * non-ASCII text or nesting deeper than 64, which jansson writes instead.
 * Byte for byte what json_dumps(JSON_COMPACT) gives.  For tests. */
char *jsonio_dump_fast(const json_t *doc, size_t *len);

/* Typed getters.  ctx names the object for messages ("KillPlan.items[3]").
 * Each returns 1 when the key is present and valid (value stored), 0 when it
 * is absent or JSON null (out untouched), -1 with e set (ERR_INPUT,
 * "<ctx>.<key>: expected <what>, got <json>") on a wrong type or range. */
int jsonio_get_int(const json_t *obj, const char *ctx, const char *key, int64_t min, int64_t max,
		   int64_t *out, struct err *e);
int jsonio_get_real(const json_t *obj, const char *ctx, const char *key, double min, double max,
		    double *out, struct err *e);
int jsonio_get_bool(const json_t *obj, const char *ctx, const char *key, int *out, struct err *e);
/* *out is borrowed from obj. */
int jsonio_get_str(const json_t *obj, const char *ctx, const char *key, const char **out,
		   struct err *e);
/* *out is a new string (free() it), NULL when absent or null. */
int jsonio_get_strdup(const json_t *obj, const char *ctx, const char *key, char **out,
		      struct err *e);
/* *out is borrowed from obj; it is an object. */
int jsonio_get_obj(const json_t *obj, const char *ctx, const char *key, json_t **out,
		   struct err *e);
/* *out is borrowed from obj; it is an array. */
int jsonio_get_arr(const json_t *obj, const char *ctx, const char *key, json_t **out,
		   struct err *e);

/* Replace every registered secret (err_secret_add) in the string values of
 * the members named in keys (NULL-terminated), at any depth, with
 * "[redacted]".  Free-text members only (a reason, an error): an id or a
 * name that holds a secret's letters by chance must stay what it is. */
void jsonio_redact_keys(json_t *doc, const char *const *keys);

/* Set e to ERR_INPUT "<ctx>.<key>: expected <what>, got <compact json of v>"
 * (the value cut at 80 bytes).  Returns -1.  For checks the getters cannot
 * express. */
int jsonio_bad_value(struct err *e, const char *ctx, const char *key, const char *what,
		     const json_t *v);

/* s as a JSON string, JSON null for NULL.  A string that is not valid
 * UTF-8 (a cgroup file, a path: JSON cannot hold it) has its non-ASCII
 * bytes shown as '?' rather than being dropped.  New reference. */
json_t *jsonio_string(const char *s);

/* An int64 as JSON, or JSON null when known is 0.  New reference. */
json_t *jsonio_int_or_null(int known, int64_t v);

#endif
