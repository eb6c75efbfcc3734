// SPDX-License-Identifier: Apache-2.0
/* evict_parse - the evictor's input documents and state, as values (see evict.h) */
#include <string.h>

#include "core/clock.h"
#include "core/jsonio.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "decide/evict.h"
#include "decide/podreq.h"
#include "doc/containerid.h"
#include "doc/cpuset.h"
#include "doc/docmeta.h"

/* An optional non-negative figure: EVICT_UNKNOWN when absent or null. */
static int get_figure(const json_t *obj, const char *ctx, const char *key, int64_t *out,
		      struct err *e)
{
	return docmeta_get_figure(obj, ctx, key, 0, out, e);
}

int64_t evict_cpuset_count(const char *s)
{
	struct cpuset set;
	size_t len = strlen(s);

	/* as kilo writes it: the kernel's list, without its blanks */
	if (len && (s[0] == ' ' || s[len - 1] == ' ' || s[len - 1] == '\n'))
		return -1;
	return cpuset_parse(s, &set, NULL) < 0 ? -1 : cpuset_count(&set);
}

static int parse_limit(const json_t *limits, const char *key, struct evict_scope_limit *l,
		       struct err *e)
{
	json_t *o = NULL, *v;
	char ctx[64];

	l->cpuset_cpus = l->cfs_quota_us = l->cfs_period_us = EVICT_UNKNOWN;
	if (jsonio_get_obj(limits, "NodeUsage.limits", key, &o, e) < 0)
		return -1;
	snprintf(ctx, sizeof(ctx), "NodeUsage.limits.%s", key);
	v = json_object_get(o, "cpuset");
	if (v && !json_is_null(v)) {
		if (!json_is_string(v) ||
		    (l->cpuset_cpus = evict_cpuset_count(json_string_value(v))) < 0)
			return jsonio_bad_value(e, ctx, "cpuset", "a cpuset list such as \"0-3,8\"",
						v);
	}
	if (jsonio_get_int(o, ctx, "cfsQuotaUs", -1, DOCMETA_FIGURE_MAX, &l->cfs_quota_us, e) < 0 ||
	    jsonio_get_int(o, ctx, "cfsPeriodUs", 1, DOCMETA_FIGURE_MAX, &l->cfs_period_us, e) < 0)
		return -1;
	return 0;
}

int evict_parse_node_usage(const json_t *doc, struct evict_input *in, struct err *e)
{
	json_t *meta = NULL, *cap = NULL, *node = NULL, *qos = NULL, *be = NULL, *limits = NULL;

	if (jsonio_get_obj(doc, "NodeUsage", "metadata", &meta, e) < 0 ||
	    jsonio_get_str(meta, "NodeUsage.metadata", "node", &in->node, e) < 0 ||
	    jsonio_get_obj(doc, "NodeUsage", "capacity", &cap, e) < 0 ||
	    jsonio_get_obj(doc, "NodeUsage", "node", &node, e) < 0 ||
	    jsonio_get_obj(doc, "NodeUsage", "qos", &qos, e) < 0 ||
	    jsonio_get_obj(qos, "NodeUsage.qos", "besteffort", &be, e) < 0 ||
	    jsonio_get_obj(doc, "NodeUsage", "limits", &limits, e) < 0 ||
	    get_figure(cap, "NodeUsage.capacity", "memoryBytes", &in->capacity_memory_bytes, e) <
		    0 ||
	    get_figure(node, "NodeUsage.node", "memoryBytes", &in->node_memory_bytes, e) < 0 ||
	    get_figure(be, "NodeUsage.qos.besteffort", "cpuMilli", &in->be_cpu_milli, e) < 0 ||
	    get_figure(doc, "NodeUsage", "windowMs", &in->window_ms, e) < 0 ||
	    parse_limit(limits, "besteffort", &in->be, e) < 0 ||
	    parse_limit(limits, "hadoopYarn", &in->hadoop_yarn, e) < 0)
		return -1;
	if (in->capacity_memory_bytes == 0)
		return jsonio_bad_value(e, "NodeUsage.capacity", "memoryBytes",
					"a positive integer", json_object_get(cap, "memoryBytes"));
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
