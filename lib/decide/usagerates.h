/* SPDX-License-Identifier: Apache-2.0 */
/* usagerates - the figures of the NodeUsage document (SCHEMAS.md): node, kube QoS-class and
 * hadoop-yarn CPU and memory usage.
 *
 * A sample is what one moment's files say (cumulative CPU ns, memory bytes,
 * limits); nodeusage_sample() (run/nodeusage_sample.h) reads it through the
 * kernel seam.
 * Everything else is pure: CPU rates need two samples (the previous one
 * from --state, or one taken --interval earlier), and the document and the
 * state are built from samples alone.
 *
 * Usage sources (koordlet metricsadvisor; koordlet-qos.md, conventions):
 *   node CPU     /proc/stat busy time (nodeusage: user nice system irq
 *                softirq steal) over the window
 *   node memory  MemTotal - MemAvailable
 *   cgroup CPU   cpuacct.usage (v1) or cpu.stat usage_usec (v2) over the window
 *   cgroup mem   inactive_anon + active_anon + unevictable of memory.stat
 *   guaranteed   kubepods - burstable - besteffort
 *   system       node - kubepods
 * Differences are floored at 0 (samples of different files are not taken at
 * one instant).
 */
#ifndef KILO_USAGERATES_H
#define KILO_USAGERATES_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/nodeusage.h"

/* A value not known in a sample: NODEUSAGE_UNKNOWN (doc/nodeusage.h). */

/* The current CFS and cpuset limits of a cgroup. */
struct nodeusage_limits {
	char *cpuset;      /* canonical CPU list, NULL when unknown */
	int64_t quota_us;  /* -1 unlimited; NODEUSAGE_UNKNOWN */
	int64_t period_us; /* NODEUSAGE_UNKNOWN */
};

struct nodeusage_sample {
	int64_t time_ms;              /* wall clock of the sample (clock_now_ms) */
	int version;                  /* cgroup version of the layout sampled */
	char *path[NODEUSAGE_NSCOPE]; /* cgroup path of each scope */
	int64_t node_cpu_ns;          /* cumulative busy CPU time of the node */
	int64_t mem_total;            /* bytes */
	int64_t mem_available;
	int cpus;                               /* online CPUs */
	char *cpus_online;                      /* "0-63" */
	int64_t cpu_ns[NODEUSAGE_NSCOPE];       /* cumulative; NODEUSAGE_UNKNOWN */
	int64_t memory_bytes[NODEUSAGE_NSCOPE]; /* in use, no page cache; NODEUSAGE_UNKNOWN */
	struct nodeusage_limits limits[2];      /* [0] besteffort, [1] hadoop-yarn */
	int errors; /* cgroup files that failed to read (values unknown) */
};

/* Free what s holds and mark every value unknown.  Safe on a released or
 * zeroed sample. */
void nodeusage_sample_release(struct nodeusage_sample *s);

/* The cgroup layout a sample was taken of, as the document shows it. */
struct nodeusage_cgroup {
	int version;             /* 1 or 2 */
	const char *driver;      /* "cgroupfs" or "systemd" */
	const char *besteffort;  /* cgroup path of the besteffort QoS class */
	const char *hadoop_yarn; /* cgroup path of the hadoop-yarn dir */
};

/* The shortest window node-usage --state computes a CPU rate over (a call
 * too soon after the previous one).  /proc/stat counts in ticks of 10 ms
 * (USER_HZ 100), the cgroups' counters are read one after the other: over
 * 16 ms a 2-CPU node read 2.5 cores.  Over 500 ms a tick per CPU is 2 % of
 * a core. */
#define NODEUSAGE_MIN_WINDOW_MS 500

/* The NodeUsage (doc/nodeusage; release *out with nodeusage_release()) for
 * cur, with CPU rates over window_ms against prev (rates unknown when prev
 * is NULL, window_ms <= 0, a counter went back, or a scope's path
 * differs).  A rate over the node's capacity (cur->cpus x 1000: rounding
 * and reads a moment apart) is given as the capacity.  node may be NULL;
 * metadata.timestamp is cur->time_ms. */
void usagerates_nodeusage(const struct nodeusage_sample *prev, const struct nodeusage_sample *cur,
			  int64_t window_ms, const struct nodeusage_cgroup *cg, const char *node,
			  struct nodeusage *out);

/* The NodeUsageState (doc/nodeusage) of s, for the next call's rates.
 * Release *out with nodeusage_state_release(). */
void usagerates_state(const struct nodeusage_sample *s, struct nodeusage_state *out);

/* The previous sample st holds (only the fields rates need) into *prev,
 * released first. */
void usagerates_prev(const struct nodeusage_state *st, struct nodeusage_sample *prev);

/* Milli-cores from a CPU-time delta: (ns1 - ns0) / (window_ms x 1000),
 * rounded to nearest; NODEUSAGE_UNKNOWN when a value is unknown, the window
 * is not positive or the counter went back. */
int64_t usagerates_rate_milli(int64_t ns0, int64_t ns1, int64_t window_ms);

#endif
