/* SPDX-License-Identifier: Apache-2.0 */
#include "run/synclife.h"

#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "decide/lifecycle.h"

static const char *str_of(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static int is_one_of(const char *s, const char *a, const char *b, const char *c)
{
	return s && (strcmp(s, a) == 0 || strcmp(s, b) == 0 || (c && strcmp(s, c) == 0));
}

int sync_lifecycle_check(const json_t *item, const char *ctx, const struct sync_lifecycle *l,
			 struct err *e)
{
	const json_t *part = json_object_get(item, "lifecycle");
	const char *action, *label, *item_action = str_of(item, "action");
	struct lc_record r;
	char sub[80];
	int st;

	if (!part)
		return 0;
	snprintf(sub, sizeof(sub), "%s.lifecycle", ctx);
	if (!l->enabled)
		return jsonio_bad_value(
			e, ctx, "lifecycle",
			"no lifecycle part (lifecycle is not enabled in the config)", part);
	if (!json_is_object(part))
		return jsonio_bad_value(e, ctx, "lifecycle", "an object", part);
	action = str_of(part, "action");
	label = str_of(part, "label");
	if (!is_one_of(action, "record", "none", NULL))
		return jsonio_bad_value(e, sub, "action", "record or none",
					json_object_get(part, "action"));
	if (!is_one_of(label, "set", "remove", "none"))
		return jsonio_bad_value(e, sub, "label", "set, remove or none",
					json_object_get(part, "label"));
	if (strcmp(label, "none") != 0 && !l->label_key)
		return jsonio_bad_value(e, sub, "label", "none (lifecycle.nodeLabel is not set)",
					json_object_get(part, "label"));
	if (strcmp(label, "none") != 0 && strcmp(action, "record") != 0)
		return jsonio_bad_value(e, sub, "label", "none when action is none",
					json_object_get(part, "label"));
	if (strcmp(action, "record") == 0) {
		const json_t *basis = json_object_get(part, "basis");

		if (lc_record_from_json(part, sub, &r, e) < 0)
			return -1;
		if (!json_is_string(basis) && !json_is_null(basis))
			return jsonio_bad_value(e, sub, "basis",
						"the record the plan read (a string, or null)",
						basis);
		st = (int)r.state;
	} else if ((st = lc_state_parse(str_of(part, "state"))) < 0) {
		return jsonio_bad_value(e, sub, "state",
					"active, draining, stuck, offline or returning",
					json_object_get(part, "state"));
	}
	if ((st == LC_DRAINING || st == LC_STUCK || st == LC_OFFLINE) && item_action &&
	    strcmp(item_action, "update") == 0) {
		const json_t *t = json_object_get(item, "yarnTotal");
		const json_t *oct = json_object_get(item, "overCommitTimeoutMs");

		if (json_integer_value(json_object_get(t, "vCores")) != 0 ||
		    json_integer_value(json_object_get(t, "memoryMB")) != 0)
			return jsonio_bad_value(e, ctx, "yarnTotal",
						"0/0 for a node the lifecycle holds (draining, "
						"stuck, offline)",
						t);
		if (!json_is_integer(oct) || json_integer_value(oct) != -1)
			return jsonio_bad_value(e, ctx, "overCommitTimeoutMs",
						"-1 for a node the lifecycle holds (nothing is "
						"killed)",
						oct);
	}
	return 0;
}

/* 1 when node (a Node object) holds the record value and the label as the
 * action wants it. */
static int holds(const json_t *node, const char *value, const char *label,
		 const struct sync_lifecycle *l)
{
	const json_t *meta = json_object_get(node, "metadata");
	const char *have = str_of(json_object_get(meta, "annotations"), LC_ANNOTATION);
	const char *lv = l->label_key ? str_of(json_object_get(meta, "labels"), l->label_key)
				      : NULL;

	if (!have || strcmp(have, value) != 0)
		return 0;
	if (strcmp(label, "set") == 0)
		return lv && strcmp(lv, l->label_value) == 0;
	if (strcmp(label, "remove") == 0)
		return !lv;
	return 1;
}

static int write_once(struct k8s_client *kc, const char *node, const char *value, const char *basis,
		      const char *label, const struct sync_lifecycle *l, int *stale, struct err *e)
{
	json_auto_t *cur = k8s_node_get(kc, node, e);
	json_auto_t *patched = NULL, *ann = NULL, *labels = NULL;
	const char *rv, *have;

	if (!cur)
		return -1;
	if (holds(cur, value, label, l))
		return 0;
	have = str_of(json_object_get(json_object_get(cur, "metadata"), "annotations"),
		      LC_ANNOTATION);
	if ((have || basis) && (!have || !basis || strcmp(have, basis) != 0)) {
		*stale = 1; /* someone else wrote (or deleted) it: theirs stands */
		return err_set(e, ERR_TEMP, 0,
			       "node %s: its lifecycle record changed since the plan read it: not "
			       "overwritten (the next pass decides from the new one)",
			       node);
	}
	rv = str_of(json_object_get(cur, "metadata"), "resourceVersion");
	ann = json_pack("{s:s}", LC_ANNOTATION, value);
	if (strcmp(label, "set") == 0)
		labels = json_pack("{s:s}", l->label_key, l->label_value);
	else if (strcmp(label, "remove") == 0)
		labels = json_pack("{s:n}", l->label_key);
	if (!(patched = k8s_node_patch_metadata(kc, node, ann, labels, rv, e)))
		return -1;
	if (!holds(patched, value, label, l))
		return err_set(e, ERR_TEMP, 0,
			       "node %s: the API server's answer to the lifecycle patch does not "
			       "carry it (record or label %s)",
			       node, l->label_key ? l->label_key : "");
	return 1;
}

int sync_lifecycle_write(struct k8s_client *kc, const char *node, const json_t *part,
			 const struct sync_lifecycle *l, enum sync_reason *code, struct err *e)
{
	struct lc_record r;
	cleanup_free char *value = NULL;
	const char *label = str_of(part, "label"), *basis = str_of(part, "basis");
	int ret, stale = 0;

	if (lc_record_from_json(part, "lifecycle", &r, e) < 0) { /* checked already */
		*code = SYNC_R_INVALID_PLAN_ITEM;
		return -1;
	}
	value = lc_record_format(&r);
	ret = write_once(kc, node, value, basis, label, l, &stale, e);
	if (ret < 0 && !stale && kc->last_status == 409) {
		err_clear(e);
		ret = write_once(kc, node, value, basis, label, l, &stale, e);
	}
	if (ret < 0 && (stale || kc->last_status == 409)) {
		*code = SYNC_R_ANNOTATION_CONFLICT;
		return -1;
	}
	if (ret < 0)
		*code = e->kind == ERR_NOTFOUND ? SYNC_R_NODE_NOT_FOUND
			: e->kind == ERR_TEMP   ? SYNC_R_KUBERNETES_UNREACHABLE
						: SYNC_R_ANNOTATION_REFUSED;
	return ret;
}
