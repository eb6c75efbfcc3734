// SPDX-License-Identifier: Apache-2.0
/* cputopo - CPU topology from sysfs (see cputopo.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "kernel/cputopo.h"

static int read_id(const struct sysroot *s, int cpu, const char *name, int def, int *out,
		   struct err *e)
{
	char rel[96];
	int64_t v;

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	if (sysroot_read_i64(s, rel, &v, e) < 0) {
		if (e->kind != ERR_NOTFOUND)
			return -1;
		v = def;
	}
	*out = (int)v;
	return 0;
}

/* Set the node of each CPU from sys/devices/system/node/node*\/cpulist. */
static int read_nodes(const struct sysroot *s, struct cpuset_cpu *cpus, size_t n, struct err *e)
{
	cleanup_closedir DIR *d = sysroot_opendir(s, "sys/devices/system/node", e);
	struct dirent *de;

	if (!d)
		return e->kind == ERR_NOTFOUND ? 0 : -1;
	while ((de = readdir(d))) {
		cleanup_free char *rel = NULL;
		cleanup_free char *text = NULL;
		struct cpuset set;
		const char *end = de->d_name + 4;
		int64_t node;

		if (strncmp(de->d_name, "node", 4) || num_scan_i64(&end, 0, INT32_MAX, &node) < 0 ||
		    *end)
			continue;
		rel = xasprintf("sys/devices/system/node/%s/cpulist", de->d_name);
		if (sysroot_read_str(s, rel, &text, e) < 0 || cpuset_parse(text, &set, e) < 0)
			return err_wrap(e, "NUMA node %ld", node);
		for (size_t i = 0; i < n; i++)
			if (cpuset_has(&set, cpus[i].cpu))
				cpus[i].node = (int)node;
	}
	return 0;
}

int cputopo_read(const struct sysroot *s, struct cpuset_cpu **out, size_t *n, struct err *e)
{
	cleanup_free char *text = NULL;
	cleanup_free struct cpuset_cpu *cpus = NULL;
	struct cpuset online;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (sysroot_read_str(s, "sys/devices/system/cpu/online", &text, e) < 0 ||
	    cpuset_parse(text, &online, e) < 0)
		return err_wrap(e, "online CPUs");
	cpus = xcalloc((size_t)cpuset_count(&online) + 1, sizeof(*cpus));
	for (int c = 0; c < CPUSET_MAX; c++) {
		struct cpuset_cpu *q = &cpus[k];

		if (!cpuset_has(&online, c))
			continue;
		q->cpu = c;
		if (read_id(s, c, "core_id", c, &q->core, e) < 0 ||
		    read_id(s, c, "physical_package_id", 0, &q->package, e) < 0)
			return -1;
		k++;
	}
	if (read_nodes(s, cpus, k, e) < 0)
		return -1;
	*out = steal_ptr(&cpus);
	*n = k;
	return 0;
}
