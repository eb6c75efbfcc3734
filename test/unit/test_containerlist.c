// SPDX-License-Identifier: Apache-2.0
/* test_containerlist - the ContainerList module: round trip, the refusals
 * (each names its path), the derived facts */
#include <string.h>

#include "core/jsonio.h"
#include "doc/containerlist.h"
#include "testlib.h"

#define ID1 "container_e17_1410901177871_0001_01_000001"
#define ID2 "container_e17_1410901177871_0001_01_000002"

/* As yarn-copilot list writes it: a running container with a dir, one the
 * NodeManager lists without a dir, the NodeManager killing a third. */
static const char list_text[] =
	"{\"apiVersion\":\"kilo/v1\",\"kind\":\"ContainerList\","
	"\"metadata\":{\"node\":\"worker-1\",\"timestamp\":\"2026-11-29T16:00:00Z\"},"
	"\"nodeManager\":{\"url\":\"http://127.0.0.1:8042\",\"reachable\":true,\"error\":null},"
	"\"hadoopYarn\":{\"cgroupVersion\":1,\"driver\":\"cgroupfs\","
	"\"path\":\"/kubepods/besteffort/hadoop-yarn\",\"found\":true},"
	"\"items\":[{\"id\":\"" ID1 "\",\"applicationId\":\"application_1410901177871_0001\","
	"\"attempt\":1,\"number\":1,\"epoch\":17,\"am\":true,\"state\":\"RUNNING\","
	"\"phase\":\"running\",\"user\":\"alice\","
	"\"requests\":{\"cpuMilli\":2000,\"memoryBytes\":4294967296},"
	"\"cgroup\":\"/kubepods/besteffort/hadoop-yarn/" ID1 "\",\"processes\":3,"
	"\"pids\":[7,8,9],\"startTime\":\"2026-11-29T15:40:00Z\","
	"\"usage\":{\"cpuNanos\":123456789000,\"cpuMilli\":1800,\"memoryBytes\":1073741824,"
	"\"memoryCurrentBytes\":1610612736},\"starting\":false,\"stale\":false,"
	"\"terminating\":false},"
	"{\"id\":\"" ID2 "\",\"applicationId\":\"application_1410901177871_0001\","
	"\"attempt\":1,\"number\":2,\"epoch\":17,\"am\":false,\"state\":\"KILLING\","
	"\"phase\":\"killing\",\"user\":null,\"requests\":null,\"cgroup\":null,"
	"\"processes\":1,\"pids\":null,\"startTime\":null,"
	"\"usage\":{\"cpuNanos\":null,\"cpuMilli\":null,\"memoryBytes\":null,"
	"\"memoryCurrentBytes\":null},\"starting\":false,\"stale\":null,"
	"\"terminating\":true}]}";

static json_t *parse(const char *text)
{
	struct err e = { 0 };
	json_t *d = jsonio_parse(text, "test", &e);

	ck_assert_msg(d != NULL, "%s", e.msg);
	return d;
}

START_TEST(test_containerlist_round_trip)
{
	json_auto_t *doc = parse(list_text);
	json_auto_t *back = NULL;
	struct containerlist cl;
	struct err e = { 0 };
	char *text;

	ck_assert_msg(containerlist_from_json(doc, &cl, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(cl.n, 2);
	ck_assert_str_eq(cl.node, "worker-1");
	ck_assert_int_eq(cl.nm_reachable, 1);
	ck_assert_int_eq(cl.cgroup_version, 1);
	ck_assert_int_eq(cl.yarn_found, 1);
	ck_assert_int_eq(cl.items[0].request_memory_bytes, INT64_C(4294967296));
	ck_assert_int_eq(cl.items[0].start_ms, INT64_C(1795966800000));
	ck_assert_uint_eq(cl.items[0].npids, 3);
	ck_assert_int_eq(cl.items[0].pids[2], 9);
	ck_assert_int_eq(cl.items[1].pids_known, 0);
	ck_assert_int_eq(cl.items[1].stale, CONTAINERLIST_UNKNOWN);
	ck_assert_int_eq(cl.items[1].terminating, 1);
	back = containerlist_to_json(&cl);
	text = json_dumps(back, JSON_COMPACT);
	ck_assert_str_eq(text, list_text);
	free(text);
	containerlist_release(&cl);
}
END_TEST

/* The derived facts, from the NodeManager's state by the one table. */
START_TEST(test_containerlist_derived)
{
	static const struct {
		const char *state;
		enum nm_phase phase;
		int held, live;
	} cases[] = {
		{ "RUNNING", NM_PHASE_RUNNING, 1, 1 }, { "NEW", NM_PHASE_STARTING, 1, 1 },
		{ "PAUSED", NM_PHASE_RUNNING, 1, 1 },  { "KILLING", NM_PHASE_KILLING, 1, 0 },
		{ "DONE", NM_PHASE_FINISHED, 0, 0 },   { "NEW_IN_3_9", NM_PHASE_UNKNOWN, 1, 1 },
		{ NULL, NM_PHASE_UNKNOWN, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct containerlist_item it = { .state = (char *)cases[i].state };

		containerlist_item_derive(&it);
		ck_assert_int_eq(it.phase, cases[i].phase);
		ck_assert_int_eq(it.held, cases[i].held);
		ck_assert_int_eq(it.live, cases[i].live);
	}
}
END_TEST

/* The producer's flags (SCHEMAS.md). */
START_TEST(test_containerlist_flags)
{
	struct containerlist_item it = { .state = (char *)"KILLING", .listed = 1, .processes = 2 };

	containerlist_item_flags(&it, 1);
	ck_assert_int_eq(it.terminating, 1);
	ck_assert_int_eq(it.stale, 0);
	ck_assert_int_eq(it.starting, 0);
	it = (struct containerlist_item){ .state = (char *)"NEW", .listed = 1, .processes = 0 };
	containerlist_item_flags(&it, 1);
	ck_assert_int_eq(it.starting, 1);
	it = (struct containerlist_item){ .processes = 0 };
	containerlist_item_flags(&it, 1);
	ck_assert_int_eq(it.stale, 1);
	ck_assert_int_eq(it.starting, 0);
	containerlist_item_flags(&it, 0);
	ck_assert_int_eq(it.stale, CONTAINERLIST_UNKNOWN);
	ck_assert_int_eq(it.starting, 1);
}
END_TEST

#define ITEM(more) "{\"kind\":\"ContainerList\",\"items\":[{\"id\":\"" ID2 "\"" more "}]}"

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "{\"metadata\":[]}", "ContainerList.metadata: expected an object, got []" },
	{ "{\"nodeManager\":{\"reachable\":\"yes\"}}",
	  "ContainerList.nodeManager.reachable: expected true or false, got \"yes\"" },
	{ "{\"hadoopYarn\":{\"cgroupVersion\":3}}",
	  "ContainerList.hadoopYarn.cgroupVersion: expected an integer 1..2, got 3" },
	{ "{\"items\":{}}", "ContainerList.items: expected an array, got {}" },
	{ "{\"items\":[7]}", "ContainerList.items[0]: expected an object, got 7" },
	{ ITEM(",\"state\":5"), "ContainerList.items[0].state: expected a string, got 5" },
	{ ITEM(",\"phase\":\"gone\""),
	  "ContainerList.items[0].phase: expected one of unknown, starting, running, killing, "
	  "finished, got \"gone\"" },
	{ ITEM(",\"requests\":{\"cpuMilli\":-5}"),
	  "ContainerList.items[0].requests.cpuMilli: expected an integer 0..9007199254740992, got "
	  "-5" },
	{ ITEM(",\"usage\":{\"memoryCurrentBytes\":1.5}"),
	  "ContainerList.items[0].usage.memoryCurrentBytes: expected an integer "
	  "0..9007199254740992, got 1.5" },
	{ ITEM(",\"requests\":{\"cpuMilli\":1,\"memoryBytes\":9007199254740993}"),
	  "ContainerList.items[0].requests.memoryBytes: expected an integer 0..9007199254740992, "
	  "got 9007199254740993" },
	{ ITEM(",\"usage\":{\"cpuNanos\":\"1\"}"),
	  "ContainerList.items[0].usage.cpuNanos: expected an integer 0..9223372036854775807, got "
	  "\"1\"" },
	{ ITEM(",\"usage\":{\"cpuNanos\":-1}"),
	  "ContainerList.items[0].usage.cpuNanos: expected an integer 0..9223372036854775807, got "
	  "-1" },
	{ ITEM(",\"processes\":9007199254740993"),
	  "ContainerList.items[0].processes: expected an integer 0..9007199254740992, got "
	  "9007199254740993" },
	{ ITEM(",\"pids\":[1,0]"),
	  "ContainerList.items[0].pids[1]: expected a process id 1..2147483647, got 0" },
	{ ITEM(",\"startTime\":\"noon\""),
	  "ContainerList.items[0].startTime: expected an RFC 3339 time, got \"noon\"" },
	{ ITEM(",\"stale\":0"), "ContainerList.items[0].stale: expected true or false, got 0" },
};

START_TEST(test_containerlist_refusals)
{
	struct containerlist cl;

	TESTLIB_REFUSES(bad[_i].text, bad[_i].msg, containerlist_from_json(doc, &cl, &e));
	ck_assert_ptr_null(cl.items); /* released */
}
END_TEST

/* Absent is null: a list of ids alone reads, the NodeManager unreachable. */
START_TEST(test_containerlist_absent)
{
	json_auto_t *doc = parse(ITEM(""));
	struct containerlist cl;
	struct err e = { 0 };

	ck_assert_msg(containerlist_from_json(doc, &cl, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(cl.nm_reachable, 0);
	ck_assert_int_eq(cl.items[0].am, 0);
	ck_assert_int_eq(cl.items[0].processes, CONTAINERLIST_UNKNOWN);
	ck_assert_int_eq(cl.items[0].request_cpu_milli, CONTAINERLIST_UNKNOWN);
	ck_assert_int_eq(cl.items[0].listed, 0);
	ck_assert_int_eq(cl.items[0].live, 0);
	containerlist_release(&cl);
}
END_TEST

/* usage.cpuNanos is a cumulative counter (the cgroup's CPU time), not a
 * figure: 10^16 ns is 64 CPUs busy for under two days, and yarn-copilot list
 * writes it as the cgroup says it. */
START_TEST(test_containerlist_cpu_nanos)
{
	json_auto_t *doc = parse(ITEM(",\"usage\":{\"cpuNanos\":10000000000000000}"));
	json_auto_t *max = parse(ITEM(",\"usage\":{\"cpuNanos\":9223372036854775807}"));
	json_auto_t *rest =
		parse(ITEM(",\"usage\":{\"cpuNanos\":10000000000000000,\"cpuMilli\":1800,"
			   "\"memoryBytes\":4096,\"memoryCurrentBytes\":8192}"));
	json_auto_t *late = parse(ITEM(",\"usage\":{\"cpuNanos\":10000000000000000,"
				       "\"memoryBytes\":-3}"));
	struct containerlist cl;
	struct err e = { 0 };

	ck_assert_msg(containerlist_from_json(doc, &cl, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(cl.items[0].cpu_ns, INT64_C(10000000000000000));
	containerlist_release(&cl);
	ck_assert_msg(containerlist_from_json(max, &cl, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(cl.items[0].cpu_ns, INT64_MAX);
	containerlist_release(&cl);
	/* a counter past 2^53 does not stop the figures after it being read */
	ck_assert_msg(containerlist_from_json(rest, &cl, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(cl.items[0].cpu_ns, INT64_C(10000000000000000));
	ck_assert_int_eq(cl.items[0].cpu_milli, 1800);
	ck_assert_int_eq(cl.items[0].memory_bytes, 4096);
	ck_assert_int_eq(cl.items[0].memory_charge, 8192);
	containerlist_release(&cl);
	ck_assert_msg(containerlist_from_json(late, &cl, &e) < 0, "accepted");
	ck_assert_str_eq(e.msg, "ContainerList.items[0].usage.memoryBytes: expected an integer "
				"0..9007199254740992, got -3");
}
END_TEST

/* ContainerListState: round trip, a refusal names its path. */
START_TEST(test_containerlist_state)
{
	static const char text[] = "{\"apiVersion\":\"kilo/v1\",\"kind\":\"ContainerListState\","
				   "\"timestampMs\":1795968000000,\"cpuNanos\":{\"" ID1
				   "\":5,\"" ID2 "\":7}}";
	json_auto_t *doc = parse(text);
	json_auto_t *back = NULL, *bad = NULL;
	struct containerlist_state st = { 0 };
	struct err e = { 0 };
	char *out;

	ck_assert_msg(containerlist_state_from_json(doc, &st, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(st.n, 2);
	ck_assert_int_eq(containerlist_state_find(&st, ID2)->cpu_ns, 7);
	ck_assert_ptr_null(containerlist_state_find(&st, "container_1_0001_01_000009"));
	back = containerlist_state_to_json(&st);
	out = json_dumps(back, JSON_COMPACT);
	ck_assert_str_eq(out, text);
	free(out);
	bad = parse("{\"cpuNanos\":{\"" ID1 "\":-1}}");
	containerlist_state_release(&st);
	ck_assert_int_eq(containerlist_state_from_json(bad, &st, &e), -1);
	ck_assert_str_eq(e.msg, "ContainerListState.cpuNanos." ID1
				": expected an integer 0..9223372036854775807, got -1");
	ck_assert_uint_eq(st.n, 0);
	containerlist_state_release(&st);
}
END_TEST

static Suite *containerlist_suite(void)
{
	Suite *s = suite_create("containerlist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_containerlist_round_trip);
	tcase_add_test(tc, test_containerlist_derived);
	tcase_add_test(tc, test_containerlist_flags);
	tcase_add_loop_test(tc, test_containerlist_refusals, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_containerlist_absent);
	tcase_add_test(tc, test_containerlist_cpu_nanos);
	tcase_add_test(tc, test_containerlist_state);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(containerlist_suite)
