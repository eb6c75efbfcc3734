// SPDX-License-Identifier: Apache-2.0
/* test_cgroup - cgroup layouts, parsers and typed files on fake trees */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/xalloc.h"
#include "decide/qos.h"
#include "kernel/cgknob.h"
#include "kernel/cgroup.h"
#include "kernel/procfs.h"
#include "testlib.h"

/* ---- mountinfo ------------------------------------------------------- */

#define MI_TMPFS "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
#define MI_V1(id, dir, opts)                                                                       \
	id " 31 0:" id " / /sys/fs/cgroup/" dir " rw,relatime shared:" id                          \
	   " - cgroup cgroup rw," opts "\n"

static const struct {
	const char *name, *mountinfo, *controllers;
	int version;
	const char *mount[CGROUP_NCTRL];
	const char *unified;
} layouts[] = {
	{ "v1 separate",
	  MI_TMPFS MI_V1("32", "cpu", "cpu") MI_V1("33", "cpuacct", "cpuacct") MI_V1(
		  "34", "cpuset", "cpuset") MI_V1("35", "memory",
						  "memory") MI_V1("36", "blkio",
								  "blkio") MI_V1("37", "pids",
										 "pids")
		  MI_V1("40", "systemd",
			"xattr,name=systemd") "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
	  "",
	  1,
	  { "sys/fs/cgroup/cpu", "sys/fs/cgroup/cpuacct", "sys/fs/cgroup/cpuset",
	    "sys/fs/cgroup/memory", "sys/fs/cgroup/blkio", "sys/fs/cgroup/pids" },
	  "sys/fs/cgroup/unified" },
	{ "v1 combined",
	  MI_TMPFS MI_V1("32", "cpu,cpuacct", "cpu,cpuacct") MI_V1("34", "cpuset", "cpuset")
		  MI_V1("35", "memory", "memory"),
	  NULL,
	  1,
	  { "sys/fs/cgroup/cpu,cpuacct", "sys/fs/cgroup/cpu,cpuacct", "sys/fs/cgroup/cpuset",
	    "sys/fs/cgroup/memory", NULL, NULL },
	  NULL },
	{ "v2 unified",
	  "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
	  "cpuset cpu io memory pids",
	  2,
	  { "sys/fs/cgroup", "sys/fs/cgroup", "sys/fs/cgroup", "sys/fs/cgroup", "sys/fs/cgroup",
	    "sys/fs/cgroup" },
	  "sys/fs/cgroup" },
	{ "hybrid: memory only in v2",
	  MI_TMPFS MI_V1(
		  "32", "cpu,cpuacct",
		  "cpu,cpuacct") "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n",
	  "memory",
	  1,
	  { "sys/fs/cgroup/cpu,cpuacct", "sys/fs/cgroup/cpu,cpuacct", NULL, "sys/fs/cgroup/unified",
	    NULL, NULL },
	  "sys/fs/cgroup/unified" },
	{ "escaped mount point",
	  "32 31 0:29 / /host\\040root/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n",
	  NULL,
	  1,
	  { "host root/cgroup/cpu", "host root/cgroup/cpu", NULL, NULL, NULL, NULL },
	  NULL },
};

START_TEST(test_cgroup_mounts_parse)
{
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };

	ck_assert_int_gt(cgroup_mounts_parse(layouts[_i].mountinfo, &l, &e), 0);
	cgroup_layout_map_unified(&l, layouts[_i].controllers);
	ck_assert_msg(l.version == layouts[_i].version, "%s: version %d", layouts[_i].name,
		      l.version);
	for (int c = 0; c < CGROUP_NCTRL; c++) {
		ck_assert_pstr_eq(l.mount[c], layouts[_i].mount[c]);
		ck_assert_int_eq(l.ctrl_version[c], !l.mount[c] ? 0
						    : l.unified && !strcmp(l.mount[c], l.unified)
							    ? 2
							    : 1);
	}
	ck_assert_pstr_eq(l.unified, layouts[_i].unified);
	cgroup_layout_release(&l);
}
END_TEST

START_TEST(test_cgroup_mounts_parse_bad)
{
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };

	ck_assert_int_eq(cgroup_mounts_parse("32 31 0:29 /\n", &l, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, "mountinfo line 1: malformed");
	cgroup_layout_release(&l);
	ck_assert_int_eq(cgroup_mounts_parse(MI_TMPFS, &l, &e), 0);
	cgroup_layout_release(&l);
}
END_TEST

/* ---- kube paths ------------------------------------------------------ */

START_TEST(test_cgroup_set_kube)
{
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };
	static const char *const bad[] = { "",      "/",    "a/../b",      "./a", "a//b",
					   "a/./b", "a/..", "cpu,cpuacct", ".." };

	ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_CGROUPFS, NULL, &e), 0);
	ck_assert_str_eq(l.kubepods, "/kubepods");
	ck_assert_str_eq(l.burstable, "/kubepods/burstable");
	ck_assert_str_eq(l.besteffort, "/kubepods/besteffort");
	ck_assert_str_eq(l.hadoop_yarn, "/kubepods/besteffort/hadoop-yarn");
	ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_SYSTEMD, NULL, &e), 0);
	ck_assert_int_eq(l.driver, CGROUP_DRIVER_SYSTEMD);
	ck_assert_str_eq(l.kubepods, "/kubepods.slice");
	ck_assert_str_eq(l.burstable, "/kubepods.slice/kubepods-burstable.slice");
	ck_assert_str_eq(l.hadoop_yarn, "/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn");
	ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_AUTO, "/yarn/nm//", &e), 0);
	ck_assert_int_eq(l.driver, CGROUP_DRIVER_CGROUPFS);
	ck_assert_str_eq(l.hadoop_yarn, "/yarn/nm");
	ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_AUTO, "a/.b/..c/x.", &e), 0);
	ck_assert_str_eq(l.hadoop_yarn, "/a/.b/..c/x.");
	ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_AUTO, "/yarn/nm", &e), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_CGROUPFS, bad[i], &e),
				 -1);
		ck_assert_int_eq(e.kind, ERR_USAGE);
	}
	ck_assert_str_eq(l.hadoop_yarn, "/yarn/nm"); /* unchanged by a refused value */
	cgroup_layout_release(&l);
}
END_TEST

START_TEST(test_cgroup_driver_parse)
{
	enum cgroup_driver d;
	struct err e = { 0 };

	ck_assert_int_eq(cgroup_driver_parse("systemd", &d, &e), 0);
	ck_assert_int_eq(d, CGROUP_DRIVER_SYSTEMD);
	ck_assert_str_eq(cgroup_driver_name(d), "systemd");
	ck_assert_int_eq(cgroup_driver_parse("Systemd", &d, &e), -1);
	ck_assert_str_eq(e.msg, "invalid value for --cgroup-driver: 'Systemd' (expected auto, "
				"cgroupfs or systemd)");
}
END_TEST

/* ---- pure parsers ---------------------------------------------------- */

static const struct {
	const char *text;
	int ok;
	const char *canon;
	int count;
} cpusets[] = {
	{ "0-3,8,10-11\n", 1, "0-3,8,10-11", 7 },
	{ "", 1, "", 0 },
	{ "\n", 1, "", 0 },
	{ "5", 1, "5", 1 },
	{ "3,2,1,0", 1, "0-3", 4 },
	{ "0-1, 4", 1, "0-1,4", 3 },
	{ "8191", 1, "8191", 1 },
	{ "0-8191", 1, "0-8191", 8192 },
	{ "8192", 0, NULL, 0 },
	{ "3-1", 0, NULL, 0 },
	{ "1,,2", 0, NULL, 0 },
	{ "1-", 0, NULL, 0 },
	{ "-1", 0, NULL, 0 },
	{ "a", 0, NULL, 0 },
	{ "1 2", 0, NULL, 0 },
	{ "0-7:2/4", 0, NULL, 0 },
};

START_TEST(test_cgroup_cpuset)
{
	struct cpuset set, again;
	struct err e = { 0 };
	char *s;

	if (!cpusets[_i].ok) {
		ck_assert_int_eq(cpuset_parse(cpusets[_i].text, &set, &e), -1);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		return;
	}
	ck_assert_msg(cpuset_parse(cpusets[_i].text, &set, &e) == 0, "%s: %s", cpusets[_i].text,
		      e.msg);
	ck_assert_int_eq(cpuset_count(&set), cpusets[_i].count);
	s = cpuset_format(&set);
	ck_assert_str_eq(s, cpusets[_i].canon);
	ck_assert_int_eq(cpuset_parse(s, &again, &e), 0);
	ck_assert(cpuset_equal(&set, &again));
	free(s);
}
END_TEST

START_TEST(test_cgroup_cpuset_bits)
{
	struct cpuset set = { 0 };
	char *s;

	cpuset_add(&set, 63);
	cpuset_add(&set, 64);
	cpuset_add(&set, -1);
	cpuset_add(&set, CPUSET_MAX);
	ck_assert_int_eq(set.bits[0], (uint64_t)1 << 63);
	ck_assert_int_eq(set.bits[1], 1);
	ck_assert(cpuset_has(&set, 64));
	ck_assert(!cpuset_has(&set, 65));
	ck_assert(!cpuset_has(&set, -1));
	s = cpuset_format(&set);
	ck_assert_str_eq(s, "63-64");
	free(s);
}
END_TEST

static const char v1_memstat[] = "cache 4096\nrss 8192\ntotal_cache 1000\ntotal_rss 2000\n"
				 "total_inactive_anon 300\ntotal_active_anon 1700\n"
				 "total_inactive_file 400\ntotal_active_file 600\n"
				 "total_unevictable 5\n";
static const char v2_memstat[] = "anon 2000\nfile 1000\nkernel 77\ninactive_anon 300\n"
				 "active_anon 1700\ninactive_file 400\nactive_file 600\n"
				 "unevictable 5\n";

START_TEST(test_cgroup_memory_stat)
{
	struct cgroup_memory_stat ms;
	struct err e = { 0 };

	ck_assert_int_eq(cgroup_parse_memory_stat(v1_memstat, 1, &ms, &e), 0);
	ck_assert_int_eq(ms.anon, 2000);
	ck_assert_int_eq(ms.file, 1000);
	ck_assert_int_eq(ms.inactive_file, 400);
	ck_assert_int_eq(cgroup_memory_stat_used(&ms), 2005);
	ck_assert_int_eq(cgroup_parse_memory_stat(v2_memstat, 2, &ms, &e), 0);
	ck_assert_int_eq(ms.anon, 2000);
	ck_assert_int_eq(ms.active_file, 600);
	ck_assert_int_eq(cgroup_memory_stat_used(&ms), 2005);
	/* v2 text read as v1: no total_* keys, so nothing is known */
	ck_assert_int_eq(cgroup_parse_memory_stat(v2_memstat, 1, &ms, &e), 0);
	ck_assert_int_eq(ms.anon, -1);
	ck_assert_int_eq(cgroup_memory_stat_used(&ms), -1);
	ck_assert_int_eq(cgroup_parse_memory_stat("anon x\n", 2, &ms, &e), -1);
	ck_assert_str_eq(e.msg, "memory.stat: expected 'anon <integer>', got 'anon x'");
}
END_TEST

START_TEST(test_cgroup_kv_and_cpu_stat)
{
	static const char v1[] = "nr_periods 10\nnr_throttled 2\nthrottled_time 300\n";
	static const char v2[] = "usage_usec 123456\nuser_usec 100000\nsystem_usec 23456\n";
	struct err e = { 0 };
	int64_t v = 0;

	ck_assert_int_eq(cgroup_parse_kv(v1, "nr_throttled", &v, &e), 1);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(cgroup_parse_kv(v1, "nr", &v, &e), 0);
	ck_assert_int_eq(cgroup_parse_kv(v2, "usage_usec", &v, &e), 1);
	ck_assert_int_eq(cgroup_parse_cpu_stat_usage(v2, &v, &e), 0);
	ck_assert_int_eq(v, 123456000);
	ck_assert_int_eq(cgroup_parse_cpu_stat_usage(v1, &v, &e), -1);
	ck_assert_str_eq(e.msg, "cpu.stat: no usage_usec line");
}
END_TEST

/* A whole integer file (memory.limit_in_bytes, cpu.shares): blanks before,
 * white space after, nothing else. */
START_TEST(test_cgroup_parse_i64)
{
	int64_t v = 7;

	ck_assert_int_eq(cgroup_parse_i64(" 9223372036854771712\n", &v), 0);
	ck_assert_int_eq(v, INT64_C(9223372036854771712));
	ck_assert_int_eq(cgroup_parse_i64("-1\n", &v), 0);
	ck_assert_int_eq(v, -1);
	v = 7;
	ck_assert_int_eq(cgroup_parse_i64("5 x", &v), -1);
	ck_assert_int_eq(cgroup_parse_i64("5\n6\n", &v), -1);
	ck_assert_int_eq(cgroup_parse_i64("9223372036854775808", &v), -1);
	ck_assert_int_eq(cgroup_parse_i64("max", &v), -1);
	ck_assert_int_eq(cgroup_parse_i64("", &v), -1);
	ck_assert_int_eq(v, 7);
}
END_TEST

static const struct {
	const char *text;
	int ok;
	int64_t quota, period;
} cpumax[] = {
	{ "max 100000", 1, -1, 100000 },
	{ "50000 100000\n", 1, 50000, 100000 },
	{ "max", 0, 0, 0 },
	{ "0 100000", 0, 0, 0 },
	{ "-1 100000", 0, 0, 0 },
	{ "max 100000 1", 0, 0, 0 },
	{ "maximum 100000", 0, 0, 0 },
	{ "", 0, 0, 0 },
	{ "50000\n100000", 0, 0, 0 },
	{ "max 100000 x", 0, 0, 0 },
	{ "max 0x10", 0, 0, 0 },
};

START_TEST(test_cgroup_cpu_max)
{
	struct err e = { 0 };
	int64_t q = 7, p = 7;

	ck_assert_int_eq(cgroup_parse_cpu_max(cpumax[_i].text, &q, &p, &e), cpumax[_i].ok ? 0 : -1);
	if (cpumax[_i].ok) {
		ck_assert_int_eq(q, cpumax[_i].quota);
		ck_assert_int_eq(p, cpumax[_i].period);
	} else {
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_int_eq(q, 7);
	}
}
END_TEST

/* The knob table: every knob names a file in some version, the file of
 * the controller's version is picked (a hybrid's memory v2 beside cpu v1),
 * values parse and format as the kernel prints and takes them. */
START_TEST(test_cgknob)
{
	struct cgroup_layout l = { .version = 1 };
	struct err e = { 0 };
	int64_t v = 0, aux = 0;
	char buf[48];

	for (int k = 0; k < CGKNOB_N; k++) {
		const struct cgknob_def *d = cgknob_def((enum cgknob)k);

		ck_assert_ptr_nonnull(d->term);
		ck_assert(d->v[0].name || d->v[1].name);
		ck_assert_int_eq(!d->v[0].name, d->v[0].kind == CGKNOB_NONE);
		ck_assert_int_eq(!d->v[1].name, d->v[1].kind == CGKNOB_NONE);
	}
	l.ctrl_version[CGROUP_CPU] = 1;
	l.ctrl_version[CGROUP_MEMORY] = 2;
	ck_assert_str_eq(cgknob_file(&l, CGKNOB_CFS_QUOTA, CGROUP_NCTRL), "cpu.cfs_quota_us");
	ck_assert_str_eq(cgknob_file(&l, CGKNOB_MEMORY_MAX, CGROUP_NCTRL), "memory.max");
	ck_assert_str_eq(cgknob_file(&l, CGKNOB_THREADS, CGROUP_CPU), "tasks");
	ck_assert_str_eq(cgknob_file(&l, CGKNOB_THREADS, CGROUP_MEMORY), "cgroup.threads");
	ck_assert_ptr_null(cgknob_file(&l, CGKNOB_MEMORY_MOVE_CHARGE, CGROUP_NCTRL));
	ck_assert_str_eq(cgknob_file_of(&l, CGKNOB_BVT_WARP_NS, CGROUP_NCTRL)->vendor, "Anolis");
	ck_assert_ptr_null(cgknob_file_of(&l, CGKNOB_MEMORY_OOM_GROUP, CGROUP_NCTRL)->vendor);
	ck_assert_int_eq(cgknob_conv(&l, CGKNOB_CPU_WEIGHT), CGKNOB_SAME);
	/* a controller not mounted takes the layout's version */
	ck_assert_str_eq(cgknob_file(&l, CGKNOB_CPUSET_CPUS_EFFECTIVE, CGROUP_NCTRL),
			 "cpuset.effective_cpus");

	ck_assert_int_eq(cgknob_parse(&l, CGKNOB_MEMORY_MAX, "max", &v, &aux, &e), 0);
	ck_assert_int_eq(v, INT64_MAX);
	ck_assert_int_eq(aux, -1);
	ck_assert_int_eq(cgknob_parse(&l, CGKNOB_MEMORY_MAX, "4096\n", &v, &aux, &e), 0);
	ck_assert_int_eq(v, 4096);
	ck_assert_int_eq(cgknob_parse(&l, CGKNOB_CFS_QUOTA, "max", &v, &aux, &e), -1);
	ck_assert_str_eq(e.msg, "expected an integer, got 'max'");
	ck_assert_int_eq(cgknob_parse(&l, CGKNOB_MEMORY_STAT, "anon 1\n", &v, &aux, &e), -1);
	ck_assert_str_eq(cgknob_format(&l, CGKNOB_CFS_QUOTA, -1, 100000, buf, sizeof(buf)), "-1");

	l.ctrl_version[CGROUP_CPU] = 2;
	ck_assert_int_eq(cgknob_conv(&l, CGKNOB_CPU_WEIGHT), CGKNOB_WEIGHT);
	ck_assert_int_eq(cgknob_parse(&l, CGKNOB_CFS_QUOTA, "max 100000", &v, &aux, &e), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(aux, 100000);
	ck_assert_str_eq(cgknob_format(&l, CGKNOB_CFS_QUOTA, -1, 100000, buf, sizeof(buf)),
			 "max 100000");
	ck_assert_str_eq(cgknob_format(&l, CGKNOB_CFS_QUOTA, 2000, 100000, buf, sizeof(buf)),
			 "2000 100000");
	ck_assert_int_eq(cgknob_parse(&l, CGKNOB_CPU_USAGE, "usage_usec 7\n", &v, &aux, &e), -1);
	l.ctrl_version[CGROUP_CPUACCT] = 2;
	ck_assert_int_eq(cgknob_parse(&l, CGKNOB_CPU_USAGE, "usage_usec 7\n", &v, &aux, &e), 0);
	ck_assert_int_eq(v, 7000);
}
END_TEST

START_TEST(test_cgroup_pids)
{
	struct err e = { 0 };
	pid_t *p = NULL;
	size_t n = 9;

	ck_assert_int_eq(cgroup_parse_pids("12\n7\n100000\n", &p, &n, &e), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(p[0], 12);
	ck_assert_int_eq(p[2], 100000);
	free(p);
	ck_assert_int_eq(cgroup_parse_pids("", &p, &n, &e), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(cgroup_parse_pids("12\n-3\n", &p, &n, &e), -1);
	ck_assert_str_eq(e.msg, "expected one pid a line, got '-3'");
	ck_assert_int_eq(cgroup_parse_pids("12 13\n", &p, &n, &e), -1);
	ck_assert_int_eq(cgroup_parse_pids("0\n", &p, &n, &e), -1);
}
END_TEST

START_TEST(test_cgroup_shares_weight)
{
	ck_assert_int_eq(qos_shares_to_weight(2), 1);
	ck_assert_int_eq(qos_shares_to_weight(1024), 39);
	ck_assert_int_eq(qos_shares_to_weight(262144), 10000);
	ck_assert_int_eq(qos_shares_to_weight(0), 1);
	ck_assert_int_eq(qos_weight_to_shares(1), 2);
	ck_assert_int_eq(qos_weight_to_shares(10000), 262144);
	ck_assert_int_eq(qos_weight_to_shares(100), 2598);
	for (int64_t w = 1; w <= 10000; w++)
		ck_assert_int_eq(qos_shares_to_weight(qos_weight_to_shares(w)), w);
}
END_TEST

/* ---- fake trees ------------------------------------------------------ */

static char *root;
static struct sysroot sr;

static void tree_setup(void)
{
	struct err e = { 0 };

	root = testlib_tmpdir();
	ck_assert_int_eq(sysroot_open(&sr, root, &e), 0);
}

static void tree_teardown(void)
{
	sysroot_release(&sr);
	sysroot_fault_clear();
	testlib_rmtree(root);
	free(root);
}

#define CPU "sys/fs/cgroup/cpu,cpuacct/"
#define BE "kubepods/besteffort/"
#define C1 "container_e17_1410901177871_0001_01_000002"
#define C2 "container_1410901177871_0001_01_000001"

static uint64_t ino_of(const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel);
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	free(path);
	return st.st_ino;
}

static void v1_combined_tree(void)
{
	testlib_write(root, "proc/self/mountinfo",
		      MI_TMPFS MI_V1("32", "cpu,cpuacct", "cpu,cpuacct")
			      MI_V1("34", "cpuset", "cpuset") MI_V1("35", "memory", "memory"));
	testlib_write(root, CPU BE "cpu.cfs_quota_us", "-1\n");
	testlib_write(root, CPU BE "cpu.cfs_period_us", "100000\n");
	testlib_write(root, CPU BE "cpu.shares", "2\n");
	testlib_write(root, CPU BE "cpuacct.usage", "987654321\n");
	testlib_write(root, CPU BE "hadoop-yarn/" C1 "/cgroup.procs", "");
	testlib_write(root, CPU BE "hadoop-yarn/" C2 "/cgroup.procs", "");
	testlib_write(root, CPU BE "hadoop-yarn/not-a-container/cgroup.procs", "");
	testlib_write(root, CPU BE "hadoop-yarn/container_1_1_1_1/cgroup.procs", "");
	testlib_write(root, CPU BE "hadoop-yarn/container_1410901177871_0001_01_000003", "file");
	testlib_write(root, "sys/fs/cgroup/cpuset/" BE "cpuset.cpus", "0-1\n");
	testlib_write(root, "sys/fs/cgroup/memory/" BE "memory.stat", v1_memstat);
	testlib_write(root, "sys/fs/cgroup/memory/" BE "hadoop-yarn/" C1 "/memory.stat",
		      v1_memstat);
}

START_TEST(test_cgroup_detect_v1_combined)
{
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };
	char *p;

	v1_combined_tree();
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), 0);
	ck_assert_int_eq(l.version, 1);
	ck_assert_int_eq(l.driver, CGROUP_DRIVER_CGROUPFS);
	ck_assert_str_eq(l.mount[CGROUP_CPUACCT], "sys/fs/cgroup/cpu,cpuacct");
	ck_assert_ptr_null(l.mount[CGROUP_PIDS]);
	p = cgroup_path(&l, CGROUP_CPU, l.besteffort, "cpu.shares");
	ck_assert_str_eq(p, CPU BE "cpu.shares");
	free(p);
	p = cgroup_path(&l, CGROUP_MEMORY, "/", "memory.stat");
	ck_assert_str_eq(p, "sys/fs/cgroup/memory/memory.stat");
	free(p);
	p = cgroup_path(&l, CGROUP_CPU, "/kubepods", NULL);
	ck_assert_str_eq(p, "sys/fs/cgroup/cpu,cpuacct/kubepods");
	free(p);
	ck_assert_ptr_null(cgroup_path(&l, CGROUP_PIDS, "/kubepods", NULL));
	ck_assert_int_eq(cgroup_exists(&l, &sr, CGROUP_CPU, l.hadoop_yarn), 1);
	ck_assert_int_eq(cgroup_exists(&l, &sr, CGROUP_MEMORY, l.hadoop_yarn), 1);
	ck_assert_int_eq(cgroup_exists(&l, &sr, CGROUP_CPUSET, l.hadoop_yarn), 0);
	p = cgroup_container_path(&l, C1);
	ck_assert_str_eq(p, "/kubepods/besteffort/hadoop-yarn/" C1);
	free(p);
	cgroup_layout_release(&l);
}
END_TEST

/* k's value formatted by the knob table, written to its file of cg. */
static int write_knob(const struct cgroup_layout *l, const char *cg, enum cgknob k, int64_t v,
		      int64_t aux)
{
	char val[48];
	struct err e = { 0 };

	return cgroup_write(l, &sr, cgknob_def(k)->ctrl, cg, cgknob_file(l, k, CGROUP_NCTRL),
			    cgknob_format(l, k, v, aux, val, sizeof(val)), &e);
}

START_TEST(test_cgroup_typed_v1)
{
	struct cgroup_layout l = { 0 };
	struct cgroup_memory_stat ms;
	struct cpuset set;
	struct err e = { 0 };
	int64_t v = 0, q = 0, per = 0;
	char *s;

	v1_combined_tree();
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), 0);
	ck_assert_int_eq(cgroup_read_cpu_usage(&l, &sr, l.besteffort, &v, &e), CGROUP_OK);
	ck_assert_int_eq(v, 987654321);
	ck_assert_int_eq(cgroup_read_cfs(&l, &sr, l.besteffort, &q, &per, &e), CGROUP_OK);
	ck_assert_int_eq(q, -1);
	ck_assert_int_eq(per, 100000);
	ck_assert_int_eq(cgroup_read_memory_stat(&l, &sr, l.besteffort, &ms, &e), CGROUP_OK);
	ck_assert_int_eq(cgroup_memory_stat_used(&ms), 2005);
	ck_assert_int_eq(cgroup_read_cpuset(&l, &sr, l.besteffort, &set, &e), CGROUP_OK);
	ck_assert_int_eq(cpuset_count(&set), 2);
	ck_assert_str_eq(cgknob_file(&l, CGKNOB_CPU_WEIGHT, CGROUP_CPU), "cpu.shares");

	/* the hadoop-yarn dir is absent in cpuset; the kernel lacks memory.current */
	ck_assert_int_eq(cgroup_read_cpuset(&l, &sr, l.hadoop_yarn, &set, &e), CGROUP_ABSENT);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_int_eq(cgroup_read_memory_current(&l, &sr, l.besteffort, &v, &e),
			 CGROUP_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(e.msg, "memory.usage_in_bytes"));
	ck_assert_int_eq(cgroup_read(&l, &sr, CGROUP_PIDS, "/", "pids.max", &s, &e), CGROUP_ABSENT);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(e.msg, "cgroup '/': controller pids is not mounted");

	/* writes: value replaced (formatted by the knob table), missing file
	 * unsupported, kernel errno kept */
	ck_assert_int_eq(write_knob(&l, l.besteffort, CGKNOB_CFS_QUOTA, 50000, 100000), CGROUP_OK);
	s = testlib_read(root, CPU BE "cpu.cfs_quota_us");
	ck_assert_str_eq(s, "50000");
	free(s);
	ck_assert_int_eq(write_knob(&l, l.besteffort, CGKNOB_CFS_QUOTA, -1, 100000), CGROUP_OK);
	s = testlib_read(root, CPU BE "cpu.cfs_quota_us");
	ck_assert_str_eq(s, "-1");
	free(s);
	ck_assert_int_eq(cgroup_write(&l, &sr, CGROUP_CPU, l.besteffort, "cpu.idle", "1", &e),
			 CGROUP_UNSUPPORTED);
	ck_assert_int_eq(cgroup_write(&l, &sr, CGROUP_CPU, "/nope", "cpu.idle", "1", &e),
			 CGROUP_ABSENT);
	sysroot_fault_add(SYSROOT_WRITE, "cpuset.cpus", EINVAL, 1);
	cpuset_parse("0", &set, &e);
	ck_assert_int_eq(cgroup_write(&l, &sr, CGROUP_CPUSET, l.besteffort, "cpuset.cpus", "0", &e),
			 -1);
	ck_assert_int_eq(e.errnum, EINVAL);
	ck_assert_int_eq(cgroup_write(&l, &sr, CGROUP_CPUSET, l.besteffort, "cpuset.cpus", "0", &e),
			 CGROUP_OK);
	s = testlib_read(root, "sys/fs/cgroup/cpuset/" BE "cpuset.cpus");
	ck_assert_str_eq(s, "0");
	free(s);

	ck_assert_int_eq(write_knob(&l, l.besteffort, CGKNOB_CFS_PERIOD, 50000, -1), CGROUP_OK);
	s = testlib_read(root, CPU BE "cpu.cfs_period_us");
	ck_assert_str_eq(s, "50000");
	free(s);

	/* mkdir and rmdir: created, existed, parent missing, gone */
	{
		int created = -1;
		char *cg = cgroup_container_path(&l, C1);

		ck_assert_int_eq(cgroup_mkdir(&l, &sr, CGROUP_CPUSET, l.hadoop_yarn, &created, &e),
				 CGROUP_OK);
		ck_assert_int_eq(created, 1);
		ck_assert_int_eq(cgroup_mkdir(&l, &sr, CGROUP_CPUSET, l.hadoop_yarn, &created, &e),
				 CGROUP_OK);
		ck_assert_int_eq(created, 0);
		ck_assert_int_eq(cgroup_mkdir(&l, &sr, CGROUP_CPUSET, "/a/b", &created, &e),
				 CGROUP_ABSENT);
		ck_assert_int_eq(cgroup_mkdir(&l, &sr, CGROUP_PIDS, "/a", NULL, &e), CGROUP_ABSENT);
		ck_assert_int_eq(cgroup_mkdir(&l, &sr, CGROUP_CPUSET, cg, NULL, &e), CGROUP_OK);
		ck_assert_int_eq(cgroup_exists(&l, &sr, CGROUP_CPUSET, cg), 1);
		ck_assert_int_eq(cgroup_rmdir(&l, &sr, CGROUP_CPUSET, l.hadoop_yarn, &e), -1);
		ck_assert_int_eq(cgroup_rmdir(&l, &sr, CGROUP_CPUSET, cg, &e), CGROUP_OK);
		ck_assert_int_eq(cgroup_rmdir(&l, &sr, CGROUP_CPUSET, cg, &e), CGROUP_ABSENT);
		free(cg);
	}

	/* a bad value names the file */
	testlib_write(root, CPU BE "cpuacct.usage", "lots\n");
	ck_assert_int_eq(cgroup_read_cpu_usage(&l, &sr, l.besteffort, &v, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(e.msg, "cpuacct.usage': expected an integer, got 'lots'"));
	cgroup_layout_release(&l);
}
END_TEST

START_TEST(test_cgroup_list_containers)
{
	struct cgroup_layout l = { 0 };
	struct cgroup_container *v = NULL;
	struct err e = { 0 };
	size_t n = 0;
	unsigned cpu = 1u << CGROUP_CPU | 1u << CGROUP_CPUACCT;

	v1_combined_tree();
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), 0);
	ck_assert_int_eq(cgroup_list_containers(&l, &sr, &v, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0].id, C2);
	ck_assert_uint_eq(v[0].ctrls, cpu);
	ck_assert_str_eq(v[1].id, C1);
	ck_assert_uint_eq(v[1].ctrls, cpu | 1u << CGROUP_MEMORY);
	/* each dir's inode number, the co-mounted cpuacct sharing cpu's */
	ck_assert_uint_eq(v[1].ino[CGROUP_CPU], ino_of(CPU BE "hadoop-yarn/" C1));
	ck_assert_uint_eq(v[1].ino[CGROUP_CPUACCT], v[1].ino[CGROUP_CPU]);
	ck_assert_uint_eq(v[1].ino[CGROUP_MEMORY],
			  ino_of("sys/fs/cgroup/memory/" BE "hadoop-yarn/" C1));
	ck_assert_uint_ne(v[1].ino[CGROUP_MEMORY], v[1].ino[CGROUP_CPU]);
	ck_assert_uint_eq(v[1].ino[CGROUP_CPUSET], 0);
	free(v);

	/* a hierarchy that exists nowhere: empty, not an error */
	ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_CGROUPFS, "other", &e), 0);
	ck_assert_int_eq(cgroup_list_containers(&l, &sr, &v, &n, &e), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(v);

	/* a dir that cannot be read is an error */
	ck_assert_int_eq(cgroup_layout_set_kube(&l, CGROUP_DRIVER_CGROUPFS, NULL, &e), 0);
	sysroot_fault_add(SYSROOT_OPEN, "hadoop-yarn", EACCES, 1);
	ck_assert_int_eq(cgroup_list_containers(&l, &sr, &v, &n, &e), -1);
	ck_assert_int_eq(e.errnum, EACCES);
	cgroup_layout_release(&l);
}
END_TEST

START_TEST(test_cgroup_detect_v2_systemd)
{
	struct cgroup_layout l = { 0 };
	struct cpuset set;
	struct cgroup_memory_stat ms;
	struct err e = { 0 };
	int64_t v = 0, q = 0, per = 0;
	pid_t *p = NULL;
	size_t n = 0;
	char *s;

	/* no mountinfo: detected from the tree's content */
	testlib_write(root, "sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
	testlib_write(root, "sys/fs/cgroup/kubepods.slice/cgroup.procs", "");
	testlib_write(root, "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/cpu.max",
		      "max 100000\n");
	testlib_write(root, "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/cpu.stat",
		      "usage_usec 5000\nuser_usec 4000\nsystem_usec 1000\n");
	testlib_write(root, "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/cpuset.cpus",
		      "\n");
	testlib_write(
		root,
		"sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/cpuset.cpus.effective",
		"0-3\n");
	testlib_write(root, "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/memory.stat",
		      v2_memstat);
	testlib_write(root,
		      "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn/" C1
		      "/cgroup.threads",
		      "41\n42\n");
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), 0);
	ck_assert_int_eq(l.version, 2);
	ck_assert_int_eq(l.driver, CGROUP_DRIVER_SYSTEMD);
	ck_assert_str_eq(l.mount[CGROUP_CPUACCT], "sys/fs/cgroup");
	ck_assert_str_eq(cgknob_file(&l, CGKNOB_CPU_WEIGHT, CGROUP_CPU), "cpu.weight");
	ck_assert_int_eq(cgroup_read_cpu_usage(&l, &sr, l.besteffort, &v, &e), CGROUP_OK);
	ck_assert_int_eq(v, 5000000);
	ck_assert_int_eq(cgroup_read_cfs(&l, &sr, l.besteffort, &q, &per, &e), CGROUP_OK);
	ck_assert_int_eq(q, -1);
	ck_assert_int_eq(per, 100000);
	ck_assert_int_eq(cgroup_read_cpuset(&l, &sr, l.besteffort, &set, &e), CGROUP_OK);
	ck_assert_int_eq(cpuset_count(&set), 4);
	ck_assert_int_eq(cgroup_read_memory_stat(&l, &sr, l.besteffort, &ms, &e), CGROUP_OK);
	ck_assert_int_eq(cgroup_memory_stat_used(&ms), 2005);
	s = cgroup_container_path(&l, C1);
	ck_assert_int_eq(cgroup_read_threads(&l, &sr, CGROUP_CPU, s, &p, &n, &e), CGROUP_OK);
	free(s);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(p[1], 42);
	free(p);
	/* cpu.max takes the quota with the period read back (the knob table's
	 * format), so the file holds exactly that afterwards */
	ck_assert_int_eq(write_knob(&l, l.besteffort, CGKNOB_CFS_QUOTA, 20000, 100000), CGROUP_OK);
	s = testlib_read(root, "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/cpu.max");
	ck_assert_str_eq(s, "20000 100000");
	free(s);
	ck_assert_int_eq(write_knob(&l, l.besteffort, CGKNOB_CFS_QUOTA, -1, 100000), CGROUP_OK);
	s = testlib_read(root, "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/cpu.max");
	ck_assert_str_eq(s, "max 100000");
	free(s);
	ck_assert_int_eq(write_knob(&l, l.besteffort, CGKNOB_CFS_PERIOD, 30000, 50000), CGROUP_OK);
	s = testlib_read(root, "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/cpu.max");
	ck_assert_str_eq(s, "30000 50000");
	free(s);
	/* cpu.max absent (cpu not enabled for the subtree): unsupported */
	ck_assert_int_eq(cgroup_read_cfs(&l, &sr, l.kubepods, &q, &per, &e), CGROUP_UNSUPPORTED);
	cgroup_layout_release(&l);
}
END_TEST

START_TEST(test_cgroup_detect_tree_v1_and_none)
{
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };

	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	testlib_write(root, "sys/fs/cgroup/cpu,cpuacct/cgroup.procs", "");
	testlib_write(root, "sys/fs/cgroup/memory/cgroup.procs", "");
	testlib_write(root, "sys/fs/cgroup/unified/cgroup.controllers", "\n");
	testlib_write(root, "sys/fs/cgroup/memory/kubepods.slice/cgroup.procs", "");
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, "/yarn", &e), 0);
	ck_assert_int_eq(l.version, 1);
	ck_assert_int_eq(l.driver, CGROUP_DRIVER_SYSTEMD);
	ck_assert_str_eq(l.mount[CGROUP_CPU], "sys/fs/cgroup/cpu,cpuacct");
	ck_assert_str_eq(l.mount[CGROUP_MEMORY], "sys/fs/cgroup/memory");
	ck_assert_ptr_null(l.mount[CGROUP_CPUSET]);
	ck_assert_str_eq(l.unified, "sys/fs/cgroup/unified");
	ck_assert_str_eq(l.hadoop_yarn, "/yarn");
	cgroup_layout_release(&l);
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, "../x", &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE);
	/* a mountinfo without cgroup mounts: the tree decides */
	testlib_write(root, "proc/self/mountinfo", MI_TMPFS);
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), 0);
	ck_assert_str_eq(l.mount[CGROUP_CPUACCT], "sys/fs/cgroup/cpu,cpuacct");
	cgroup_layout_release(&l);
	/* a malformed one is an error */
	testlib_write(root, "proc/self/mountinfo", "1 2\n");
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "/proc/self/mountinfo': mountinfo line 1: malformed"));
}
END_TEST

START_TEST(test_cgroup_start_time)
{
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };
	char *cg;
	int64_t ms = 0;

	v1_combined_tree();
	testlib_write(root, "proc/stat", "cpu  1 2 3 4 5 6 7 8 0 0\nbtime 1764430000\n");
	testlib_write(root, "proc/41/stat",
		      "41 (java) S 1 41 41 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 500 1 1\n");
	testlib_write(root, "proc/42/stat",
		      "42 (sh) S 1 42 42 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 250 1 1\n");
	/* 43 exited between the read of cgroup.procs and its stat */
	testlib_write(root, CPU BE "hadoop-yarn/" C1 "/cgroup.procs", "41\n43\n42\n");
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_CGROUPFS, NULL, &e), 0);
	cg = cgroup_container_path(&l, C1);
	ck_assert_int_eq(cgroup_start_time_ms(&l, &sr, CGROUP_CPU, cg, &ms, &e), CGROUP_OK);
	ck_assert_int_eq(ms, 1764430000000LL + 250 * 1000 / procfs_hz());
	free(cg);
	cg = cgroup_container_path(&l, C2);
	ck_assert_int_eq(cgroup_start_time_ms(&l, &sr, CGROUP_CPU, cg, &ms, &e), CGROUP_OK);
	ck_assert_int_eq(ms, -1);
	ck_assert_int_eq(cgroup_start_time_ms(&l, &sr, CGROUP_MEMORY, cg, &ms, &e), CGROUP_ABSENT);
	free(cg);
	cgroup_layout_release(&l);
}
END_TEST

/* The committed fixture trees: the same two containers in every layout. */
static const struct {
	const char *scenario;
	unsigned c1_ctrls;
} fixtures[] = {
	{ "sysroot/v1-separate", 1u << CGROUP_CPU | 1u << CGROUP_CPUACCT | 1u << CGROUP_MEMORY },
	{ "sysroot/v1-combined-systemd",
	  1u << CGROUP_CPU | 1u << CGROUP_CPUACCT | 1u << CGROUP_MEMORY },
	{ "sysroot/v1-no-memory", 1u << CGROUP_CPU | 1u << CGROUP_CPUACCT },
	{ "sysroot/v2-systemd", (1u << CGROUP_NCTRL) - 1 },
	{ "sysroot/v2-cgroupfs", (1u << CGROUP_NCTRL) - 1 },
};

START_TEST(test_cgroup_fixture_containers)
{
	char *dir = testlib_fixture(fixtures[_i].scenario), *cg;
	struct cgroup_layout l = { 0 };
	struct cgroup_container *v = NULL;
	struct sysroot fx;
	struct err e = { 0 };
	size_t n = 0;
	int64_t ms = 0, ns = 0, cur = 0;

	ck_assert_int_eq(sysroot_open(&fx, dir, &e), 0);
	ck_assert_msg(cgroup_layout_detect(&l, &fx, CGROUP_DRIVER_AUTO, NULL, &e) == 0, "%s",
		      e.msg);
	ck_assert_int_eq(cgroup_list_containers(&l, &fx, &v, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0].id, "container_e17_1410901177871_0001_01_000001");
	ck_assert_str_eq(v[1].id, "container_e17_1410901177871_0001_01_000002");
	ck_assert_uint_eq(v[0].ctrls, fixtures[_i].c1_ctrls);
	cg = cgroup_container_path(&l, v[0].id);
	/* pid 4242 started 360000 ticks after btime 1795960000 */
	ck_assert_int_eq(cgroup_start_time_ms(&l, &fx, CGROUP_CPU, cg, &ms, &e), CGROUP_OK);
	ck_assert_int_eq(ms, 1795960000000LL + 360000LL * 1000 / procfs_hz());
	ck_assert_int_eq(cgroup_read_cpu_usage(&l, &fx, cg, &ns, &e), CGROUP_OK);
	ck_assert_int_eq(ns, 3000000000LL);
	ck_assert_int_eq(cgroup_read_memory_current(&l, &fx, cg, &cur, &e),
			 fixtures[_i].c1_ctrls & 1u << CGROUP_MEMORY ? CGROUP_OK : CGROUP_ABSENT);
	if (fixtures[_i].c1_ctrls & 1u << CGROUP_MEMORY)
		ck_assert_int_eq(cur, 384LL << 20);
	free(cg);
	free(v);
	cgroup_layout_release(&l);
	sysroot_release(&fx);
	free(dir);
}
END_TEST
/* A container's tree past the walk's limits, 16 levels below it or 4096
 * dirs in all: CGROUP_TOO_BIG, with a message; at the limits, read whole. */
START_TEST(test_cgroup_read_tree_limits)
{
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };
	char rel[1024] = CPU BE "hadoop-yarn/" C1;
	pid_t *ids = NULL;
	size_t n = 0;
	const char *cg = "/" BE "hadoop-yarn/" C1;

	v1_combined_tree();
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), 0);
	for (int depth = 1; depth <= CGROUP_TREE_DEPTH; depth++) {
		size_t len = strlen(rel);
		char *file;

		snprintf(rel + len, sizeof(rel) - len, "/d");
		file = xasprintf("%s/cgroup.procs", rel);
		testlib_write(root, file, depth == CGROUP_TREE_DEPTH ? "4242\n" : "");
		free(file);
	}
	ck_assert_int_eq(cgroup_read_tree(&l, &sr, CGROUP_CPU, cg, 0, &ids, &n, &e), CGROUP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ids[0], 4242);
	free(ids);
	snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "/d/cgroup.procs"); /* one more */
	testlib_write(root, rel, "");
	ck_assert_int_eq(cgroup_read_tree(&l, &sr, CGROUP_CPU, cg, 0, &ids, &n, &e),
			 CGROUP_TOO_BIG);
	ck_assert_ptr_null(ids);
	ck_assert_ptr_nonnull(strstr(e.msg, "': more than 16 levels or 4096 dirs below"));

	/* 4096 dirs in all (the container's own and 4095 below) */
	cg = "/" BE "hadoop-yarn/" C2;
	for (int i = 1; i < CGROUP_TREE_DIRS; i++) {
		char *file = xasprintf(CPU BE "hadoop-yarn/" C2 "/%d/cgroup.procs", i);

		testlib_write(root, file, i == CGROUP_TREE_DIRS - 1 ? "77\n" : "");
		free(file);
	}
	ck_assert_int_eq(cgroup_read_tree(&l, &sr, CGROUP_CPU, cg, 0, &ids, &n, &e), CGROUP_OK);
	ck_assert_uint_eq(n, 1);
	free(ids);
	testlib_write(root, CPU BE "hadoop-yarn/" C2 "/x/cgroup.procs", "");
	ck_assert_int_eq(cgroup_read_tree(&l, &sr, CGROUP_CPU, cg, 0, &ids, &n, &e),
			 CGROUP_TOO_BIG);
	cgroup_layout_release(&l);
}
END_TEST

static Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("pure");
	TCase *tt = tcase_create("tree");

	tcase_add_loop_test(tc, test_cgroup_mounts_parse, 0, sizeof(layouts) / sizeof(layouts[0]));
	tcase_add_test(tc, test_cgroup_mounts_parse_bad);
	tcase_add_test(tc, test_cgroup_set_kube);
	tcase_add_test(tc, test_cgroup_driver_parse);
	tcase_add_loop_test(tc, test_cgroup_cpuset, 0, sizeof(cpusets) / sizeof(cpusets[0]));
	tcase_add_test(tc, test_cgroup_cpuset_bits);
	tcase_add_test(tc, test_cgroup_memory_stat);
	tcase_add_test(tc, test_cgroup_kv_and_cpu_stat);
	tcase_add_test(tc, test_cgroup_parse_i64);
	tcase_add_loop_test(tc, test_cgroup_cpu_max, 0, sizeof(cpumax) / sizeof(cpumax[0]));
	tcase_add_test(tc, test_cgroup_pids);
	tcase_add_test(tc, test_cgknob);
	tcase_add_test(tc, test_cgroup_shares_weight);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tt, tree_setup, tree_teardown);
	tcase_add_test(tt, test_cgroup_detect_v1_combined);
	tcase_add_test(tt, test_cgroup_typed_v1);
	tcase_add_test(tt, test_cgroup_list_containers);
	tcase_add_test(tt, test_cgroup_detect_v2_systemd);
	tcase_add_test(tt, test_cgroup_detect_tree_v1_and_none);
	tcase_add_test(tt, test_cgroup_start_time);
	tcase_add_test(tt, test_cgroup_read_tree_limits);
	tcase_add_loop_test(tt, test_cgroup_fixture_containers, 0,
			    sizeof(fixtures) / sizeof(fixtures[0]));
	suite_add_tcase(s, tt);
	return s;
}

KILO_TEST_MAIN(cgroup_suite)
