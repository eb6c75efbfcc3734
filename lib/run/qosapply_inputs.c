// SPDX-License-Identifier: Apache-2.0
/* qosapply_inputs - what a qos-cgset pass reads from NodeUsage and
 * ContainerList (see qosapply.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "remote/nm.h"
#include "run/qosapply.h"

/* ---- Inputs ------------------------------------------------------------ */

/* Live: the NodeManager lists it (a state) in the starting or running
 * phase (remote/nm.h, the one state table); a state the table lacks counts
 * as running.  No state: a dir the NodeManager does not list, or no
 * NodeManager answer (then the requests are unknown anyway). */
static int is_live(const char *state, size_t *unknown)
{
	enum nm_phase p = nm_state_phase(state);

	*unknown += state && p == NM_PHASE_UNKNOWN;
	return state && p != NM_PHASE_KILLING && p != NM_PHASE_FINISHED;
}

/* obj.key.cpuMilli (or memoryBytes); returns 1 known, 0 null/absent, -1. */
static int get_nested(const json_t *doc, const char *ctx, const char *k1, const char *k2,
		      const char *field, int64_t *out, struct err *e)
{
	json_t *a = NULL, *b = NULL;
	char c1[96], c2[128];
	int r;

	snprintf(c1, sizeof(c1), "%s.%s", ctx, k1);
	if ((r = jsonio_get_obj(doc, ctx, k1, &a, e)) <= 0)
		return r;
	if (k2) {
		snprintf(c2, sizeof(c2), "%s.%s", c1, k2);
		if ((r = jsonio_get_obj(a, c1, k2, &b, e)) <= 0)
			return r;
		return jsonio_get_int(b, c2, field, 0, INT64_MAX, out, e);
	}
	return jsonio_get_int(a, c1, field, 0, INT64_MAX, out, e);
}

static int node_of(const json_t *doc, const char *ctx, const char **node, struct err *e)
{
	json_t *m = NULL;
	int r = jsonio_get_obj(doc, ctx, "metadata", &m, e);

	if (r <= 0)
		return r;
	return jsonio_get_str(m, "metadata", "node", node, e);
}

static int usage_inputs(const json_t *u, struct qosapply_inputs *in, struct err *e)
{
	const char *ctx = "NodeUsage";
	int64_t g = 0, b = 0;
	int known[4];

	if ((known[0] = get_nested(u, ctx, "capacity", NULL, "cpuMilli", &in->usage.capacity_milli,
				   e)) < 0 ||
	    (known[1] = get_nested(u, ctx, "system", NULL, "cpuMilli", &in->usage.system_milli,
				   e)) < 0 ||
	    (known[2] = get_nested(u, ctx, "qos", "guaranteed", "cpuMilli", &g, e)) < 0 ||
	    (known[3] = get_nested(u, ctx, "qos", "burstable", "cpuMilli", &b, e)) < 0 ||
	    get_nested(u, ctx, "capacity", NULL, "memoryBytes", &in->capacity_bytes, e) < 0 ||
	    (!in->node && node_of(u, ctx, &in->node, e) < 0))
		return -1;
	in->usage.nonbe_milli = g + b;
	in->usage_known = known[0] && known[1] && known[2] && known[3];
	if (json_is_null(json_object_get(u, "windowMs")) || !json_object_get(u, "windowMs"))
		in->usage_why = "NodeUsage has no CPU rates yet: windowMs null (the first --state "
				"call, or one too soon after the last)";
	else if (!known[0])
		in->usage_why = "NodeUsage capacity.cpuMilli null";
	else if (!known[1])
		in->usage_why =
			"NodeUsage system.cpuMilli null (the kubepods cgroup's usage unknown)";
	else
		in->usage_why = "NodeUsage qos guaranteed/burstable cpuMilli null (no kubepods or "
				"burstable cgroup in the cpu hierarchy)";
	return 0;
}

/* it.pids into in->pids when given: 0, or -1 with e set. */
static int item_pids(const json_t *it, const char *ctx, const char *id, struct qosapply_inputs *in,
		     struct err *e)
{
	json_t *a = NULL, *v;
	struct qosapply_pids *p;
	size_t i;
	int r = jsonio_get_arr(it, ctx, "pids", &a, e);

	if (r <= 0)
		return r;
	json_array_foreach(a, i, v)
	{
		char ectx[96];

		if (json_is_integer(v) && json_integer_value(v) >= 1 &&
		    json_integer_value(v) <= INT_MAX)
			continue;
		snprintf(ectx, sizeof(ectx), "%s.pids[%zu]", ctx, i);
		return jsonio_bad_value(e, ectx, NULL, "a process id 1..2147483647", v);
	}
	p = &in->pids[in->npids++]; /* sized for every item */
	snprintf(p->id, sizeof(p->id), "%s", id);
	p->n = json_array_size(a);
	p->pids = xcalloc(p->n ? p->n : 1, sizeof(*p->pids));
	json_array_foreach(a, i, v)
	{
		p->pids[i] = (pid_t)json_integer_value(v);
	}
	return 0;
}

static int pids_cmp(const void *a, const void *b)
{
	return strcmp(((const struct qosapply_pids *)a)->id, ((const struct qosapply_pids *)b)->id);
}

static int list_inputs(const json_t *list, struct qosapply_inputs *in, struct err *e)
{
	json_auto_t *seen = json_object();
	json_t *nm = NULL, *items = NULL;
	int reachable = 0;
	size_t i;
	json_t *it;

	if (jsonio_get_obj(list, "ContainerList", "nodeManager", &nm, e) < 0 ||
	    (nm &&
	     jsonio_get_bool(nm, "ContainerList.nodeManager", "reachable", &reachable, e) < 0) ||
	    jsonio_get_arr(list, "ContainerList", "items", &items, e) < 0 ||
	    (!in->node && node_of(list, "ContainerList", &in->node, e) < 0))
		return -1;
	in->requests_known = in->nm_reachable = reachable;
	in->pids = xcalloc(json_array_size(items) + 1, sizeof(*in->pids));
	json_array_foreach(items, i, it)
	{
		char ctx[64], rctx[80];
		const char *state = NULL, *id = NULL;
		struct containerid cid;
		json_t *req = NULL;
		int64_t milli = 0;
		int r, stale = -1;

		snprintf(ctx, sizeof(ctx), "ContainerList.items[%zu]", i);
		if (!json_is_object(it))
			return jsonio_bad_value(e, "ContainerList.items", "", "an object", it);
		if (containerid_get_unique(it, ctx, seen, &id, &cid, e) < 0 ||
		    jsonio_get_str(it, ctx, "state", &state, e) < 0 ||
		    jsonio_get_obj(it, ctx, "requests", &req, e) < 0 ||
		    item_pids(it, ctx, id, in, e) < 0 ||
		    jsonio_get_bool(it, ctx, "stale", &stale, e) < 0)
			return -1;
		if (stale == 1)
			json_object_set_new(in->stale, id, json_true());
		if (state && nm_state_phase(state) != NM_PHASE_FINISHED)
			json_object_set_new(in->held, id, json_true());
		if (!is_live(state, &in->nunknown))
			continue;
		in->nlive++;
		snprintf(rctx, sizeof(rctx), "%s.requests", ctx);
		r = req ? jsonio_get_int(req, rctx, "cpuMilli", 0, INT64_C(1) << 53, &milli, e) : 0;
		if (r < 0)
			return -1;
		if (r == 0)
			in->requests_known = 0;
		if (num_add(in->cpu_milli_sum, milli, &in->cpu_milli_sum) < 0)
			return err_set(e, ERR_INPUT, 0,
				       "%s.cpuMilli: the sum of the live containers' requests "
				       "overflows, got %lld",
				       rctx, (long long)milli);
	}
	return 0;
}

static const struct jsonio_filter node_field[] = { { "node" }, { NULL } };
static const struct jsonio_filter reachable_field[] = { { "reachable" }, { NULL } };
static const struct jsonio_filter item_fields[] = {
	{ "id" }, { "state" }, { "requests" }, { "pids" }, { "stale" }, { NULL },
};

/* What usage_inputs, list_inputs and node_of read; a field read there
 * must be added here. */
const struct jsonio_filter qosapply_input_fields[] = {
	{ "kind" },
	{ "apiVersion" },
	{ "metadata", node_field },
	{ "windowMs" },
	{ "capacity" },
	{ "system" },
	{ "qos" },
	{ "nodeManager", reachable_field },
	{ "items", item_fields },
	{ NULL },
};

int qosapply_inputs(const json_t *usage, const json_t *list, struct qosapply_inputs *in,
		    struct err *e)
{
	*in = (struct qosapply_inputs){ .capacity_bytes = -1,
					.stale = json_object(),
					.held = json_object() };
	if (list && list_inputs(list, in, e) < 0)
		return -1;
	if (in->npids)
		qsort(in->pids, in->npids, sizeof(*in->pids), pids_cmp);
	if (usage && usage_inputs(usage, in, e) < 0)
		return -1;
	return 0;
}

void qosapply_inputs_release(struct qosapply_inputs *in)
{
	for (size_t i = 0; i < in->npids; i++)
		free(in->pids[i].pids);
	free(in->pids);
	in->pids = NULL;
	in->npids = 0;
	json_decref(in->stale);
	json_decref(in->held);
	in->stale = in->held = NULL;
}

const struct qosapply_pids *qosapply_inputs_pids(const struct qosapply_inputs *in, const char *id)
{
	struct qosapply_pids key;

	if (!in->npids)
		return NULL;
	snprintf(key.id, sizeof(key.id), "%s", id);
	return bsearch(&key, in->pids, in->npids, sizeof(key), pids_cmp);
}
