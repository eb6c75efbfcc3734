// SPDX-License-Identifier: Apache-2.0
/* test_syncreport - the SyncReport document: the bytes its setters write,
 * the round trip, the lenient view, and every refusal naming its path */
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/syncreport.h"
#include "testlib.h"

#define HY                                                                                         \
	"\"hadoopYarn\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":\"1Gi\"}"

static const char *const plan_text =
	"{\"apiVersion\":\"kilo/v1\",\"kind\":\"SyncPlan\",\"clusters\":[{\"cluster\":\"a\","
	"\"rmNodes\":2,\"unclaimed\":0}],\"items\":["
	"{\"node\":\"n1\",\"cluster\":\"a\",\"yarnNodeId\":\"n1:8041\",\"yarnTotal\":{\"vCores\":"
	"4,\"memoryMB\":4096},\"overCommitTimeoutMs\":-1,\"action\":\"update\",\"reason\":\"r1\","
	"\"reasonCode\":\"total-differs\"},"
	"{\"node\":\"n2\",\"cluster\":\"a\",\"yarnNodeId\":\"n2:8041\",\"action\":\"none\","
	"\"reason\":\"r2\",\"reasonCode\":\"total-matches\",\"annotation\":{\"action\":\"annotate\"," HY
	"}},"
	"{\"node\":\"n3\",\"cluster\":null,\"yarnNodeId\":null,\"action\":\"skip\",\"reason\":\"r3\","
	"\"reasonCode\":\"no-nodemanager\",\"result\":\"old\",\"annotation\":{\"action\":\"skip\","
	"\"reason\":\"bad\",\"reasonCode\":\"invalid-allocation\",\"error\":\"old\"}}]}";

static struct sync_config sc;
static char *dir;

static void setup(void)
{
	struct err e = { 0 };
	char *path;

	dir = testlib_tmpdir();
	path = xasprintf("%s/sync.yaml", dir);
	testlib_write(dir, "sync.yaml", "clusters: [{id: a, rmUrls: ['http://rm:8088']}]\n");
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	free(path);
}

static void teardown(void)
{
	sync_config_release(&sc);
}

/* The report apply would write for plan_text, through the setters. */
static void make_report(struct syncplan *p, struct syncreport *r)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(plan_text, "plan", &e);
	struct syncreport_item *it;

	ck_assert_ptr_nonnull(doc);
	ck_assert_msg(syncplan_from_json(doc, &sc, NULL, 0, p, &e) == 0, "%s", e.msg);
	syncreport_init(r, p, 0);
	it = syncreport_add(r, &p->items[0]);
	syncreport_set_result(it, SYNCREPORT_ITEM, SYNCREPORT_UPDATED);
	syncreport_set_member(it, SYNCREPORT_ITEM, "via", json_string("rest"));
	it = syncreport_add(r, &p->items[1]);
	syncreport_set_result(it, SYNCREPORT_ITEM, SYNCREPORT_UNCHANGED);
	syncreport_set_failed(it, SYNCREPORT_ANNOTATION, "409 again", SYNC_R_ANNOTATION_CONFLICT);
	it = syncreport_add(r, &p->items[2]);
	syncreport_set_result(it, SYNCREPORT_ITEM, SYNCREPORT_SKIPPED);
	syncreport_set_result(it, SYNCREPORT_ANNOTATION, SYNCREPORT_UNCHANGED);
	syncreport_set_result(it, SYNCREPORT_LIFECYCLE, SYNCREPORT_RECORDED); /* none: nothing */
	syncreport_finish(r);
}

START_TEST(test_syncreport_round_trip)
{
	struct syncplan p;
	struct syncreport r, back;
	struct err e = { 0 };
	json_auto_t *doc = NULL, *again = NULL;
	char *text, *text2;

	make_report(&p, &r);
	syncplan_release(&p); /* the report shares nothing with the plan */
	doc = syncreport_to_json(&r);
	text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(
		text,
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"SyncReport\",\"dryRun\":false,\"clusters\":"
		"[{\"cluster\":\"a\",\"rmNodes\":2,\"unclaimed\":0}],\"items\":["
		"{\"node\":\"n1\",\"cluster\":\"a\",\"yarnNodeId\":\"n1:8041\",\"yarnTotal\":{"
		"\"vCores\":4,\"memoryMB\":4096},\"overCommitTimeoutMs\":-1,\"action\":\"update\","
		"\"reason\":\"r1\",\"reasonCode\":\"total-differs\",\"result\":\"updated\",\"via\":"
		"\"rest\",\"error\":null},"
		"{\"node\":\"n2\",\"cluster\":\"a\",\"yarnNodeId\":\"n2:8041\",\"action\":\"none\","
		"\"reason\":\"r2\",\"reasonCode\":\"total-matches\",\"annotation\":{\"action\":"
		"\"annotate\"," HY ",\"result\":\"failed\",\"error\":\"409 again\",\"errorCode\":"
		"\"annotation-conflict\"},\"result\":\"unchanged\",\"error\":null},"
		"{\"node\":\"n3\",\"cluster\":null,\"yarnNodeId\":null,\"action\":\"skip\","
		"\"reason\":\"r3\",\"reasonCode\":\"no-nodemanager\",\"annotation\":{\"action\":"
		"\"skip\",\"reason\":\"bad\",\"reasonCode\":\"invalid-allocation\",\"result\":"
		"\"unchanged\",\"error\":null},\"result\":\"skipped\",\"error\":null}]}");
	ck_assert_msg(syncreport_from_json(doc, &sc, &back, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(back.n, 3);
	ck_assert_int_eq(back.dry_run, 0);
	ck_assert_int_eq(back.items[0].part[SYNCREPORT_ITEM].result, SYNCREPORT_UPDATED);
	ck_assert_int_eq(back.items[0].plan.yarn_total.vcores, 4);
	ck_assert_ptr_null(back.items[0].part[SYNCREPORT_ITEM].error);
	ck_assert_int_eq(back.items[1].part[SYNCREPORT_ANNOTATION].result, SYNCREPORT_FAILED);
	ck_assert_int_eq(back.items[1].part[SYNCREPORT_ANNOTATION].error_code,
			 SYNC_R_ANNOTATION_CONFLICT);
	ck_assert_str_eq(back.items[1].part[SYNCREPORT_ANNOTATION].error, "409 again");
	ck_assert_int_eq(back.items[1].plan.ann_cpu_milli, 1000);
	ck_assert_int_eq(back.items[2].plan.ann_reason_code, SYNC_R_INVALID_ALLOCATION);
	ck_assert_str_eq(back.items[2].plan.ann_reason, "bad");
	ck_assert_int_eq(back.items[2].part[SYNCREPORT_LIFECYCLE].result, SYNCREPORT_NOT_RUN);
	again = syncreport_to_json(&back);
	text2 = json_dumps(again, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(text2, text);
	free(text);
	free(text2);
	syncreport_release(&back);
	syncreport_release(&r);
}
END_TEST

/* A plan seen as a report: its documents shared, nothing run; bind after
 * a rewrite in place. */
START_TEST(test_syncreport_of_plan_and_bind)
{
	struct syncplan p;
	struct syncreport v, r;
	json_auto_t *doc = NULL;

	make_report(&p, &r);
	syncreport_of_plan(&v, &p);
	ck_assert_uint_eq(v.n, 3);
	ck_assert_ptr_eq(v.items[1].plan.doc, p.items[1].doc);
	ck_assert_int_eq(v.items[1].part[SYNCREPORT_ANNOTATION].result, SYNCREPORT_NOT_RUN);
	ck_assert_str_eq(v.items[2].plan.reason, "r3");
	doc = syncreport_to_json(&r);
	json_string_set(
		json_object_get(json_object_get(json_array_get(json_object_get(doc, "items"), 1),
						"annotation"),
				"error"),
		"[redacted]");
	syncreport_bind(&r);
	ck_assert_str_eq(r.items[1].part[SYNCREPORT_ANNOTATION].error, "[redacted]");
	syncreport_release(&v);
	syncreport_release(&r);
	syncplan_release(&p);
}
END_TEST

/* An item refused as a plan item (invalid-plan-item) is read as it is. */
START_TEST(test_syncreport_invalid_item_read_as_is)
{
	static const char *const text =
		"{\"kind\":\"SyncReport\",\"dryRun\":true,\"items\":[{\"node\":\"n\",\"action\":"
		"\"update\",\"annotation\":{\"action\":\"annotate\",\"error\":null},"
		"\"result\":\"failed\",\"error\":\"SyncPlan.items[0].cluster: expected a cluster "
		"id, got nothing\",\"errorCode\":\"invalid-plan-item\"}]}";
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(text, "t", &e);
	struct syncreport r;

	ck_assert_ptr_nonnull(doc);
	ck_assert_msg(syncreport_from_json(doc, &sc, &r, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(r.dry_run, 1);
	ck_assert_int_eq(r.items[0].plan.action, SYNCPLAN_UPDATE);
	ck_assert_int_eq(r.items[0].plan.ann, SYNCPLAN_ANN_ANNOTATE);
	ck_assert_int_eq(r.items[0].plan.ann_cpu_milli, -1);
	ck_assert_int_eq(r.items[0].part[SYNCREPORT_ITEM].error_code, SYNC_R_INVALID_PLAN_ITEM);
	ck_assert_int_eq(r.items[0].part[SYNCREPORT_ANNOTATION].result, SYNCREPORT_NOT_RUN);
	syncreport_release(&r);
}
END_TEST

/* The members the pass's summary and metrics show, typed once. */
START_TEST(test_syncreport_typed_members)
{
	static const char *const text =
		"{\"kind\":\"SyncReport\",\"dryRun\":false,\"clusters\":[{\"cluster\":\"a\","
		"\"rmNodes\":3,\"unclaimed\":3,\"firstUnclaimed\":\"x:1\"},{\"cluster\":\"b\"}],"
		"\"items\":[{\"node\":\"n\",\"action\":\"skip\",\"reasonCode\":\"unknown-node-id\","
		"\"rmState\":\"RUNNING\",\"ignoredPod\":\"ns/p\",\"candidates\":[\"n:1\",\"n:2\"],"
		"\"lifecycle\":{\"state\":\"draining\",\"previous\":\"active\",\"reason\":\"low\","
		"\"excluded\":{\"cluster\":\"a\",\"host\":\"n\"},\"result\":\"failed\","
		"\"recorded\":true,\"error\":\"e\",\"errorCode\":\"decommission-failed\"},"
		"\"result\":\"skipped\",\"error\":null}]}";
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(text, "t", &e);
	struct syncreport r;
	const struct syncplan_item *p;

	ck_assert_ptr_nonnull(doc);
	ck_assert_msg(syncreport_from_json(doc, &sc, &r, &e) == 0, "%s", e.msg);
	p = &r.items[0].plan;
	ck_assert_str_eq(p->rm_state, "RUNNING");
	ck_assert_str_eq(p->ignored_pod, "ns/p");
	ck_assert_uint_eq(json_array_size(p->candidates), 2);
	ck_assert_str_eq(p->lc_state, "draining");
	ck_assert_str_eq(p->lc_previous, "active");
	ck_assert_str_eq(p->lc_reason, "low");
	ck_assert_int_eq(p->lc_excluded, 1);
	ck_assert_int_eq(r.items[0].recorded, 1);
	ck_assert_int_eq(r.items[0].part[SYNCREPORT_LIFECYCLE].error_code,
			 SYNC_R_DECOMMISSION_FAILED);
	ck_assert_uint_eq(r.ncl, 2);
	ck_assert_str_eq(r.cl[0].first_unclaimed, "x:1");
	ck_assert_int_eq(r.cl[0].rm_nodes, 3);
	ck_assert_int_eq(r.cl[0].unclaimed, 3);
	ck_assert_int_eq(r.cl[1].unclaimed, -1);
	syncreport_release(&r);
}
END_TEST

#define DOC(items) "{\"kind\":\"SyncReport\",\"dryRun\":false,\"items\":[" items "]}"
#define ITEM(rest) DOC("{\"node\":\"n\",\"action\":\"none\"," rest "}")

static const struct {
	const char *json, *msg;
} bad[] = {
	{ "{\"kind\":\"SyncPlan\",\"items\":[]}", "expected a SyncReport, got kind 'SyncPlan'" },
	{ "{\"kind\":\"SyncReport\",\"items\":[]}",
	  "SyncReport.dryRun: expected a boolean, got nothing" },
	{ "{\"kind\":\"SyncReport\",\"dryRun\":false}",
	  "SyncReport.items: expected an array, got nothing" },
	{ DOC("3"), "SyncReport.items[]: expected an object, got 3" },
	{ DOC("{\"node\":\"n\",\"action\":\"resize\",\"result\":\"updated\",\"error\":null}"),
	  "SyncReport.items[0].action: expected update, none or skip, got \"resize\"" },
	{ ITEM("\"error\":null"),
	  "SyncReport.items[0].result: expected one of updated, annotated, recorded, unchanged, "
	  "skipped, planned, failed, got nothing" },
	{ ITEM("\"result\":\"done\",\"error\":null"),
	  "SyncReport.items[0].result: expected one of updated, annotated, recorded, unchanged, "
	  "skipped, planned, failed, got \"done\"" },
	{ ITEM("\"result\":\"failed\",\"error\":null,\"errorCode\":\"rm-refused\""),
	  "SyncReport.items[0].error: expected a string (the part failed), got null" },
	{ ITEM("\"result\":\"unchanged\",\"error\":\"x\""),
	  "SyncReport.items[0].error: expected null (the part did not fail), got \"x\"" },
	{ ITEM("\"result\":\"failed\",\"error\":\"x\",\"errorCode\":\"oops\""),
	  "SyncReport.items[0].errorCode: expected a reason code of doc/SCHEMAS.md, got \"oops\"" },
	{ ITEM("\"result\":\"unchanged\",\"error\":null,\"annotation\":{\"action\":\"none\"}"),
	  "SyncReport.items[0].annotation.result: expected one of updated, annotated, recorded, unchanged, "
	  "skipped, planned, failed, got nothing" },
	{ ITEM("\"result\":\"unchanged\",\"error\":null,\"lifecycle\":{\"result\":\"failed\"}"),
	  "SyncReport.items[0].lifecycle.error: expected a string (the part failed), got "
	  "nothing" },
};

START_TEST(test_syncreport_refusals)
{
	struct syncreport r;

	TESTLIB_REFUSES(bad[_i].json, bad[_i].msg, syncreport_from_json(doc, &sc, &r, &e));
	ck_assert_ptr_null(r.items);
}
END_TEST

static Suite *syncreport_suite(void)
{
	Suite *s = suite_create("syncreport");
	TCase *tc = tcase_create("document");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_syncreport_round_trip);
	tcase_add_test(tc, test_syncreport_of_plan_and_bind);
	tcase_add_test(tc, test_syncreport_invalid_item_read_as_is);
	tcase_add_test(tc, test_syncreport_typed_members);
	tcase_add_loop_test(tc, test_syncreport_refusals, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(syncreport_suite)
