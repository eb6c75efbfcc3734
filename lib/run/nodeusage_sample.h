/* SPDX-License-Identifier: Apache-2.0 */
/* nodeusage_sample - read one NodeUsage sample (decide/usagerates.h) through
 * the sysroot: proc/stat, proc/meminfo, the online CPUs, and each kube QoS
 * and hadoop-yarn cgroup's CPU time, memory and limits.
 */
#ifndef KILO_NODEUSAGE_SAMPLE_H
#define KILO_NODEUSAGE_SAMPLE_H

#include <stdint.h>

#include "core/err.h"
#include "decide/usagerates.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"

/* Read a sample through sr at wall time now_ms.  Node files (proc/stat,
 * proc/meminfo, sys/devices/system/cpu/online) must be readable: else -1
 * with e set.  A scope whose cgroup dir is absent in a controller, or a file
 * the kernel lacks, leaves that value unknown.  Any other cgroup read error
 * also leaves it unknown, counts in s->errors and is passed to warn (when
 * not NULL) with its message.  Returns 0. */
int nodeusage_sample(struct nodeusage_sample *s, const struct cgroup_layout *l,
		     const struct sysroot *sr, int64_t now_ms, err_say_fn *warn, struct err *e);

/* The cgroup part of the NodeUsage document for layout l (borrowed: l
 * must outlive the result). */
struct nodeusage_cgroup nodeusage_sample_cgroup(const struct cgroup_layout *l);

struct nodeusage_pass_opts {
	const struct cgroup_layout *layout;
	const struct sysroot *sysroot;
	int with_state;      /* --state: the previous sample is the state's */
	int64_t interval_ms; /* without state: between the two samples */
	const char *node;    /* metadata.node, or NULL */
	/* One warning line for the operator (a cgroup read error, a sample
	 * too recent for a rate), in the pass's order. */
	err_say_fn *warn;
};

/* One node-usage pass (node-usage(1)): with o->with_state, prev is the
 * state's sample (have: one was read), else a first sample is taken into
 * prev interval_ms before the second.  The second goes into *cur (the next
 * state's) and the NodeUsage of the two into *usage (usagerates_nodeusage;
 * release with nodeusage_release()).  A state's sample less than
 * NODEUSAGE_MIN_WINDOW_MS old gives no rates, a warning, and *keep_prev 1:
 * the state keeps the older sample for the next call.  Returns 0, or -1
 * with e set when a sample's node files cannot be read (nodeusage_sample);
 * *usage is filled only on 0. */
int nodeusage_sample_pass(const struct nodeusage_pass_opts *o, struct nodeusage_sample *prev,
			  int have, struct nodeusage_sample *cur, struct nodeusage *usage,
			  int *keep_prev, struct err *e);

#endif
