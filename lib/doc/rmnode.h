/* SPDX-License-Identifier: Apache-2.0 */
/* rmnode - the ResourceManager's documents about nodes, as values: NodeInfo
 * and the nodes list (GET /ws/v1/cluster/nodes), ClusterInfo's haState, the
 * resize body (ResourceOptionInfo) and RemoteException bodies
 * (yarn-interfaces.md sections 1-3).  Pure: the planner reads these values,
 * the RM client (remote/yarn.h) fetches and sends them.
 */
#ifndef KILO_RMNODE_H
#define KILO_RMNODE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* A YARN resource vector: memory in MB (YARN's MiB), whole vcores.  Either
 * may be negative in "avail" figures of a shrunk node. */
struct yarn_resource {
	int64_t memory_mb;
	int64_t vcores;
};

/* One RM node (RMWebServices NodeInfo), parsed.  Strings are owned. */
struct yarn_node {
	char *id;                   /* NodeId "host:port" (NM RPC port) */
	char *state;                /* NodeState: RUNNING, LOST, ... */
	char *host;                 /* nodeHostName, or "" when absent */
	struct yarn_resource total; /* totalResource, else used + avail */
	struct yarn_resource used;  /* usedMemoryMB / usedVirtualCores */
	int total_reported;         /* 1: total came from totalResource */
	int inactive;               /* state is DECOMMISSIONED, LOST, SHUTDOWN or REBOOTED */
	int64_t containers;         /* numContainers, 0 when absent */
	int counted;                /* 1: numContainers and both used figures were listed */
	char *bad;                  /* YARN_NODES_KEEP_BAD: why this item could not be read (its
		    * id and host as far as readable, "" otherwise), or NULL */
};

struct yarn_nodes {
	struct yarn_node *items;
	size_t n;
};

/* haState of /ws/v1/cluster/info; YARN_HA_NONE when the field is absent
 * (RMs before HA: a single RM, treated as active). */
enum yarn_ha_state {
	YARN_HA_NONE,
	YARN_HA_ACTIVE,
	YARN_HA_STANDBY,
	YARN_HA_INITIALIZING,
	YARN_HA_STOPPED,
	YARN_HA_OTHER,
};

/* 1 for the inactive NodeStates DECOMMISSIONED, LOST, SHUTDOWN, REBOOTED
 * (those RMWebServices.getNodes takes from getInactiveRMNodes); 0 for NULL. */
int yarn_node_state_inactive(const char *state);

/* 1 when state is one of YARN's NodeStates (hadoop-yarn-api
 * records/NodeState: NEW, RUNNING, UNHEALTHY, DECOMMISSIONED, LOST,
 * REBOOTED, DECOMMISSIONING, SHUTDOWN), else 0 (NULL too). */
int yarn_node_state_known(const char *state);

/* Parse one NodeInfo object (RMWebServices dao/NodeInfo, yarn-interfaces.md
 * section 1).  ctx names it in messages ("nodes.node[3]").  Needs id and
 * state (strings) and either totalResource {memory, vCores} or
 * usedMemoryMB+availMemoryMB and usedVirtualCores+availableVirtualCores
 * (avail may be negative).  Returns 0, or -1 with e set (ERR_INPUT,
 * "<ctx>.<key>: expected ..., got ...").  Release with yarn_node_release(). */
int yarn_node_parse(const json_t *obj, const char *ctx, struct yarn_node *out, struct err *e);

/* Free the strings of n and zero it. */
void yarn_node_release(struct yarn_node *n);

/* How yarn_nodes_parse() takes an item it cannot read. */
enum yarn_nodes_mode {
	YARN_NODES_STRICT,   /* the whole list fails (an operator's document) */
	YARN_NODES_KEEP_BAD, /* the item is kept with .bad set: it costs only the
			      * node it belongs to (an RM's answer, threat-model.md) */
};

/* Parse {"nodes":{"node":[...]}} (GET /ws/v1/cluster/nodes).  An empty list
 * may come as "nodes":null, {} or "node" missing (Jersey 1); a document
 * without a "nodes" member ({}, a ClusterInfo) is an error.  Returns 0, or
 * -1 with e set (ERR_INPUT) and *out empty: a document of another shape, or
 * in YARN_NODES_STRICT mode an item that yarn_node_parse() refuses. */
int yarn_nodes_parse(const json_t *doc, enum yarn_nodes_mode mode, struct yarn_nodes *out,
		     struct err *e);

/* Free every node and the array; nodes is left empty. */
void yarn_nodes_release(struct yarn_nodes *nodes);

/* The node with this id (a bad item too: check .bad), or NULL (borrowed). */
const struct yarn_node *yarn_nodes_find(const struct yarn_nodes *nodes, const char *id);

/* haState of a {"clusterInfo":{...}} document (ClusterInfo,
 * ResourceManagerHA.md).  Returns 0, or -1 with e set (ERR_INPUT) when
 * clusterInfo is missing or haState is not a string. */
int yarn_cluster_info_parse(const json_t *doc, enum yarn_ha_state *state, struct err *e);

/* clusterInfo.startedOn of the same document (ms since the epoch, when this
 * RM process started: a restart or a failover to another RM changes it), 0
 * when absent or not a positive integer. */
int64_t yarn_cluster_info_started_on(const json_t *doc);

/* The resize body {"resource":{"memory":MB,"vCores":n},"overCommitTimeout":ms}
 * (ResourceOptionInfo, no root wrapper).  overCommitTimeout is always
 * present: ms < 0 never kills, >= 0 preempts then kills after ms
 * (yarn-interfaces.md 2d).  New reference. */
json_t *yarn_resize_body(struct yarn_resource total, int64_t over_commit_timeout_ms);

/* From a body {"RemoteException":{"exception":..,"message":..,..}}
 * (RemoteExceptionData, GenericExceptionHandler): a new
 * string "<exception>: <message>", or NULL when doc is not one. */
char *yarn_remote_exception(const json_t *doc);

#endif
