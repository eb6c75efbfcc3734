// SPDX-License-Identifier: Apache-2.0
/* test_usagerates - NodeUsage rates, document and state from samples; the
 * --state file */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/statefile.h"
#include "decide/usagerates.h"
#include "run/nodeusage_sample.h"
#include "testlib.h"

#define U NODEUSAGE_UNKNOWN

static const struct {
	int64_t ns0, ns1, window, milli;
} rates[] = {
	{ 0, 1000000000, 1000, 1000 }, /* one CPU for a second */
	{ 5, 5, 1000, 0 },             /* idle is 0, not unknown */
	{ 0, 1500000, 1000, 2 },       /* 1.5 rounds to 2 */
	{ 0, 1499999, 1000, 1 },
	{ 0, 64000000000LL, 2000, 32000 },
	{ 10, 9, 1000, U }, /* counter went back (cgroup recreated) */
	{ U, 9, 1000, U },
	{ 0, 9, 0, U },
	{ 0, 9, -5, U },
};

START_TEST(test_nodeusage_rate)
{
	ck_assert_int_eq(usagerates_rate_milli(rates[_i].ns0, rates[_i].ns1, rates[_i].window),
			 rates[_i].milli);
}
END_TEST

static struct cgroup_layout layout;
static struct nodeusage_cgroup ucg; /* the document's view of layout */

/* The NodeUsage node-usage writes: the rates' value, written. */
static json_t *doc_of(const struct nodeusage_sample *prev, const struct nodeusage_sample *cur,
		      int64_t window_ms, const struct nodeusage_cgroup *cg, const char *node)
{
	struct nodeusage u;
	json_t *doc;

	usagerates_nodeusage(prev, cur, window_ms, cg, node, &u);
	doc = nodeusage_to_json(&u);
	nodeusage_release(&u);
	return doc;
}

static void sample_fill(struct nodeusage_sample *s, int64_t t, int64_t k)
{
	static const char *const paths[] = { "/kubepods", "/kubepods/burstable",
					     "/kubepods/besteffort",
					     "/kubepods/besteffort/hadoop-yarn" };

	nodeusage_sample_release(s);
	s->time_ms = t;
	s->version = 1;
	s->node_cpu_ns = 100000000000LL + k * 8;
	s->mem_total = 1000;
	s->mem_available = 300;
	s->cpus = 8;
	s->cpus_online = strdup("0-7");
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++) {
		s->path[i] = strdup(paths[i]);
		s->cpu_ns[i] = k * (4 - i); /* kubepods 4k, burstable 3k, besteffort 2k, yarn k */
	}
	s->memory_bytes[NODEUSAGE_KUBEPODS] = 600;
	s->memory_bytes[NODEUSAGE_BURSTABLE] = 250;
	s->memory_bytes[NODEUSAGE_BESTEFFORT] = 300;
	s->memory_bytes[NODEUSAGE_HADOOP_YARN] = 200;
	s->limits[0].cpuset = strdup("0-7");
	s->limits[0].quota_us = -1;
	s->limits[0].period_us = 100000;
}

static void layout_setup(void)
{
	struct err e = { 0 };

	ck_assert_int_eq(cgroup_layout_set_kube(&layout, CGROUP_DRIVER_CGROUPFS, NULL, &e), 0);
	layout.version = 1;
	ucg = nodeusage_sample_cgroup(&layout);
}

static void layout_teardown(void)
{
	cgroup_layout_release(&layout);
}

static char *dump(const json_t *j)
{
	return json_dumps(j, JSON_COMPACT);
}

START_TEST(test_usagerates_document)
{
	struct nodeusage_sample a = { 0 }, b = { 0 };
	json_t *doc;
	char *s;

	sample_fill(&a, 1000, 0);
	sample_fill(&b, 2000, 1000000000);
	doc = doc_of(&a, &b, 1000, &ucg, "n1");
	s = dump(json_object_get(doc, "qos"));
	/* guaranteed: 4000 - 3000 - 2000 floored at 0; memory 600 - 250 - 300 = 50 */
	ck_assert_str_eq(s, "{\"guaranteed\":{\"cpuMilli\":0,\"memoryBytes\":50},"
			    "\"burstable\":{\"cpuMilli\":3000,\"memoryBytes\":250},"
			    "\"besteffort\":{\"cpuMilli\":2000,\"memoryBytes\":300}}");
	free(s);
	s = dump(json_object_get(doc, "system"));
	ck_assert_str_eq(s, "{\"cpuMilli\":4000,\"memoryBytes\":100}"); /* node 8000 - 4000 */
	free(s);
	s = dump(json_object_get(doc, "limits"));
	ck_assert_str_eq(s, "{\"besteffort\":{\"cpuset\":\"0-7\",\"cfsQuotaUs\":-1,"
			    "\"cfsPeriodUs\":100000},\"hadoopYarn\":{\"cpuset\":null,"
			    "\"cfsQuotaUs\":null,\"cfsPeriodUs\":null}}");
	free(s);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "windowMs")), 1000);
	json_decref(doc);

	/* the hadoop-yarn path changed: its rate is unknown, its memory is not */
	free(a.path[NODEUSAGE_HADOOP_YARN]);
	a.path[NODEUSAGE_HADOOP_YARN] = strdup("/yarn");
	doc = doc_of(&a, &b, 1000, &ucg, NULL);
	s = dump(json_object_get(doc, "hadoopYarn"));
	ck_assert_str_eq(s, "{\"cpuMilli\":null,\"memoryBytes\":200}");
	free(s);
	ck_assert_ptr_null(json_object_get(json_object_get(doc, "metadata"), "node"));
	json_decref(doc);

	/* no previous sample: every rate null, windowMs null, memory known */
	doc = doc_of(NULL, &b, 0, &ucg, "n1");
	s = dump(json_object_get(doc, "node"));
	ck_assert_str_eq(s, "{\"cpuMilli\":null,\"memoryBytes\":700}");
	free(s);
	ck_assert(json_is_null(json_object_get(doc, "windowMs")));
	json_decref(doc);

	/* over a window of 100 ms (ticks rounding, reads a moment apart) the
	 * node read 20 cores of 8 and kubepods 40: given as the capacity */
	doc = doc_of(&a, &b, 100, &ucg, "n1");
	s = dump(json_object_get(doc, "node"));
	ck_assert_str_eq(s, "{\"cpuMilli\":8000,\"memoryBytes\":700}");
	free(s);
	s = dump(json_object_get(json_object_get(doc, "qos"), "besteffort"));
	ck_assert_str_eq(s, "{\"cpuMilli\":8000,\"memoryBytes\":300}");
	free(s);
	json_decref(doc);

	/* unknown kubepods memory: guaranteed and system memory unknown too */
	b.memory_bytes[NODEUSAGE_KUBEPODS] = U;
	doc = doc_of(&a, &b, 1000, &ucg, "n1");
	s = dump(json_object_get(doc, "system"));
	ck_assert_str_eq(s, "{\"cpuMilli\":4000,\"memoryBytes\":null}");
	free(s);
	json_decref(doc);
	nodeusage_sample_release(&a);
	nodeusage_sample_release(&b);
}
END_TEST

/* The state node-usage keeps for sample a, written. */
static json_t *state_json(const struct nodeusage_sample *a)
{
	struct nodeusage_state st = { 0 };
	json_t *doc;

	usagerates_state(a, &st);
	doc = nodeusage_state_to_json(&st);
	nodeusage_state_release(&st);
	return doc;
}

/* The previous sample node-usage reads back from doc. */
static int state_parse(const json_t *doc, struct nodeusage_sample *p, struct err *e)
{
	struct nodeusage_state st = { 0 };
	int r = nodeusage_state_from_json(doc, &st, e);

	if (r == 0)
		usagerates_prev(&st, p);
	nodeusage_state_release(&st);
	return r;
}

START_TEST(test_nodeusage_state_roundtrip)
{
	struct nodeusage_sample a = { 0 }, p = { 0 };
	struct err e = { 0 };
	json_t *st;

	sample_fill(&a, 5000, 7);
	a.cpu_ns[NODEUSAGE_BURSTABLE] = U;
	st = state_json(&a);
	ck_assert_int_eq(state_parse(st, &p, &e), 0);
	ck_assert_int_eq(p.time_ms, 5000);
	ck_assert_int_eq(p.version, 1);
	ck_assert_int_eq(p.node_cpu_ns, a.node_cpu_ns);
	ck_assert_int_eq(p.cpu_ns[NODEUSAGE_KUBEPODS], 28);
	ck_assert_int_eq(p.cpu_ns[NODEUSAGE_BURSTABLE], U);
	ck_assert_str_eq(p.path[NODEUSAGE_HADOOP_YARN], "/kubepods/besteffort/hadoop-yarn");
	json_object_set_new(json_object_get(json_object_get(st, "scopes"), "besteffort"),
			    "cpuNanos", json_string("12"));
	ck_assert_int_eq(state_parse(st, &p, &e), -1);
	ck_assert_str_eq(e.msg, "NodeUsageState.scopes.besteffort.cpuNanos: expected an integer "
				"0..9223372036854775807, got \"12\"");
	json_decref(st);
	nodeusage_sample_release(&a);
	nodeusage_sample_release(&p);
}
END_TEST

START_TEST(test_statefile)
{
	char *dir = testlib_tmpdir(), *path = NULL;
	json_t *doc = jsonio_new_doc("NodeUsageState"), *got = NULL;
	struct err e = { 0 };

	ck_assert(asprintf(&path, "%s/state.json", dir) > 0);
	ck_assert_int_eq(statefile_load(path, "NodeUsageState", &got, &e), 0);
	ck_assert_ptr_null(got);
	json_object_set_new(doc, "timestampMs", json_integer(42));
	ck_assert_int_eq(statefile_save(path, doc, &e), 0);
	ck_assert_int_eq(statefile_load(path, "NodeUsageState", &got, &e), 1);
	ck_assert(json_equal(doc, got));
	json_decref(got);
	ck_assert_int_eq(statefile_load(path, "Other", &got, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	testlib_write(dir, "state.json", "{\"kind\":");
	ck_assert_int_eq(statefile_load(path, "NodeUsageState", &got, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	free(path);
	ck_assert(asprintf(&path, "%s/no-such-dir/state.json", dir) > 0);
	ck_assert_int_eq(statefile_save(path, doc, &e), -1);
	ck_assert_int_eq(e.kind, ERR_SYSTEM);
	json_decref(doc);
	free(path);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

static Suite *nodeusage_suite(void)
{
	Suite *s = suite_create("usagerates");
	TCase *tc = tcase_create("nodeusage");

	tcase_add_checked_fixture(tc, layout_setup, layout_teardown);
	tcase_add_loop_test(tc, test_nodeusage_rate, 0, sizeof(rates) / sizeof(rates[0]));
	tcase_add_test(tc, test_usagerates_document);
	tcase_add_test(tc, test_nodeusage_state_roundtrip);
	tcase_add_test(tc, test_statefile);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(nodeusage_suite)
