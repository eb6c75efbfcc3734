// SPDX-License-Identifier: Apache-2.0
/* syncplanner - kilo-sync's pure planner (see syncplanner.h) */
#include "decide/syncplanner.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/num.h"
#include "core/quantity.h"
#include "core/xalloc.h"
#include "decide/lifecycle.h"
#include "decide/rmmatch.h"
#include "decide/syncinput.h"

/* ---- the plan ---- */

static json_t *cpu_mem(int64_t cpu_milli, int64_t mem_bytes)
{
	return json_pack("{s:I,s:I}", "cpuMilli", (json_int_t)cpu_milli, "memoryBytes",
			 (json_int_t)mem_bytes);
}

/* Write the hadoop-yarn entry (cpu milli, mem bytes) on n, or leave it. */
static enum syncplan_ann annotation_action(const struct sync_node *n, int64_t cpu, int64_t mem)
{
	int same = n->has_alloc && n->alloc_cpu == cpu && n->alloc_mem == mem;

	return same || (!n->has_alloc && !cpu && !mem) ? SYNCPLAN_ANN_NONE : SYNCPLAN_ANN_ANNOTATE;
}

/* The annotation part of an item, from the YARN used figures. */
static void annotation_part(struct syncplan_item *it, const struct sync_options *o,
			    const struct sync_node *n, int64_t cpu, int64_t mem)
{
	cleanup_free char *why = NULL;

	if (n->alloc_error) {
		why = xasprintf("cannot rewrite the annotation: %s", n->alloc_error);
		syncplan_item_set_annotation(it, SYNCPLAN_ANN_SKIP, o, -1, -1, why);
		return;
	}
	syncplan_item_set_annotation(it, annotation_action(n, cpu, mem), o, cpu, mem, NULL);
}

static int listed(const char *name, const char *const *only)
{
	if (!only)
		return 1;
	for (size_t i = 0; only[i]; i++)
		if (strcmp(only[i], name) == 0)
			return 1;
	return 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b;
}

/* One dimension of sync_damp(). */
static int64_t damp1(int64_t cur, int64_t target, int64_t max_fixed, int64_t pct, int64_t deadband)
{
	int64_t rise, step;

	cur = cur > 0 ? cur : 0;
	target = target > 0 ? target : 0;
	if (target <= cur)
		return target; /* a decrease: at once, in full */
	rise = target - cur;
	if (rise <= deadband)
		return cur;
	/* floor(cur x pct / 100) without the product: cur < 2^53, pct <= 1000 */
	step = cur / 100 * pct + cur % 100 * pct / 100;
	if (step < max_fixed)
		step = max_fixed;
	return rise <= step ? target : cur + step;
}

struct yarn_resource sync_damp(const struct sync_damping *d, struct yarn_resource current,
			       struct yarn_resource target)
{
	if (!d || !d->enabled)
		return target;
	return (struct yarn_resource){
		.vcores = damp1(current.vcores, target.vcores, d->max_increase_vcores,
				d->max_increase_percent, d->deadband_vcores),
		.memory_mb = damp1(current.memory_mb, target.memory_mb, d->max_increase_memory_mb,
				   d->max_increase_percent, d->deadband_memory_mb),
	};
}

/* Make item a skip with code and the reason fmt gives (severity error
 * when error). */
enum batch_result { BATCH_OK, BATCH_RESERVE_OVERFLOW, BATCH_OVERFLOW, BATCH_TOO_MANY_VCORES };

/* The node's YARN total: max(0, origin - requested - reserved) in whole
 * vCores and MB (rounded down), the reservation in *res_cpu and *res_mem. */
static enum batch_result node_batch(const struct sync_options *o, const struct sync_node *n,
				    int64_t *res_cpu, int64_t *res_mem, struct yarn_resource *total)
{
	int64_t free_cpu, free_mem;

	*res_cpu = *res_mem = 0;
	total->vcores = total->memory_mb = 0;
	/* ceil(origin x percent / 100) without the product: origin >= 0 and
	 * percent <= 100, so only the sums can overflow, and those are checked */
	if (num_add(o->reserve_cpu_milli,
		    n->origin_cpu / 100 * o->reserve_percent +
			    (n->origin_cpu % 100 * o->reserve_percent + 99) / 100,
		    res_cpu) < 0 ||
	    num_add(o->reserve_memory_bytes,
		    n->origin_mem / 100 * o->reserve_percent +
			    (n->origin_mem % 100 * o->reserve_percent + 99) / 100,
		    res_mem) < 0)
		return BATCH_RESERVE_OVERFLOW;
	if (num_sub(n->origin_cpu, n->req_cpu, &free_cpu) < 0 ||
	    num_sub(free_cpu, *res_cpu, &free_cpu) < 0 ||
	    num_sub(n->origin_mem, n->req_mem, &free_mem) < 0 ||
	    num_sub(free_mem, *res_mem, &free_mem) < 0)
		return BATCH_OVERFLOW;
	total->vcores = free_cpu > 0 ? floor_div(free_cpu, 1000) : 0;
	total->memory_mb = free_mem > 0 ? floor_div(free_mem, 1 << 20) : 0;
	return total->vcores > INT32_MAX ? BATCH_TOO_MANY_VCORES : BATCH_OK;
}

static struct syncplan_item *skipf(struct syncplan_item *item, enum sync_reason code, int error,
				   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static struct syncplan_item *skipf(struct syncplan_item *item, enum sync_reason code, int error,
				   const char *fmt, ...)
{
	cleanup_free char *reason = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&reason, fmt, ap) < 0)
		reason = NULL;
	va_end(ap);
	syncplan_item_set_action(item, SYNCPLAN_SKIP);
	syncplan_item_set_reason(item, reason, code);
	if (error)
		syncplan_item_set_bad(item);
	syncplan_item_set_annotation(item, SYNCPLAN_ANN_NONE, NULL, -1, -1, NULL);
	return item;
}

/* The lifecycle part of an item (lifecycle.h lc_part_json). */
static json_t *lifecycle_part(const struct sync_node *n, const struct lc_step *st,
			      const struct lc_facts *f)
{
	return lc_part_json(st, n->lc_has ? &n->lc : NULL, n->lc_value,
			    f->seen != LC_SEEN_NOTHING ? &f->batch : NULL);
}

/* The facts of a node with its NodeManager pod whose cluster was read:
 * its Batch total, cluster, the RM that answered, its label (the RM node's
 * own figures are the caller's). */
static struct lc_facts cluster_facts(const struct sync_node *n, const struct in_cluster *c,
				     enum lc_seen seen, struct yarn_resource total)
{
	return (struct lc_facts){ .seen = seen,
				  .batch = total,
				  .cluster = n->nm_cluster,
				  .rm_known = c->rm_known,
				  .rm_index = c->rm_index,
				  .rm_started_on = c->rm_started_on,
				  .label_present = n->label_present,
				  .label_other = n->label_other };
}

/* The step of a node on this pass's facts. */
static void lifecycle_step(const struct sync_input *in, const struct sync_node *n,
			   const struct lc_facts *f, int64_t now_ms, struct lc_step *st)
{
	lc_next(&in->o.lifecycle, n->lc_has ? &n->lc : NULL, f, now_ms, st);
	if (!n->nm_pods || f->seen == LC_SEEN_NOTHING)
		return; /* no pod here, or held: its request stays what the record says */
	if (st->record && st->next.state != LC_ACTIVE) { /* the pod's request, for the
							  * return once it is gone */
		st->next.nm_known = 1;
		st->next.nm_cpu_milli = n->nm_req_cpu;
		st->next.nm_memory_bytes = n->nm_req_mem;
	} else if (f->seen == LC_SEEN_RM && st->next.state == LC_ACTIVE && st->next.nm_known) {
		st->next.nm_known = 0; /* back: no longer needed */
		st->record = 1;
	}
}

static struct syncplan_item *no_nm_lifecycle(const struct sync_input *in, const struct sync_node *n,
					     struct syncplan_item *item, int64_t now_ms);

/* The item of a node without a NodeManager pod: its hadoop-yarn entry is
 * zeroed only on this pass's RM evidence that YARN uses nothing there. */
static struct syncplan_item *no_nm_item(const struct sync_input *in, const struct sync_node *n,
					struct syncplan_item *item, int64_t now_ms)
{
	cleanup_free char *note = NULL, *why = NULL, *reason = NULL;
	int has_share = n->has_alloc && (n->alloc_cpu || n->alloc_mem);

	if (n->nm_foreign) /* main warns: NodeManagers may run in a namespace not configured */
		syncplan_item_set(item, "ignoredPod", json_string(n->nm_foreign));
	note = n->nm_terminating
		       ? xasprintf(" (NodeManager pod %s is terminating)", n->nm_terminating)
	       : n->nm_foreign ? xasprintf(" (pod %s has the NodeManager label outside "
					   "nodeManagerNamespaces: ignored)",
					   n->nm_foreign)
			       : xstrdup("");
	if (has_share && !n->alloc_error && (why = rmmatch_zero_blocked(in, n, NULL)))
		return no_nm_lifecycle(
			in, n,
			skipf(item, SYNC_R_SHARE_NOT_ZEROED, 0,
			      "no NodeManager pod seen on the node%s, but %s: its share is not "
			      "zeroed",
			      note, why),
			now_ms);
	reason = n->alloc_error ? xasprintf("no NodeManager pod on the node%s, and its share "
					    "cannot be zeroed: %s",
					    note, n->alloc_error)
				: xasprintf("no NodeManager pod on the node%s", note);
	syncplan_item_set_action(item, SYNCPLAN_SKIP);
	/* the error, when there is one, is what the operator must see */
	syncplan_item_set_reason(item, reason,
				 n->alloc_error      ? SYNC_R_INVALID_ALLOCATION
				 : n->nm_terminating ? SYNC_R_NODEMANAGER_TERMINATING
				 : n->nm_foreign     ? SYNC_R_NODEMANAGER_OUTSIDE_NAMESPACES
						     : SYNC_R_NO_NODEMANAGER);
	annotation_part(item, &in->o, n, 0, 0);
	if (n->alloc_error)
		syncplan_item_set_bad(item);
	return no_nm_lifecycle(in, n, item, now_ms);
}

/* The lifecycle of a node without a NodeManager pod, whether or not its
 * share can be zeroed this pass: a return (the label set again) needs no
 * RM evidence, and an RM that lists no node at all (one that failed over
 * while every NodeManager was away) must not keep them all away.  A
 * NodeManager-labelled pod outside the namespaces may be a NodeManager of a
 * namespace not configured: it holds a drain; it never keeps an offline
 * node from returning (a tenant could freeze it). */
static struct syncplan_item *no_nm_lifecycle(const struct sync_input *in, const struct sync_node *n,
					     struct syncplan_item *item, int64_t now_ms)
{
	if (in->o.lifecycle.enabled && !n->nm_terminating &&
	    (!n->nm_foreign ||
	     (n->lc_has && (n->lc.state == LC_OFFLINE || n->lc.state == LC_RETURNING))) &&
	    n->seen && !n->origin_error && !n->pod_error) {
		struct lc_facts f = { .seen = LC_SEEN_NO_NM,
				      .label_present = n->label_present,
				      .label_other = n->label_other };
		struct sync_node with = *n; /* as if its NodeManager pod ran (lifecycle.h) */
		int64_t rc, rm;
		struct lc_step st;

		if (n->lc_has && n->lc.nm_known &&
		    (num_add(with.req_cpu, n->lc.nm_cpu_milli, &with.req_cpu) < 0 ||
		     num_add(with.req_mem, n->lc.nm_memory_bytes, &with.req_mem) < 0))
			return item; /* held: the record's figures cannot be used */
		if (node_batch(&in->o, &with, &rc, &rm, &f.batch) == BATCH_OK) {
			lifecycle_step(in, n, &f, now_ms, &st);
			syncplan_item_set_lifecycle(item, lifecycle_part(n, &st, &f));
		}
	}
	return item;
}

/* "a, b, c" of a JSON array of names: a new string. */
static char *join_names(const json_t *names)
{
	char *out = xstrdup("");
	const json_t *v;
	size_t i;

	json_array_foreach(names, i, v)
	{
		char *next = xasprintf("%s%s%s", out, i ? ", " : "", json_string_value(v));

		free(out);
		out = next;
	}
	return out;
}

static struct syncplan_item *plan_item(struct syncplan *plan, const struct sync_input *in,
				       const struct sync_node *n, const json_t *claims,
				       int64_t now_ms)
{
	const struct sync_options *o = &in->o;
	struct syncplan_item *item =
		syncplan_add(plan, n->name, n->nm_pods ? n->nm_cluster : NULL, n->nm_node_id);
	const struct in_cluster *c;
	const struct yarn_node *y;
	int64_t res_cpu, res_mem, used_cpu, used_mem;
	struct yarn_resource total, send;
	const json_t *claimants;
	cleanup_free char *reason = NULL, *why = NULL;
	int blocked;
	enum sync_reason code;
	json_t *moved = NULL;
	int draining, lc_on = 0, twice = 0;
	int64_t oct = o->over_commit_timeout_ms;
	struct lc_facts lcf = { 0 };
	struct lc_step lc = { 0 };

	if (o->lifecycle.enabled && n->lc_error)
		return skipf(item, SYNC_R_INVALID_LIFECYCLE_RECORD, 1,
			     "invalid lifecycle record: %s (delete it to start over: kubectl "
			     "annotate node %s " LC_ANNOTATION "-; with drain: decommission, "
			     "take a host kilo excluded off the exclude list first)",
			     n->lc_error, n->name);
	if (!n->nm_pods)
		return no_nm_item(in, n, item, now_ms);
#define SKIP(code, error, ...) return skipf(item, SYNC_R_##code, error, __VA_ARGS__)
	if (!n->seen)
		SKIP(NODE_NOT_FOUND, 0, "Node object not found (NodeManager pod %s)", n->nm_pod);
	{
		json_t *origin = cpu_mem(n->origin_cpu, n->origin_mem);

		json_object_set_new(origin, "source", json_string(n->origin_source));
		syncplan_item_set(item, "origin", origin);
	}
	syncplan_item_set(item, "requested", cpu_mem(n->req_cpu, n->req_mem));
	if (n->origin_error)
		SKIP(INVALID_ANNOTATION, 1, "invalid annotation: %s", n->origin_error);
	if (n->pod_error)
		SKIP(INVALID_POD, 1, "%s", n->pod_error);
	if (n->nm_pods > 1)
		SKIP(MULTIPLE_NODEMANAGERS, 1, "%d NodeManager pods on the node", n->nm_pods);
	if (!rmmatch_valid_node_id(n->nm_node_id))
		SKIP(INVALID_NODE_ID, 1,
		     "NodeManager pod %s has no valid %s annotation (host:port)%s%s%s", n->nm_pod,
		     SYNC_ANN_NODE_ID, n->nm_node_id ? ": got '" : "",
		     n->nm_node_id ? n->nm_node_id : "", n->nm_node_id ? "'" : "");
	/* a node id is taken only when it names this node or its pod */
	if (!rmmatch_host_names_node(n->nm_node_id, rmmatch_id_host_len(n->nm_node_id), n) &&
	    !rmmatch_host_in(n->nm_node_id, rmmatch_id_host_len(n->nm_node_id), n->nm_names))
		SKIP(NODE_ID_MISMATCH, 1,
		     "NodeManager pod %s names node id %s, whose host is neither node %s (its name "
		     "or addresses) nor the pod (its name, hostname or IP)",
		     n->nm_pod, n->nm_node_id, n->name);
	{
		cleanup_free char *key = rmmatch_claim_key(n->nm_cluster, n->nm_node_id);

		claimants = json_object_get(claims, key);
	}
	if (json_array_size(claimants) > 1) {
		cleanup_free char *names = join_names(claimants);

		SKIP(NODE_ID_CONFLICT, 1,
		     "node id %s of cluster '%s' is claimed on %zu nodes (%s): every claimant "
		     "is skipped",
		     n->nm_node_id, n->nm_cluster, json_array_size(claimants), names);
	}
	switch (node_batch(o, n, &res_cpu, &res_mem, &total)) {
	case BATCH_RESERVE_OVERFLOW:
		SKIP(OVERFLOW, 1, "the reservation overflows on this node's origin pool");
	case BATCH_OVERFLOW:
		syncplan_item_set(item, "reserved", cpu_mem(res_cpu, res_mem));
		SKIP(OVERFLOW, 1, "origin - requested - reserved overflows");
	case BATCH_TOO_MANY_VCORES:
		syncplan_item_set(item, "reserved", cpu_mem(res_cpu, res_mem));
		SKIP(OVERFLOW, 1, "%lld vCores exceed what the RM takes (2^31-1)",
		     (long long)total.vcores);
	case BATCH_OK:
		break;
	}
	syncplan_item_set(item, "reserved", cpu_mem(res_cpu, res_mem));
	syncplan_item_set_total(item, total);
	c = syncinput_cluster((struct sync_input *)in, n->nm_cluster, 0);
	if (!c) /* the same words live and offline: the plans must be equal */
		SKIP(CLUSTER_NOT_CONFIGURED, 0,
		     "no RM node list for cluster '%s' (live: not in clusters; --from: not given)",
		     n->nm_cluster);
	if (c->unreachable)
		return skipf(item, c->down_code ? c->down_code : SYNC_R_RM_UNREACHABLE, 0,
			     "cluster '%s' unreachable: %s", n->nm_cluster, c->unreachable);
	if (!c->has_nodes)
		SKIP(RM_NODES_NOT_GIVEN, 0, "no RM node list for cluster '%s'", n->nm_cluster);
	y = syncinput_rm_node(c, n->nm_node_id, &twice);
	if (!y) {
		syncplan_item_set(item, "candidates", rmmatch_candidates(c, n->nm_node_id));
		skipf(item, SYNC_R_UNKNOWN_NODE_ID, 0,
		      "node id %s unknown to the RM of cluster '%s'", n->nm_node_id, n->nm_cluster);
		if (o->lifecycle.enabled) { /* a decommission another RM took over? */
			struct lc_facts none = { .seen = LC_SEEN_NOTHING };

			lcf = cluster_facts(n, c, LC_SEEN_RM_ABSENT, total);
			lifecycle_step(in, n, &lcf, now_ms, &lc);
			/* held (no evidence): the part of a node nothing is known of */
			syncplan_item_set_lifecycle(
				item, lifecycle_part(n, &lc, lc.changed ? &lcf : &none));
		}
		return item;
	}
	if (y->bad)
		SKIP(RM_NODE_INVALID, 1, "RM node %s of cluster '%s' cannot be read: %s", y->id,
		     n->nm_cluster, y->bad);
	if (twice)
		SKIP(RM_NODE_INVALID, 1, "RM of cluster '%s' lists node id %s twice", n->nm_cluster,
		     y->id);
	syncplan_item_set(item, "rmState", json_string(y->state));
	syncplan_item_set(item, "rmTotal", syncplan_yarn_resource(y->total));
	syncplan_item_set(item, "rmUsed", syncplan_yarn_resource(y->used));
	if (!yarn_node_state_known(y->state))
		SKIP(RM_NODE_STATE_UNKNOWN, 1,
		     "RM node %s reports state '%s', not one of YARN's NodeStates: not resized",
		     n->nm_node_id, y->state);
	/* bad figures from the RM cost this node only (threat-model.md) */
	if (rmmatch_impossible(y) || num_mul(y->used.vcores, 1000, &used_cpu) < 0 ||
	    num_mul(y->used.memory_mb, (int64_t)1 << 20, &used_mem) < 0)
		SKIP(RM_NODE_INVALID, 1,
		     "RM node %s reports impossible used figures (%lld vCores, %lld MB)",
		     n->nm_node_id, (long long)y->used.vcores, (long long)y->used.memory_mb);
#undef SKIP
	/* DECOMMISSIONING: the RM sets the total to the use on each heartbeat
	 * (AbstractYarnScheduler.nodeUpdate) so nothing new lands there; a resize
	 * to the plan would open room on a draining node until the next one. */
	draining = strcmp(y->state, "DECOMMISSIONING") == 0;
	send = sync_damp(&o->damping, y->total, total);
	/* decommission: a DECOMMISSIONING or DECOMMISSIONED node is the drain's */
	if (o->lifecycle.enabled && ((!y->inactive && !draining) || o->lifecycle.decommission)) {
		char host[256];

		snprintf(host, sizeof(host), "%.*s", (int)rmmatch_id_host_len(n->nm_node_id),
			 n->nm_node_id);
		lcf = cluster_facts(n, c, LC_SEEN_RM, total);
		lcf.rm_total = y->total;
		lcf.rm_used = y->used;
		lcf.rm_containers = y->containers;
		lcf.rm_counted = y->counted;
		lcf.rm_state = y->state;
		lcf.host = host;
		lifecycle_step(in, n, &lcf, now_ms, &lc);
		lc_on = 1;
		if (lc.zero && !y->inactive && !draining) { /* nothing lands, nothing is killed */
			send = (struct yarn_resource){ 0 };
			oct = -1;
		}
		lcf.host = lcf.cluster = NULL; /* host is this block's */
	}
	syncplan_item_set_over_commit(item, oct);
	if (!y->inactive && !draining &&
	    (send.vcores != total.vcores || send.memory_mb != total.memory_mb)) {
		syncplan_item_set_total(item, send);
		syncplan_item_set(item, "yarnTarget", syncplan_yarn_resource(total));
	}
	if (y->inactive && (moved = rmmatch_moved_to(c, y, n, claims, &used_cpu, &used_mem))) {
		/* the NodeManager came back under another id (a new port): that
		 * one's use is YARN's on this node, or Kubernetes double-spends it */
		reason = xasprintf("RM node state %s, but the RM lists %s on the same host: the "
				   "NodeManager re-registered under another id and the pod's %s is "
				   "stale; not resized, its share follows that id's use",
				   y->state, json_string_value(json_array_get(moved, 0)),
				   SYNC_ANN_NODE_ID);
		code = SYNC_R_NODE_ID_MOVED;
		syncplan_item_set(item, "candidates", moved);
		syncplan_item_set_action(item, SYNCPLAN_SKIP);
	} else if (y->inactive) {
		reason = xasprintf("RM node state %s", y->state);
		code = SYNC_R_RM_NODE_INACTIVE;
		syncplan_item_set_action(item, SYNCPLAN_SKIP);
	} else if (draining) {
		reason = xstrdup("RM node state DECOMMISSIONING: the RM holds its total at its use "
				 "while it drains; not resized");
		code = SYNC_R_RM_NODE_DECOMMISSIONING;
		syncplan_item_set_action(item, SYNCPLAN_SKIP);
	} else if (lc_on && lc.zero) {
		reason = xasprintf("lifecycle %s: held at 0/0 with overCommitTimeoutMs -1 (Batch "
				   "%lld vCores/%lld MB; %lld containers running)%s%s",
				   lc_state_name(lc.next.state), (long long)total.vcores,
				   (long long)total.memory_mb, (long long)y->containers,
				   lc.next.reason[0] ? ": " : "", lc.next.reason);
		code = SYNC_R_LIFECYCLE_HOLD;
		syncplan_item_set_action(item, y->total.vcores || y->total.memory_mb
						       ? SYNCPLAN_UPDATE
						       : SYNCPLAN_NONE);
	} else if (y->total.vcores != send.vcores || y->total.memory_mb != send.memory_mb) {
		int damped = send.vcores != total.vcores || send.memory_mb != total.memory_mb;

		reason = damped ? xasprintf("RM total %lld vCores/%lld MB differs; damped: %lld "
					    "vCores/%lld MB this pass, toward %lld vCores/%lld MB "
					    "(damping.maxIncrease)",
					    (long long)y->total.vcores,
					    (long long)y->total.memory_mb, (long long)send.vcores,
					    (long long)send.memory_mb, (long long)total.vcores,
					    (long long)total.memory_mb)
				: xasprintf("RM total %lld vCores/%lld MB differs",
					    (long long)y->total.vcores,
					    (long long)y->total.memory_mb);
		code = damped ? SYNC_R_TOTAL_DAMPED : SYNC_R_TOTAL_DIFFERS;
		syncplan_item_set_action(item, SYNCPLAN_UPDATE);
	} else if (send.vcores != total.vcores || send.memory_mb != total.memory_mb) {
		reason =
			xasprintf("RM total %lld vCores/%lld MB kept: the rise to %lld vCores/%lld "
				  "MB is within damping.deadband",
				  (long long)y->total.vcores, (long long)y->total.memory_mb,
				  (long long)total.vcores, (long long)total.memory_mb);
		code = SYNC_R_TOTAL_WITHIN_DEADBAND;
		syncplan_item_set_action(item, SYNCPLAN_NONE);
	} else {
		reason = xstrdup("RM total matches");
		code = SYNC_R_TOTAL_MATCHES;
		syncplan_item_set_action(item, SYNCPLAN_NONE);
	}
	if (strcmp(y->state, "UNHEALTHY") == 0) {
		char *more = xasprintf("%s; RM node state UNHEALTHY: resized all the same (the RM "
				       "places no container there while it is unhealthy)",
				       reason);

		free(reason);
		reason = more;
	}
	if (!y->inactive && !draining &&
	    (send.vcores < y->used.vcores || send.memory_mb < y->used.memory_mb)) {
		struct yarn_resource back = {
			.vcores = y->used.vcores > send.vcores ? y->used.vcores - send.vcores : 0,
			.memory_mb = y->used.memory_mb > send.memory_mb
					     ? y->used.memory_mb - send.memory_mb
					     : 0,
		};
		char *more = xasprintf(
			oct >= 0
				? "%s; YARN uses more than the new total: the RM preempts after %lld ms"
				: "%s; YARN uses more than the new total; overCommitTimeoutMs %lld: "
				  "containers are not preempted",
			reason, (long long)oct);

		syncplan_item_set(item, "reclaim", syncplan_yarn_resource(back));
		free(reason);
		reason = more;
	}
	/* a share lowered on this id's figures only on the same evidence as a
	 * share zeroed: while another RM node of the node or its pod may be busy
	 * (the NodeManager back under another port, the old id not yet expired),
	 * one no pod claims, or a cluster is not read, they are not all of YARN.
	 * An inactive id's zeros are no evidence at all that YARN left the node,
	 * so there every cluster must have answered too (no skip). */
	blocked = !n->alloc_error &&
		  annotation_action(n, used_cpu, used_mem) == SYNCPLAN_ANN_ANNOTATE &&
		  (used_cpu < n->alloc_cpu || used_mem < n->alloc_mem) &&
		  (why = rmmatch_zero_blocked(in, n, y->inactive ? NULL : y));
	if (blocked) {
		char *more = xasprintf("%s; %s: its share is not %s", reason, why,
				       y->inactive ? "zeroed" : "lowered");

		free(reason);
		reason = more;
	}
	syncplan_item_set_reason(item, reason, code);
	if (blocked)
		syncplan_item_set_annotation(item, SYNCPLAN_ANN_NONE, o, -1, -1, NULL);
	else
		annotation_part(item, o, n, used_cpu, used_mem);
	if (n->alloc_error)
		syncplan_item_set_bad(item);
	if (lc_on)
		syncplan_item_set_lifecycle(item, lifecycle_part(n, &lc, &lcf));
	return item;
}

static int by_name(const void *a, const void *b)
{
	const struct sync_node *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* Every node's NodeManager claim, by rmmatch_claim_key(): an array of node names
 * (sorted, as order is): a node id claimed on two nodes is no one's. */
static json_t *claims_index(const struct sync_node *const *order, size_t m)
{
	json_t *claims = json_object();

	for (size_t i = 0; i < m; i++) {
		const struct sync_node *n = order[i];
		const json_t *v;
		size_t k;

		json_array_foreach(n->claims, k, v)
		{
			const char *key = json_string_value(v);
			json_t *arr;

			if (!(arr = json_object_get(claims, key))) {
				arr = json_array();
				json_object_set_new(claims, key, arr);
			}
			if (!json_array_size(arr) ||
			    strcmp(json_string_value(json_array_get(arr, json_array_size(arr) - 1)),
				   n->name) != 0)
				json_array_append_new(arr, json_string(n->name));
		}
	}
	return claims;
}

void sync_plan_build(const struct sync_input *in, int64_t now_ms, const char *const *only_nodes,
		     struct syncplan *plan)
{
	json_t *clusters = json_array();
	json_auto_t *claims = NULL;
	cleanup_free const struct sync_node **order = xcalloc(in->n + 1, sizeof(*order));

	for (size_t i = 0; i < in->n; i++)
		order[i] = &in->nodes[i];
	qsort(order, in->n, sizeof(*order), by_name);
	claims = claims_index(order, in->n);
	syncplan_init(plan, jsonio_metadata(NULL, now_ms), clusters);
	for (size_t i = 0; i < in->nclusters; i++) { /* the plan's own, not the input's */
		struct in_cluster *c = (struct in_cluster *)&in->clusters[i];
		const char *first = NULL;
		size_t active = 0, unclaimed = 0;

		c->unclaimed = NULL;
		for (size_t k = 0; c->has_nodes && k < c->nodes.n; k++) {
			const struct yarn_node *y = &c->nodes.items[k];
			cleanup_free char *key = *y->id ? rmmatch_claim_key(c->id, y->id) : NULL;
			int mine = key && json_object_get(claims, key);

			if (rmmatch_may_be_busy(y) && !mine && !c->unclaimed)
				c->unclaimed = y;
			if (y->inactive || y->bad)
				continue;
			active++;
			if (!mine && !unclaimed++)
				first = *y->id ? y->id : NULL;
		}
		if (c->has_nodes)
			json_array_append_new(clusters,
					      json_pack("{s:s,s:I,s:I,s:s?}", "cluster", c->id,
							"rmNodes", (json_int_t)active, "unclaimed",
							(json_int_t)unclaimed, "firstUnclaimed",
							first));
	}
	for (size_t i = 0; i < in->n; i++) {
		const struct sync_node *n = order[i];
		struct syncplan_item *item;

		if (!listed(n->name, only_nodes))
			continue;
		if (!n->nm_pods && !(n->has_alloc && (n->alloc_cpu || n->alloc_mem)) &&
		    !n->alloc_error && !n->nm_terminating && !n->nm_foreign &&
		    !(in->o.lifecycle.enabled && (n->lc_has || n->lc_error)))
			continue; /* never had YARN: not touched */
		item = plan_item(plan, in, n, claims, now_ms);
		if (in->o.lifecycle.enabled && !n->lc_error && !item->lifecycle) {
			struct lc_facts f = { .seen = LC_SEEN_NOTHING };
			struct lc_step st;

			lifecycle_step(in, n, &f, now_ms, &st); /* held: the record as it is */
			syncplan_item_set_lifecycle(item, lifecycle_part(n, &st, &f));
		}
	}
}

json_t *sync_plan(const struct sync_input *in, int64_t now_ms, const char *const *only_nodes)
{
	struct syncplan plan;
	json_t *doc;

	sync_plan_build(in, now_ms, only_nodes, &plan);
	doc = syncplan_to_json(&plan);
	syncplan_release(&plan);
	return doc;
}

char *sync_third_party_value(const char *current, const struct sync_options *o, int64_t cpu_milli,
			     int64_t memory_bytes, struct err *e)
{
	json_auto_t *doc = NULL;
	json_t *allocs, *a, *entry;
	size_t i;
	int found = 0;

	doc = current ? jsonio_parse(current, SYNC_ANN_THIRD_PARTY, e) : json_object();
	if (!doc)
		return NULL;
	allocs = json_object_get(doc, "allocations");
	if (!allocs) {
		allocs = json_array();
		json_object_set_new(doc, "allocations", allocs);
	}
	if (!json_is_array(allocs)) {
		jsonio_bad_value(e, SYNC_ANN_THIRD_PARTY, "allocations", "an array", allocs);
		return NULL;
	}
	entry = json_pack("{s:s,s:s,s:o}", "name", SYNC_ALLOCATION_NAME, "priority",
			  SYNC_ALLOCATION_PRIORITY, "resources",
			  syncplan_quantities(o, cpu_milli, memory_bytes));
	json_array_foreach(allocs, i, a)
	{
		if (json_is_object(a) &&
		    strcmp(syncinput_str_at(a, "name", NULL) ?: "", SYNC_ALLOCATION_NAME) == 0) {
			json_array_set(allocs, i, entry);
			found = 1;
			break;
		}
	}
	if (!found)
		json_array_append(allocs, entry);
	json_decref(entry);
	return json_dumps(doc, JSON_COMPACT);
}
