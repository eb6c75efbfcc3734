// SPDX-License-Identifier: Apache-2.0
/* test_cgcache - qos-cgset's cache of container cgroup files: what is kept
 * between passes, what makes an entry stale (time, inode, clock steps),
 * what is saved and when the file is left alone, memos, bad state files */
#include <string.h>
#include <unistd.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "run/cgcache.h"
#include "testlib.h"

#define Y "/kubepods/besteffort/hadoop-yarn"
#define ID2 "container_e17_1410901177871_0001_01_000002"
#define ID3 "container_e17_1410901177871_0001_01_000003"
#define C2 Y "/" ID2
#define C3 Y "/" ID3
#define MIN 60000 /* the default --recheck, ms */

static char *dir, *path;

static void setup(void)
{
	dir = testlib_tmpdir();
	path = xasprintf("%s/state.json", dir);
}

static void teardown(void)
{
	testlib_rmtree(dir);
	free(path);
	free(dir);
}

/* A container with dirs in cpuset (inode base) and memory (base + 1). */
static struct cgroup_container ct(const char *id, uint64_t base)
{
	struct cgroup_container c = { .ctrls = 1u << CGROUP_CPUSET | 1u << CGROUP_MEMORY };

	snprintf(c.id, sizeof(c.id), "%s", id);
	c.ino[CGROUP_CPUSET] = base;
	c.ino[CGROUP_MEMORY] = base + 1;
	return c;
}

/* A cache for a pass at now, loaded from path. */
static struct cgcache *pass(int64_t now)
{
	struct cgcache *c = cgcache_new(Y, now, MIN);
	struct err e = { 0 };

	ck_assert_msg(cgcache_load(c, path, &e) >= 0, "%s", e.msg);
	return c;
}

/* The value of file of dir (ctrl, cg), or "(none)" / "(absent)". */
static const char *get(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file)
{
	const char *v = NULL;
	int64_t age = -1;

	if (!cgcache_get(c, ctrl, cg, file, &v, &age))
		return "(none)";
	return v ? v : "(absent)";
}

static int save(const struct cgcache *c)
{
	struct err e = { 0 };
	int r = cgcache_save(c, path, &e);

	ck_assert_msg(r >= 0, "%s", e.msg);
	return r;
}

/* A pass at now that caches cpuset.cpus "0-3" for a and saves. */
static void fill(int64_t now, const struct cgroup_container *a)
{
	struct cgcache *c = pass(now);

	cgcache_enter(c, a);
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-3");
	ck_assert_int_eq(save(c), 1);
	cgcache_free(c);
}

/* The first pass fills the cache; the next, within the recheck period,
 * finds every value without reading and leaves the file alone. */
START_TEST(test_cgcache_round_trip_and_no_rewrite)
{
	struct cgroup_container a = ct(ID2, 100);
	struct cgcache *c = pass(1000000);
	const char *v = NULL;
	int64_t age = -1;

	cgcache_enter(c, &a);
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)");
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-3");
	cgcache_put(c, CGROUP_CPUSET, C2, "cgroup.procs", "10\n11");
	cgcache_put(c, CGROUP_MEMORY, C2, "memory.oom.group", NULL);
	ck_assert_int_eq(save(c), 1);
	cgcache_free(c);

	c = pass(1000000 + 12345);
	cgcache_enter(c, &a);
	ck_assert(cgcache_get(c, CGROUP_CPUSET, C2, "cpuset.cpus", &v, &age));
	ck_assert_str_eq(v, "0-3");
	ck_assert_int_eq(age, 12345);
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cgroup.procs"), "10\n11");
	ck_assert_str_eq(get(c, CGROUP_MEMORY, C2, "memory.oom.group"), "(absent)");
	/* cgroup.procs of another controller is another file */
	ck_assert_str_eq(get(c, CGROUP_MEMORY, C2, "cgroup.procs"), "(none)");
	/* the same value again changes nothing: nothing to save */
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-3");
	unlink(path);
	ck_assert_int_eq(save(c), 0);
	ck_assert_ptr_null(testlib_read(NULL, path));
	cgcache_free(c);
}
END_TEST

static const struct {
	const char *what;
	int64_t now;     /* of the second pass; the first is at 1000000 */
	uint64_t cpuset; /* inode of the cpuset dir in the second pass */
} stale_cases[] = {
	{ "recheck period over", 1000000 + MIN, 100 },
	{ "clock stepped back", 1000000 - 1, 100 },
	{ "cpuset dir made again", 1000000 + 1, 999 },
};

/* A time no clock gives (a state file edited or corrupted) never makes an
 * entry fresh, and never overflows. */
START_TEST(test_cgcache_absurd_times_are_stale)
{
	static const char *const times[] = { "-9223372036854775807", "-9223372036854775808",
					     "9223372036854775807", "-1" };
	struct cgroup_container a = ct(ID2, 100);

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		char *text = xasprintf(
			"{\"apiVersion\":\"kilo/v1\",\"kind\":\"QosCgsetState\",\"hadoopYarn\":\"" Y
			"\",\"containers\":{\"" ID2 "\":{\"ino\":{\"cpuset\":100,\"memory\":101},"
			"\"readAtMs\":%s,\"files\":{\"cpuset/cpuset.cpus\":\"0-3\"}}},"
			"\"memo\":{\"k\":{\"value\":\"0-3\",\"atMs\":%s}}}",
			times[i], times[i]);
		struct cgcache *c;
		const char *v = NULL;

		testlib_write(dir, "state.json", text);
		free(text);
		c = pass(1000000);
		cgcache_enter(c, &a);
		ck_assert_msg(strcmp(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)") == 0, "%s",
			      times[i]);
		ck_assert_msg(!cgcache_memo_get(c, "k", &v), "memo at %s", times[i]);
		cgcache_free(c);
	}
}
END_TEST

START_TEST(test_cgcache_stale_entries_are_read_again)
{
	struct cgroup_container a = ct(ID2, 100), b = ct(ID2, stale_cases[_i].cpuset);
	struct cgcache *c = pass(1000000);
	char *text;

	cgcache_enter(c, &a);
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-3");
	cgcache_put(c, CGROUP_MEMORY, C2, "memory.oom.group", "1");
	ck_assert_int_eq(save(c), 1);
	cgcache_free(c);

	c = pass(stale_cases[_i].now);
	cgcache_enter(c, &b);
	ck_assert_msg(strcmp(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)") == 0, "%s",
		      stale_cases[_i].what);
	/* every file of the container is read again, not just the cpuset's */
	ck_assert_str_eq(get(c, CGROUP_MEMORY, C2, "memory.oom.group"), "(none)");
	ck_assert_int_eq(save(c), 1); /* the stale entry leaves the file */
	text = testlib_read(NULL, path);
	ck_assert_ptr_null(strstr(text, ID2));
	free(text);
	cgcache_free(c);
}
END_TEST

/* Only dirs directly below hadoop-yarn, and only containers entered in
 * this pass, are cached; those not entered drop out of the file. */
START_TEST(test_cgcache_scope_and_ended_containers)
{
	struct cgroup_container a = ct(ID2, 100), b = ct(ID3, 200);
	struct cgcache *c = pass(1000000);
	char *text;

	cgcache_enter(c, &a);
	cgcache_enter(c, &b);
	cgcache_put(c, CGROUP_CPU, Y, "cpu.shares", "1024"); /* hadoop-yarn: never */
	cgcache_put(c, CGROUP_CPUSET, C2 "/sub", "cpuset.cpus", "0");
	cgcache_put(c, CGROUP_CPUSET,
		    Y "/"
		      "container_e17_1410901177871_0001_01_000009",
		    "cpuset.cpus", "0"); /* not entered */
	ck_assert_str_eq(get(c, CGROUP_CPU, Y, "cpu.shares"), "(none)");
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2 "/sub", "cpuset.cpus"), "(none)");
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-3");
	cgcache_put(c, CGROUP_CPUSET, C3, "cpuset.cpus", "0-3");
	ck_assert_int_eq(save(c), 1);
	cgcache_free(c);

	c = pass(1000001); /* container 3 ended */
	cgcache_enter(c, &a);
	ck_assert_int_eq(save(c), 1);
	text = testlib_read(NULL, path);
	ck_assert_ptr_nonnull(strstr(text, ID2));
	ck_assert_ptr_null(strstr(text, ID3));
	ck_assert_ptr_null(strstr(text, "000009"));
	free(text);
	cgcache_free(c);
}
END_TEST

START_TEST(test_cgcache_forget_and_clear)
{
	struct cgroup_container a = ct(ID2, 100);
	struct cgcache *c = pass(1000000);

	cgcache_enter(c, &a);
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-3");
	cgcache_put(c, CGROUP_CPUSET, C2, "cgroup.procs", "10");
	cgcache_forget(c, CGROUP_CPUSET, C2, "cgroup.procs");
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cgroup.procs"), "(none)");
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "0-3");
	/* after a mkdir or rmdir the container is not cached in this pass */
	cgcache_forget(c, CGROUP_MEMORY, C2, NULL);
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)");
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-3");
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)");
	cgcache_free(c);

	fill(1000000, &a);
	c = pass(1000001);
	cgcache_enter(c, &a);
	cgcache_clear(c); /* a failed write: nothing is trusted next pass */
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)");
	ck_assert_int_eq(save(c), 1);
	cgcache_free(c);
	c = pass(1000002);
	cgcache_enter(c, &a);
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)");
	cgcache_free(c);
}
END_TEST

/* Memos outlive passes that do not use them (--only static keeps the CPU
 * choice of --only suppress) until the recheck period is over. */
START_TEST(test_cgcache_memo)
{
	struct cgcache *c = pass(1000000);
	const char *v = NULL;

	ck_assert(!cgcache_memo_get(c, "cpus k", &v));
	cgcache_memo_put(c, "cpus k", "0-7");
	ck_assert(cgcache_memo_get(c, "cpus k", &v));
	ck_assert_str_eq(v, "0-7");
	ck_assert_int_eq(save(c), 1);
	cgcache_free(c);

	c = pass(1000000 + MIN - 1); /* a pass that does not ask */
	ck_assert_int_eq(save(c), 0);
	cgcache_free(c);
	c = pass(1000000 + MIN - 1);
	ck_assert(cgcache_memo_get(c, "cpus k", &v));
	ck_assert_str_eq(v, "0-7");
	cgcache_free(c);

	c = pass(1000000 + MIN);
	ck_assert(!cgcache_memo_get(c, "cpus k", &v));
	ck_assert_int_eq(save(c), 1); /* the stale memo leaves the file */
	cgcache_free(c);
}
END_TEST

static const struct {
	const char *text;
	int ret;
	const char *msg; /* after "state '<path>': " for ERR_INPUT */
} load_cases[] = {
	{ "{\"apiVersion\":\"kilo/v1\",\"kind\":\"QosCgsetState\",\"hadoopYarn\":\"" Y "\","
	  "\"containers\":[]}",
	  -1, "QosCgsetState.containers: expected an object, got []" },
	{ "{\"apiVersion\":\"kilo/v1\",\"kind\":\"QosCgsetState\",\"hadoopYarn\":5}", -1,
	  "QosCgsetState.hadoopYarn: expected a string, got 5" },
	{ "{\"apiVersion\":\"kilo/v1\",\"kind\":\"NodeUsageState\"}", -1, NULL },
	{ "{\"apiVersion\":\"kilo/v1\",\"kind\":\"QosCgsetState\",\"hadoopYarn\":\"/other\","
	  "\"containers\":{\"" ID2 "\":{\"ino\":{\"cpuset\":100,\"memory\":101},"
	  "\"readAtMs\":1000000,\"files\":{\"cpuset/cpuset.cpus\":\"0-3\"}}}}",
	  1, NULL },
	{ "{\"apiVersion\":\"kilo/v1\",\"kind\":\"QosCgsetState\",\"hadoopYarn\":\"" Y "\","
	  "\"containers\":{\"" ID2 "\":{\"ino\":100,\"readAtMs\":1000000,\"files\":{}}}}",
	  1, NULL },
};

/* A state file kilo did not write is refused with a message (the pass then
 * reads everything); one for another hadoop-yarn dir, or an entry of the
 * wrong shape, is simply not used. */
START_TEST(test_cgcache_load_bad_files)
{
	struct cgroup_container a = ct(ID2, 100);
	struct cgcache *c = cgcache_new(Y, 1000001, MIN);
	struct err e = { 0 };
	int r;

	testlib_write(dir, "state.json", load_cases[_i].text);
	r = cgcache_load(c, path, &e);
	ck_assert_int_eq(r, load_cases[_i].ret);
	if (r < 0) {
		ck_assert_int_eq(e.kind, ERR_INPUT);
		if (load_cases[_i].msg) {
			char *want = xasprintf("state '%s': %s", path, load_cases[_i].msg);

			ck_assert_str_eq(e.msg, want);
			free(want);
		}
	}
	cgcache_enter(c, &a);
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)");
	cgcache_free(c);
}
END_TEST

START_TEST(test_cgcache_missing_file_and_null_cache)
{
	struct cgroup_container a = ct(ID2, 100);
	struct err e = { 0 };
	const char *v = NULL;
	int64_t age;

	ck_assert_int_eq(cgcache_load(NULL, path, &e), 0);
	cgcache_enter(NULL, &a);
	cgcache_put(NULL, CGROUP_CPUSET, C2, "cpuset.cpus", "0");
	ck_assert(!cgcache_get(NULL, CGROUP_CPUSET, C2, "cpuset.cpus", &v, &age));
	ck_assert(!cgcache_memo_get(NULL, "k", &v));
	ck_assert_int_eq(cgcache_save(NULL, path, &e), 0);
	cgcache_free(NULL);
	cgcache_free(pass(1)); /* no file yet: a first run */
	ck_assert_ptr_null(testlib_read(NULL, path));
}
END_TEST

/* A pass that changes the tree first withdraws the state it loaded: if it
 * dies or cannot save, the next pass finds no state and reads everything. */
START_TEST(test_cgcache_withdraw_before_a_change)
{
	struct cgroup_container a = ct(ID2, 100);
	struct cgcache *c = pass(1000000);
	char *link = xasprintf("%s/link.json", dir), *text;

	cgcache_withdraw(c); /* nothing loaded: nothing to do */
	cgcache_free(c);
	fill(1000000, &a);
	c = pass(1000001);
	cgcache_enter(c, &a);
	cgcache_withdraw(c);
	ck_assert_ptr_null(testlib_read(NULL, path)); /* gone before the change */
	cgcache_withdraw(c);                          /* once a pass */
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "0-3"); /* still in memory */
	cgcache_free(c); /* killed before the save */
	c = pass(1000002);
	cgcache_enter(c, &a);
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "(none)");
	cgcache_free(c);
	fill(1000002, &a);

	/* through a symlink: the file it leads to is withdrawn, the link stays */
	ck_assert_int_eq(symlink("state.json", link), 0);
	c = cgcache_new(Y, 1000003, MIN);
	{
		struct err e = { 0 };

		ck_assert_int_eq(cgcache_load(c, link, &e), 1);
	}
	cgcache_withdraw(c);
	ck_assert_ptr_null(testlib_read(NULL, path));
	text = testlib_read(NULL, link);
	ck_assert_ptr_null(text);
	/* and the save makes it again through the link */
	cgcache_enter(c, &a);
	cgcache_put(c, CGROUP_CPUSET, C2, "cpuset.cpus", "0-1");
	{
		struct err e = { 0 };

		ck_assert_msg(cgcache_save(c, link, &e) == 1, "%s", e.msg);
	}
	text = testlib_read(NULL, path);
	ck_assert_ptr_nonnull(strstr(text, "\"cpuset/cpuset.cpus\":\"0-1\""));
	free(text);
	cgcache_free(c);
	c = pass(1000004);
	cgcache_enter(c, &a);
	ck_assert_str_eq(get(c, CGROUP_CPUSET, C2, "cpuset.cpus"), "0-1");
	cgcache_free(c);
	free(link);
}
END_TEST

static Suite *cgcache_suite(void)
{
	Suite *s = suite_create("cgcache");
	TCase *tc = tcase_create("cache");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_cgcache_round_trip_and_no_rewrite);
	tcase_add_loop_test(tc, test_cgcache_stale_entries_are_read_again, 0,
			    sizeof(stale_cases) / sizeof(stale_cases[0]));
	tcase_add_test(tc, test_cgcache_absurd_times_are_stale);
	tcase_add_test(tc, test_cgcache_scope_and_ended_containers);
	tcase_add_test(tc, test_cgcache_forget_and_clear);
	tcase_add_test(tc, test_cgcache_memo);
	tcase_add_test(tc, test_cgcache_withdraw_before_a_change);
	tcase_add_loop_test(tc, test_cgcache_load_bad_files, 0,
			    sizeof(load_cases) / sizeof(load_cases[0]));
	tcase_add_test(tc, test_cgcache_missing_file_and_null_cache);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(cgcache_suite)
