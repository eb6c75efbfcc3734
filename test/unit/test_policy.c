// SPDX-License-Identifier: Apache-2.0
/* test_policy - NodeSLO-shaped node policy: defaults, fixture, validation */
#include <string.h>

#include "doc/policy.h"
#include "testlib.h"

static int from_string(struct policy *p, const char *text, json_t *w, struct err *e)
{
	struct config c;
	int ret;

	policy_defaults(p);
	ret = config_load_string(&c, text, "p.yaml", e);
	if (ret == 0)
		ret = policy_from_config(p, &c, w, e);
	config_release(&c);
	return ret;
}

START_TEST(test_policy_defaults)
{
	struct policy p;
	struct err e = { 0 };

	ck_assert_int_eq(policy_load(&p, NULL, NULL, &e), 0);
	ck_assert_int_eq(p.threshold_enable, 1);
	ck_assert_int_eq(p.cpu_suppress_threshold_percent, 65);
	ck_assert_int_eq(p.cpu_suppress_min_percent, -1);
	ck_assert_int_eq(p.cpu_suppress_policy, POLICY_SUPPRESS_CPUSET);
	ck_assert_int_eq(p.memory_evict_threshold_percent, 70);
	ck_assert_int_eq(p.memory_evict_lower_percent, 68);
	ck_assert_int_eq(p.cpu_evict_be_usage_threshold_percent, 90);
	ck_assert_int_eq(p.cpu_evict_be_satisfaction_lower_percent, -1);
	ck_assert_int_eq(p.group_identity, -1);
	ck_assert_int_eq(p.wmark_min_adj, 50);
	ck_assert_int_eq(p.resctrl[POLICY_BE].enable, 1);
	ck_assert_int_eq(p.resctrl[POLICY_BE].cat_end_percent, 30);
	ck_assert_int_eq(p.resctrl[POLICY_LS].enable, 0);
	ck_assert_int_eq(p.resctrl[POLICY_LS].cat_end_percent, 100);
	ck_assert_int_eq(p.allow_am, 0);
	ck_assert_int_eq(p.terminating_timeout_ms, 10000);
	ck_assert_int_eq(p.memory_evict_cool_down_ms, 4000);
	ck_assert_int_eq(p.cpu_evict_cool_down_ms, 20000);
	ck_assert_int_eq(p.grace_period_ms, 250);
	ck_assert_int_eq(p.hadoop_yarn_memory_limit_percent, -1);
}
END_TEST

START_TEST(test_policy_nodeslo_fixture_loads_without_warnings)
{
	char *path = testlib_fixture("k8s/nodeslo.json");
	json_t *w = json_array();
	struct policy p;
	struct err e = { 0 };

	ck_assert_msg(policy_load(&p, path, w, &e) == 0, "%s", e.msg);
	ck_assert_msg(json_array_size(w) == 0, "unexpected warning %s",
		      json_string_value(json_array_get(w, 0)));
	ck_assert_int_eq(p.resctrl[POLICY_BE].enable, 1);
	ck_assert_int_eq(p.resctrl[POLICY_BE].cat_end_percent, 30);
	ck_assert_int_eq(p.resctrl[POLICY_LSR].enable, 0);
	ck_assert_int_eq(p.wmark_ratio, 95);
	json_decref(w);
	free(path);
}
END_TEST

START_TEST(test_policy_spec_and_kilo_fields)
{
	struct policy p;
	struct err e = { 0 };
	json_t *w = json_array();
	const char *y = "resourceUsedThresholdWithBE:\n"
			"  memoryEvictThresholdPercent: 80\n"
			"  cpuSuppressPolicy: cfsQuota\n"
			"  cpuEvictBESatisfactionLowerPercent: 60\n"
			"  cpuEvictBESatisfactionUpperPercent: 80\n"
			"  cpuEvictTimeWindowSeconds: 60\n"
			"  cpuEvictPolicy: evictByRealLimit\n"
			"  unknownKnob: 3\n"
			"cpuBurstStrategy: {policy: none}\n"
			"kilo:\n"
			"  allowAM: true\n"
			"  reservedCPUs: \"0-1\"\n"
			"  nodeReserved: {cpuMilli: 2000}\n"
			"  memoryEvictCoolDownMs: 1000\n"
			"resourceQOSStrategy:\n"
			"  beClass:\n"
			"    cpuQOS: {schedIdle: 1, coreExpeller: true}\n"
			"    resctrlQOS: {catRangeStartPercent: 10, catRangeEndPercent: 15}\n"
			"  lsClass:\n"
			"    resctrlQOS: {enable: true, mbaPercent: 50}\n";

	ck_assert_msg(from_string(&p, y, w, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(p.memory_evict_threshold_percent, 80);
	ck_assert_int_eq(p.memory_evict_lower_percent, 78);
	ck_assert_int_eq(p.cpu_suppress_policy, POLICY_SUPPRESS_CFSQUOTA);
	ck_assert_int_eq(p.cpu_evict_be_satisfaction_lower_percent, 60);
	ck_assert_int_eq(p.cpu_evict_be_satisfaction_upper_percent, 80);
	ck_assert_int_eq(p.cpu_evict_time_window_seconds, 60);
	ck_assert_int_eq(p.allow_am, 1);
	ck_assert_str_eq(p.reserved_cpus, "0-1");
	ck_assert_int_eq(p.node_reserved_cpu_milli, 2000);
	ck_assert_int_eq(p.memory_evict_cool_down_ms, 1000);
	ck_assert_int_eq(p.sched_idle, 1);
	ck_assert_int_eq(p.resctrl[POLICY_BE].cat_start_percent, 10);
	ck_assert_int_eq(p.resctrl[POLICY_BE].cat_end_percent, 15);
	ck_assert_int_eq(p.resctrl[POLICY_LS].enable, 1);
	ck_assert_int_eq(p.resctrl[POLICY_LS].mba_percent, 50);
	ck_assert_int_eq(json_array_size(w), 1);
	ck_assert_str_eq(json_string_value(json_array_get(w, 0)),
			 "resourceUsedThresholdWithBE.unknownKnob");
	json_decref(w);
}
END_TEST

START_TEST(test_policy_nodeslo_object_with_kilo_beside_spec)
{
	struct policy p;
	struct err e = { 0 };
	const char *y = "apiVersion: slo.koordinator.sh/v1alpha1\nkind: NodeSLO\n"
			"metadata: {name: worker-1}\n"
			"spec:\n  resourceUsedThresholdWithBE: {enable: false}\n"
			"kilo: {allowAM: true}\n";

	ck_assert_msg(from_string(&p, y, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(p.threshold_enable, 0);
	ck_assert_int_eq(p.allow_am, 1);
	/* spec: without kind is still a NodeSLO object, and its values are checked */
	ck_assert_msg(from_string(&p,
				  "spec:\n  resourceUsedThresholdWithBE: "
				  "{memoryEvictThresholdPercent: 80}\n",
				  NULL, &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(p.memory_evict_threshold_percent, 80);
	ck_assert_int_eq(from_string(&p,
				     "spec:\n  resourceUsedThresholdWithBE: "
				     "{memoryEvictThresholdPercent: 170}\n",
				     NULL, &e),
			 -1);
}
END_TEST

static const struct {
	const char *in;
	const char *msg;
} bad[] = {
	{ "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 170}\n",
	  "p.yaml:1:60: resourceUsedThresholdWithBE.memoryEvictThresholdPercent: expected an "
	  "integer 0..100, got 170" },
	{ "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 70, "
	  "memoryEvictLowerPercent: 70}\n",
	  "p.yaml:1:89: resourceUsedThresholdWithBE.memoryEvictLowerPercent: expected a percent "
	  "below memoryEvictThresholdPercent, got 70" },
	{ "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 70}\n",
	  "p.yaml:1:67: resourceUsedThresholdWithBE.cpuEvictBESatisfactionLowerPercent: expected a "
	  "percent in (0, 60], got 70" },
	{ "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 0}\n",
	  "p.yaml:1:67: resourceUsedThresholdWithBE.cpuEvictBESatisfactionLowerPercent: expected a "
	  "percent in (0, 60], got 0" },
	{ "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 60, "
	  "cpuEvictBESatisfactionUpperPercent: 50}\n",
	  "p.yaml:1:107: resourceUsedThresholdWithBE.cpuEvictBESatisfactionUpperPercent: expected "
	  "a percent in (0, 100) and not below cpuEvictBESatisfactionLowerPercent, got 50" },
	{ "resourceUsedThresholdWithBE: {cpuEvictBESatisfactionUpperPercent: 100}\n",
	  "p.yaml:1:67: resourceUsedThresholdWithBE.cpuEvictBESatisfactionUpperPercent: expected "
	  "a percent in (0, 100) and not below cpuEvictBESatisfactionLowerPercent, got 100" },
	{ "resourceUsedThresholdWithBE: {cpuSuppressThresholdPercent: \"65%\"}\n",
	  "p.yaml:1:60: resourceUsedThresholdWithBE.cpuSuppressThresholdPercent: expected an "
	  "integer 0..100, got \"65%\"" },
	{ "resourceQOSStrategy: {beClass: {resctrlQOS: {catRangeStartPercent: 50, "
	  "catRangeEndPercent: 40}}}\n",
	  "p.yaml:1:92: resourceQOSStrategy.beClass.resctrlQOS.catRangeEndPercent: expected a "
	  "percent above catRangeStartPercent, got 40" },
	{ "kilo: {reservedCPUs: \"0-1;3\"}\n",
	  "p.yaml:1:22: kilo.reservedCPUs: expected a cpuset list such as \"0-1,8\", got \"0-1;3\"" },
	{ "kilo: {reservedCPUs: \"5-2\"}\n",
	  "p.yaml:1:22: kilo.reservedCPUs: expected a cpuset list such as \"0-1,8\", got \"5-2\"" },
	{ "kilo: {reservedCPUs: \"0,,1\"}\n",
	  "p.yaml:1:22: kilo.reservedCPUs: expected a cpuset list such as \"0-1,8\", got \"0,,1\"" },
	{ "kilo: {reservedCPUs: \"0-99999999\"}\n",
	  "p.yaml:1:22: kilo.reservedCPUs: expected a cpuset list such as \"0-1,8\", got \"0-99999999\"" },
	{ "kind: Pod\n", "p.yaml:1:7: kind: expected \"NodeSLO\" or a NodeSLO spec, got \"Pod\"" },
	/* strict under kilo:, a typo of a NodeSLO field anywhere (file order) */
	{ "kilo: {allowAM: true, bogusKnob: 1, allowAm: true}\n",
	  "p.yaml:1:23: kilo.bogusKnob: unknown field" },
	{ "kilo: {nodeReserved: {cpu: 1}}\n", "p.yaml:1:23: kilo.nodeReserved.cpu: unknown field" },
	{ "kilo: {allowAm: true}\n",
	  "p.yaml:1:8: kilo.allowAm: unknown field (did you mean allowAM?)" },
	{ "spec:\n  kilo:\n    gracePeriodMS: 1\n",
	  "p.yaml:3:5: kilo.gracePeriodMS: unknown field (did you mean gracePeriodMs?)" },
	{ "resourceUsedThresholdWithBE:\n  memoryEvictThresholdPrecent: 80\n",
	  "p.yaml:2:3: resourceUsedThresholdWithBE.memoryEvictThresholdPrecent: unknown field "
	  "(did you mean memoryEvictThresholdPercent?)" },
	{ "kind: NodeSLO\nspec:\n  resourceQOSStrategy:\n    beClass:\n"
	  "      memoryQOS: {wmarkRatio: 90, wmarkMinAjd: 1}\n",
	  "p.yaml:5:35: resourceQOSStrategy.beClass.memoryQOS.wmarkMinAjd: unknown field "
	  "(did you mean wmarkMinAdj?)" },
	{ "resourceQOSStrategy: {beClas: {}}\n",
	  "p.yaml:1:23: resourceQOSStrategy.beClas: unknown field (did you mean beClass?)" },
	{ "resourceQOSStrategy: {lsClass: {resctrlQos: {}}}\n",
	  "p.yaml:1:33: resourceQOSStrategy.lsClass.resctrlQos: unknown field "
	  "(did you mean resctrlQOS?)" },
	{ "resourceQOSStrategy: {beClass: {cpuQOS: {coreExpellar: true}}}\n",
	  "p.yaml:1:42: resourceQOSStrategy.beClass.cpuQOS.coreExpellar: unknown field "
	  "(did you mean coreExpeller?)" },
	{ "apiVersion: slo.koordinator.sh/v1alpha1\nkind: NodeSLO\nspce: {}\n",
	  "p.yaml:3:1: spce: unknown field (did you mean spec?)" },
	{ "kind: NodeSLO\nspec: {cpuBurstStrategys: {}}\n",
	  "p.yaml:2:8: spec.cpuBurstStrategys: unknown field (did you mean cpuBurstStrategy?)" },
	{ "kilo: {allowAM: yes}\n",
	  "p.yaml:1:17: kilo.allowAM: expected true or false, got \"yes\"" },
	{ "kilo: {mbaBandwidth: {ccd0: 60}}\n",
	  "p.yaml:1:29: kilo.mbaBandwidth.ccd0: expected a domain id 0..65535 (at most 64 of "
	  "them), got 60" },
	{ "kilo: {mbaBandwidth: {\"0\": -1}}\n",
	  "p.yaml:1:28: kilo.mbaBandwidth.0: expected an integer 0..4294967295, got -1" },
	{ "kilo: {mbaMaxBandwidth: 0}\n",
	  "p.yaml:1:25: kilo.mbaMaxBandwidth: expected an integer 1..4294967295, got 0" },
};

/* kilo's MB values: one for every domain, or by domain id; mbaPercent 0
 * is taken (raised to the kernel's min_bandwidth later). */
START_TEST(test_policy_mba_values)
{
	struct policy p;
	struct err e = { 0 };

	ck_assert_int_eq(from_string(&p,
				     "kilo: {mbaBandwidth: 60, mbaMaxBandwidth: 2048}\n"
				     "resourceQOSStrategy: {beClass: {resctrlQOS: "
				     "{mbaPercent: 0}}}\n",
				     NULL, &e),
			 0);
	ck_assert_int_eq(p.mba.all, 60);
	ck_assert_int_eq(p.mba.max, 2048);
	ck_assert_uint_eq(p.mba.n, 0);
	ck_assert_int_eq(p.resctrl[POLICY_BE].mba_percent, 0);
	ck_assert_int_eq(
		from_string(&p, "kilo: {mbaBandwidth: {\"0\": 60, \"16\": 100}}\n", NULL, &e), 0);
	ck_assert_int_eq(p.mba.all, -1);
	ck_assert_int_eq(p.mba.max, -1);
	ck_assert_uint_eq(p.mba.n, 2);
	ck_assert_uint_eq(p.mba.dom[1].id, 16);
	ck_assert_int_eq(p.mba.dom[1].value, 100);
}
END_TEST

START_TEST(test_policy_rejects_bad_values)
{
	struct policy p;
	struct err e = { 0 };

	ck_assert_int_eq(from_string(&p, bad[_i].in, NULL, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, bad[_i].msg);
}
END_TEST

static Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("nodeslo");

	tcase_add_test(tc, test_policy_defaults);
	tcase_add_test(tc, test_policy_nodeslo_fixture_loads_without_warnings);
	tcase_add_test(tc, test_policy_spec_and_kilo_fields);
	tcase_add_test(tc, test_policy_nodeslo_object_with_kilo_beside_spec);
	tcase_add_test(tc, test_policy_mba_values);
	tcase_add_loop_test(tc, test_policy_rejects_bad_values, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(policy_suite)
