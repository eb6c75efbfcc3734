/* SPDX-License-Identifier: Apache-2.0 */
/* rmmatch - which RM nodes belong to which Node (internal to the syncplanner
 * modules): a NodeManager pod's node id against the Node's names and
 * addresses, a NodeManager that re-registered under another port, and
 * whether the RM's evidence allows YARN's share on a Node to be zeroed.
 * Pure: every function reads the planner's inputs (decide/syncinput.h) and
 * returns new values.  Node ids are YARN's "host:port" (NodeId.toString);
 * hosts compare as DNS names do, without case.
 */
#ifndef KILO_RMMATCH_H
#define KILO_RMMATCH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "decide/syncinput.h"

/* A valid YARN NodeId "host:port" (port 1..65535). */
int rmmatch_valid_node_id(const char *id);

/* The length of a node id's host part ("host:port" -> host). */
size_t rmmatch_id_host_len(const char *id);

/* 1 when one of names (a JSON array of strings, may be NULL) is the host
 * (len bytes) or its first DNS label, compared without case as DNS names
 * are. */
int rmmatch_host_in(const char *host, size_t len, const json_t *names);

/* 1 when the host names node n: its name or one of its Hostname,
 * InternalIP and ExternalIP addresses. */
int rmmatch_host_names_node(const char *host, size_t len, const struct sync_node *n);

/* RM ids an operator may have meant by node_id: the same host with another
 * port, a node whose nodeHostName is that host, and hosts with the same
 * first DNS label (a short name against its FQDN). */
json_t *rmmatch_candidates(const struct in_cluster *c, const char *node_id);

/* A used figure the RM cannot have (negative, or past SYNC_RM_MAX_*). */
int rmmatch_impossible(const struct yarn_node *y);

/* The live RM nodes on node n's host other than y (an array of ids, NULL
 * when there is none or their figures overflow), with the sum of their
 * used figures in *cpu (milli) and *mem (bytes): a NodeManager that
 * re-registered under another port while its old id y stays LOST.  On the
 * host means exactly the host of the pod's node id (the RM node's id host
 * or its nodeHostName): a share is raised on no weaker evidence; an id
 * another node's NodeManager pod claims is that node's, never this one's. */
json_t *rmmatch_moved_to(const struct in_cluster *c, const struct yarn_node *y,
			 const struct sync_node *n, const json_t *claims, int64_t *cpu,
			 int64_t *mem);

/* 1 when RM node y may hold YARN containers: it cannot be read, its
 * figures are impossible, or it is active and uses something. */
int rmmatch_may_be_busy(const struct yarn_node *y);

/* The index rmmatch_zero_blocked() searches (in_cluster.busy): every RM
 * node that may be busy (rmmatch_may_be_busy), by its id's host, its
 * nodeHostName, the first DNS label of each and its whole id, folded to
 * lower case as strncasecmp() folds -> the indexes of those items in
 * nodes (ascending).  A new object; the nodes must outlive it. */
json_t *rmmatch_busy_index(const struct yarn_nodes *nodes);

/* Why YARN's share on node n must not be zeroed now (a new string), or
 * NULL when this pass's RM evidence says YARN uses nothing there: every
 * cluster answered a list that names nodes, no RM node on n's host (or named
 * by its terminating NodeManager pod, or like its NodeManager pod) may be
 * busy, and every RM node that may be busy is claimed by a NodeManager pod
 * (one claimed by none may run on n: a pod gone without a trace, its id the
 * pod's FQDN or IP).  With skip (the node's own RM node, whose figures lower
 * the share), that one is left out and the clusters need not all answer.
 * The RM nodes on n are found through in_cluster.busy (rmmatch_busy_index()):
 * the first of them in list order, as a search of the whole list finds it,
 * in time that does not grow with the list. */
char *rmmatch_zero_blocked(const struct sync_input *in, const struct sync_node *n,
			   const struct yarn_node *skip);

/* The key of a claim in the claims index: cluster, then the id with its
 * host lower-cased (DNS names compare without case). */
char *rmmatch_claim_key(const char *cluster, const char *id);

#endif
