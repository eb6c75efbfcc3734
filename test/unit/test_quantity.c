// SPDX-License-Identifier: Apache-2.0
/* test_quantity - Kubernetes resource.Quantity parsing and canonical printing
 * (k8s-conventions.md 4.4: every verified case, canonical column) */
#include <string.h>

#include "core/quantity.h"
#include "testlib.h"

/* input -> canonical form */
static const struct {
	const char *in, *want;
} good[] = {
	{ "1000", "1k" },
	{ "1500", "1500" },
	{ "1001", "1001" },
	{ "1024", "1024" }, /* decimal, never 1Ki */
	{ "10000", "10k" },
	{ "1000000", "1M" },
	{ "1000k", "1M" },
	{ "1000m", "1" },
	{ "2000m", "2" },
	{ "0.5", "500m" },
	{ ".5", "500m" },
	{ "0.500", "500m" },
	{ "1.5", "1500m" },
	{ "1.50", "1500m" },
	{ "2.5", "2500m" },
	{ "0.1", "100m" },
	{ "0.01", "10m" },
	{ "0.001", "1m" },
	{ "0.0001", "100u" },
	{ "1.23k", "1230" },
	{ "12.3k", "12300" },
	{ "1.2345k", "1234500m" },
	{ "3.14159", "3141590u" },
	{ "0.123456789", "123456789n" },
	{ "0.1234567891", "123456790n" }, /* rounded up to nano */
	{ "0.1m", "100u" },
	{ "1.5m", "1500u" },
	{ "1n", "1n" },
	{ "1u", "1u" },
	{ "1000n", "1u" },
	{ "1000u", "1m" },
	{ "3.001n", "4n" },
	{ "0.0000000001", "1n" },
	{ "1Ki", "1Ki" },
	{ "1024Ki", "1Mi" },
	{ "2048Mi", "2Gi" },
	{ "1.5Gi", "1536Mi" },
	{ "0.5Gi", "512Mi" },
	{ "1000Ki", "1000Ki" },
	{ "1025Ki", "1025Ki" },
	{ "1023Ki", "1023Ki" },
	{ "1.5Ki", "1536" },
	{ "0.5Ki", "512" },
	{ "0.25Ki", "256" },
	{ "-0.5Ki", "-512" },
	{ "1.1Ki", "1126400m" },
	{ "100.035Ki", "102435840m" },
	{ "8Ei", "9223372036854775807" }, /* capped at 2^63-1 */
	{ "9Ei", "9223372036854775807" },
	{ "9223372036854775808", "9223372036854775808" }, /* decimal: not capped */
	{ ".000000000001Ki", "2n" },
	{ "1e3", "1e3" },
	{ "1E3", "1e3" },
	{ "1e+3", "1e3" },
	{ "1e03", "1e3" },
	{ "01e3", "1e3" },
	{ "1e0", "1" },
	{ "10e2", "1e3" },
	{ "100e1", "1e3" },
	{ "1e1", "10" },
	{ "1e2", "100" },
	{ "1e4", "10e3" },
	{ "1e5", "100e3" },
	{ "1e6", "1e6" },
	{ "1.5e3", "1500" },
	{ "1.2e3", "1200" },
	{ "1e-3", "1e-3" },
	{ "1.5e-3", "1500e-6" },
	{ "1e-7", "100e-9" },
	{ "1e-10", "1e-9" },
	{ "1E-1000", "1e-9" },
	{ "1e19", "10e18" },
	{ "1e1000", "10e999" },
	{ "1E", "1E" }, /* E alone is exa */
	{ "12E", "12E" },
	{ "1000P", "1E" },
	{ "1.5E", "1500P" },
	{ "1000E", "1e21" }, /* no suffix beyond E: exponent form (older releases printed "1") */
	{ "+1", "1" },
	{ "+1Ki", "1Ki" },
	{ "007", "7" },
	{ "0012", "12" },
	{ "01Ki", "1Ki" },
	{ "5.", "5" },
	{ "1.", "1" },
	{ "1.G", "1G" },
	{ "1.Gi", "1Gi" },
	{ "1.500", "1500m" },
	{ "1.100", "1100m" },
	{ "1.0", "1" },
	{ "10.0", "10" },
	{ "1.000", "1" },
	{ "12.000", "12" },
	{ "100.000", "100" },
	{ "1.0k", "1k" },
	{ "1.0Gi", "1Gi" },
	{ "0", "0" },
	{ "00", "0" },
	{ "-0", "0" },
	{ "+0", "0" },
	{ "0.0", "0" },
	{ "0Mi", "0" },
	{ "0m", "0" },
	{ ".", "0" },
	{ "-1.5", "-1500m" },
	{ "-1500m", "-1500m" },
	{ "-1Ki", "-1Ki" },
	/* from the quantity.go comments and kubelet output */
	{ "0.9n", "1n" },
	{ "1.2345", "1234500u" },
	{ "18446744073709551616", "18446744073709551616" },
	{ "2049008Ki", "2049008Ki" },
	{ "-8Ei", "-9223372036854775807" },
	{ "7Ei", "7Ei" },
	{ "-0.0000000001", "-1n" },
	/* no digits at all: zero, as on the reference's fast path */
	{ "+", "0" },
	{ "-", "0" },
	{ "m", "0" },
	{ "E", "0" },
	{ "Ki", "0" },
	{ "-.Ti", "0" },
	{ "e3", "0" },
	{ "e-9", "0" },
	/* precision limits of the representation */
	{ "1e2147483647", "10e2147483646" },
	{ "1e-2147483648", "1e-9" },
	{ "12345678901234567890123456789012345678", "12345678901234567890123456789012345678" },
	{ "1234567890123456789012345678901234567800000",
	  "1234567890123456789012345678901234567800k" },
	{ "100000000000000000000000000000000000000000000000000", "100e48" },
	{ "99999999999999999999999999999.9999999999", "100e27" },
	{ "1.23456789012345678901234567890123456789", "1234567891n" },
	{ "99999999999999999999999999999.9999999990001", "100e27" },
	{ "100000000000000000000000000000.0000000000", "100e27" },
	{ "0.99999999999999999999999999999999999999999", "1" },
	{ "9223372036854775807.0000000001Ki", "9223372036854775807" },
	{ "8796093022207.999999999Mi", "9223372036854775807" },
	{ "0.0000000000000000000000000000000000001Ei", "1n" },
	{ "0.000000000000000000000000000000000000000000000000001Ei", "1n" },
};

START_TEST(test_quantity_canonical)
{
	struct quantity q, back;
	struct err e = { 0 };
	char buf[QUANTITY_STR_MAX], again[QUANTITY_STR_MAX];

	ck_assert_msg(quantity_parse(good[_i].in, &q, &e) == 0, "%s: %s", good[_i].in, e.msg);
	ck_assert_str_eq(quantity_format(&q, buf), good[_i].want);
	/* the canonical form parses back to the same value and prints unchanged */
	ck_assert_msg(quantity_parse(good[_i].want, &back, &e) == 0, "%s: %s", good[_i].want,
		      e.msg);
	ck_assert_str_eq(quantity_format(&back, again), good[_i].want);
	ck_assert_int_eq(quantity_cmp(&q, &back), 0);
}
END_TEST

static const struct {
	const char *in, *why;
} bad[] = {
	{ "", "empty" },
	{ " 1", "unexpected ' ' at byte 0" },
	{ "1 ", "unexpected ' ' at byte 1" },
	{ "10Gi ", "unexpected ' ' at byte 4" },
	{ "1K", "unknown suffix 'K'" },
	{ "1ki", "unknown suffix 'ki'" },
	{ "1KI", "unexpected 'I' at byte 2" },
	{ "1mi", "unknown suffix 'mi'" },
	{ "1i", "unknown suffix 'i'" },
	{ "1e", "unknown suffix 'e'" },
	{ "1.1.1", "unexpected '.' at byte 3" },
	{ "1.5.Gi", "unexpected '.' at byte 3" },
	{ "1+1.0M", "unexpected '.' at byte 3" },
	{ "0.1am", "unexpected 'a' at byte 3" },
	{ "-3.01e-", "unknown suffix 'e-'" },
	{ "1e+", "unknown suffix 'e+'" },
	{ "1Ee3", "unknown suffix 'Ee3'" },
	{ "1ee3", "unknown suffix 'ee3'" },
	{ "1e3.5", "unexpected '.' at byte 3" },
	{ "1k3", "unknown suffix 'k3'" },
	{ "1-", "unknown suffix '-'" },
	{ "--1", "unknown suffix '-1'" },
	{ "0x10", "unexpected 'x' at byte 1" },
	{ "1\n", "unexpected '?' at byte 1" },
	{ "1,5", "unexpected ',' at byte 1" },
	{ "inf", "unexpected 'f' at byte 2" },
	{ "1Ki\xc2\xa0", "unexpected '?' at byte 3" },
	/* no digits where the reference takes its slow path */
	{ "Pi", "no digits" },
	{ "Ei", "no digits" },
	{ ".Ei", "no digits" },
	{ "e-10", "no digits" },
	/* outside what kilo represents (the reference wraps the exponent) */
	{ "1e2147483648", "exponent out of range" },
	{ "1e-2147483649", "exponent out of range" },
	{ "1e99999999999999999999", "exponent out of range" },
	{ "1e18446744073709551626", "exponent out of range" }, /* 2^64 + 10: no wrap */
	{ "1e-9223372036854775808", "exponent out of range" },
	{ "1000e2147483646", "exponent out of range" },
	{ "123456789012345678901234567890123456789", "more than 38 significant digits" },
	{ "999999999999999999999999999999.999999999", "more than 38 significant digits" },
	{ "100000000000000000000000000000.0000000001", "more than 38 significant digits" },
};

START_TEST(test_quantity_rejected)
{
	struct quantity q;
	struct err e = { 0 };
	char want[ERR_MSG_MAX], shown[64];
	size_t i;

	ck_assert_int_eq(quantity_parse(bad[_i].in, &q, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	for (i = 0; bad[_i].in[i] && i < sizeof(shown) - 1; i++)
		shown[i] = bad[_i].in[i] >= ' ' && bad[_i].in[i] < 127 ? bad[_i].in[i] : '?';
	shown[i] = '\0';
	snprintf(want, sizeof(want), "invalid quantity '%s': %s", shown, bad[_i].why);
	ck_assert_str_eq(e.msg, want);
	ck_assert_int_eq(quantity_sign(&q), 0);
}
END_TEST

START_TEST(test_quantity_formats)
{
	struct quantity q;

	ck_assert_int_eq(quantity_parse("1.5Gi", &q, NULL), 0);
	ck_assert_int_eq(q.format, QUANTITY_BINARY_SI);
	ck_assert_int_eq(quantity_parse("0.5Ki", &q, NULL), 0);
	ck_assert_int_eq(q.format, QUANTITY_BINARY_SI); /* 512: binary, printed as decimal */
	ck_assert_int_eq(quantity_parse(".000000000001Ki", &q, NULL), 0);
	ck_assert_int_eq(q.format, QUANTITY_DECIMAL_SI); /* between 0 and 1: switched */
	ck_assert_int_eq(quantity_parse("1e3", &q, NULL), 0);
	ck_assert_int_eq(q.format, QUANTITY_DECIMAL_EXPONENT);
	ck_assert_int_eq(quantity_parse("4", &q, NULL), 0);
	ck_assert_int_eq(q.format, QUANTITY_DECIMAL_SI);
	/* the representation: sign, mantissa without trailing zeros, scale */
	ck_assert_int_eq(quantity_parse("-1500m", &q, NULL), 0);
	ck_assert(q.mantissa == 15); /* 15 * 10^-1 */
	ck_assert_int_eq(q.scale, -1);
	ck_assert_int_eq(q.negative, 1);
}
END_TEST

/* quantity_format() and quantity_cmp() accept a struct built by hand,
 * with trailing zeros in the mantissa or a scale that normalises past int32. */
START_TEST(test_quantity_unnormalised)
{
	struct quantity q = { .mantissa = 1500, .scale = -3 }, r = { .mantissa = 15, .scale = -1 };
	char buf[QUANTITY_STR_MAX];
	int64_t v;

	ck_assert_str_eq(quantity_format(&q, buf), "1500m");
	ck_assert_int_eq(quantity_cmp(&q, &r), 0);
	ck_assert_int_eq(quantity_milli_ceil(&q, &v, NULL), 0);
	ck_assert_int_eq(v, 1500);
	q.mantissa = 10;
	q.scale = INT32_MAX;
	ck_assert_str_eq(quantity_format(&q, buf), "100e2147483646");
	ck_assert_int_eq(quantity_cmp(&q, &r), 1);
	q.negative = 1;
	ck_assert_int_eq(quantity_cmp(&q, &r), -1);
	ck_assert_str_eq(quantity_format(&q, buf), "-100e2147483646");
	q.mantissa = 0;
	ck_assert_str_eq(quantity_format(&q, buf), "0");
	ck_assert_int_eq(quantity_sign(&q), 0);
}
END_TEST

/* NewQuantity / NewMilliQuantity (k8s-conventions.md 4.4) */
static const struct {
	long long v;
	int milli;
	enum quantity_format f;
	const char *want;
} built[] = {
	{ 1000, 0, QUANTITY_BINARY_SI, "1k" },
	{ 1024, 0, QUANTITY_BINARY_SI, "1Ki" },
	{ 1536, 0, QUANTITY_BINARY_SI, "1536" },
	{ 4096000, 0, QUANTITY_BINARY_SI, "4000Ki" },
	{ 4096000, 0, QUANTITY_DECIMAL_SI, "4096k" },
	{ 1000, 1, QUANTITY_DECIMAL_SI, "1" },
	{ 1500, 1, QUANTITY_DECIMAL_SI, "1500m" },
	{ 1500, 1, QUANTITY_BINARY_SI, "1500m" },
	{ 0, 0, QUANTITY_BINARY_SI, "0" },
	{ -2048, 0, QUANTITY_BINARY_SI, "-2Ki" },
	{ 3000, 0, QUANTITY_DECIMAL_EXPONENT, "3e3" },
	{ INT64_MAX, 0, QUANTITY_BINARY_SI, "9223372036854775807" },
	{ INT64_MIN, 0, QUANTITY_BINARY_SI, "-8Ei" },
	{ INT64_MIN, 1, QUANTITY_DECIMAL_SI, "-9223372036854775808m" },
};

START_TEST(test_quantity_constructors)
{
	struct quantity q = built[_i].milli ? quantity_from_milli(built[_i].v, built[_i].f)
					    : quantity_from_int(built[_i].v, built[_i].f);
	char buf[QUANTITY_STR_MAX];

	ck_assert_str_eq(quantity_format(&q, buf), built[_i].want);
	ck_assert_int_eq(q.format, built[_i].f);
}
END_TEST

/* milli and whole conversions: ceil toward +inf, floor toward -inf; "over"
 * is an int64 overflow, which is an error. */
static const struct {
	const char *in, *milli_ceil, *milli_floor, *value_ceil, *value_floor;
} conv[] = {
	{ "1500m", "1500", "1500", "2", "1" },    /* Value() = 2 */
	{ "-1.5", "-1500", "-1500", "-1", "-2" }, /* Value() = -2, the floor */
	{ "0.1", "100", "100", "1", "0" },        /* Value() = 1 */
	{ "0.1m", "1", "0", "1", "0" },
	{ "-0.1m", "0", "-1", "0", "-1" },
	{ "1n", "1", "0", "1", "0" },
	{ "4", "4000", "4000", "4", "4" },
	{ "250m", "250", "250", "1", "0" },
	{ "1.5Gi", "1610612736000", "1610612736000", "1610612736", "1610612736" },
	{ "2049008Ki", "2098184192000", "2098184192000", "2098184192", "2098184192" },
	{ "0", "0", "0", "0", "0" },
	{ "8Ei", "over", "over", "9223372036854775807", "9223372036854775807" },
	{ "-8Ei", "over", "over", "-9223372036854775807", "-9223372036854775807" },
	{ "12E", "over", "over", "over", "over" },
	{ "9223372036854775808", "over", "over", "over", "over" },
	{ "-9223372036854775808", "over", "over", "-9223372036854775808", "-9223372036854775808" },
	{ "9223372036854775807m", "9223372036854775807", "9223372036854775807", "9223372036854776",
	  "9223372036854775" },
	{ "9223372036854775808m", "over", "over", "9223372036854776", "9223372036854775" },
	{ "-9223372036854775808m", "-9223372036854775808", "-9223372036854775808",
	  "-9223372036854775", "-9223372036854776" },
	{ "-9223372036854775809m", "over", "over", "-9223372036854775", "-9223372036854776" },
	{ "9223372036854775.807", "9223372036854775807", "9223372036854775807", "9223372036854776",
	  "9223372036854775" },
	{ "9223372036854775.8071", "over", "9223372036854775807", "9223372036854776",
	  "9223372036854775" },
	{ "1e1000", "over", "over", "over", "over" },
	{ "1e-9", "1", "0", "1", "0" },
};

static void check_conv(int (*fn)(const struct quantity *, int64_t *, struct err *),
		       const struct quantity *q, const char *want, const char *in, const char *unit)
{
	struct err e = { 0 };
	int64_t got = 12345;
	char msg[ERR_MSG_MAX], shown[QUANTITY_STR_MAX];

	if (strcmp(want, "over") == 0) {
		ck_assert_msg(fn(q, &got, &e) == -1, "%s: got %lld", in, (long long)got);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		snprintf(msg, sizeof(msg), "quantity '%s' does not fit int64 %s",
			 quantity_format(q, shown), unit);
		ck_assert_str_eq(e.msg, msg);
		ck_assert_int_eq(got, 12345); /* never a wrapped value */
	} else {
		ck_assert_msg(fn(q, &got, &e) == 0, "%s: %s", in, e.msg);
		ck_assert_msg(got == strtoll(want, NULL, 10), "%s: got %lld, want %s", in,
			      (long long)got, want);
	}
}

START_TEST(test_quantity_conversions)
{
	struct quantity q;

	ck_assert_int_eq(quantity_parse(conv[_i].in, &q, NULL), 0);
	check_conv(quantity_milli_ceil, &q, conv[_i].milli_ceil, conv[_i].in, "milli-units");
	check_conv(quantity_milli_floor, &q, conv[_i].milli_floor, conv[_i].in, "milli-units");
	check_conv(quantity_value_ceil, &q, conv[_i].value_ceil, conv[_i].in, "units");
	check_conv(quantity_value_floor, &q, conv[_i].value_floor, conv[_i].in, "units");
}
END_TEST

/* sorted ascending; equal neighbours marked */
static const struct {
	const char *in;
	int equal_to_previous;
} order[] = {
	{ "-8Ei", 0 },   { "-1Ki", 0 },       { "-1.5", 0 },  { "-1500m", 1 }, { "-1n", 0 },
	{ "0", 0 },      { "-0", 1 },         { "0Gi", 1 },   { "1n", 0 },     { "0.1m", 0 },
	{ "100u", 1 },   { "1", 0 },          { "1000m", 1 }, { "1e0", 1 },    { "1000", 0 },
	{ "1k", 1 },     { "1e3", 1 },        { "1Ki", 0 },   { "1024", 1 },   { "1.5Gi", 0 },
	{ "1536Mi", 1 }, { "1610612736", 1 }, { "8Ei", 0 },   { "12E", 0 },    { "1e1000", 0 },
};

START_TEST(test_quantity_cmp)
{
	struct quantity a, b;

	ck_assert_int_eq(quantity_parse(order[_i].in, &b, NULL), 0);
	ck_assert_int_eq(quantity_cmp(&b, &b), 0);
	if (_i == 0)
		return;
	ck_assert_int_eq(quantity_parse(order[_i - 1].in, &a, NULL), 0);
	ck_assert_int_eq(quantity_cmp(&a, &b), order[_i].equal_to_previous ? 0 : -1);
	ck_assert_int_eq(quantity_cmp(&b, &a), order[_i].equal_to_previous ? 0 : 1);
}
END_TEST

/* UnmarshalJSON: quotes stripped, white space trimmed, numbers accepted */
static const struct {
	const char *json, *want; /* want NULL: refused */
} json_cases[] = {
	{ "\" 1 \"", "1" },
	{ "\"\\t1.5Gi\\n\"", "1536Mi" },
	{ "\"\\u00a0250m\\u3000\"", "250m" },
	{ "4", "4" },
	{ "1000", "1k" },
	{ "-3", "-3" },
	{ "1.5", "1500m" },
	{ "0.1", "100m" },
	{ "1e3", "1k" }, /* a JSON real: value kept, format decimal */
	{ "2.5e-3", "2500u" },
	{ "0.30000000000000004", "300000001n" }, /* 17 digits: 0.1 + 0.2 */
	{ "123456.789012", "123456789012u" },
	{ "null", "0" },
	{ "\"\"", NULL },
	{ "\"  \"", NULL },
	{ "\"1K\"", NULL },
	{ "\"1\\u0000\"", NULL },
	{ "true", NULL },
	{ "[1]", NULL },
	{ "{\"a\":1}", NULL },
};

START_TEST(test_quantity_from_json)
{
	json_error_t jerr;
	json_auto_t *v = json_loads(json_cases[_i].json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	struct quantity q;
	struct err e = { 0 };
	char buf[QUANTITY_STR_MAX];

	ck_assert_msg(v != NULL, "%s: %s", json_cases[_i].json, jerr.text);
	if (json_cases[_i].want) {
		ck_assert_msg(quantity_from_json(v, &q, &e) == 0, "%s: %s", json_cases[_i].json,
			      e.msg);
		ck_assert_str_eq(quantity_format(&q, buf), json_cases[_i].want);
	} else {
		ck_assert_int_eq(quantity_from_json(v, &q, &e), -1);
		ck_assert_int_eq(e.kind, ERR_INPUT);
	}
}
END_TEST

START_TEST(test_quantity_get)
{
	json_auto_t *obj = json_pack("{s:s, s:i, s:s, s:b, s:n}", "kubernetes.io/batch-cpu", "3500",
				     "pods", 110, "memory", "1x", "bad", 1, "none");
	struct quantity q = quantity_from_int(7, QUANTITY_DECIMAL_SI);
	struct err e = { 0 };
	char buf[QUANTITY_STR_MAX];
	int64_t milli;

	ck_assert_int_eq(
		quantity_get(obj, "Node.status.allocatable", "kubernetes.io/batch-cpu", &q, &e), 1);
	ck_assert_int_eq(quantity_milli_ceil(&q, &milli, &e), 0);
	ck_assert_int_eq(milli, 3500000);
	ck_assert_int_eq(quantity_get(obj, "Node.status.allocatable", "pods", &q, &e), 1);
	ck_assert_str_eq(quantity_format(&q, buf), "110");
	ck_assert_int_eq(quantity_get(obj, "Node.status.allocatable", "absent", &q, &e), 0);
	ck_assert_str_eq(quantity_format(&q, buf), "110");
	ck_assert_int_eq(quantity_get(obj, "Node.status.allocatable", "none", &q, &e), 1);
	ck_assert_str_eq(quantity_format(&q, buf), "0");
	ck_assert_int_eq(quantity_get(obj, "Node.status.allocatable", "memory", &q, &e), -1);
	ck_assert_str_eq(e.msg, "Node.status.allocatable.memory: invalid quantity '1x': "
				"unexpected 'x' at byte 1");
	ck_assert_int_eq(quantity_get(obj, "Node.status.allocatable", "bad", &q, &e), -1);
	ck_assert_str_eq(e.msg, "Node.status.allocatable.bad: expected a quantity (string or "
				"number), got true");
}
END_TEST

#define N(a) (sizeof(a) / sizeof((a)[0]))

static Suite *quantity_suite(void)
{
	Suite *s = suite_create("quantity");
	TCase *tc = tcase_create("quantity");

	tcase_add_loop_test(tc, test_quantity_canonical, 0, N(good));
	tcase_add_loop_test(tc, test_quantity_rejected, 0, N(bad));
	tcase_add_test(tc, test_quantity_formats);
	tcase_add_test(tc, test_quantity_unnormalised);
	tcase_add_loop_test(tc, test_quantity_constructors, 0, N(built));
	tcase_add_loop_test(tc, test_quantity_conversions, 0, N(conv));
	tcase_add_loop_test(tc, test_quantity_cmp, 0, N(order));
	tcase_add_loop_test(tc, test_quantity_from_json, 0, N(json_cases));
	tcase_add_test(tc, test_quantity_get);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(quantity_suite)
