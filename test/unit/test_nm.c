// SPDX-License-Identifier: Apache-2.0
/* test_nm - NodeManager containers payload parsing */
#include <string.h>

#include "core/jsonio.h"
#include "remote/nm.h"
#include "testlib.h"

static json_t *load_fixture(const char *rel)
{
	char *path = testlib_fixture(rel);
	json_error_t jerr;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);

	ck_assert_msg(doc != NULL, "%s: %s", path, jerr.text);
	free(path);
	return doc;
}

static const char *const fixtures[] = { "yarn/nm-containers.json",
					"yarn/nm-containers-legacy.json" };

START_TEST(test_nm_parse_fixtures)
{
	json_auto_t *doc = load_fixture(fixtures[_i]);
	struct nm_containers c;
	struct err e = { 0 };
	const struct nm_container *it;

	ck_assert_int_eq(nm_parse_containers(doc, &c, &e), 0);
	ck_assert_uint_eq(c.n, 2);
	ck_assert_uint_eq(c.ignored, 0);
	ck_assert_str_eq(c.items[0].id, "container_1326121700862_0006_01_000001");
	ck_assert_str_eq(c.items[1].id, "container_1326121700862_0006_01_000003");
	it = nm_containers_find(&c, "container_1326121700862_0006_01_000003");
	ck_assert_ptr_eq(it, &c.items[1]);
	ck_assert_str_eq(it->state, "RUNNING");
	ck_assert_str_eq(it->user, "user1");
	ck_assert_int_eq(it->memory_mb, 2048);
	ck_assert_int_eq(it->vcores, 2);
	ck_assert_int_eq(it->exit_code, -1000);
	ck_assert_int_eq(c.items[0].vcores, 1);
	ck_assert_ptr_null(nm_containers_find(&c, "container_1326121700862_0006_01_000002"));
	nm_containers_release(&c);
}
END_TEST

START_TEST(test_nm_parse_single_endpoint)
{
	json_auto_t *doc = load_fixture("yarn/nm-container.json");
	struct nm_containers c;
	struct err e = { 0 };

	ck_assert_int_eq(nm_parse_containers(doc, &c, &e), 0);
	ck_assert_uint_eq(c.n, 1);
	ck_assert_str_eq(c.items[0].id, "container_1326121700862_0007_01_000001");
	nm_containers_release(&c);
}
END_TEST

/* Every shape Jersey 1 gives an empty or one-element list. */
static const struct {
	const char *json;
	size_t n;
	const char *first;
} shapes[] = {
	{ "{\"containers\":null}", 0, NULL },
	{ "{\"containers\":{}}", 0, NULL },
	{ "{\"containers\":{\"container\":null}}", 0, NULL },
	{ "{\"containers\":{\"container\":[]}}", 0, NULL },
	{ "{\"containers\":{\"container\":{\"id\":\"container_e17_1410901177871_0001_01_000002\","
	  "\"state\":\"KILLING\",\"totalMemoryNeededMB\":4096,\"totalVCoresNeeded\":2}}}",
	  1, "container_e17_1410901177871_0001_01_000002" },
	/* sorted; an invalid id is skipped, not fatal */
	{ "{\"containers\":{\"container\":[{\"id\":\"container_1410901177871_0001_01_000009\"},"
	  "{\"id\":\"../etc\"},{\"id\":\"container_1410901177871_0001_01_000003\"}]}}",
	  2, "container_1410901177871_0001_01_000003" },
};

START_TEST(test_nm_parse_shapes)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(shapes[_i].json, "t", &e);
	struct nm_containers c;

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(nm_parse_containers(doc, &c, &e), 0);
	ck_assert_uint_eq(c.n, shapes[_i].n);
	if (shapes[_i].first)
		ck_assert_str_eq(c.items[0].id, shapes[_i].first);
	nm_containers_release(&c);
}
END_TEST

START_TEST(test_nm_parse_ignored_and_absent_fields)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse("{\"containers\":{\"container\":[{\"id\":\"x\"},"
					"{\"id\":\"container_1410901177871_0001_01_000003\"}]}}",
					"t", &e);
	struct nm_containers c;

	ck_assert_int_eq(nm_parse_containers(doc, &c, &e), 0);
	ck_assert_uint_eq(c.ignored, 1);
	ck_assert_ptr_null(c.items[0].state);
	ck_assert_ptr_null(c.items[0].user);
	ck_assert_int_eq(c.items[0].memory_mb, -1);
	ck_assert_int_eq(c.items[0].vcores, -1);
	nm_containers_release(&c);
}
END_TEST

static const struct {
	const char *json, *msg;
} bad[] = {
	{ "{\"containers\":[]}", "NM answer.containers: expected an object, got []" },
	{ "{\"containers\":{\"container\":\"x\"}}",
	  "NM answer.containers.container: expected an array or an object, got \"x\"" },
	/* 120 MB of {} was taken as "no containers": no answer is an error */
	{ "{}", "NM answer: not a containers document (no \"containers\" member)" },
	{ "{\"nodeInfo\":{}}", "NM answer: not a containers document (no \"containers\" member)" },
	/* a breaker's shapes, read as "no containers" */
	{ "{\"containers\":{\"containerz\":[{\"id\":\"container_1410901177871_0001_01_000003\"}]}}",
	  "NM answer.containers: not a containers document (member \"containerz\")" },
	{ "{\"container\":{\"id\":\"container_1410901177871_0001_01_000003\"},"
	  "\"containers\":{\"container\":[]}}",
	  "NM answer: not one containers document (both \"container\" and \"containers\")" },
};

/* Bad data in an entry costs only that entry, or that field of it: one
 * field of the wrong type made the whole NodeManager unreachable (and its
 * up metric 0) while it answered.  An id listed twice keeps the entry the
 * NM is not finished with. */
/* A figure the ContainerList cannot carry (above 2^53 bytes or milli-CPU:
 * CONTAINERLIST_FIGURE_MAX) costs that field: yarn-copilot list wrote it and
 * the evictor and qos-cgset then refused the whole list. */
START_TEST(test_nm_parse_figure_bounds)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(
		"{\"containers\":{\"container\":["
		"{\"id\":\"container_1410901177871_0001_01_000003\",\"state\":\"RUNNING\","
		"\"totalMemoryNeededMB\":8589934593,\"totalVCoresNeeded\":9007199254741},"
		"{\"id\":\"container_1410901177871_0001_01_000004\",\"state\":\"RUNNING\","
		"\"totalMemoryNeededMB\":8589934592,\"totalVCoresNeeded\":9007199254740}]}}",
		"t", &e);
	struct nm_containers c;

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(nm_parse_containers(doc, &c, &e), 0);
	ck_assert_uint_eq(c.n, 2);
	ck_assert_uint_eq(c.bad_fields, 2);
	ck_assert_str_eq(c.first_problem, "NM answer.containers.container[0].totalMemoryNeededMB: "
					  "expected an integer 0..8589934592, got 8589934593");
	ck_assert_int_eq(c.items[0].memory_mb, -1);
	ck_assert_int_eq(c.items[0].vcores, -1);
	ck_assert_int_eq(c.items[1].memory_mb, 8589934592); /* 2^53 bytes */
	ck_assert_int_eq(c.items[1].vcores, 9007199254740);
	nm_containers_release(&c);
}
END_TEST

START_TEST(test_nm_parse_bad_entries)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(
		"{\"containers\":{\"container\":[1,{\"id\":7},{\"id\":null},"
		"{\"id\":\"container_1410901177871_0001_01_000003\",\"state\":\"RUNNING\","
		"\"totalMemoryNeededMB\":\"2Gi\",\"totalVCoresNeeded\":2},"
		"{\"id\":\"container_1410901177871_0001_01_000004\",\"state\":\"DONE\"},"
		"{\"id\":\"container_1410901177871_0001_01_000004\",\"state\":\"RUNNING\","
		"\"totalVCoresNeeded\":1},"
		"{\"id\":\"container_1410901177871_0001_01_000004\",\"state\":\"KILLING\"}]}}",
		"t", &e);
	struct nm_containers c;

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(nm_parse_containers(doc, &c, &e), 0);
	ck_assert_uint_eq(c.n, 2);
	ck_assert_uint_eq(c.ignored, 3);
	ck_assert_uint_eq(c.bad_fields, 1);
	ck_assert_uint_eq(c.duplicates, 2);
	ck_assert_str_eq(c.first_problem,
			 "NM answer.containers.container[0]: expected an object, got 1");
	ck_assert_str_eq(c.items[0].id, "container_1410901177871_0001_01_000003");
	ck_assert_int_eq(c.items[0].memory_mb, -1); /* unknown, the rest kept */
	ck_assert_int_eq(c.items[0].vcores, 2);
	ck_assert_str_eq(c.items[1].state, "RUNNING"); /* not the DONE entry */
	ck_assert_int_eq(c.items[1].vcores, 1);
	ck_assert_uint_eq(nm_containers_live(&c), 2);
	free(c.items[1].state);
	c.items[1].state = strdup("DONE");
	ck_assert_uint_eq(nm_containers_live(&c), 1);
	nm_containers_release(&c);
}
END_TEST

START_TEST(test_nm_parse_bad)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(bad[_i].json, "t", &e);
	struct nm_containers c;

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(nm_parse_containers(doc, &c, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, bad[_i].msg);
	ck_assert_uint_eq(c.n, 0);
	ck_assert_ptr_null(c.items);
}
END_TEST

static const struct {
	const char *state;
	enum nm_phase phase;
} states[] = {
	{ "NEW", NM_PHASE_STARTING },
	{ "LOCALIZING", NM_PHASE_STARTING },
	{ "RUNNING", NM_PHASE_RUNNING },
	{ "KILLING", NM_PHASE_KILLING },
	{ "CONTAINER_CLEANEDUP_AFTER_KILL", NM_PHASE_KILLING },
	{ "DONE", NM_PHASE_FINISHED },
	{ "EXITED_WITH_FAILURE", NM_PHASE_FINISHED },
	{ "running", NM_PHASE_UNKNOWN },
	{ NULL, NM_PHASE_UNKNOWN },
};

START_TEST(test_nm_state_phase)
{
	ck_assert_int_eq(nm_state_phase(states[_i].state), states[_i].phase);
}
END_TEST

static Suite *nm_suite(void)
{
	Suite *s = suite_create("nm");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_nm_parse_fixtures, 0, 2);
	tcase_add_test(tc, test_nm_parse_single_endpoint);
	tcase_add_loop_test(tc, test_nm_parse_shapes, 0, sizeof(shapes) / sizeof(shapes[0]));
	tcase_add_test(tc, test_nm_parse_ignored_and_absent_fields);
	tcase_add_test(tc, test_nm_parse_bad_entries);
	tcase_add_test(tc, test_nm_parse_figure_bounds);
	tcase_add_loop_test(tc, test_nm_parse_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_loop_test(tc, test_nm_state_phase, 0, sizeof(states) / sizeof(states[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(nm_suite)
