// SPDX-License-Identifier: Apache-2.0
/* syncrun - kilo-sync's live inputs and the apply step (see syncrun.h) */
#include "run/syncrun.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/quantity.h"
#include "core/xalloc.h"
#include "run/synclife.h"

struct page_ctx {
	struct sync_input *in;
	struct sync_stats *st;
	int nodes; /* 1: a node listing, 0: pods */
};

static int on_page(void *arg, json_t *page, struct err *e)
{
	struct page_ctx *pc = arg;
	json_t *it;
	size_t i;

	if (!page) {
		/* The continue token expired (410): lib/remote/k8s lists again from a
		 * fresh snapshot, so the sums of the earlier pages go, and the
		 * pass goes on with complete sums (client-go's pager does the
		 * same).  Nodes are simply given again. */
		if (!pc->nodes) {
			sync_input_discard_pods(pc->in);
			pc->st->pods = 0;
		}
		pc->st->restarts++;
		return 0;
	}
	pc->st->pages++;
	json_array_foreach(json_object_get(page, "items"), i, it)
	{
		if ((pc->nodes ? sync_input_add_node(pc->in, it, e)
			       : sync_input_add_pod(pc->in, it, e)) < 0)
			return -1;
		if (!pc->nodes)
			pc->st->pods++;
	}
	return 0;
}

void sync_rms_init(struct sync_rms *r, const struct sync_config *sc, http_trace_fn *trace)
{
	r->n = sc->nclusters;
	r->c = xcalloc(r->n + 1, sizeof(*r->c));
	r->down = xcalloc(r->n + 1, sizeof(*r->down));
	r->down_code = xcalloc(r->n + 1, sizeof(*r->down_code));
	for (size_t i = 0; i < r->n; i++) {
		const struct sync_cluster *s = &sc->clusters[i];
		struct yarn_cluster *y = &r->c[i];

		yarn_cluster_init(y);
		y->id = s->id;
		y->rm_urls = s->rm_urls;
		y->n_rm = s->n_rm;
		y->user_name = s->user_name;
		y->http.timeout_ms = s->timeout_ms;
		y->http.tls.ca_file = s->ca_file;
		y->http.tls.cert_file = s->cert_file;
		y->http.tls.key_file = s->key_file;
		y->http.tls.insecure_skip_verify = s->insecure_skip_verify;
		y->http.trace = trace;
		y->rmadmin = s->rmadmin;
		y->rmadmin_timeout_ms = s->rmadmin_timeout_ms;
		for (size_t k = 0; k < s->n_rm; k++)
			http_url_secrets_add(s->rm_urls[k]);
	}
}

void sync_rms_release(struct sync_rms *r)
{
	free(r->c);
	free(r->down);
	free(r->down_code);
	r->down_code = NULL;
	r->c = NULL;
	r->down = NULL;
	r->n = 0;
}

/* The RM client of cluster id, or NULL. */
static struct yarn_cluster *rms_find(struct sync_rms *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->c[i].id, id) == 0)
			return &r->c[i];
	return NULL;
}

/* The code of an RM call of cluster c that failed with e before any
 * answer could be used: what the RMs answered (c->error_status) first. */
static enum sync_reason rm_down_code(const struct yarn_cluster *c, const struct err *e)
{
	if (c->error_status == 401 || c->error_status == 403)
		return SYNC_R_RM_REFUSED;
	if (c->error_status >= 500 || c->error_status == 429)
		return SYNC_R_RM_ERROR;
	if (e->kind == ERR_TEMP)
		return SYNC_R_RM_UNREACHABLE;
	return e->kind == ERR_REMOTE ? SYNC_R_RM_REFUSED : SYNC_R_RM_ANSWER_INVALID;
}

static void gather_rm(struct sync_input *in, struct sync_rms *rms, struct sync_stats *st)
{
	for (size_t i = 0; i < rms->n; i++) {
		struct yarn_cluster *c = &rms->c[i];
		struct yarn_nodes nodes = { 0 };
		struct err e = { 0 };

		st->clusters++;
		err_clear(&rms->down[i]);
		rms->down_code[i] = SYNC_R_NONE;
		if (yarn_nodes_list(c, &nodes, &e) < 0) {
			st->clusters_down++;
			rms->down_code[i] = rm_down_code(c, &e);
			sync_input_cluster_unreachable(in, c->id, rms->down_code[i], e.msg);
			rms->down[i] = e;
			continue;
		}
		sync_input_cluster_rm(in, c->id, c->active, c->active_started_on);
		if (sync_input_add_rm_nodes(in, c->id, &nodes, &e) < 0) {
			rms->down_code[i] = SYNC_R_RM_ANSWER_INVALID;
			sync_input_cluster_unreachable(in, c->id, rms->down_code[i], e.msg);
			rms->down[i] = e;
		}
		yarn_nodes_release(&nodes);
	}
}

/* A listing that failed is a temporary failure of the pass when the
 * server may answer next time: a snapshot that kept expiring (410 after
 * K8S_LIST_RESTARTS restarts) like 429, 5xx and connection errors. */
static int list_failed(const struct k8s_client *kc, struct err *e, const char *what)
{
	if (kc->last_status == 410)
		e->kind = ERR_TEMP;
	return err_wrap(e, "%s", what);
}

int sync_gather(struct sync_input *in, const struct sync_config *sc, struct sync_rms *rms,
		struct k8s_client *kc, const char *const *only_nodes, struct sync_stats *st,
		struct err *e)
{
	int64_t deadline = clock_mono_ms() + sc->pass_timeout_ms;
	struct k8s_list_options pods = {
		.field_selector = "status.phase!=Succeeded,status.phase!=Failed",
		.label_selector = sc->pod_label_selector,
		.limit = sc->page_size,
		.max_pages = sc->max_pages,
		.deadline_ms = deadline,
	};
	struct k8s_list_options nodes = { .limit = sc->page_size,
					  .max_pages = sc->max_pages,
					  .deadline_ms = deadline };
	struct page_ctx pc = { .in = in, .st = st };

	sync_input_set_remote(in);
	if (only_nodes) {
		for (size_t i = 0; only_nodes[i]; i++) {
			json_t *node = k8s_node_get(kc, only_nodes[i], e);
			int ret;

			if (!node)
				return -1;
			ret = sync_input_add_node(in, node, e);
			json_decref(node);
			if (ret < 0)
				return -1;
			if (k8s_pods_list(kc, NULL, only_nodes[i], &pods, on_page, &pc, e) < 0)
				return list_failed(kc, e, "list pods");
		}
	} else {
		pc.nodes = 1;
		if (k8s_nodes_list(kc, &nodes, on_page, &pc, e) < 0)
			return list_failed(kc, e, "list nodes");
		pc.nodes = 0;
		if (k8s_pods_list(kc, NULL, NULL, &pods, on_page, &pc, e) < 0)
			return list_failed(kc, e, "list pods");
	}
	st->nodes = sync_input_nodes(in);
	/* a listing that gave nodes but not one pod (a proxy's empty answer, a
	 * podLabelSelector that selects nothing) would zero every node */
	if (!only_nodes && st->nodes > 0 && sync_input_pods(in) == 0)
		return err_set(e, ERR_TEMP, 0,
			       "listed %zu nodes but no pod: every node would lose its NodeManager "
			       "and YARN's share; nothing applied (check podLabelSelector)",
			       st->nodes);
	gather_rm(in, rms, st);
	if (clock_mono_ms() > deadline) /* the figures may be stale: write nothing */
		return err_set(e, ERR_TEMP, 0,
			       "gathering took longer than passTimeoutMs %lld: nothing applied",
			       (long long)sc->pass_timeout_ms);
	return 0;
}

/* ---- apply ---- */

static void count_error(struct sync_stats *st, const struct err *e)
{
	st->failed++;
	if (e->kind <= ERR_TEMP)
		st->errors[e->kind]++;
}

/* Mark out (a report item or its annotation part) failed with e and code. */
static void set_failed(json_t *out, const struct err *e, enum sync_reason code,
		       struct sync_stats *st)
{
	json_object_set_new(out, "result", json_string("failed"));
	json_object_set_new(out, "error", jsonio_string(e->msg));
	json_object_set_new(out, "errorCode", json_string(sync_reason_code(code)));
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
		return rm_down_code(c, e);
	}
}

static const char *item_str(const json_t *item, const char *key)
{
	return json_string_value(json_object_get(item, key));
}

void sync_redact(json_t *doc)
{
	static const char *const free_text[] = { "reason", "error", NULL };

	jsonio_redact_keys(doc, free_text);
}

int sync_item_bad(const json_t *item)
{
	const char *s = item_str(item, "severity");

	return s && strcmp(s, "error") == 0;
}

/* The hadoop-yarn quantities an item's annotation part asks for. */
static int plan_allocation(const json_t *ann, const char *ctx, const struct sync_options *o,
			   int64_t *cpu, int64_t *mem, struct err *e)
{
	json_t *hy = NULL;
	char sub[80];

	snprintf(sub, sizeof(sub), "%s.annotation", ctx);
	if (jsonio_get_obj(ann, sub, "hadoopYarn", &hy, e) <= 0) {
		if (e->kind == ERR_NONE)
			jsonio_bad_value(e, sub, "hadoopYarn", "an object", NULL);
		return -1;
	}
	snprintf(sub, sizeof(sub), "%s.annotation.hadoopYarn", ctx);
	if (quantity_get_value(hy, sub, o->batch_cpu, 1, cpu, e) < 0 ||
	    quantity_get_value(hy, sub, o->batch_memory, 1, mem, e) < 0)
		return -1;
	if (*cpu < 0 || *mem < 0)
		return jsonio_bad_value(
			e, sub, *cpu < 0 ? o->batch_cpu : o->batch_memory, "a quantity >= 0",
			json_object_get(hy, *cpu < 0 ? o->batch_cpu : o->batch_memory));
	return 0;
}

static int one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

/* Check one SyncPlan item before anything is sent: a plan with a bad item
 * is refused as a whole (ERR_INPUT naming the field and the value). */
/* obj.reasonCode, when present, is a code of the closed list that a plan
 * gives with this action (of an item, or of its annotation part). */
static int check_code(const json_t *obj, const char *ctx, int annotation, struct err *e)
{
	const json_t *v = json_object_get(obj, "reasonCode");
	const char *action = json_string_value(json_object_get(obj, "action"));

	if (!v || sync_reason_fits(action, sync_reason_parse(json_string_value(v)), annotation))
		return 0;
	return jsonio_bad_value(e, ctx, "reasonCode",
				annotation ? "invalid-allocation (doc/SCHEMAS.md) or nothing"
					   : "a reason code of doc/SCHEMAS.md for this action",
				v);
}

static int check_item(const json_t *it, size_t i, const struct sync_config *sc, struct err *e)
{
	static const char *const actions[] = { "update", "none", "skip", NULL };
	static const char *const ann_actions[] = { "annotate", "none", "skip", NULL };
	const char *node = NULL, *action = NULL, *cluster = NULL, *id = NULL, *aa = NULL;
	json_t *total = NULL, *ann = NULL;
	int64_t v, cpu, mem;
	char ctx[48], sub[64];
	int r;

	snprintf(ctx, sizeof(ctx), "SyncPlan.items[%zu]", i);
	if (!json_is_object(it))
		return jsonio_bad_value(e, "SyncPlan", "items[]", "an object", it);
	if (jsonio_get_str(it, ctx, "node", &node, e) <= 0 || !*node)
		return e->kind != ERR_NONE ? -1
					   : jsonio_bad_value(e, ctx, "node", "a node name",
							      json_object_get(it, "node"));
	if (jsonio_get_str(it, ctx, "action", &action, e) < 0 || !one_of(action, actions))
		return e->kind != ERR_NONE
			       ? -1
			       : jsonio_bad_value(e, ctx, "action", "update, none or skip",
						  json_object_get(it, "action"));
	if (strcmp(action, "update") == 0) {
		snprintf(sub, sizeof(sub), "%s.yarnTotal", ctx);
		if (jsonio_get_str(it, ctx, "cluster", &cluster, e) < 0 ||
		    jsonio_get_str(it, ctx, "yarnNodeId", &id, e) < 0 ||
		    jsonio_get_obj(it, ctx, "yarnTotal", &total, e) < 0)
			return -1;
		if (!cluster)
			return jsonio_bad_value(e, ctx, "cluster", "a cluster id", NULL);
		if (!id)
			return jsonio_bad_value(e, ctx, "yarnNodeId", "a YARN node id", NULL);
		if (!total)
			return jsonio_bad_value(e, ctx, "yarnTotal", "an object", NULL);
		if ((r = jsonio_get_int(total, sub, "vCores", 0, INT32_MAX, &v, e)) <= 0)
			return r < 0 ? -1
				     : jsonio_bad_value(e, sub, "vCores",
							"an integer 0..2147483647", NULL);
		if ((r = jsonio_get_int(total, sub, "memoryMB", 0, INT64_MAX, &v, e)) <= 0)
			return r < 0 ? -1
				     : jsonio_bad_value(e, sub, "memoryMB",
							"an integer 0..9223372036854775807", NULL);
		/* the plan always says it: a resize never goes without it */
		if ((r = jsonio_get_int(it, ctx, "overCommitTimeoutMs", -1, INT32_MAX, &v, e)) <= 0)
			return r < 0 ? -1
				     : jsonio_bad_value(e, ctx, "overCommitTimeoutMs",
							"an integer -1..2147483647", NULL);
		if (!sync_config_cluster(sc, cluster))
			return jsonio_bad_value(e, ctx, "cluster", "a cluster of the configuration",
						json_object_get(it, "cluster"));
	}
	if (check_code(it, ctx, 0, e) < 0)
		return -1;
	if (jsonio_get_obj(it, ctx, "annotation", &ann, e) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.annotation", ctx);
	if (ann && json_is_string(json_object_get(ann, "action")) &&
	    strcmp(json_string_value(json_object_get(ann, "action")), "skip") == 0 &&
	    check_code(ann, sub, 1, e) < 0)
		return -1;
	if (ann && (jsonio_get_str(ann, sub, "action", &aa, e) < 0 || !one_of(aa, ann_actions)))
		return e->kind != ERR_NONE
			       ? -1
			       : jsonio_bad_value(e, sub, "action", "annotate, none or skip",
						  json_object_get(ann, "action"));
	if (sync_lifecycle_check(it, ctx, sc, e) < 0)
		return -1;
	if (aa && strcmp(aa, "annotate") == 0)
		return plan_allocation(ann, ctx, &sc->options, &cpu, &mem, e);
	return 0;
}

/* A resize the RM accepted (REST 200, or rmadmin exit 0): "updated" only
 * once the RM lists the new total (confirm_accepted). */
struct accepted {
	json_t *out;               /* its SyncReport item (borrowed) */
	size_t cluster;            /* index into sync_rms.c */
	const char *id;            /* yarnNodeId (borrowed from the plan) */
	struct yarn_resource want; /* the total sent */
	struct yarn_resource seen; /* the total the RM last listed */
	int seen_known, confirmed;
	struct err read_err; /* the last failed read of it, if any */
};

struct accepted_list {
	struct accepted *a;
	size_t n, cap;
};

/* The RM resize of one (checked) item.  Sets "result" and "error" on out;
 * an accepted resize is added to acc, to be confirmed. */
static void apply_rm(const json_t *item, json_t *out, struct sync_rms *rms, int dry_run,
		     struct accepted_list *acc, struct sync_stats *st)
{
	struct yarn_cluster *y;
	const char *action = item_str(item, "action");
	const json_t *total = json_object_get(item, "yarnTotal");
	struct yarn_resize_result res = { 0 };
	struct yarn_resource want;
	struct err e = { 0 };

	if (strcmp(action, "update") != 0) {
		json_object_set_new(out, "result",
				    json_string(strcmp(action, "skip") == 0 ? "skipped"
									    : "unchanged"));
		if (strcmp(action, "skip") == 0) {
			st->skipped++;
			st->skipped_bad += sync_item_bad(item);
		} else
			st->unchanged++;
		return;
	}
	if (dry_run) {
		json_object_set_new(out, "result", json_string("planned"));
		return;
	}
	want.vcores = json_integer_value(json_object_get(total, "vCores"));
	want.memory_mb = json_integer_value(json_object_get(total, "memoryMB"));
	if (!(y = rms_find(rms, item_str(item, "cluster")))) {
		err_set(&e, ERR_USAGE, 0, "cluster %s: no RM client for it",
			item_str(item, "cluster"));
		set_failed(out, &e, SYNC_R_CLUSTER_NOT_CONFIGURED, st);
		return;
	}
	if (yarn_node_resize(y, item_str(item, "yarnNodeId"), want,
			     json_integer_value(json_object_get(item, "overCommitTimeoutMs")), &res,
			     &e) == 0) {
		json_object_set_new(out, "result", json_string("updated"));
		json_object_set_new(out, "via",
				    json_string(res.via == YARN_VIA_REST ? "rest" : "rmadmin"));
		if (acc->n == acc->cap) {
			acc->cap = acc->cap ? 2 * acc->cap : 16;
			acc->a = xrealloc(acc->a, acc->cap * sizeof(*acc->a));
		}
		acc->a[acc->n++] = (struct accepted){ .out = out,
						      .cluster = (size_t)(y - rms->c),
						      .id = item_str(item, "yarnNodeId"),
						      .want = want };
		return;
	}
	set_failed(out, &e, resize_code(y, &res, &e), st);
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

static void apply_annotation(const json_t *item, json_t *out, const struct sync_config *sc,
			     struct k8s_client *kc, int dry_run, struct sync_stats *st)
{
	const json_t *ann = json_object_get(item, "annotation");
	const char *action = item_str(ann, "action"), *node = item_str(item, "node");
	json_t *oann = json_object_get(out, "annotation");
	struct err e = { 0 };
	int64_t cpu = 0, mem = 0;
	int ret = -1, conflict = 0;

	if (!json_is_object(oann))
		return;
	if (!action || strcmp(action, "annotate") != 0) {
		json_object_set_new(oann, "result", json_string("unchanged"));
		return;
	}
	if (dry_run) {
		json_object_set_new(oann, "result", json_string("planned"));
		return;
	}
	plan_allocation(ann, "SyncPlan item", &sc->options, &cpu, &mem, &e); /* checked already */
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
		json_object_set_new(oann, "result", json_string(ret ? "annotated" : "unchanged"));
		if (ret)
			st->annotated++;
		return;
	}
	set_failed(oann, &e,
		   conflict                    ? SYNC_R_ANNOTATION_CONFLICT
		   : e.kind == ERR_NOTFOUND    ? SYNC_R_NODE_NOT_FOUND
		   : e.kind == ERR_INPUT       ? SYNC_R_INVALID_ALLOCATION
		   : e.kind == ERR_TEMP || !kc ? SYNC_R_KUBERNETES_UNREACHABLE
					       : SYNC_R_ANNOTATION_REFUSED,
		   st);
}

/* The lifecycle part: its record and label onto the Node (run/synclife.h). */
static void apply_lifecycle(const json_t *item, json_t *out, const struct sync_config *sc,
			    struct sync_rms *rms, struct k8s_client *kc, int dry_run,
			    struct sync_stats *st)
{
	const json_t *part = json_object_get(item, "lifecycle");
	json_t *opart = json_object_get(out, "lifecycle");
	const char *action = item_str(part, "action"), *dec = item_str(part, "decommission");
	enum sync_reason code = SYNC_R_KUBERNETES_UNREACHABLE;
	struct err e = { 0 };
	int ret = -1, recorded = -1;

	if (!json_is_object(opart))
		return;
	if (!dry_run && dec && strcmp(dec, "none") != 0) {
		/* The record always covers what kilo put on the exclude list: an
		 * exclude is recorded first (over the plan's basis: a stale plan
		 * excludes nothing), so a failed refresh, confirmation or a crash
		 * leaves a record that takes the host off again; an include is
		 * made first, the record (and the label of a return) once the RM
		 * has it. */
		const json_t *h = json_object_get(part, "decommissionHost");
		const char *cluster = item_str(h, "cluster");
		const struct sync_cluster *cfg = sync_config_cluster(sc, cluster);
		struct yarn_cluster *y = rms_find(rms, cluster);
		int add = strcmp(dec, "exclude") == 0;

		if (!cfg || !y) {
			err_set(&e, ERR_USAGE, 0, "cluster %s: no RM client for it", cluster);
			set_failed(opart, &e, SYNC_R_CLUSTER_NOT_CONFIGURED, st);
			return;
		}
		if (add && action && strcmp(action, "record") == 0) {
			json_auto_t *mine = json_deep_copy(part);
			int listed = sync_exclude_listed(cfg, kc, item_str(h, "host"), &e);

			if (listed < 0) {
				set_failed(opart, &e, SYNC_R_EXCLUDE_LIST_FAILED, st);
				return;
			}
			if (listed && !sync_lifecycle_claims(part, item_str(h, "host"))) {
				/* the operator's: kilo claims none, never takes it off */
				json_object_del(mine, "excluded");
				json_object_del(opart, "excluded");
			}
			if (!kc)
				err_set(&e, ERR_USAGE, 0, "no Kubernetes connection");
			else
				recorded = sync_lifecycle_write(kc, item_str(item, "node"), mine,
								&sc->options.lifecycle, &code, &e);
			if (recorded < 0) {
				set_failed(opart, &e, code, st);
				return;
			}
			st->recorded += recorded;
			if (recorded) /* written, whatever follows */
				json_object_set_new(opart, "recorded", json_true());
		} else if (sync_lifecycle_basis_ok(kc, item_str(item, "node"), part, &code, &e) <
			   0) {
			set_failed(opart, &e, code, st); /* a stale plan changes no list */
			return;
		}
		if (sync_decommission(cfg, y, kc, item_str(h, "host"), add,
				      sc->options.lifecycle.decommission_timeout_s,
				      add ? item_str(item, "yarnNodeId") : NULL, &code, &e) < 0) {
			set_failed(opart, &e, code, st);
			return;
		}
		json_object_set_new(opart, "decommissionResult",
				    json_string(add ? "excluded" : "included"));
	}
	if (recorded >= 0) {
		json_object_del(opart, "recorded");
		json_object_set_new(opart, "result",
				    json_string(recorded ? "recorded" : "unchanged"));
		return;
	}
	if (!action || strcmp(action, "record") != 0 || dry_run) {
		json_object_set_new(opart, "result",
				    json_string(action && strcmp(action, "record") == 0
							? "planned"
							: "unchanged"));
		return;
	}
	if (!kc)
		err_set(&e, ERR_USAGE, 0, "no Kubernetes connection");
	else
		ret = sync_lifecycle_write(kc, item_str(item, "node"), part, &sc->options.lifecycle,
					   &code, &e);
	if (ret >= 0) {
		json_object_set_new(opart, "result", json_string(ret ? "recorded" : "unchanged"));
		if (ret)
			st->recorded++;
		return;
	}
	set_failed(opart, &e, code, st);
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
		y->id, a->id, a->want.vcores, a->want.memory_mb, item_str(a->out, "via"), seen,
		limit, a->read_err.kind != ERR_NONE ? ": " : "", a->read_err.msg);
	set_failed(a->out, &e, SYNC_R_RESIZE_NOT_CONFIRMED, st);
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

/* Remove what a pass writes (result, error, errorCode, via, and the same
 * inside annotation) from a copied plan item. */
static void forget_results(json_t *out)
{
	static const char *const keys[] = { "result", "error",    "errorCode",
					    "via",    "recorded", "decommissionResult" };
	json_t *ann = json_object_get(out, "annotation"), *lc = json_object_get(out, "lifecycle");

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_object_del(out, keys[k]);
		if (json_is_object(ann))
			json_object_del(ann, keys[k]);
		if (json_is_object(lc))
			json_object_del(lc, keys[k]);
	}
}

int sync_plan_check(const json_t *plan, const struct sync_config *sc, struct err *e)
{
	const char *kind = item_str(plan, "kind");
	json_t *items = NULL, *it;
	json_auto_t *seen = json_object();
	size_t i;

	if (!kind || strcmp(kind, "SyncPlan") != 0)
		return err_set(e, ERR_INPUT, 0, "expected a SyncPlan, got kind '%s'",
			       kind ? kind : "(none)");
	if (jsonio_get_arr(plan, "SyncPlan", "items", &items, e) < 0)
		return -1;
	if (!items)
		return jsonio_bad_value(e, "SyncPlan", "items", "an array", NULL);

	json_array_foreach(items, i, it)
	{
		const char *node;

		if (check_item(it, i, sc, e) < 0)
			return -1;
		node = item_str(it, "node");
		if (json_object_get(seen, node)) {
			char ctx[48];

			snprintf(ctx, sizeof(ctx), "SyncPlan.items[%zu]", i);
			return jsonio_bad_value(e, ctx, "node", "a node no earlier item names",
						json_object_get(it, "node"));
		}
		json_object_set_new(seen, node, json_true());
	}
	return 0;
}

json_t *sync_apply(const json_t *plan, const struct sync_config *sc, struct sync_rms *rms,
		   struct k8s_client *kc, int dry_run, int per_item, struct sync_stats *st,
		   struct err *e)
{
	json_t *report, *items_out, *it;
	struct accepted_list acc = { 0 };
	size_t i;
	const char *kind = item_str(plan, "kind");
	int shape_ok = kind && strcmp(kind, "SyncPlan") == 0 &&
		       json_is_array(json_object_get(plan, "items"));

	/* per item, only the document's own shape is all-or-nothing */
	if ((!per_item || !shape_ok) && sync_plan_check(plan, sc, e) < 0)
		return NULL;
	report = jsonio_new_doc("SyncReport");
	json_object_set_new(report, "dryRun", json_boolean(dry_run));
	json_object_set(report, "metadata", json_object_get(plan, "metadata"));
	if (json_is_array(json_object_get(plan, "clusters")))
		json_object_set(report, "clusters", json_object_get(plan, "clusters"));
	items_out = json_array();
	json_object_set_new(report, "items", items_out);
	json_array_foreach(json_object_get(plan, "items"), i, it)
	{
		json_t *out = json_is_object(it) ? json_deep_copy(it) : json_object();
		struct err ie = { 0 };

		forget_results(out); /* a report fed back as a plan says nothing of this pass */
		json_array_append_new(items_out, out);
		if (per_item && check_item(it, i, sc, &ie) < 0) {
			/* a bad item costs that item only: nothing is sent for it */
			set_failed(out, &ie, SYNC_R_INVALID_PLAN_ITEM, st);
			continue;
		}
		if (!dry_run) { /* the node held since the plan: never opened */
			enum sync_reason code = SYNC_R_NONE;

			if (sync_lifecycle_resize_ok(kc, it, &sc->options.lifecycle, &code, &ie) <
			    0)
				set_failed(out, &ie, code, st);
		}
		if (!json_object_get(out, "result"))
			apply_rm(it, out, rms, dry_run, &acc, st);
		apply_annotation(it, out, sc, kc, dry_run, st);
		apply_lifecycle(it, out, sc, rms, kc, dry_run, st);
	}
	confirm_accepted(&acc, rms, sc, st);
	free(acc.a);
	json_array_foreach(items_out, i, it)
	{
		json_t *ann = json_object_get(it, "annotation"),
		       *lc = json_object_get(it, "lifecycle");

		if (!json_object_get(it, "error"))
			json_object_set_new(it, "error", json_null());
		if (json_is_object(ann) && !json_object_get(ann, "error"))
			json_object_set_new(ann, "error", json_null());
		if (json_is_object(lc) && !json_object_get(lc, "error"))
			json_object_set_new(lc, "error", json_null());
	}
	return report;
}

/* A no-NodeManager item whose annotation writes (or would write) the share:
 * the zeroing of a share YARN left. */
static int zeroing(const json_t *item, const char *ares, const char *aact)
{
	enum sync_reason r = sync_reason_parse(item_str(item, "reasonCode"));

	if (r != SYNC_R_NO_NODEMANAGER && r != SYNC_R_NODEMANAGER_TERMINATING &&
	    r != SYNC_R_NODEMANAGER_OUTSIDE_NAMESPACES)
		return 0;
	if (ares)
		return strcmp(ares, "annotated") == 0 || strcmp(ares, "planned") == 0;
	return aact && strcmp(aact, "annotate") == 0;
}

void sync_item_state(const json_t *item, struct sync_node_state *out)
{
	const json_t *ann = json_object_get(item, "annotation");
	const json_t *lc = json_object_get(item, "lifecycle");
	const char *result = item_str(item, "result"), *ares = item_str(ann, "result");
	const char *action = item_str(item, "action"), *aact = item_str(ann, "action");
	const char *lres = item_str(lc, "result");
	int failed = result && strcmp(result, "failed") == 0;
	int afailed = ares && strcmp(ares, "failed") == 0;
	int lfailed = lres && strcmp(lres, "failed") == 0;

	memset(out, 0, sizeof(*out));
	if (failed || afailed || lfailed) {
		const json_t *f = failed ? item : afailed ? ann : lc;

		out->state = "failed";
		out->code = item_str(f, "errorCode");
		out->why = item_str(f, "error");
		out->part = failed ? NULL : afailed ? "annotation" : "lifecycle";
	} else if (zeroing(item, ares, aact)) {
		/* no NodeManager: the skip of the resize is the normal path, the
		 * write of the share the node's news */
		out->state = ares && strcmp(ares, "annotated") == 0 ? "updated" : "planned";
		out->code = item_str(item, "reasonCode");
		out->why = item_str(item, "reason");
	} else if ((action && strcmp(action, "skip") == 0) || (aact && strcmp(aact, "skip") == 0)) {
		const json_t *f = action && strcmp(action, "skip") == 0 ? item : ann;

		out->state = "skipped";
		out->code = item_str(f, "reasonCode");
		out->why = item_str(f, "reason");
		out->part = f == item ? NULL : "annotation";
	} else {
		int wrote = (result && strcmp(result, "updated") == 0) ||
			    (ares && strcmp(ares, "annotated") == 0);
		int would = (!result && action && strcmp(action, "update") == 0) ||
			    (!ares && aact && strcmp(aact, "annotate") == 0) ||
			    (result && strcmp(result, "planned") == 0) ||
			    (ares && strcmp(ares, "planned") == 0);

		out->state = wrote ? "updated" : would ? "planned" : "unchanged";
		out->code = item_str(item, "reasonCode");
		out->why = item_str(item, "reason");
	}
}

/* ---- metrics ---- */

/* kilo_sync_node_lifecycle: only when items carry a lifecycle part (the
 * family stays out of the textfile of a kilo-sync without lifecycle). */
static void lifecycle_metric(struct promtext *p, const json_t *report)
{
	size_t i, n = 0;
	json_t *it;

	json_array_foreach(json_object_get(report, "items"), i, it)
	{
		const json_t *lc = json_object_get(it, "lifecycle");
		const char *res = item_str(lc, "result"), *was = item_str(lc, "previous");
		const char *labels[] = { "node",  item_str(it, "node"),  "cluster", NULL,
					 "state", item_str(lc, "state"), NULL };

		if (res && was && strcmp(res, "failed") == 0)
			labels[5] = was; /* not recorded: the node did not move */
		if (!labels[1] || !labels[5])
			continue;
		if (!n++)
			promtext_family(
				p, "kilo_sync_node_lifecycle", "gauge",
				"1 per node of the last pass, labelled with its NodeManager "
				"lifecycle state (active, draining, stuck, offline, "
				"returning; kilo-sync(1) LIFECYCLE)");
		labels[3] = item_str(it, "cluster") ? item_str(it, "cluster") : "";
		promtext_sample_i64(p, "kilo_sync_node_lifecycle", labels, 1);
	}
}

void sync_metrics(struct promtext *p, const json_t *report, const struct sync_rms *rms,
		  const struct sync_stats *st, double duration_s)
{
	static const struct {
		const char *name, *help, *obj, *key;
		int64_t mul;
	} per_node[] = {
		{ "kilo_sync_yarn_total_vcores",
		  "YARN node total as planned for the RM (vCores; nodes not skipped)", "yarnTotal",
		  "vCores", 1 },
		{ "kilo_sync_yarn_total_memory_bytes",
		  "YARN node total as planned for the RM (bytes; nodes not skipped)", "yarnTotal",
		  "memoryMB", 1 << 20 },
		{ "kilo_sync_yarn_used_vcores",
		  "YARN used on the node, as the RM reports it (vCores)", "rmUsed", "vCores", 1 },
		{ "kilo_sync_yarn_used_memory_bytes",
		  "YARN used on the node, as the RM reports it (bytes)", "rmUsed", "memoryMB",
		  1 << 20 },
	};
	static const char *const kinds[] = { "none",     "usage",  "input",    "system",
					     "notfound", "remote", "temporary" };
	json_t *it;
	size_t i;

	for (size_t m = 0; m < sizeof(per_node) / sizeof(per_node[0]); m++) {
		promtext_family(p, per_node[m].name, "gauge", per_node[m].help);
		json_array_foreach(json_object_get(report, "items"), i, it)
		{
			const json_t *v = json_object_get(json_object_get(it, per_node[m].obj),
							  per_node[m].key);
			const char *labels[] = { "node", item_str(it, "node"), "cluster",
						 item_str(it, "cluster"), NULL };

			const char *action = item_str(it, "action");

			if (per_node[m].obj[0] == 'y' && action && strcmp(action, "skip") == 0)
				continue; /* a total nobody was told */
			if (json_is_integer(v) && labels[1] && labels[3])
				promtext_sample_i64(p, per_node[m].name, labels,
						    json_integer_value(v) * per_node[m].mul);
		}
	}
	promtext_family(p, "kilo_sync_node_state", "gauge",
			"1 per node of the last pass, labelled with what became of it (updated, "
			"planned, unchanged, skipped, failed) and why (the reasonCode, or for "
			"failed the errorCode: doc/SCHEMAS.md)");
	json_array_foreach(json_object_get(report, "items"), i, it)
	{
		struct sync_node_state ns;
		const char *labels[] = { "node",    item_str(it, "node"),
					 "cluster", NULL,
					 "state",   NULL,
					 "reason",  NULL,
					 NULL };

		sync_item_state(it, &ns);
		labels[3] = item_str(it, "cluster") ? item_str(it, "cluster") : "";
		labels[5] = ns.state;
		labels[7] = ns.code ? ns.code : "";
		if (labels[1])
			promtext_sample_i64(p, "kilo_sync_node_state", labels, 1);
	}
	lifecycle_metric(p, report);
	promtext_family(p, "kilo_sync_yarn_nodes", "gauge",
			"Nodes of the last pass by YARN cluster and the RM's NodeState of their "
			"NodeManager (unknown: none of YARN's states)");
	{
		json_auto_t *counts = json_object();
		const char *key;
		json_t *v;

		json_array_foreach(json_object_get(report, "items"), i, it)
		{
			const char *st_ = item_str(it, "rmState"), *cl = item_str(it, "cluster");
			char *k;

			if (!st_ || !cl)
				continue;
			k = xasprintf("%s\n%s", yarn_node_state_known(st_) ? st_ : "unknown", cl);
			json_object_set_new(
				counts, k,
				json_integer(json_integer_value(json_object_get(counts, k)) + 1));
			free(k);
		}
		json_object_foreach(counts, key, v)
		{
			const char *nl = strchr(key, '\n');
			cleanup_free char *state = xasprintf("%.*s", (int)(nl - key), key);
			const char *labels[] = { "cluster", nl + 1, "state", state, NULL };

			promtext_sample_i64(p, "kilo_sync_yarn_nodes", labels,
					    json_integer_value(v));
		}
	}
	promtext_family(p, "kilo_sync_rm_nodes_unclaimed", "gauge",
			"Active NodeManagers the cluster's RM lists that no NodeManager pod claims "
			"(their totals are not managed: NodeManagers outside Kubernetes, or pods "
			"that no longer match nodeManagerSelector)");
	json_array_foreach(json_object_get(report, "clusters"), i, it)
	{
		const char *labels[] = { "cluster", item_str(it, "cluster"), NULL };
		const json_t *u = json_object_get(it, "unclaimed");

		if (labels[1] && json_is_integer(u))
			promtext_sample_i64(p, "kilo_sync_rm_nodes_unclaimed", labels,
					    json_integer_value(u));
	}
	promtext_family(p, "kilo_sync_cluster_reachable", "gauge",
			"1 when the RM node list of the YARN cluster was read in the last pass, 0 "
			"when its RMs all failed or answered what cannot be read");
	for (i = 0; rms && i < rms->n && i < st->clusters; i++) {
		const char *labels[] = { "cluster", rms->c[i].id, NULL };

		promtext_sample_i64(p, "kilo_sync_cluster_reachable", labels,
				    rms->down[i].kind == ERR_NONE);
	}
	promtext_family(p, "kilo_sync_items", "gauge", "Actions of the last pass by result");
	{
		const struct {
			const char *result;
			size_t n;
		} r[] = { { "updated", st->updated },
			  { "annotated", st->annotated },
			  { "unchanged", st->unchanged },
			  { "skipped", st->skipped },
			  { "failed", st->failed } };

		for (size_t k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
			const char *labels[] = { "result", r[k].result, NULL };

			promtext_sample_i64(p, "kilo_sync_items", labels, (int64_t)r[k].n);
		}
	}
	promtext_family(
		p, "kilo_sync_nodes_skipped_bad", "gauge",
		"Nodes skipped in the last pass for bad or conflicting data (severity error)");
	promtext_sample_i64(p, "kilo_sync_nodes_skipped_bad", NULL, (int64_t)st->skipped_bad);
	promtext_family(p, "kilo_sync_errors", "gauge", "Failed actions of the last pass by kind");
	for (int k = 1; k <= ERR_TEMP; k++) {
		const char *labels[] = { "kind", kinds[k], NULL };

		promtext_sample_i64(p, "kilo_sync_errors", labels, (int64_t)st->errors[k]);
	}
	promtext_family(
		p, "kilo_sync_annotation_conflicts", "gauge",
		"Annotation writes of the last pass that met a conflict (409) and were re-made");
	promtext_sample_i64(p, "kilo_sync_annotation_conflicts", NULL, (int64_t)st->conflicts);
	promtext_family(
		p, "kilo_sync_list_restarts", "gauge",
		"Listings of the last pass restarted after an expired continue token (410)");
	promtext_sample_i64(p, "kilo_sync_list_restarts", NULL, (int64_t)st->restarts);
	promtext_family(p, "kilo_sync_pass_success", "gauge",
			"1 when the last pass gathered its inputs and ran, 0 when it failed");
	promtext_sample_i64(p, "kilo_sync_pass_success", NULL, report != NULL);
	promtext_family(p, "kilo_sync_clusters_unreachable", "gauge",
			"YARN clusters whose RMs all failed in the last pass");
	promtext_sample_i64(p, "kilo_sync_clusters_unreachable", NULL, (int64_t)st->clusters_down);
	promtext_family(p, "kilo_sync_pass_duration_seconds", "gauge", "Duration of the last pass");
	promtext_sample_f64(p, "kilo_sync_pass_duration_seconds", NULL, duration_s);
	promtext_family(p, "kilo_sync_nodes", "gauge", "Nodes seen in the last pass");
	promtext_sample_i64(p, "kilo_sync_nodes", NULL, (int64_t)st->nodes);
}
