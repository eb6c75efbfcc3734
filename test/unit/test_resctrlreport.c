// SPDX-License-Identifier: Apache-2.0
/* test_resctrlreport - the ResctrlReport document: the bytes resctrl-assign
 * writes, the round trip, and every refusal naming its path */
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "doc/resctrlreport.h"
#include "testlib.h"

static char *dump(const json_t *doc)
{
	return json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

START_TEST(test_resctrlreport_round_trip)
{
	struct resctrlreport r = { .supported = 1, .has_tasks = 1 }, back;
	struct err e = { 0 };
	json_auto_t *doc = NULL, *again = NULL;
	char *text, *text2;

	resctrlreport_add_group(&r, "BE", 0, "L3:0=7ff\nMB:0=100", "L3:0=f\nMB:0=100",
				RESCTRLREPORT_WRITTEN, NULL);
	resctrlreport_add_group(&r, "LS", 1, NULL, "L3:0=7ff", RESCTRLREPORT_FAILED,
				"write 'schemata': Invalid argument");
	r.tasks.mode = RESCTRLREPORT_TASKS;
	r.tasks.group = strdup("BE");
	r.tasks.moved = 4;
	r.tasks.gone = 1;
	r.tasks.already = 1;
	resctrlreport_add_task_error(&r, "thread 7: Permission denied");
	r.tasks.foreign = calloc(1, sizeof(int64_t));
	r.tasks.foreign[0] = 4242;
	r.tasks.nforeign = 1;
	doc = resctrlreport_to_json(&r);
	text = dump(doc);
	ck_assert_str_eq(
		text,
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"ResctrlReport\",\"dryRun\":false,"
		"\"supported\":true,\"groups\":[{\"name\":\"BE\",\"created\":false,\"schemata\":{"
		"\"old\":\"L3:0=7ff\\nMB:0=100\",\"new\":\"L3:0=f\\nMB:0=100\",\"result\":\"written\","
		"\"error\":null}},{\"name\":\"LS\",\"created\":true,\"schemata\":{\"old\":null,"
		"\"new\":\"L3:0=7ff\",\"result\":\"failed\",\"error\":\"write 'schemata': Invalid "
		"argument\"}}],\"tasks\":{\"mode\":\"tasks\",\"group\":\"BE\",\"moved\":4,\"gone\":1,"
		"\"already\":1,\"failed\":0,\"errors\":[\"thread 7: Permission denied\"],"
		"\"foreign\":[4242]}}");
	ck_assert_msg(resctrlreport_from_json(doc, &back, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(back.ngroups, 2);
	ck_assert_int_eq(back.groups[1].result, RESCTRLREPORT_FAILED);
	ck_assert_int_eq(back.tasks.moved, 4);
	again = resctrlreport_to_json(&back);
	text2 = dump(again);
	ck_assert_str_eq(text2, text);
	free(text);
	free(text2);
	resctrlreport_release(&back);
	resctrlreport_release(&r);
}
END_TEST

/* Without resctrl: the reason, no groups, "tasks":null. */
START_TEST(test_resctrlreport_unsupported)
{
	struct resctrlreport r = { .dry_run = 1, .reason = strdup("resctrl is not mounted") };
	json_auto_t *doc = resctrlreport_to_json(&r);
	char *text = dump(doc);

	ck_assert_str_eq(text, "{\"apiVersion\":\"kilo/v1\",\"kind\":\"ResctrlReport\",\"dryRun\":"
			       "true,\"supported\":false,\"reason\":\"resctrl is not mounted\","
			       "\"groups\":[],\"tasks\":null}");
	free(text);
	resctrlreport_release(&r);
}
END_TEST

#define GROUP(sch) "{\"groups\":[{\"name\":\"BE\",\"schemata\":{" sch "}}]}"

static const struct {
	const char *json, *msg;
} bad[] = {
	{ "{\"dryRun\":1}", "ResctrlReport.dryRun: expected true or false, got 1" },
	{ "{\"groups\":[{\"name\":\"\"}]}",
	  "ResctrlReport.groups[0].name: expected a group name, got \"\"" },
	{ GROUP("\"result\":\"done\""),
	  "ResctrlReport.groups[0].schemata.result: expected one of written, unchanged, "
	  "planned, failed, got \"done\"" },
	{ GROUP("\"result\":\"failed\""),
	  "ResctrlReport.groups[0].schemata.error: expected a string (the group failed), got "
	  "nothing" },
	{ "{\"tasks\":[]}", "ResctrlReport.tasks: expected an object or null, got []" },
	{ "{\"tasks\":{\"mode\":\"all\"}}",
	  "ResctrlReport.tasks.mode: expected one of tasks, nm-pid, got \"all\"" },
	{ "{\"tasks\":{\"mode\":\"tasks\",\"group\":\"BE\",\"moved\":-1}}",
	  "ResctrlReport.tasks.moved: expected an integer 0..9223372036854775807, got -1" },
	{ "{\"tasks\":{\"mode\":\"tasks\",\"group\":\"BE\",\"errors\":[5]}}",
	  "ResctrlReport.tasks.errors[0]: expected a string, got 5" },
};

START_TEST(test_resctrlreport_refusals)
{
	struct resctrlreport r;

	TESTLIB_REFUSES(bad[_i].json, bad[_i].msg, resctrlreport_from_json(doc, &r, &e));
	ck_assert_ptr_null(r.groups);
}
END_TEST

static Suite *resctrlreport_suite(void)
{
	Suite *s = suite_create("resctrlreport");
	TCase *tc = tcase_create("document");

	tcase_add_test(tc, test_resctrlreport_round_trip);
	tcase_add_test(tc, test_resctrlreport_unsupported);
	tcase_add_loop_test(tc, test_resctrlreport_refusals, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(resctrlreport_suite)
