// SPDX-License-Identifier: Apache-2.0
/* test_evictorstate - the evictor's state document: the bytes written, the
 * round trip, and every refusal naming its path */
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "doc/evictorstate.h"
#include "testlib.h"

#define CA "container_e17_1410901177871_0001_01_000002"

START_TEST(test_evictorstate_round_trip)
{
	struct evictorstate st, back;
	struct err e = { 0 };
	json_auto_t *doc = NULL, *again = NULL;
	char *text, *text2;

	evictorstate_init(&st);
	st.victims = calloc(1, sizeof(*st.victims));
	st.victims[0] = (struct evictorstate_victim){ strdup(CA), 42 };
	st.nvictims = 1;
	st.last_cpu_ms = 7;
	st.samples = calloc(1, sizeof(*st.samples));
	st.samples[0] = (struct evictorstate_sample){ 1, EVICTORSTATE_UNKNOWN, 2, 3, 4 };
	st.nsamples = 1;
	doc = evictorstate_to_json(&st);
	text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(text, "{\"apiVersion\":\"kilo/v1\",\"kind\":\"EvictorState\",\"victims\":"
			       "[{\"id\":\"" CA "\",\"atMs\":42}],\"lastEviction\":{\"memoryMs\":"
			       "null,\"cpuMs\":7},\"cpuSamples\":[{\"atMs\":1,\"windowMs\":null,"
			       "\"usageCpuMilli\":2,\"limitCpuMilli\":3,\"requestCpuMilli\":4}]}");
	ck_assert_msg(evictorstate_from_json(doc, &back, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(back.last_memory_ms, EVICTORSTATE_UNKNOWN);
	ck_assert_int_eq(back.samples[0].window_ms, EVICTORSTATE_UNKNOWN);
	again = evictorstate_to_json(&back);
	text2 = json_dumps(again, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(text2, text);
	free(text);
	free(text2);
	evictorstate_release(&back);
	evictorstate_release(&st);
}
END_TEST

static const struct {
	const char *json, *msg;
} bad[] = {
	{ "{\"victims\":[{\"id\":\"" CA "/..\",\"atMs\":1}]}",
	  "victims[0].id: expected a YARN container id, got \"" CA "/..\"" },
	{ "{\"victims\":[{\"id\":\"" CA "\"}]}",
	  "victims[0].atMs: expected an integer 0..9007199254740992, got nothing" },
	{ "{\"lastEviction\":{\"cpuMs\":-1}}",
	  "lastEviction.cpuMs: expected an integer 0..9007199254740992, got -1" },
	{ "{\"cpuSamples\":[{\"atMs\":1,\"usageCpuMilli\":1,\"limitCpuMilli\":1}]}",
	  "cpuSamples[0].requestCpuMilli: expected an integer 0..9007199254740992, got nothing" },
};

START_TEST(test_evictorstate_refusals)
{
	struct evictorstate st;

	TESTLIB_REFUSES(bad[_i].json, bad[_i].msg, evictorstate_from_json(doc, &st, &e));
	ck_assert_ptr_null(st.victims);
	ck_assert_uint_eq(st.nvictims, 0);
}
END_TEST

static Suite *evictorstate_suite(void)
{
	Suite *s = suite_create("evictorstate");
	TCase *tc = tcase_create("document");

	tcase_add_test(tc, test_evictorstate_round_trip);
	tcase_add_loop_test(tc, test_evictorstate_refusals, 0, sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(evictorstate_suite)
