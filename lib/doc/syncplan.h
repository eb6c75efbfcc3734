/* SPDX-License-Identifier: Apache-2.0 */
/* syncplan - the SyncPlan document (doc/SCHEMAS.md "SyncPlan", "Reason
 * codes"): kilo-sync's plan as typed values, its strict reader and its
 * writer.  The planner (decide/syncplanner.h) builds one item by item with
 * the syncplan_item_* setters; `kilo-sync sync` hands it to apply as it is
 * (run/syncrun.h), `kilo-sync plan` writes it (syncplan_to_json) and
 * `kilo-sync apply --from FILE` reads it once (syncplan_from_json).
 *
 * An item holds, typed, what apply and the pass's summary act on (node,
 * cluster, yarnNodeId, action, reasonCode, severity, yarnTotal,
 * overCommitTimeoutMs, the annotation part with its hadoop-yarn figures
 * as integers, the lifecycle part), and its document as written: the
 * descriptive members (origin, requested, reserved, rmState, rmTotal,
 * rmUsed, yarnTarget, reclaim, candidates, ignoredPod, reason) ride along
 * to the SyncReport unread.  The setters write the typed value and its
 * member together, in the order they are called (the planner's key order).
 */
#ifndef KILO_DOC_SYNCPLAN_H
#define KILO_DOC_SYNCPLAN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/rmnode.h"
#include "doc/syncconfig.h"

/* The reasonCode of a SyncPlan or SyncReport item (and of a skipped
 * annotation part, and the errorCode of a failed one): a closed list, one
 * per cause the code can produce, documented in doc/SCHEMAS.md "Reason
 * codes" (test_syncplan holds the two equal).  The log line and the
 * metric label (kilo_sync_node_state) come from it; the human `reason`
 * beside it says the particulars.
 *
 * Plan (why the action is what it is): */
#define SYNC_PLAN_REASONS(X)                                                                       \
	X(NO_NODEMANAGER, "no-nodemanager")                   /* no NodeManager pod on the node */ \
	X(NODEMANAGER_TERMINATING, "nodemanager-terminating") /* only a terminating one */         \
	X(NODEMANAGER_OUTSIDE_NAMESPACES, "nodemanager-outside-namespaces") /* label, not ns */    \
	X(SHARE_NOT_ZEROED, "share-not-zeroed")     /* no NodeManager pod, YARN may still run */   \
	X(NODE_NOT_FOUND, "node-not-found")         /* the NodeManager pod's Node is not listed */ \
	X(INVALID_ANNOTATION, "invalid-annotation") /* originExtendedAllocatable unreadable */     \
	X(INVALID_ALLOCATION, "invalid-allocation") /* thirdPartyAllocations unreadable */         \
	X(INVALID_POD, "invalid-pod")               /* a pod's quantities cannot be read */        \
	X(INVALID_LIFECYCLE_RECORD, "invalid-lifecycle-record") /* kilo.sh/yarn-lifecycle bad */   \
	X(MULTIPLE_NODEMANAGERS, "multiple-nodemanagers")       /* two NodeManager pods */         \
	X(INVALID_NODE_ID, "invalid-node-id")                   /* no valid node-id annotation */  \
	X(NODE_ID_MISMATCH, "node-id-mismatch")             /* the id's host is not this node */   \
	X(NODE_ID_CONFLICT, "node-id-conflict")             /* one id claimed on several nodes */  \
	X(OVERFLOW, "overflow")                             /* the figures overflow */             \
	X(CLUSTER_NOT_CONFIGURED, "cluster-not-configured") /* not in clusters / not given */      \
	X(RM_NODES_NOT_GIVEN, "rm-nodes-not-given") /* plan --from: its RM list is missing */      \
	X(RM_UNREACHABLE, "rm-unreachable")         /* no RM of the cluster answered */            \
	X(RM_REFUSED, "rm-refused")                 /* the RM refused the list (401, 403) */       \
	X(RM_ERROR, "rm-error")                     /* an RM answered 5xx or 429 */                \
	X(RM_ANSWER_INVALID, "rm-answer-invalid")   /* the RM's list cannot be read */             \
	X(UNKNOWN_NODE_ID, "unknown-node-id")       /* the RM does not know the node id */         \
	X(RM_NODE_INVALID, "rm-node-invalid")   /* its RM entry unreadable, twice, impossible */   \
	X(RM_NODE_INACTIVE, "rm-node-inactive") /* LOST, DECOMMISSIONED, SHUTDOWN... */            \
	X(NODE_ID_MOVED, "node-id-moved")       /* its id gone, a live id on its host */           \
	X(RM_NODE_DECOMMISSIONING, "rm-node-decommissioning") /* draining: not resized */          \
	X(RM_NODE_STATE_UNKNOWN, "rm-node-state-unknown")     /* not one of YARN's NodeStates */   \
	X(TOTAL_DIFFERS, "total-differs")                     /* update: the RM's total differs */ \
	X(TOTAL_MATCHES, "total-matches") /* none: the RM's total is the plan's */                 \
	X(TOTAL_DAMPED, "total-damped")   /* update: a rise ramped by damping.maxIncrease */       \
	X(TOTAL_WITHIN_DEADBAND, "total-within-deadband") /* none: a rise within deadband */       \
	X(LIFECYCLE_HOLD, "lifecycle-hold") /* update/none: draining or offline, held at 0/0 */
/* Report (why an action failed; errorCode): */
#define SYNC_APPLY_REASONS(X)                                                                      \
	X(INVALID_PLAN_ITEM, "invalid-plan-item")   /* the item breaks SyncPlan's rules */         \
	X(RESIZE_UNSUPPORTED, "resize-unsupported") /* no resize endpoint, no rmadmin */           \
	X(RESIZE_REFUSED, "resize-refused")         /* the RM answered the resize with an error */ \
	X(RMADMIN_FAILED, "rmadmin-failed")         /* the rmadmin fallback failed */              \
	X(RESIZE_NOT_CONFIRMED, "resize-not-confirmed")     /* accepted, never listed */           \
	X(ANNOTATION_CONFLICT, "annotation-conflict")       /* 409 again after a re-read */        \
	X(ANNOTATION_REFUSED, "annotation-refused")         /* the API server refused the patch */ \
	X(KUBERNETES_UNREACHABLE, "kubernetes-unreachable") /* 5xx, 429, timeout, connection */    \
	X(EXCLUDE_LIST_FAILED, "exclude-list-failed")       /* the exclude list not written */     \
	X(DECOMMISSION_FAILED, "decommission-failed")       /* rmadmin -refreshNodes failed */     \
	X(DECOMMISSION_NOT_CONFIRMED, "decommission-not-confirmed") /* not DECOMMISSIONING */

enum sync_reason {
	SYNC_R_NONE = 0,
#define SYNC_R_ENUM(name, code) SYNC_R_##name,
	SYNC_PLAN_REASONS(SYNC_R_ENUM) SYNC_APPLY_REASONS(SYNC_R_ENUM)
#undef SYNC_R_ENUM
		SYNC_R_COUNT
};

/* The code of r ("unknown-node-id"), NULL for SYNC_R_NONE or out of range. */
const char *sync_reason_code(enum sync_reason r);

/* The reason whose code is s, SYNC_R_NONE when s is NULL or not a code. */
enum sync_reason sync_reason_parse(const char *s);

/* 1 when r is a reasonCode a plan gives with action (update: total-differs
 * or total-damped; none: total-matches or total-within-deadband; skip: one
 * of the skip codes, rm-node-state-unknown included; lifecycle-hold with
 * update or none), or for an annotation
 * part (annotation != 0: invalid-allocation only), else 0. */
int sync_reason_fits(const char *action, enum sync_reason r, int annotation);

/* An item's action (its "action"): update (resize the RM's total), none,
 * skip (with a reasonCode and reason saying why). */
enum syncplan_action { SYNCPLAN_NONE = 0, SYNCPLAN_UPDATE, SYNCPLAN_SKIP };

/* The annotation part's action: absent (no "annotation" member), none,
 * annotate (write the hadoop-yarn entry), skip (with its reasonCode). */
enum syncplan_ann {
	SYNCPLAN_ANN_ABSENT = 0,
	SYNCPLAN_ANN_NONE,
	SYNCPLAN_ANN_ANNOTATE,
	SYNCPLAN_ANN_SKIP
};

/* One SyncPlan item.  Strings point into doc (owned by the item). */
struct syncplan_item {
	const char *node;         /* never NULL */
	const char *cluster;      /* NULL: null or absent */
	const char *yarn_node_id; /* NULL: null or absent */
	enum syncplan_action action;
	enum sync_reason reason_code; /* SYNC_R_NONE: none given (a hand-made plan) */
	const char *reason;           /* the human text, NULL: none */
	int bad;                      /* "severity":"error": the pass exits 3 */
	/* update: the total sent and the RM's overCommitTimeoutMs (-1: never
	 * preempt); else as given, -1 when absent */
	struct yarn_resource yarn_total;
	int64_t over_commit_timeout_ms;
	enum syncplan_ann ann;
	/* skip: the annotation part's reasonCode (SYNC_R_NONE: none) and reason */
	enum sync_reason ann_reason_code;
	const char *ann_reason;
	/* annotate: the hadoop-yarn figures in milli-CPU and bytes (>= 0); -1
	 * for another annotation action */
	int64_t ann_cpu_milli, ann_memory_bytes;
	json_t *lifecycle; /* the lifecycle part (borrowed from doc), NULL: none */
	/* of the lifecycle part, borrowed (NULL: none): state, previous (the
	 * state before this pass, when it changed), reason; and whether it
	 * has excluded (a host kilo put on an exclude list) */
	const char *lc_state, *lc_previous, *lc_reason;
	int lc_excluded;
	/* descriptive members the pass's summary and metrics show, borrowed
	 * from doc (NULL: none): rmState, ignoredPod, candidates (an array of
	 * node ids) */
	const char *rm_state, *ignored_pod;
	const json_t *candidates;
	json_t *doc;         /* the item as written (own reference) */
	struct err *invalid; /* syncplan_from_json() per item: why the item was
			      * refused (owned), NULL: it was not */
};

/* A clusters entry (SCHEMAS.md): the cluster's id, its active NodeManagers
 * (rmNodes), of them those no pod claims (unclaimed, -1: not given) and the
 * first of those (strings borrowed from the array; NULL: none). */
struct syncplan_cluster {
	const char *cluster, *first_unclaimed;
	int64_t rm_nodes, unclaimed;
};

struct syncplan {
	json_t *metadata; /* as given (own reference), NULL: none */
	json_t *clusters; /* the clusters array (own reference), NULL: none */
	struct syncplan_item *items;
	size_t n, cap;
};

/* ---- building (the planner) ---- */

/* A new empty plan with metadata (stolen; may be NULL) and clusters (stolen;
 * an array, may be NULL). */
void syncplan_init(struct syncplan *p, json_t *metadata, json_t *clusters);

/* Append an item for node, its members "node", "cluster" (null when NULL)
 * and "yarnNodeId" (null when NULL) written; action none, figures -1.
 * Returns it (valid until the next append). */
struct syncplan_item *syncplan_add(struct syncplan *p, const char *node, const char *cluster,
				   const char *yarn_node_id);

/* Write a descriptive member (value stolen): origin, requested, reserved,
 * rmState, rmTotal, rmUsed, yarnTarget, reclaim, candidates, ignoredPod. */
void syncplan_item_set(struct syncplan_item *it, const char *key, json_t *value);

/* "action"; "reason" (the human text, "(no memory)" when NULL) with
 * "reasonCode"; "severity":"error"; "yarnTotal" {vCores, memoryMB};
 * "overCommitTimeoutMs". */
void syncplan_item_set_action(struct syncplan_item *it, enum syncplan_action a);
void syncplan_item_set_reason(struct syncplan_item *it, const char *reason, enum sync_reason code);
void syncplan_item_set_bad(struct syncplan_item *it);
void syncplan_item_set_total(struct syncplan_item *it, struct yarn_resource total);
void syncplan_item_set_over_commit(struct syncplan_item *it, int64_t ms);

/* The annotation part: {"action":"annotate"|"none","hadoopYarn":{cpu, mem}}
 * (figures >= 0 under o's batch names; cpu < 0: no hadoopYarn), or
 * {"action":"skip","reason":why,"reasonCode":"invalid-allocation"} for
 * SYNCPLAN_ANN_SKIP. */
void syncplan_item_set_annotation(struct syncplan_item *it, enum syncplan_ann a,
				  const struct sync_options *o, int64_t cpu_milli,
				  int64_t memory_bytes, const char *why);

/* The lifecycle part (stolen). */
void syncplan_item_set_lifecycle(struct syncplan_item *it, json_t *part);

/* {"vCores":v,"memoryMB":m}: yarnTotal, rmTotal and the others.  New reference. */
json_t *syncplan_yarn_resource(struct yarn_resource r);

/* {cpu: milli as a decimal-SI quantity ("2k"), memory: bytes as a
 * binary-SI one ("4Gi")} under o's batch resource names: the hadoop-yarn
 * entry's resources.  New reference. */
json_t *syncplan_quantities(const struct sync_options *o, int64_t cpu_milli, int64_t memory_bytes);

/* ---- reading and writing ---- */

/* Check a lifecycle part of item (absent: fine) as run/synclife.h
 * sync_lifecycle_check() does: 0, or -1 with e set. */
typedef int syncplan_part_check(const json_t *item, const char *ctx, const struct sync_config *sc,
				struct err *e);

/* Read a SyncPlan: kind SyncPlan with an items array; every item an object
 * with a node and an action (update, none, skip), no node named by two
 * items, a reasonCode (when present) of the closed list that fits the
 * action (sync_reason_fits()); an update with cluster (one of sc's),
 * yarnNodeId, yarnTotal {vCores 0..2^31-1, memoryMB >= 0} and
 * overCommitTimeoutMs -1..2^31-1; an annotation action (annotate, none,
 * skip), an annotate with the two batch quantities (>= 0); the lifecycle
 * part through lifecycle_check (may be NULL).  The first refusal is one
 * ERR_INPUT line naming SyncPlan.items[i], the field and the value; returns
 * 0, or -1 with out released.  With per_item (a plan made from remote
 * data, threat-model.md), only a document that is not a SyncPlan with an
 * items array is refused: an item that breaks a rule (the duplicate node
 * aside) is kept with its refusal in item.invalid. */
int syncplan_from_json(const json_t *doc, const struct sync_config *sc,
		       syncplan_part_check *lifecycle_check, int per_item, struct syncplan *out,
		       struct err *e);

/* The SyncPlan document (new reference): apiVersion, kind, metadata,
 * clusters (each when held), items (the items' documents), the bytes
 * kilo-sync plan writes. */
json_t *syncplan_to_json(const struct syncplan *p);

/* Point it's strings and parts (node, cluster, yarnNodeId, reason, the
 * annotation's reason, lifecycle and its members, the descriptive members
 * above) into it->doc again: after the doc was
 * copied or its strings rewritten (a redaction).  A member that is not a
 * string (or object) gives NULL. */
void syncplan_item_bind(struct syncplan_item *it);

/* Read it->doc leniently, with no check, for an item a reader refused (its
 * refusal says why): syncplan_item_bind() and, by name, action (none when
 * not one), reasonCode, the annotation's action and reasonCode, severity
 * (the figures stay unknown). */
void syncplan_item_view(struct syncplan_item *it);

/* The entries of clusters (an array, may be NULL) into a new *out of *n
 * (NULL, 0 when none), read with no check: a member of another type reads
 * as none.  For the report (doc/syncreport.h), once the planner filled
 * them. */
void syncplan_clusters_view(const json_t *clusters, struct syncplan_cluster **out, size_t *n);

/* Read item v (an object; ctx "SyncPlan.items[3]") into *it as
 * syncplan_from_json() does, doc set to a new reference to v: 0, or -1
 * with e set (it then holds what syncplan_item_view() reads).  For the
 * SyncReport reader (doc/syncreport.h). */
int syncplan_item_from_json(const json_t *v, const char *ctx, const struct sync_config *sc,
			    syncplan_part_check *lifecycle_check, struct syncplan_item *it,
			    struct err *e);

/* Free what p holds and zero it (safe on a zeroed struct). */
void syncplan_release(struct syncplan *p);

#endif
