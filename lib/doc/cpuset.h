/* SPDX-License-Identifier: Apache-2.0 */
/* cpuset - sets of logical CPUs, as the kernel's list format writes them
 * ("0-3,8": cpuset.cpus, sys/devices/system/cpu/online, a node's cpulist;
 * Documentation/admin-guide/cgroup-v1/cpusets.rst), and one CPU's place in
 * the topology.  Pure values: the cgroup, procfs and topology readers fill
 * them, the CPU-suppress decision and the policy's reservedCPUs use them.
 */
#ifndef KILO_CPUSET_H
#define KILO_CPUSET_H

#include <stdint.h>

#include "core/err.h"

/* The highest CPU number a cpuset can hold, plus one: the one limit on CPU
 * numbers in kilo (8192, the NR_CPUS of x86_64 kernels built with MAXSMP). */
#define CPUSET_MAX 8192

/* A set of CPUs: bit n of bits[n / 64] is CPU n. */
struct cpuset {
	uint64_t bits[CPUSET_MAX / 64];
};

/* One logical CPU of the topology (sys/devices/system/cpu/cpuN/topology,
 * sys/devices/system/node/nodeM/cpulist). */
struct cpuset_cpu {
	int cpu;     /* logical CPU number */
	int core;    /* topology/core_id */
	int package; /* topology/physical_package_id */
	int node;    /* NUMA node, 0 without NUMA information */
};

/* A CPU list ("0-3,8,10-11", spaces and a trailing newline allowed, "" the
 * empty set) into *set.  Returns 0, or -1 with e set (ERR_INPUT, or a CPU
 * >= CPUSET_MAX). */
int cpuset_parse(const char *text, struct cpuset *set, struct err *e);

/* The canonical list of set ("0-3,8", "" when empty), as the kernel prints
 * it.  New string. */
char *cpuset_format(const struct cpuset *set);

/* Set or test CPU cpu (0 <= cpu < CPUSET_MAX; others are ignored / 0). */
void cpuset_add(struct cpuset *set, int cpu);
int cpuset_has(const struct cpuset *set, int cpu);

/* Number of CPUs in set. */
int cpuset_count(const struct cpuset *set);

/* 1 when a and b hold the same CPUs. */
int cpuset_equal(const struct cpuset *a, const struct cpuset *b);

#endif
