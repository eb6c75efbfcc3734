// SPDX-License-Identifier: Apache-2.0
/* qosstep_memory - step 4 of a qos-cgset pass (see qosstep.h). */
#include "core/cleanup.h"
#include "run/qosstep.h"

static void plan_memory_cap(struct qosstep *x)
{
	const struct policy *p = x->o->policy;
	const char *yarn = x->l->hadoop_yarn;
	int64_t usage = -1, current = -1, limit = 0, aux;
	char val[24];
	struct cgchange_item *it;
	int ok;

	if (p->hadoop_yarn_memory_limit_percent < 0)
		return;
	cgroup_read_memory_current(x->l, x->s, yarn, &usage, NULL);
	if (cgknob_read(x->l, x->s, yarn, CGKNOB_MEMORY_MAX, &current, &aux, NULL) != CGROUP_OK)
		current = -1;
	ok = qos_memory_cap(x->o->in->capacity_bytes, p->hadoop_yarn_memory_limit_percent, current,
			    usage, p->memory_limit_margin_bytes, x->o->page_size, &limit);
	it = cgchange_add_knob(x->plan, cgchange_chain(x->plan), x->l, CGKNOB_MEMORY_MAX, yarn,
			       cgknob_format(x->l, CGKNOB_MEMORY_MAX, limit, -1, val, sizeof(val)),
			       "kilo.hadoopYarnMemoryLimitPercent %d of %lld bytes",
			       p->hadoop_yarn_memory_limit_percent,
			       (long long)x->o->in->capacity_bytes);
	if (x->o->in->capacity_bytes < 0)
		cgchange_preset(it, CGCHANGE_DEFERRED, "memory capacity unknown (NodeUsage)");
	else if (!ok)
		cgchange_preset(it, CGCHANGE_DEFERRED,
				"limit %lld is below usage %lld + margin %lld bytes",
				(long long)limit, (long long)usage,
				(long long)p->memory_limit_margin_bytes);
}

void qosstep_memory(struct qosstep *x)
{
	const char *yarn = x->l->hadoop_yarn;
	cleanup_free char *oom =
		cgroup_path(x->l, CGROUP_MEMORY, yarn,
			    cgknob_file(x->l, CGKNOB_MEMORY_OOM_GROUP, CGROUP_MEMORY));
	struct qos_memory m;

	if (!x->l->mount[CGROUP_MEMORY])
		return;
	qos_memory_values(x->o->policy, &m);
	qosstep_add_int(x, CGKNOB_MEMORY_WMARK_RATIO, yarn, m.wmark_ratio,
			"beClass.memoryQOS.wmarkRatio");
	qosstep_add_int(x, CGKNOB_MEMORY_WMARK_SCALE_FACTOR, yarn, m.wmark_scale_factor,
			"beClass.memoryQOS.wmarkScalePermill");
	qosstep_add_int(x, CGKNOB_MEMORY_WMARK_MIN_ADJ, yarn, m.wmark_min_adj,
			"beClass.memoryQOS.wmarkMinAdj");
	qosstep_add_int(x, CGKNOB_MEMORY_PRIORITY, yarn, m.priority, "beClass.memoryQOS.priority");
	qosstep_add_int(x, CGKNOB_MEMORY_USE_PRIORITY_OOM, yarn, m.use_priority_oom,
			"beClass.memoryQOS.priorityEnable");
	qosstep_add_int(x, CGKNOB_MEMORY_OOM_GROUP, yarn, m.oom_group_hadoop_yarn,
			"one OOM must not kill every YARN container");
	/* Checked once on the parent, as koordlet does, instead of one
	 * "unsupported" per container on kernels without the file. */
	if (oom && sysroot_exists(x->s, oom)) {
		for (size_t k = 0; k < x->ncontainers; k++) {
			cleanup_free char *cg = cgroup_container_path(x->l, x->containers[k].id);

			if (!(x->containers[k].ctrls & (1u << CGROUP_CPU)))
				continue;
			qosstep_add_int(x, CGKNOB_MEMORY_OOM_GROUP, cg, m.oom_group_container,
					"one task's OOM ends the whole container");
		}
	}
	plan_memory_cap(x);
}
