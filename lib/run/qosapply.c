// SPDX-License-Identifier: Apache-2.0
/* qosapply - one qos-cgset pass: the orchestrator of its steps (see
 * qosapply.h; the steps are run/qosstep.h's). */
#include <stdio.h>
#include <stdlib.h>

#include "core/xalloc.h"
#include "run/qosstep.h"

/* Every container dir found, entered in the cache for this pass. */
static void enter_containers(const struct qosstep *x)
{
	for (size_t k = 0; x->o->cache && k < x->ncontainers; k++)
		cgcache_enter(x->o->cache, &x->containers[k]);
}

void qosapply_run(const struct qosapply_opts *o, struct cgchange_plan *plan)
{
	struct qosstep x = { .o = o, .l = o->layout, .s = o->sysroot, .plan = plan };
	struct err e = { 0 };
	size_t first;

	if (cgroup_list_containers(x.l, x.s, &x.containers, &x.ncontainers, &e) < 0) {
		struct cgchange_item *it = cgchange_add(plan, cgchange_chain(plan), CGROUP_CPU,
							x.l->hadoop_yarn, NULL, CGCHANGE_TEXT, NULL,
							"list the containers");

		cgchange_fail(it, e.msg);
	}
	enter_containers(&x);
	/* the mirrors first, executed: the dirs they make are part of the
	 * suppress and memory steps */
	if (o->do_static)
		qosstep_mirror(&x);
	cgchange_apply(plan, 0, x.l, x.s, o->dry_run, o->cache);
	first = plan->n;
	if (o->do_static)
		qosstep_shares(&x);
	if (o->do_suppress)
		qosstep_suppress(&x);
	if (o->do_static) {
		qosstep_identity(&x);
		qosstep_memory(&x);
	}
	cgchange_apply(plan, first, x.l, x.s, o->dry_run, o->cache);
	free(x.containers);
}

void qosapply_head(const struct cgchange_plan *plan, const char *node, int dry_run, int64_t now_ms,
		   struct cgroupchanges *head)
{
	*head = (struct cgroupchanges){ .dry_run = dry_run,
					.node = node ? xstrdup(node) : NULL,
					.timestamp_ms = now_ms };
	cgchange_summary(plan, head->summary);
}

void qosapply_warnings(const struct cgchange_plan *plan, err_say_fn *warn)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct cgchange_item *it = &plan->items[i];

		if (it->result == CGCHANGE_FAILED)
			err_say(warn, "%s", it->error ? it->error : "write failed");
		else if (it->nforeign && it->ctrl == CGROUP_CPUSET)
			err_say(warn, "%s: %s (pid %ld first)", it->cg, it->reason,
				(long)it->foreign[0]);
	}
}
