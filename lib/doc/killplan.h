/* SPDX-License-Identifier: Apache-2.0 */
/* killplan - the KillPlan document (SCHEMAS.md "KillPlan"): what the
 * evictor decided to kill and why, read by `yarn-copilot kill`.
 *
 * The evictor fills a struct killplan from its decision (decide/evict.h)
 * and prints it with killplan_to_json(); `yarn-copilot kill` reads it with
 * killplan_from_json().  The reader reads what a kill needs: gracePeriodMs
 * and items[].id.  The rest (metadata, trigger, the items' reason,
 * expectedRelease and sortKeys, skipped, pressureRemains, notes) explains
 * the plan to people and is not read: a hand-written plan of ids is a plan,
 * and a plan is never refused for its explanation.  Pure.
 */
#ifndef KILO_KILLPLAN_H
#define KILO_KILLPLAN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* A figure that is not known (JSON null, or not read).  Known figures are >= 0. */
#define KILLPLAN_UNKNOWN (-1)

/* trigger.resource and items[].reason; KILLPLAN_NONE: "trigger":null. */
enum killplan_resource { KILLPLAN_NONE, KILLPLAN_MEMORY, KILLPLAN_CPU };

/* trigger.window and trigger.current of a CPU plan (koordlet cpuevict
 * steps 2-4), milli-cores. */
struct killplan_cpu_figures {
	int64_t usage_cpu_milli, limit_cpu_milli, request_cpu_milli;
	int64_t need_cpu_milli; /* 0 when this evaluation does not trigger */
};

/* trigger: why there is pressure.  Memory: usagePercent (node usage over
 * capacity), thresholdPercent, lowerPercent, needBytes, creditBytes,
 * usageBytes, capacityBytes, coolDownRemainingMs.  CPU: usagePercent (BE
 * usage over limit, window), thresholdPercent, satisfactionPercent,
 * lowerPercent, upperPercent, needCpuMilli, creditCpuMilli, window,
 * current, windowSeconds, coverageMs, samples, requestFrom,
 * coolDownRemainingMs.  Percents are written rounded to 2 decimals. */
struct killplan_trigger {
	enum killplan_resource resource;
	double usage_percent;
	int threshold_percent, lower_percent, upper_percent;
	int64_t need, credit; /* bytes (memory) or milli-cores (cpu) */
	int64_t cool_down_remaining_ms;
	int64_t usage_bytes, capacity_bytes; /* memory */
	double satisfaction_percent;         /* cpu, and the rest */
	struct killplan_cpu_figures window, current;
	int64_t window_seconds, coverage_ms, samples;
	int request_from_pods; /* requestFrom "yarn+pods", else "yarn" */
};

/* One victim.  expectedRelease holds release under memoryBytes (memory)
 * or cpuMilli (cpu), the other null; from says whether it is the usage or
 * the request.  sortKeys: memory {am, memoryBytes, startedMs}, cpu {am,
 * cpuMilli, requestCpuMilli, startedMs}. */
struct killplan_item {
	char *id; /* a valid YARN container id (doc/containerid.h), owned */
	enum killplan_resource reason;
	int64_t release;
	int from_request;
	int am;
	int64_t memory_bytes, cpu_milli, request_cpu_milli, started_ms; /* or KILLPLAN_UNKNOWN */
};

/* A container passed over (skipped[]): reason as evict.h lists them. */
struct killplan_skip {
	char *id, *reason; /* owned */
};

struct killplan {
	char *node;              /* metadata.node, or NULL (owned) */
	int64_t timestamp_ms;    /* metadata.timestamp, ms since the epoch */
	int64_t grace_period_ms; /* gracePeriodMs 0..3600000, or KILLPLAN_UNKNOWN (absent) */
	struct killplan_trigger trigger;
	struct killplan_item *items; /* owned */
	size_t nitems;
	struct killplan_skip *skipped; /* owned */
	size_t nskipped;
	int pressure_remains;
	char **notes; /* owned: what was not evaluated, and why */
	size_t nnotes;
};

/* The most gracePeriodMs may be: an hour, in ms. */
#define KILLPLAN_GRACE_MAX 3600000

/* Read a KillPlan: gracePeriodMs (absent or null: KILLPLAN_UNKNOWN) and
 * items[].id, each a valid container id listed once; every other field is
 * left zero (see the top).  Returns 0, or -1 with e set (ERR_INPUT,
 * "KillPlan.items[2].id: expected a YARN container id, got ...",
 * "KillPlan.items[1].id: '<id>' is listed twice") and *out empty. */
int killplan_from_json(const json_t *doc, struct killplan *out, struct err *e);

/* The KillPlan document of kp (SCHEMAS.md), with "notes" after
 * "pressureRemains"; gracePeriodMs is written as it is.  New reference. */
json_t *killplan_to_json(const struct killplan *kp);

/* Append a copy of note to kp->notes. */
void killplan_add_note(struct killplan *kp, const char *note);

/* Free what kp owns and zero it. */
void killplan_release(struct killplan *kp);

#endif
