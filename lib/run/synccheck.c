// SPDX-License-Identifier: Apache-2.0
/* synccheck - a SyncPlan checked before anything is sent (see syncrun.h) */
#include "run/syncitem.h"

#include <stdio.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/quantity.h"
#include "run/synclife.h"

const char *sync_item_str(const json_t *item, const char *key)
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
	const char *s = sync_item_str(item, "severity");

	return s && strcmp(s, "error") == 0;
}

int sync_item_allocation(const json_t *ann, const char *ctx, const struct sync_options *o,
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

int sync_one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

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

int sync_item_check(const json_t *it, size_t i, const struct sync_config *sc, struct err *e)
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
	if (jsonio_get_str(it, ctx, "action", &action, e) < 0 || !sync_one_of(action, actions))
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
	if (ann &&
	    (jsonio_get_str(ann, sub, "action", &aa, e) < 0 || !sync_one_of(aa, ann_actions)))
		return e->kind != ERR_NONE
			       ? -1
			       : jsonio_bad_value(e, sub, "action", "annotate, none or skip",
						  json_object_get(ann, "action"));
	if (sync_lifecycle_check(it, ctx, sc, e) < 0)
		return -1;
	if (aa && strcmp(aa, "annotate") == 0)
		return sync_item_allocation(ann, ctx, &sc->options, &cpu, &mem, e);
	return 0;
}

int sync_plan_check(const json_t *plan, const struct sync_config *sc, struct err *e)
{
	const char *kind = sync_item_str(plan, "kind");
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

		if (sync_item_check(it, i, sc, e) < 0)
			return -1;
		node = sync_item_str(it, "node");
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
