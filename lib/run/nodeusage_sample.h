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
		     const struct sysroot *sr, int64_t now_ms, void (*warn)(const struct err *e),
		     struct err *e);

/* The cgroup part of the NodeUsage document for layout l (borrowed: l
 * must outlive the result). */
struct nodeusage_cgroup nodeusage_sample_cgroup(const struct cgroup_layout *l);

#endif
