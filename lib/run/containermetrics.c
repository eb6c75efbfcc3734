// SPDX-License-Identifier: Apache-2.0
/* containermetrics - a ContainerList as Prometheus text (see containermetrics.h) */
#include "run/containermetrics.h"

#include <stddef.h>
#include <stdlib.h>

#include "core/cleanup.h"
#include "core/xalloc.h"

static const struct {
	const char *name, *type, *help, *total;
	size_t field; /* offsetof an int64_t figure of struct containerlist_item */
	double div;   /* value / div is in the metric's unit */
} fam[] = {
	{ "yarn_copilot_container_cpu_seconds_total", "counter",
	  "CPU time used by the container's cgroup", "yarn_copilot_containers_cpu_seconds",
	  offsetof(struct containerlist_item, cpu_ns), 1e9 },
	{ "yarn_copilot_container_memory_bytes", "gauge",
	  "Memory of the container's cgroup without page cache (anon + unevictable)",
	  "yarn_copilot_containers_memory_bytes", offsetof(struct containerlist_item, memory_bytes),
	  1 },
	{ "yarn_copilot_container_memory_charge_bytes", "gauge",
	  "Whole memory charge of the container's cgroup, page cache included",
	  "yarn_copilot_containers_memory_charge_bytes",
	  offsetof(struct containerlist_item, memory_charge), 1 },
	{ "yarn_copilot_container_requested_cpu_cores", "gauge",
	  "vcores the NodeManager says the container requested",
	  "yarn_copilot_containers_requested_cpu_cores",
	  offsetof(struct containerlist_item, request_cpu_milli), 1e3 },
	{ "yarn_copilot_container_requested_memory_bytes", "gauge",
	  "Memory the NodeManager says the container requested",
	  "yarn_copilot_containers_requested_memory_bytes",
	  offsetof(struct containerlist_item, request_memory_bytes), 1 },
	{ "yarn_copilot_container_processes", "gauge", "Processes in the container's cgroup",
	  "yarn_copilot_containers_processes", offsetof(struct containerlist_item, processes), 1 },
};

void containermetrics_text(struct promtext *p, const struct containerlist *cl)
{
	const char *only_node[] = { "node", cl->node ? cl->node : "", NULL };

	for (size_t f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		cleanup_free char *help =
			xasprintf("Sum over the node's containers: %s", fam[f].help);
		double total = 0;
		int known = 0;

		promtext_family(p, fam[f].name, fam[f].type, fam[f].help);
		for (size_t i = 0; i < cl->n; i++) {
			const struct containerlist_item *it = &cl->items[i];
			int64_t v =
				*(const int64_t *)(const void *)((const char *)it + fam[f].field);
			char app[64];
			const char *labels[] = {
				"node",        only_node[1],
				"container",   it->id,
				"application", containerid_application(&it->cid, app, sizeof(app)),
				NULL
			};

			if (v < 0)
				continue;
			known++;
			total += (double)v / fam[f].div;
			if (fam[f].div == 1)
				promtext_sample_i64(p, fam[f].name, labels, v);
			else
				promtext_sample_f64(p, fam[f].name, labels, (double)v / fam[f].div);
		}
		promtext_family(p, fam[f].total, "gauge", help);
		if (known || !cl->n)
			promtext_sample_f64(p, fam[f].total, only_node, total);
	}
	promtext_family(p, "yarn_copilot_containers", "gauge",
			"YARN container cgroups under the hadoop-yarn cgroup");
	promtext_sample_i64(p, "yarn_copilot_containers", only_node, (int64_t)cl->n);
	promtext_family(p, "yarn_copilot_node_manager_up", "gauge",
			"1 when the NodeManager answered the containers request");
	promtext_sample_i64(p, "yarn_copilot_node_manager_up", only_node, cl->nm_reachable == 1);
}
