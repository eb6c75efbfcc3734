/* SPDX-License-Identifier: Apache-2.0 */
/* cputopo - the CPU topology koordlet gets from lscpu (CPU, NODE, SOCKET,
 * CORE), read from sysfs through the sysroot instead:
 *   sys/devices/system/cpu/online                       the logical CPUs
 *   sys/devices/system/cpu/cpuN/topology/core_id        CORE
 *   sys/devices/system/cpu/cpuN/topology/physical_package_id   SOCKET
 *   sys/devices/system/node/nodeM/cpulist               NODE
 * (Documentation/ABI/stable/sysfs-devices-system-cpu, sysfs-devices-node).
 */
#ifndef KILO_CPUTOPO_H
#define KILO_CPUTOPO_H

#include <stddef.h>

#include "core/err.h"
#include "doc/cpuset.h"
#include "kernel/sysroot.h"

/* Read the online CPUs with their core, package and NUMA node into *out (a
 * new array sorted by CPU number, caller frees) and *n.  A CPU without a
 * topology dir gets core = its number and package 0; without node dirs every
 * CPU is on node 0.  Returns 0, or -1 with e set (the online list missing or
 * malformed, a topology file that is not an integer). */
int cputopo_read(const struct sysroot *s, struct cpuset_cpu **out, size_t *n, struct err *e);

#endif
