// SPDX-License-Identifier: Apache-2.0
/* test_core - err, cli and clock */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/err.h"
#include "core/jsonio.h"
#include "core/num.h"
#include "testlib.h"

START_TEST(test_err_set_wrap_and_exit_codes)
{
	struct err e = { 0 };

	ck_assert_int_eq(err_set(&e, ERR_SYSTEM, EBUSY, "write '%s'", "/x/cpu.shares"), -1);
	ck_assert_str_eq(e.msg, "write '/x/cpu.shares': Device or resource busy");
	ck_assert_int_eq(err_wrap(&e, "set cpu.shares for '%s'", "hadoop-yarn"), -1);
	ck_assert_str_eq(
		e.msg,
		"set cpu.shares for 'hadoop-yarn': write '/x/cpu.shares': Device or resource busy");
	ck_assert_int_eq(e.kind, ERR_SYSTEM);
	ck_assert_int_eq(e.errnum, EBUSY);
	ck_assert_int_eq(err_exit_code(&e), 1);
	e.kind = ERR_INPUT;
	ck_assert_int_eq(err_exit_code(&e), 2);
	e.kind = ERR_TEMP;
	ck_assert_int_eq(err_exit_code(&e), 75);
	ck_assert_str_eq(err_kind_name(ERR_TEMP), "temporary");
	err_clear(&e);
	ck_assert_int_eq(err_exit_code(&e), 0);
}
END_TEST

START_TEST(test_err_wrap_truncates_safely)
{
	struct err e = { 0 };
	char big[2000];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	err_set(&e, ERR_INPUT, 0, "%s", big);
	ck_assert_int_eq(strlen(e.msg), ERR_MSG_MAX - 1);
	err_wrap(&e, "%s", big);
	ck_assert_int_eq(strlen(e.msg), ERR_MSG_MAX - 1);
}
END_TEST

/* From a review: a message cut at ERR_MSG_MAX in the middle of a UTF-8
 * sequence ("é" is 2 bytes) was not valid UTF-8, and the report's JSON
 * string for it came out null.  The cut keeps whole characters only. */
START_TEST(test_err_cut_keeps_utf8_whole)
{
	struct err e = { 0 };
	char big[1200] = "xy"; /* 2 + 2k bytes: the cut at 511 would split a character */
	json_t *s;

	for (int i = 0; i < 500; i++)
		memcpy(big + 2 + 2 * i, "\xc3\xa9", 3);
	err_set(&e, ERR_REMOTE, 0, "%s", big);
	ck_assert_int_eq(strlen(e.msg), ERR_MSG_MAX - 2);
	s = json_string(e.msg);
	ck_assert_ptr_nonnull(s);
	json_decref(s);
	/* a 3-byte character cut after its first or second byte */
	for (int lead = 0; lead < 3; lead++) {
		char m[ERR_MSG_MAX + 8];

		memset(m, 'a', sizeof(m));
		memcpy(m + ERR_MSG_MAX - 3 + lead, "\xe2\x82\xac", 3); /* the euro sign */
		m[sizeof(m) - 1] = '\0';
		err_set(&e, ERR_REMOTE, 0, "%s", m);
		s = json_string(e.msg);
		ck_assert_msg(s != NULL, "cut at offset %d is not UTF-8", lead);
		json_decref(s);
	}
}
END_TEST

/* Found by fuzz_cgroup: a quoted file content with a newline made the
 * message two lines; every message stays one line. */
START_TEST(test_err_one_line)
{
	struct err e = { 0 };

	err_set(&e, ERR_INPUT, 0, "cpu.max: got '%s'", "max 001=000\n\tx\r\001");
	ck_assert_str_eq(e.msg, "cpu.max: got 'max 001=000\\n\\tx\\r\\x01'");
	err_wrap(&e, "read '%s'", "a\nb");
	ck_assert_str_eq(e.msg, "read 'a\\nb': cpu.max: got 'max 001=000\\n\\tx\\r\\x01'");
}
END_TEST

/* A server that echoes a secret (the token it refused, the RM password):
 * every registered secret is replaced before a message or a quoted value is
 * cut, so not even a part of it shows; short ones are not looked for. */
START_TEST(test_err_secrets)
{
	char token[300], big[700];
	struct err e = { 0 };
	json_t *v;

	memset(token, 'T', sizeof(token) - 1);
	token[sizeof(token) - 1] = '\0';
	memcpy(token, "s3cr3t-", 7);
	err_secret_add(token);
	err_secret_add("pw"); /* shorter than ERR_SECRET_MIN: not looked for */
	err_secret_add("MARKER@PASS-1");
	err_set(&e, ERR_REMOTE, 0, "GET /api: token %s is invalid (%s)", token, token);
	ck_assert_str_eq(e.msg, "GET /api: token [redacted] is invalid ([redacted])");
	/* past ERR_MSG_MAX the secret went first: no prefix of it is left */
	snprintf(big, sizeof(big), "%.480s %s", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		 token);
	err_set(&e, ERR_REMOTE, 0, "%s", big);
	ck_assert_ptr_null(strstr(e.msg, "s3cr3t"));
	ck_assert_ptr_nonnull(strstr(e.msg, "[redacted]"));
	err_wrap(&e, "user kilo:%s", "MARKER@PASS-1");
	ck_assert_ptr_null(strstr(e.msg, "MARKER"));
	/* a quoted value is cut at 80 bytes: the secret is replaced before */
	v = json_pack("[s]", token);
	jsonio_bad_value(&e, "Pod", "metadata.name", "a name", v);
	ck_assert_str_eq(e.msg, "Pod.metadata.name: expected a name, got [\"[redacted]\"]");
	json_decref(v);
	err_set(&e, ERR_REMOTE, 0, "pw and pwd stay");
	ck_assert_str_eq(e.msg, "pw and pwd stay");
	err_secret_clear();
	err_set(&e, ERR_REMOTE, 0, "%s", "MARKER@PASS-1");
	ck_assert_str_eq(e.msg, "MARKER@PASS-1");
}
END_TEST

START_TEST(test_cli_parse_and_exit_for_items)
{
	struct err e = { 0 };
	int64_t v = 0;

	ck_assert_int_eq(cli_parse_i64("250", "--grace-period", 0, 600000, &v, &e), 0);
	ck_assert_int_eq(v, 250);
	ck_assert_int_eq(cli_parse_i64("-1", "--grace-period", 0, 600000, &v, &e), -1);
	ck_assert_str_eq(e.msg,
			 "invalid value for --grace-period: '-1' (expected an integer 0..600000)");
	ck_assert_int_eq(cli_parse_i64("12ms", "--x", 0, 10, &v, &e), -1);
	ck_assert_int_eq(cli_parse_i64("", "--x", 0, 10, &v, &e), -1);
	ck_assert_int_eq(cli_parse_i64(" 1", "--x", 0, 10, &v, &e), -1);
	ck_assert_int_eq(cli_parse_i64("99999999999999999999", "--x", 0, INT64_MAX, &v, &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE);
	ck_assert_int_eq(cli_exit_for_items(0, 0), 0);
	ck_assert_int_eq(cli_exit_for_items(5, 0), 0);
	ck_assert_int_eq(cli_exit_for_items(5, 2), 3);
	ck_assert_int_eq(cli_exit_for_items(5, 5), 1);
}
END_TEST

START_TEST(test_cli_fail)
{
	struct err e = { 0 };

	err_set(&e, ERR_USAGE, 0, "bad value");
	ck_assert_int_eq(cli_fail(&e, 0), KILO_EXIT_USAGE); /* e's own code */
	ck_assert_int_eq(cli_fail(&e, KILO_EXIT_FAIL), KILO_EXIT_FAIL);
}
END_TEST

START_TEST(test_num_checked_at_int64_edges)
{
	int64_t v = 7;

	ck_assert_int_eq(num_add(INT64_MAX - 1, 1, &v), 0);
	ck_assert_int_eq(v, INT64_MAX);
	ck_assert_int_eq(num_add(INT64_MAX, 1, &v), -1);
	ck_assert_int_eq(v, INT64_MAX); /* unchanged on overflow */
	ck_assert_int_eq(num_add(INT64_MIN, -1, &v), -1);
	ck_assert_int_eq(num_sub(INT64_MIN + 1, 1, &v), 0);
	ck_assert_int_eq(v, INT64_MIN);
	ck_assert_int_eq(num_sub(0, INT64_MIN, &v), -1);
	ck_assert_int_eq(num_sub(-2, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_mul(INT64_C(1) << 42, INT64_C(1) << 20, &v), 0);
	ck_assert_int_eq(v, INT64_C(1) << 62);
	ck_assert_int_eq(num_mul(INT64_C(1) << 43, INT64_C(1) << 20, &v), -1); /* 2^63 */
	ck_assert_int_eq(num_mul(-1, INT64_MIN, &v), -1);
	ck_assert_int_eq(num_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &v), 0);
	ck_assert_int_eq(v, INT64_MIN);
	ck_assert_int_eq(num_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64(" 1", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("1 ", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64(NULL, INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("11", 0, 10, &v), -1);
	/* strtoll skips any leading white space; a whole integer has none */
	ck_assert_int_eq(num_parse_i64("\n1", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("\v1", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("+", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("-", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("0x10", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("+-5", INT64_MIN, INT64_MAX, &v), -1);
	ck_assert_int_eq(num_parse_i64("+5", INT64_MIN, INT64_MAX, &v), 0);
	ck_assert_int_eq(v, 5);
	ck_assert_int_eq(num_parse_i64("-3", -10, -1, &v), 0);
	ck_assert_int_eq(v, -3);
}
END_TEST

/* num_scan_*: an integer at the start of a text, as kernel files and
 * headers print them: digits only (a '-' for a signed range), the text
 * after it left to the caller. */
START_TEST(test_num_scan)
{
	const char *p, *t;
	int64_t v = 7;
	uint64_t u = 7;

	p = t = "123 kB";
	ck_assert_int_eq(num_scan_i64(&p, 0, INT64_MAX, &v), 0);
	ck_assert_int_eq(v, 123);
	ck_assert_ptr_eq(p, t + 3);
	p = t = "-5,";
	ck_assert_int_eq(num_scan_i64(&p, INT64_MIN, INT64_MAX, &v), 0);
	ck_assert_int_eq(v, -5);
	ck_assert_ptr_eq(p, t + 2);
	p = t = "-5";
	ck_assert_int_eq(num_scan_i64(&p, 0, INT64_MAX, &v), -1); /* below the range */
	ck_assert_ptr_eq(p, t);
	ck_assert_int_eq(v, -5);
	p = t = " 5"; /* no leading blank */
	ck_assert_int_eq(num_scan_i64(&p, 0, INT64_MAX, &v), -1);
	p = t = "+5";
	ck_assert_int_eq(num_scan_i64(&p, 0, INT64_MAX, &v), -1);
	p = t = "99999999999999999999";
	ck_assert_int_eq(num_scan_i64(&p, 0, INT64_MAX, &v), -1);
	ck_assert_ptr_eq(p, t);
	p = t = "9223372036854775807\n";
	ck_assert_int_eq(num_scan_i64(&p, 0, INT64_MAX, &v), 0);
	ck_assert_int_eq(v, INT64_MAX);
	ck_assert_ptr_eq(p, t + 19);
	p = t = "ff0=1";
	ck_assert_int_eq(num_scan_u64(&p, 16, UINT64_MAX, &u), 0);
	ck_assert_uint_eq(u, 0xff0);
	ck_assert_ptr_eq(p, t + 3);
	p = t = "-1"; /* strtoull takes this as 2^64-1 */
	ck_assert_int_eq(num_scan_u64(&p, 16, UINT64_MAX, &u), -1);
	ck_assert_uint_eq(u, 0xff0);
	p = t = "0x10";
	ck_assert_int_eq(num_scan_u64(&p, 16, UINT64_MAX, &u), 0);
	ck_assert_uint_eq(u, 0); /* the digits stop at the x */
	ck_assert_ptr_eq(p, t + 1);
	p = t = "18446744073709551615";
	ck_assert_int_eq(num_scan_u64(&p, 10, UINT64_MAX, &u), 0);
	ck_assert_uint_eq(u, UINT64_MAX);
	p = t = "18446744073709551616";
	ck_assert_int_eq(num_scan_u64(&p, 10, UINT64_MAX, &u), -1);
	p = t = "65536";
	ck_assert_int_eq(num_scan_u64(&p, 10, 65535, &u), -1);
	p = t = "";
	ck_assert_int_eq(num_scan_u64(&p, 10, 65535, &u), -1);
}
END_TEST

START_TEST(test_clock_rfc3339)
{
	char buf[40];
	int64_t ms = 0;

	ck_assert_str_eq(clock_format_rfc3339(1796054400000LL, buf, sizeof(buf)),
			 "2026-11-30T16:00:00Z");
	/* four digits, as the parse reads them */
	ck_assert_int_eq(clock_parse_rfc3339("0999-01-01T00:00:00Z", &ms), 0);
	ck_assert_str_eq(clock_format_rfc3339(ms, buf, sizeof(buf)), "0999-01-01T00:00:00Z");
	ck_assert_int_eq(clock_parse_rfc3339("2026-11-30T16:00:00Z", &ms), 0);
	ck_assert_int_eq(ms, 1796054400000LL);
	ck_assert_int_eq(clock_parse_rfc3339("2026-11-30T17:00:00.250+01:00", &ms), 0);
	ck_assert_int_eq(ms, 1796054400250LL);
	ck_assert_int_eq(clock_parse_rfc3339("2026-11-30 16:00:00Z", &ms), -1);
	ck_assert_int_eq(clock_parse_rfc3339("2026-13-30T16:00:00Z", &ms), -1);
	ck_assert_int_eq(clock_parse_rfc3339("2026-11-30T16:00:00", &ms), -1);
	setenv("KILO_NOW", "2026-11-29T16:00:00Z", 1);
	ck_assert_int_eq(clock_now_ms(), 1796054400000LL - 86400000LL);
	setenv("KILO_NOW", "12345", 1);
	ck_assert_int_eq(clock_now_ms(), 12345);
	unsetenv("KILO_NOW");
	ck_assert(clock_now_ms() > 1700000000000LL);
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_err_set_wrap_and_exit_codes);
	tcase_add_test(tc, test_err_one_line);
	tcase_add_test(tc, test_err_cut_keeps_utf8_whole);
	tcase_add_test(tc, test_err_secrets);
	tcase_add_test(tc, test_err_wrap_truncates_safely);
	tcase_add_test(tc, test_cli_parse_and_exit_for_items);
	tcase_add_test(tc, test_cli_fail);
	tcase_add_test(tc, test_clock_rfc3339);
	tcase_add_test(tc, test_num_checked_at_int64_edges);
	tcase_add_test(tc, test_num_scan);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(core_suite)
