/* SPDX-License-Identifier: Apache-2.0 */
/* syncreport - the SyncReport document (doc/SCHEMAS.md "SyncPlan",
 * "Lifecycle", "Reason codes"): what `kilo-sync apply` (or a whole pass)
 * did with each item of a SyncPlan, as typed values, its writer and its
 * strict reader.  run/syncrun.h's sync_apply() fills one through the
 * setters; the pass's summary (cli/syncsummary.h), sync_item_state() and
 * the metrics (run/syncrun.h) read it.
 *
 * An item is the plan's item (struct syncplan_item, its document copied
 * with what an earlier pass wrote removed) and the outcome of each of its
 * three parts: the item itself (its resize: "result", "errorCode",
 * "error"), its annotation part and its lifecycle part (the same three
 * members inside "annotation" and "lifecycle").  The setters write the
 * typed outcome and its members together, in the order they are called
 * (apply's key order); the descriptive members ride along as the plan
 * wrote them.
 */
#ifndef KILO_DOC_SYNCREPORT_H
#define KILO_DOC_SYNCREPORT_H

#include <jansson.h>
#include <stddef.h>

#include "core/err.h"
#include "doc/syncconfig.h"
#include "doc/syncplan.h"

/* A part's "result": none yet (an item of a plan, a part apply never
 * reached), then SCHEMAS.md's: updated (the RM listed the new total),
 * annotated, recorded (the lifecycle record), unchanged, skipped, planned
 * (--dry-run, or `plan`), failed (with errorCode and error). */
enum syncreport_result {
	SYNCREPORT_NOT_RUN = 0,
	SYNCREPORT_UPDATED,
	SYNCREPORT_ANNOTATED,
	SYNCREPORT_RECORDED,
	SYNCREPORT_UNCHANGED,
	SYNCREPORT_SKIPPED,
	SYNCREPORT_PLANNED,
	SYNCREPORT_FAILED
};

/* The parts of an item: the item itself (its resize), its "annotation",
 * its "lifecycle". */
enum syncreport_part { SYNCREPORT_ITEM = 0, SYNCREPORT_ANNOTATION, SYNCREPORT_LIFECYCLE };
#define SYNCREPORT_PARTS 3

struct syncreport_outcome {
	enum syncreport_result result;
	enum sync_reason error_code; /* failed: its errorCode (SYNC_R_NONE: none) */
	const char *error;           /* failed: its error (in the item's doc), else NULL */
};

struct syncreport_item {
	/* the typed plan item; plan.doc is this report item (own reference),
	 * plan.invalid always NULL (a refused item is a failed one here) */
	struct syncplan_item plan;
	struct syncreport_outcome part[SYNCREPORT_PARTS]; /* by enum syncreport_part */
	int recorded; /* the lifecycle part's "recorded": its record written, its
		       * decommission then failed */
};

struct syncreport {
	int dry_run;                 /* "dryRun" */
	json_t *metadata;            /* the plan's (own reference), NULL: none */
	json_t *clusters;            /* the plan's clusters array (own reference), NULL: none */
	struct syncplan_cluster *cl; /* its entries, typed */
	size_t ncl;
	struct syncreport_item *items;
	size_t n, cap;
};

/* The name of a result ("updated"), NULL for SYNCREPORT_NOT_RUN. */
const char *syncreport_result_name(enum syncreport_result r);

/* ---- building (apply) ---- */

/* An empty report of plan p (its metadata and clusters shared), room for
 * its items. */
void syncreport_init(struct syncreport *r, const struct syncplan *p, int dry_run);

/* Append a copy of plan item src, without the members a pass writes
 * (result, error, errorCode, via, recorded, decommissionResult, in the item
 * and in its parts: a report fed back as a plan says nothing of this pass),
 * nothing run.  Returns it (valid until the next append). */
struct syncreport_item *syncreport_add(struct syncreport *r, const struct syncplan_item *src);

/* The report view of plan p (`kilo-sync plan`: what its summary and
 * metrics read): its items, documents shared, nothing run. */
void syncreport_of_plan(struct syncreport *r, const struct syncplan *p);

/* The part's "result" (a part the item does not have: nothing). */
void syncreport_set_result(struct syncreport_item *it, enum syncreport_part part,
			   enum syncreport_result res);

/* The part failed: "result":"failed", "error" (error, not valid UTF-8 shown
 * with '?'), "errorCode" (none for SYNC_R_NONE). */
void syncreport_set_failed(struct syncreport_item *it, enum syncreport_part part, const char *error,
			   enum sync_reason code);

/* Another member of the part (value stolen; NULL deletes key): "via"
 * (rest, rmadmin), the lifecycle's "decommissionResult", "excluded" (the
 * item's typed members follow: syncplan_item_bind()). */
void syncreport_set_member(struct syncreport_item *it, enum syncreport_part part, const char *key,
			   json_t *value);

/* The lifecycle part's "recorded": true (recorded), or removed (!recorded). */
void syncreport_set_recorded(struct syncreport_item *it, int recorded);

/* After the last write: "error":null on every part that did not fail. */
void syncreport_finish(struct syncreport *r);

/* Point the items' strings into their documents again, after those were
 * rewritten in place (run/syncrun.h sync_redact() on the document
 * syncreport_to_json() gave, which shares them). */
void syncreport_bind(struct syncreport *r);

/* ---- reading and writing ---- */

/* Read item v leniently, with no check (a name that is not one reads as
 * none): what a report item of another pass says, for one that could not
 * be checked (the plan part of an invalid-plan-item failure) and for
 * tests.  it->plan.doc a new reference to v (an empty object when v is
 * not one). */
void syncreport_item_view(const json_t *v, struct syncreport_item *it);

/* Read a SyncReport: kind SyncReport, dryRun a boolean, an items array;
 * each item's plan part by SyncPlan's rules (syncplan_item_from_json(),
 * sc's clusters and batch names; the lifecycle part's shape is not
 * checked), unless the item failed with invalid-plan-item (then read as
 * syncreport_item_view() does); each part present (the item, an
 * "annotation", a "lifecycle" object) has a result (the annotation and
 * lifecycle of an invalid-plan-item failure may have none), an errorCode
 * (when present) of the closed list, and an error that is a string exactly
 * when it failed.  The first refusal is one ERR_INPUT line naming
 * SyncReport.items[i], the field and the value; returns 0, or -1 with out
 * released. */
int syncreport_from_json(const json_t *doc, const struct sync_config *sc, struct syncreport *out,
			 struct err *e);

/* The SyncReport document (new reference; it shares the items' documents):
 * apiVersion, kind, dryRun, metadata, clusters (each when held), items, the
 * bytes kilo-sync apply writes. */
json_t *syncreport_to_json(const struct syncreport *r);

/* Free what r holds and zero it (safe on a zeroed struct). */
void syncreport_release(struct syncreport *r);

#endif
