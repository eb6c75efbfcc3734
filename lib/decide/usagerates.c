// SPDX-License-Identifier: Apache-2.0
/* usagerates - NodeUsage rates, document and state, from samples (see
 * usagerates.h).  Pure: no file is opened here. */
#include "decide/usagerates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"

#define U NODEUSAGE_UNKNOWN

static const char *const scope_names[NODEUSAGE_NSCOPE] = {
	[NODEUSAGE_KUBEPODS] = "kubepods",
	[NODEUSAGE_BURSTABLE] = "burstable",
	[NODEUSAGE_BESTEFFORT] = "besteffort",
	[NODEUSAGE_HADOOP_YARN] = "hadoopYarn",
};

void nodeusage_sample_release(struct nodeusage_sample *s)
{
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++)
		free(s->path[i]);
	free(s->cpus_online);
	for (int i = 0; i < 2; i++)
		free(s->limits[i].cpuset);
	memset(s, 0, sizeof(*s));
	s->time_ms = s->node_cpu_ns = s->mem_total = s->mem_available = U;
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++)
		s->cpu_ns[i] = s->memory_bytes[i] = U;
	for (int i = 0; i < 2; i++)
		s->limits[i].quota_us = s->limits[i].period_us = U;
}

int64_t usagerates_rate_milli(int64_t ns0, int64_t ns1, int64_t window_ms)
{
	if (ns0 == U || ns1 == U || window_ms <= 0 || ns1 < ns0)
		return U;
	return (ns1 - ns0 + window_ms * 500) / (window_ms * 1000);
}

/* a - b - c floored at 0, unknown when a term is. */
static int64_t minus(int64_t a, int64_t b, int64_t c)
{
	if (a == U || b == U || c == U)
		return U;
	return a - b - c > 0 ? a - b - c : 0;
}

static json_t *num(int64_t v)
{
	return jsonio_int_or_null(v != U, v);
}

static json_t *usage(int64_t cpu_milli, int64_t memory_bytes)
{
	return json_pack("{s:o,s:o}", "cpuMilli", num(cpu_milli), "memoryBytes", num(memory_bytes));
}

/* v, or cap when both are known and v is above it. */
static int64_t at_most(int64_t v, int64_t cap)
{
	return v != U && cap != U && v > cap ? cap : v;
}

static json_t *limits(const struct nodeusage_limits *lim)
{
	return json_pack("{s:o,s:o,s:o}", "cpuset",
			 lim->cpuset ? json_string(lim->cpuset) : json_null(), "cfsQuotaUs",
			 num(lim->quota_us), "cfsPeriodUs", num(lim->period_us));
}

json_t *usagerates_document(const struct nodeusage_sample *prev, const struct nodeusage_sample *cur,
			    int64_t window_ms, const struct nodeusage_cgroup *cg, const char *node)
{
	int64_t cpu[NODEUSAGE_NSCOPE], node_cpu = U, node_mem = U;
	const int64_t *mem = cur->memory_bytes;
	json_t *doc = jsonio_new_doc("NodeUsage");
	int comparable = prev && window_ms > 0 && prev->version == cur->version;
	int64_t cap = cur->cpus > 0 ? (int64_t)cur->cpus * 1000 : U;

	for (int i = 0; i < NODEUSAGE_NSCOPE; i++) {
		cpu[i] = U;
		if (comparable && prev->path[i] && cur->path[i] &&
		    strcmp(prev->path[i], cur->path[i]) == 0)
			cpu[i] = at_most(usagerates_rate_milli(prev->cpu_ns[i], cur->cpu_ns[i],
							       window_ms),
					 cap);
	}
	if (comparable)
		node_cpu = at_most(
			usagerates_rate_milli(prev->node_cpu_ns, cur->node_cpu_ns, window_ms), cap);
	if (cur->mem_total != U && cur->mem_available != U)
		node_mem = minus(cur->mem_total, cur->mem_available, 0);

	json_object_set_new(doc, "metadata", jsonio_metadata(node, cur->time_ms));
	json_object_set_new(doc, "windowMs", num(comparable ? window_ms : U));
	json_object_set_new(doc, "cgroup",
			    json_pack("{s:i,s:s,s:s,s:s}", "version", cg->version, "driver",
				      cg->driver, "besteffort", cg->besteffort, "hadoopYarn",
				      cg->hadoop_yarn));
	json_object_set_new(doc, "capacity",
			    json_pack("{s:o,s:o}", "cpuMilli",
				      num(cur->cpus > 0 ? (int64_t)cur->cpus * 1000 : U),
				      "memoryBytes", num(cur->mem_total)));
	json_object_set_new(doc, "node", usage(node_cpu, node_mem));
	json_object_set_new(doc, "system",
			    usage(minus(node_cpu, cpu[NODEUSAGE_KUBEPODS], 0),
				  minus(node_mem, mem[NODEUSAGE_KUBEPODS], 0)));
	json_object_set_new(doc, "qos",
			    json_pack("{s:o,s:o,s:o}", "guaranteed",
				      usage(minus(cpu[NODEUSAGE_KUBEPODS], cpu[NODEUSAGE_BURSTABLE],
						  cpu[NODEUSAGE_BESTEFFORT]),
					    minus(mem[NODEUSAGE_KUBEPODS], mem[NODEUSAGE_BURSTABLE],
						  mem[NODEUSAGE_BESTEFFORT])),
				      "burstable",
				      usage(cpu[NODEUSAGE_BURSTABLE], mem[NODEUSAGE_BURSTABLE]),
				      "besteffort",
				      usage(cpu[NODEUSAGE_BESTEFFORT], mem[NODEUSAGE_BESTEFFORT])));
	json_object_set_new(doc, "hadoopYarn",
			    usage(cpu[NODEUSAGE_HADOOP_YARN], mem[NODEUSAGE_HADOOP_YARN]));
	json_object_set_new(doc, "cpus",
			    json_pack("{s:o}", "online",
				      cur->cpus_online ? json_string(cur->cpus_online)
						       : json_null()));
	json_object_set_new(doc, "limits",
			    json_pack("{s:o,s:o}", "besteffort", limits(&cur->limits[0]),
				      "hadoopYarn", limits(&cur->limits[1])));
	return doc;
}

json_t *nodeusage_state(const struct nodeusage_sample *s)
{
	json_t *doc = jsonio_new_doc("NodeUsageState");
	json_t *scopes = json_object();

	for (int i = 0; i < NODEUSAGE_NSCOPE; i++)
		json_object_set_new(scopes, scope_names[i],
				    json_pack("{s:o,s:o}", "path",
					      s->path[i] ? json_string(s->path[i]) : json_null(),
					      "cpuNanos", num(s->cpu_ns[i])));
	json_object_set_new(doc, "timestampMs", num(s->time_ms));
	json_object_set_new(doc, "cgroupVersion", json_integer(s->version));
	json_object_set_new(doc, "nodeCpuNanos", num(s->node_cpu_ns));
	json_object_set_new(doc, "scopes", scopes);
	return doc;
}

int nodeusage_state_parse(const json_t *doc, struct nodeusage_sample *prev, struct err *e)
{
	static const char ctx[] = "NodeUsageState";
	json_t *scopes = NULL;
	int64_t version = 0;

	nodeusage_sample_release(prev);
	if (jsonio_get_int(doc, ctx, "timestampMs", 0, INT64_MAX, &prev->time_ms, e) < 0 ||
	    jsonio_get_int(doc, ctx, "cgroupVersion", 1, 2, &version, e) < 0 ||
	    jsonio_get_int(doc, ctx, "nodeCpuNanos", 0, INT64_MAX, &prev->node_cpu_ns, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "scopes", &scopes, e) < 0)
		return -1;
	prev->version = (int)version;
	for (int i = 0; scopes && i < NODEUSAGE_NSCOPE; i++) {
		char sctx[64];
		json_t *sc = NULL;
		const char *path = NULL;

		snprintf(sctx, sizeof(sctx), "%s.scopes", ctx);
		if (jsonio_get_obj(scopes, sctx, scope_names[i], &sc, e) < 0)
			return -1;
		if (!sc)
			continue;
		snprintf(sctx, sizeof(sctx), "%s.scopes.%s", ctx, scope_names[i]);
		if (jsonio_get_str(sc, sctx, "path", &path, e) < 0 ||
		    jsonio_get_int(sc, sctx, "cpuNanos", 0, INT64_MAX, &prev->cpu_ns[i], e) < 0)
			return -1;
		prev->path[i] = path ? xstrdup(path) : NULL;
	}
	return 0;
}
