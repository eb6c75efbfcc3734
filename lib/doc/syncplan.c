// SPDX-License-Identifier: Apache-2.0
/* syncplan - the SyncPlan document (see syncplan.h) */
#include "doc/syncplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/quantity.h"
#include "core/xalloc.h"

static const char *const reason_codes[SYNC_R_COUNT] = {
#define SYNC_R_NAME(name, code) [SYNC_R_##name] = code,
	SYNC_PLAN_REASONS(SYNC_R_NAME) SYNC_APPLY_REASONS(SYNC_R_NAME)
#undef SYNC_R_NAME
};

const char *sync_reason_code(enum sync_reason r)
{
	return r > SYNC_R_NONE && r < SYNC_R_COUNT ? reason_codes[r] : NULL;
}

enum sync_reason sync_reason_parse(const char *s)
{
	for (int r = SYNC_R_NONE + 1; s && r < SYNC_R_COUNT; r++)
		if (strcmp(reason_codes[r], s) == 0)
			return (enum sync_reason)r;
	return SYNC_R_NONE;
}

int sync_reason_fits(const char *action, enum sync_reason r, int annotation)
{
	if (annotation)
		return r == SYNC_R_INVALID_ALLOCATION;
	if (!action)
		return 0;
	if (strcmp(action, "update") == 0)
		return r == SYNC_R_TOTAL_DIFFERS || r == SYNC_R_TOTAL_DAMPED ||
		       r == SYNC_R_LIFECYCLE_HOLD;
	if (strcmp(action, "none") == 0)
		return r == SYNC_R_TOTAL_MATCHES || r == SYNC_R_TOTAL_WITHIN_DEADBAND ||
		       r == SYNC_R_LIFECYCLE_HOLD;
	return strcmp(action, "skip") == 0 && r > SYNC_R_NONE && r < SYNC_R_TOTAL_DIFFERS;
}

static const char *const actions[] = { "none", "update", "skip", NULL };
static const char *const ann_actions[] = { NULL, "none", "annotate", "skip", NULL };

/* The index of s in set (from first), or -1. */
static int index_of(const char *s, const char *const *set, int first)
{
	for (int i = first; s && set[i]; i++)
		if (strcmp(s, set[i]) == 0)
			return i;
	return -1;
}

/* ---- building ---- */

void syncplan_clusters_view(const json_t *clusters, struct syncplan_cluster **out, size_t *n)
{
	const json_t *c;
	size_t i;

	*n = json_array_size(clusters);
	*out = *n ? xmalloc(*n * sizeof(**out)) : NULL;
	json_array_foreach(clusters, i, c)
	{
		const json_t *u = json_object_get(c, "unclaimed");

		(*out)[i] = (struct syncplan_cluster){
			.cluster = json_string_value(json_object_get(c, "cluster")),
			.first_unclaimed = json_string_value(json_object_get(c, "firstUnclaimed")),
			.rm_nodes = json_integer_value(json_object_get(c, "rmNodes")),
			.unclaimed = json_is_integer(u) ? json_integer_value(u) : -1
		};
	}
}

void syncplan_init(struct syncplan *p, json_t *metadata, json_t *clusters)
{
	*p = (struct syncplan){ .metadata = metadata, .clusters = clusters };
}

/* *it around doc (stolen), figures unknown. */
static void item_init(struct syncplan_item *it, json_t *doc)
{
	*it = (struct syncplan_item){ .doc = doc,
				      .yarn_total = { .memory_mb = -1, .vcores = -1 },
				      .over_commit_timeout_ms = -1,
				      .ann_cpu_milli = -1,
				      .ann_memory_bytes = -1 };
}

/* A new item of p around doc (stolen), figures unknown. */
static struct syncplan_item *add_doc(struct syncplan *p, json_t *doc)
{
	struct syncplan_item *it;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->items = xrealloc(p->items, p->cap * sizeof(*p->items));
	}
	it = &p->items[p->n++];
	item_init(it, doc);
	return it;
}

/* Set key to a string (null for NULL); the stored text, or NULL. */
static const char *set_str(json_t *obj, const char *key, const char *s)
{
	json_t *v = s ? json_string(s) : json_null();

	json_object_set_new(obj, key, v);
	return json_string_value(v);
}

struct syncplan_item *syncplan_add(struct syncplan *p, const char *node, const char *cluster,
				   const char *yarn_node_id)
{
	struct syncplan_item *it = add_doc(p, json_object());

	it->node = set_str(it->doc, "node", node);
	it->cluster = set_str(it->doc, "cluster", cluster);
	it->yarn_node_id = set_str(it->doc, "yarnNodeId", yarn_node_id);
	return it;
}

/* The descriptive members typed on the item (syncplan_item_bind()). */
static void bind_described(struct syncplan_item *it)
{
	const json_t *cand = json_object_get(it->doc, "candidates");

	it->rm_state = json_string_value(json_object_get(it->doc, "rmState"));
	it->ignored_pod = json_string_value(json_object_get(it->doc, "ignoredPod"));
	it->candidates = json_is_array(cand) ? cand : NULL;
}

/* The lifecycle part's members typed on the item. */
static void bind_lifecycle(struct syncplan_item *it)
{
	const json_t *lc = it->lifecycle;

	it->lc_state = json_string_value(json_object_get(lc, "state"));
	it->lc_previous = json_string_value(json_object_get(lc, "previous"));
	it->lc_reason = json_string_value(json_object_get(lc, "reason"));
	it->lc_excluded = json_object_get(lc, "excluded") != NULL;
}

void syncplan_item_set(struct syncplan_item *it, const char *key, json_t *value)
{
	json_object_set_new(it->doc, key, value);
	if (strcmp(key, "rmState") == 0 || strcmp(key, "ignoredPod") == 0 ||
	    strcmp(key, "candidates") == 0)
		bind_described(it);
}

void syncplan_item_set_action(struct syncplan_item *it, enum syncplan_action a)
{
	it->action = a;
	json_object_set_new(it->doc, "action", json_string(actions[a]));
}

void syncplan_item_set_reason(struct syncplan_item *it, const char *reason, enum sync_reason code)
{
	json_t *v = json_string(reason ? reason : "(no memory)");

	it->reason_code = code;
	it->reason = json_string_value(v);
	json_object_set_new(it->doc, "reason", v);
	json_object_set_new(it->doc, "reasonCode", json_string(sync_reason_code(code)));
}

void syncplan_item_set_bad(struct syncplan_item *it)
{
	it->bad = 1;
	json_object_set_new(it->doc, "severity", json_string("error"));
}

json_t *syncplan_yarn_resource(struct yarn_resource r)
{
	return json_pack("{s:I,s:I}", "vCores", (json_int_t)r.vcores, "memoryMB",
			 (json_int_t)r.memory_mb);
}

void syncplan_item_set_total(struct syncplan_item *it, struct yarn_resource total)
{
	it->yarn_total = total;
	json_object_set_new(it->doc, "yarnTotal", syncplan_yarn_resource(total));
}

void syncplan_item_set_over_commit(struct syncplan_item *it, int64_t ms)
{
	it->over_commit_timeout_ms = ms;
	json_object_set_new(it->doc, "overCommitTimeoutMs", json_integer(ms));
}

json_t *syncplan_quantities(const struct sync_options *o, int64_t cpu_milli, int64_t memory_bytes)
{
	char qc[QUANTITY_STR_MAX], qm[QUANTITY_STR_MAX];
	struct quantity c = quantity_from_int(cpu_milli, QUANTITY_DECIMAL_SI);
	struct quantity m = quantity_from_int(memory_bytes, QUANTITY_BINARY_SI);

	return json_pack("{s:s,s:s}", o->batch_cpu, quantity_format(&c, qc), o->batch_memory,
			 quantity_format(&m, qm));
}

void syncplan_item_set_annotation(struct syncplan_item *it, enum syncplan_ann a,
				  const struct sync_options *o, int64_t cpu_milli,
				  int64_t memory_bytes, const char *why)
{
	json_t *part;

	it->ann = a;
	it->ann_cpu_milli = it->ann_memory_bytes = -1;
	if (a == SYNCPLAN_ANN_SKIP) {
		part = json_pack("{s:s,s:s,s:s}", "action", "skip", "reason", why, "reasonCode",
				 sync_reason_code(SYNC_R_INVALID_ALLOCATION));
		it->ann_reason_code = SYNC_R_INVALID_ALLOCATION;
		it->ann_reason = json_string_value(json_object_get(part, "reason"));
	} else {
		part = json_pack("{s:s}", "action", ann_actions[a]);
		if (cpu_milli >= 0)
			json_object_set_new(part, "hadoopYarn",
					    syncplan_quantities(o, cpu_milli, memory_bytes));
		if (a == SYNCPLAN_ANN_ANNOTATE) {
			it->ann_cpu_milli = cpu_milli;
			it->ann_memory_bytes = memory_bytes;
		}
	}
	json_object_set_new(it->doc, "annotation", part);
}

void syncplan_item_set_lifecycle(struct syncplan_item *it, json_t *part)
{
	it->lifecycle = part;
	json_object_set_new(it->doc, "lifecycle", part);
	bind_lifecycle(it);
}

/* ---- reading ---- */

/* obj.reasonCode, when present, is a code of the closed list that a plan
 * gives with this action (of an item, or of its annotation part). */
static int check_code(const json_t *obj, const char *ctx, int annotation, enum sync_reason *out,
		      struct err *e)
{
	const json_t *v = json_object_get(obj, "reasonCode");
	const char *action = json_string_value(json_object_get(obj, "action"));

	*out = sync_reason_parse(json_string_value(v));
	if (!v || sync_reason_fits(action, *out, annotation))
		return 0;
	return jsonio_bad_value(e, ctx, "reasonCode",
				annotation ? "invalid-allocation (doc/SCHEMAS.md) or nothing"
					   : "a reason code of doc/SCHEMAS.md for this action",
				v);
}

/* The hadoop-yarn quantities of an annotate part ann (ctx names the item):
 * 0, or -1 with e set. */
static int read_allocation(const json_t *ann, const char *ctx, const struct sync_options *o,
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

/* An integer member required by an update: 0, or -1 with e set. */
static int need_int(const json_t *obj, const char *ctx, const char *key, int64_t min, int64_t max,
		    const char *what, int64_t *out, struct err *e)
{
	int r = jsonio_get_int(obj, ctx, key, min, max, out, e);

	return r > 0 ? 0 : r < 0 ? -1 : jsonio_bad_value(e, ctx, key, what, NULL);
}

/* The members an update needs (cluster, yarnNodeId, yarnTotal,
 * overCommitTimeoutMs) into it: 0, or -1 with e set. */
static int read_update(const json_t *doc, const char *ctx, const struct sync_config *sc,
		       struct syncplan_item *it, struct err *e)
{
	const char *cluster = NULL, *id = NULL;
	json_t *total = NULL;
	char sub[64];

	snprintf(sub, sizeof(sub), "%s.yarnTotal", ctx);
	if (jsonio_get_str(doc, ctx, "cluster", &cluster, e) < 0 ||
	    jsonio_get_str(doc, ctx, "yarnNodeId", &id, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "yarnTotal", &total, e) < 0)
		return -1;
	if (!cluster)
		return jsonio_bad_value(e, ctx, "cluster", "a cluster id", NULL);
	if (!id)
		return jsonio_bad_value(e, ctx, "yarnNodeId", "a YARN node id", NULL);
	if (!total)
		return jsonio_bad_value(e, ctx, "yarnTotal", "an object", NULL);
	if (need_int(total, sub, "vCores", 0, INT32_MAX, "an integer 0..2147483647",
		     &it->yarn_total.vcores, e) < 0 ||
	    need_int(total, sub, "memoryMB", 0, INT64_MAX, "an integer 0..9223372036854775807",
		     &it->yarn_total.memory_mb, e) < 0 ||
	    /* the plan always says it: a resize never goes without it */
	    need_int(doc, ctx, "overCommitTimeoutMs", -1, INT32_MAX, "an integer -1..2147483647",
		     &it->over_commit_timeout_ms, e) < 0)
		return -1;
	if (!sync_config_cluster(sc, cluster))
		return jsonio_bad_value(e, ctx, "cluster", "a cluster of the configuration",
					json_object_get(doc, "cluster"));
	return 0;
}

/* Item doc (ctx "SyncPlan.items[3]") into it, by the rules
 * syncplan_from_json() says: 0, or -1 with e set. */
static int read_item(const json_t *doc, const char *ctx, const struct sync_config *sc,
		     syncplan_part_check *lifecycle_check, struct syncplan_item *it, struct err *e)
{
	const char *action = NULL, *aa = NULL;
	json_t *ann = NULL;
	char sub[80];
	int a;

	if (!json_is_object(doc)) {
		const char *dot = strrchr(ctx, '.');
		char kind[32];

		snprintf(kind, sizeof(kind), "%.*s", dot ? (int)(dot - ctx) : 0, ctx);
		return jsonio_bad_value(e, kind, "items[]", "an object", doc);
	}
	if (jsonio_get_str(doc, ctx, "node", &it->node, e) <= 0 || !*it->node)
		return e->kind != ERR_NONE ? -1
					   : jsonio_bad_value(e, ctx, "node", "a node name",
							      json_object_get(doc, "node"));
	if (jsonio_get_str(doc, ctx, "action", &action, e) < 0 ||
	    (a = index_of(action, actions, 0)) < 0)
		return e->kind != ERR_NONE
			       ? -1
			       : jsonio_bad_value(e, ctx, "action", "update, none or skip",
						  json_object_get(doc, "action"));
	it->action = (enum syncplan_action)a;
	it->cluster = json_string_value(json_object_get(doc, "cluster"));
	it->yarn_node_id = json_string_value(json_object_get(doc, "yarnNodeId"));
	if (it->action == SYNCPLAN_UPDATE && read_update(doc, ctx, sc, it, e) < 0)
		return -1;
	if (check_code(doc, ctx, 0, &it->reason_code, e) < 0)
		return -1;
	if (jsonio_get_obj(doc, ctx, "annotation", &ann, e) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.annotation", ctx);
	if (ann && json_is_string(json_object_get(ann, "action")) &&
	    strcmp(json_string_value(json_object_get(ann, "action")), "skip") == 0 &&
	    check_code(ann, sub, 1, &it->ann_reason_code, e) < 0)
		return -1;
	if (ann && (jsonio_get_str(ann, sub, "action", &aa, e) < 0 ||
		    (a = index_of(aa, ann_actions, 1)) < 0))
		return e->kind != ERR_NONE
			       ? -1
			       : jsonio_bad_value(e, sub, "action", "annotate, none or skip",
						  json_object_get(ann, "action"));
	it->ann = ann ? (enum syncplan_ann)a : SYNCPLAN_ANN_ABSENT;
	if (lifecycle_check && lifecycle_check(doc, ctx, sc, e) < 0)
		return -1;
	syncplan_item_bind(it);
	it->bad = json_is_string(json_object_get(doc, "severity")) &&
		  strcmp(json_string_value(json_object_get(doc, "severity")), "error") == 0;
	if (it->ann == SYNCPLAN_ANN_ANNOTATE)
		return read_allocation(ann, ctx, &sc->options, &it->ann_cpu_milli,
				       &it->ann_memory_bytes, e);
	return 0;
}

void syncplan_item_bind(struct syncplan_item *it)
{
	const json_t *ann = json_object_get(it->doc, "annotation");
	const json_t *lc = json_object_get(it->doc, "lifecycle");

	it->node = json_string_value(json_object_get(it->doc, "node"));
	it->cluster = json_string_value(json_object_get(it->doc, "cluster"));
	it->yarn_node_id = json_string_value(json_object_get(it->doc, "yarnNodeId"));
	it->reason = json_string_value(json_object_get(it->doc, "reason"));
	it->ann_reason = json_string_value(json_object_get(ann, "reason"));
	it->lifecycle = json_is_object(lc) ? (json_t *)lc : NULL;
	bind_lifecycle(it);
	bind_described(it);
}

void syncplan_item_view(struct syncplan_item *it)
{
	const json_t *ann = json_object_get(it->doc, "annotation");
	const char *sev = json_string_value(json_object_get(it->doc, "severity"));
	int a = index_of(json_string_value(json_object_get(it->doc, "action")), actions, 0);
	int aa = index_of(json_string_value(json_object_get(ann, "action")), ann_actions, 1);

	item_init(it, it->doc);
	syncplan_item_bind(it);
	it->action = a < 0 ? SYNCPLAN_NONE : (enum syncplan_action)a;
	it->reason_code =
		sync_reason_parse(json_string_value(json_object_get(it->doc, "reasonCode")));
	it->ann = !json_is_object(ann) ? SYNCPLAN_ANN_ABSENT
		  : aa < 0             ? SYNCPLAN_ANN_NONE
				       : (enum syncplan_ann)aa;
	it->ann_reason_code =
		sync_reason_parse(json_string_value(json_object_get(ann, "reasonCode")));
	it->bad = sev && strcmp(sev, "error") == 0;
}

int syncplan_item_from_json(const json_t *v, const char *ctx, const struct sync_config *sc,
			    syncplan_part_check *lifecycle_check, struct syncplan_item *it,
			    struct err *e)
{
	item_init(it, json_is_object(v) ? json_incref((json_t *)v) : json_object());
	if (read_item(v, ctx, sc, lifecycle_check, it, e) == 0)
		return 0;
	syncplan_item_view(it);
	return -1;
}

int syncplan_from_json(const json_t *doc, const struct sync_config *sc,
		       syncplan_part_check *lifecycle_check, int per_item, struct syncplan *out,
		       struct err *e)
{
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	json_t *items = NULL, *v;
	json_auto_t *seen = json_object();
	size_t i;

	syncplan_init(out, NULL, NULL);
	if (!kind || strcmp(kind, "SyncPlan") != 0)
		return err_set(e, ERR_INPUT, 0, "expected a SyncPlan, got kind '%s'",
			       kind ? kind : "(none)");
	if (jsonio_get_arr(doc, "SyncPlan", "items", &items, e) < 0)
		return -1;
	if (!items)
		return jsonio_bad_value(e, "SyncPlan", "items", "an array", NULL);
	out->metadata = json_incref(json_object_get(doc, "metadata"));
	if (json_is_array(json_object_get(doc, "clusters")))
		out->clusters = json_incref(json_object_get(doc, "clusters"));
	json_array_foreach(items, i, v)
	{
		struct syncplan_item *it = add_doc(out, NULL);
		struct err ie = { 0 };
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "SyncPlan.items[%zu]", i);
		if (syncplan_item_from_json(v, ctx, sc, lifecycle_check, it, per_item ? &ie : e) <
		    0) {
			if (per_item) {
				it->invalid = xmalloc(sizeof(*it->invalid));
				*it->invalid = ie;
				continue;
			}
			syncplan_release(out);
			return -1;
		}
		if (per_item)
			continue; /* a live plan's nodes are distinct by construction */
		if (json_object_get(seen, it->node)) {
			syncplan_release(out);
			return jsonio_bad_value(e, ctx, "node", "a node no earlier item names",
						json_object_get(v, "node"));
		}
		json_object_set_new(seen, it->node, json_true());
	}
	return 0;
}

/* ---- writing ---- */

json_t *syncplan_to_json(const struct syncplan *p)
{
	json_t *doc = jsonio_new_doc("SyncPlan"), *items = json_array();

	if (p->metadata)
		json_object_set(doc, "metadata", p->metadata);
	if (p->clusters)
		json_object_set(doc, "clusters", p->clusters);
	for (size_t i = 0; i < p->n; i++)
		json_array_append(items, p->items[i].doc);
	json_object_set_new(doc, "items", items);
	return doc;
}

void syncplan_release(struct syncplan *p)
{
	while (p->n > 0) {
		json_decref(p->items[--p->n].doc);
		free(p->items[p->n].invalid);
	}
	free(p->items);
	json_decref(p->metadata);
	json_decref(p->clusters);
	*p = (struct syncplan){ 0 };
}
