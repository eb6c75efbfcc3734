// SPDX-License-Identifier: Apache-2.0
/* policy - NodeSLO-shaped node policy (see policy.h) */
#include "doc/policy.h"

#include <stdlib.h>
#include <string.h>

#include "core/num.h"
#include "doc/cpuset.h"

#define NOT_SET -1

static const char *const class_fields[] = { "lsrClass", "lsClass", "beClass" };
static const char *const class_groups[] = { "LSR", "LS", "BE" };

const char *policy_class_field(enum policy_class k)
{
	return class_fields[k];
}

const char *policy_class_group(enum policy_class k)
{
	return class_groups[k];
}

void policy_defaults(struct policy *p)
{
	memset(p, 0, sizeof(*p));
	p->threshold_enable = 1;
	p->cpu_suppress_threshold_percent = 65;
	p->cpu_suppress_min_percent = NOT_SET;
	p->cpu_suppress_policy = POLICY_SUPPRESS_CPUSET;
	p->memory_evict_threshold_percent = 70;
	p->memory_evict_lower_percent = 68;
	p->cpu_evict_be_usage_threshold_percent = 90;
	p->cpu_evict_be_satisfaction_lower_percent = NOT_SET;
	p->cpu_evict_be_satisfaction_upper_percent = NOT_SET;
	p->cpu_evict_time_window_seconds = 1;
	p->cpu_qos_enable = 1;
	p->group_identity = -1;
	p->sched_idle = 0;
	p->memory_qos_enable = 1;
	p->wmark_ratio = 95;
	p->wmark_scale_permill = 20;
	p->wmark_min_adj = 50;
	for (int k = 0; k < POLICY_NCLASSES; k++) {
		p->resctrl[k].enable = k == POLICY_BE;
		p->resctrl[k].cat_start_percent = 0;
		p->resctrl[k].cat_end_percent = k == POLICY_BE ? 30 : 100;
		p->resctrl[k].mba_percent = 100;
	}
	p->terminating_timeout_ms = 10000;
	p->memory_evict_cool_down_ms = 4000;
	p->cpu_evict_cool_down_ms = 20000;
	p->grace_period_ms = 250;
	p->hadoop_yarn_memory_limit_percent = NOT_SET;
	p->hadoop_yarn_memory_high_percent = NOT_SET;
	p->memory_limit_margin_bytes = 256LL << 20;
	p->mba.all = p->mba.max = NOT_SET;
}

static int geti(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		int min, int max, int *out, struct err *e)
{
	int64_t v;

	if (config_int(c, obj, ctx, key, *out, min, max, &v, e) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int read_threshold(struct policy *p, const struct config *c, const json_t *t,
			  json_t *warnings, struct err *e)
{
	static const char *const known[] = { "enable",
					     "cpuSuppressThresholdPercent",
					     "cpuSuppressMinPercent",
					     "cpuSuppressPolicy",
					     "memoryEvictThresholdPercent",
					     "memoryEvictLowerPercent",
					     "cpuEvictBESatisfactionUpperPercent",
					     "cpuEvictBESatisfactionLowerPercent",
					     "cpuEvictBEUsageThresholdPercent",
					     "cpuEvictTimeWindowSeconds",
					     NULL };
	static const char *const ignored[] = { "memoryAllocatableEvictThresholdPercent",
					       "memoryAllocatableEvictLowerPercent",
					       "cpuEvictThresholdPercent",
					       "cpuEvictLowerPercent",
					       "cpuAllocatableEvictThresholdPercent",
					       "cpuAllocatableEvictLowerPercent",
					       "cpuEvictPolicy",
					       "evictEnabledPriorityThreshold",
					       "allocatableEvictPriorityThreshold",
					       NULL };
	static const char *const policies[] = { "cpuset", "cfsQuota", NULL };
	const char *ctx = "resourceUsedThresholdWithBE";
	int pol = 0, lower_set;

	if (!t)
		return 0;
	if (config_fields(c, t, ctx, known, ignored, CONFIG_LENIENT, warnings, e) < 0 ||
	    config_bool(c, t, ctx, "enable", 1, &p->threshold_enable, e) < 0 ||
	    geti(c, t, ctx, "cpuSuppressThresholdPercent", 0, 100,
		 &p->cpu_suppress_threshold_percent, e) < 0 ||
	    geti(c, t, ctx, "cpuSuppressMinPercent", 0, 100, &p->cpu_suppress_min_percent, e) < 0 ||
	    config_enum(c, t, ctx, "cpuSuppressPolicy", policies, 0, &pol, e) < 0 ||
	    geti(c, t, ctx, "memoryEvictThresholdPercent", 0, 100,
		 &p->memory_evict_threshold_percent, e) < 0 ||
	    geti(c, t, ctx, "cpuEvictBEUsageThresholdPercent", 0, 100,
		 &p->cpu_evict_be_usage_threshold_percent, e) < 0 ||
	    config_int(c, t, ctx, "cpuEvictTimeWindowSeconds", 1, 1, 86400,
		       &p->cpu_evict_time_window_seconds, e) < 0)
		return -1;
	p->cpu_suppress_policy = (enum policy_suppress)pol;
	lower_set = json_is_integer(json_object_get(t, "memoryEvictLowerPercent"));
	p->memory_evict_lower_percent = p->memory_evict_threshold_percent - 2;
	if (geti(c, t, ctx, "memoryEvictLowerPercent", 0, 100, &p->memory_evict_lower_percent, e) <
	    0)
		return -1;
	if (lower_set && p->memory_evict_lower_percent >= p->memory_evict_threshold_percent)
		return config_reject(c, t, ctx, "memoryEvictLowerPercent",
				     "a percent below memoryEvictThresholdPercent", e);
	if (p->memory_evict_lower_percent < 0)
		p->memory_evict_lower_percent = 0;
	if (geti(c, t, ctx, "cpuEvictBESatisfactionLowerPercent", 0, 100,
		 &p->cpu_evict_be_satisfaction_lower_percent, e) < 0 ||
	    geti(c, t, ctx, "cpuEvictBESatisfactionUpperPercent", 0, 100,
		 &p->cpu_evict_be_satisfaction_upper_percent, e) < 0)
		return -1;
	if (json_object_get(t, "cpuEvictBESatisfactionLowerPercent") &&
	    (p->cpu_evict_be_satisfaction_lower_percent <= 0 ||
	     p->cpu_evict_be_satisfaction_lower_percent > 60))
		return config_reject(c, t, ctx, "cpuEvictBESatisfactionLowerPercent",
				     "a percent in (0, 60]", e);
	if (json_object_get(t, "cpuEvictBESatisfactionUpperPercent") &&
	    (p->cpu_evict_be_satisfaction_upper_percent <= 0 ||
	     p->cpu_evict_be_satisfaction_upper_percent >= 100 ||
	     p->cpu_evict_be_satisfaction_upper_percent <
		     p->cpu_evict_be_satisfaction_lower_percent))
		return config_reject(
			c, t, ctx, "cpuEvictBESatisfactionUpperPercent",
			"a percent in (0, 100) and not below cpuEvictBESatisfactionLowerPercent",
			e);
	return 0;
}

static int read_class(struct policy *p, const struct config *c, const json_t *qos,
		      enum policy_class k, json_t *warnings, struct err *e)
{
	static const char *const be_known[] = { "cpuQOS", "memoryQOS", "resctrlQOS", NULL };
	static const char *const other_known[] = { "resctrlQOS", NULL };
	static const char *const be_ignored[] = { "blkioQOS", "networkQOS", NULL };
	static const char *const other_ignored[] = { "cpuQOS", "memoryQOS", "blkioQOS",
						     "networkQOS", NULL };
	static const char *const cpu_known[] = { "enable", "groupIdentity", "schedIdle", NULL };
	static const char *const cpu_ignored[] = { "coreExpeller", NULL };
	static const char *const mem_known[] = {
		"enable",   "wmarkRatio", "wmarkScalePermill", "wmarkMinAdj", "priorityEnable",
		"priority", NULL
	};
	static const char *const mem_ignored[] = { "minLimitPercent",
						   "lowLimitPercent",
						   "throttlingPercent",
						   "oomKillGroup",
						   "pageCacheEnable",
						   "pageCacheLimitPercent",
						   "pageCacheLimitSize",
						   "pageCacheReclaimSync",
						   "pageCacheLimitEnable",
						   "pageCacheLimitSync",
						   NULL };
	static const char *const rdt_known[] = { "enable", "catRangeStartPercent",
						 "catRangeEndPercent", "mbaPercent", NULL };
	struct policy_resctrl *r = &p->resctrl[k];
	json_t *cls = NULL, *cpu = NULL, *mem = NULL, *rdt = NULL;
	char ctx[96], sub[128];

	snprintf(ctx, sizeof(ctx), "resourceQOSStrategy.%s", class_fields[k]);
	if (config_obj(c, qos, "resourceQOSStrategy", class_fields[k], &cls, e) < 0)
		return -1;
	if (!cls)
		return 0;
	if (config_fields(c, cls, ctx, k == POLICY_BE ? be_known : other_known,
			  k == POLICY_BE ? be_ignored : other_ignored, CONFIG_LENIENT, warnings,
			  e) < 0 ||
	    config_obj(c, cls, ctx, "resctrlQOS", &rdt, e) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.resctrlQOS", ctx);
	if (rdt) {
		if (config_fields(c, rdt, sub, rdt_known, NULL, CONFIG_LENIENT, warnings, e) < 0 ||
		    config_bool(c, rdt, sub, "enable", r->enable, &r->enable, e) < 0 ||
		    geti(c, rdt, sub, "catRangeStartPercent", 0, 100, &r->cat_start_percent, e) <
			    0 ||
		    geti(c, rdt, sub, "catRangeEndPercent", 0, 100, &r->cat_end_percent, e) < 0 ||
		    geti(c, rdt, sub, "mbaPercent", 0, 100, &r->mba_percent, e) < 0)
			return -1;
		if (r->cat_start_percent >= r->cat_end_percent)
			return config_reject(c, rdt, sub, "catRangeEndPercent",
					     "a percent above catRangeStartPercent", e);
	}
	if (k != POLICY_BE)
		return 0;
	if (config_obj(c, cls, ctx, "cpuQOS", &cpu, e) < 0 ||
	    config_obj(c, cls, ctx, "memoryQOS", &mem, e) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.cpuQOS", ctx);
	if (cpu) {
		if (config_fields(c, cpu, sub, cpu_known, cpu_ignored, CONFIG_LENIENT, warnings,
				  e) < 0 ||
		    config_bool(c, cpu, sub, "enable", 1, &p->cpu_qos_enable, e) < 0 ||
		    geti(c, cpu, sub, "groupIdentity", -1, 2, &p->group_identity, e) < 0 ||
		    geti(c, cpu, sub, "schedIdle", 0, 1, &p->sched_idle, e) < 0)
			return -1;
	}
	snprintf(sub, sizeof(sub), "%s.memoryQOS", ctx);
	if (mem) {
		if (config_fields(c, mem, sub, mem_known, mem_ignored, CONFIG_LENIENT, warnings,
				  e) < 0 ||
		    config_bool(c, mem, sub, "enable", 1, &p->memory_qos_enable, e) < 0 ||
		    geti(c, mem, sub, "wmarkRatio", 0, 100, &p->wmark_ratio, e) < 0 ||
		    geti(c, mem, sub, "wmarkScalePermill", 1, 1000, &p->wmark_scale_permill, e) <
			    0 ||
		    geti(c, mem, sub, "wmarkMinAdj", -25, 50, &p->wmark_min_adj, e) < 0 ||
		    geti(c, mem, sub, "priorityEnable", 0, 1, &p->priority_enable, e) < 0 ||
		    geti(c, mem, sub, "priority", 0, 12, &p->priority, e) < 0)
			return -1;
	}
	return 0;
}

/* kilo.mbaBandwidth: one value (0..2^32) for every domain, or a map of
 * domain ids ("0".."65535") to values; kilo.mbaMaxBandwidth: one value. */
static int read_mba(struct policy *p, const struct config *c, const json_t *k, struct err *e)
{
	const int64_t max = UINT32_MAX;
	json_t *bw = json_object_get(k, "mbaBandwidth"), *v;
	const char *key;

	if (config_int(c, k, "kilo", "mbaMaxBandwidth", NOT_SET, 1, max, &p->mba.max, e) < 0)
		return -1;
	if (!bw || json_is_null(bw))
		return 0;
	if (!json_is_object(bw))
		return config_int(c, k, "kilo", "mbaBandwidth", NOT_SET, 0, max, &p->mba.all, e);
	json_object_foreach(bw, key, v)
	{
		const char *end = key;
		int64_t id;

		if (num_scan_i64(&end, 0, 65535, &id) < 0 || *end || p->mba.n == POLICY_MBA_DOMAINS)
			return config_reject(c, bw, "kilo.mbaBandwidth", key,
					     "a domain id 0..65535 (at most 64 of them)", e);
		p->mba.dom[p->mba.n].id = (unsigned)id;
		if (config_int(c, bw, "kilo.mbaBandwidth", key, 0, 0, max,
			       &p->mba.dom[p->mba.n].value, e) < 0)
			return -1;
		p->mba.n++;
	}
	return 0;
}

static int read_kilo(struct policy *p, const struct config *c, const json_t *k, struct err *e)
{
	static const char *const known[] = { "nodeReserved",
					     "reservedCPUs",
					     "allowAM",
					     "terminatingTimeoutMs",
					     "memoryEvictCoolDownMs",
					     "cpuEvictCoolDownMs",
					     "gracePeriodMs",
					     "hadoopYarnMemoryLimitPercent",
					     "hadoopYarnMemoryHighPercent",
					     "memoryLimitMarginBytes",
					     "mbaBandwidth",
					     "mbaMaxBandwidth",
					     NULL };
	static const char *const reserved_known[] = { "cpuMilli", NULL };
	const char *cpus = "";
	struct cpuset set;
	json_t *res = NULL;

	if (!k)
		return 0;
	if (config_fields(c, k, "kilo", known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_obj(c, k, "kilo", "nodeReserved", &res, e) < 0 ||
	    config_fields(c, res, "kilo.nodeReserved", reserved_known, NULL, CONFIG_STRICT, NULL,
			  e) < 0 ||
	    config_int(c, res, "kilo.nodeReserved", "cpuMilli", 0, 0, INT64_C(1) << 40,
		       &p->node_reserved_cpu_milli, e) < 0 ||
	    config_str(c, k, "kilo", "reservedCPUs", "", &cpus, e) < 0 ||
	    config_bool(c, k, "kilo", "allowAM", 0, &p->allow_am, e) < 0 ||
	    config_int(c, k, "kilo", "terminatingTimeoutMs", p->terminating_timeout_ms, 0, 86400000,
		       &p->terminating_timeout_ms, e) < 0 ||
	    config_int(c, k, "kilo", "memoryEvictCoolDownMs", p->memory_evict_cool_down_ms, 0,
		       86400000, &p->memory_evict_cool_down_ms, e) < 0 ||
	    config_int(c, k, "kilo", "cpuEvictCoolDownMs", p->cpu_evict_cool_down_ms, 0, 86400000,
		       &p->cpu_evict_cool_down_ms, e) < 0 ||
	    config_int(c, k, "kilo", "gracePeriodMs", p->grace_period_ms, 0, 600000,
		       &p->grace_period_ms, e) < 0 ||
	    geti(c, k, "kilo", "hadoopYarnMemoryLimitPercent", 1, 100,
		 &p->hadoop_yarn_memory_limit_percent, e) < 0 ||
	    geti(c, k, "kilo", "hadoopYarnMemoryHighPercent", 1, 100,
		 &p->hadoop_yarn_memory_high_percent, e) < 0 ||
	    config_int(c, k, "kilo", "memoryLimitMarginBytes", p->memory_limit_margin_bytes, 0,
		       INT64_C(1) << 50, &p->memory_limit_margin_bytes, e) < 0)
		return -1;
	if (read_mba(p, c, k, e) < 0)
		return -1;
	if (strspn(cpus, "0123456789,-") != strlen(cpus) ||
	    strlen(cpus) >= sizeof(p->reserved_cpus) || cpuset_parse(cpus, &set, NULL) < 0)
		return config_reject(c, k, "kilo", "reservedCPUs",
				     "a cpuset list such as \"0-1,8\"", e);
	snprintf(p->reserved_cpus, sizeof(p->reserved_cpus), "%s", cpus);
	return 0;
}

/* Whether obj has a key of list (NULL-terminated). */
static int any_listed(const json_t *obj, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (json_object_get(obj, list[i]))
			return 1;
	return 0;
}

int policy_from_config(struct policy *p, const struct config *c, json_t *warnings, struct err *e)
{
	static const char *const object_known[] = { "apiVersion", "kind", "metadata", "spec",
						    "status",     "kilo", NULL };
	static const char *const spec_known[] = { "resourceUsedThresholdWithBE",
						  "resourceQOSStrategy", "kilo", NULL };
	static const char *const spec_ignored[] = { "cpuBurstStrategy", "systemStrategy",
						    "hostApplications", "extensions", NULL };
	static const char *const qos_known[] = { "lsrClass", "lsClass", "beClass", NULL };
	/* lseClass: Koordinator's LSE class has no strategy of its own today;
	 * one would be a newer Koordinator's field, never a typo of lsrClass */
	static const char *const qos_ignored[] = { "policies", "systemClass", "cgroupRoot",
						   "lseClass", NULL };
	const json_t *root = c->root;
	json_t *spec = (json_t *)root, *kilo = NULL, *t = NULL, *qos = NULL;
	const char *kind = json_string_value(json_object_get(root, "kind"));

	/* threat-model.md: an empty file (a jsonpath that matched nothing)
	 * never runs on the defaults; {} says so explicitly */
	if (c->empty)
		return err_set(e, ERR_INPUT, 0,
			       "%s: the policy file is empty (no NodeSLO, spec or kilo: section; "
			       "{} takes every default)",
			       c->name);
	/* a NodeSLO object, also without its kind (a hand-written file with spec:) */
	if ((kind && strcmp(kind, "NodeSLO") == 0) ||
	    (!kind && json_is_object(json_object_get(root, "spec")))) {
		if (config_fields(c, root, "", object_known, NULL, CONFIG_LENIENT, warnings, e) <
			    0 ||
		    config_obj(c, root, "", "spec", &spec, e) < 0 ||
		    config_obj(c, root, "", "kilo", &kilo, e) < 0)
			return -1;
	} else if (kind && strcmp(kind, "ConfigMap") == 0) {
		return config_reject(
			c, root, "", "kind",
			"\"NodeSLO\" or a NodeSLO spec, not a ConfigMap: give the file "
			"in its data (key policy.yaml of "
			"manifests/kilo/node-policy.yaml), e.g. "
			"kubectl -n kilo-system get configmap kilo-node-policy -o "
			"jsonpath='{.data.policy\\.yaml}' >policy.yaml",
			e);
	} else if (kind) {
		return config_reject(c, root, "", "kind", "\"NodeSLO\" or a NodeSLO spec", e);
	}
	if (spec && spec != root && json_object_get(spec, "kilo")) {
		/* two kilo: sections: one would be read, the other silently not */
		if (kilo)
			return config_reject(c, spec, "spec", "kilo",
					     "one kilo: section (this one, or the one at the top; "
					     "not both)",
					     e);
		if (config_obj(c, spec, "spec", "kilo", &kilo, e) < 0)
			return -1;
	} else if (!kilo && spec && config_obj(c, spec, "spec", "kilo", &kilo, e) < 0) {
		return -1;
	}
	if (!spec)
		return read_kilo(p, c, kilo, e);
	/* threat-model.md: the wrong file never runs on the defaults (kilo-sync's
	 * config, say, would give two warnings and eviction at 70%) */
	if (spec == root && json_object_size(root) > 0 && !any_listed(root, spec_known) &&
	    !any_listed(root, spec_ignored)) {
		const char *first = json_object_iter_key(json_object_iter((json_t *)root));

		return config_reject(c, root, "", first,
				     "a NodeSLO, its spec, or a kilo: section (no field of this "
				     "file is one of theirs: the wrong file?)",
				     e);
	}
	if (config_fields(c, spec, spec == root ? "" : "spec", spec_known, spec_ignored,
			  CONFIG_LENIENT, warnings, e) < 0 ||
	    config_obj(c, spec, "spec", "resourceUsedThresholdWithBE", &t, e) < 0 ||
	    config_obj(c, spec, "spec", "resourceQOSStrategy", &qos, e) < 0 ||
	    read_threshold(p, c, t, warnings, e) < 0)
		return -1;
	if (config_fields(c, qos, "resourceQOSStrategy", qos_known, qos_ignored, CONFIG_LENIENT,
			  warnings, e) < 0)
		return -1;
	for (int k = 0; qos && k < POLICY_NCLASSES; k++)
		if (read_class(p, c, qos, (enum policy_class)k, warnings, e) < 0)
			return -1;
	return read_kilo(p, c, kilo, e);
}

int policy_load(struct policy *p, const char *path, json_t *warnings, struct err *e)
{
	struct config c;
	int ret;

	policy_defaults(p);
	if (!path)
		return 0;
	ret = config_load(&c, path, e);
	if (ret == 0)
		ret = policy_from_config(p, &c, warnings, e);
	config_release(&c);
	return ret;
}
