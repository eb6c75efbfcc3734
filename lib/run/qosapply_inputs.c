// SPDX-License-Identifier: Apache-2.0
/* qosapply_inputs - what a qos-cgset pass reads from NodeUsage and
 * ContainerList (see qosapply.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "doc/containerlist.h"
#include "run/qosapply.h"

/* ---- Inputs ------------------------------------------------------------ */

/* The evictor's bound of a NodeUsage figure: guaranteed + burstable stays in int64. */
#define USAGE_FIGURE_MAX (INT64_C(1) << 53)

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
		return jsonio_get_int(b, c2, field, 0, USAGE_FIGURE_MAX, out, e);
	}
	return jsonio_get_int(a, c1, field, 0, USAGE_FIGURE_MAX, out, e);
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

static int pids_cmp(const void *a, const void *b)
{
	return strcmp(((const struct qosapply_pids *)a)->id, ((const struct qosapply_pids *)b)->id);
}

/* The live containers (containerlist_item's live: phase starting or
 * running, or a state the table lacks, counted in nunknown) and their
 * requests, the held and stale ids and the pids; 0, or -1 with e set when
 * the sum of the requests overflows. */
static int list_inputs(const struct containerlist *list, struct qosapply_inputs *in, struct err *e)
{
	in->requests_known = in->nm_reachable = list->nm_reachable;
	if (!in->node)
		in->node = list->node;
	in->pids = xcalloc(list->n + 1, sizeof(*in->pids));
	for (size_t i = 0; i < list->n; i++) {
		const struct containerlist_item *it = &list->items[i];

		if (it->pids_known) {
			struct qosapply_pids *p = &in->pids[in->npids++];

			snprintf(p->id, sizeof(p->id), "%s", it->id);
			p->n = it->npids;
			p->pids = xcalloc(p->n ? p->n : 1, sizeof(*p->pids));
			if (p->n)
				memcpy(p->pids, it->pids, p->n * sizeof(*p->pids));
		}
		if (it->stale == 1)
			json_object_set_new(in->stale, it->id, json_true());
		if (it->held)
			json_object_set_new(in->held, it->id, json_true());
		in->nunknown += it->state && it->phase == NM_PHASE_UNKNOWN;
		if (!it->live)
			continue;
		in->nlive++;
		if (it->request_cpu_milli < 0)
			in->requests_known = 0;
		else if (num_add(in->cpu_milli_sum, it->request_cpu_milli, &in->cpu_milli_sum) < 0)
			return err_set(e, ERR_INPUT, 0,
				       "ContainerList.items[%zu].requests.cpuMilli: the sum of the "
				       "live containers' requests overflows, got %lld",
				       i, (long long)it->request_cpu_milli);
	}
	return 0;
}

static const struct jsonio_filter node_field[] = { { "node" }, { "timestamp" }, { NULL } };

/* What usage_inputs and node_of read, and containerlist_from_json()
 * (doc/containerlist: containerlist_fields); a field read there must be
 * added here. */
const struct jsonio_filter qosapply_input_fields[] = {
	{ "kind" },
	{ "apiVersion" },
	{ "metadata", node_field },
	{ "windowMs" },
	{ "capacity" },
	{ "system" },
	{ "qos" },
	{ "nodeManager" },
	{ "hadoopYarn" },
	{ "items", containerlist_item_fields },
	{ NULL },
};

int qosapply_inputs(const json_t *usage, const struct containerlist *list,
		    struct qosapply_inputs *in, struct err *e)
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
