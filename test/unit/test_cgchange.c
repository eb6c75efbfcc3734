// SPDX-License-Identifier: Apache-2.0
/* test_cgchange - the change executor (compare, write what differs, chains,
 * dry run, report) on a fake v1 tree; the CPU topology reader; qos-cgset's
 * input documents */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "doc/containerlist.h"
#include "doc/nodeusage.h"
#include "kernel/cputopo.h"
#include "run/cgchange.h"
#include "run/qosapply.h"
#include "testlib.h"

static const struct {
	enum cgchange_cmp cmp;
	const char *current, *wanted;
	int equal;
} equal_cases[] = {
	{ CGCHANGE_INT, "7168", "7168", 1 },
	{ CGCHANGE_INT, "-1", "-1", 1 },
	{ CGCHANGE_INT, "1024", "7168", 0 },
	{ CGCHANGE_INT, "max", "max", 1 },
	{ CGCHANGE_INT, "max", "-1", 0 },
	{ CGCHANGE_INT, "9223372036854771712", "9223372036854771712", 1 },
	{ CGCHANGE_INT, "", "0", 0 },
	{ CGCHANGE_CPUSET, "0-3", "0,1,2,3", 1 },
	{ CGCHANGE_CPUSET, "0-3", "0-2", 0 },
	{ CGCHANGE_CPUSET, "", "", 1 },
	{ CGCHANGE_CPUSET, "0-3", "x", 0 },
	{ CGCHANGE_CPUMAX, "max 100000", "max 100000", 1 },
	{ CGCHANGE_CPUMAX, "max 100000", "max", 1 },
	{ CGCHANGE_CPUMAX, "200000 100000", "200000 50000", 0 },
	{ CGCHANGE_CPUMAX, "200000 100000", "max 100000", 0 },
	{ CGCHANGE_CPUMAX, "200000 100000", "200000 100000", 1 },
	{ CGCHANGE_CPUMAX, "200000 100000\n", "200000", 1 },
	{ CGCHANGE_CPUMAX, "200000 100000 7", "200000 100000", 0 },
	{ CGCHANGE_INT, "5 x", "5", 0 },
	{ CGCHANGE_INT, "5\n", " 5", 1 },
	{ CGCHANGE_TEXT, "a", "a", 1 },
	{ CGCHANGE_TEXT, "a", "b", 0 },
};

START_TEST(test_cgchange_equal)
{
	ck_assert_int_eq(cgchange_equal(equal_cases[_i].cmp, equal_cases[_i].current,
					equal_cases[_i].wanted),
			 equal_cases[_i].equal);
}
END_TEST

/* ---- The executor on a fake v1 tree -------------------------------------- */

#define Y "/kubepods/besteffort/hadoop-yarn"
#define C Y "/container_e17_1410901177871_0001_01_000002"

static char *root;
static struct sysroot sr;
static struct cgroup_layout lay;

static void setup(void)
{
	struct err e = { 0 };

	root = testlib_tmpdir();
	testlib_write(root, "proc/self/mountinfo",
		      "32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
		      "34 31 0:30 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n");
	testlib_write(root, "sys/fs/cgroup/cpu" Y "/cpu.shares", "1024\n");
	testlib_write(root, "sys/fs/cgroup/cpu" Y "/cpu.cfs_quota_us", "-1\n");
	testlib_write(root, "sys/fs/cgroup/cpuset" Y "/cpuset.cpus", "0-3\n");
	testlib_write(root, "sys/fs/cgroup/cpuset" C "/cpuset.cpus", "0-3\n");
	testlib_write(root, "sys/fs/cgroup/cpuset" C "/cgroup.procs", "");
	ck_assert_int_eq(sysroot_open(&sr, root, &e), 0);
	ck_assert_msg(cgroup_layout_detect(&lay, &sr, CGROUP_DRIVER_CGROUPFS, NULL, &e) == 0, "%s",
		      e.msg);
	sysroot_fault_clear();
}

static void teardown(void)
{
	sysroot_fault_clear();
	cgroup_layout_release(&lay);
	sysroot_release(&sr);
	testlib_rmtree(root);
	free(root);
}

static char *file(const char *rel)
{
	return testlib_read(root, rel);
}

START_TEST(test_cgchange_write_only_what_differs)
{
	struct cgchange_plan p = { 0 };
	char *s;

	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPU, Y, "cpu.shares", CGCHANGE_INT, "7168",
		     "sum");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPU, Y, "cpu.cfs_quota_us", CGCHANGE_INT, "-1",
		     "unlimited");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPUSET, Y, "cpuset.cpus", CGCHANGE_CPUSET,
		     "0,1,2,3", "same set");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPU, Y, "cpu.bvt_warp_ns", CGCHANGE_INT, "-1",
		     "Anolis only");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPU, Y "/gone", "cpu.shares", CGCHANGE_INT, "2",
		     "a dir");
	cgchange_apply(&p, 0, &lay, &sr, 0, NULL);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_WRITTEN);
	ck_assert_str_eq(p.items[0].old, "1024");
	ck_assert_int_eq(p.items[1].result, CGCHANGE_UNCHANGED);
	ck_assert_int_eq(p.items[2].result, CGCHANGE_UNCHANGED);
	ck_assert_int_eq(p.items[3].result, CGCHANGE_UNSUPPORTED);
	ck_assert_int_eq(p.items[4].result, CGCHANGE_SKIPPED);
	ck_assert_str_eq(p.items[4].reason, "a dir (no such cgroup)");
	s = file("sys/fs/cgroup/cpu" Y "/cpu.shares");
	ck_assert_str_eq(s, "7168");
	free(s);
	s = file("sys/fs/cgroup/cpuset" Y "/cpuset.cpus");
	ck_assert_str_eq(s, "0-3\n"); /* not rewritten */
	free(s);
	ck_assert_uint_eq(cgchange_count(&p, CGCHANGE_WRITTEN), 1);
	cgchange_release(&p);
}
END_TEST

START_TEST(test_cgchange_failed_write_skips_the_rest_of_its_chain)
{
	struct cgchange_plan p = { 0 };
	int a = cgchange_chain(&p), b = cgchange_chain(&p);
	char *s;

	sysroot_fault_add(SYSROOT_WRITE, "hadoop-yarn/cpuset.cpus", EBUSY, 1);
	cgchange_add(&p, a, CGROUP_CPUSET, Y, "cpuset.cpus", CGCHANGE_CPUSET, "0-1", "parent");
	cgchange_add(&p, a, CGROUP_CPUSET, C, "cpuset.cpus", CGCHANGE_CPUSET, "0-1", "child");
	cgchange_add(&p, b, CGROUP_CPU, Y, "cpu.shares", CGCHANGE_INT, "2048", "other chain");
	cgchange_apply(&p, 0, &lay, &sr, 0, NULL);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_FAILED);
	ck_assert_ptr_nonnull(strstr(p.items[0].error, "Device or resource busy"));
	ck_assert_int_eq(p.items[1].result, CGCHANGE_SKIPPED);
	ck_assert_int_eq(p.items[2].result, CGCHANGE_WRITTEN);
	s = file("sys/fs/cgroup/cpuset" C "/cpuset.cpus");
	ck_assert_str_eq(s, "0-3\n");
	free(s);
	cgchange_release(&p);
}
END_TEST

START_TEST(test_cgchange_unsupported_errno_and_exited_process)
{
	struct cgchange_plan p = { 0 };
	int a = cgchange_chain(&p);

	sysroot_fault_add(SYSROOT_WRITE, "cpu.cfs_quota_us", EINVAL, 1);
	sysroot_fault_add(SYSROOT_WRITE, "cgroup.procs", ESRCH, 1);
	cgchange_add(&p, a, CGROUP_CPU, Y, "cpu.cfs_quota_us", CGCHANGE_INT, "5000", "old kernel")
		->unsupported_errno = EINVAL;
	cgchange_add(&p, a, CGROUP_CPUSET, C, "cgroup.procs", CGCHANGE_ALWAYS, "4242", "move");
	cgchange_add(&p, a, CGROUP_CPU, Y, "cpu.shares", CGCHANGE_INT, "2048", "after");
	cgchange_apply(&p, 0, &lay, &sr, 0, NULL);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(p.items[0].error, "Invalid argument"));
	ck_assert_int_eq(p.items[1].result, CGCHANGE_SKIPPED);
	ck_assert_str_eq(p.items[1].reason, "move (the process exited)");
	ck_assert_int_eq(p.items[2].result, CGCHANGE_WRITTEN);
	cgchange_release(&p);
}
END_TEST

START_TEST(test_cgchange_dry_run_follows_its_own_plan)
{
	struct cgchange_plan p = { 0 };
	int a = cgchange_chain(&p);
	json_t *items, *sum;
	int64_t counts[CGROUPCHANGES_NRESULTS];
	char *s;

	cgchange_add(&p, a, CGROUP_CPUSET, Y, "cpuset.cpus", CGCHANGE_CPUSET, "0-7", "union");
	cgchange_add(&p, a, CGROUP_CPUSET, Y, "cpuset.cpus", CGCHANGE_CPUSET, "4-7", "target");
	cgchange_add(&p, a, CGROUP_CPUSET, Y "/new", NULL, CGCHANGE_MKDIR, "directory", "mirror");
	cgchange_add(&p, a, CGROUP_CPUSET, Y "/new", "cpuset.cpus", CGCHANGE_CPUSET, "4-7", "set");
	cgchange_add(&p, a, CGROUP_CPU, Y, "cpu.shares", CGCHANGE_INT, "1024", "same");
	cgchange_apply(&p, 0, &lay, &sr, 1, NULL);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_PLANNED);
	ck_assert_str_eq(p.items[0].old, "0-3");
	ck_assert_int_eq(p.items[1].result, CGCHANGE_PLANNED);
	ck_assert_str_eq(p.items[1].old, "0-7"); /* what the first step would leave */
	ck_assert_int_eq(p.items[2].result, CGCHANGE_PLANNED);
	ck_assert_int_eq(p.items[3].result, CGCHANGE_PLANNED);
	ck_assert_ptr_null(p.items[3].old);
	ck_assert_int_eq(p.items[4].result, CGCHANGE_UNCHANGED);
	s = file("sys/fs/cgroup/cpuset" Y "/cpuset.cpus");
	ck_assert_str_eq(s, "0-3\n");
	free(s);
	ck_assert_ptr_null(file("sys/fs/cgroup/cpuset" Y "/new/cpuset.cpus"));

	items = json_array();
	for (size_t i = 0; i < p.n; i++) {
		struct jsonio_buf b = { 0 };
		struct cgroupchanges_item view;
		json_t *v;
		char *want;

		cgchange_item_view(&p.items[i], &view);
		v = cgroupchanges_item_json(&view);
		want = json_dumps(v, JSON_COMPACT);
		/* the text-first item is what jansson writes */
		ck_assert_int_eq(cgroupchanges_item_text(&view, &b), 0);
		ck_assert_uint_eq(b.len, strlen(want));
		ck_assert(memcmp(b.p, want, b.len) == 0);
		free(want);
		jsonio_buf_release(&b);
		json_array_append_new(items, v);
	}
	ck_assert_uint_eq(json_array_size(items), 5);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, 2), "new")),
			 "directory");
	ck_assert(json_is_null(json_object_get(json_array_get(items, 2), "file")));
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, 0), "controller")),
			 "cpuset");
	cgchange_summary(&p, counts);
	sum = cgroupchanges_summary_json(counts);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "planned")), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "unchanged")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "written")), 0);
	json_decref(items);
	json_decref(sum);
	cgchange_release(&p);
}
END_TEST

/* The cache answers for an entered container dir without a read: a file
 * changed behind its back is left as it is until the entry is stale; a
 * wanted value it does not hold is read and written as usual, and what is
 * read or written goes into it. */
START_TEST(test_cgchange_with_cache)
{
	struct cgroup_container ct = { .id = "container_e17_1410901177871_0001_01_000002",
				       .ctrls = 1u << CGROUP_CPUSET };
	struct cgcache *cache = cgcache_new(Y, 1000000, 60000);
	struct cgchange_plan p = { 0 };
	const char *v = NULL;
	int64_t age = 0;
	char *s;

	cgcache_enter(cache, &ct);
	cgcache_put(cache, CGROUP_CPUSET, C, "cpuset.cpus", "0-3");
	cgcache_put(cache, CGROUP_CPUSET, C, "cpuset.mems", NULL);
	testlib_write(root, "sys/fs/cgroup/cpuset" C "/cpuset.cpus", "1\n"); /* drift */
	testlib_write(root, "sys/fs/cgroup/cpuset" C "/cpuset.mems", "0\n");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPUSET, C, "cpuset.cpus", CGCHANGE_CPUSET,
		     "0,1,2,3", "same set as cached");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPUSET, C, "cpuset.mems", CGCHANGE_CPUSET, "0",
		     "cached as absent");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPU, Y, "cpu.shares", CGCHANGE_INT, "1024",
		     "hadoop-yarn: always read");
	cgchange_apply(&p, 0, &lay, &sr, 0, cache);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_UNCHANGED);
	ck_assert_str_eq(p.items[0].old, "0-3");
	ck_assert_str_eq(p.items[0].reason, "same set as cached (cached: read 0 s ago)");
	ck_assert_int_eq(p.items[1].result, CGCHANGE_UNSUPPORTED);
	ck_assert_ptr_null(p.items[1].old);
	ck_assert_int_eq(p.items[2].result, CGCHANGE_UNCHANGED);
	ck_assert_str_eq(p.items[2].reason, "hadoop-yarn: always read");
	s = file("sys/fs/cgroup/cpuset" C "/cpuset.cpus");
	ck_assert_str_eq(s, "1\n"); /* neither read nor written */
	free(s);
	cgchange_release(&p);

	/* A value the cache does not hold: read ("1"), written, cached. */
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPUSET, C, "cpuset.cpus", CGCHANGE_CPUSET,
		     "2-3", "new set");
	cgchange_apply(&p, 0, &lay, &sr, 0, cache);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_WRITTEN);
	ck_assert_str_eq(p.items[0].old, "1");
	ck_assert(cgcache_get(cache, CGROUP_CPUSET, C, "cpuset.cpus", &v, &age));
	ck_assert_str_eq(v, "2-3");
	cgchange_release(&p);

	/* A failed write leaves nothing cached for the file. */
	sysroot_fault_add(SYSROOT_WRITE, "cpuset.cpus", EBUSY, 1);
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPUSET, C, "cpuset.cpus", CGCHANGE_CPUSET, "0",
		     "busy");
	cgchange_apply(&p, 0, &lay, &sr, 0, cache);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_FAILED);
	ck_assert(!cgcache_get(cache, CGROUP_CPUSET, C, "cpuset.cpus", &v, &age));
	cgchange_release(&p);

	/* A mkdir (a dir made again) drops the container's entry. */
	ct.ino[CGROUP_CPUSET] = 7;
	snprintf(ct.id, sizeof(ct.id), "%s", "container_e17_1410901177871_0001_01_000003");
	cgcache_enter(cache, &ct);
	cgcache_put(cache, CGROUP_CPUSET, Y "/container_e17_1410901177871_0001_01_000003",
		    "cpuset.cpus", "0-3");
	cgchange_add(&p, cgchange_chain(&p), CGROUP_CPUSET,
		     Y "/container_e17_1410901177871_0001_01_000003", NULL, CGCHANGE_MKDIR,
		     "directory", "mirror");
	cgchange_apply(&p, 0, &lay, &sr, 0, cache);
	ck_assert_int_eq(p.items[0].result, CGCHANGE_WRITTEN);
	ck_assert(!cgcache_get(cache, CGROUP_CPUSET,
			       Y "/container_e17_1410901177871_0001_01_000003", "cpuset.cpus", &v,
			       &age));
	cgchange_release(&p);
	cgcache_free(cache);
}
END_TEST

/* ---- CPU topology ---------------------------------------------------------- */

START_TEST(test_cputopo_two_nodes)
{
	char *dir = testlib_tmpdir();
	struct sysroot s = { 0 };
	struct err e = { 0 };
	struct cpuset_cpu *c = NULL;
	size_t n = 0;
	static const int core[] = { 0, 1, 0, 1 }, node[] = { 0, 0, 1, 1 }, pkg[] = { 0, 0, 1, 1 };

	testlib_write(dir, "sys/devices/system/cpu/online", "0-3\n");
	for (int i = 0; i < 4; i++) {
		char rel[96], v[8];

		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/core_id", i);
		snprintf(v, sizeof(v), "%d\n", core[i]);
		testlib_write(dir, rel, v);
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/topology/physical_package_id", i);
		snprintf(v, sizeof(v), "%d\n", pkg[i]);
		testlib_write(dir, rel, v);
	}
	testlib_write(dir, "sys/devices/system/node/node0/cpulist", "0-1\n");
	testlib_write(dir, "sys/devices/system/node/node1/cpulist", "2-3\n");
	testlib_write(dir, "sys/devices/system/node/possible", "0-1\n");
	ck_assert_int_eq(sysroot_open(&s, dir, &e), 0);
	ck_assert_msg(cputopo_read(&s, &c, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 4);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(c[i].cpu, i);
		ck_assert_int_eq(c[i].core, core[i]);
		ck_assert_int_eq(c[i].package, pkg[i]);
		ck_assert_int_eq(c[i].node, node[i]);
	}
	free(c);
	/* Without topology or node dirs: core = cpu, package and node 0. */
	sysroot_release(&s);
	testlib_rmtree(dir);
	testlib_write(dir, "sys/devices/system/cpu/online", "0,2\n");
	ck_assert_int_eq(sysroot_open(&s, dir, &e), 0);
	ck_assert_int_eq(cputopo_read(&s, &c, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(c[1].cpu, 2);
	ck_assert_int_eq(c[1].core, 2);
	ck_assert_int_eq(c[1].node, 0);
	free(c);
	sysroot_release(&s);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- Input documents ------------------------------------------------------- */

/* The inputs of u and l; the list read last is kept until the next call. */
static int inputs(const json_t *u, const json_t *l, struct qosapply_inputs *in, struct err *e)
{
	static struct containerlist list;
	static struct nodeusage usage;

	containerlist_release(&list);
	nodeusage_release(&usage);
	return testlib_qos_inputs(u, l, &usage, &list, in, e);
}

static json_t *doc(const char *text)
{
	struct err e = { 0 };
	json_t *d = jsonio_parse(text, "test", &e);

	ck_assert_msg(d != NULL, "%s", e.msg);
	return d;
}

/* Container ids are checked (grammar, no duplicates) before anything is
 * counted: a duplicate would count one container's vCores twice. */
START_TEST(test_qosapply_inputs_rejects_bad_and_duplicate_ids)
{
	static const char *const lists[][2] = {
		{ "{\"kind\":\"ContainerList\",\"items\":[{\"id\":\"../../x\",\"state\":\"RUNNING\"}]}",
		  "ContainerList.items[0].id: expected a YARN container id, got \"../../x\"" },
		{ "{\"kind\":\"ContainerList\",\"items\":[{\"id\":5}]}",
		  "ContainerList.items[0].id: expected a string, got 5" },
		{ "{\"kind\":\"ContainerList\",\"items\":[{\"id\":\"container_1_0001_01_000001\"},"
		  "{\"id\":\"container_1_0001_01_000001\"}]}",
		  "ContainerList.items[1].id: container 'container_1_0001_01_000001' is listed twice" },
	};
	json_t *u = doc("{\"kind\":\"NodeUsage\",\"metadata\":{\"node\":\"n1\"},"
			"\"capacity\":{\"cpuMilli\":64000,\"memoryBytes\":1024}}");

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		json_t *l = doc(lists[i][0]);
		struct qosapply_inputs in;
		struct err e = { 0 };

		ck_assert_int_eq(inputs(u, l, &in, &e), -1);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_str_eq(e.msg, lists[i][1]);
		qosapply_inputs_release(&in);
		json_decref(l);
	}
	json_decref(u);
}
END_TEST

START_TEST(test_qosapply_inputs)
{
	json_t *u = doc(
		"{\"kind\":\"NodeUsage\",\"metadata\":{\"node\":\"n1\"},"
		"\"capacity\":{\"cpuMilli\":64000,\"memoryBytes\":1024},"
		"\"system\":{\"cpuMilli\":2000},"
		"\"qos\":{\"guaranteed\":{\"cpuMilli\":9000},\"burstable\":{\"cpuMilli\":6000}}}");
	json_t *l = doc(
		"{\"kind\":\"ContainerList\",\"nodeManager\":{\"reachable\":true},\"items\":["
		"{\"id\":\"container_1_0001_01_000001\",\"state\":\"RUNNING\","
		"\"requests\":{\"cpuMilli\":2000}},"
		"{\"id\":\"container_1_0001_01_000002\",\"state\":\"DONE\","
		"\"requests\":{\"cpuMilli\":8000}},"
		"{\"id\":\"container_1_0001_01_000003\",\"state\":\"KILLING\","
		"\"requests\":{\"cpuMilli\":1500}},"
		"{\"id\":\"container_1_0001_01_000004\",\"state\":\"PAUSED\","
		"\"requests\":{\"cpuMilli\":1000}},"
		"{\"id\":\"container_1_0001_01_000005\",\"state\":\"NEW_IN_3_9\","
		"\"requests\":{\"cpuMilli\":250}},"
		"{\"id\":\"container_1_0001_01_000006\",\"state\":\"CONTAINER_CLEANEDUP_AFTER_KILL\","
		"\"requests\":{\"cpuMilli\":4000}},"
		/* a left-over dir the NM does not list: it used to make the
		 * requests unknown, and cpu.shares was never written again */
		"{\"id\":\"container_1_0001_01_000007\",\"state\":null,\"stale\":true,"
		"\"requests\":null}]}");
	struct qosapply_inputs in;
	struct err e = { 0 };

	ck_assert_msg(inputs(u, l, &in, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(in.node, "n1");
	ck_assert_int_eq(in.usage_known, 1);
	ck_assert_int_eq(in.usage.capacity_milli, 64000);
	ck_assert_int_eq(in.usage.nonbe_milli, 15000);
	ck_assert_int_eq(in.usage.system_milli, 2000);
	ck_assert_int_eq(in.capacity_bytes, 1024);
	ck_assert_int_eq(in.requests_known, 1);
	/* one table (nm_state_phase): killing and finished are not summed (KILLING
	 * used to be), a paused container keeps its allocation, an unknown state
	 * counts as running */
	ck_assert_int_eq(in.cpu_milli_sum, 3250);
	ck_assert_uint_eq(in.nlive, 3);
	ck_assert_uint_eq(in.nunknown, 1);
	ck_assert_uint_eq(in.npids, 0); /* no "pids": nothing to go on */
	qosapply_inputs_release(&in);
	json_decref(l);

	/* NM unreachable: requests null, shares unknown */
	l = doc("{\"kind\":\"ContainerList\",\"nodeManager\":{\"reachable\":false},"
		"\"items\":[{\"id\":\"container_1_0001_01_000001\",\"state\":null,\"requests\":null}]}");
	ck_assert_int_eq(inputs(u, l, &in, &e), 0);
	ck_assert_int_eq(in.requests_known, 0);
	ck_assert_uint_eq(in.nlive, 0);
	qosapply_inputs_release(&in);
	json_decref(l);

	/* a wrong type names the field and the value */
	l = doc("{\"kind\":\"ContainerList\",\"nodeManager\":{\"reachable\":true},"
		"\"items\":[{\"id\":\"container_1_0001_01_000001\",\"state\":\"RUNNING\",\"requests\":{\"cpuMilli\":-5}}]}");
	ck_assert_int_eq(inputs(u, l, &in, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, "ContainerList.items[0].requests.cpuMilli: expected an integer "
				"0..9007199254740992, got -5");
	qosapply_inputs_release(&in);
	json_decref(l);
	json_decref(u);

	/* a null usage figure: suppress cannot run */
	u = doc("{\"kind\":\"NodeUsage\",\"capacity\":{\"cpuMilli\":64000},"
		"\"system\":{\"cpuMilli\":null},"
		"\"qos\":{\"guaranteed\":{\"cpuMilli\":0},\"burstable\":{\"cpuMilli\":0}}}");
	ck_assert_int_eq(inputs(u, NULL, &in, &e), 0);
	ck_assert_int_eq(in.usage_known, 0);
	ck_assert_int_eq(in.capacity_bytes, -1);
	qosapply_inputs_release(&in);
	json_decref(u);
}
END_TEST

/* requests.cpuMilli has the bound of every ContainerList figure (2^53,
 * as the evictor reads it; it was 2^40 here), and the sum of the live
 * containers' requests is checked: an overflow names the item. */
START_TEST(test_qosapply_inputs_request_bounds)
{
	json_t *l = doc("{\"kind\":\"ContainerList\",\"nodeManager\":{\"reachable\":true},"
			"\"items\":[{\"id\":\"container_1_0001_01_000001\",\"state\":\"RUNNING\","
			"\"requests\":{\"cpuMilli\":2199023255552}}]}");
	struct qosapply_inputs in;
	struct err e = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_msg(inputs(NULL, l, &in, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(in.cpu_milli_sum, INT64_C(2199023255552));
	qosapply_inputs_release(&in);
	json_decref(l);

	f = open_memstream(&text, &len);
	fputs("{\"kind\":\"ContainerList\",\"nodeManager\":{\"reachable\":true},\"items\":[", f);
	for (int i = 1; i <= 1100; i++)
		fprintf(f,
			"%s{\"id\":\"container_1_0001_01_%06d\",\"state\":\"RUNNING\","
			"\"requests\":{\"cpuMilli\":9007199254740992}}",
			i > 1 ? "," : "", i);
	fputs("]}", f);
	fclose(f);
	l = doc(text);
	ck_assert_int_eq(inputs(NULL, l, &in, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, "ContainerList.items[1023].requests.cpuMilli: the sum of the live "
				"containers' requests overflows, got 9007199254740992");
	qosapply_inputs_release(&in);
	json_decref(l);
	free(text);
}
END_TEST

/* NodeUsage figures have the evictor's bound, 2^53: guaranteed + burstable
 * of two figures near INT64_MAX overflowed (undefined behaviour) here. */
START_TEST(test_qosapply_inputs_usage_bounds)
{
	json_t *u = doc("{\"kind\":\"NodeUsage\",\"capacity\":{\"cpuMilli\":64000},"
			"\"system\":{\"cpuMilli\":0},"
			"\"qos\":{\"guaranteed\":{\"cpuMilli\":4611686018427387904},"
			"\"burstable\":{\"cpuMilli\":4611686018427387904}}}");
	struct qosapply_inputs in;
	struct err e = { 0 };

	ck_assert_int_eq(inputs(u, NULL, &in, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, "NodeUsage.qos.guaranteed.cpuMilli: expected an integer "
				"0..9007199254740992, got 4611686018427387904");
	qosapply_inputs_release(&in);
	json_decref(u);
}
END_TEST

/* An item's "pids" (what yarn-copilot list read from the container's
 * cgroup) is kept, sorted by id, for the mirror step; null is unknown. */
START_TEST(test_qosapply_inputs_pids)
{
	json_t *l = doc("{\"kind\":\"ContainerList\",\"items\":["
			"{\"id\":\"container_1_0001_01_000003\",\"pids\":[7,9]},"
			"{\"id\":\"container_1_0001_01_000002\",\"pids\":[]},"
			"{\"id\":\"container_1_0001_01_000004\",\"pids\":null}]}");
	struct qosapply_inputs in;
	struct err e = { 0 };

	ck_assert_msg(inputs(NULL, l, &in, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(in.npids, 2);
	ck_assert_str_eq(in.pids[0].id, "container_1_0001_01_000002");
	ck_assert_uint_eq(in.pids[0].n, 0);
	ck_assert_str_eq(in.pids[1].id, "container_1_0001_01_000003");
	ck_assert_uint_eq(in.pids[1].n, 2);
	ck_assert_int_eq(in.pids[1].pids[0], 7);
	ck_assert_int_eq(in.pids[1].pids[1], 9);
	qosapply_inputs_release(&in);
	json_decref(l);

	l = doc("{\"kind\":\"ContainerList\",\"items\":["
		"{\"id\":\"container_1_0001_01_000003\",\"pids\":[7,0]}]}");
	ck_assert_int_eq(inputs(NULL, l, &in, &e), -1);
	ck_assert_str_eq(e.msg,
			 "ContainerList.items[0].pids[1]: expected a process id 1..2147483647, "
			 "got 0");
	qosapply_inputs_release(&in);
	json_decref(l);
	l = doc("{\"kind\":\"ContainerList\",\"items\":["
		"{\"id\":\"container_1_0001_01_000003\",\"pids\":\"7\"}]}");
	ck_assert_int_eq(inputs(NULL, l, &in, &e), -1);
	ck_assert_str_eq(e.msg, "ContainerList.items[0].pids: expected an array, got \"7\"");
	qosapply_inputs_release(&in);
	json_decref(l);
}
END_TEST

/* qos-cgset reads its input through qosapply_input_fields: the inputs (and
 * every error) must be those of the whole documents. */
START_TEST(test_qosapply_input_fields_keep_what_is_read)
{
	static const char *const kinds[] = { "NodeUsage", "ContainerList" };
	static const char *const texts[] = {
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"NodeUsage\",\"metadata\":{\"node\":\"n1\","
		"\"timestamp\":\"x\"},\"windowMs\":1000,\"capacity\":{\"cpuMilli\":64000,"
		"\"memoryBytes\":1024},\"system\":{\"cpuMilli\":2000},\"node\":{\"cpuMilli\":1},"
		"\"qos\":{\"guaranteed\":{\"cpuMilli\":9000},\"burstable\":{\"cpuMilli\":6000}}}\n"
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"ContainerList\",\"metadata\":{\"node\":\"n1\"},"
		"\"nodeManager\":{\"url\":\"u\",\"reachable\":true,\"error\":null},\"items\":["
		"{\"id\":\"container_1_0001_01_000001\",\"am\":true,\"state\":\"RUNNING\","
		"\"requests\":{\"cpuMilli\":2000,\"memoryBytes\":1},\"cgroup\":\"/x\","
		"\"processes\":2,\"pids\":[5,6],\"usage\":{\"cpuMilli\":null}}]}\n",
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"ContainerList\",\"nodeManager\":"
		"{\"reachable\":\"yes\"},\"items\":[]}\n",
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"NodeUsage\",\"system\":{\"cpuMilli\":-1}}\n",
	};
	const struct jsonio_filter *filters[] = { NULL, qosapply_input_fields };
	char got[2][400];

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		for (int f = 0; f < 2; f++) {
			FILE *in = fmemopen((void *)texts[i], strlen(texts[i]), "r");
			json_t *docs[2] = { NULL, NULL };
			struct qosapply_inputs q = { 0 };
			struct err e = { 0 };

			if (jsonio_collect(in, "stdin", kinds, 2, docs, filters[f], &e) < 0 ||
			    inputs(docs[0], docs[1], &q, &e) < 0)
				snprintf(got[f], sizeof(got[f]), "error %.300s", e.msg);
			else
				snprintf(got[f], sizeof(got[f]),
					 "%s %d %lld %lld %lld %lld %d %lld %zu %zu %d",
					 q.node ? q.node : "-", q.usage_known,
					 (long long)q.usage.capacity_milli,
					 (long long)q.usage.nonbe_milli,
					 (long long)q.usage.system_milli,
					 (long long)q.capacity_bytes, q.requests_known,
					 (long long)q.cpu_milli_sum, q.nlive, q.npids,
					 q.npids ? (int)q.pids[0].pids[1] : 0);
			qosapply_inputs_release(&q);
			json_decref(docs[0]);
			json_decref(docs[1]);
			fclose(in);
		}
		ck_assert_str_eq(got[1], got[0]);
	}
	ck_assert_str_eq(got[0], "error NodeUsage.system.cpuMilli: expected an integer "
				 "0..9007199254740992, got -1");
}
END_TEST

static Suite *cgchange_suite(void)
{
	Suite *s = suite_create("cgchange");
	TCase *tc = tcase_create("compare");

	tcase_add_loop_test(tc, test_cgchange_equal, 0,
			    sizeof(equal_cases) / sizeof(equal_cases[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("apply");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_cgchange_write_only_what_differs);
	tcase_add_test(tc, test_cgchange_failed_write_skips_the_rest_of_its_chain);
	tcase_add_test(tc, test_cgchange_unsupported_errno_and_exited_process);
	tcase_add_test(tc, test_cgchange_dry_run_follows_its_own_plan);
	tcase_add_test(tc, test_cgchange_with_cache);
	suite_add_tcase(s, tc);
	tc = tcase_create("inputs");
	tcase_add_test(tc, test_cputopo_two_nodes);
	tcase_add_test(tc, test_qosapply_inputs);
	tcase_add_test(tc, test_qosapply_inputs_request_bounds);
	tcase_add_test(tc, test_qosapply_inputs_usage_bounds);
	tcase_add_test(tc, test_qosapply_inputs_rejects_bad_and_duplicate_ids);
	tcase_add_test(tc, test_qosapply_inputs_pids);
	tcase_add_test(tc, test_qosapply_input_fields_keep_what_is_read);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(cgchange_suite)
