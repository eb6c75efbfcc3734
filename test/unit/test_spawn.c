// SPDX-License-Identifier: Apache-2.0
/* test_spawn - children with a deadline: output, exit status, the process
 * group killed at the deadline, a child that closes its output and runs on */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "remote/spawn.h"
#include "testlib.h"

struct buf {
	char text[256];
	size_t len;
};

static void feed(void *arg, const char *s, size_t n)
{
	struct buf *b = arg;

	if (n > sizeof(b->text) - 1 - b->len)
		n = sizeof(b->text) - 1 - b->len;
	memcpy(b->text + b->len, s, n);
	b->len += n;
	b->text[b->len] = '\0';
}

static int run_sh(const char *script, int merge, int64_t timeout_ms, struct buf *b,
		  struct spawn_result *r)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)script, NULL };
	struct spawn_opts o = { .argv = argv,
				.merge_stderr = merge,
				.timeout_ms = timeout_ms,
				.feed = feed,
				.arg = b };
	struct err e = { 0 };

	memset(b, 0, sizeof(*b));
	return spawn_run(&o, r, &e);
}

START_TEST(test_spawn_output_and_status)
{
	struct spawn_result r;
	struct buf b;

	ck_assert_int_eq(run_sh("echo out; echo err >&2; exit 3", 1, 5000, &b, &r), 0);
	ck_assert_int_eq(r.timed_out, 0);
	ck_assert_int_eq(r.exited, 1);
	ck_assert_int_eq(r.code, 3);
	ck_assert_str_eq(b.text, "out\nerr\n");
	ck_assert_int_eq(run_sh("echo out; echo err >/dev/null", 0, 5000, &b, &r), 0);
	ck_assert_str_eq(b.text, "out\n");
	ck_assert_int_eq(r.code, 0);
	ck_assert_int_eq(run_sh("read x; echo \"got '$x'\"", 0, 5000, &b, &r), 0);
	ck_assert_str_eq(b.text, "got ''\n"); /* stdin is /dev/null */
	ck_assert_int_eq(run_sh("kill -TERM $$", 0, 5000, &b, &r), 0);
	ck_assert_int_eq(r.exited, 0);
	ck_assert_int_eq(r.code, SIGTERM);
}
END_TEST

/* A child that hangs, one that closes its output and runs on, and one whose
 * grandchild holds the pipe: each is killed, with its group, at the
 * deadline. */
START_TEST(test_spawn_deadline_kills_the_group)
{
	static const char *const scripts[] = {
		"sleep 29.713",
		"exec >/dev/null; sleep 29.713",
		"(sleep 29.713; echo late) & echo started",
	};
	struct spawn_result r;
	struct buf b;
	int64_t t0 = clock_mono_ms();

	ck_assert_int_eq(run_sh(scripts[_i], 0, 300, &b, &r), 0);
	ck_assert_int_eq(r.timed_out, 1);
	ck_assert_int_lt(clock_mono_ms() - t0, 10000);
	/* nothing of the group survives: the grandchild's sleep is gone */
	ck_assert_int_eq(system("pgrep -f '^sleep 29[.]713$' >/dev/null"), 256);
}
END_TEST

START_TEST(test_spawn_not_found)
{
	char *argv[] = { (char *)"kilo-no-such-command", NULL };
	struct spawn_opts o = { .argv = argv, .timeout_ms = 1000 };
	struct spawn_result r;
	struct err e = { 0 };

	ck_assert_int_eq(spawn_run(&o, &r, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_ptr_nonnull(strstr(e.msg, "run 'kilo-no-such-command'"));
}
END_TEST

static Suite *spawn_suite(void)
{
	Suite *s = suite_create("spawn");
	TCase *tc = tcase_create("spawn");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_spawn_output_and_status);
	tcase_add_loop_test(tc, test_spawn_deadline_kills_the_group, 0, 3);
	tcase_add_test(tc, test_spawn_not_found);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(spawn_suite)
