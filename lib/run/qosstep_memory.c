// SPDX-License-Identifier: Apache-2.0
/* qosstep_memory - step 4 of a qos-cgset pass (see qosstep.h). */
#include "core/cleanup.h"
#include "run/qosstep.h"

/* Knob k of the hadoop-yarn dir (a memory limit, bytes) at percent of
 * NodeUsage capacity.memoryBytes (field: the policy field that gave it, -1
 * unset: nothing written), rounded down to the page size; deferred while
 * it would lower the current value below usage + kilo.memoryLimitMarginBytes
 * (decide/qos qos_memory_cap()). */
static void plan_memory_limit(struct qosstep *x, enum cgknob k, int percent, const char *field)
{
	const struct policy *p = x->o->policy;
	const char *yarn = x->l->hadoop_yarn;
	int64_t usage = -1, current = -1, limit = 0, aux;
	int64_t capacity = x->o->in->capacity_bytes;
	char val[24];
	struct cgchange_item *it;
	int ok;

	if (percent < 0)
		return;
	cgroup_read_memory_current(x->l, x->s, yarn, &usage, NULL);
	if (cgknob_read(x->l, x->s, yarn, k, &current, &aux, NULL) != CGROUP_OK)
		current = -1;
	ok = qos_memory_cap(capacity, percent, current, usage, p->memory_limit_margin_bytes,
			    x->o->page_size, &limit);
	it = cgchange_add_knob(x->plan, cgchange_chain(x->plan), x->l, k, yarn,
			       cgknob_format(x->l, k, limit, -1, val, sizeof(val)),
			       "%s %d of %lld bytes", field, percent, (long long)capacity);
	if (it->result != CGCHANGE_PENDING)
		return; /* not in this cgroup version */
	if (capacity < 0)
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
	plan_memory_limit(x, CGKNOB_MEMORY_MAX, x->o->policy->hadoop_yarn_memory_limit_percent,
			  "kilo.hadoopYarnMemoryLimitPercent");
	plan_memory_limit(x, CGKNOB_MEMORY_HIGH, x->o->policy->hadoop_yarn_memory_high_percent,
			  "kilo.hadoopYarnMemoryHighPercent");
}
