// SPDX-License-Identifier: Apache-2.0
/* test_killplan - the KillPlan document: what the reader takes and refuses
 * (every refusal names its path), and what the evictor writes, round trip */
#include <string.h>

#include "core/clock.h"
#include "core/jsonio.h"
#include "doc/killplan.h"
#include "testlib.h"

#define CA "container_e17_1410901177871_0001_01_000002"
#define CB "container_e17_1410901177871_0001_01_000003"

/* The plan's gracePeriodMs, or the caller's 250 when it has none. */
static int64_t grace_or(const struct killplan *kp, int64_t dflt)
{
	return kp->grace_period_ms == KILLPLAN_UNKNOWN ? dflt : kp->grace_period_ms;
}

static const struct {
	const char *json;
	size_t n;
	int64_t grace;
	const char *msg;
} plans[] = {
	{ "{\"kind\":\"KillPlan\",\"gracePeriodMs\":500,\"items\":[{\"id\":\"" CA
	  "\",\"reason\":\"memory\"},"
	  "{\"id\":\"" CB "\"}]}",
	  2, 500, NULL },
	{ "{\"kind\":\"KillPlan\",\"trigger\":null,\"items\":[]}", 0, 250, NULL },
	{ "{\"kind\":\"KillPlan\"}", 0, 250, NULL },
	{ "{\"items\":[{\"id\":\"" CA "\"},{\"id\":\"1234\"}]}", 0, 250,
	  "KillPlan.items[1].id: expected a YARN container id, got \"1234\"" },
	{ "{\"items\":[{\"id\":\"" CA "/../../x\"}]}", 0, 250,
	  "KillPlan.items[0].id: expected a YARN container id, got \"" CA "/../../x\"" },
	{ "{\"items\":[{\"pid\":4242}]}", 0, 250,
	  "KillPlan.items[0].id: expected a YARN container id, got nothing" },
	{ "{\"items\":[{\"id\":\"" CA "\"},{\"id\":\"" CA "\"}]}", 0, 250,
	  "KillPlan.items[1].id: '" CA "' is listed twice" },
	{ "{\"gracePeriodMs\":-1,\"items\":[]}", 0, 250,
	  "KillPlan.gracePeriodMs: expected an integer 0..3600000, got -1" },
	{ "{\"items\":{}}", 0, 250, "KillPlan.items: expected an array, got {}" },
	/* the first item that repeats an earlier one is named */
	{ "{\"items\":[{\"id\":\"" CA "\"},{\"id\":\"" CB "\"},{\"id\":\"" CB "\"},"
	  "{\"id\":\"" CA "\"}]}",
	  0, 250, "KillPlan.items[2].id: '" CB "' is listed twice" },
};

START_TEST(test_killplan_from_json)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(plans[_i].json, "t", &e);
	struct killplan kp;
	int r;

	ck_assert_ptr_nonnull(doc);
	r = killplan_from_json(doc, &kp, &e);
	if (plans[_i].msg) {
		ck_assert_int_eq(r, -1);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_str_eq(e.msg, plans[_i].msg);
		ck_assert_ptr_null(kp.items);
	} else {
		ck_assert_int_eq(r, 0);
		ck_assert_int_eq(grace_or(&kp, 250), plans[_i].grace);
		if (plans[_i].n)
			ck_assert_str_eq(kp.items[plans[_i].n - 1].id, CB);
	}
	ck_assert_uint_eq(kp.nitems, plans[_i].n);
	killplan_release(&kp);
}
END_TEST

/* Found by the bad-input matrix: 20000 items took minutes (a realloc and a
 * scan of every earlier id per item).  Now one allocation and a sort. */
START_TEST(test_killplan_from_json_many)
{
	struct err e = { 0 };
	json_auto_t *doc = json_pack("{s:[]}", "items");
	json_t *list = json_object_get(doc, "items");
	struct killplan kp;
	int64_t t0;
	char id[64];

	for (int i = 0; i < 20000; i++) {
		snprintf(id, sizeof(id), "container_1410901177871_0001_01_%06d", 19999 - i);
		json_array_append_new(list, json_pack("{s:s}", "id", id));
	}
	t0 = clock_mono_ms();
	ck_assert_int_eq(killplan_from_json(doc, &kp, &e), 0);
	ck_assert_uint_eq(kp.nitems, 20000);
	ck_assert_str_eq(kp.items[0].id, "container_1410901177871_0001_01_019999");
	ck_assert_int_lt(clock_mono_ms() - t0, 2000);
	killplan_release(&kp);
	json_array_append_new(list,
			      json_pack("{s:s}", "id", "container_1410901177871_0001_01_000007"));
	ck_assert_int_eq(killplan_from_json(doc, &kp, &e), -1);
	ck_assert_str_eq(e.msg, "KillPlan.items[20000].id: "
				"'container_1410901177871_0001_01_000007' is listed twice");
}
END_TEST

/* A memory plan as the evictor fills it. */
static void memory_plan(struct killplan *kp)
{
	memset(kp, 0, sizeof(*kp));
	kp->node = strdup("worker-1");
	kp->timestamp_ms = 1732896001000LL;
	kp->grace_period_ms = 250;
	kp->trigger = (struct killplan_trigger){ .resource = KILLPLAN_MEMORY,
						 .usage_percent = 75.2493,
						 .threshold_percent = 70,
						 .lower_percent = 68,
						 .need = 19797970944LL,
						 .usage_bytes = 75200000000LL,
						 .capacity_bytes = 100000000000LL };
	kp->items = calloc(1, sizeof(*kp->items));
	kp->items[0] = (struct killplan_item){ .id = strdup(CB),
					       .reason = KILLPLAN_MEMORY,
					       .release = 4294967296LL,
					       .memory_bytes = 4294967296LL,
					       .cpu_milli = KILLPLAN_UNKNOWN,
					       .request_cpu_milli = KILLPLAN_UNKNOWN,
					       .started_ms = KILLPLAN_UNKNOWN };
	kp->nitems = 1;
	kp->skipped = calloc(1, sizeof(*kp->skipped));
	kp->skipped[0] = (struct killplan_skip){ strdup(CA), strdup("am") };
	kp->nskipped = 1;
	killplan_add_note(kp, "cpu: off");
}

/* The bytes the evictor writes (SCHEMAS.md KillPlan), and what the reader
 * takes back of them: the ids and gracePeriodMs. */
START_TEST(test_killplan_to_json_round_trip)
{
	struct killplan kp, back;
	struct err e = { 0 };
	json_auto_t *doc = NULL;
	char *text;

	memory_plan(&kp);
	doc = killplan_to_json(&kp);
	text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(
		text,
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"KillPlan\",\"metadata\":{\"node\":"
		"\"worker-1\",\"timestamp\":\"2024-11-29T16:00:01Z\"},\"gracePeriodMs\":250,"
		"\"trigger\":{\"resource\":\"memory\",\"usagePercent\":75.25,\"thresholdPercent\":70,"
		"\"lowerPercent\":68,\"needBytes\":19797970944,\"creditBytes\":0,\"usageBytes\":"
		"75200000000,\"capacityBytes\":100000000000,\"coolDownRemainingMs\":0},"
		"\"items\":[{\"id\":\"" CB "\",\"reason\":\"memory\",\"expectedRelease\":{"
		"\"memoryBytes\":4294967296,\"cpuMilli\":null,\"from\":\"usage\"},\"sortKeys\":{"
		"\"am\":false,\"memoryBytes\":4294967296,\"startedMs\":null}}],"
		"\"skipped\":[{\"id\":\"" CA "\",\"reason\":\"am\"}],\"pressureRemains\":false,"
		"\"notes\":[\"cpu: off\"]}");
	free(text);
	ck_assert_int_eq(killplan_from_json(doc, &back, &e), 0);
	ck_assert_int_eq(back.grace_period_ms, kp.grace_period_ms);
	ck_assert_uint_eq(back.nitems, kp.nitems);
	ck_assert_str_eq(back.items[0].id, kp.items[0].id);
	/* the explanation is not read */
	ck_assert_int_eq(back.trigger.resource, KILLPLAN_NONE);
	ck_assert_uint_eq(back.nskipped, 0);
	killplan_release(&back);
	killplan_release(&kp);
}
END_TEST

/* No pressure: "trigger":null, and a CPU item's sort keys. */
START_TEST(test_killplan_to_json_cpu_and_none)
{
	struct killplan kp = { 0 };
	json_auto_t *none = killplan_to_json(&kp), *cpu = NULL;
	json_t *t, *keys;

	ck_assert(json_is_null(json_object_get(none, "trigger")));
	ck_assert_int_eq(json_array_size(json_object_get(none, "items")), 0);
	kp.trigger = (struct killplan_trigger){ .resource = KILLPLAN_CPU,
						.usage_percent = 90,
						.satisfaction_percent = 50,
						.request_from_pods = 1,
						.samples = 3 };
	kp.items = calloc(1, sizeof(*kp.items));
	kp.items[0] = (struct killplan_item){ .id = strdup(CA),
					      .reason = KILLPLAN_CPU,
					      .release = 2000,
					      .from_request = 1,
					      .cpu_milli = KILLPLAN_UNKNOWN,
					      .request_cpu_milli = 2000,
					      .started_ms = 5 };
	kp.nitems = 1;
	cpu = killplan_to_json(&kp);
	t = json_object_get(cpu, "trigger");
	ck_assert_str_eq(json_string_value(json_object_get(t, "requestFrom")), "yarn+pods");
	ck_assert_int_eq(json_integer_value(json_object_get(t, "samples")), 3);
	keys = json_object_get(json_array_get(json_object_get(cpu, "items"), 0), "sortKeys");
	ck_assert(json_is_null(json_object_get(keys, "cpuMilli")));
	ck_assert_int_eq(json_integer_value(json_object_get(keys, "requestCpuMilli")), 2000);
	killplan_release(&kp);
}
END_TEST

static Suite *killplan_suite(void)
{
	Suite *s = suite_create("killplan");
	TCase *tc = tcase_create("document");

	tcase_add_loop_test(tc, test_killplan_from_json, 0, sizeof(plans) / sizeof(plans[0]));
	tcase_add_test(tc, test_killplan_from_json_many);
	tcase_add_test(tc, test_killplan_to_json_round_trip);
	tcase_add_test(tc, test_killplan_to_json_cpu_and_none);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(killplan_suite)
