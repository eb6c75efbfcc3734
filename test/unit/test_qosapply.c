// SPDX-License-Identifier: Apache-2.0
/* test_qosapply - qos-cgset's inputs read through the filter its main
 * uses are the inputs read whole (a field the filter drops reads as
 * missing: the reason of a skipped cpuset named the wrong field so) */
#include <stdio.h>
#include <string.h>

#include "core/jsonio.h"
#include "doc/containerlist.h"
#include "doc/nodeusage.h"
#include "run/qosapply.h"
#include "testlib.h"

/* NodeUsage and ContainerList of a fixture, read with keep (NULL: whole). */
static void collect(const char *text, const struct jsonio_filter *keep, json_t **docs)
{
	static const char *const kinds[] = { "NodeUsage", "ContainerList" };
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct err e = { 0 };

	ck_assert_ptr_nonnull(f);
	docs[0] = docs[1] = NULL;
	ck_assert_msg(jsonio_collect(f, "fixture", kinds, 2, docs, keep, &e) >= 0, "%s", e.msg);
	fclose(f);
}

static void same_inputs(const char *text, const char *what)
{
	json_t *whole[2], *kept[2];
	struct qosapply_inputs a, b;
	struct containerlist la, lb;
	struct nodeusage ua, ub;
	struct err e = { 0 };

	collect(text, NULL, whole);
	collect(text, qosapply_input_fields, kept);
	ck_assert_msg(testlib_qos_inputs(whole[0], whole[1], &ua, &la, &a, &e) == 0, "%s: %s", what,
		      e.msg);
	ck_assert_msg(testlib_qos_inputs(kept[0], kept[1], &ub, &lb, &b, &e) == 0, "%s: %s", what,
		      e.msg);
	ck_assert_msg(a.usage_known == b.usage_known, "%s: usage_known", what);
	ck_assert_msg(strcmp(a.usage_why ? a.usage_why : "", b.usage_why ? b.usage_why : "") == 0,
		      "%s: why '%s', filtered '%s'", what, a.usage_why, b.usage_why);
	ck_assert_msg(memcmp(&a.usage, &b.usage, sizeof(a.usage)) == 0, "%s: usage", what);
	ck_assert_msg(a.capacity_bytes == b.capacity_bytes, "%s: capacity", what);
	ck_assert_msg(a.requests_known == b.requests_known && a.cpu_milli_sum == b.cpu_milli_sum &&
			      a.nlive == b.nlive && a.nunknown == b.nunknown &&
			      a.npids == b.npids && a.nm_reachable == b.nm_reachable,
		      "%s: the container figures", what);
	ck_assert_msg(strcmp(a.node ? a.node : "", b.node ? b.node : "") == 0, "%s: node", what);
	ck_assert_msg(json_equal(a.stale, b.stale) && json_equal(a.held, b.held), "%s: ids", what);
	qosapply_inputs_release(&a);
	qosapply_inputs_release(&b);
	containerlist_release(&la);
	containerlist_release(&lb);
	nodeusage_release(&ua);
	nodeusage_release(&ub);
	for (int i = 0; i < 2; i++) {
		json_decref(whole[i]);
		json_decref(kept[i]);
	}
}

START_TEST(test_qosapply_filter_keeps_what_is_read)
{
	static const char *const fixtures[] = { "qos/input.json", "qos/input-nm-down.json",
						"qos/input-usage-unknown.json" };

	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		char *path = testlib_fixture(fixtures[i]);
		char *text = testlib_read(NULL, path);
		char *p;

		ck_assert_ptr_nonnull(text);
		same_inputs(text, fixtures[i]);
		/* and the first sample of a --state: windowMs null */
		if ((p = strstr(text, "\"windowMs\":"))) {
			char *v = p + strlen("\"windowMs\":");
			size_t digits = strspn(v, " 0123456789");

			if (digits >= 4) {
				memcpy(v, "null", 4);
				memset(v + 4, ' ', digits - 4);
				same_inputs(text, fixtures[i]);
			}
		}
		free(text);
		free(path);
	}
}
END_TEST

static Suite *qosapply_suite(void)
{
	Suite *s = suite_create("qosapply");
	TCase *tc = tcase_create("inputs");

	tcase_add_test(tc, test_qosapply_filter_keeps_what_is_read);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(qosapply_suite)
