// SPDX-License-Identifier: Apache-2.0
/* evict_parse - the evictor's inputs (from the NodeUsage and ContainerList values), PodList and state (see evict.h) */
#include <string.h>

#include "core/jsonio.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "decide/evict.h"
#include "decide/podreq.h"
#include "doc/containerid.h"

/* A NodeUsage figure as the evictor's value. */
static int64_t figure(int64_t v)
{
	return v == NODEUSAGE_UNKNOWN ? EVICT_UNKNOWN : v;
}

static void scope_limit(struct evict_scope_limit *l, const struct nodeusage_limit *u)
{
	l->cpuset_cpus = figure(u->cpuset_cpus);
	l->cfs_quota_us = figure(u->quota_us);
	l->cfs_period_us = figure(u->period_us);
}

int evict_input_usage(struct evict_input *in, const struct nodeusage *u, struct err *e)
{
	if (u->node)
		in->node = u->node;
	in->capacity_memory_bytes = figure(u->capacity.memory_bytes);
	in->node_memory_bytes = figure(u->node_used.memory_bytes);
	in->be_cpu_milli = figure(u->qos[NODEUSAGE_QOS_BESTEFFORT].cpu_milli);
	in->window_ms = figure(u->window_ms);
	scope_limit(&in->be, &u->limits[0]);
	scope_limit(&in->hadoop_yarn, &u->limits[1]);
	if (in->capacity_memory_bytes == 0)
		return err_set(
			e, ERR_INPUT, 0,
			"NodeUsage.capacity.memoryBytes: expected a positive integer, got 0");
	return 0;
}

void evict_input_containers(struct evict_input *in, const struct containerlist *cl)
{
	in->nm_reachable = cl->nm_reachable;
	if (!in->node)
		in->node = cl->node;
	in->ncontainers = cl->n;
	in->containers = xcalloc(cl->n ? cl->n : 1, sizeof(*in->containers));
	for (size_t i = 0; i < cl->n; i++) {
		const struct containerlist_item *it = &cl->items[i];

		in->containers[i] = (struct evict_container){
			.id = it->id,
			.am = it->am,
			.terminating = it->terminating,
			.processes = it->processes,
			.started_ms = it->start_ms,
			.memory_bytes = it->memory_bytes,
			.cpu_milli = it->cpu_milli,
			.request_cpu_milli = it->request_cpu_milli,
			.request_memory_bytes = it->request_memory_bytes,
		};
	}
}

void evict_input_release(struct evict_input *in)
{
	free(in->containers);
	in->containers = NULL;
	in->ncontainers = 0;
}

/* 1 when the pod counts toward the BE request (see evict.h), else 0. */
static int pod_counts(const json_t *pod, const char *node)
{
	json_t *meta = json_object_get(pod, "metadata"), *spec = json_object_get(pod, "spec");
	json_t *status = json_object_get(pod, "status");
	const char *qos = json_string_value(
		json_object_get(json_object_get(meta, "labels"), "koordinator.sh/qosClass"));
	const char *kqos = json_string_value(json_object_get(status, "qosClass"));
	const char *phase = json_string_value(json_object_get(status, "phase"));
	const char *on = json_string_value(json_object_get(spec, "nodeName"));

	if (qos ? strcmp(qos, "BE") != 0 : !kqos || strcmp(kqos, "BestEffort") != 0)
		return 0;
	if (!phase || (strcmp(phase, "Running") != 0 && strcmp(phase, "Pending") != 0))
		return 0;
	return on && (!node || strcmp(on, node) == 0);
}

int evict_parse_pods(const json_t *doc, struct evict_input *in, struct err *e)
{
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	json_t *items = NULL;
	char ctx[160];

	if (jsonio_get_arr(doc, kind, "items", &items, e) < 0)
		return -1;
	in->have_pods = 1;
	in->pods_batch_cpu_milli = 0;
	in->pods_bad = 0;
	for (size_t i = 0; i < json_array_size(items); i++) {
		json_t *pod = json_array_get(items, i), *meta = json_object_get(pod, "metadata");
		const char *k = json_string_value(json_object_get(pod, "kind"));
		const char *ns = json_string_value(json_object_get(meta, "namespace"));
		const char *name = json_string_value(json_object_get(meta, "name"));
		struct err pe = { 0 };
		int64_t milli, sum;

		if ((k && strcmp(k, "Pod") != 0) || !pod_counts(pod, in->node))
			continue;
		snprintf(ctx, sizeof(ctx), "%s.items[%zu] (%.40s/%.60s)", kind, i, ns ? ns : "?",
			 name ? name : "?");
		if (podreq_effective(pod, ctx, "kubernetes.io/batch-cpu", &milli, &pe) == 0 &&
		    num_add(in->pods_batch_cpu_milli < 0 ? 0 : in->pods_batch_cpu_milli, milli,
			    &sum) == 0) {
			if (in->pods_batch_cpu_milli >= 0)
				in->pods_batch_cpu_milli = sum;
			continue;
		}
		if (pe.kind == ERR_NONE)
			err_set(&pe, ERR_INPUT, 0,
				"%s: the sum of kubernetes.io/batch-cpu over the pods overflows",
				ctx);
		if (!in->pods_bad++)
			snprintf(in->pods_problem, sizeof(in->pods_problem), "%.255s", pe.msg);
		in->pods_batch_cpu_milli = EVICT_UNKNOWN;
	}
	return 0;
}

int evict_state_parse(const json_t *doc, const char *name, struct evictorstate *st, struct err *e)
{
	evictorstate_init(st);
	if (doc && evictorstate_from_json(doc, st, e) < 0)
		return err_wrap(e, "%s", name);
	return 0;
}
