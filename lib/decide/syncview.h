/* SPDX-License-Identifier: Apache-2.0 */
/* syncview - what `kilo-sync watch` keeps between its batches: the
 * planner's input (decide/syncplanner.h) for the whole cluster, changed one
 * Node or Pod event at a time, and the nodes each batch touched, so that
 * only those are planned again (issue #24 slice c).
 *
 * The rule is that of a pass: the input of a view, after any events, gives
 * the plan a pass gives for the objects as they now are (listed in the API
 * server's order: by namespace and name).  To keep that without keeping
 * every pod, a Node event forgets what its old object gave and adds the
 * new one; a Pod event moves the pod in or out of the pods its node keeps,
 * and at the end of the batch each touched node forgets what its pods gave
 * and adds again those it keeps, in namespace/name order.  A pod is kept
 * only while it gives its node something (sync_input_pod_node: a Batch
 * request, a figure that cannot be summed, the NodeManager label), so the
 * memory is O(nodes + such pods): a cluster's other pods cost nothing.
 *
 * Objects are the API's (the filtered ones of sync_input_fields are
 * enough); a view always reads them as a live API's (sync_input_set_remote).
 */
#ifndef KILO_SYNCVIEW_H
#define KILO_SYNCVIEW_H

#include <jansson.h>
#include <stddef.h>

#include "core/err.h"
#include "decide/syncplanner.h"

/* A watch event's type (Kubernetes watch.EventType), as far as a view
 * cares: an object now as given (ADDED and MODIFIED alike), or gone. */
enum syncview_event { SYNCVIEW_SET, SYNCVIEW_DELETED };

struct syncview;

/* A new, empty view for options o (copied as sync_input_new() copies
 * them).  Never NULL (aborts on out of memory). */
struct syncview *syncview_new(const struct sync_options *o);
void syncview_free(struct syncview *v);

/* The planner's input the view keeps (borrowed; valid until the next call
 * on v).  Add the RM node lists and the clusters' states to it as a pass
 * does; the view changes only its Nodes and Pods. */
struct sync_input *syncview_input(struct syncview *v);

/* One Node event.  Returns 0, or -1 with e set (ERR_TEMP: a Node without a
 * name, as a pass refuses its listing) and the view unchanged. */
int syncview_node(struct syncview *v, enum syncview_event t, const json_t *node, struct err *e);

/* One Pod event (pod borrowed: a reference is kept while the pod gives its
 * node something).  A pod is known by namespace/name; DELETED of a pod
 * never kept changes nothing.  Returns 0, or -1 with e set (ERR_TEMP: a pod
 * that cannot be told apart or placed) and the view unchanged. */
int syncview_pod(struct syncview *v, enum syncview_event t, const json_t *pod, struct err *e);

/* End a batch: every node touched since the last call gets its kept pods
 * added again, and *names (NULL-terminated, sorted, owned by v and valid
 * until the next call) lists them for sync_plan_build()'s only_nodes.
 * Returns how many there are (0: nothing to plan). */
size_t syncview_flush(struct syncview *v, const char *const **names);

/* Pods the view keeps, and Node objects it holds (for metrics and the
 * benchmark's memory figure). */
size_t syncview_pods(const struct syncview *v);
size_t syncview_nodes(const struct syncview *v);

#endif
