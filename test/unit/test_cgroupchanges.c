// SPDX-License-Identifier: Apache-2.0
/* test_cgroupchanges - the CgroupChanges document: the bytes qos-cgset
 * writes (head, streamed items), the round trip, and every refusal naming
 * its path */
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "doc/cgroupchanges.h"
#include "testlib.h"

#define Y "/kubepods/besteffort/hadoop-yarn"

static const pid_t foreign[] = { 4101, 4102 };

static void changes(struct cgroupchanges *c, struct cgroupchanges_item items[2])
{
	memset(c, 0, sizeof(*c));
	c->node = strdup("worker-1");
	c->timestamp_ms = 1732896002000LL;
	c->summary[CGROUPCHANGES_WRITTEN] = 1;
	c->summary[CGROUPCHANGES_SKIPPED] = 1;
	c->summary[CGROUPCHANGES_UNCHANGED] = 5; /* --changes-only left them out */
	c->has_cache = 1;
	c->cache = (struct cgroupchanges_cache){ strdup("/var/lib/kilo/qos.json"), 3, 12, 1 };
	items[0] = (struct cgroupchanges_item){ .path = Y,
						.controller = "cpu",
						.file = "cpu.shares",
						.old = "1024",
						.new = "7168",
						.result = CGROUPCHANGES_WRITTEN,
						.reason = "sum of 7 vCores x 1024" };
	items[1] = (struct cgroupchanges_item){ .path = Y "/container_x",
						.controller = "cpuset",
						.file = "cgroup.procs",
						.result = CGROUPCHANGES_SKIPPED,
						.reason = "no members",
						.foreign = foreign,
						.nforeign = 2 };
	c->items = items;
	c->nitems = 2;
}

START_TEST(test_cgroupchanges_round_trip)
{
	struct cgroupchanges_item items[2];
	struct cgroupchanges c, back;
	struct err e = { 0 };
	json_auto_t *doc = NULL, *again = NULL;
	char *text, *text2;

	changes(&c, items);
	doc = cgroupchanges_to_json(&c);
	text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(
		text,
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"CgroupChanges\",\"dryRun\":false,"
		"\"metadata\":{\"node\":\"worker-1\",\"timestamp\":\"2024-11-29T16:00:02Z\"},"
		"\"summary\":{\"written\":1,\"unchanged\":5,\"unsupported\":0,\"failed\":0,"
		"\"skipped\":1,\"planned\":0,\"deferred\":0},\"cache\":{\"file\":"
		"\"/var/lib/kilo/qos.json\",\"items\":3,\"hits\":12,\"saved\":true},\"items\":[{"
		"\"path\":\"" Y
		"\",\"controller\":\"cpu\",\"file\":\"cpu.shares\",\"old\":\"1024\","
		"\"new\":\"7168\",\"result\":\"written\",\"reason\":\"sum of 7 vCores x 1024\","
		"\"error\":null},{\"path\":\"" Y
		"/container_x\",\"controller\":\"cpuset\",\"file\":"
		"\"cgroup.procs\",\"old\":null,\"new\":null,\"result\":\"skipped\",\"reason\":\"no "
		"members\",\"error\":null,\"foreign\":[4101,4102]}]}");
	ck_assert_msg(cgroupchanges_from_json(doc, &back, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(back.nitems, 2);
	ck_assert_int_eq(back.summary[CGROUPCHANGES_UNCHANGED], 5);
	ck_assert_int_eq(back.items[1].foreign[1], 4102);
	again = cgroupchanges_to_json(&back);
	text2 = json_dumps(again, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(text2, text);
	free(text);
	free(text2);
	cgroupchanges_release(&back);
	c.items = NULL; /* on the stack */
	c.nitems = 0;
	cgroupchanges_release(&c);
}
END_TEST

/* The fast writer's item is what jansson writes, ASCII or not. */
START_TEST(test_cgroupchanges_item_text)
{
	struct cgroupchanges_item items[2], odd;
	struct cgroupchanges c;

	changes(&c, items);
	odd = items[0];
	odd.reason = "caf\xc3\xa9";
	items[0].reason = odd.reason;
	for (size_t i = 0; i < 2; i++) {
		struct jsonio_buf b = { 0 };
		json_t *v = cgroupchanges_item_json(&items[i]);
		char *want = json_dumps(v, JSON_COMPACT);

		ck_assert_int_eq(cgroupchanges_item_text(&items[i], &b), 0);
		ck_assert_uint_eq(b.len, strlen(want));
		ck_assert(memcmp(b.p, want, b.len) == 0);
		free(want);
		json_decref(v);
		jsonio_buf_release(&b);
	}
	c.items = NULL;
	c.nitems = 0;
	cgroupchanges_release(&c);
}
END_TEST

#define ITEM(rest) "{\"items\":[{\"path\":\"" Y "\",\"controller\":\"cpu\"," rest "}]}"

static const struct {
	const char *json, *msg;
} bad[] = {
	{ "{\"dryRun\":\"no\"}", "CgroupChanges.dryRun: expected true or false, got \"no\"" },
	{ "{\"summary\":{\"failed\":-2}}",
	  "CgroupChanges.summary.failed: expected an integer 0..9223372036854775807, got -2" },
	{ "{\"cache\":{\"saved\":1}}", "CgroupChanges.cache.saved: expected true or false, got 1" },
	{ "{\"items\":[{\"path\":\"kubepods\"}]}",
	  "CgroupChanges.items[0].path: expected a cgroup path, got \"kubepods\"" },
	{ ITEM("\"result\":\"done\""),
	  "CgroupChanges.items[0].result: expected one of written, unchanged, unsupported, "
	  "failed, skipped, planned, deferred, got \"done\"" },
	{ ITEM("\"result\":\"skipped\",\"foreign\":[-1]"),
	  "CgroupChanges.items[0].foreign[0]: expected a process id, got -1" },
	{ ITEM("\"result\":\"written\",\"old\":5"),
	  "CgroupChanges.items[0].old: expected a string, got 5" },
};

START_TEST(test_cgroupchanges_refusals)
{
	struct cgroupchanges c;

	TESTLIB_REFUSES(bad[_i].json, bad[_i].msg, cgroupchanges_from_json(doc, &c, &e));
	ck_assert_ptr_null(c.items);
}
END_TEST

static Suite *cgroupchanges_suite(void)
{
	Suite *s = suite_create("cgroupchanges");
	TCase *tc = tcase_create("document");

	tcase_add_test(tc, test_cgroupchanges_round_trip);
	tcase_add_test(tc, test_cgroupchanges_item_text);
	tcase_add_loop_test(tc, test_cgroupchanges_refusals, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(cgroupchanges_suite)
