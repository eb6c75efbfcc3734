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
#include "doc/nodeusage.h"
#include "run/qosapply.h"

/* ---- Inputs ------------------------------------------------------------ */

/* v when known, else dflt. */
static int64_t known_or(int64_t v, int64_t dflt)
{
	return v == NODEUSAGE_UNKNOWN ? dflt : v;
}

static void usage_inputs(const struct nodeusage *u, struct qosapply_inputs *in)
{
	int64_t g = u->qos[NODEUSAGE_QOS_GUARANTEED].cpu_milli,
		b = u->qos[NODEUSAGE_QOS_BURSTABLE].cpu_milli;

	in->usage.capacity_milli = known_or(u->capacity.cpu_milli, 0);
	in->usage.system_milli = known_or(u->system.cpu_milli, 0);
	in->usage.nonbe_milli = known_or(g, 0) + known_or(b, 0); /* each <= 2^53 */
	in->capacity_bytes = known_or(u->capacity.memory_bytes, -1);
	if (!in->node)
		in->node = u->node;
	in->usage_known = u->capacity.cpu_milli != NODEUSAGE_UNKNOWN &&
			  u->system.cpu_milli != NODEUSAGE_UNKNOWN && g != NODEUSAGE_UNKNOWN &&
			  b != NODEUSAGE_UNKNOWN;
	if (u->window_ms == NODEUSAGE_UNKNOWN)
		in->usage_why = "NodeUsage has no CPU rates yet: windowMs null (the first --state "
				"call, or one too soon after the last)";
	else if (u->capacity.cpu_milli == NODEUSAGE_UNKNOWN)
		in->usage_why = "NodeUsage capacity.cpuMilli null";
	else if (u->system.cpu_milli == NODEUSAGE_UNKNOWN)
		in->usage_why =
			"NodeUsage system.cpuMilli null (the kubepods cgroup's usage unknown)";
	else
		in->usage_why = "NodeUsage qos guaranteed/burstable cpuMilli null (no kubepods or "
				"burstable cgroup in the cpu hierarchy)";
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

static const struct jsonio_filter metadata_fields[] = { { "node" }, { "timestamp" }, { NULL } };

/* What qosapply_inputs() needs of what nodeusage_from_json() and
 * containerlist_from_json() read (their nodeusage_fields and, of an item,
 * containerlist_item_nm_fields; one filter for both kinds): a field
 * qosapply_inputs() uses must be in it. */
const struct jsonio_filter qosapply_input_fields[] = {
	{ "kind" },
	{ "apiVersion" },
	{ "metadata", metadata_fields },
	{ "windowMs" },
	{ "cgroup" },
	{ "capacity" },
	{ "node" },
	{ "system" },
	{ "qos" },
	{ "hadoopYarn" },
	{ "cpus" },
	{ "limits" },
	{ "nodeManager" },
	{ "items", containerlist_item_nm_fields },
	{ NULL },
};

int qosapply_inputs(const struct nodeusage *usage, const struct containerlist *list,
		    struct qosapply_inputs *in, struct err *e)
{
	*in = (struct qosapply_inputs){ .capacity_bytes = -1,
					.stale = json_object(),
					.held = json_object() };
	if (list && list_inputs(list, in, e) < 0)
		return -1;
	if (in->npids)
		qsort(in->pids, in->npids, sizeof(*in->pids), pids_cmp);
	if (usage)
		usage_inputs(usage, in);
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
