// SPDX-License-Identifier: Apache-2.0
/* test_nodecli - the node tools' shared options */
#include <string.h>

#include "cli/cli.h"
#include "cli/nodecli.h"
#include "testlib.h"

static int usage_calls;

static void count_usage(void)
{
	usage_calls++;
}

static const struct {
	int c;
	const char *arg;
	int want; /* nodecli_option()'s return */
} cases[] = {
	{ NODECLI_SYSROOT, "/host", NODECLI_MORE },
	{ NODECLI_DRIVER, "systemd", NODECLI_MORE },
	{ NODECLI_DRIVER, "upstart", KILO_EXIT_USAGE },
	{ NODECLI_HIERARCHY, "kubepods/besteffort/yarn", NODECLI_MORE },
	{ NODECLI_POLICY, "slo.yaml", NODECLI_MORE },
	{ NODECLI_STATE, "state.json", NODECLI_MORE },
	{ NODECLI_PRETTY, NULL, NODECLI_MORE },
	{ 'h', NULL, KILO_EXIT_OK },
	{ 'V', NULL, KILO_EXIT_OK },
	{ '?', NULL, KILO_EXIT_USAGE },
	{ NODECLI_OPT_END, "own option", KILO_EXIT_USAGE },
};

START_TEST(test_nodecli_option)
{
	const struct nodecli_tool tool = { .usage = count_usage, .unknown = "unknown option" };
	struct nodecli_opts o = { 0 };

	usage_calls = 0;
	ck_assert_int_eq(nodecli_option(&o, &tool, cases[_i].c, cases[_i].arg), cases[_i].want);
	ck_assert_int_eq(usage_calls, cases[_i].c == 'h');
	switch (cases[_i].c) {
	case NODECLI_SYSROOT:
		ck_assert_str_eq(o.sysroot, "/host");
		break;
	case NODECLI_DRIVER:
		ck_assert_int_eq(o.driver, cases[_i].want == NODECLI_MORE ? CGROUP_DRIVER_SYSTEMD
									  : CGROUP_DRIVER_AUTO);
		break;
	case NODECLI_HIERARCHY:
		ck_assert_str_eq(o.hierarchy, "kubepods/besteffort/yarn");
		break;
	case NODECLI_POLICY:
		ck_assert_str_eq(o.policy, "slo.yaml");
		break;
	case NODECLI_STATE:
		ck_assert_str_eq(o.state, "state.json");
		break;
	case NODECLI_PRETTY:
		ck_assert_int_eq(o.pretty, 1);
		break;
	default: /* nothing stored */
		ck_assert_mem_eq(&o, &(struct nodecli_opts){ 0 }, sizeof(o));
	}
}
END_TEST

/* nodecli_parse: the tool sees every option first, passes the shared ones
 * on, and positional arguments past max_args are refused. */
static int own_seen;

static int own(void *ctx, int c, const char *arg)
{
	(void)ctx;
	if (c == NODECLI_OPT_END) {
		own_seen++;
		return strcmp(arg, "bad") == 0 ? KILO_EXIT_USAGE : NODECLI_MORE;
	}
	if (c == NODECLI_STATE && strcmp(arg, "vetoed") == 0)
		return KILO_EXIT_USAGE; /* a shared option the tool checks further */
	return NODECLI_PASS;
}

static int parse(int max_args, const char *a1, const char *a2, const char *a3,
		 struct nodecli_opts *o)
{
	static const struct option longopts[] = {
		NODECLI_OPTION_STATE,
		NODECLI_OPTION_PRETTY,
		{ "own", required_argument, NULL, NODECLI_OPT_END },
		NODECLI_OPTIONS_END,
	};
	const struct nodecli_tool tool = { .usage = count_usage };
	char *argv[] = { (char *)"kilo", (char *)a1, (char *)a2, (char *)a3, NULL };
	int argc = 1 + !!a1 + !!a2 + !!a3;

	memset(o, 0, sizeof(*o));
	optind = 0; /* getopt starts over */
	return nodecli_parse(argc, argv, longopts, o, &tool, own, NULL, max_args);
}

START_TEST(test_nodecli_parse)
{
	struct nodecli_opts o;

	own_seen = 0;
	ck_assert_int_eq(parse(0, "--own=x", "--state=s.json", "--pretty", &o), NODECLI_MORE);
	ck_assert_int_eq(own_seen, 1);
	ck_assert_str_eq(o.state, "s.json");
	ck_assert_int_eq(o.pretty, 1);
	ck_assert_int_eq(parse(0, "--own=bad", NULL, NULL, &o), KILO_EXIT_USAGE);
	ck_assert_int_eq(parse(0, "--state=vetoed", NULL, NULL, &o), KILO_EXIT_USAGE);
	ck_assert_ptr_null(o.state);
	ck_assert_int_eq(parse(0, "--pretty", "extra", NULL, &o), KILO_EXIT_USAGE);
	ck_assert_int_eq(parse(1, "--pretty", "list", NULL, &o), NODECLI_MORE);
	ck_assert_int_eq(parse(1, "list", "--pretty", "two", &o), KILO_EXIT_USAGE);
	ck_assert_int_eq(parse(0, "--unknown", NULL, NULL, &o), KILO_EXIT_USAGE);
}
END_TEST

static Suite *nodecli_suite(void)
{
	Suite *s = suite_create("nodecli");
	TCase *tc = tcase_create("option");

	tcase_add_loop_test(tc, test_nodecli_option, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_nodecli_parse);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(nodecli_suite)
