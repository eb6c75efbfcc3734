// SPDX-License-Identifier: Apache-2.0
/* test_nodeusage - the NodeUsage module: round trip, the refusals (each
 * names its path), the derived cpuset count */
#include <string.h>

#include "core/jsonio.h"
#include "doc/nodeusage.h"
#include "testlib.h"

/* As node-usage writes it (SCHEMAS.md). */
static const char usage_text[] =
	"{\"apiVersion\":\"kilo/v1\",\"kind\":\"NodeUsage\","
	"\"metadata\":{\"node\":\"worker-1\",\"timestamp\":\"2026-11-29T16:00:00Z\"},"
	"\"windowMs\":1000,\"cgroup\":{\"version\":1,\"driver\":\"cgroupfs\","
	"\"besteffort\":\"/kubepods/besteffort\",\"hadoopYarn\":\"/kubepods/besteffort/hadoop-yarn\"},"
	"\"capacity\":{\"cpuMilli\":64000,\"memoryBytes\":274877906944},"
	"\"node\":{\"cpuMilli\":21000,\"memoryBytes\":150000000000},"
	"\"system\":{\"cpuMilli\":null,\"memoryBytes\":9000000000},"
	"\"qos\":{\"guaranteed\":{\"cpuMilli\":9000,\"memoryBytes\":60000000000},"
	"\"burstable\":{\"cpuMilli\":6000,\"memoryBytes\":50000000000},"
	"\"besteffort\":{\"cpuMilli\":4000,\"memoryBytes\":31000000000}},"
	"\"hadoopYarn\":{\"cpuMilli\":3500,\"memoryBytes\":28000000000},"
	"\"cpus\":{\"online\":\"0-63\"},"
	"\"limits\":{\"besteffort\":{\"cpuset\":\"0-63\",\"cfsQuotaUs\":-1,\"cfsPeriodUs\":100000},"
	"\"hadoopYarn\":{\"cpuset\":\"0-31\",\"cfsQuotaUs\":400000,\"cfsPeriodUs\":100000}}}";

static json_t *parse(const char *text)
{
	struct err e = { 0 };
	json_t *d = jsonio_parse(text, "test", &e);

	ck_assert_msg(d != NULL, "%s", e.msg);
	return d;
}

START_TEST(test_nodeusage_round_trip)
{
	json_auto_t *doc = parse(usage_text);
	json_auto_t *back = NULL;
	struct nodeusage u;
	struct err e = { 0 };
	char *text;

	ck_assert_msg(nodeusage_from_json(doc, &u, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(u.node, "worker-1");
	ck_assert_int_eq(u.window_ms, 1000);
	ck_assert_int_eq(u.system.cpu_milli, NODEUSAGE_UNKNOWN);
	ck_assert_int_eq(u.qos[NODEUSAGE_QOS_BURSTABLE].cpu_milli, 6000);
	ck_assert_int_eq(u.limits[0].quota_us, -1);
	ck_assert_int_eq(u.limits[0].cpuset_cpus, 64);
	ck_assert_int_eq(u.limits[1].cpuset_cpus, 32);
	back = nodeusage_to_json(&u);
	text = json_dumps(back, JSON_COMPACT);
	ck_assert_str_eq(text, usage_text);
	free(text);
	nodeusage_release(&u);
}
END_TEST

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "{\"windowMs\":-1}",
	  "NodeUsage.windowMs: expected an integer 0..9007199254740992, got -1" },
	{ "{\"cgroup\":{\"version\":0}}",
	  "NodeUsage.cgroup.version: expected an integer 1..2, got 0" },
	{ "{\"capacity\":{\"cpuMilli\":\"8\"}}",
	  "NodeUsage.capacity.cpuMilli: expected an integer 0..9007199254740992, got \"8\"" },
	{ "{\"qos\":{\"guaranteed\":{\"memoryBytes\":9007199254740993}}}",
	  "NodeUsage.qos.guaranteed.memoryBytes: expected an integer 0..9007199254740992, got "
	  "9007199254740993" },
	{ "{\"cpus\":{\"online\":5}}", "NodeUsage.cpus.online: expected a string, got 5" },
	{ "{\"limits\":{\"besteffort\":{\"cpuset\":\" 1\"}}}",
	  "NodeUsage.limits.besteffort.cpuset: expected a cpuset list such as \"0-3,8\", got \" 1\"" },
	{ "{\"limits\":{\"hadoopYarn\":{\"cfsQuotaUs\":-2}}}",
	  "NodeUsage.limits.hadoopYarn.cfsQuotaUs: expected an integer -1..9007199254740992, got -2" },
};

START_TEST(test_nodeusage_refusals)
{
	struct nodeusage u;

	TESTLIB_REFUSES(bad[_i].text, bad[_i].msg, nodeusage_from_json(doc, &u, &e));
	ck_assert_ptr_null(u.node); /* released */
}
END_TEST

/* Absent is unknown, never 0. */
START_TEST(test_nodeusage_absent)
{
	json_auto_t *doc = parse("{\"kind\":\"NodeUsage\"}");
	struct nodeusage u;
	struct err e = { 0 };

	ck_assert_msg(nodeusage_from_json(doc, &u, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(u.window_ms, NODEUSAGE_UNKNOWN);
	ck_assert_int_eq(u.capacity.memory_bytes, NODEUSAGE_UNKNOWN);
	ck_assert_int_eq(u.limits[1].quota_us, NODEUSAGE_UNKNOWN);
	ck_assert_int_eq(u.limits[1].cpuset_cpus, NODEUSAGE_UNKNOWN);
	ck_assert_ptr_null(u.node);
	nodeusage_release(&u);
}
END_TEST

static Suite *nodeusage_suite(void)
{
	Suite *s = suite_create("nodeusage");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_nodeusage_round_trip);
	tcase_add_loop_test(tc, test_nodeusage_refusals, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_nodeusage_absent);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(nodeusage_suite)
