// SPDX-License-Identifier: Apache-2.0
/* test_containerid - the YARN container id grammar */
#include <string.h>

#include "doc/containerid.h"
#include "testlib.h"

static const struct {
	const char *id;
	long long epoch, ts;
	int app, attempt;
	long long number;
} good[] = {
	{ "container_1410901177871_0001_01_000005", 0, 1410901177871LL, 1, 1, 5 },
	{ "container_e17_1410901177871_0001_01_000005", 17, 1410901177871LL, 1, 1, 5 },
	{ "container_e00_1410901177871_0001_01_000001", 0, 1410901177871LL, 1, 1, 1 },
	{ "container_1410901177871_12345_01_000002", 0, 1410901177871LL, 12345, 1, 2 },
	{ "container_1410901177871_0001_100_1234567", 0, 1410901177871LL, 1, 100, 1234567 },
	{ "container_e1234_1_0001_01_000001", 1234, 1, 1, 1, 1 },
	{ "container_1_2147483647_01_1099511627775", 0, 1, 2147483647, 1, 1099511627775LL },
};

START_TEST(test_containerid_parse_good)
{
	struct containerid id;
	struct err e = { 0 };

	ck_assert_int_eq(containerid_parse(good[_i].id, &id, &e), 0);
	ck_assert_int_eq(id.epoch, good[_i].epoch);
	ck_assert_int_eq(id.cluster_timestamp, good[_i].ts);
	ck_assert_int_eq(id.app_id, good[_i].app);
	ck_assert_int_eq(id.attempt, good[_i].attempt);
	ck_assert_int_eq(id.number, good[_i].number);
	ck_assert_int_eq(containerid_valid(good[_i].id), 1);
}
END_TEST

static const char *const bad[] = {
	"",
	"container",
	"container_",
	"container_1410901177871_0001_01",
	"container_1410901177871_001_01_000005",     /* app shorter than 4 */
	"container_1410901177871_0001_1_000005",     /* attempt shorter than 2 */
	"container_1410901177871_0001_01_00005",     /* number shorter than 6 */
	"container_e1_1410901177871_0001_01_000005", /* epoch shorter than 2 */
	"container_e_1410901177871_0001_01_000005",
	"container_1410901177871_0001_01_000005/",
	"container_1410901177871_0001_01_000005x",
	"container_1410901177871_0001_01_000005 ",
	" container_1410901177871_0001_01_000005",
	"container_1410901177871_0001_01_000005\n",
	"../container_1410901177871_0001_01_000005",
	"container_1410901177871_0001_01_..",
	"container_1410901177871_0001_01_000005/../x",
	"container_+1410901177871_0001_01_000005",
	"container_-1410901177871_0001_01_000005",
	"container_1410901177871_2147483648_01_000005", /* app beyond int32 */
	"container_1410901177871_0001_2147483648_000005",
	"container_1410901177871_0001_01_1099511627776",    /* number beyond 40 bits */
	"container_99999999999999999999_0001_01_000005",    /* timestamp beyond int64 */
	"container_e99999999_1410901177871_0001_01_000005", /* epoch << 40 beyond int64 */
	"Container_1410901177871_0001_01_000005",
	"application_1410901177871_0001",
	"container_1410901177871__0001_01_000005",
	"container_1410901177871_0001_01_000005_7",
};

START_TEST(test_containerid_parse_bad)
{
	struct containerid id;
	struct err e = { 0 };

	ck_assert_int_eq(containerid_parse(bad[_i], &id, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strstr(e.msg, "invalid container id") == e.msg, "%s", e.msg);
	ck_assert_int_eq(containerid_valid(bad[_i]), 0);
}
END_TEST

START_TEST(test_containerid_message_names_value)
{
	struct containerid id;
	struct err e = { 0 };

	containerid_parse("container_1410901177871_0001_01_..", &id, &e);
	ck_assert_str_eq(
		e.msg,
		"invalid container id 'container_1410901177871_0001_01_..': expected digits for "
		"the container number");
	containerid_parse("container_1796054400000_0001_01_00003", &id, &e);
	ck_assert_str_eq(e.msg, "invalid container id 'container_1796054400000_0001_01_00003': the "
				"container number '00003' has 5 digits, at least 6 expected");
	containerid_parse("container_1_0001_01_000001\x01", &id, &e);
	ck_assert_str_eq(e.msg,
			 "invalid container id 'container_1_0001_01_000001?': trailing characters");
}
END_TEST

START_TEST(test_containerid_application_and_am)
{
	struct containerid id;
	char buf[64];

	ck_assert_int_eq(containerid_parse("container_e17_1410901177871_0001_01_000001", &id, NULL),
			 0);
	ck_assert_str_eq(containerid_application(&id, buf, sizeof(buf)),
			 "application_1410901177871_0001");
	ck_assert_int_eq(containerid_is_am(&id), 1);
	ck_assert_int_eq(containerid_parse("container_1410901177871_0001_01_000002", &id, NULL), 0);
	ck_assert_int_eq(containerid_is_am(&id), 0);
}
END_TEST

static Suite *containerid_suite(void)
{
	Suite *s = suite_create("containerid");
	TCase *tc = tcase_create("grammar");

	tcase_add_loop_test(tc, test_containerid_parse_good, 0, sizeof(good) / sizeof(good[0]));
	tcase_add_loop_test(tc, test_containerid_parse_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_containerid_message_names_value);
	tcase_add_test(tc, test_containerid_application_and_am);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(containerid_suite)
