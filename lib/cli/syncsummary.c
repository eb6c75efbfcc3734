// SPDX-License-Identifier: Apache-2.0
/* syncsummary - what a kilo-sync pass says on stderr, and its exit code (see syncsummary.h) */
#include "cli/syncsummary.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "decide/syncplanner.h"

int sync_exit_code(const struct sync_stats *st)
{
	size_t actions = st->updated + st->annotated + st->failed;
	int code = cli_exit_for_items(actions, st->failed);

	if (st->clusters && st->clusters_down == st->clusters)
		return KILO_EXIT_TEMPFAIL;
	if ((st->clusters_down || st->skipped_bad) && code == KILO_EXIT_OK)
		return KILO_EXIT_PARTIAL;
	return code;
}

int sync_plan_exit_code(const struct sync_stats *st, const struct sync_stats *shown)
{
	return sync_exit_code(&(struct sync_stats){ .clusters = st->clusters,
						    .clusters_down = st->clusters_down,
						    .skipped_bad = shown->skipped_bad });
}

void sync_summary_line(const char *what, const struct sync_stats *st,
		       const struct sync_stats *shown, double secs)
{
	int would = *what != '\0';
	char bad[48] = "";

	if (st->skipped_bad + shown->skipped_bad)
		snprintf(bad, sizeof(bad), " (%zu for bad data)",
			 st->skipped_bad + shown->skipped_bad);
	fprintf(stderr,
		"%s: %s%zu nodes, %zu pods, %zu %s, %zu %s, %zu skipped%s, %zu failed, "
		"%zu of %zu clusters unreachable in %.2f s\n",
		cli_prog(), what, st->nodes, st->pods, st->updated + shown->updated,
		would ? "to update" : "updated", st->annotated + shown->annotated,
		would ? "to annotate" : "annotated", st->skipped + shown->skipped, bad, st->failed,
		st->clusters_down, st->clusters, secs);
}

void sync_count_plan(const struct syncplan *plan, struct sync_stats *st)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct syncplan_item *it = &plan->items[i];

		st->updated += it->action == SYNCPLAN_UPDATE;
		st->skipped += it->action == SYNCPLAN_SKIP;
		st->skipped_bad += it->action == SYNCPLAN_SKIP && it->bad;
		st->annotated += it->ann == SYNCPLAN_ANN_ANNOTATE;
	}
}

/* At most this many node lines a pass; the rest are counted by state
 * and code in one line. */
#define NODE_LINES_MAX 100

/* Whether item's node was skipped only because its cluster is down (the
 * cluster's own line says why). */
static int cluster_down_skip(const struct syncreport_item *item, const struct sync_node_state *ns,
			     const struct sync_rms *rms)
{
	const char *cluster = item->plan.cluster;

	if (strcmp(ns->state, "skipped") != 0 || ns->part || !cluster)
		return 0;
	for (size_t i = 0; i < rms->n; i++)
		if (rms->down[i].kind != ERR_NONE && strcmp(rms->c[i].id, cluster) == 0)
			return ns->code && sync_reason_parse(ns->code) == rms->down_code[i];
	return 0;
}

/* Whether an item's node gets a line: skipped or failed, and not for its
 * cluster being down. */
/* A skip the lifecycle means: an offline or returning node has no
 * NodeManager pod, a node kilo decommissions is DECOMMISSIONING or gone. */
static int lifecycle_skip(const struct syncreport_item *item, const struct sync_node_state *ns)
{
	const char *st = item->plan.lc_state;

	if (!st || strcmp(ns->state, "skipped") != 0 || !ns->code)
		return 0;
	if (strcmp(ns->code, "no-nodemanager") == 0)
		return strcmp(st, "offline") == 0 || strcmp(st, "returning") == 0;
	return item->plan.lc_excluded && (strcmp(ns->code, "rm-node-decommissioning") == 0 ||
					  strcmp(ns->code, "rm-node-inactive") == 0);
}

static int node_line_due(const struct syncreport_item *item, const struct sync_rms *rms)
{
	struct sync_node_state ns;

	sync_item_state(item, &ns);
	return (strcmp(ns.state, "skipped") == 0 || strcmp(ns.state, "failed") == 0) &&
	       !cluster_down_skip(item, &ns, rms) && !lifecycle_skip(item, &ns);
}

/* "3 skipped (unknown-node-id), ..." of the nodes not shown (those past
 * the first skip_first due): counts of each distinct state and code, in
 * first-seen order, into buf. */
static void count_rest(const struct syncreport *r, size_t skip_first, const struct sync_rms *rms,
		       char *buf, size_t size)
{
	enum { KINDS = 8 };
	struct {
		const char *state, *code;
		size_t n;
	} k[KINDS];
	size_t nk = 0, other = 0, seen = 0, used = 0;

	for (size_t i = 0; i < r->n; i++) {
		const struct syncreport_item *it = &r->items[i];
		struct sync_node_state ns;
		size_t j;

		if (!node_line_due(it, rms) || seen++ < skip_first)
			continue;
		sync_item_state(it, &ns);
		for (j = 0; j < nk; j++)
			if (strcmp(k[j].state, ns.state) == 0 &&
			    strcmp(k[j].code, ns.code ? ns.code : "-") == 0)
				break;
		if (j < nk)
			k[j].n++;
		else if (nk < KINDS)
			k[nk++] = (typeof(k[0])){ ns.state, ns.code ? ns.code : "-", 1 };
		else
			other++;
	}
	buf[0] = '\0';
	for (size_t j = 0; j < nk && used < size; j++)
		used += (size_t)snprintf(buf + used, size - used, "%s%zu %s (%s)", j ? ", " : "",
					 k[j].n, k[j].state, k[j].code);
	if (other && used < size)
		snprintf(buf + used, size - used, ", %zu other", other);
}

void sync_report_problems(const struct syncreport *r, const struct sync_rms *rms,
			  const struct sync_config *sc, int quiet, int only_some)
{
	const char *first_pod = NULL, *first_node = NULL;
	size_t lines = 0, due = 0, ignored = 0, i;
	char list[256] = "";

	for (i = 0; i < rms->n; i++) { /* errors: printed even when quiet */
		size_t nodes = 0, k;

		if (rms->down[i].kind == ERR_NONE)
			continue;
		for (k = 0; k < r->n; k++) {
			struct sync_node_state ns;

			sync_item_state(&r->items[k], &ns);
			nodes += cluster_down_skip(&r->items[k], &ns, rms) &&
				 strcmp(r->items[k].plan.cluster, rms->c[i].id) == 0;
		}
		cli_error("cluster '%s': unreachable (%s), %zu node%s skipped for it: %s",
			  rms->c[i].id, sync_reason_code(rms->down_code[i]), nodes,
			  nodes == 1 ? "" : "s", rms->down[i].msg);
	}
	for (i = 0; i < r->n; i++) {
		const struct syncreport_item *ri = &r->items[i];
		const char *node = ri->plan.node;
		const char *pod = ri->plan.ignored_pod, *was = ri->plan.lc_previous;
		enum syncreport_result lres = ri->part[SYNCREPORT_LIFECYCLE].result;

		if (pod && !ignored++) {
			first_pod = pod;
			first_node = node;
		}
		if (was && !quiet) /* the node's lifecycle news: one line each */
			cli_error("node '%s': lifecycle %s -> %s%s: %s", node ? node : "?", was,
				  ri->plan.lc_state ?: "?",
				  lres == SYNCREPORT_NOT_RUN || lres == SYNCREPORT_PLANNED
					  ? " (planned)"
				  : lres == SYNCREPORT_FAILED
					  ? ri->recorded ? " (recorded; its decommission failed)"
							 : " (not recorded)"
					  : "",
				  ri->plan.lc_reason ?: "");
		if (quiet || !node_line_due(ri, rms))
			continue;
		if (due++ < NODE_LINES_MAX) {
			struct sync_node_state ns;
			const json_t *cand = ri->plan.candidates;
			char more[200] = "";

			sync_item_state(ri, &ns);
			if (json_array_size(cand) > 0)
				snprintf(more, sizeof(more), " (candidates: %s%s%s%s)",
					 json_string_value(json_array_get(cand, 0)) ?: "?",
					 json_array_size(cand) > 1 ? ", " : "",
					 json_array_size(cand) > 1
						 ? json_string_value(json_array_get(cand, 1)) ?: "?"
						 : "",
					 json_array_size(cand) > 2 ? ", ..." : "");
			cli_error("node '%s': %s%s%s%s (%s): %s%s", node ? node : "?", ns.state,
				  ns.part ? " (" : "", ns.part ? ns.part : "", ns.part ? ")" : "",
				  ns.code ? ns.code : "-", ns.why ? ns.why : "(no reason given)",
				  more);
			lines++;
		}
	}
	/* every NodeManager the RM lists, and not one pod claims any: the
	 * selector or the namespaces no longer match the NodeManager pods
	 * (a relabelled DaemonSet), and nothing is synced any more (a live
	 * pass over every node: only_some otherwise) */
	for (i = 0; i < r->ncl; i++) {
		const struct syncplan_cluster *c = &r->cl[i];
		int64_t rm = c->rm_nodes;
		const char *cl = c->cluster;
		size_t pods = 0, k;

		if (only_some || rm <= 0 || c->unclaimed != rm)
			continue;
		/* pods there are, with ids the RM does not list as active: their
		 * own lines say so (a NodeManager back under new ports) */
		for (k = 0; k < r->n; k++) {
			const char *ic = r->items[k].plan.cluster;

			pods += ic && cl && strcmp(ic, cl) == 0 && r->items[k].plan.yarn_node_id;
		}
		if (pods)
			cli_warn(
				"cluster '%s': the RM lists %lld active NodeManager%s (%s%s), and "
				"the node ids of its %zu NodeManager pod%s name none of them: their "
				"totals are not managed; check the pods' " SYNC_ANN_NODE_ID
				" (their items' reason in the report), and nodeManagerSelector "
				"(%s=%s)",
				cl, (long long)rm, rm == 1 ? "" : "s", c->first_unclaimed ?: "?",
				rm > 1 ? ", ..." : "", pods, pods == 1 ? "" : "s",
				sc->options.nm_label_key, sc->options.nm_label_value);
		else
			cli_warn(
				"cluster '%s': the RM lists %lld active NodeManager%s (%s%s) and no "
				"NodeManager pod claims any: their totals are not managed; check "
				"nodeManagerSelector (%s=%s) and nodeManagerNamespaces",
				cl, (long long)rm, rm == 1 ? "" : "s", c->first_unclaimed ?: "?",
				rm > 1 ? ", ..." : "", sc->options.nm_label_key,
				sc->options.nm_label_value);
	}
	if (due > lines) {
		char rest[512];

		count_rest(r, lines, rms, rest, sizeof(rest));
		cli_error("and %zu more node%s not synced: %s (the report names them)", due - lines,
			  due - lines == 1 ? "" : "s", rest);
	}
	if (!ignored)
		return;
	for (i = 0; sc->options.nm_namespaces[i]; i++) {
		size_t used = strlen(list);

		snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
			 sc->options.nm_namespaces[i]);
	}
	cli_warn("%zu node(s) have a pod with the NodeManager label outside nodeManagerNamespaces "
		 "[%s] (first: %s on %s): ignored; if your NodeManagers run there, add their "
		 "namespace",
		 ignored, list, first_pod, first_node);
}
