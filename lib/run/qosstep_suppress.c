// SPDX-License-Identifier: Apache-2.0
/* qosstep_suppress - steps 2 and 3 of a qos-cgset pass: what limits the
 * CPU of best-effort work, and its group identity (see qosstep.h). */
#include "run/qosstep.h"

void qosstep_suppress(struct qosstep *x)
{
	const struct policy *p = x->o->policy;
	const struct qosapply_inputs *in = x->o->in;
	const char *target = x->o->scope_besteffort ? x->l->besteffort : x->l->hadoop_yarn;
	int cfs = p->cpu_suppress_policy == POLICY_SUPPRESS_CFSQUOTA;
	int64_t allowed = 0;

	if (!p->threshold_enable) {
		qosstep_cpuset(x, target, 0, 1, "resourceUsedThresholdWithBE disabled: restore");
		qosstep_quota(x, target, 0, 1, "resourceUsedThresholdWithBE disabled: unlimited");
		return;
	}
	if (!in->usage_known) {
		struct cgchange_item *it = cgchange_add_knob(
			x->plan, cgchange_chain(x->plan), x->l,
			cfs ? CGKNOB_CFS_QUOTA : CGKNOB_CPUSET_CPUS, target, NULL, "CPU suppress");

		cgchange_preset(it, CGCHANGE_SKIPPED, "non-BE CPU usage not known: %s",
				in->usage_why ? in->usage_why : "no NodeUsage");
		return;
	}
	allowed = qos_suppress_milli(&in->usage, p->cpu_suppress_threshold_percent,
				     p->cpu_suppress_min_percent);
	if (cfs) {
		qosstep_cpuset(x, target, allowed, 1, "cfsQuota policy: cpuset restored");
		qosstep_quota(x, target, allowed, 0, "cfsQuota policy");
	} else {
		qosstep_cpuset(x, target, allowed, 0, "cpuset policy");
		qosstep_quota(x, target, allowed, 1, "cpuset policy: quota unlimited");
	}
}

void qosstep_identity(struct qosstep *x)
{
	const struct policy *p = x->o->policy;

	qosstep_add_int(
		x, CGKNOB_BVT_WARP_NS, x->l->hadoop_yarn, p->cpu_qos_enable ? p->group_identity : 0,
		p->cpu_qos_enable ? "beClass.cpuQOS.groupIdentity" : "beClass.cpuQOS disabled");
}
