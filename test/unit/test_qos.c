// SPDX-License-Identifier: Apache-2.0
/* test_qos - the pure decisions of qos-cgset, from literals */
#include <stdlib.h>
#include <string.h>

#include "decide/qos.h"
#include "testlib.h"

static struct cpuset set_of(const char *list)
{
	struct cpuset s;

	ck_assert_int_eq(cpuset_parse(list, &s, NULL), 0);
	return s;
}

static void assert_set(const struct cpuset *s, const char *want)
{
	char *got = cpuset_format(s);

	ck_assert_str_eq(got, want);
	free(got);
}

static const struct {
	int64_t milli, shares, linear, nonlinear;
} shares_cases[] = {
	{ 0, 2, 1, 1 },
	{ 1, 2, 1, 1 }, /* 1 x 1024 / 1000 = 1 -> clamped to 2 */
	{ 1000, 1024, 39, 100 },
	{ 7000, 7168, 274, 477 }, /* the example */
	{ 2500, 2560, 98, 208 },
	{ 256000, 262144, 10000, 10000 },
	{ 1000000, 262144, 10000, 10000 }, /* clamped */
};

START_TEST(test_qos_shares_and_weight)
{
	int64_t s = qos_shares(shares_cases[_i].milli);

	ck_assert_int_eq(s, shares_cases[_i].shares);
	ck_assert_int_eq(qos_weight(s, QOS_WEIGHT_LINEAR), shares_cases[_i].linear);
	ck_assert_int_eq(qos_weight(s, QOS_WEIGHT_NONLINEAR), shares_cases[_i].nonlinear);
}
END_TEST

START_TEST(test_qos_weight_conv_parse)
{
	enum qos_weight_conv c;
	struct err e = { 0 };

	ck_assert_int_eq(qos_weight_conv_parse("nonlinear", &c, &e), 0);
	ck_assert_int_eq(c, QOS_WEIGHT_NONLINEAR);
	ck_assert_str_eq(qos_weight_conv_name(c), "nonlinear");
	ck_assert_int_eq(qos_weight_conv_parse("log", &c, &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(e.msg, "--weight-conversion: 'log'"));
}
END_TEST

static const struct {
	struct qos_suppress_in in;
	int threshold, min;
	int64_t want;
} suppress_cases[] = {
	/* 64000 x 65% = 41600 - (9000 + 6000) - max(2000, 0) */
	{ { 64000, 15000, 2000, 0 }, 65, -1, 24600 },
	/* reserved wins over system usage */
	{ { 64000, 15000, 2000, 4000 }, 65, -1, 22600 },
	/* floored at min 10% of capacity */
	{ { 64000, 40000, 2000, 0 }, 65, 10, 6400 },
	/* no min: floored at 0 */
	{ { 64000, 40000, 2000, 0 }, 65, -1, 0 },
	{ { 2000, 100, 100, 0 }, 65, -1, 1100 },
};

START_TEST(test_qos_suppress_formula)
{
	ck_assert_int_eq(qos_suppress_milli(&suppress_cases[_i].in, suppress_cases[_i].threshold,
					    suppress_cases[_i].min),
			 suppress_cases[_i].want);
}
END_TEST

START_TEST(test_qos_cpuset_want_and_step)
{
	ck_assert_int_eq(qos_cpuset_want(0), 2);
	ck_assert_int_eq(qos_cpuset_want(1100), 2);
	ck_assert_int_eq(qos_cpuset_want(2001), 3);
	ck_assert_int_eq(qos_cpuset_want(24600), 25);
	/* 2 logical CPUs: step ceil(0.2) = 1 */
	ck_assert_int_eq(qos_cpuset_step(1, 2, 2), 2);
	ck_assert_int_eq(qos_cpuset_step(0, 2, 2), 2);
	ck_assert_int_eq(qos_cpuset_step(0, 5, 2), 2);
	/* 96 logical CPUs: step ceil(9.6) = 10 */
	ck_assert_int_eq(qos_cpuset_step(20, 60, 96), 30);
	ck_assert_int_eq(qos_cpuset_step(20, 25, 96), 25);
	/* shrinking is immediate */
	ck_assert_int_eq(qos_cpuset_step(60, 4, 96), 4);
}
END_TEST

/* 2 NUMA nodes x 4 cores x 2 threads: cpu n and n + 8 are siblings, cores
 * 0-3 on node 0 (cpus 0-3, 8-11), cores 4-7 on node 1 (4-7, 12-15). */
static size_t topo16(struct cpuset_cpu *t)
{
	for (int c = 0; c < 16; c++)
		t[c] = (struct cpuset_cpu){ .cpu = c,
					    .core = c % 8,
					    .package = c % 8 < 4 ? 0 : 1,
					    .node = c % 8 < 4 ? 0 : 1 };
	return 16;
}

static const struct {
	const char *candidates;
	int count;
	const char *want;
} choose_cases[] = {
	/* sibling pairs, round-robin over the nodes */
	{ "0-15", 2, "0,8" },
	{ "0-15", 4, "0,4,8,12" },
	{ "0-15", 6, "0-1,4,8-9,12" },
	/* odd count: pairs first, then a single CPU from the first bucket */
	{ "0-15", 5, "0-1,4,8,12" },
	/* the larger bucket goes first */
	{ "1-15", 4, "1,4,9,12" },
	/* a lone hyperthread is taken only in phase 2 */
	{ "0,4", 2, "0,4" },
	/* capped at the candidates */
	{ "2,10", 6, "2,10" },
};

START_TEST(test_qos_cpuset_choose)
{
	struct cpuset_cpu t[16];
	size_t n = topo16(t);
	struct cpuset cand = set_of(choose_cases[_i].candidates), out;
	int got = qos_cpuset_choose(t, n, &cand, choose_cases[_i].count, &out);

	assert_set(&out, choose_cases[_i].want);
	ck_assert_int_eq(got, cpuset_count(&out));
}
END_TEST

/* A subtree hadoop-yarn -> two containers, all holding old (one shared
 * set, as qosapply passes them). */
static size_t tree(struct qos_cpuset_dir *d, const char *old)
{
	static struct cpuset set;

	set = set_of(old);
	d[0] = (struct qos_cpuset_dir){ .parent = -1, .old = &set };
	d[1] = (struct qos_cpuset_dir){ .parent = 0, .old = &set };
	d[2] = (struct qos_cpuset_dir){ .parent = 0, .old = &set };
	return 3;
}

static const struct {
	const char *old, *target;
	const char *want; /* "dir=set;..." */
} order_cases[] = {
	/* widen: parents first, nothing left for the second pass */
	{ "0-3", "0-7", "0=0-7;1=0-7;2=0-7;" },
	/* shrink: children first */
	{ "0-7", "0-3", "2=0-3;1=0-3;0=0-3;" },
	/* disjoint: through the union, top-down, then the target bottom-up */
	{ "0-3", "4-7", "0=0-7;1=0-7;2=0-7;2=4-7;1=4-7;0=4-7;" },
	/* no change */
	{ "0-3", "0-3", "" },
	/* never an empty cpuset */
	{ "0-3", "", "" },
};

START_TEST(test_qos_cpuset_order)
{
	struct qos_cpuset_dir d[3];
	struct qos_cpuset_write w[6];
	struct cpuset target = set_of(order_cases[_i].target);
	size_t n = qos_cpuset_order(d, tree(d, order_cases[_i].old), &target, w);
	char got[256] = "";

	for (size_t i = 0; i < n; i++) {
		char *s = cpuset_format(&w[i].set);
		size_t len = strlen(got);

		snprintf(got + len, sizeof(got) - len, "%zu=%s;", w[i].dir, s);
		free(s);
	}
	ck_assert_str_eq(got, order_cases[_i].want);
}
END_TEST

START_TEST(test_qos_cpuset_order_mixed_children)
{
	/* One child already narrower than the target: it only widens. */
	struct cpuset all = set_of("0-7"), two = set_of("0-1");
	struct qos_cpuset_dir d[3] = {
		{ -1, &all },
		{ 0, &two },
		{ 0, &all },
	};
	struct qos_cpuset_write w[6];
	struct cpuset target = set_of("0-3");
	size_t n = qos_cpuset_order(d, 3, &target, w);

	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(w[0].dir, 1);
	assert_set(&w[0].set, "0-3");
	ck_assert_uint_eq(w[1].dir, 2);
	ck_assert_uint_eq(w[2].dir, 0);
}
END_TEST

START_TEST(test_qos_cpuset_choice_valid)
{
	struct cpuset cand = set_of("0-7"), online = set_of("0-5");
	static const struct {
		const char *chosen;
		int count, valid;
	} cases[] = {
		{ "0-3", 4, 1 },     { "0-1,4-5", 4, 1 }, /* any 4 online candidates */
		{ "0-5", 8, 1 },                          /* capped at the 6 online */
		{ "0-4", 4, 0 },     { "0-2", 4, 0 },     /* not the count */
		{ "0-2,6", 4, 0 },                        /* 6 is offline */
		{ "0-2,100", 4, 0 }, { "", 4, 0 },        /* not a candidate; none */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cpuset c = set_of(cases[i].chosen);

		ck_assert_msg(qos_cpuset_choice_valid(&c, &cand, &online, cases[i].count) ==
				      cases[i].valid,
			      "%s of %d", cases[i].chosen, cases[i].count);
	}
}
END_TEST

START_TEST(test_qos_cfs_quota)
{
	ck_assert_int_eq(qos_cfs_quota(24600, 100000), 2460000);
	ck_assert_int_eq(qos_cfs_quota(10, 100000), QOS_MIN_QUOTA_US);
	ck_assert_int_eq(qos_cfs_quota(0, 100000), QOS_MIN_QUOTA_US);
	ck_assert_int_eq(qos_cfs_quota(1500, 50000), 75000);
}
END_TEST

START_TEST(test_qos_cfs_quota_round)
{
	/* 64 cores, period 100000: 1% = 64000 us, 10% = 640000 us */
	ck_assert_int_eq(qos_cfs_quota_round(2000000, 2050000, 64000, 100000), 2000000);
	ck_assert_int_eq(qos_cfs_quota_round(2000000, 1950000, 64000, 100000), 2000000);
	ck_assert_int_eq(qos_cfs_quota_round(2000000, 1900000, 64000, 100000), 1900000);
	ck_assert_int_eq(qos_cfs_quota_round(2000000, 4000000, 64000, 100000), 2640000);
	/* the minimum is always written; from unlimited at once; to unlimited */
	ck_assert_int_eq(qos_cfs_quota_round(3000, 2000, 64000, 100000), 2000);
	ck_assert_int_eq(qos_cfs_quota_round(-1, 4000000, 64000, 100000), 4000000);
	ck_assert_int_eq(qos_cfs_quota_round(4000000, -1, 64000, 100000), -1);
}
END_TEST

START_TEST(test_qos_cfs_quota_v1_strict_children)
{
	/* YARN strict mode: quota 1 s, period 1 s / cpus (yarn-interfaces 5b). */
	struct qos_cfs ch[] = {
		{ 1000000, 500000 }, /* 2 CPUs */
		{ -1, 100000 },      /* unlimited: takes the parent's */
		{ 1000000, 250000 }, /* 4 CPUs */
		{ 50000, 100000 },   /* half a CPU */
	};
	long by;

	/* 3 CPUs wanted, a child has 4: raised to 4 x 100000 */
	ck_assert_int_eq(qos_cfs_quota_v1(300000, 100000, ch, 4, &by), 400000);
	ck_assert_int_eq(by, 2);
	/* 5 CPUs: above every child, kept */
	ck_assert_int_eq(qos_cfs_quota_v1(500000, 100000, ch, 4, &by), 500000);
	ck_assert_int_eq(by, -1);
	/* unlimited stays unlimited */
	ck_assert_int_eq(qos_cfs_quota_v1(-1, 100000, ch, 4, &by), -1);
	/* ratio, not raw quota: 1/3 CPU child, period 30000 -> ceil(100000/3) */
	ch[0] = (struct qos_cfs){ 10000, 30000 };
	ck_assert_int_eq(qos_cfs_quota_v1(2000, 100000, ch, 1, &by), 33334);
}
END_TEST

START_TEST(test_qos_memory_values)
{
	struct policy p;
	struct qos_memory m;

	policy_defaults(&p);
	qos_memory_values(&p, &m);
	ck_assert_int_eq(m.wmark_ratio, 95);
	ck_assert_int_eq(m.wmark_scale_factor, 20);
	ck_assert_int_eq(m.wmark_min_adj, 50);
	ck_assert_int_eq(m.priority, 0);
	ck_assert_int_eq(m.use_priority_oom, 0);
	ck_assert_int_eq(m.oom_group_container, 1);
	ck_assert_int_eq(m.oom_group_hadoop_yarn, 0);
	p.memory_qos_enable = 0;
	qos_memory_values(&p, &m);
	ck_assert_int_eq(m.wmark_ratio, 0);
	ck_assert_int_eq(m.wmark_scale_factor, 50);
	ck_assert_int_eq(m.wmark_min_adj, 0);
	ck_assert_int_eq(m.oom_group_container, 0);
}
END_TEST

START_TEST(test_qos_memory_cap)
{
	int64_t limit;

	/* 50% of 4 GiB + 1000 bytes, rounded down to 4 KiB pages */
	ck_assert_int_eq(
		qos_memory_cap(4294968296, 50, INT64_MAX, 1 << 30, 256 << 20, 4096, &limit), 1);
	ck_assert_int_eq(limit, 2147483648);
	/* lowering below usage + margin: deferred */
	ck_assert_int_eq(
		qos_memory_cap(4294967296, 50, INT64_MAX, 2000000000, 256 << 20, 4096, &limit), 0);
	ck_assert_int_eq(limit, 2147483648);
	/* usage unknown: deferred, unless the cap rises */
	ck_assert_int_eq(qos_memory_cap(4294967296, 50, -1, -1, 0, 4096, &limit), 0);
	ck_assert_int_eq(qos_memory_cap(4294967296, 50, 1 << 30, -1, 0, 4096, &limit), 1);
	/* a rise is always safe, whatever the usage */
	ck_assert_int_eq(
		qos_memory_cap(4294967296, 50, 1 << 30, 2000000000, 256 << 20, 4096, &limit), 1);
}
END_TEST

static Suite *qos_suite(void)
{
	Suite *s = suite_create("qos");
	TCase *tc = tcase_create("cpu");

	tcase_add_loop_test(tc, test_qos_shares_and_weight, 0,
			    sizeof(shares_cases) / sizeof(shares_cases[0]));
	tcase_add_test(tc, test_qos_weight_conv_parse);
	tcase_add_loop_test(tc, test_qos_suppress_formula, 0,
			    sizeof(suppress_cases) / sizeof(suppress_cases[0]));
	tcase_add_test(tc, test_qos_cpuset_want_and_step);
	tcase_add_loop_test(tc, test_qos_cpuset_choose, 0,
			    sizeof(choose_cases) / sizeof(choose_cases[0]));
	tcase_add_loop_test(tc, test_qos_cpuset_order, 0,
			    sizeof(order_cases) / sizeof(order_cases[0]));
	tcase_add_test(tc, test_qos_cpuset_order_mixed_children);
	tcase_add_test(tc, test_qos_cpuset_choice_valid);
	tcase_add_test(tc, test_qos_cfs_quota);
	tcase_add_test(tc, test_qos_cfs_quota_round);
	tcase_add_test(tc, test_qos_cfs_quota_v1_strict_children);
	suite_add_tcase(s, tc);
	tc = tcase_create("memory");
	tcase_add_test(tc, test_qos_memory_values);
	tcase_add_test(tc, test_qos_memory_cap);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(qos_suite)
