/* SPDX-License-Identifier: Apache-2.0 */
/* syncplanner - kilo-sync's planner: a pure function from Kubernetes Nodes and
 * Pods and the YARN RMs' node lists to a SyncPlan (SCHEMAS.md).
 *
 * Inputs arrive as a stream in any order and are reduced as they come: a Pod
 * becomes a few integers added to its node's sums, so memory stays
 * O(nodes), not O(pods).  The rules (DESIGN.md section 6; koordinator
 * batchresource plugin; yarn-copilot's gaps in prior-art-yarn-copilot.md):
 *
 *  origin Batch pool   node.koordinator.sh/originExtendedAllocatable when
 *                      present (koord-manager >= 1.4, which subtracts YARN's
 *                      share from status), else status.allocatable; a
 *                      missing resource is 0; an annotation that is not valid
 *                      JSON skips the node (never a fallback to status).
 *  NodeManager pod     a pod with the nodeManagerSelector label, in one of
 *                      nodeManagerNamespaces, bound to the node, not being
 *                      deleted (metadata.deletionTimestamp unset).  Its
 *                      node id's host, or the host's first DNS label, must
 *                      be the Node's name or one of its Hostname, InternalIP
 *                      or ExternalIP addresses, or the pod's name,
 *                      spec.hostname or IP (so the pod's FQDN
 *                      <hostname>.<subdomain>.<ns>.svc.<domain> too); a node
 *                      id claimed on two nodes is no one's.  Otherwise the
 *                      node is skipped (a tenant's pod must not send one
 *                      node's Batch pool to YARN for another).
 *  requested           sum over pods bound to the node whose phase is not
 *                      Succeeded or Failed (terminating pods count, the
 *                      NodeManager pod too) of the effective request:
 *                      max(sum of containers, largest init container) +
 *                      overhead, a limit alone counting as the request
 *                      (extended resources).
 *  YARN total          max(0, origin - requested - reserved), vCores =
 *                      floor(milli / 1000), memoryMB = floor(bytes / 2^20).
 *  RM node state       (rmState on the item; YARN's NodeState) RUNNING, NEW
 *                      and UNHEALTHY nodes are resized (an unhealthy one is
 *                      said so: the RM places nothing there meanwhile);
 *                      DECOMMISSIONING never (the RM sets its total to its
 *                      use on every heartbeat: AbstractYarnScheduler
 *                      .nodeUpdate), nor DECOMMISSIONED, LOST, SHUTDOWN,
 *                      REBOOTED (gone); any other state is skipped.
 *  action              update when the RM's total differs, else none; skip
 *                      with a reason otherwise.
 *  damping             (when enabled) the total sent is sync_damp() of the
 *                      RM's and the plan's: yarnTotal what is sent,
 *                      yarnTarget the plan's own when they differ.
 *  annotation          YARN used (vCores x 1000 milli, MB x 2^20 bytes) as
 *                      the hadoop-yarn entry (priority koord-batch) of
 *                      node.koordinator.sh/thirdPartyAllocations, other
 *                      entries kept; annotate only on change; a node without
 *                      a NodeManager pod whose entry is non-zero is zeroed,
 *                      unless this pass's RM lists an active NodeManager on
 *                      its host (or named by its terminating NodeManager
 *                      pod) that uses something or cannot be read, or a
 *                      cluster is unreachable.
 *  severity            a skip for bad or conflicting data carries
 *                      "severity":"error" (kilo-sync exits 3); other skips
 *                      (no NodeManager, an inactive RM node, an id the RM
 *                      does not know yet) carry none.
 *
 * Quantities from the origin pool are rounded down, requests up, so YARN is
 * never offered more than the pool holds.
 */
#ifndef KILO_SYNCPLANNER_H
#define KILO_SYNCPLANNER_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"
#include "core/jsonio.h"
#include "doc/rmnode.h"
#include "doc/syncconfig.h"
#include "doc/syncplan.h"

#define SYNC_ANN_ORIGIN "node.koordinator.sh/originExtendedAllocatable"
#define SYNC_ANN_THIRD_PARTY "node.koordinator.sh/thirdPartyAllocations"
#define SYNC_ANN_NODE_ID "yarn.hadoop.apache.org/node-id"
#define SYNC_ANN_CLUSTER_ID "yarn.hadoop.apache.org/cluster-id"
#define SYNC_ALLOCATION_NAME "hadoop-yarn"
#define SYNC_ALLOCATION_PRIORITY "koord-batch"
#define SYNC_DEFAULT_CLUSTER "default"
/* The largest used figures of an RM node taken as possible: 2^53 bytes
 * (the JSON-safe integers) and 2^31-1 vCores.  Beyond them, or negative,
 * the node is skipped. */
#define SYNC_RM_MAX_MB ((int64_t)1 << 33)
#define SYNC_RM_MAX_VCORES INT32_MAX

struct sync_input;

/* A new, empty input set.  o is copied (its strings must outlive the set). */
struct sync_input *sync_input_new(const struct sync_options *o);
void sync_input_free(struct sync_input *in);

/* Take the objects that follow as a live API's answers (threat-model.md):
 * a Pod whose quantities cannot be read skips its node, a Node without a
 * name is ignored.  Without it (an operator's document) both are errors. */
void sync_input_set_remote(struct sync_input *in);

/* Add one Kubernetes object: a Node, or a Pod (reduced into its node's
 * sums and forgotten).  Returns 0, or -1 with e set (ERR_INPUT naming the
 * object and field: a bad quantity, a missing name). */
int sync_input_add_node(struct sync_input *in, const json_t *node, struct err *e);
int sync_input_add_pod(struct sync_input *in, const json_t *pod, struct err *e);

/* Add any document `kilo-sync plan --from -` accepts: Node, NodeList,
 * Pod, PodList, List (items classified by their own kind), the RM's
 * {"nodes":{"node":[...]}} (cluster "default") or {"kind":"YarnNodes",
 * "cluster":ID,"nodes":{...}}.  Other kinds fail with ERR_INPUT naming the
 * kind.  Returns 0 or -1 with e set. */
int sync_input_add_document(struct sync_input *in, const json_t *doc, struct err *e);

/* The fields of a document sync_input_add_document() reads (Node, Pod,
 * their lists, RM node lists), for jsonio_reader_filter(): a reader that
 * builds only these makes the same plan, several times faster. */
extern const struct jsonio_filter sync_input_fields[];

/* The RM node list of one YARN cluster (copied).  Returns 0, or -1 with
 * ERR_INPUT when the cluster was already given. */
int sync_input_add_rm_nodes(struct sync_input *in, const char *cluster,
			    const struct yarn_nodes *nodes, struct err *e);

/* Which RM process answered for the cluster this pass: the index of the
 * active RM among its rmUrls and its clusterInfo.startedOn (0 unknown).  A
 * decommission that began under another one was cut short: the new RM
 * decommissions excluded hosts at once (YARN-5464); the lifecycle says so. */
void sync_input_cluster_rm(struct sync_input *in, const char *cluster, int index,
			   int64_t started_on);

/* Expect the RM node list of a cluster (plan --from with a --config that
 * names it): unless the list is given, the cluster counts as unreachable
 * ("its RM node list was not given"), so no share is zeroed on its absence. */
void sync_input_cluster_expect(struct sync_input *in, const char *cluster);

/* Mark a cluster unreachable (every RM failed, or its list could not be
 * read): its nodes are skipped with code (SYNC_R_RM_UNREACHABLE,
 * SYNC_R_RM_REFUSED or SYNC_R_RM_ANSWER_INVALID) and reason why, no RM
 * writes and no annotation changes for them. */
void sync_input_cluster_unreachable(struct sync_input *in, const char *cluster,
				    enum sync_reason code, const char *why);

/* Forget every pod reduced so far (request sums and NodeManager pods): a
 * listing that restarted hands its pages again from the start. */
void sync_input_discard_pods(struct sync_input *in);

/* A watch's view (decide/syncview) keeps the input across changes: forget
 * what the Node object of name gave (as if it was never listed: not seen,
 * no pool, allocation, addresses or lifecycle record), or what the pods
 * bound to it gave (sums, NodeManager pods, claims, the first bad pod), so
 * that the new object or the pods still there are added again.  Nothing
 * when name was never given. */
void sync_input_node_forget(struct sync_input *in, const char *name);
void sync_input_node_forget_pods(struct sync_input *in, const char *name);

/* The node pod gives something to (*node borrowed from pod): bound, not
 * Succeeded or Failed, and with a Batch request, a figure that cannot be
 * summed, or the NodeManager label; else *node NULL (adding it changes no
 * plan, so a view need not keep it).  Returns 0, or -1 with e set as
 * sync_input_add_pod() fails. */
int sync_input_pod_node(const struct sync_input *in, const json_t *pod, const char **node,
			struct err *e);

/* Number of distinct nodes (seen as Node objects) and of pods reduced. */
size_t sync_input_nodes(const struct sync_input *in);
size_t sync_input_pods(const struct sync_input *in);

/* The SyncPlan (doc/syncplan.h) into *out (release it with
 * syncplan_release()): one item per node that has a NodeManager pod or a
 * non-zero hadoop-yarn allocation, sorted by node name; only_nodes
 * (NULL-terminated, may be NULL) restricts it to those names.  Never
 * fails: per-node problems are `skip` items with a reason. */
void sync_plan_build(const struct sync_input *in, int64_t now_ms, const char *const *only_nodes,
		     struct syncplan *out);

/* The same plan as its document (syncplan_to_json; new reference). */
json_t *sync_plan(const struct sync_input *in, int64_t now_ms, const char *const *only_nodes);

/* The total to send when the RM lists current and the plan asks for
 * target, under d (issue "NodeManager lifecycle", slice a).  Per
 * dimension: a decrease is sent at once and in full; a rise of at most
 * the deadband is not sent (the current figure stays); a larger one is
 * sent up to max(maxIncrease, maxIncrease.percent of current, rounded
 * down) above current.  Disabled: target.  Negative figures count as 0.
 * Pure; no overflow (figures up to 2^53). */
struct yarn_resource sync_damp(const struct sync_damping *d, struct yarn_resource current,
			       struct yarn_resource target);

/* The new value of the thirdPartyAllocations annotation: current (the
 * annotation's string, NULL when absent) with its hadoop-yarn entry replaced
 * or appended as {cpu milli, memory bytes}, every other entry kept, compact
 * JSON.  Returns a new string, or NULL with e set when current is not valid
 * JSON of that shape. */
char *sync_third_party_value(const char *current, const struct sync_options *o, int64_t cpu_milli,
			     int64_t memory_bytes, struct err *e);

#endif
