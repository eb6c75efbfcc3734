// SPDX-License-Identifier: Apache-2.0
/* test_killreport - the KillReport document: the bytes yarn-copilot kill
 * writes, the round trip, and every refusal naming its path */
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "doc/killreport.h"
#include "testlib.h"

#define CA "container_e17_1410901177871_0001_01_000002"
#define CB "container_e17_1410901177871_0001_01_000003"

static void two_items(struct killreport *r)
{
	memset(r, 0, sizeof(*r));
	r->node = strdup("worker-1");
	r->timestamp_ms = 1732896000000LL;
	r->items = calloc(2, sizeof(*r->items));
	r->items[0] =
		(struct killreport_item){ .id = strdup(CA),
					  .result = KILLREPORT_KILLED,
					  .processes = 3,
					  .signalled = KILLREPORT_SIGTERM | KILLREPORT_SIGKILL,
					  .elapsed_ms = 262 };
	r->items[0].foreign = calloc(1, sizeof(int64_t));
	r->items[0].foreign[0] = 4101;
	r->items[0].nforeign = 1;
	r->items[1] =
		(struct killreport_item){ .id = strdup(CB),
					  .result = KILLREPORT_FAILED,
					  .error = strdup("pin pid 7: Operation not permitted") };
	r->nitems = 2;
}

START_TEST(test_killreport_round_trip)
{
	struct killreport r, back;
	struct err e = { 0 };
	json_auto_t *doc = NULL, *again = NULL;
	char *text, *text2;

	two_items(&r);
	doc = killreport_to_json(&r);
	text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(
		text,
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"KillReport\",\"metadata\":{\"node\":"
		"\"worker-1\",\"timestamp\":\"2024-11-29T16:00:00Z\"},\"items\":[{\"id\":\"" CA
		"\",\"result\":\"killed\",\"processes\":3,\"signalled\":[\"SIGTERM\",\"SIGKILL\"],"
		"\"foreign\":[4101],\"elapsedMs\":262,\"error\":null},{\"id\":\"" CB
		"\",\"result\":\"failed\",\"processes\":0,\"signalled\":[],\"foreign\":[],"
		"\"elapsedMs\":0,\"error\":\"pin pid 7: Operation not permitted\"}]}");
	ck_assert_msg(killreport_from_json(doc, &back, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(back.node, "worker-1");
	ck_assert_int_eq(back.timestamp_ms, r.timestamp_ms);
	ck_assert_uint_eq(back.nitems, 2);
	ck_assert_int_eq(back.items[0].result, KILLREPORT_KILLED);
	ck_assert_uint_eq(back.items[0].signalled, KILLREPORT_SIGTERM | KILLREPORT_SIGKILL);
	ck_assert_int_eq(back.items[0].foreign[0], 4101);
	ck_assert_ptr_null(back.items[0].error);
	ck_assert_str_eq(back.items[1].error, r.items[1].error);
	again = killreport_to_json(&back);
	text2 = json_dumps(again, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(text2, text);
	free(text);
	free(text2);
	killreport_release(&back);
	killreport_release(&r);
}
END_TEST

#define ITEM(rest) "{\"items\":[{\"id\":\"" CA "\"," rest "}]}"

static const struct {
	const char *json, *msg;
} bad[] = {
	{ "{\"metadata\":{\"timestamp\":\"soon\"}}",
	  "KillReport.metadata.timestamp: expected an RFC 3339 time, got \"soon\"" },
	{ "{\"items\":[{\"id\":\"1234\"}]}",
	  "KillReport.items[0].id: expected a YARN container id, got \"1234\"" },
	{ ITEM("\"result\":\"dead\""),
	  "KillReport.items[0].result: expected one of terminated, killed, gone, failed, got "
	  "\"dead\"" },
	{ ITEM("\"result\":\"gone\",\"processes\":-1"),
	  "KillReport.items[0].processes: expected an integer 0..9223372036854775807, got -1" },
	{ ITEM("\"result\":\"killed\",\"signalled\":[\"SIGKILL\",\"SIGTERM\"]"),
	  "KillReport.items[0].signalled[1]: expected SIGTERM, then SIGKILL, each once, got "
	  "\"SIGTERM\"" },
	{ ITEM("\"result\":\"gone\",\"foreign\":[0]"),
	  "KillReport.items[0].foreign[0]: expected a process id, got 0" },
	{ ITEM("\"result\":\"failed\",\"error\":null"),
	  "KillReport.items[0].error: expected a string (the item failed), got null" },
	{ ITEM("\"result\":\"gone\",\"error\":\"x\""),
	  "KillReport.items[0].error: expected null (the item did not fail), got \"x\"" },
};

START_TEST(test_killreport_refusals)
{
	struct killreport r;

	TESTLIB_REFUSES(bad[_i].json, bad[_i].msg, killreport_from_json(doc, &r, &e));
	ck_assert_ptr_null(r.items);
}
END_TEST

static Suite *killreport_suite(void)
{
	Suite *s = suite_create("killreport");
	TCase *tc = tcase_create("document");

	tcase_add_test(tc, test_killreport_round_trip);
	tcase_add_loop_test(tc, test_killreport_refusals, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(killreport_suite)
