// SPDX-License-Identifier: Apache-2.0
/* syncrun - kilo-sync's apply step: resizes, annotations, lifecycle records (see syncrun.h) */
#include "run/syncrun.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "run/syncitem.h"
#include "run/synclife.h"

/* ---- apply ---- */

static void count_error(struct sync_stats *st, const struct err *e)
{
	st->failed++;
	if (e->kind <= ERR_TEMP)
		st->errors[e->kind]++;
}

/* Mark part of out failed with e and code. */
static void set_failed(struct syncreport_item *out, enum syncreport_part part, const struct err *e,
		       enum sync_reason code, struct sync_stats *st)
{
	syncreport_set_failed(out, part, e->msg, code);
	count_error(st, e);
}

/* The errorCode of a resize that failed with e (res: how far it got). */
static enum sync_reason resize_code(const struct yarn_cluster *c,
				    const struct yarn_resize_result *res, const struct err *e)
{
	if (res->via == YARN_VIA_RMADMIN)
		return SYNC_R_RMADMIN_FAILED;
	switch (res->answer) {
	case YARN_RESIZE_UNKNOWN_NODE:
		return SYNC_R_UNKNOWN_NODE_ID;
	case YARN_RESIZE_NO_ENDPOINT:
		return SYNC_R_RESIZE_UNSUPPORTED;
	case YARN_RESIZE_FAILED: /* the active RM answered */
		return SYNC_R_RESIZE_REFUSED;
	default: /* no RM reached, or none active */
		return sync_rm_down_code(c, e);
	}
}

/* A resize the RM accepted (REST 200, or rmadmin exit 0): "updated" only
 * once the RM lists the new total (confirm_accepted). */
struct accepted {
	struct syncreport_item *out; /* its SyncReport item (borrowed) */
	const char *via;             /* rest, rmadmin */
	size_t cluster;              /* index into sync_rms.c */
	const char *id;              /* yarnNodeId (borrowed from the plan) */
	struct yarn_resource want;   /* the total sent */
	struct yarn_resource seen;   /* the total the RM last listed */
	int seen_known, confirmed;
	struct err read_err; /* the last failed read of it, if any */
};

struct accepted_list {
	struct accepted *a;
	size_t n, cap;
};

/* The RM resize of one (checked) item.  Sets "result" and "error" on out;
 * an accepted resize is added to acc, to be confirmed. */
static void apply_rm(const struct syncplan_item *item, struct syncreport_item *out,
		     struct sync_rms *rms, int dry_run, struct accepted_list *acc,
		     struct sync_stats *st)
{
	struct yarn_cluster *y;
	struct yarn_resize_result res = { 0 };
	struct yarn_resource want = item->yarn_total;
	struct err e = { 0 };

	if (item->action != SYNCPLAN_UPDATE) {
		syncreport_set_result(out, SYNCREPORT_ITEM,
				      item->action == SYNCPLAN_SKIP ? SYNCREPORT_SKIPPED
								    : SYNCREPORT_UNCHANGED);
		if (item->action == SYNCPLAN_SKIP) {
			st->skipped++;
			st->skipped_bad += item->bad;
		} else
			st->unchanged++;
		return;
	}
	if (dry_run) {
		syncreport_set_result(out, SYNCREPORT_ITEM, SYNCREPORT_PLANNED);
		return;
	}
	if (!(y = sync_rms_find(rms, item->cluster))) {
		err_set(&e, ERR_USAGE, 0, "cluster %s: no RM client for it", item->cluster);
		set_failed(out, SYNCREPORT_ITEM, &e, SYNC_R_CLUSTER_NOT_CONFIGURED, st);
		return;
	}
	if (yarn_node_resize(y, item->yarn_node_id, want, item->over_commit_timeout_ms, &res, &e) ==
	    0) {
		const char *via = res.via == YARN_VIA_REST ? "rest" : "rmadmin";

		syncreport_set_result(out, SYNCREPORT_ITEM, SYNCREPORT_UPDATED);
		syncreport_set_member(out, SYNCREPORT_ITEM, "via", json_string(via));
		if (acc->n == acc->cap) {
			acc->cap = acc->cap ? 2 * acc->cap : 16;
			acc->a = xrealloc(acc->a, acc->cap * sizeof(*acc->a));
		}
		acc->a[acc->n++] = (struct accepted){ .out = out,
						      .via = via,
						      .cluster = (size_t)(y - rms->c),
						      .id = item->yarn_node_id,
						      .want = want };
		return;
	}
	set_failed(out, SYNCREPORT_ITEM, &e, resize_code(y, &res, &e), st);
}

/* Write the hadoop-yarn entry on the fresh Node; 1 when written, 0 when it
 * already held the value, -1 with e set (kc->last_status 409 on conflict). */
static int annotate_once(struct k8s_client *kc, const char *node, const struct sync_options *o,
			 int64_t cpu, int64_t mem, struct err *e)
{
	json_auto_t *cur = k8s_node_get(kc, node, e);
	json_auto_t *patched = NULL, *ann = NULL;
	cleanup_free char *value = NULL;
	const char *old, *rv;

	if (!cur)
		return -1;
	old = json_string_value(
		json_object_get(json_object_get(json_object_get(cur, "metadata"), "annotations"),
				SYNC_ANN_THIRD_PARTY));
	rv = json_string_value(
		json_object_get(json_object_get(cur, "metadata"), "resourceVersion"));
	value = sync_third_party_value(old, o, cpu, mem, e);
	if (!value)
		return -1;
	if (old && strcmp(old, value) == 0)
		return 0;
	ann = json_pack("{s:s}", SYNC_ANN_THIRD_PARTY, value);
	patched = k8s_node_patch_annotations(kc, node, ann, rv, e);
	return patched ? 1 : -1;
}

static void apply_annotation(const struct syncplan_item *item, struct syncreport_item *out,
			     const struct sync_config *sc, struct k8s_client *kc, int dry_run,
			     struct sync_stats *st)
{
	const char *node = item->node;
	struct err e = { 0 };
	int64_t cpu = item->ann_cpu_milli, mem = item->ann_memory_bytes;
	int ret = -1, conflict = 0;

	if (item->ann == SYNCPLAN_ANN_ABSENT)
		return;
	if (item->ann != SYNCPLAN_ANN_ANNOTATE || dry_run) {
		syncreport_set_result(out, SYNCREPORT_ANNOTATION,
				      dry_run && item->ann == SYNCPLAN_ANN_ANNOTATE
					      ? SYNCREPORT_PLANNED
					      : SYNCREPORT_UNCHANGED);
		return;
	}
	if (!kc) {
		err_set(&e, ERR_USAGE, 0, "no Kubernetes connection");
	} else {
		ret = annotate_once(kc, node, &sc->options, cpu, mem, &e);
		if (ret < 0 && kc->last_status == 409) { /* re-read and re-plan once */
			st->conflicts++;
			ret = annotate_once(kc, node, &sc->options, cpu, mem, &e);
			conflict = ret < 0 && kc->last_status == 409;
		}
	}
	if (ret >= 0) {
		syncreport_set_result(out, SYNCREPORT_ANNOTATION,
				      ret ? SYNCREPORT_ANNOTATED : SYNCREPORT_UNCHANGED);
		if (ret)
			st->annotated++;
		return;
	}
	set_failed(out, SYNCREPORT_ANNOTATION, &e,
		   conflict                    ? SYNC_R_ANNOTATION_CONFLICT
		   : e.kind == ERR_NOTFOUND    ? SYNC_R_NODE_NOT_FOUND
		   : e.kind == ERR_INPUT       ? SYNC_R_INVALID_ALLOCATION
		   : e.kind == ERR_TEMP || !kc ? SYNC_R_KUBERNETES_UNREACHABLE
					       : SYNC_R_ANNOTATION_REFUSED,
		   st);
}

/* The lifecycle part: its record and label onto the Node (run/synclife.h). */
static void apply_lifecycle(const struct syncplan_item *item, struct syncreport_item *out,
			    const struct sync_config *sc, struct sync_rms *rms,
			    struct k8s_client *kc, int dry_run, struct sync_stats *st)
{
	const enum syncreport_part LC = SYNCREPORT_LIFECYCLE;
	const json_t *part = item->lifecycle;
	const char *action = sync_item_str(part, "action"),
		   *dec = sync_item_str(part, "decommission");
	enum sync_reason code = SYNC_R_KUBERNETES_UNREACHABLE;
	struct err e = { 0 };
	int ret = -1, recorded = -1;

	if (!out->plan.lifecycle)
		return;
	if (!dry_run && dec && strcmp(dec, "none") != 0) {
		/* The record always covers what kilo put on the exclude list: an
		 * exclude is recorded first (over the plan's basis: a stale plan
		 * excludes nothing), so a failed refresh, confirmation or a crash
		 * leaves a record that takes the host off again; an include is
		 * made first, the record (and the label of a return) once the RM
		 * has it. */
		const json_t *h = json_object_get(part, "decommissionHost");
		const char *cluster = sync_item_str(h, "cluster");
		const struct sync_cluster *cfg = sync_config_cluster(sc, cluster);
		struct yarn_cluster *y = sync_rms_find(rms, cluster);
		int add = strcmp(dec, "exclude") == 0;

		if (!cfg || !y) {
			err_set(&e, ERR_USAGE, 0, "cluster %s: no RM client for it", cluster);
			set_failed(out, LC, &e, SYNC_R_CLUSTER_NOT_CONFIGURED, st);
			return;
		}
		if (add && action && strcmp(action, "record") == 0) {
			json_auto_t *mine = json_deep_copy(part);
			int listed = sync_exclude_listed(cfg, kc, sync_item_str(h, "host"), &e);

			if (listed < 0) {
				set_failed(out, LC, &e, SYNC_R_EXCLUDE_LIST_FAILED, st);
				return;
			}
			if (listed && !sync_lifecycle_claims(part, sync_item_str(h, "host"))) {
				/* the operator's: kilo claims none, never takes it off */
				json_object_del(mine, "excluded");
				syncreport_set_member(out, LC, "excluded", NULL);
			}
			if (!kc)
				err_set(&e, ERR_USAGE, 0, "no Kubernetes connection");
			else
				recorded = sync_lifecycle_write(kc, item->node, mine,
								&sc->options.lifecycle, &code, &e);
			if (recorded < 0) {
				set_failed(out, LC, &e, code, st);
				return;
			}
			st->recorded += recorded;
			if (recorded) /* written, whatever follows */
				syncreport_set_recorded(out, 1);
		} else if (sync_lifecycle_basis_ok(kc, item->node, part, &code, &e) < 0) {
			set_failed(out, LC, &e, code, st); /* a stale plan changes no list */
			return;
		}
		if (sync_decommission(cfg, y, kc, sync_item_str(h, "host"), add,
				      sc->options.lifecycle.decommission_timeout_s,
				      add ? item->yarn_node_id : NULL, &code, &e) < 0) {
			set_failed(out, LC, &e, code, st);
			return;
		}
		syncreport_set_member(out, LC, "decommissionResult",
				      json_string(add ? "excluded" : "included"));
	}
	if (recorded >= 0) {
		syncreport_set_recorded(out, 0);
		syncreport_set_result(out, LC,
				      recorded ? SYNCREPORT_RECORDED : SYNCREPORT_UNCHANGED);
		return;
	}
	if (!action || strcmp(action, "record") != 0 || dry_run) {
		syncreport_set_result(out, LC,
				      action && strcmp(action, "record") == 0
					      ? SYNCREPORT_PLANNED
					      : SYNCREPORT_UNCHANGED);
		return;
	}
	if (!kc)
		err_set(&e, ERR_USAGE, 0, "no Kubernetes connection");
	else
		ret = sync_lifecycle_write(kc, item->node, part, &sc->options.lifecycle, &code, &e);
	if (ret >= 0) {
		syncreport_set_result(out, LC, ret ? SYNCREPORT_RECORDED : SYNCREPORT_UNCHANGED);
		if (ret)
			st->recorded++;
		return;
	}
	set_failed(out, LC, &e, code, st);
}

/* Up to this many accepted resizes of one cluster are read back one node
 * each (GET nodes/{id}); more, with one node list per round. */
#define CONFIRM_BY_NODE_MAX 8
#define CONFIRM_POLL_MS 250
/* A read-back request gets the time left before the deadline, but never
 * less than this (confirmTimeoutMs 0 still reads once). */
#define CONFIRM_REQUEST_MIN_MS 1000

/* The request timeout for a read-back with left ms before the deadline. */
static int64_t confirm_request_ms(int64_t timeout, int64_t left)
{
	if (left < CONFIRM_REQUEST_MIN_MS)
		left = CONFIRM_REQUEST_MIN_MS;
	return left < timeout ? left : timeout;
}

/* What the RM lists for a, from n (NULL: not listed): confirmed when its
 * id is a's and its total the one sent. */
static void confirm_seen(struct accepted *a, const struct yarn_node *n)
{
	a->seen_known = 0;
	err_clear(&a->read_err);
	if (!n || !n->id || strcmp(n->id, a->id) != 0)
		return; /* a node answered for another id is not this one */
	if (n->bad) {
		err_set(&a->read_err, ERR_INPUT, 0, "its node entry cannot be read: %s", n->bad);
		return;
	}
	a->seen = n->total;
	a->seen_known = 1;
	a->confirmed = n->total.vcores == a->want.vcores && n->total.memory_mb == a->want.memory_mb;
}

/* One read-back round for the unconfirmed resizes of cluster ci, each
 * request given at most the time left before deadline; the round stops at
 * the first read that fails to reach the RM. */
static void confirm_round(struct accepted_list *acc, size_t ci, size_t pending,
			  struct yarn_cluster *y, int64_t deadline, int first)
{
	struct yarn_nodes nodes = { 0 };
	struct err le = { 0 };
	int64_t timeout = y->http.timeout_ms, left = deadline - clock_mono_ms();
	int listed = 0;

	y->http.timeout_ms = confirm_request_ms(timeout, left);
	if (pending > CONFIRM_BY_NODE_MAX)
		listed = yarn_nodes_list(y, &nodes, &le) == 0;
	for (size_t i = 0; i < acc->n; i++) {
		struct accepted *a = &acc->a[i];
		struct yarn_node one = { 0 };
		struct err ge = { 0 };

		if (a->cluster != ci || a->confirmed)
			continue;
		if (pending > CONFIRM_BY_NODE_MAX) {
			if (listed)
				confirm_seen(a, yarn_nodes_find(&nodes, a->id));
			else
				a->read_err = le;
			continue;
		}
		left = deadline - clock_mono_ms();
		if (left <= 0 && !first)
			break;
		y->http.timeout_ms = confirm_request_ms(timeout, left);
		if (yarn_node_get(y, a->id, &one, &ge) == 0) {
			confirm_seen(a, &one);
		} else if (ge.kind == ERR_NOTFOUND) {
			confirm_seen(a, NULL);
		} else {
			a->read_err = ge;
			if (ge.kind == ERR_TEMP)
				break; /* the RM is not answering: not one timeout per node */
		}
		yarn_node_release(&one);
	}
	y->http.timeout_ms = timeout;
	yarn_nodes_release(&nodes);
}

/* The error of an accepted resize never seen applied. */
static void confirm_failed(struct accepted *a, const struct yarn_cluster *y, int64_t limit,
			   struct sync_stats *st)
{
	struct err e = { 0 };
	char seen[96];

	if (a->read_err.kind != ERR_NONE)
		snprintf(seen, sizeof(seen), "could not be read back");
	else if (a->seen_known)
		snprintf(seen, sizeof(seen), "still lists {%" PRId64 " vCores, %" PRId64 " MB}",
			 a->seen.vcores, a->seen.memory_mb);
	else
		snprintf(seen, sizeof(seen), "does not list the node");
	err_set(&e, a->read_err.kind != ERR_NONE ? a->read_err.kind : ERR_REMOTE, 0,
		"cluster %s: node %s: the RM accepted total {%" PRId64 " vCores, %" PRId64
		" MB} via %s but %s after %" PRId64 " ms (confirmTimeoutMs)%s%s",
		y->id, a->id, a->want.vcores, a->want.memory_mb, a->via, seen, limit,
		a->read_err.kind != ERR_NONE ? ": " : "", a->read_err.msg);
	set_failed(a->out, SYNCREPORT_ITEM, &e, SYNC_R_RESIZE_NOT_CONFIRMED, st);
}

/* Read the RMs back until they list every accepted total, or each
 * cluster's confirmTimeoutMs (counted from the end of the writes) passed:
 * a resize counts as updated only once seen (the RM applies it
 * asynchronously, and a 200 or an rmadmin exit 0 does not prove it: an
 * accepted resize can be lost in a failover, and an rmadmin wrapper can
 * exit 0 having done nothing).  Seen once is enough: a total the RM later
 * loses is the next pass's to re-assert.  The clusters are read in the same
 * rounds, so the wait is the longest limit, not their sum.  The rest
 * become "failed". */
static void confirm_accepted(struct accepted_list *acc, struct sync_rms *rms,
			     const struct sync_config *sc, struct sync_stats *st)
{
	int64_t start = clock_mono_ms();

	for (int round = 0;; round++) {
		int64_t now = clock_mono_ms(), next = 0;
		int waiting = 0;

		for (size_t ci = 0; ci < rms->n; ci++) {
			int64_t deadline = start + sc->clusters[ci].confirm_timeout_ms;
			size_t pending = 0;

			for (size_t i = 0; i < acc->n; i++)
				pending += acc->a[i].cluster == ci && !acc->a[i].confirmed;
			if (pending == 0 || (round > 0 && now > deadline))
				continue;
			confirm_round(acc, ci, pending, &rms->c[ci], deadline, round == 0);
			pending = 0;
			for (size_t i = 0; i < acc->n; i++)
				pending += acc->a[i].cluster == ci && !acc->a[i].confirmed;
			if (pending > 0 && clock_mono_ms() < deadline) {
				waiting = 1;
				next = next == 0 || deadline < next ? deadline : next;
			}
		}
		if (!waiting)
			break;
		now = clock_mono_ms();
		clock_sleep_ms(next - now < CONFIRM_POLL_MS ? (next - now > 0 ? next - now : 0)
							    : CONFIRM_POLL_MS);
	}
	for (size_t i = 0; i < acc->n; i++) {
		struct accepted *a = &acc->a[i];

		if (a->confirmed)
			st->updated++;
		else
			confirm_failed(a, &rms->c[a->cluster],
				       sc->clusters[a->cluster].confirm_timeout_ms, st);
	}
}

void sync_apply(const struct syncplan *plan, const struct sync_config *sc, struct sync_rms *rms,
		struct k8s_client *kc, int dry_run, struct syncreport *report,
		struct sync_stats *st)
{
	struct accepted_list acc = { 0 };

	syncreport_init(report, plan, dry_run);
	for (size_t i = 0; i < plan->n; i++) {
		const struct syncplan_item *item = &plan->items[i];
		struct syncreport_item *out = syncreport_add(report, item);
		struct err ie = { 0 };

		if (item->invalid) {
			/* a bad item costs that item only: nothing is sent for it */
			set_failed(out, SYNCREPORT_ITEM, item->invalid, SYNC_R_INVALID_PLAN_ITEM,
				   st);
			continue;
		}
		if (!dry_run) { /* the node held since the plan: never opened */
			enum sync_reason code = SYNC_R_NONE;

			if (sync_lifecycle_resize_ok(kc, item->doc, &sc->options.lifecycle, &code,
						     &ie) < 0)
				set_failed(out, SYNCREPORT_ITEM, &ie, code, st);
		}
		if (out->part[SYNCREPORT_ITEM].result == SYNCREPORT_NOT_RUN)
			apply_rm(item, out, rms, dry_run, &acc, st);
		apply_annotation(item, out, sc, kc, dry_run, st);
		apply_lifecycle(item, out, sc, rms, kc, dry_run, st);
	}
	confirm_accepted(&acc, rms, sc, st);
	free(acc.a);
	syncreport_finish(report);
}
