// SPDX-License-Identifier: Apache-2.0
/* copilot - the passes of yarn-copilot (see copilot.h) */
#include "run/copilot.h"

#include <stdlib.h>
#include <string.h>

#include "doc/containerlist.h"
#include "doc/killplan.h"
#include "run/containermetrics.h"

/* Ask the NM for its containers; on failure nm->reachable is 0, a warning
 * is given and nm->error points into g->nm_err. */
static void ask_nm(const struct copilot_opts *o, struct copilot_scan *g)
{
	struct nm_containers *c = &g->c;
	struct containerscan_nm *nm = &g->nm;
	struct err *e = &g->nm_err;

	nm->url = o->nm_url_shown;
	nm->containers = c;
	if (o->no_nm) {
		memset(c, 0, sizeof(*c));
		nm->error = "not asked (--no-nm)";
		return;
	}
	nm->reachable =
		nm_fetch_containers(o->nm_url, (long)o->nm_timeout_ms, o->nm_max_bytes, c, e) == 0;
	if (!nm->reachable) {
		nm->error = e->msg;
		err_say(o->warn, "NodeManager '%s': %s; listing from cgroups alone",
			o->nm_url_shown, e->msg);
	} else if (c->first_problem) { /* bad data that cost only its entries */
		err_say(o->warn,
			"NodeManager '%s': %zu entr%s skipped, %zu field%s of the wrong type taken "
			"as absent, %zu repeated id%s dropped; first: %s",
			o->nm_url_shown, c->ignored, c->ignored == 1 ? "y" : "ies", c->bad_fields,
			c->bad_fields == 1 ? "" : "s", c->duplicates, c->duplicates == 1 ? "" : "s",
			c->first_problem);
	}
}

int copilot_gather(const struct copilot_opts *o, const struct cgroup_layout *l,
		   const struct sysroot *s, struct copilot_scan *g, struct err *e)
{
	if (containerscan_collect(l, s, &g->cl, e) < 0)
		return -1;
	if (g->cl.failed_reads)
		err_say(o->warn, "%zu cgroup reads failed, their values are null; first: %s",
			g->cl.failed_reads, g->cl.first_err.msg);
	ask_nm(o, g);
	return 0;
}

size_t copilot_scan_live(const struct copilot_scan *g)
{
	return g->nm.reachable ? nm_containers_live(g->nm.containers) : 0;
}

void copilot_scan_release(struct copilot_scan *g)
{
	nm_containers_release(&g->c);
	containerscan_release(&g->cl);
	memset(g, 0, sizeof(*g));
}

void copilot_metrics(const struct copilot_scan *g, const struct cgroup_layout *l, const char *node,
		     int64_t now_ms, struct promtext *p)
{
	struct containerlist list = { 0 };

	containerscan_list(&g->cl, l, &g->nm, NULL, now_ms, node, &list);
	containermetrics_text(p, &list);
	containerlist_release(&list);
}

int copilot_kill_plan(const json_t *doc, struct killer_item **items, size_t *n, int64_t *grace_ms,
		      struct err *e)
{
	struct killplan plan = { 0 };

	if (killplan_from_json(doc, &plan, e) < 0)
		return -1;
	killer_plan_items(&plan, items, n);
	if (plan.grace_period_ms != KILLPLAN_UNKNOWN)
		*grace_ms = plan.grace_period_ms; /* the plan's gracePeriodMs wins */
	killplan_release(&plan);
	return 0;
}

size_t copilot_kill(const struct copilot_opts *o, const struct cgroup_layout *l,
		    const struct sysroot *s, const struct killer_opts *ko,
		    struct killer_item *items, size_t n)
{
	size_t failed;

	if (!s->live)
		err_say(o->warn, "sysroot '%s' is not /: no signal will be sent", s->prefix);
	failed = killer_run(l, s, &killer_ops_pidfd, ko, items, n);
	for (size_t i = 0; i < n; i++) {
		if (items[i].result == KILLER_FAILED)
			o->warn(&items[i].err);
		else if (items[i].nforeign) /* a planted thread, or a pid in a mirror */
			err_say(o->warn,
				"'%s': %zu process%s in its dirs %s no member (pid %ld): not "
				"signalled",
				items[i].id, items[i].nforeign, items[i].nforeign == 1 ? "" : "es",
				items[i].nforeign == 1 ? "is" : "are", (long)items[i].foreign[0]);
	}
	return failed;
}

/* The NodeManager's live containers (running, killing), 0 when it cannot
 * be asked. */
static size_t nm_live(const struct copilot_opts *o)
{
	struct nm_containers c = { 0 };
	struct err e = { 0 };
	size_t live;

	if (o->no_nm ||
	    nm_fetch_containers(o->nm_url, (long)o->nm_timeout_ms, o->nm_max_bytes, &c, &e) < 0)
		return 0;
	live = nm_containers_live(&c);
	nm_containers_release(&c);
	return live;
}

void copilot_health(const struct copilot_opts *o, int ask_live, struct copilot_health *h)
{
	memset(h, 0, sizeof(*h));
	h->live = ask_live ? nm_live(o) : 0;
	h->nm_ok = o->no_nm || nm_fetch_info(o->nm_url, (long)o->nm_timeout_ms, &h->id, &h->e) == 0;
}

void copilot_health_release(struct copilot_health *h)
{
	free(h->id);
	h->id = NULL;
}
