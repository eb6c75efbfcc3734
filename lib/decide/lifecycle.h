/* SPDX-License-Identifier: Apache-2.0 */
/* lifecycle - a NodeManager's lifecycle as kilo-sync drives it (issue
 * "NodeManager lifecycle", slice b): a pure step from a node's record, this
 * pass's facts and "now" to the next record and what to do.
 *
 *   active ---- Batch below min for holdDownMs ----> draining
 *   draining -- no YARN container left (the RM lists 0/0 total and used,
 *               no container; or no NodeManager pod any more) --> offline
 *   draining -- still containers after drainTimeoutMs --> stuck
 *   stuck ----- no YARN container left --> offline
 *   draining, stuck -- Batch at min + returnMargin for holdUpMs --> active
 *   offline --- Batch at min + returnMargin for holdUpMs --> returning
 *   returning - the RM lists the NodeManager again (resized) --> active
 *   returning - Batch below min for holdDownMs --> draining (or offline
 *               while no NodeManager runs)
 *
 * With lifecycle.drain decommission (slice c) the drain is YARN's graceful
 * decommission instead: the node id's host goes on the RM's exclude list
 * (then rmadmin -refreshNodes -g T -server); the RM holds the node's total
 * at its use (DECOMMISSIONING) and ends at DECOMMISSIONED, which is
 * offline; returning (and a cancelled drain) takes the host off the list
 * again, before the label is set.  A node the RM still lists RUNNING while
 * draining is asked again, and held at 0/0 meanwhile.
 *
 * Draining, stuck and offline hold the node at 0/0 with overCommitTimeout
 * -1: the RM places nothing new there and kills nothing (peers-and-
 * lifecycle.md: a negative timeout never kills; a total equal to what is
 * allocated would be refilled on the next heartbeat).  Only on a node that
 * never got a timeout >= 0: the real RM keeps one armed for good (a later -1
 * is ignored), so the config refuses lifecycle with overCommitTimeoutMs >= 0
 * (doc/syncconfig.c).  kilo never kills a
 * container for the lifecycle.  With lifecycle.nodeLabel, the label is
 * removed when a node goes offline (the NodeManager DaemonSet stops its
 * pod) and set again on return, but only when kilo removed it: a node an
 * operator unlabelled stays out of YARN.
 *
 * The record is the value of the Node annotation LC_ANNOTATION, compact
 * JSON (doc/SCHEMAS.md "Lifecycle record"):
 *   {"state":"draining","since":"2026-11-29T16:00:00Z",
 *    "reason":"...","pendingSince":"...","labelRemoved":true,
 *    "nodeManagerRequest":{"cpuMilli":1000,"memoryBytes":2147483648},
 *    "excluded":{"cluster":"c1","host":"worker-1.example.com"},
 *    "rm":{"index":0,"startedOn":1796283732869},"rmChanged":true}
 * pendingSince: when the condition for the next state (below min, or back
 * above min + margin) was first seen; labelRemoved: kilo removed nodeLabel;
 * excluded: the host kilo put on that cluster's exclude list (decommission);
 * rm: the RM the decommission began under; rmChanged: another RM (a
 * failover, a restart) answered since, which decommissions excluded hosts at
 * once, killing their containers (YARN-5464): reported, never hidden (the
 * real RM then refuses the host and lists no node for it: LC_SEEN_RM_ABSENT);
 * nodeManagerRequest: the NodeManager pod's own Batch request when the
 * record was last written with the pod there and the node not active
 * (dropped once it is active again).  While the pod is gone its
 * request is still taken off the Batch pool the return is judged on: a
 * node must not return on the room its own NodeManager leaves (and flap).
 */
#ifndef KILO_LIFECYCLE_H
#define KILO_LIFECYCLE_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/rmnode.h"
#include "doc/syncconfig.h"

#define LC_ANNOTATION "kilo.sh/yarn-lifecycle"
#define LC_REASON_MAX 240

enum lc_state { LC_ACTIVE, LC_DRAINING, LC_STUCK, LC_OFFLINE, LC_RETURNING, LC_STATE_COUNT };

/* "active", "draining", "stuck", "offline", "returning"; NULL out of range. */
const char *lc_state_name(enum lc_state s);

/* The state named s; -1 when s is none of them (NULL too). */
int lc_state_parse(const char *s);

struct lc_record {
	enum lc_state state;
	int64_t since_ms;           /* entered state, ms since the epoch */
	int64_t pending_ms;         /* pendingSince, or -1 */
	int label_removed;          /* kilo removed lifecycle.nodeLabel */
	char excluded_host[256];    /* excluded.host: the host kilo put on the exclude list, "" */
	char excluded_cluster[128]; /* excluded.cluster: the YARN cluster of that list */
	int rm_known, rm_index;     /* rm: the RM the decommission began under */
	int64_t rm_started_on;
	int rm_changed; /* rmChanged: another RM took over since (YARN-5464) */
	int nm_known;   /* nodeManagerRequest was recorded: */
	int64_t nm_cpu_milli, nm_memory_bytes; /* the NodeManager pod's own Batch request */
	char reason[LC_REASON_MAX];
};

/* Parse the annotation's value.  Unknown fields are ignored (a later
 * kilo's).  Returns 0, or -1 with e set (ERR_INPUT, "<ctx>.<field>:
 * expected ..., got ..."): not JSON, not an object, an unknown state, a
 * time that is not RFC 3339, a reason longer than LC_REASON_MAX - 1. */
int lc_record_parse(const char *value, const char *ctx, struct lc_record *r, struct err *e);

/* The same from a parsed object (the annotation's, or a SyncPlan item's
 * lifecycle part, which carries the record's fields). */
int lc_record_from_json(const json_t *doc, const char *ctx, struct lc_record *r, struct err *e);

/* The annotation's value for r: compact JSON, keys in a fixed order, a new
 * string. */
char *lc_record_format(const struct lc_record *r);

/* The same as an object (new reference). */
json_t *lc_record_json(const struct lc_record *r);

/* What this pass knows of the node. */
enum lc_seen {
	LC_SEEN_NOTHING,   /* its item is a skip for another reason: nothing moves */
	LC_SEEN_NO_NM,     /* no NodeManager pod on the node (none terminating) */
	LC_SEEN_RM,        /* its NodeManager pod and its RM node (RUNNING, NEW, UNHEALTHY) */
	LC_SEEN_RM_ABSENT, /* its NodeManager pod, but the RM's node list lacks its node id
			    * (batch, cluster, rm_*, label_* only).  Evidence only of a
			    * decommission another RM took over: that one refuses the
			    * excluded host (SHUTDOWN, "Disallowed NodeManager") and does
			    * not list it at all (seen on Hadoop 3.4.2), so the node is
			    * offline; any other node is held as for LC_SEEN_NOTHING */
};

struct lc_facts {
	enum lc_seen seen;
	struct yarn_resource batch;             /* the plan's total, before damping (NO_NM, RM) */
	struct yarn_resource rm_total, rm_used; /* RM only */
	int64_t rm_containers;                  /* RM only: numContainers */
	const char *rm_state;                   /* RM only: its NodeState */
	const char *host;                       /* RM only: the node id's host */
	const char *cluster;                    /* RM only: its YARN cluster */
	int rm_known, rm_index;                 /* RM only: which RM answered (index */
	int64_t rm_started_on;                  /* of rmUrls, its startedOn), when known */
	int rm_counted;    /* RM only: it listed numContainers and the used figures (else
			 * nothing says the node is empty) */
	int label_present; /* the Node carries nodeLabel key=value */
	int label_other;   /* the Node carries nodeLabel's key with another value (someone
			    * else's: never overwritten) */
};

struct lc_step {
	struct lc_record next;       /* the record after this pass */
	int record;                  /* 1: write next (it differs from the current one) */
	int changed;                 /* 1: next.state differs from the current state */
	int zero;                    /* 1: send 0/0, overCommitTimeout -1, not the plan's total */
	int label;                   /* +1 set nodeLabel, -1 remove it, 0 leave it */
	int decommission;            /* lifecycle.drain decommission: +1 put next.excluded_host on
				* the exclude list (after the record is written), -1 take it
				* off (before); then refresh gracefully; 0 nothing */
	char decommission_host[256]; /* the host of that action */
	char decommission_cluster[128]; /* and its cluster */
	int rm_changed;                 /* 1: found this pass that another RM took over */
};

/* The step of one node.  cur is its record (NULL: none, taken as active
 * since now).  Times in ms since the epoch; a since or pendingSince in the
 * future counts as now.  Pure; never fails (figures are checked by the
 * caller; sums saturate). */
void lc_next(const struct sync_lifecycle *cfg, const struct lc_record *cur,
	     const struct lc_facts *f, int64_t now_ms, struct lc_step *out);

/* The lifecycle part of a SyncPlan item (doc/SCHEMAS.md "Lifecycle"): the
 * record after st (lc_record_json; without "since" when the node has no
 * record and none is written), "previous" (cur's state, when it changed),
 * "action" record|none, "basis" (the annotation's value as read, null: none;
 * with record or a decommission action), "label" set|remove|none, "decommission" exclude|include with
 * "decommissionHost" {cluster, host}, and "batch" {vCores, memoryMB} when
 * given.  New reference. */
json_t *lc_part_json(const struct lc_step *st, const struct lc_record *cur, const char *basis,
		     const struct yarn_resource *batch);

#endif
