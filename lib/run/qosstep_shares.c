// SPDX-License-Identifier: Apache-2.0
/* qosstep_shares - step 1 of a qos-cgset pass (see qosstep.h). */
#include <stdio.h>
#include <stdlib.h>

#include "run/qosstep.h"

/* ---- Step 1: cpu.idle and cpu.shares / cpu.weight ---------------------- */

void qosstep_shares(struct qosstep *x)
{
	const struct policy *p = x->o->policy;
	const struct qosapply_inputs *in = x->o->in;
	const char *yarn = x->l->hadoop_yarn;
	int chain = cgchange_chain(x->plan);
	int idle = p->cpu_qos_enable && p->sched_idle;
	int weight = cgknob_conv(x->l, CGKNOB_CPU_WEIGHT) == CGKNOB_WEIGHT;
	int64_t shares = qos_shares(in->cpu_milli_sum), v = shares;
	char val[24], vcores[32];
	struct cgchange_item *it;

	/* Written back to 0 too: the kernel refuses shares on an idle group. */
	cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPU_IDLE, yarn, idle ? "1" : "0",
			  idle ? "beClass.cpuQOS.schedIdle"
			       : "schedIdle off: shares need a non-idle group");
	if (weight)
		v = qos_weight(shares, x->o->conv);
	snprintf(val, sizeof(val), "%lld", (long long)v);
	if (in->cpu_milli_sum % 1000)
		snprintf(vcores, sizeof(vcores), "%lld.%03lld",
			 (long long)(in->cpu_milli_sum / 1000),
			 (long long)(in->cpu_milli_sum % 1000));
	else
		snprintf(vcores, sizeof(vcores), "%lld", (long long)(in->cpu_milli_sum / 1000));
	/* Unknown requests: no value is wanted, so none is shown. */
	if (!in->requests_known)
		val[0] = '\0';
	if (weight)
		it = cgchange_add_knob(
			x->plan, chain, x->l, CGKNOB_CPU_WEIGHT, yarn, *val ? val : NULL,
			"sum of %s vCores x 1024 = %lld shares (%zu container%s), %s "
			"weight conversion",
			vcores, (long long)shares, in->nlive, in->nlive == 1 ? "" : "s",
			qos_weight_conv_name(x->o->conv));
	else
		it = cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPU_WEIGHT, yarn,
				       *val ? val : NULL,
				       "sum of %s vCores x 1024 (%zu container%s)", vcores,
				       in->nlive, in->nlive == 1 ? "" : "s");
	if (idle)
		cgchange_preset(it, CGCHANGE_SKIPPED,
				"idle: the kernel refuses shares on an idle "
				"group");
	else if (!in->requests_known)
		cgchange_preset(it, CGCHANGE_SKIPPED,
				"container requests unknown (NodeManager "
				"unreachable)");
	else if (in->nlive == 0) {
		/* the minimum (2) would start the next container at the bottom */
		free(it->value);
		it->value = NULL;
		cgchange_preset(it, CGCHANGE_UNCHANGED,
				"no live container: left as it is for the next one");
	} else if (in->nunknown)
		cgchange_preset(it, CGCHANGE_PENDING,
				"%s; %zu in a state kilo does not know, "
				"counted as running",
				it->reason, in->nunknown);
}
