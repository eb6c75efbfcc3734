/* SPDX-License-Identifier: Apache-2.0 */
/* syncrun - kilo-sync's I/O around the pure planner: gather the inputs from
 * the live APIs (Kubernetes pages reduced one by one; each YARN cluster's
 * RM node list) and perform a SyncPlan (RM resizes, Node annotations).
 */
#ifndef KILO_SYNCRUN_H
#define KILO_SYNCRUN_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "k8s.h"
#include "promtext.h"
#include "syncconfig.h"
#include "syncplan.h"

struct sync_stats {
	size_t nodes, pods, pages;      /* gathered */
	size_t clusters, clusters_down; /* configured YARN clusters, and those unreachable */
	size_t updated, annotated, unchanged, skipped, failed; /* applied actions */
	size_t errors[ERR_TEMP + 1];    /* failed actions by err_kind */
};

/* Fill in from the live APIs: every Node (or only those named), the pods
 * (cluster-wide, paginated, each page reduced and freed; a listing that
 * restarted after an expired continue token drops the partial sums and
 * counts again), and for each configured cluster the RM node list (a
 * cluster whose RMs all fail is marked unreachable, not an error).  Returns
 * 0, or -1 with e set when the Kubernetes side failed (then the pass must
 * write nothing: a short pod sum would offer YARN too much). */
int sync_gather(struct sync_input *in, struct sync_config *sc, struct k8s_client *kc,
		const char *const *only_nodes, struct sync_stats *st, struct err *e);

/* Perform plan: for each item, the RM resize (action update) through
 * lib/yarn, and the annotation (annotation.action annotate) as a merge-patch
 * of the Node with its resourceVersion; on 409 the Node is read again and
 * the patch re-made once.  kc may be NULL when no item annotates.  With
 * dry_run nothing is sent and results are "planned".  Returns the
 * SyncReport (new reference): the plan's items, each with "result"
 * (updated, annotated, unchanged, skipped, failed, planned) and "error",
 * and per annotation its own "result" and "error"; counts in *st.  Returns
 * NULL with e set only when plan is not a SyncPlan (ERR_INPUT). */
/* Check a whole SyncPlan before anything is applied: an object of kind
 * SyncPlan with an items array; every "update" item with cluster,
 * yarnNodeId and yarnTotal {vCores 0..2^31-1, memoryMB >= 0} (and
 * overCommitTimeoutMs >= -1 when present); every "annotate" annotation
 * with a node and the two batch quantities of o.  Returns 0, or -1 with e
 * set (ERR_INPUT "SyncPlan.items[3].yarnTotal.vCores: expected ..., got
 * -1"). */
int sync_plan_check(const json_t *plan, const struct sync_options *o, struct err *e);

json_t *sync_apply(const json_t *plan, struct sync_config *sc, struct k8s_client *kc, int dry_run,
		   struct sync_stats *st, struct err *e);

/* The Prometheus metrics of a pass: per node and cluster the reported YARN
 * total and YARN used (vcores, bytes), counts by action and result, errors
 * by kind, the pass duration.  report may be NULL (a failed pass). */
void sync_metrics(struct promtext *p, const json_t *report, const struct sync_stats *st,
		  double duration_s);

#endif
