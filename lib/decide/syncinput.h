/* SPDX-License-Identifier: Apache-2.0 */
/* syncinput - the planner's view of its inputs (internal to the syncplanner
 * modules; callers use decide/syncplanner.h): per Node what the plan needs of
 * it and of its pods, per YARN cluster what its RM listed.  Filled by the
 * sync_input_add_*() readers (syncinput.c), matched against the RM's nodes
 * by decide/rmmatch.h, planned by sync_plan() (syncplanner.c).
 */
#ifndef KILO_SYNCINPUT_H
#define KILO_SYNCINPUT_H

#include <jansson.h>
#include <stdint.h>

#include "decide/lifecycle.h"
#include "decide/syncplanner.h"

struct sync_node {
	char *name;
	int seen; /* the Node object itself was given */
	int64_t origin_cpu, origin_mem;
	const char *origin_source;
	char *origin_error;
	int64_t req_cpu, req_mem;
	int nm_pods;
	char *nm_pod, *nm_node_id, *nm_cluster;
	json_t *nm_names;     /* the claiming pod's name, spec.hostname and IPs */
	char *nm_terminating; /* a NodeManager pod being deleted, or NULL */
	json_t *gone_ids;     /* node ids that terminating NodeManager pods name */
	json_t *claims;       /* claim_key()s of every NodeManager pod on it, terminating too */
	char *nm_foreign;     /* a pod labelled as NodeManager outside the namespaces */
	int has_alloc;
	int64_t alloc_cpu, alloc_mem;
	char *alloc_error;
	char *pod_error;   /* the first pod whose figures cannot be summed: skips the node */
	json_t *addresses; /* status.addresses[].address of the Node (strings), or NULL */
	int lc_has;        /* lifecycle enabled and LC_ANNOTATION read into lc */
	struct lc_record lc;
	char *lc_error;                 /* LC_ANNOTATION present but unreadable */
	char *lc_value;                 /* LC_ANNOTATION as read, or NULL */
	int label_present;              /* the Node carries lifecycle.nodeLabel */
	int label_other;                /* ... its key, with another value */
	int64_t nm_req_cpu, nm_req_mem; /* the (last) NodeManager pod's own Batch request */
};

struct in_cluster {
	char *id;
	char *unreachable;          /* why, or NULL */
	enum sync_reason down_code; /* its code, when unreachable */
	int expected;               /* sync_input_cluster_expect(): unreachable unless given */
	const struct yarn_node *unclaimed; /* sync_plan(): the first RM node that may be
					    * busy and that no NodeManager pod claims */
	int has_nodes;
	struct yarn_nodes nodes;
	json_t *ids;   /* nodes.items[].id -> the index of its first item (syncinput_rm_node) */
	json_t *twice; /* the ids the RM lists more than once (-> true), or NULL */
	json_t *busy;  /* the RM nodes that may be busy by host: rmmatch_busy_index() */
	int rm_known, rm_index; /* sync_input_cluster_rm() */
	int64_t rm_started_on;
};

struct sync_input {
	struct sync_options o;
	struct sync_node *nodes;
	size_t n, cap;
	json_t *index; /* node name -> index into nodes */
	struct in_cluster *clusters;
	size_t nclusters;
	size_t pods;
	int remote; /* a live API's objects: a bad one costs its node only */
};

/* Cluster id's entry in in (added, empty, when create is set), or NULL. */
struct in_cluster *syncinput_cluster(struct sync_input *in, const char *id, int create);

/* The RM node of cluster c whose id is id, byte for byte as the RM lists
 * it (YARN's NodeId compares its host exactly; the first of several, an
 * item that could not be read too: check .bad), or NULL; *twice (may be
 * NULL) is set to 1 when the RM lists that id more than once, else 0.  A
 * hash lookup in c->ids (built by sync_input_add_rm_nodes()), not a search
 * of the list: a plan of N nodes against N RM nodes costs O(N), not O(N^2). */
const struct yarn_node *syncinput_rm_node(const struct in_cluster *c, const char *id, int *twice);

/* The string at obj.a (or obj.a.b when b is not NULL), or NULL when absent
 * or not a string. */
const char *syncinput_str_at(const json_t *obj, const char *a, const char *b);

#endif
