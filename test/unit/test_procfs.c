// SPDX-License-Identifier: Apache-2.0
/* test_procfs - /proc/stat, /proc/meminfo and /proc/<pid>/stat parsers */
#include <stdlib.h>
#include <string.h>

#include "kernel/procfs.h"
#include "testlib.h"

static const char stat_text[] = "cpu  100 20 30 1000 50 6 4 10 7 0\n"
				"cpu0 50 10 15 500 25 3 2 5 0 0\n"
				"intr 12345\nctxt 999\nbtime 1764430000\nprocesses 42\n";

START_TEST(test_procfs_stat)
{
	struct err e = { 0 };
	int64_t ns = 0, bt = 0;

	/* busy = user 100 + nice 20 + system 30 + irq 6 + softirq 4 + steal 10 */
	ck_assert_int_eq(procfs_parse_cpu_busy(stat_text, 100, &ns, &e), 0);
	ck_assert_int_eq(ns, 170 * 10000000LL);
	ck_assert_int_eq(procfs_parse_cpu_busy("cpu  1 2 3\n", 100, &ns, &e), -1);
	ck_assert_int_eq(procfs_parse_cpu_busy("cpu  1 2 3 4 5\n", 1000, &ns, &e), 0);
	ck_assert_int_eq(ns, 6 * 1000000LL);
	ck_assert_int_eq(procfs_parse_cpu_busy("cpu0 1 2 3 4 5\n", 100, &ns, &e), -1);
	ck_assert_str_eq(e.msg, "stat: no aggregate cpu line");
	ck_assert_int_eq(procfs_parse_btime(stat_text, &bt, &e), 0);
	ck_assert_int_eq(bt, 1764430000);
	ck_assert_int_eq(procfs_parse_btime("cpu 1\n", &bt, &e), -1);
	/* six fields that each fit in 64 bits but whose sum wraps: out of
	 * range, not a small busy time */
	ns = 7;
	ck_assert_int_eq(procfs_parse_cpu_busy("cpu  9223372036854775807 9223372036854775807 "
					       "9223372036854775807 0 0 0 0 2\n",
					       100, &ns, &e),
			 -1);
	ck_assert_int_eq(ns, 7);
	ck_assert_int_eq(procfs_parse_cpu_busy("cpu  18446744073709551615 1 0 0 0 0 0 0\n", 100,
					       &ns, &e),
			 -1);
	ck_assert_int_eq(ns, 7);
	ck_assert_int_eq(procfs_parse_btime("btime -5\n", &bt, &e), -1);
	ck_assert_int_eq(procfs_parse_btime("btime 99999999999999999999\n", &bt, &e), -1);
	ck_assert_int_eq(bt, 1764430000);
}
END_TEST

static const struct {
	const char *text;
	int ok;
	unsigned long long ticks;
} pidstat[] = {
	{ "4242 (java) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 6 0 0 20 0 30 0 123456 1000 10", 1,
	  123456 },
	{ "7 (a b) c)) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 1 1\n", 1, 99 },
	{ "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0", 0, 0 },
	{ "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 x 1", 0, 0 },
	{ "no parens here", 0, 0 },
	{ "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 -5 1", 0, 0 },
};

START_TEST(test_procfs_starttime)
{
	struct err e = { 0 };
	uint64_t t = 0;

	ck_assert_int_eq(procfs_parse_starttime(pidstat[_i].text, &t, &e), pidstat[_i].ok ? 0 : -1);
	if (pidstat[_i].ok)
		ck_assert_uint_eq(t, pidstat[_i].ticks);
	else
		ck_assert_int_eq(e.kind, ERR_INPUT);
}
END_TEST

START_TEST(test_procfs_ticks_to_ms)
{
	ck_assert_int_eq(procfs_ticks_to_ms(1000, 250, 100), 1002500);
	ck_assert_int_eq(procfs_ticks_to_ms(1000, 7, 1000), 1000007);
	/* found by fuzz_procfs: a starttime near 2^64 overflowed int64 */
	ck_assert_int_eq(procfs_ticks_to_ms(1000, 18446744073709551615ULL, 100), INT64_MAX);
	ck_assert_int_eq(procfs_ticks_to_ms(INT64_MAX / 1000, 100, 100), INT64_MAX);
}
END_TEST

START_TEST(test_procfs_meminfo)
{
	struct procfs_meminfo mi;
	struct err e = { 0 };

	ck_assert_int_eq(procfs_parse_meminfo("MemTotal:       16000 kB\nMemFree:  100 kB\n"
					      "MemAvailable:    4000 kB\n",
					      &mi, &e),
			 0);
	ck_assert_int_eq(mi.total, 16000 * 1024);
	ck_assert_int_eq(mi.available, 4000 * 1024);
	ck_assert_int_eq(procfs_parse_meminfo("MemTotal: 16000 kB\n", &mi, &e), 0);
	ck_assert_int_eq(mi.available, -1);
	ck_assert_int_eq(procfs_parse_meminfo("MemFree: 1 kB\n", &mi, &e), -1);
	ck_assert_int_eq(procfs_parse_meminfo("MemTotal: x kB\n", &mi, &e), -1);
	ck_assert_int_eq(procfs_parse_meminfo("MemTotal: -1 kB\n", &mi, &e), -1);
	ck_assert_int_eq(procfs_parse_meminfo("MemTotal: 9007199254740993 kB\n", &mi, &e), -1);
	ck_assert_str_eq(e.msg, "meminfo: bad value for MemTotal");
}
END_TEST

START_TEST(test_procfs_read_tree)
{
	struct sysroot sr;
	struct err e = { 0 };
	char *root = testlib_tmpdir(), *list = NULL;
	uint64_t t = 0;
	int n = 0;

	testlib_write(root, "proc/77/stat", pidstat[0].text);
	testlib_write(root, "sys/devices/system/cpu/online", "0-3,6\n");
	ck_assert_int_eq(sysroot_open(&sr, root, &e), 0);
	ck_assert_int_eq(procfs_read_starttime(&sr, 77, &t, &e), 0);
	ck_assert_uint_eq(t, 123456);
	ck_assert_int_eq(procfs_read_starttime(&sr, 78, &t, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_int_eq(procfs_read_cpus_online(&sr, &list, &n, &e), 0);
	ck_assert_str_eq(list, "0-3,6");
	ck_assert_int_eq(n, 5);
	free(list);
	testlib_write(root, "sys/devices/system/cpu/online", "0-x\n");
	ck_assert_int_eq(procfs_read_cpus_online(&sr, &list, &n, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "sys/devices/system/cpu/online"));
	sysroot_release(&sr);
	testlib_rmtree(root);
	free(root);
}
END_TEST

static Suite *procfs_suite(void)
{
	Suite *s = suite_create("procfs");
	TCase *tc = tcase_create("procfs");

	tcase_add_test(tc, test_procfs_stat);
	tcase_add_loop_test(tc, test_procfs_starttime, 0, sizeof(pidstat) / sizeof(pidstat[0]));
	tcase_add_test(tc, test_procfs_ticks_to_ms);
	tcase_add_test(tc, test_procfs_meminfo);
	tcase_add_test(tc, test_procfs_read_tree);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(procfs_suite)
