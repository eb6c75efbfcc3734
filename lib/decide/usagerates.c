// SPDX-License-Identifier: Apache-2.0
/* usagerates - NodeUsage rates, document and state, from samples (see
 * usagerates.h).  Pure: no file is opened here. */
#include "decide/usagerates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"

#define U NODEUSAGE_UNKNOWN

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

/* v, or cap when both are known and v is above it. */
static int64_t at_most(int64_t v, int64_t cap)
{
	return v != U && cap != U && v > cap ? cap : v;
}

static struct nodeusage_figures fig(int64_t cpu_milli, int64_t memory_bytes)
{
	return (struct nodeusage_figures){ cpu_milli, memory_bytes };
}

static void limit(struct nodeusage_limit *out, const struct nodeusage_limits *lim)
{
	out->cpuset = lim->cpuset ? xstrdup(lim->cpuset) : NULL;
	out->cpuset_cpus = lim->cpuset ? nodeusage_cpuset_count(lim->cpuset) : U;
	out->quota_us = lim->quota_us;
	out->period_us = lim->period_us;
}

void usagerates_nodeusage(const struct nodeusage_sample *prev, const struct nodeusage_sample *cur,
			  int64_t window_ms, const struct nodeusage_cgroup *cg, const char *node,
			  struct nodeusage *out)
{
	int64_t cpu[NODEUSAGE_NSCOPE], node_cpu = U, node_mem = U;
	const int64_t *mem = cur->memory_bytes;
	int comparable = prev && window_ms > 0 && prev->version == cur->version;
	int64_t cap = cur->cpus > 0 ? (int64_t)cur->cpus * 1000 : U;
	char ts[40];

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

	nodeusage_init(out);
	out->node = node ? xstrdup(node) : NULL;
	out->timestamp = xstrdup(clock_format_rfc3339(cur->time_ms, ts, sizeof(ts)));
	out->window_ms = comparable ? window_ms : U;
	out->cgroup_version = cg->version;
	out->driver = xstrdup(cg->driver);
	out->besteffort_path = xstrdup(cg->besteffort);
	out->hadoop_yarn_path = xstrdup(cg->hadoop_yarn);
	out->capacity = fig(cap, cur->mem_total);
	out->node_used = fig(node_cpu, node_mem);
	out->system = fig(minus(node_cpu, cpu[NODEUSAGE_KUBEPODS], 0),
			  minus(node_mem, mem[NODEUSAGE_KUBEPODS], 0));
	out->qos[NODEUSAGE_QOS_GUARANTEED] = fig(
		minus(cpu[NODEUSAGE_KUBEPODS], cpu[NODEUSAGE_BURSTABLE], cpu[NODEUSAGE_BESTEFFORT]),
		minus(mem[NODEUSAGE_KUBEPODS], mem[NODEUSAGE_BURSTABLE],
		      mem[NODEUSAGE_BESTEFFORT]));
	out->qos[NODEUSAGE_QOS_BURSTABLE] = fig(cpu[NODEUSAGE_BURSTABLE], mem[NODEUSAGE_BURSTABLE]);
	out->qos[NODEUSAGE_QOS_BESTEFFORT] =
		fig(cpu[NODEUSAGE_BESTEFFORT], mem[NODEUSAGE_BESTEFFORT]);
	out->hadoop_yarn = fig(cpu[NODEUSAGE_HADOOP_YARN], mem[NODEUSAGE_HADOOP_YARN]);
	out->cpus_online = cur->cpus_online ? xstrdup(cur->cpus_online) : NULL;
	limit(&out->limits[0], &cur->limits[0]);
	limit(&out->limits[1], &cur->limits[1]);
}

void usagerates_state(const struct nodeusage_sample *s, struct nodeusage_state *out)
{
	nodeusage_state_release(out);
	out->timestamp_ms = s->time_ms;
	out->cgroup_version = s->version;
	out->node_cpu_ns = s->node_cpu_ns;
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++) {
		out->path[i] = s->path[i] ? xstrdup(s->path[i]) : NULL;
		out->cpu_ns[i] = s->cpu_ns[i];
	}
}

void usagerates_prev(const struct nodeusage_state *st, struct nodeusage_sample *prev)
{
	nodeusage_sample_release(prev);
	prev->time_ms = st->timestamp_ms;
	prev->version = st->cgroup_version == U ? 0 : (int)st->cgroup_version;
	prev->node_cpu_ns = st->node_cpu_ns;
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++) {
		prev->path[i] = st->path[i] ? xstrdup(st->path[i]) : NULL;
		prev->cpu_ns[i] = st->cpu_ns[i];
	}
}
