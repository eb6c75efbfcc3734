/* SPDX-License-Identifier: Apache-2.0 */
/* qos - the decisions of qos-cgset for the hadoop-yarn tree: pure functions
 * of their arguments (no file, no clock), so every number the tool writes is
 * unit-tested from literals.  The I/O side (reading the tree, writing only
 * what differs) is lib/run/qosapply and lib/run/cgchange.
 *
 * Sources: koordlet-qos.md sections 2 (CPU suppress), 3 (group identity), 4
 * (memory QoS) and its closing notes; yarn-copilot's cpu.shares rule
 * (Σ vCores of live containers x 1024); the kernel's cgroup v1 rules for
 * cpuset (child within parent) and CFS bandwidth (child ratio <= parent).
 */
#ifndef KILO_QOS_H
#define KILO_QOS_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/cpuset.h"
#include "doc/policy.h"

/* cpu.shares range of the kernel (MIN_SHARES 2, MAX_SHARES 262144). */
#define QOS_SHARES_MIN 2
#define QOS_SHARES_MAX 262144
/* koordlet beMinCPUSetCores and beMinQuota (us). */
#define QOS_MIN_CPUSET_CPUS 2
#define QOS_MIN_QUOTA_US 2000

/* ---- cpu.shares / cpu.weight ------------------------------------------ */

/* cpu.shares of the hadoop-yarn dir for a sum of container requests in
 * milli-cores (yarn-copilot: Σ vCores x 1024, with vCores = cpuMilli / 1000),
 * clamped to [2, 262144]. */
int64_t qos_shares(int64_t cpu_milli_sum);

enum qos_weight_conv {
	QOS_WEIGHT_LINEAR,    /* kubelet, koordlet, runc < 1.3 */
	QOS_WEIGHT_NONLINEAR, /* runc >= 1.3, crun: quadratic in log2(shares) */
};

/* cpu.shares <-> cpu.weight, the mapping of runc and the kubelet
 * (libcontainer/cgroups ConvertCPUSharesToCgroupV2Value): weight =
 * 1 + (shares - 2) x 9999 / 262142, shares clamped to 2..262144; and its
 * inverse, the fewest shares that map to weight (1..10000). */
int64_t qos_shares_to_weight(int64_t shares);
int64_t qos_weight_to_shares(int64_t weight);

/* cpu.weight (1..10000) for shares.  Linear: 1 + ((shares - 2) x 9999) /
 * 262142 (7168 -> 274; qos_shares_to_weight).  Nonlinear (crun
 * convert_shares_to_weight, opencontainers/cgroups ConvertCPUSharesToCgroupV2Value):
 * l = log2(shares), ceil(10^((l^2 + 125 l) / 612 - 7/34)) (7168 -> 477);
 * shares <= 2 gives 1, >= 262144 gives 10000. */
int64_t qos_weight(int64_t shares, enum qos_weight_conv conv);

/* "linear" or "nonlinear". */
const char *qos_weight_conv_name(enum qos_weight_conv conv);

/* Parse "linear" or "nonlinear".  Returns 0, or -1 with e set (ERR_USAGE
 * naming --weight-conversion and the value). */
int qos_weight_conv_parse(const char *s, enum qos_weight_conv *out, struct err *e);

/* ---- CPU suppress ------------------------------------------------------ */

/* Inputs of the suppress formula, milli-cores. */
struct qos_suppress_in {
	int64_t capacity_milli; /* NodeUsage capacity.cpuMilli */
	int64_t nonbe_milli;    /* usage of the guaranteed and burstable pods */
	int64_t system_milli;   /* NodeUsage system.cpuMilli */
	int64_t reserved_milli; /* kilo.nodeReserved.cpuMilli */
};

/* The CPU the suppressed dir may use, milli-cores (koordlet cpusuppress
 * calculateBESuppressCPU): capacity x threshold% - nonBE - max(system,
 * reserved), floored at capacity x min% when min_percent >= 0, and at 0. */
int64_t qos_suppress_milli(const struct qos_suppress_in *in, int threshold_percent,
			   int min_percent);

/* Number of CPUs for allowed milli-cores: ceil(allowed / 1000), at least 2
 * (koordlet beMinCPUSetCores). */
int qos_cpuset_want(int64_t allowed_milli);

/* The count to write this round (koordlet): growing is limited to
 * ceil(10% of nlogical) above current, shrinking is immediate; never below
 * 2 when want is at least 2 (a dir with 0 or 1 CPUs grows to 2 at once). */
int qos_cpuset_step(int current, int want, int nlogical);

/* Pick count CPUs of candidates as koordlet does
 * (calculateBESuppressCPUSetPolicy): bucket the CPUs of topo[] that are in
 * candidates by (node, package), sort each bucket by (core, cpu), order the
 * buckets by size (largest first, ties by first CPU), then take both
 * hyperthreads of a core round-robin over the buckets while at least 2 are
 * needed, then single CPUs round-robin.  count is capped at the number of
 * candidates.  *out is cleared first.  Returns the number taken. */
int qos_cpuset_choose(const struct cpuset_cpu *topo, size_t ntopo, const struct cpuset *candidates,
		      int count, struct cpuset *out);

/* 1 when chosen could be what qos_cpuset_choose() gives for candidates and
 * count over the online CPUs: within both, and exactly min(count, number
 * of online candidates) CPUs; else 0.  Checks a remembered choice (the
 * qos-cgset cache) before it is written. */
int qos_cpuset_choice_valid(const struct cpuset *chosen, const struct cpuset *candidates,
			    const struct cpuset *online, int count);

/* A cgroup of a cpuset subtree, in pre-order (each parent before its
 * children); parent is the index of its parent in the same array, -1 for
 * the top. */
struct qos_cpuset_dir {
	int parent;
	const struct cpuset *old; /* its cpuset.cpus now (borrowed: dirs
					    holding the same set may share it) */
};

/* One cpuset.cpus write: dirs[dir] gets set. */
struct qos_cpuset_write {
	size_t dir;
	struct cpuset set;
};

/* The writes that move every dir of the subtree to target while each child
 * stays within its parent at every step (cgroup v1 refuses otherwise;
 * koordlet applyCPUSetWithNonePolicy): first old ∪ target top-down, where it
 * differs from old (a widen: parents first), then target bottom-up, where
 * it differs from what the dir then holds (a shrink: children first).  A
 * disjoint move goes through the union.  out must hold 2 x n entries.
 * Returns the number of writes, 0 when target is empty (never written). */
size_t qos_cpuset_order(const struct qos_cpuset_dir *dirs, size_t n, const struct cpuset *target,
			struct qos_cpuset_write *out);

/* CFS bandwidth of a cgroup, us; quota -1 is unlimited. */
struct qos_cfs {
	int64_t quota_us;
	int64_t period_us;
};

/* The quota for allowed milli-cores in period_us (koordlet cfsQuota policy):
 * allowed x period / 1000, at least 2000 us. */
int64_t qos_cfs_quota(int64_t allowed_milli, int64_t period_us);

/* The quota to write this round, from the current one (koordlet cfsQuota
 * policy): a change smaller than 1% of capacity (capacity cores x period
 * x 0.01) keeps current, unless want is the 2000 us minimum; a rise from a
 * limited current is at most 10% of capacity (cores x period x 0.1); from
 * unlimited (-1) want is taken at once (koordlet #2723).  want -1 is
 * returned as is. */
int64_t qos_cfs_quota_round(int64_t current_us, int64_t want_us, int64_t capacity_milli,
			    int64_t period_us);

/* The v1 quota of a dir with period_us whose children have children[]: the
 * kernel (tg_cfs_schedulable_down) refuses a parent quota/period below a
 * child's, so quota is raised to ceil(child quota x period / child period)
 * for every limited child.  *raised_by is the index of the child that set
 * the result, or -1 when quota was kept.  quota -1 stays -1. */
int64_t qos_cfs_quota_v1(int64_t quota_us, int64_t period_us, const struct qos_cfs *children,
			 size_t n, long *raised_by);

/* ---- Memory QoS -------------------------------------------------------- */

/* Values of the memory QoS files (koordlet-qos.md section 4): the beClass
 * values when memoryQOS is enabled, koordlet's "None" values otherwise. */
struct qos_memory {
	int wmark_ratio;           /* memory.wmark_ratio */
	int wmark_scale_factor;    /* memory.wmark_scale_factor (wmarkScalePermill) */
	int wmark_min_adj;         /* memory.wmark_min_adj */
	int priority;              /* memory.priority */
	int use_priority_oom;      /* memory.use_priority_oom (priorityEnable) */
	int oom_group_container;   /* memory.oom.group of each container_* dir */
	int oom_group_hadoop_yarn; /* memory.oom.group of the hadoop-yarn dir itself */
};

/* Fill *m from the policy: enabled gives the policy's values, container
 * oom.group 1 (one OOM kills the whole container) and hadoop-yarn 0 (else
 * one OOM kills every container); disabled gives 0, 50, 0, 0, 0, 0, 0. */
void qos_memory_values(const struct policy *p, struct qos_memory *m);

/* The memory cap of the hadoop-yarn tree: capacity x percent / 100 bytes,
 * rounded down to page_size (the kernel's own rounding, so a second pass
 * reads back the same number) into *limit.  Returns 1 when it may be written:
 * it does not lower the current limit (current_bytes, -1 unknown), or it
 * stays at or above usage + margin; 0 when it must wait ("deferred": usage
 * unknown, -1, or too high). */
int qos_memory_cap(int64_t capacity_bytes, int percent, int64_t current_bytes, int64_t usage_bytes,
		   int64_t margin_bytes, int64_t page_size, int64_t *limit);

#endif
