/* SPDX-License-Identifier: Apache-2.0 */
/* qosstep - the steps of a qos-cgset pass (run/qosapply.h lists them): each
 * a small module turning values (the policy, the inputs, what the tree
 * holds) into items of the pass's cgchange plan, with every file named
 * through the knob table (kernel/cgknob.h); qosapply_run() runs them in
 * order.  Internal to the qosapply modules: the state of one pass and the
 * tree helpers the steps share.  Every function here appends to x->plan
 * and never fails as a whole: a read it needed that failed is a failed
 * item, a dir that is not there a skipped one.
 */
#ifndef KILO_QOSSTEP_H
#define KILO_QOSSTEP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/cgknob.h"
#include "run/qosapply.h"

/* File names of the knob table. */
#define CPUS(l) cgknob_file(l, CGKNOB_CPUSET_CPUS, CGROUP_CPUSET)
#define MEMS(l) cgknob_file(l, CGKNOB_CPUSET_MEMS, CGROUP_CPUSET)
#define PROCS(l, c) cgknob_file(l, CGKNOB_PROCS, c)

/* One pass: its options (borrowed), the plan it fills, the container dirs
 * found under the hadoop-yarn dir (cgroup_list_containers(), owned by the
 * orchestrator). */
struct qosstep {
	const struct qosapply_opts *o;
	const struct cgroup_layout *l;
	const struct sysroot *s;
	struct cgchange_plan *plan;
	struct cgroup_container *containers;
	size_t ncontainers;
};

/* ---- Tree helpers (qosstep.c) ------------------------------------------- */

/* The parent cgroup path of cg ("/" for a top-level one).  New string. */
char *qosstep_parent(const char *cg);

/* cg/name as a cgroup path.  New string. */
char *qosstep_child(const char *cg, const char *name);

/* The names of the subdirs of cg in c, sorted; *n of them (new array of
 * new strings, release with qosstep_free_names(); NULL when none or
 * unreadable). */
char **qosstep_subdirs(const struct qosstep *x, enum cgroup_ctrl c, const char *cg, size_t *n);

void qosstep_free_names(char **names, size_t n);

/* 1 when p is among pids[0..n). */
int qosstep_has_pid(const pid_t *pids, size_t n, pid_t p);

/* cgroup_read() through x->o->cache: a status, the text in *out (new) when
 * CGROUP_OK, *age_ms the cache's age of it or -1 when read now. */
int qosstep_read_cached(const struct qosstep *x, enum cgroup_ctrl c, const char *cg,
			const char *file, char **out, int64_t *age_ms);

/* Integer knob k of the cpu dir cg through the cache: 1 with *v, else 0. */
int qosstep_read_cached_i64(const struct qosstep *x, const char *cg, enum cgknob k, int64_t *v);

/* One item, on a chain of its own, writing v (formatted by the table) to
 * knob k of cg, why its reason. */
void qosstep_add_int(struct qosstep *x, enum cgknob k, const char *cg, int64_t v, const char *why);

/* ---- The steps ---------------------------------------------------------- */

/* Step 0 (qosstep_mirror.c, cgroup v1): every container_* dir of the cpu
 * hierarchy mirrored into cpuset and memory where kilo owns them (mkdir,
 * the parent's cpuset.cpus and cpuset.mems, memory.move_charge_at_immigrate
 * 3, then the member pids, kernel/members.h), mirrors of containers gone
 * from cpu removed once the NodeManager holds them no more; a cpuset dir
 * left empty is healed from its parent, ancestors first, before any pid
 * goes in. */
void qosstep_mirror(struct qosstep *x);

/* Step 1 (qosstep_shares.c): cpu.idle, then the hadoop-yarn dir's weight:
 * decide/qos qos_shares() of the live containers' requests, v2 converted
 * with qos_weight() (the table's CGKNOB_WEIGHT). */
void qosstep_shares(struct qosstep *x);

/* Step 2 (qosstep_suppress.c): decide/qos qos_suppress_milli() from
 * NodeUsage and the policy, then the cpuset and the CFS quota of the
 * target (the hadoop-yarn or the besteffort dir): one of them limits, the
 * other is restored or unlimited (cpuSuppressPolicy). */
void qosstep_suppress(struct qosstep *x);

/* The cpuset of target and its subdirs (qosstep_cpulimit.c): with restore
 * all candidate CPUs (the parent's minus kilo.reservedCPUs), else the
 * count qos_cpuset_want(allowed) milli-cores need, grown by at most
 * qos_cpuset_step() a pass and chosen by qos_cpuset_choose(); written in
 * qos_cpuset_order() on one chain, never empty and, unless restored,
 * never below QOS_MIN_CPUSET_CPUS. */
void qosstep_cpuset(struct qosstep *x, const char *target, int64_t allowed, int restore,
		    const char *why);

/* The CFS quota of target (qosstep_cpulimit.c): unlimited, or
 * qos_cfs_quota() of allowed milli-cores in its period, rounded by
 * qos_cfs_quota_round() and, on v1, raised to cover a limited child
 * (qos_cfs_quota_v1()). */
void qosstep_quota(struct qosstep *x, const char *target, int64_t allowed, int unlimited,
		   const char *why);

/* Step 3 (qosstep_suppress.c): cpu.bvt_warp_ns of the hadoop-yarn dir,
 * beClass.cpuQOS.groupIdentity (0 when cpuQOS is disabled). */
void qosstep_identity(struct qosstep *x);

/* Step 4 (qosstep_memory.c): the memory QoS knobs of the hadoop-yarn dir
 * (qos_memory_values()), memory.oom.group of each container dir when the
 * hadoop-yarn dir has the file, and its memory limits: memory.max (v1
 * memory.limit_in_bytes) of kilo.hadoopYarnMemoryLimitPercent, memory.high
 * (v2 only) of kilo.hadoopYarnMemoryHighPercent (qos_memory_cap(): deferred
 * below usage + kilo.memoryLimitMarginBytes). */
void qosstep_memory(struct qosstep *x);

#endif
