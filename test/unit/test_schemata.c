// SPDX-License-Identifier: Apache-2.0
/* test_schemata - schemata text, CBM and MB values from literals */
#include <stdlib.h>
#include <string.h>

#include "decide/resctrlqos.h"
#include "doc/schemata.h"
#include "testlib.h"

static const struct {
	uint64_t cbm_mask;
	int min_bits, start, end;
	uint64_t want;
} cbm_cases[] = {
	{ 0x7ff, 1, 0, 30, 0xf },     /* koordlet's example: 11 ways, ceil(3.3) = 4 ways */
	{ 0x3ff, 1, 10, 80, 0xfe },   /* koordlet's example: 10 ways */
	{ 0x7ff, 1, 10, 15, 0x4 },    /* ceil(1.1) = ceil(1.65) = 2: empty, widened to 1 way */
	{ 0x7ff, 1, 90, 100, 0x400 }, /* the top way */
	{ 0x7ff, 2, 90, 100, 0x600 }, /* min_cbm_bits 2 at the top: widened downward */
	{ 0x7ff, 2, 10, 15, 0xc },    /* min_cbm_bits 2: widened upward */
	{ 0x7ff, 2, 0, 30, 0xf },     /* already wide enough */
	{ 0x7ff, 1, 0, 100, 0x7ff },
	{ 0xffff, 0, 0, 5, 0x1 }, /* AMD min_cbm_bits 0: still never empty */
	{ 0xfffff, 4, 99, 100, 0xf0000 },
	{ 0xffffffffffffffffULL, 1, 0, 100, 0xffffffffffffffffULL },
};

START_TEST(test_schemata_cbm_table)
{
	struct err e = { 0 };
	uint64_t got = 0;

	ck_assert_int_eq(resctrlqos_cbm(cbm_cases[_i].cbm_mask, cbm_cases[_i].min_bits,
					cbm_cases[_i].start, cbm_cases[_i].end, &got, &e),
			 0);
	ck_assert_msg(got == cbm_cases[_i].want, "case %d: got %llx, want %llx", _i,
		      (unsigned long long)got, (unsigned long long)cbm_cases[_i].want);
}
END_TEST

START_TEST(test_schemata_cbm_refuses)
{
	struct err e = { 0 };
	uint64_t got = 0;

	ck_assert_int_eq(resctrlqos_cbm(0x7fe, 1, 0, 30, &got, &e), -1);
	ck_assert_str_eq(e.msg, "cbm_mask: expected a contiguous mask from bit 0, got '7fe'");
	ck_assert_int_eq(resctrlqos_cbm(0, 1, 0, 30, &got, &e), -1);
	ck_assert_int_eq(resctrlqos_cbm(0x7ff, 1, 30, 30, &got, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_int_eq(resctrlqos_cbm(0x7ff, 1, 0, 101, &got, &e), -1);
	ck_assert_int_eq(resctrlqos_cbm(0x7, 4, 0, 100, &got, &e), -1);
	ck_assert_str_eq(e.msg, "min_cbm_bits: expected at most 3 (the ways), got 4");
}
END_TEST

/* MB by vendor: kilo.mbaBandwidth "bw" (-1 none; the map form: domain 1
 * only), kilo.mbaMaxBandwidth "max" (-1 none), the root group's value
 * "root", mba_MBps "mbps". */
static const struct {
	enum schemata_vendor vendor;
	int min_bw, gran, mbps;
	int64_t bw, max;
	uint64_t root;
	int pct;
	int64_t want;
	unsigned how;
} mb_cases[] = {
	{ SCHEMATA_VENDOR_INTEL, 10, 10, 0, -1, -1, 100, 25, 30, 0 }, /* rounded up to gran */
	{ SCHEMATA_VENDOR_INTEL, 10, 10, 0, -1, -1, 100, 5, 10, 0 },  /* rounded up: 10 */
	{ SCHEMATA_VENDOR_INTEL, 10, 10, 0, -1, -1, 100, 0, 10, RESCTRLQOS_MB_RAISED }, /* 0 */
	{ SCHEMATA_VENDOR_INTEL, 10, 10, 0, -1, -1, 100, 100, 100, 0 },
	{ SCHEMATA_VENDOR_INTEL, 20, 10, 0, -1, -1, 100, 5, 20, RESCTRLQOS_MB_RAISED },
	{ SCHEMATA_VENDOR_INTEL, 10, 1, 0, -1, -1, 100, 25, 25, 0 },
	{ SCHEMATA_VENDOR_INTEL, 10, 30, 0, -1, -1, 100, 95, 100, RESCTRLQOS_MB_RAISED },
	{ SCHEMATA_VENDOR_INTEL, 10, 10, 0, 40, -1, 100, 90, 40, 0 }, /* kilo.mbaBandwidth */
	{ SCHEMATA_VENDOR_OTHER, 0, 0, 0, -1, -1, 100, 37, 37, 0 },   /* gran 0 read as 1 */
	/* AMD: absolute; the root's value (2048, the default) taken for 100 % */
	{ SCHEMATA_VENDOR_AMD, 0, 1, 0, -1, -1, 2048, 100, 2048, 0 },
	{ SCHEMATA_VENDOR_AMD, 0, 1, 0, -1, -1, 2048, 50, 1024, RESCTRLQOS_MB_ASSUMED },
	{ SCHEMATA_VENDOR_AMD, 0, 1, 0, -1, -1, 2048, 0, 0, RESCTRLQOS_MB_ASSUMED },
	{ SCHEMATA_VENDOR_AMD, 0, 1, 0, -1, 1000, 2048, 30, 300, 0 }, /* of mbaMaxBandwidth */
	{ SCHEMATA_VENDOR_AMD, 0, 1, 0, 60, -1, 2048, 30, 60, 0 },    /* Koordinator's YARN note */
	{ SCHEMATA_VENDOR_AMD, 0, 1, 0, -2, -1, 2048, 100, 60, 0 },   /* map: domain 1 -> 60 */
	/* Intel mounted with mba_MBps: MiB/s */
	{ SCHEMATA_VENDOR_INTEL, 0, 1, 1, -1, -1, 100000, 50, -1, RESCTRLQOS_MB_NONE },
	{ SCHEMATA_VENDOR_INTEL, 0, 1, 1, -1, 20000, 100000, 50, 10000, 0 },
	{ SCHEMATA_VENDOR_INTEL, 0, 1, 1, 5000, -1, 100000, 50, 5000, 0 },
};

START_TEST(test_schemata_mb_table)
{
	struct schemata_facts f;
	struct policy_mba mba = { .all = mb_cases[_i].bw, .max = mb_cases[_i].max };
	unsigned how = 99;
	int64_t got;

	memset(&f, 0, sizeof(f));
	f.vendor = mb_cases[_i].vendor;
	f.mb_min_bandwidth = mb_cases[_i].min_bw;
	f.mb_bandwidth_gran = mb_cases[_i].gran;
	f.mb_mbps = mb_cases[_i].mbps;
	if (mb_cases[_i].bw == -2) { /* the map form */
		mba.all = -1;
		mba.n = 1;
		mba.dom[0].id = 1;
		mba.dom[0].value = 60;
	}
	got = resctrlqos_mb(&f, &mba, 1, mb_cases[_i].root, mb_cases[_i].pct, &how);
	ck_assert_msg(got == mb_cases[_i].want, "case %d: got %lld", _i, (long long)got);
	ck_assert_msg(how == mb_cases[_i].how, "case %d: how %u", _i, how);
}
END_TEST

START_TEST(test_schemata_vendor)
{
	ck_assert_int_eq(schemata_vendor_parse("processor\t: 0\nvendor_id\t: GenuineIntel\n"),
			 SCHEMATA_VENDOR_INTEL);
	ck_assert_int_eq(schemata_vendor_parse("processor\t: 0\nvendor_id\t: AuthenticAMD\n"),
			 SCHEMATA_VENDOR_AMD);
	ck_assert_int_eq(schemata_vendor_parse("vendor_id\t: HygonGenuine\n"), SCHEMATA_VENDOR_AMD);
	ck_assert_int_eq(schemata_vendor_parse("vendor_id\t: GenuineIntelX\n"),
			 SCHEMATA_VENDOR_OTHER);
	ck_assert_int_eq(schemata_vendor_parse("processor\t: 0\nCPU implementer\t: 0x41\n"),
			 SCHEMATA_VENDOR_OTHER);
	ck_assert_int_eq(schemata_vendor_parse(NULL), SCHEMATA_VENDOR_OTHER);
	ck_assert_str_eq(schemata_vendor_name(SCHEMATA_VENDOR_AMD), "amd");
}
END_TEST

START_TEST(test_schemata_parse_padded)
{
	struct schemata s = { 0 };
	struct err e = { 0 };
	char *text;

	/* the kernel pads names to the longest (CDP) and values to the width */
	ck_assert_int_eq(
		schemata_parse("L3CODE:0=007;1=7ff\nL3DATA:0=7f0;1=7ff\n    MB:0= 30;1=100\n", &s,
			       &e),
		0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_str_eq(s.line[2].name, "MB");
	ck_assert_uint_eq(s.line[2].dom[0].value, 30);
	ck_assert_uint_eq(s.line[0].dom[0].value, 7);
	text = schemata_format(&s, NULL);
	ck_assert_str_eq(text, "L3CODE:0=7;1=7ff\nL3DATA:0=7f0;1=7ff\nMB:0=30;1=100");
	free(text);
	schemata_release(&s);
	ck_assert_int_eq(schemata_parse("L3:0=f;1=f;\n\n", &s, &e), 0); /* trailing ';' */
	ck_assert_uint_eq(s.line[0].n, 2);
	schemata_release(&s);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad_cases[] = {
	{ "L3:0=7ff\nbogus\n", "line 2: expected <resource>:<id>=<value>;..., got 'bogus'" },
	{ "L3:0=xyz", "line 1: L3: expected <id>=<hex mask>, got '0=xyz'" },
	{ "MB:0=ff", "line 1: MB: expected <id>=<number>, got '0=ff'" },
	{ "MB:a=10", "line 1: MB: expected <id>=<number>, got 'a=10'" },
	{ "MB:0=-1", "line 1: MB: expected <id>=<number>, got '0=-1'" },
	{ ":0=1", "line 1: expected <resource>:<id>=<value>;..., got ':0=1'" },
	/* found by fuzz_schemata: a repeated domain id or resource made the
	 * comparison with the wanted schemata depend on which copy was found */
	{ "L3:0=7ff;1=7ff\nMB:01=0;1=100\n", "line 2: MB: domain 1 listed twice" },
	{ "MB:0=10\nL3:0=f\nMB:0=20\n", "line 3: MB listed twice" },
	/* strtoull takes a signed id and wraps it */
	{ "L3:-0=7ff", "line 1: L3: expected <id>=<hex mask>, got '-0=7ff'" },
	{ "MB:+1=10", "line 1: MB: expected <id>=<number>, got '+1=10'" },
	{ "L3:0=7ff;4294967296=7ff", "line 1: L3: expected <id>=<hex mask>, got '4294967296=7ff'" },
	{ "L3:0=fffffffffffffffff",
	  "line 1: L3: expected <id>=<hex mask>, got '0=fffffffffffffffff'" },
};

START_TEST(test_schemata_parse_bad)
{
	struct schemata s = { 0 };
	struct err e = { 0 };

	ck_assert_int_eq(schemata_parse(bad_cases[_i].text, &s, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, bad_cases[_i].msg);
	schemata_release(&s);
}
END_TEST

/* koordinator #1777: ids 0-7 and 16-23 must be compared by id, not index */
START_TEST(test_schemata_equal_by_id_sparse)
{
	struct schemata have = { 0 }, want = { 0 };
	struct err e = { 0 };

	ck_assert_int_eq(schemata_parse("L3:0=f;1=f;2=f;3=f;4=f;5=f;6=f;7=f;16=f;17=f;18=f;19=f;"
					"20=f;21=f;22=f;23=f",
					&want, &e),
			 0);
	/* same ids in another order, padded: equal */
	ck_assert_int_eq(
		schemata_parse("L3:16=000f;17=000f;18=000f;19=000f;20=000f;21=000f;22=000f;"
			       "23=000f;0=000f;1=000f;2=000f;3=000f;4=000f;5=000f;6=000f;"
			       "7=000f\n",
			       &have, &e),
		0);
	ck_assert_int_eq(schemata_line_equal(&want.line[0], &have), 1);
	/* only domain 23 differs: by index 0..15 the first 16 entries still match */
	have.line[0].dom[7].value = 0xffff;
	ck_assert_int_eq(schemata_line_equal(&want.line[0], &have), 0);
	schemata_release(&have);
	/* 16 entries but ids 0-15: an index walk would call it equal */
	ck_assert_int_eq(schemata_parse("L3:0=f;1=f;2=f;3=f;4=f;5=f;6=f;7=f;8=f;9=f;10=f;11=f;"
					"12=f;13=f;14=f;15=f",
					&have, &e),
			 0);
	ck_assert_int_eq(schemata_line_equal(&want.line[0], &have), 0);
	schemata_release(&have);
	ck_assert_int_eq(schemata_parse("MB:0=100", &have, &e), 0);
	ck_assert_int_eq(schemata_line_equal(&want.line[0], &have), 0); /* no L3 line */
	schemata_release(&have);
	schemata_release(&want);
}
END_TEST

static void facts_intel(struct schemata_facts *f, const char *root)
{
	struct err e = { 0 };

	memset(f, 0, sizeof(*f));
	f->vendor = SCHEMATA_VENDOR_INTEL;
	f->ncache = 1;
	snprintf(f->cache[0].name, sizeof(f->cache[0].name), "L3");
	f->cache[0].cbm_mask = 0x7ff;
	f->cache[0].min_cbm_bits = 1;
	f->has_mb = 1;
	f->mb_min_bandwidth = 10;
	f->mb_bandwidth_gran = 10;
	f->mb_delay_linear = 1;
	ck_assert_int_eq(schemata_parse(root, &f->root, &e), 0);
}

START_TEST(test_schemata_plan_intel_and_amd_sparse)
{
	struct policy_resctrl be = { 1, 0, 30, 25 };
	struct schemata_facts f;
	struct schemata want = { 0 };
	struct err e = { 0 };
	unsigned how;
	char *text;

	facts_intel(&f, "L3:0=7ff;1=7ff\nMB:0=100;1=100\n");
	ck_assert_int_eq(resctrlqos_plan(&f, &be, NULL, &want, &how, &e), 0);
	text = schemata_format(&want, NULL);
	ck_assert_str_eq(text, "L3:0=f;1=f\nMB:0=30;1=30");
	free(text);
	schemata_release(&want);
	schemata_release(&f.root);

	/* AMD, sparse ids, an SMBA line kilo does not manage (never in the plan,
	 * so never written), each domain its own root value */
	facts_intel(&f, "L3:0=ffff;1=ffff;16=ffff;17=ffff\nMB:0=2048;1=2048;16=1024;17=2048\n"
			"SMBA:0=2048;1=2048;16=2048;17=2048\n");
	f.vendor = SCHEMATA_VENDOR_AMD;
	f.cache[0].cbm_mask = 0xffff;
	f.cache[0].min_cbm_bits = 0;
	f.mb_min_bandwidth = 0;
	f.mb_bandwidth_gran = 1;
	f.mb_delay_linear = 0; /* AMD has no delay scale: MB still managed */
	be.mba_percent = 50;
	ck_assert_int_eq(resctrlqos_plan(&f, &be, NULL, &want, &how, &e), 0);
	ck_assert_uint_eq(how, RESCTRLQOS_MB_ASSUMED);
	text = schemata_format(&want, NULL);
	ck_assert_str_eq(text, "L3:0=1f;1=1f;16=1f;17=1f\nMB:0=1024;1=1024;16=512;17=1024");
	free(text);
	schemata_release(&want);
	schemata_release(&f.root);
}
END_TEST

START_TEST(test_schemata_plan_mb_skipped)
{
	struct policy_resctrl be = { 1, 0, 30, 50 };
	struct schemata_facts f;
	struct schemata want = { 0 };
	struct err e = { 0 };
	unsigned how;
	char *text;

	facts_intel(&f, "L3:0=7ff;1=7ff\nMB:0=100;1=100\n");
	f.mb_delay_linear = 0;
	ck_assert_str_eq(
		resctrlqos_mb_skip_reason(&f),
		"non-linear MB delay scale (info/MB/delay_linear 0), which the kernel refuses");
	f.mb_delay_linear = 1;
	f.mb_mbps = 1; /* MiB/s: managed when a value can be had, see the table */
	ck_assert_ptr_null(resctrlqos_mb_skip_reason(&f));
	ck_assert_int_eq(resctrlqos_plan(&f, &be, NULL, &want, &how, &e), 0);
	ck_assert_uint_eq(how, RESCTRLQOS_MB_NONE);
	text = schemata_format(&want, NULL);
	ck_assert_str_eq(text, "L3:0=f;1=f"); /* no value: no MB line */
	free(text);
	schemata_release(&want);
	f.mb_mbps = 0;
	f.has_mb = 0; /* L3 only */
	ck_assert_int_eq(resctrlqos_plan(&f, &be, NULL, &want, &how, &e), 0);
	text = schemata_format(&want, NULL);
	ck_assert_str_eq(text, "L3:0=f;1=f");
	free(text);
	schemata_release(&want);
	schemata_release(&f.root);

	/* CDP: both halves get the mask */
	facts_intel(&f, "L3CODE:0=7ff\nL3DATA:0=7ff\nMB:0=100\n");
	f.ncache = 2;
	f.cache[1] = f.cache[0];
	snprintf(f.cache[0].name, sizeof(f.cache[0].name), "L3CODE");
	snprintf(f.cache[1].name, sizeof(f.cache[1].name), "L3DATA");
	ck_assert_int_eq(resctrlqos_plan(&f, &be, NULL, &want, &how, &e), 0);
	text = schemata_format(&want, NULL);
	ck_assert_str_eq(text, "L3CODE:0=f\nL3DATA:0=f\nMB:0=50");
	free(text);
	schemata_release(&want);

	/* format restricted to the lines another schemata names */
	ck_assert_int_eq(schemata_parse("L3DATA:0=1", &want, &e), 0);
	text = schemata_format(&f.root, &want);
	ck_assert_str_eq(text, "L3DATA:0=7ff");
	free(text);
	schemata_release(&want);

	f.cache[0].cbm_mask = 0x7fe;
	ck_assert_int_eq(resctrlqos_plan(&f, &be, NULL, &want, &how, &e), -1);
	ck_assert_str_eq(e.msg,
			 "L3CODE: cbm_mask: expected a contiguous mask from bit 0, got '7fe'");
	schemata_release(&want);
	schemata_release(&f.root);
}
END_TEST

static Suite *schemata_suite(void)
{
	Suite *s = suite_create("schemata");
	TCase *tc = tcase_create("schemata");

	tcase_add_loop_test(tc, test_schemata_cbm_table, 0,
			    (int)(sizeof(cbm_cases) / sizeof(cbm_cases[0])));
	tcase_add_test(tc, test_schemata_cbm_refuses);
	tcase_add_loop_test(tc, test_schemata_mb_table, 0,
			    (int)(sizeof(mb_cases) / sizeof(mb_cases[0])));
	tcase_add_test(tc, test_schemata_vendor);
	tcase_add_test(tc, test_schemata_parse_padded);
	tcase_add_loop_test(tc, test_schemata_parse_bad, 0,
			    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_test(tc, test_schemata_equal_by_id_sparse);
	tcase_add_test(tc, test_schemata_plan_intel_and_amd_sparse);
	tcase_add_test(tc, test_schemata_plan_mb_skipped);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(schemata_suite)
