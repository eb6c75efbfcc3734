/* SPDX-License-Identifier: Apache-2.0 */
/* evict - which YARN containers to kill under memory or CPU pressure.
 *
 * A pure decision (DESIGN.md section 8): evict_parse_*() turn the input
 * documents (NodeUsage, ContainerList, an optional PodList, the evictor's
 * own state) into values, evict_decide() turns values, the policy and a
 * "now" given by the caller into a plan, and evict_plan_json() prints the
 * plan as a KillPlan (SCHEMAS.md).  Nothing here opens a file or reads a
 * clock.
 *
 * The rules are koordlet's BEMemoryEvict and BECPUEvict
 * (pkg/koordlet/qosmanager/plugins/{memoryevict,cpuevict}; koordlet-qos.md
 * sections 5 and 6) applied to single YARN containers, with the changes the
 * closing notes of koordlet-qos.md call for: the BE CPU request includes
 * the YARN containers' requests, and the BE limit also looks at the
 * hadoop-yarn dir.  Memory is decided first; while memory is under pressure
 * the plan is a memory plan.
 */
#ifndef KILO_EVICT_H
#define KILO_EVICT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/containerlist.h"
#include "doc/evictorstate.h"
#include "doc/killplan.h"
#include "doc/nodeusage.h"
#include "doc/policy.h"

/* A figure that is not known (JSON null).  Every figure below is >= 0 when known. */
#define EVICT_UNKNOWN (-1)

/* One item of a ContainerList (SCHEMAS.md).  Strings are borrowed from the
 * parsed document, which must outlive this. */
struct evict_container {
	const char *id;            /* a valid YARN container id */
	int am;                    /* the `am` guess (containerid_is_am when null) */
	int terminating;           /* NM state KILLING/CLEANEDUP_AFTER_KILL with processes left */
	int64_t processes;         /* process count, or EVICT_UNKNOWN */
	int64_t started_ms;        /* startTime, ms since the epoch, or EVICT_UNKNOWN */
	int64_t memory_bytes;      /* usage.memoryBytes (anon + unevictable), or EVICT_UNKNOWN */
	int64_t cpu_milli;         /* usage.cpuMilli, or EVICT_UNKNOWN */
	int64_t request_cpu_milli; /* requests.cpuMilli (null when the NM is unreachable) */
	int64_t request_memory_bytes; /* requests.memoryBytes */
};

/* limits.besteffort or limits.hadoopYarn of a NodeUsage. */
struct evict_scope_limit {
	int64_t cpuset_cpus;   /* number of CPUs in cpuset.cpus, or EVICT_UNKNOWN */
	int64_t cfs_quota_us;  /* -1 unlimited, or EVICT_UNKNOWN (-1 is read as unlimited) */
	int64_t cfs_period_us; /* > 0, or EVICT_UNKNOWN */
};

/* Everything evict_decide() reads from the documents. */
struct evict_input {
	const char *node;              /* metadata.node, NULL when absent (borrowed) */
	int64_t capacity_memory_bytes; /* NodeUsage capacity.memoryBytes */
	int64_t node_memory_bytes;     /* NodeUsage node.memoryBytes (MemTotal - MemAvailable) */
	int64_t be_cpu_milli; /* NodeUsage qos.besteffort.cpuMilli (includes hadoop-yarn) */
	int64_t window_ms;    /* NodeUsage windowMs: what the CPU rates cover */
	struct evict_scope_limit be, hadoop_yarn;
	int nm_reachable;                   /* ContainerList nodeManager.reachable */
	struct evict_container *containers; /* owned (free with evict_input_release) */
	size_t ncontainers;
	int have_pods;                /* a PodList was given */
	int64_t pods_batch_cpu_milli; /* sum of BE pods' kubernetes.io/batch-cpu requests;
				       * EVICT_UNKNOWN when a pod's could not be read */
	size_t pods_bad;              /* pods whose request could not be read */
	char pods_problem[256];       /* the first one's message, naming the pod */
};

enum evict_resource { EVICT_NONE, EVICT_MEMORY, EVICT_CPU };

/* A victim: container index into evict_input.containers and its expected
 * release (bytes for memory, milli-cores for CPU). */
struct evict_item {
	size_t index;
	int64_t release;
	int from_request; /* release is the request, the usage being unknown */
};

/* A container passed over; reason is a static string. */
struct evict_skip {
	size_t index;
	const char *reason; /* "am", "terminating", "recentlyPlanned", "noProcesses", "noUsage",
			       "noRequest", "nothingToRelease" */
};

struct evict_plan {
	enum evict_resource resource; /* EVICT_NONE: no pressure, trigger null */
	double usage_percent;         /* memory: node/capacity; cpu: BE usage/limit (window) */
	int threshold_percent, lower_percent, upper_percent;
	int64_t need, credit; /* bytes or milli-cores */
	int64_t cool_down_remaining_ms;
	/* memory */
	int64_t usage_bytes, capacity_bytes;
	/* cpu */
	double satisfaction_percent;
	struct killplan_cpu_figures window, current;
	int64_t window_seconds, coverage_ms;
	size_t nsamples;

	struct evict_item *items;
	size_t nitems;
	struct evict_skip *skipped;
	size_t nskipped;
	int pressure_remains;
	char **notes; /* owned: what was not evaluated, and why, in order */
	size_t nnotes;
};

/* The figures of u (doc/nodeusage, read and checked there) the evictor
 * uses into in (node borrowed from u: memory, BE CPU usage, window,
 * limits).  Returns 0, or -1 with e set (ERR_INPUT
 * "NodeUsage.capacity.memoryBytes: expected a positive integer, got 0":
 * usage percentages divide by it). */
int evict_input_usage(struct evict_input *in, const struct nodeusage *u, struct err *e);

/* The containers of cl (doc/containerlist, read and checked there) into
 * in->containers (allocated; ids borrowed from cl, which must outlive in),
 * with nodeManager.reachable and, when in->node is NULL, metadata.node
 * (borrowed). */
void evict_input_containers(struct evict_input *in, const struct containerlist *cl);

/* Sum the kubernetes.io/batch-cpu requests (milli-cores: the quantity's
 * value rounded up, as Quantity.Value() does) of the BE pods of a PodList
 * (or a kubectl List of Pods) into in->pods_batch_cpu_milli and set
 * in->have_pods.  A pod counts when its koordinator.sh/qosClass label is BE
 * (or, without the label, its status.qosClass is BestEffort), its phase is
 * Running or Pending, and its spec.nodeName is in->node (any node when
 * in->node is NULL).  A pod's request is the Kubernetes effective request:
 * max(sum over containers, max over init containers).  A pod whose request
 * cannot be read (any tenant writes pod specs) costs only the BE request:
 * in->pods_batch_cpu_milli is then EVICT_UNKNOWN (CPU eviction waits a
 * pass; memory eviction does not use it), in->pods_bad counts such pods and
 * in->pods_problem names the first ("PodList.items[3] (ns/name)...").
 * Returns 0, or -1 with e set (ERR_INPUT) for a document without items. */
int evict_parse_pods(const json_t *doc, struct evict_input *in, struct err *e);

/* Free what evict_input_containers() allocated. */
void evict_input_release(struct evict_input *in);

/* Read the evictor's state file's document (doc/evictorstate.h) into *st;
 * a NULL doc (no file) is an empty state; name (the file's path) begins
 * every message.  Returns 0, or -1 with e set (ERR_INPUT "<name>:
 * victims[0].atMs: ...") and *st empty. */
int evict_state_parse(const json_t *doc, const char *name, struct evictorstate *st, struct err *e);

/* The BE CPU limit in milli-cores (koordlet cpuevict "real limit", over
 * both dirs): the minimum over the BE dir and the hadoop-yarn dir of
 * |cpuset| x 1000 and, where the quota is not -1, quota x 1000 / period.
 * EVICT_UNKNOWN when neither dir gives a figure. */
int64_t evict_be_limit_milli(const struct evict_input *in);

/* Decide.  Memory (koordlet BEMemoryEvict): trigger at node usage >=
 * memoryEvictThresholdPercent of capacity; need = usage - capacity x
 * lower% (= capacity x (usage% - lower%) / 100 bytes); credit for the
 * memory of terminating containers and of st's victims planned within
 * kilo.terminatingTimeoutMs that are still listed; victims non-AM first,
 * larger usage.memoryBytes, youngest startTime, unknown usage last
 * (released by its request when known, else skipped "noUsage"); AMs only
 * with kilo.allowAM; stop when covered; no new victims within
 * kilo.memoryEvictCoolDownMs of the last.  CPU (koordlet BECPUEvict, off
 * unless both satisfaction percents are set): the current sample is added
 * to st; window averages over cpuEvictTimeWindowSeconds need samples
 * covering a third of it; each evaluation triggers at usage/limit >= the
 * usage threshold and limit/request <= lower, giving request x upper/100 -
 * limit; need = min(window, current); victims non-AM first, higher
 * usage/request, each releasing its request; cool-down
 * kilo.cpuEvictCoolDownMs.  st is updated (samples, victims, last times,
 * pruned) for the caller to save.  *plan is filled (release with
 * evict_plan_release).  Never fails. */
void evict_decide(const struct policy *p, const struct evict_input *in, struct evictorstate *st,
		  int64_t now_ms, struct evict_plan *plan);

/* The KillPlan of plan (doc/killplan.h): its trigger, victims (with their
 * sort keys from in), skipped containers and notes, gracePeriodMs from p,
 * metadata from in->node and now_ms.  Release *kp with killplan_release. */
void evict_killplan(const struct evict_plan *plan, const struct evict_input *in,
		    const struct policy *p, int64_t now_ms, struct killplan *kp);

/* killplan_to_json() of evict_killplan().  New reference. */
json_t *evict_plan_json(const struct evict_plan *plan, const struct evict_input *in,
			const struct policy *p, int64_t now_ms);

/* Free the plan's arrays and notes. */
void evict_plan_release(struct evict_plan *plan);

#endif
