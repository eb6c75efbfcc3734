/* SPDX-License-Identifier: Apache-2.0 */
/* cgroupchanges - the CgroupChanges document (SCHEMAS.md "CgroupChanges"):
 * every cgroup write of a qos-cgset pass and how it went.
 *
 *   {"apiVersion","kind","dryRun","metadata","summary":{"written",
 *    "unchanged","unsupported","failed","skipped","planned","deferred"},
 *    "cache":null|{"file","items","hits","saved"},
 *    "items":[{"path","controller","file","old","new","result","reason",
 *              "error"[,"foreign"]}]}
 *
 * qos-cgset streams its items (thousands on a big node) with the fast
 * writer: cgroupchanges_head_json() is the document without "items", and
 * cgroupchanges_item_text() writes each item (run/cgchange.h gives an
 * item of its plan as a struct cgroupchanges_item).  Pure.
 */
#ifndef KILO_CGROUPCHANGES_H
#define KILO_CGROUPCHANGES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/err.h"
#include "core/jsonio.h"

/* items[].result, and the members of summary in this order. */
enum cgroupchanges_result {
	CGROUPCHANGES_WRITTEN,     /* the value differed and was written */
	CGROUPCHANGES_UNCHANGED,   /* the file already held it */
	CGROUPCHANGES_UNSUPPORTED, /* the kernel lacks the file */
	CGROUPCHANGES_FAILED,      /* error says why */
	CGROUPCHANGES_SKIPPED,     /* an earlier step of the chain failed, or reason says why */
	CGROUPCHANGES_PLANNED,     /* dry run: would be written */
	CGROUPCHANGES_DEFERRED,    /* decided not to write yet (reason says why) */
	CGROUPCHANGES_NRESULTS
};

/* One write.  Strings and foreign are borrowed: from the plan the item
 * shows, or from the document cgroupchanges_from_json() read (held by the
 * struct cgroupchanges). */
struct cgroupchanges_item {
	const char *path;       /* the cgroup, "/kubepods/besteffort/hadoop-yarn" */
	const char *controller; /* "cpu", "cpuset", "memory", ... */
	const char *file;       /* "cpu.shares"; NULL for a mkdir or rmdir */
	const char *old, *new;  /* the value found and the value wanted, or NULL */
	enum cgroupchanges_result result;
	const char *reason, *error; /* or NULL */
	const pid_t *foreign;       /* a mirror's cgroup.procs: ids of the container's cpu dirs that
			       * are no members, never moved; "foreign" only when nforeign */
	size_t nforeign;
};

/* cache: what qos-cgset's --state answered for. */
struct cgroupchanges_cache {
	char *file;    /* the state file, owned */
	int64_t items; /* items decided from it */
	int64_t hits;  /* files it answered for */
	int saved;     /* written back */
};

struct cgroupchanges {
	int dry_run;
	char *node;                              /* metadata.node, or NULL (owned) */
	int64_t timestamp_ms;                    /* metadata.timestamp, ms since the epoch */
	int64_t summary[CGROUPCHANGES_NRESULTS]; /* items of each result, all of them (also
						  * those --changes-only leaves out) */
	int has_cache;                           /* 0: "cache":null (no --state) */
	struct cgroupchanges_cache cache;
	struct cgroupchanges_item *items; /* read by cgroupchanges_from_json, owned */
	size_t nitems;
	json_t *doc; /* the document the items borrow from (from_json), or NULL */
};

/* "written", "unchanged", ... */
const char *cgroupchanges_result_name(enum cgroupchanges_result r);

/* summary[]'s counts as the "summary" object.  New reference. */
json_t *cgroupchanges_summary_json(const int64_t summary[CGROUPCHANGES_NRESULTS]);

/* The document of c without "items" (to stream them after, with
 * jsonio_write_items and cgroupchanges_item_text).  New reference. */
json_t *cgroupchanges_head_json(const struct cgroupchanges *c);

/* The whole document: the head and c->items.  New reference. */
json_t *cgroupchanges_to_json(const struct cgroupchanges *c);

/* One item as JSON.  New reference. */
json_t *cgroupchanges_item_json(const struct cgroupchanges_item *it);

/* The same item appended to b as compact JSON text, the bytes of
 * json_dumps(JSON_COMPACT), without jansson when its strings are ASCII
 * (jsonio_record).  Returns 0, or -1 when it cannot be encoded. */
int cgroupchanges_item_text(const struct cgroupchanges_item *it, struct jsonio_buf *b);

/* Read a CgroupChanges document, every member above, strictly.  Returns 0,
 * or -1 with e set (ERR_INPUT, "CgroupChanges.items[3].result: expected one
 * of written, ..., got ...") and *out empty. */
int cgroupchanges_from_json(const json_t *doc, struct cgroupchanges *out, struct err *e);

/* Free what c owns and zero it. */
void cgroupchanges_release(struct cgroupchanges *c);

#endif
