// SPDX-License-Identifier: Apache-2.0
/* syncstate - what became of each node, and the pass's metrics (see syncrun.h) */
#include "run/syncitem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"

/* A no-NodeManager item whose annotation writes (or would write) the share:
 * the zeroing of a share YARN left. */
static int zeroing(const struct syncreport_item *item)
{
	enum sync_reason r = item->plan.reason_code;
	enum syncreport_result ares = item->part[SYNCREPORT_ANNOTATION].result;

	if (r != SYNC_R_NO_NODEMANAGER && r != SYNC_R_NODEMANAGER_TERMINATING &&
	    r != SYNC_R_NODEMANAGER_OUTSIDE_NAMESPACES)
		return 0;
	if (ares != SYNCREPORT_NOT_RUN)
		return ares == SYNCREPORT_ANNOTATED || ares == SYNCREPORT_PLANNED;
	return item->plan.ann == SYNCPLAN_ANN_ANNOTATE;
}

void sync_item_state(const struct syncreport_item *item, struct sync_node_state *out)
{
	const struct syncplan_item *pl = &item->plan;
	enum syncreport_result result = item->part[SYNCREPORT_ITEM].result;
	enum syncreport_result ares = item->part[SYNCREPORT_ANNOTATION].result;
	int failed = -1;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < SYNCREPORT_PARTS && failed < 0; k++)
		if (item->part[k].result == SYNCREPORT_FAILED)
			failed = k;
	if (failed >= 0) {
		static const char *const parts[] = { NULL, "annotation", "lifecycle" };

		out->state = "failed";
		out->code = sync_reason_code(item->part[failed].error_code);
		out->why = item->part[failed].error;
		out->part = parts[failed];
	} else if (zeroing(item)) {
		/* no NodeManager: the skip of the resize is the normal path, the
		 * write of the share the node's news */
		out->state = ares == SYNCREPORT_ANNOTATED ? "updated" : "planned";
		out->code = sync_reason_code(pl->reason_code);
		out->why = pl->reason;
	} else if (pl->action == SYNCPLAN_SKIP || pl->ann == SYNCPLAN_ANN_SKIP) {
		int item_skip = pl->action == SYNCPLAN_SKIP;

		out->state = "skipped";
		out->code = sync_reason_code(item_skip ? pl->reason_code : pl->ann_reason_code);
		out->why = item_skip ? pl->reason : pl->ann_reason;
		out->part = item_skip ? NULL : "annotation";
	} else {
		int wrote = result == SYNCREPORT_UPDATED || ares == SYNCREPORT_ANNOTATED;
		int would = (result == SYNCREPORT_NOT_RUN && pl->action == SYNCPLAN_UPDATE) ||
			    (ares == SYNCREPORT_NOT_RUN && pl->ann == SYNCPLAN_ANN_ANNOTATE) ||
			    result == SYNCREPORT_PLANNED || ares == SYNCREPORT_PLANNED;

		out->state = wrote ? "updated" : would ? "planned" : "unchanged";
		out->code = sync_reason_code(pl->reason_code);
		out->why = pl->reason;
	}
}

/* ---- metrics ---- */

/* kilo_sync_node_lifecycle: only when items carry a lifecycle part (the
 * family stays out of the textfile of a kilo-sync without lifecycle). */
static void lifecycle_metric(struct promtext *p, const struct syncreport *report)
{
	size_t n = 0;

	for (size_t i = 0; i < report->n; i++) {
		const struct syncreport_item *it = &report->items[i];
		const char *was = it->plan.lc_previous;
		const char *labels[] = { "node",  it->plan.node,     "cluster", NULL,
					 "state", it->plan.lc_state, NULL };

		if (was && it->part[SYNCREPORT_LIFECYCLE].result == SYNCREPORT_FAILED)
			labels[5] = was; /* not recorded: the node did not move */
		if (!labels[1] || !labels[5])
			continue;
		if (!n++)
			promtext_family(
				p, "kilo_sync_node_lifecycle", "gauge",
				"1 per node of the last pass, labelled with its NodeManager "
				"lifecycle state (active, draining, stuck, offline, "
				"returning; kilo-sync(1) LIFECYCLE)");
		labels[3] = it->plan.cluster ? it->plan.cluster : "";
		promtext_sample_i64(p, "kilo_sync_node_lifecycle", labels, 1);
	}
}

void sync_metrics(struct promtext *p, const struct syncreport *report, const struct sync_rms *rms,
		  const struct sync_stats *st, double duration_s)
{
	static const struct {
		const char *name, *help, *obj, *key;
		int64_t mul;
	} per_node[] = {
		{ "kilo_sync_yarn_total_vcores",
		  "YARN node total as planned for the RM (vCores; nodes not skipped)", "yarnTotal",
		  "vCores", 1 },
		{ "kilo_sync_yarn_total_memory_bytes",
		  "YARN node total as planned for the RM (bytes; nodes not skipped)", "yarnTotal",
		  "memoryMB", 1 << 20 },
		{ "kilo_sync_yarn_used_vcores",
		  "YARN used on the node, as the RM reports it (vCores)", "rmUsed", "vCores", 1 },
		{ "kilo_sync_yarn_used_memory_bytes",
		  "YARN used on the node, as the RM reports it (bytes)", "rmUsed", "memoryMB",
		  1 << 20 },
	};
	static const char *const kinds[] = { "none",     "usage",  "input",    "system",
					     "notfound", "remote", "temporary" };
	size_t n = report ? report->n : 0, i;

	for (size_t m = 0; m < sizeof(per_node) / sizeof(per_node[0]); m++) {
		promtext_family(p, per_node[m].name, "gauge", per_node[m].help);
		for (i = 0; i < n; i++) {
			const struct syncplan_item *pl = &report->items[i].plan;
			const json_t *v = json_object_get(json_object_get(pl->doc, per_node[m].obj),
							  per_node[m].key);
			const char *labels[] = { "node", pl->node, "cluster", pl->cluster, NULL };

			if (per_node[m].obj[0] == 'y' && pl->action == SYNCPLAN_SKIP)
				continue; /* a total nobody was told */
			if (json_is_integer(v) && labels[1] && labels[3])
				promtext_sample_i64(p, per_node[m].name, labels,
						    json_integer_value(v) * per_node[m].mul);
		}
	}
	promtext_family(p, "kilo_sync_node_state", "gauge",
			"1 per node of the last pass, labelled with what became of it (updated, "
			"planned, unchanged, skipped, failed) and why (the reasonCode, or for "
			"failed the errorCode: doc/SCHEMAS.md)");
	for (i = 0; i < n; i++) {
		const struct syncreport_item *ri = &report->items[i];
		struct sync_node_state ns;
		const char *labels[] = { "node", ri->plan.node, "cluster", NULL, "state",
					 NULL,   "reason",      NULL,      NULL };

		sync_item_state(ri, &ns);
		labels[3] = ri->plan.cluster ? ri->plan.cluster : "";
		labels[5] = ns.state;
		labels[7] = ns.code ? ns.code : "";
		if (labels[1])
			promtext_sample_i64(p, "kilo_sync_node_state", labels, 1);
	}
	if (report)
		lifecycle_metric(p, report);
	promtext_family(p, "kilo_sync_yarn_nodes", "gauge",
			"Nodes of the last pass by YARN cluster and the RM's NodeState of their "
			"NodeManager (unknown: none of YARN's states)");
	{
		json_auto_t *counts = json_object();
		const char *key;
		json_t *v;

		for (i = 0; i < n; i++) {
			const char *st_ = report->items[i].plan.rm_state,
				   *cl = report->items[i].plan.cluster;
			char *k;

			if (!st_ || !cl)
				continue;
			k = xasprintf("%s\n%s", yarn_node_state_known(st_) ? st_ : "unknown", cl);
			json_object_set_new(
				counts, k,
				json_integer(json_integer_value(json_object_get(counts, k)) + 1));
			free(k);
		}
		json_object_foreach(counts, key, v)
		{
			const char *nl = strchr(key, '\n');
			cleanup_free char *state = xasprintf("%.*s", (int)(nl - key), key);
			const char *labels[] = { "cluster", nl + 1, "state", state, NULL };

			promtext_sample_i64(p, "kilo_sync_yarn_nodes", labels,
					    json_integer_value(v));
		}
	}
	promtext_family(p, "kilo_sync_rm_nodes_unclaimed", "gauge",
			"Active NodeManagers the cluster's RM lists that no NodeManager pod claims "
			"(their totals are not managed: NodeManagers outside Kubernetes, or pods "
			"that no longer match nodeManagerSelector)");
	for (i = 0; report && i < report->ncl; i++) {
		const char *labels[] = { "cluster", report->cl[i].cluster, NULL };

		if (labels[1] && report->cl[i].unclaimed >= 0)
			promtext_sample_i64(p, "kilo_sync_rm_nodes_unclaimed", labels,
					    report->cl[i].unclaimed);
	}
	promtext_family(p, "kilo_sync_cluster_reachable", "gauge",
			"1 when the RM node list of the YARN cluster was read in the last pass, 0 "
			"when its RMs all failed or answered what cannot be read");
	for (i = 0; rms && i < rms->n && i < st->clusters; i++) {
		const char *labels[] = { "cluster", rms->c[i].id, NULL };

		promtext_sample_i64(p, "kilo_sync_cluster_reachable", labels,
				    rms->down[i].kind == ERR_NONE);
	}
	promtext_family(p, "kilo_sync_items", "gauge", "Actions of the last pass by result");
	{
		const struct {
			const char *result;
			size_t n;
		} r[] = { { "updated", st->updated },
			  { "annotated", st->annotated },
			  { "unchanged", st->unchanged },
			  { "skipped", st->skipped },
			  { "failed", st->failed } };

		for (size_t k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
			const char *labels[] = { "result", r[k].result, NULL };

			promtext_sample_i64(p, "kilo_sync_items", labels, (int64_t)r[k].n);
		}
	}
	promtext_family(
		p, "kilo_sync_nodes_skipped_bad", "gauge",
		"Nodes skipped in the last pass for bad or conflicting data (severity error)");
	promtext_sample_i64(p, "kilo_sync_nodes_skipped_bad", NULL, (int64_t)st->skipped_bad);
	promtext_family(p, "kilo_sync_errors", "gauge", "Failed actions of the last pass by kind");
	for (int k = 1; k <= ERR_TEMP; k++) {
		const char *labels[] = { "kind", kinds[k], NULL };

		promtext_sample_i64(p, "kilo_sync_errors", labels, (int64_t)st->errors[k]);
	}
	promtext_family(
		p, "kilo_sync_annotation_conflicts", "gauge",
		"Annotation writes of the last pass that met a conflict (409) and were re-made");
	promtext_sample_i64(p, "kilo_sync_annotation_conflicts", NULL, (int64_t)st->conflicts);
	promtext_family(
		p, "kilo_sync_list_restarts", "gauge",
		"Listings of the last pass restarted after an expired continue token (410)");
	promtext_sample_i64(p, "kilo_sync_list_restarts", NULL, (int64_t)st->restarts);
	promtext_family(p, "kilo_sync_pass_success", "gauge",
			"1 when the last pass gathered its inputs and ran, 0 when it failed");
	promtext_sample_i64(p, "kilo_sync_pass_success", NULL, report != NULL);
	promtext_family(p, "kilo_sync_clusters_unreachable", "gauge",
			"YARN clusters whose RMs all failed in the last pass");
	promtext_sample_i64(p, "kilo_sync_clusters_unreachable", NULL, (int64_t)st->clusters_down);
	promtext_family(p, "kilo_sync_pass_duration_seconds", "gauge", "Duration of the last pass");
	promtext_sample_f64(p, "kilo_sync_pass_duration_seconds", NULL, duration_s);
	promtext_family(p, "kilo_sync_nodes", "gauge", "Nodes seen in the last pass");
	promtext_sample_i64(p, "kilo_sync_nodes", NULL, (int64_t)st->nodes);
}
