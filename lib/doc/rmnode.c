// SPDX-License-Identifier: Apache-2.0
/* rmnode - the ResourceManager's node documents (see rmnode.h) */
#include "doc/rmnode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"

int yarn_node_state_inactive(const char *state)
{
	static const char *const inactive[] = { "DECOMMISSIONED", "LOST", "SHUTDOWN", "REBOOTED" };

	for (size_t i = 0; state && i < sizeof(inactive) / sizeof(inactive[0]); i++)
		if (strcmp(state, inactive[i]) == 0)
			return 1;
	return 0;
}

int yarn_node_state_known(const char *state)
{
	static const char *const states[] = {
		"NEW",  "RUNNING",  "UNHEALTHY",       "DECOMMISSIONED",
		"LOST", "REBOOTED", "DECOMMISSIONING", "SHUTDOWN"
	};

	for (size_t i = 0; state && i < sizeof(states) / sizeof(states[0]); i++)
		if (strcmp(state, states[i]) == 0)
			return 1;
	return 0;
}

void yarn_node_release(struct yarn_node *n)
{
	free(n->id);
	free(n->state);
	free(n->host);
	free(n->bad);
	memset(n, 0, sizeof(*n));
}

/* a + b, or -1 with e set when the sum overflows. */
static int add_checked(int64_t a, int64_t b, int64_t *sum, const char *ctx, const char *what,
		       struct err *e)
{
	if (__builtin_add_overflow(a, b, sum))
		return err_set(e, ERR_INPUT, 0, "%s: %s overflows", ctx, what);
	return 0;
}

/* Read key as a required integer; missing is an error naming it. */
static int need_int(const json_t *obj, const char *ctx, const char *key, int64_t min, int64_t *out,
		    struct err *e)
{
	int ret = jsonio_get_int(obj, ctx, key, min, INT64_MAX, out, e);

	if (ret == 0)
		return err_set(e, ERR_INPUT, 0, "%s.%s: missing", ctx, key);
	return ret < 0 ? -1 : 0;
}

/* Read key as a required non-empty string (borrowed). */
static int need_str(const json_t *obj, const char *ctx, const char *key, const char **out,
		    struct err *e)
{
	int ret = jsonio_get_str(obj, ctx, key, out, e);

	if (ret == 0 || (ret > 0 && !**out))
		return err_set(e, ERR_INPUT, 0, "%s.%s: missing", ctx, key);
	return ret < 0 ? -1 : 0;
}

int yarn_node_parse(const json_t *obj, const char *ctx, struct yarn_node *out, struct err *e)
{
	const char *id = NULL, *state = NULL, *host = "";
	int64_t avail_mb = 0, avail_vc = 0;
	json_t *total = NULL;
	struct yarn_node n = { 0 };
	char sub[256];
	int ret, rc, ru, rv;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj))
		return err_set(e, ERR_INPUT, 0, "%s: expected an object", ctx);
	if (need_str(obj, ctx, "id", &id, e) < 0 || need_str(obj, ctx, "state", &state, e) < 0 ||
	    jsonio_get_str(obj, ctx, "nodeHostName", &host, e) < 0)
		return -1;
	if ((rc = jsonio_get_int(obj, ctx, "numContainers", 0, INT64_MAX, &n.containers, e)) < 0 ||
	    jsonio_get_obj(obj, ctx, "totalResource", &total, e) < 0)
		return -1;
	/* Inactive nodes carry zeros; a node without a scheduler report may
	 * lack the used fields: both mean nothing used for a resize, but they
	 * are no evidence that nothing runs there (counted). */
	if ((ru = jsonio_get_int(obj, ctx, "usedMemoryMB", INT64_MIN, INT64_MAX, &n.used.memory_mb,
				 e)) < 0 ||
	    (rv = jsonio_get_int(obj, ctx, "usedVirtualCores", INT64_MIN, INT64_MAX, &n.used.vcores,
				 e)) < 0)
		return -1;
	n.counted = rc > 0 && ru > 0 && rv > 0;
	if (total) {
		snprintf(sub, sizeof(sub), "%s.totalResource", ctx);
		if (need_int(total, sub, "memory", 0, &n.total.memory_mb, e) < 0 ||
		    need_int(total, sub, "vCores", 0, &n.total.vcores, e) < 0)
			return -1;
		n.total_reported = 1;
	} else {
		ret = jsonio_get_int(obj, ctx, "availMemoryMB", INT64_MIN, INT64_MAX, &avail_mb, e);
		if (ret == 0)
			return err_set(
				e, ERR_INPUT, 0,
				"%s: expected totalResource or usedMemoryMB and availMemoryMB",
				ctx);
		if (ret < 0 ||
		    need_int(obj, ctx, "availableVirtualCores", INT64_MIN, &avail_vc, e) < 0 ||
		    add_checked(n.used.memory_mb, avail_mb, &n.total.memory_mb, ctx,
				"usedMemoryMB + availMemoryMB", e) < 0 ||
		    add_checked(n.used.vcores, avail_vc, &n.total.vcores, ctx,
				"usedVirtualCores + availableVirtualCores", e) < 0)
			return -1;
	}
	n.id = xstrdup(id);
	n.state = xstrdup(state);
	n.host = xstrdup(host);
	n.inactive = yarn_node_state_inactive(state);
	*out = n;
	return 0;
}

void yarn_nodes_release(struct yarn_nodes *nodes)
{
	for (size_t i = 0; i < nodes->n; i++)
		yarn_node_release(&nodes->items[i]);
	free(nodes->items);
	nodes->items = NULL;
	nodes->n = 0;
}

/* What is readable of an item yarn_node_parse() refused, and why. */
static void keep_bad(const json_t *obj, const struct err *why, struct yarn_node *out)
{
	const char *id = json_string_value(json_object_get(obj, "id"));
	const char *host = json_string_value(json_object_get(obj, "nodeHostName"));

	memset(out, 0, sizeof(*out));
	out->id = xstrdup(id ? id : "");
	out->state = xstrdup("");
	out->host = xstrdup(host ? host : "");
	out->bad = xstrdup(why->msg);
}

int yarn_nodes_parse(const json_t *doc, enum yarn_nodes_mode mode, struct yarn_nodes *out,
		     struct err *e)
{
	json_t *wrap = NULL, *list = NULL;
	char ctx[64];

	out->items = NULL;
	out->n = 0;
	/* {} or another document is no list (threat-model.md: never "empty") */
	if (!json_is_object(doc) || !json_object_get(doc, "nodes"))
		return err_set(e, ERR_INPUT, 0, "not an RM nodes list (no \"nodes\" member)");
	if (jsonio_get_obj(doc, "", "nodes", &wrap, e) < 0 ||
	    (wrap && jsonio_get_arr(wrap, "nodes", "node", &list, e) < 0))
		return -1;
	if (!list)
		return 0;
	out->items = xcalloc(json_array_size(list) + 1, sizeof(*out->items));
	for (size_t i = 0; i < json_array_size(list); i++) {
		const json_t *obj = json_array_get(list, i);

		snprintf(ctx, sizeof(ctx), "nodes.node[%zu]", i);
		if (yarn_node_parse(obj, ctx, &out->items[i], e) < 0) {
			if (mode == YARN_NODES_STRICT) {
				yarn_nodes_release(out);
				return -1;
			}
			keep_bad(obj, e, &out->items[i]);
			err_clear(e);
		}
		out->n = i + 1;
	}
	return 0;
}

const struct yarn_node *yarn_nodes_find(const struct yarn_nodes *nodes, const char *id)
{
	for (size_t i = 0; i < nodes->n; i++)
		if (*nodes->items[i].id && strcmp(nodes->items[i].id, id) == 0)
			return &nodes->items[i];
	return NULL;
}

int yarn_cluster_info_parse(const json_t *doc, enum yarn_ha_state *state, struct err *e)
{
	static const struct {
		const char *name;
		enum yarn_ha_state state;
	} names[] = {
		{ "ACTIVE", YARN_HA_ACTIVE },
		{ "STANDBY", YARN_HA_STANDBY },
		{ "INITIALIZING", YARN_HA_INITIALIZING },
		{ "STOPPED", YARN_HA_STOPPED },
	};
	json_t *info = NULL;
	const char *ha = NULL;
	int ret;

	if (jsonio_get_obj(doc, "", "clusterInfo", &info, e) <= 0)
		return info ? -1 : err_set(e, ERR_INPUT, 0, "clusterInfo: missing");
	ret = jsonio_get_str(info, "clusterInfo", "haState", &ha, e);
	if (ret < 0)
		return -1;
	*state = ret == 0 ? YARN_HA_NONE : YARN_HA_OTHER;
	for (size_t i = 0; ha && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(ha, names[i].name) == 0)
			*state = names[i].state;
	return 0;
}

int64_t yarn_cluster_info_started_on(const json_t *doc)
{
	const json_t *v = json_object_get(json_object_get(doc, "clusterInfo"), "startedOn");

	return json_is_integer(v) && json_integer_value(v) > 0 ? json_integer_value(v) : 0;
}

json_t *yarn_resize_body(struct yarn_resource total, int64_t over_commit_timeout_ms)
{
	return json_pack("{s:{s:I,s:I},s:I}", "resource", "memory", (json_int_t)total.memory_mb,
			 "vCores", (json_int_t)total.vcores, "overCommitTimeout",
			 (json_int_t)over_commit_timeout_ms);
}

char *yarn_remote_exception(const json_t *doc)
{
	json_t *re = json_object_get(doc, "RemoteException");
	const char *ex = json_string_value(json_object_get(re, "exception"));
	const char *msg = json_string_value(json_object_get(re, "message"));

	if (!json_is_object(re) || (!ex && !msg))
		return NULL;
	if (ex && msg)
		return xasprintf("%s: %s", ex, msg);
	return xstrdup(ex ? ex : msg);
}
