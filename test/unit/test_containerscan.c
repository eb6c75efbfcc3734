// SPDX-License-Identifier: Apache-2.0
/* test_containerscan - the ContainerList document from literal values:
 * the NM join, the starting/stale/terminating flags, units and rates */
#include <string.h>

#include "core/jsonio.h"
#include "run/containerscan.h"
#include "testlib.h"

#define ID "container_e17_1410901177871_0001_01_000002"

/* The document yarn-copilot list writes: the scan's list, written. */
static json_t *scan_doc(const struct containerscan *cs, const struct cgroup_layout *l,
			const struct containerscan_nm *nm, const json_t *prev, int64_t now_ms,
			const char *node)
{
	struct containerlist list;
	struct containerlist_state st = { 0 };
	struct err e = { 0 };
	json_t *doc;

	ck_assert_msg(!prev || containerlist_state_from_json(prev, &st, &e) == 0, "%s", e.msg);
	containerscan_list(cs, l, nm, prev ? &st : NULL, now_ms, node, &list);
	doc = containerlist_to_json(&list);
	containerlist_release(&list);
	containerlist_state_release(&st);
	return doc;
}

/* The state yarn-copilot list keeps, written. */
static json_t *state_doc(const struct containerscan *cs, int64_t now_ms)
{
	struct containerlist_state st;
	json_t *doc;

	containerscan_state(cs, now_ms, &st);
	doc = containerlist_state_to_json(&st);
	containerlist_state_release(&st);
	return doc;
}

/* One container with `processes` processes against an NM that is
 * unreachable (state NULL, reachable 0), does not list it (state ""), or
 * lists it in state. */
static const struct {
	const char *state;
	int reachable;
	int64_t processes;
	const char *want; /* state stale starting terminating */
} flags[] = {
	{ NULL, 0, 3, "null null false false" },
	{ NULL, 0, 0, "null null true false" },
	{ "", 1, 3, "null true false false" },
	{ "", 1, 0, "null true false false" },
	{ "RUNNING", 1, 3, "\"RUNNING\" false false false" },
	{ "RUNNING", 1, 0, "\"RUNNING\" false true false" },
	{ "LOCALIZING", 1, 0, "\"LOCALIZING\" false true false" },
	{ "KILLING", 1, 2, "\"KILLING\" false false true" },
	{ "KILLING", 1, 0, "\"KILLING\" false false false" },
	{ "CONTAINER_CLEANEDUP_AFTER_KILL", 1, 1,
	  "\"CONTAINER_CLEANEDUP_AFTER_KILL\" false false true" },
	{ "EXITED_WITH_SUCCESS", 1, 1, "\"EXITED_WITH_SUCCESS\" true false false" },
	{ "DONE", 1, 0, "\"DONE\" true false false" },
};

static char *dump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

START_TEST(test_containerscan_flags)
{
	static pid_t pids[] = { 100, 101, 102 };
	struct containerscan_item it = { .id = ID,
					 .pids = pids,
					 .npids = 3,
					 .cg = (char *)"/hy/" ID,
					 .start_ms = -1,
					 .cpu_ns = -1,
					 .memory_bytes = -1,
					 .memory_current = -1 };
	struct containerscan cl = { .items = &it, .n = 1 };
	struct nm_container c = { .id = (char *)ID,
				  .state = (char *)flags[_i].state,
				  .user = (char *)"alice",
				  .memory_mb = 4096,
				  .vcores = 2 };
	struct nm_containers nmc = { .items = &c, .n = flags[_i].state && *flags[_i].state };
	struct containerscan_nm nm = { "http://nm:8042", flags[_i].reachable, NULL, &nmc };
	struct cgroup_layout l = { .version = 1,
				   .driver = CGROUP_DRIVER_CGROUPFS,
				   .hadoop_yarn = (char *)"/hy" };
	json_auto_t *doc = NULL;
	json_t *item;
	char got[160], *s[4];
	const char *keys[] = { "state", "stale", "starting", "terminating" };

	it.processes = flags[_i].processes;
	doc = scan_doc(&cl, &l, &nm, NULL, 0, NULL);
	item = json_array_get(json_object_get(doc, "items"), 0);
	for (int k = 0; k < 4; k++)
		s[k] = dump(json_object_get(item, keys[k]));
	snprintf(got, sizeof(got), "%s %s %s %s", s[0], s[1], s[2], s[3]);
	for (int k = 0; k < 4; k++)
		free(s[k]);
	ck_assert_str_eq(got, flags[_i].want);
}
END_TEST

/* Containers the NodeManager knows that have no dir yet (NEW, LOCALIZING,
 * SCHEDULED, RUNNING just after launch) are listed among the dirs in id
 * order, with cgroup null and no process: their requests count.  Finished
 * ones without a dir are not; a dir the NM does not know stays, stale. */
START_TEST(test_containerscan_nm_only_items)
{
	struct containerscan_item its[2] = {
		{ .id = "container_1_0001_01_000002",
		  .cg = (char *)"/hy/container_1_0001_01_000002",
		  .processes = 0,
		  .start_ms = -1,
		  .cpu_ns = -1,
		  .memory_bytes = -1,
		  .memory_current = -1 },
		{ .id = "container_1_0001_01_000005",
		  .cg = (char *)"/hy/container_1_0001_01_000005",
		  .processes = 0,
		  .start_ms = -1,
		  .cpu_ns = -1,
		  .memory_bytes = -1,
		  .memory_current = -1 },
	};
	struct containerscan cl = { .items = its, .n = 2 };
	struct nm_container c[] = {
		{ .id = (char *)"container_1_0001_01_000001",
		  .state = (char *)"RUNNING",
		  .memory_mb = 1024,
		  .vcores = 1 },
		{ .id = (char *)"container_1_0001_01_000002",
		  .state = (char *)"RUNNING",
		  .memory_mb = 1024,
		  .vcores = 1 },
		{ .id = (char *)"container_1_0001_01_000003",
		  .state = (char *)"DONE",
		  .memory_mb = 1024,
		  .vcores = 1 },
		{ .id = (char *)"container_1_0001_01_000004",
		  .state = (char *)"LOCALIZING",
		  .memory_mb = 2048,
		  .vcores = 2 },
		{ .id = (char *)"container_1_0001_01_000006",
		  .state = (char *)"KILLING",
		  .memory_mb = 1024,
		  .vcores = 1 },
	};
	struct nm_containers nmc = { .items = c, .n = 5 };
	struct containerscan_nm nm = { "http://nm:8042", 1, NULL, &nmc };
	struct cgroup_layout l = { .version = 1,
				   .driver = CGROUP_DRIVER_CGROUPFS,
				   .hadoop_yarn = (char *)"/hy" };
	json_auto_t *doc = scan_doc(&cl, &l, &nm, NULL, 0, NULL);
	json_t *item;
	size_t i;
	char got[512] = "";

	json_array_foreach(json_object_get(doc, "items"), i, item)
	{
		char *cg = dump(json_object_get(item, "cgroup")),
		     *pids = dump(json_object_get(item, "pids"));

		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s %s %s %s %d %s %s;",
			 json_string_value(json_object_get(item, "id")) + 20,
			 json_is_string(json_object_get(item, "phase"))
				 ? json_string_value(json_object_get(item, "phase"))
				 : "null",
			 cg[0] == 'n' ? "-" : "dir", pids,
			 (int)json_integer_value(json_object_get(item, "processes")),
			 json_is_true(json_object_get(item, "starting")) ? "starting" : "-",
			 json_is_true(json_object_get(item, "stale")) ? "stale" : "-");
		free(cg);
		free(pids);
	}
	ck_assert_str_eq(got, "000001 running - [] 0 starting -;"
			      "000002 running dir [] 0 starting -;"
			      "000004 starting - [] 0 starting -;"
			      "000005 null dir [] 0 - stale;"
			      "000006 killing - [] 0 - -;");
}
END_TEST

START_TEST(test_containerscan_fields)
{
	static pid_t pids[] = { 100, 101, 102 };
	struct containerscan_item it = { .id = ID,
					 .cg = (char *)"/kubepods/besteffort/hadoop-yarn/" ID,
					 .processes = 3,
					 .pids = pids,
					 .npids = 3,
					 .start_ms = 1795966800000LL,
					 .cpu_ns = 123456789000LL,
					 .memory_bytes = 1073741824,
					 .memory_current = 1610612736 };
	struct containerscan cl = { .items = &it, .n = 1, .yarn_found = 1 };
	struct nm_container c = { .id = (char *)ID,
				  .state = (char *)"RUNNING",
				  .user = (char *)"alice",
				  .memory_mb = 4096,
				  .vcores = 2 };
	struct nm_containers nmc = { .items = &c, .n = 1 };
	struct containerscan_nm nm = { "http://127.0.0.1:8042", 1, NULL, &nmc };
	struct cgroup_layout l = { .version = 1,
				   .driver = CGROUP_DRIVER_CGROUPFS,
				   .hadoop_yarn = (char *)"/kubepods/besteffort/hadoop-yarn" };
	struct err e = { 0 };
	/* the previous sample 2 s earlier, 3.6 CPU-seconds less: 1800 milli-cores */
	json_auto_t *prev = jsonio_parse(
		"{\"timestampMs\":1795968000000,\"cpuNanos\":{\"" ID "\":119856789000}}", "t", &e);
	json_auto_t *doc = scan_doc(&cl, &l, &nm, prev, 1795968002000LL, "worker-1");
	json_auto_t *state = state_doc(&cl, 1795968002000LL);
	char *text = json_dumps(doc, JSON_COMPACT);

	ck_assert_str_eq(
		text,
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"ContainerList\",\"metadata\":{\"node\":\"worker-1\","
		"\"timestamp\":\"2026-11-29T16:00:02Z\"},\"nodeManager\":{\"url\":\"http://127.0.0.1:8042\","
		"\"reachable\":true,\"error\":null},\"hadoopYarn\":{\"cgroupVersion\":1,\"driver\":\"cgroupfs\","
		"\"path\":\"/kubepods/besteffort/hadoop-yarn\",\"found\":true},\"items\":[{\"id\":\"" ID
		"\","
		"\"applicationId\":\"application_1410901177871_0001\",\"attempt\":1,\"number\":2,\"epoch\":17,"
		"\"am\":false,\"state\":\"RUNNING\",\"phase\":\"running\",\"user\":\"alice\",\"requests\":{\"cpuMilli\":2000,"
		"\"memoryBytes\":4294967296},\"cgroup\":\"/kubepods/besteffort/hadoop-yarn/" ID
		"\","
		"\"processes\":3,\"pids\":[100,101,102],\"startTime\":\"2026-11-29T15:40:00Z\","
		"\"usage\":{\"cpuNanos\":123456789000,"
		"\"cpuMilli\":1800,\"memoryBytes\":1073741824,\"memoryCurrentBytes\":1610612736},"
		"\"starting\":false,\"stale\":false,\"terminating\":false}]}");
	free(text);
	text = json_dumps(state, JSON_COMPACT);
	ck_assert_str_eq(text,
			 "{\"apiVersion\":\"kilo/v1\",\"kind\":\"ContainerListState\","
			 "\"timestampMs\":1795968002000,\"cpuNanos\":{\"" ID "\":123456789000}}");
	free(text);
}
END_TEST

static const struct {
	unsigned ctrls;
	enum cgroup_ctrl want;
} ctrls[] = {
	{ 1u << CGROUP_CPU | 1u << CGROUP_MEMORY, CGROUP_CPU },
	{ 1u << CGROUP_CPUACCT | 1u << CGROUP_MEMORY, CGROUP_CPUACCT },
	{ 1u << CGROUP_MEMORY | 1u << CGROUP_PIDS, CGROUP_MEMORY },
	{ 1u << CGROUP_CPUSET, CGROUP_CPUSET },
	{ 0, CGROUP_CPU },
};

START_TEST(test_containerscan_procs_ctrl)
{
	ck_assert_int_eq(cgroup_procs_ctrl(ctrls[_i].ctrls), ctrls[_i].want);
}
END_TEST

static Suite *containerscan_suite(void)
{
	Suite *s = suite_create("containerscan");
	TCase *tc = tcase_create("doc");

	tcase_add_loop_test(tc, test_containerscan_flags, 0, sizeof(flags) / sizeof(flags[0]));
	tcase_add_test(tc, test_containerscan_fields);
	tcase_add_test(tc, test_containerscan_nm_only_items);
	tcase_add_loop_test(tc, test_containerscan_procs_ctrl, 0, sizeof(ctrls) / sizeof(ctrls[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(containerscan_suite)
