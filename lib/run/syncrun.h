/* SPDX-License-Identifier: Apache-2.0 */
/* syncrun - kilo-sync's I/O around the pure planner: gather the inputs from
 * the live APIs (Kubernetes pages reduced one by one; each YARN cluster's
 * RM node list) and perform a SyncPlan (RM resizes, Node annotations).
 */
#ifndef KILO_SYNCRUN_H
#define KILO_SYNCRUN_H

#include <jansson.h>
#include <stddef.h>

#include "core/err.h"
#include "core/promtext.h"
#include "decide/syncplanner.h"
#include "doc/syncconfig.h"
#include "doc/syncplan.h"
#include "doc/syncreport.h"
#include "remote/k8s.h"
#include "remote/yarn.h"

struct sync_stats {
	size_t nodes, pods, pages;      /* gathered */
	size_t restarts;                /* listings restarted after an expired continue token */
	size_t clusters, clusters_down; /* configured YARN clusters, and those unreachable */
	size_t updated, annotated, unchanged, skipped, failed; /* applied actions */
	size_t skipped_bad; /* of skipped: for bad or conflicting data ("severity":"error") */
	size_t conflicts;   /* annotation writes that met a 409 and were re-made */
	size_t recorded;    /* lifecycle records (and labels) written */
	size_t errors[ERR_TEMP + 1]; /* failed actions (or the failed gathering) by err_kind */
};

/* The RM clients of the configured clusters, in the configuration's order:
 * each remembers its active RM from one call to the next (gather, then
 * apply, in one pass). */
struct sync_rms {
	struct yarn_cluster *c;
	struct err *down;            /* per cluster: why its RM list was not read this pass */
	enum sync_reason *down_code; /* per cluster: its reasonCode (SYNC_R_NONE: read) */
	size_t n;
};

/* Make one RM client per cluster of sc (which must outlive *r), with
 * trace (may be NULL) on each, and register the userinfo of every RM URL
 * (and its password, as written and %-decoded) as secrets (err_secret_add).  Release with sync_rms_release(). */
void sync_rms_init(struct sync_rms *r, const struct sync_config *sc, http_trace_fn *trace);

/* Free what *r holds and zero it (safe on a zeroed struct). */
void sync_rms_release(struct sync_rms *r);

/* Fill in from the live APIs: every Node (or only those named), the pods
 * (cluster-wide, paginated, each page reduced and freed; a listing that
 * restarted after an expired continue token drops the partial sums and
 * counts again from a fresh snapshot), and for each configured cluster the
 * RM node list (a cluster whose RMs all fail is marked unreachable, not an
 * error).  Returns
 * 0, or -1 with e set when the Kubernetes side failed (then the pass must
 * write nothing: a short pod sum would offer YARN too much); ERR_TEMP when
 * trying again may succeed (429, 5xx, connection, a snapshot that expired
 * K8S_LIST_RESTARTS times), ERR_REMOTE for 401/403, ERR_INPUT for an
 * object whose quantities cannot be read. */
int sync_gather(struct sync_input *in, const struct sync_config *sc, struct sync_rms *rms,
		struct k8s_client *kc, const char *const *only_nodes, struct sync_stats *st,
		struct err *e);

/* Remove every registered secret (err_secret_add: the bearer token, the RM
 * URLs' userinfo and passwords, which sync_rms_init() and the Kubernetes
 * client register) from the free text of a SyncPlan or SyncReport (reasons,
 * errors).  A server can echo them into anything it answers. */
void sync_redact(json_t *doc);

/* Read a SyncPlan document (`kilo-sync apply --from FILE`) into *out, once,
 * before any connection or write: syncplan_from_json() (doc/syncplan.h)
 * with the lifecycle part checked by sync_lifecycle_check()
 * (run/synclife.h).  Returns 0, or -1 with e set (ERR_INPUT naming the
 * item, the field and the value).  per_item as syncplan_from_json() says. */
int sync_plan_read(const json_t *doc, const struct sync_config *sc, int per_item,
		   struct syncplan *out, struct err *e);

/* Perform plan (the planner's own in a live pass, or one sync_plan_read()
 * took): for each item, the RM resize (action update) through
 * lib/remote/yarn, and the annotation (annotation.action annotate) as a
 * merge-patch of the Node with its resourceVersion; on 409 the Node is read
 * again and the patch re-made once.  After the writes, each accepted resize
 * is read back from its RM (every 250 ms, up to the cluster's
 * confirmTimeoutMs): "updated" only once the RM lists the new total, else
 * "failed" naming what it lists.  kc may be NULL when no item annotates.
 * With dry_run nothing is sent and results are "planned".  Fills *report
 * (release with syncreport_release(); it shares nothing with plan): the
 * plan's items, each with its result (updated, annotated, unchanged,
 * skipped, failed, planned) and error, and per annotation and lifecycle
 * part their own; counts in *st.  An item
 * read with its refusal (syncplan_item.invalid) is reported "failed" with
 * that error (invalid-plan-item) and nothing is sent for it
 * (threat-model.md: one bad item costs that item only). */
void sync_apply(const struct syncplan *plan, const struct sync_config *sc, struct sync_rms *rms,
		struct k8s_client *kc, int dry_run, struct syncreport *report,
		struct sync_stats *st);

/* What became of a SyncReport item's node (or, for a SyncPlan item seen
 * through syncreport_of_plan(), what would), for its log line and
 * kilo_sync_node_state (pointers borrowed from the item; code NULL when the
 * item has none, e.g. a hand-made plan):
 *   failed     its resize or its annotation failed: code the errorCode and
 *              why the error of the part that failed (part "annotation"
 *              when only the annotation did, else NULL)
 *   skipped    the item, or its annotation part, is a skip: their reasonCode
 *              and reason
 *   updated    its RM total or its annotation was written (and confirmed);
 *              also a node without a NodeManager pod whose share was
 *              written (zeroed): its reasonCode (no-nodemanager...)
 *   planned    a write is planned but not performed (plan, --dry-run)
 *   unchanged  nothing to write: the item's reasonCode and reason */
struct sync_node_state {
	const char *state, *code, *why, *part;
};
void sync_item_state(const struct syncreport_item *item, struct sync_node_state *out);

/* The Prometheus metrics of a pass: per node and cluster the planned YARN
 * total (nodes not skipped) and YARN used (vcores, bytes); per node
 * kilo_sync_node_state{node,cluster,state,reason} 1 (sync_item_state();
 * cluster "" for a node without a NodeManager pod); per cluster whose RMs
 * this pass asked (rms, may be NULL) kilo_sync_cluster_reachable{cluster}
 * 1 or 0; counts by result, errors by kind, 409 conflicts, listing
 * restarts, unreachable clusters, nodes, the pass duration and success.
 * report is the SyncReport (or the syncreport_of_plan() of `plan`), NULL
 * for a failed pass. */
void sync_metrics(struct promtext *p, const struct syncreport *report, const struct sync_rms *rms,
		  const struct sync_stats *st, double duration_s);

#endif
