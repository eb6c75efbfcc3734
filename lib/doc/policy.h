/* SPDX-License-Identifier: Apache-2.0 */
/* policy - the node policy shared by qos-cgset, evictor and resctrl-assign.
 *
 * The file (`--policy FILE`, YAML or JSON) is a Koordinator NodeSLO object
 * (`kubectl get nodeslo NAME -o yaml`) or just its `spec`; field names and
 * defaults are NodeSLO's (koordinator apis/slo/v1alpha1/nodeslo_types.go,
 * pkg/util/sloconfig; koordlet-qos.md sections 2-8).  Fields that only kilo
 * has live under a top-level `kilo:` mapping (beside `spec:` in a NodeSLO
 * object, or at the top of a bare spec).  NodeSLO fields kilo does not use
 * are ignored silently.  Unknown fields (config_fields()): under `kilo:`
 * an error (CONFIG_STRICT: kilo's own); elsewhere an error when within two
 * edits of a NodeSLO field of that mapping (a typo would silently keep a
 * default, memoryEvictThresholdPrecent the threshold at 70), else a warning
 * (CONFIG_LENIENT: a newer Koordinator's field must not stop the tools).
 *
 * One deliberate difference: `resourceUsedThresholdWithBE.enable` and the
 * beClass `cpuQOS`/`memoryQOS`/`resctrlQOS` `enable` flags default to true,
 * because running a kilo tool is itself the request to apply its strategy;
 * an explicit `enable: false` turns the strategy off.
 */
#ifndef KILO_POLICY_H
#define KILO_POLICY_H

#include <jansson.h>
#include <stdint.h>

#include "core/config.h"
#include "core/err.h"

enum policy_suppress {
	POLICY_SUPPRESS_CPUSET,   /* cpuSuppressPolicy: cpuset (default) */
	POLICY_SUPPRESS_CFSQUOTA, /* cpuSuppressPolicy: cfsQuota */
};

enum policy_class { POLICY_LSR, POLICY_LS, POLICY_BE, POLICY_NCLASSES };

/* resourceQOSStrategy.<class>.resctrlQOS */
struct policy_resctrl {
	int enable;            /* default: BE true, LSR/LS false */
	int cat_start_percent; /* catRangeStartPercent, 0..100, default 0 */
	int cat_end_percent;   /* catRangeEndPercent, 0..100, default BE 30, else 100 */
	int mba_percent;       /* mbaPercent, 0..100, default 100 (0 and values under the
				* kernel's min_bandwidth are raised to it, with a warning) */
};

/* The most MB domains kilo.mbaBandwidth may name one by one. */
#define POLICY_MBA_DOMAINS 64

/* kilo.mbaBandwidth and kilo.mbaMaxBandwidth: MB values in the kernel's
 * own unit, for where a percent means nothing (AMD: absolute bandwidth,
 * 2048 the default and maximum on current parts; Intel mounted with
 * mba_MBps: MiB/s). */
struct policy_mba {
	int64_t all; /* kilo.mbaBandwidth as one number for every domain, -1 unset */
	size_t n;    /* kilo.mbaBandwidth as a map domain id -> value */
	struct {
		unsigned id;
		int64_t value;
	} dom[POLICY_MBA_DOMAINS];
	int64_t max; /* kilo.mbaMaxBandwidth: what 100 % is, -1 unset */
};

struct policy {
	/* resourceUsedThresholdWithBE */
	int threshold_enable;                        /* enable (default true, see above) */
	int cpu_suppress_threshold_percent;          /* 0..100, default 65 */
	int cpu_suppress_min_percent;                /* 0..100, -1 when unset (default) */
	enum policy_suppress cpu_suppress_policy;    /* default cpuset */
	int memory_evict_threshold_percent;          /* 0..100, default 70 */
	int memory_evict_lower_percent;              /* < threshold, default threshold - 2 */
	int cpu_evict_be_usage_threshold_percent;    /* 0..100, default 90 */
	int cpu_evict_be_satisfaction_lower_percent; /* (0, 60], -1 unset: CPU evict off */
	int cpu_evict_be_satisfaction_upper_percent; /* (0, 100), >= lower, -1 unset */
	int64_t cpu_evict_time_window_seconds;       /* >= 1; unset means koordlet's 1 s interval */

	/* resourceQOSStrategy.beClass */
	int cpu_qos_enable;      /* cpuQOS.enable, default true */
	int group_identity;      /* cpuQOS.groupIdentity -1..2 -> cpu.bvt_warp_ns, default -1 */
	int sched_idle;          /* cpuQOS.schedIdle 0/1 -> cpu.idle, default 0 */
	int memory_qos_enable;   /* memoryQOS.enable, default true */
	int wmark_ratio;         /* memoryQOS.wmarkRatio 0..100, default 95 */
	int wmark_scale_permill; /* memoryQOS.wmarkScalePermill 1..1000, default 20 */
	int wmark_min_adj;       /* memoryQOS.wmarkMinAdj -25..50, default 50 */
	int priority_enable;     /* memoryQOS.priorityEnable 0/1, default 0 */
	int priority;            /* memoryQOS.priority 0..12, default 0 */
	struct policy_resctrl resctrl[POLICY_NCLASSES];

	/* kilo: */
	int64_t node_reserved_cpu_milli;      /* kilo.nodeReserved.cpuMilli, default 0 */
	char reserved_cpus[256];              /* kilo.reservedCPUs, cpuset list, default "" */
	int allow_am;                         /* kilo.allowAM, default false */
	int64_t terminating_timeout_ms;       /* kilo.terminatingTimeoutMs, default 10000 */
	int64_t memory_evict_cool_down_ms;    /* kilo.memoryEvictCoolDownMs, default 4000 */
	int64_t cpu_evict_cool_down_ms;       /* kilo.cpuEvictCoolDownMs, default 20000 */
	int64_t grace_period_ms;              /* kilo.gracePeriodMs, KillPlan's, default 250 */
	int hadoop_yarn_memory_limit_percent; /* kilo.hadoopYarnMemoryLimitPercent, -1 off */
	int hadoop_yarn_memory_high_percent;  /* kilo.hadoopYarnMemoryHighPercent, -1 off */
	int64_t memory_limit_margin_bytes;    /* kilo.memoryLimitMarginBytes, default 256 MiB */
	struct policy_mba mba; /* kilo.mbaBandwidth (the BE group), mbaMaxBandwidth */
};

/* Fill *p with the defaults documented above. */
void policy_defaults(struct policy *p);

/* Read *p from a loaded config (see the top of this file) over the values
 * already in *p (policy_defaults() first).  Unknown NodeSLO fields that are
 * not errors are appended to warnings (an array of "path" strings) when it
 * is not NULL.  Returns 0, or -1 with e set (ERR_INPUT naming file, line,
 * column, field and value), e.g. an unknown field under kilo:, a typo of a
 * NodeSLO field ("did you mean ...?"), a percent outside 0..100, a CPU satisfaction lower
 * outside (0, 60], an upper outside (0, 100) or below lower, a memory lower
 * at or above the threshold (koordlet's own config checks). */
int policy_from_config(struct policy *p, const struct config *c, json_t *warnings, struct err *e);

/* policy_defaults(), then, when path is not NULL, config_load() and
 * policy_from_config().  Returns 0 or -1 with e set. */
int policy_load(struct policy *p, const char *path, json_t *warnings, struct err *e);

/* The class name used in NodeSLO ("lsrClass") and the resctrl group name
 * ("LSR"). */
const char *policy_class_field(enum policy_class k);
const char *policy_class_group(enum policy_class k);

#endif
