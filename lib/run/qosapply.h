/* SPDX-License-Identifier: Apache-2.0 */
/* qosapply - one qos-cgset pass over the hadoop-yarn tree: read the tree,
 * plan with lib/decide/qos, execute with lib/run/cgchange.
 *
 * Steps (koordlet-qos.md sections 2-4, DESIGN.md section 6):
 *   0. v1: mirror every container_* dir of the cpu hierarchy into cpuset and
 *      memory (mkdir, cpuset.cpus and cpuset.mems from the parent,
 *      memory.move_charge_at_immigrate 3, then the pids), remove mirrors of
 *      containers gone from cpu;
 *   1. cpu.shares (v2 cpu.weight) of the hadoop-yarn dir, after cpu.idle;
 *   2. CPU suppress of the hadoop-yarn dir (or the besteffort dir): cpuset
 *      and CFS quota;
 *   3. cpu.bvt_warp_ns of the hadoop-yarn dir;
 *   4. memory QoS knobs, memory.oom.group, the optional memory cap.
 * Steps 0, 1, 3 and 4 are the "static" part (every 10 s in the node loop),
 * step 2 the "suppress" part (every second).  Each step is a module of its
 * own (run/qosstep.h: qosstep_mirror.c, _shares.c, _suppress.c with
 * _cpulimit.c, _memory.c); qosapply.c runs them, qosapply_inputs.c reads
 * the documents.
 */
#ifndef KILO_QOSAPPLY_H
#define KILO_QOSAPPLY_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"
#include "core/jsonio.h"
#include "decide/qos.h"
#include "doc/containerlist.h"
#include "doc/nodeusage.h"
#include "doc/policy.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"
#include "run/cgchange.h"

/* The pids yarn-copilot list found in one container's cgroup. */
struct qosapply_pids {
	char id[CONTAINERID_MAX + 1];
	pid_t *pids;
	size_t n;
};

/* What NodeUsage and ContainerList say, checked before anything is written. */
struct qosapply_inputs {
	const char *node;      /* metadata.node of either document, or NULL (borrowed) */
	int usage_known;       /* every cpuMilli of the suppress formula is known */
	const char *usage_why; /* else why not, for the skipped item (static text) */
	struct qos_suppress_in usage;
	int64_t capacity_bytes;     /* capacity.memoryBytes, -1 unknown */
	int requests_known;         /* NM reachable and every live container's request known */
	int64_t cpu_milli_sum;      /* Σ requests.cpuMilli of live containers */
	size_t nlive;               /* live containers (phase starting or running) */
	size_t nunknown;            /* of them, in a state the NodeManager table lacks */
	struct qosapply_pids *pids; /* items' "pids" where given, sorted by id (owned) */
	size_t npids;
	json_t *stale;    /* ids of items with "stale": true, as an object's keys (owned) */
	json_t *held;     /* ids the NodeManager lists in a phase other than finished (owned) */
	int nm_reachable; /* ContainerList's nodeManager.reachable */
};

/* Read usage (the NodeUsage read by nodeusage_from_json(), may be NULL) and
 * list (the ContainerList read by containerlist_from_json(), may be NULL) into *in; both must outlive *in.
 * A live container is containerlist_item's live: its NM state's phase
 * (doc/nmstate) is starting or running, or a state the table lacks
 * (counted in nunknown); killing and finished ones hold no allocation, nor
 * does an item without a state (a dir the NodeManager does not list).  An
 * item's pids (when known) are kept for the mirror step.  Returns 0, or -1
 * with e set (ERR_INPUT naming the field and the value; the sum of the
 * live requests overflowing int64).  Release with qosapply_inputs_release()
 * either way. */
int qosapply_inputs(const struct nodeusage *usage, const struct containerlist *list,
		    struct qosapply_inputs *in, struct err *e);

void qosapply_inputs_release(struct qosapply_inputs *in);

/* The pids ContainerList gave for container id, or NULL (in->pids is
 * sorted by id: a binary search). */
const struct qosapply_pids *qosapply_inputs_pids(const struct qosapply_inputs *in, const char *id);

/* The fields of NodeUsage and ContainerList qosapply_inputs() and
 * containerlist_from_json() read, for
 * jsonio_collect(): a reader that builds only these gives the same
 * inputs with a fraction of the allocations (test_cgchange checks both). */
extern const struct jsonio_filter qosapply_input_fields[];

struct qosapply_opts {
	const struct cgroup_layout *layout;
	const struct sysroot *sysroot;
	const struct policy *policy;
	const struct qosapply_inputs *in;
	int scope_besteffort;      /* suppress the besteffort dir, not hadoop-yarn */
	enum qos_weight_conv conv; /* v2 cpu.weight formula */
	int do_static;             /* steps 0, 1, 3, 4 */
	int do_suppress;           /* step 2 */
	int dry_run;
	int64_t page_size;     /* bytes, for the memory cap */
	struct cgcache *cache; /* values of the container dirs' files, or NULL */
};

/* Run one pass, appending every decision to plan (release it afterwards).
 * The mirror step is executed before the rest is planned, so the new dirs
 * are part of the suppress and memory steps.  With o->cache, every
 * container dir found is entered in it, and the files of those dirs (their
 * cpuset.cpus, memory.oom.group, cpu.cfs_quota_us, and which pids a mirror
 * holds) are taken from it when it has them; a mirror whose pids had to be
 * moved is read again next pass (a process may fork during the move).
 * Never fails as a whole: read and write errors are items with result
 * failed. */
void qosapply_run(const struct qosapply_opts *o, struct cgchange_plan *plan);

/* The CgroupChanges head of a pass's plan (doc/cgroupchanges.h, the items
 * are streamed after it): dry_run, metadata.node (copied; NULL: none),
 * metadata.timestamp now_ms and the summary of every item.  Release with
 * cgroupchanges_release(). */
void qosapply_head(const struct cgchange_plan *plan, const char *node, int dry_run, int64_t now_ms,
		   struct cgroupchanges *head);

/* One line per failed item of plan for the operator through warn (its
 * error, "write failed" without one; the report has them all), and one per
 * cpuset item whose dir holds processes that are no member: "<cg>:
 * <reason> (pid <first> first)".  In the plan's order. */
void qosapply_warnings(const struct cgchange_plan *plan, err_say_fn *warn);

#endif
