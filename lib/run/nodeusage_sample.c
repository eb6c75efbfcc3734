// SPDX-License-Identifier: Apache-2.0
/* nodeusage_sample - read one NodeUsage sample through the sysroot (the
 * I/O half of nodeusage.h). */
#include <stdlib.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "kernel/procfs.h"
#include "run/nodeusage_sample.h"

/* Keep a cgroup read's status: 0 known; ABSENT/UNSUPPORTED unknown; -1
 * unknown, counted and warned. */
static int keep(struct nodeusage_sample *s, int r, const struct err *e, err_say_fn *warn)
{
	if (r < 0) {
		s->errors++;
		if (warn)
			warn(e);
	}
	return r == CGROUP_OK;
}

static void sample_limits(struct nodeusage_sample *s, struct nodeusage_limits *lim,
			  const struct cgroup_layout *l, const struct sysroot *sr, const char *cg,
			  err_say_fn *warn)
{
	struct cpuset set;
	struct err e = { 0 };
	int64_t q, p;

	if (keep(s, cgroup_read_cpuset(l, sr, cg, &set, &e), &e, warn))
		lim->cpuset = cpuset_format(&set);
	if (keep(s, cgroup_read_cfs(l, sr, cg, &q, &p, &e), &e, warn)) {
		lim->quota_us = q;
		lim->period_us = p;
	}
}

int nodeusage_sample(struct nodeusage_sample *s, const struct cgroup_layout *l,
		     const struct sysroot *sr, int64_t now_ms, err_say_fn *warn, struct err *e)
{
	const char *paths[NODEUSAGE_NSCOPE] = {
		[NODEUSAGE_KUBEPODS] = l->kubepods,
		[NODEUSAGE_BURSTABLE] = l->burstable,
		[NODEUSAGE_BESTEFFORT] = l->besteffort,
		[NODEUSAGE_HADOOP_YARN] = l->hadoop_yarn,
	};
	struct procfs_meminfo mi;

	nodeusage_sample_release(s);
	s->time_ms = now_ms;
	s->version = l->version;
	if (procfs_read_stat(sr, &s->node_cpu_ns, NULL, e) < 0 ||
	    procfs_read_meminfo(sr, &mi, e) < 0 ||
	    procfs_read_cpus_online(sr, &s->cpus_online, &s->cpus, e) < 0)
		return -1;
	s->mem_total = mi.total;
	s->mem_available = mi.available >= 0 ? mi.available : NODEUSAGE_UNKNOWN;
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++) {
		struct cgroup_memory_stat ms;
		struct err ce = { 0 };
		int64_t ns;

		s->path[i] = xstrdup(paths[i]);
		if (keep(s, cgroup_read_cpu_usage(l, sr, paths[i], &ns, &ce), &ce, warn))
			s->cpu_ns[i] = ns;
		if (keep(s, cgroup_read_memory_stat(l, sr, paths[i], &ms, &ce), &ce, warn) &&
		    cgroup_memory_stat_used(&ms) >= 0)
			s->memory_bytes[i] = cgroup_memory_stat_used(&ms);
	}
	sample_limits(s, &s->limits[0], l, sr, l->besteffort, warn);
	sample_limits(s, &s->limits[1], l, sr, l->hadoop_yarn, warn);
	return 0;
}

struct nodeusage_cgroup nodeusage_sample_cgroup(const struct cgroup_layout *l)
{
	return (struct nodeusage_cgroup){ .version = l->version,
					  .driver = cgroup_driver_name(l->driver),
					  .besteffort = l->besteffort,
					  .hadoop_yarn = l->hadoop_yarn };
}

int nodeusage_sample_pass(const struct nodeusage_pass_opts *o, struct nodeusage_sample *prev,
			  int have, struct nodeusage_sample *cur, struct nodeusage *usage,
			  int *keep_prev, struct err *e)
{
	const struct cgroup_layout *l = o->layout;
	struct nodeusage_cgroup ucg;
	int64_t window = 0, mono = 0;

	*keep_prev = 0;
	if (!o->with_state) {
		mono = clock_mono_ms();
		if (nodeusage_sample(prev, l, o->sysroot, clock_now_ms(), NULL, e) < 0)
			return -1;
		clock_sleep_ms(o->interval_ms);
		have = 1;
	}
	if (nodeusage_sample(cur, l, o->sysroot, clock_now_ms(), o->warn, e) < 0)
		return -1;
	if (have)
		window = o->with_state ? cur->time_ms - prev->time_ms : clock_mono_ms() - mono;
	if (have && o->with_state && window >= 0 && window < NODEUSAGE_MIN_WINDOW_MS) {
		/* too soon for a rate: no rates, and the older sample stays */
		struct err w = { 0 };

		err_set(&w, ERR_NONE, 0,
			"the previous sample is %lld ms old, less than %d ms: CPU rates are "
			"null; the state keeps it for the next call",
			(long long)window, NODEUSAGE_MIN_WINDOW_MS);
		o->warn(&w);
		*keep_prev = 1;
		have = 0;
	}
	ucg = nodeusage_sample_cgroup(l);
	usagerates_nodeusage(have ? prev : NULL, cur, window, &ucg, o->node, usage);
	return 0;
}
