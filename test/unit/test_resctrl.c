// SPDX-License-Identifier: Apache-2.0
/* test_resctrl - resctrl and yarntasks on copies of the fake trees, with
 * the fault hook standing in for the kernel (EINVAL, ESRCH, ENOSPC) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "decide/resctrlqos.h"
#include "kernel/members.h"
#include "kernel/resctrl.h"
#include "kernel/yarntasks.h"
#include "testlib.h"

static char *root;
static struct sysroot sr;

/* A copy of test/fixtures/sysroot/<name> as the sysroot. */
static void use_fixture(const char *name)
{
	char *src = NULL, *cmd = NULL, *rel = NULL;
	struct err e = { 0 };

	ck_assert(asprintf(&rel, "sysroot/%s/.", name) > 0);
	src = testlib_fixture(rel);
	ck_assert(asprintf(&cmd, "cp -R '%s' '%s'", src, root) > 0);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(sysroot_open(&sr, root, &e), 0);
	free(rel);
	free(src);
	free(cmd);
}

static void setup(void)
{
	root = testlib_tmpdir();
	sr.dirfd = -1;
}

static void teardown(void)
{
	sysroot_release(&sr);
	sysroot_fault_clear();
	testlib_rmtree(root);
	free(root);
}

static void assert_file(const char *rel, const char *want)
{
	char *got = testlib_read(root, rel);

	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	free(got);
}

/* ---- detection -------------------------------------------------------- */

START_TEST(test_resctrl_detect_intel)
{
	struct schemata_facts f;
	const char *why = "x";
	struct err e = { 0 };

	use_fixture("resctrl-intel");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), 1);
	ck_assert_ptr_null(why);
	ck_assert_int_eq(f.vendor, SCHEMATA_VENDOR_INTEL);
	ck_assert_uint_eq(f.ncache, 1);
	ck_assert_str_eq(f.cache[0].name, "L3");
	ck_assert_uint_eq(f.cache[0].cbm_mask, 0x7ff);
	ck_assert_int_eq(f.cache[0].min_cbm_bits, 1);
	ck_assert_int_eq(f.cache[0].num_closids, 16);
	ck_assert_int_eq(f.has_mb, 1);
	ck_assert_int_eq(f.mb_min_bandwidth, 10);
	ck_assert_int_eq(f.mb_bandwidth_gran, 10);
	ck_assert_int_eq(f.mb_delay_linear, 1);
	ck_assert_int_eq(f.mb_num_closids, 8);
	ck_assert_int_eq(f.mb_mbps, 0);
	ck_assert_uint_eq(f.root.n, 2);
	schemata_release(&f.root);
}
END_TEST

START_TEST(test_resctrl_detect_amd_l3only_mbps_cdp)
{
	struct schemata_facts f;
	const char *why = NULL;
	struct err e = { 0 };

	use_fixture("resctrl-amd");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), 1);
	ck_assert_int_eq(f.vendor, SCHEMATA_VENDOR_AMD);
	ck_assert_int_eq(f.cache[0].min_cbm_bits, 0);
	ck_assert_ptr_null(resctrlqos_mb_skip_reason(&f)); /* AMD: delay_linear 0 is fine */
	schemata_release(&f.root);

	testlib_write(root, "proc/self/mounts",
		      "resctrl /sys/fs/resctrl resctrl rw,relatime,mba_MBps 0 0\n");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), 1);
	ck_assert_int_eq(f.mb_mbps, 1);
	schemata_release(&f.root);

	/* CDP: two cache resources, each with its info dir */
	testlib_write(root, "sys/fs/resctrl/schemata", "L3CODE:0=ffff\nL3DATA:0=ffff\n");
	testlib_write(root, "sys/fs/resctrl/info/L3CODE/cbm_mask", "ffff\n");
	testlib_write(root, "sys/fs/resctrl/info/L3CODE/min_cbm_bits", "1\n");
	testlib_write(root, "sys/fs/resctrl/info/L3CODE/num_closids", "8\n");
	testlib_write(root, "sys/fs/resctrl/info/L3DATA/cbm_mask", "ff\n");
	testlib_write(root, "sys/fs/resctrl/info/L3DATA/min_cbm_bits", "1\n");
	testlib_write(root, "sys/fs/resctrl/info/L3DATA/num_closids", "8\n");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), 1);
	ck_assert_uint_eq(f.ncache, 2);
	ck_assert_str_eq(f.cache[1].name, "L3DATA");
	ck_assert_uint_eq(f.cache[1].cbm_mask, 0xff);
	schemata_release(&f.root);

	/* strtoull reads "-ff" as 2^64 - 255: a mask of every way */
	testlib_write(root, "sys/fs/resctrl/info/L3DATA/cbm_mask", "-ff\n");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(e.msg, "expected a hex mask, got '-ff'"));
	schemata_release(&f.root);
}
END_TEST

START_TEST(test_resctrl_detect_none_and_unmounted)
{
	struct schemata_facts f;
	const char *why = NULL;
	struct err e = { 0 };
	char *dir = NULL;

	use_fixture("no-resctrl");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), 0);
	ck_assert_str_eq(why, "no /sys/fs/resctrl: the kernel or the CPU lacks resctrl");
	ck_assert(asprintf(&dir, "%s/sys/fs/resctrl", root) > 0);
	ck_assert_int_eq(mkdir(dir, 0755), 0); /* the mount point of an unmounted resctrl */
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), 0);
	ck_assert_str_eq(why, "resctrl is not mounted on /sys/fs/resctrl");
	testlib_write(root, "sys/fs/resctrl/schemata", "");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), 0);
	ck_assert_str_eq(why, "no L3 cache or memory bandwidth allocation (info/L3, info/MB)");
	free(dir);
}
END_TEST

START_TEST(test_resctrl_detect_bad_files)
{
	struct schemata_facts f;
	const char *why = NULL;
	struct err e = { 0 };
	char want[4200];

	use_fixture("resctrl-intel");
	testlib_write(root, "sys/fs/resctrl/info/L3/cbm_mask", "7fz\n");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	snprintf(want, sizeof(want),
		 "read '%s/sys/fs/resctrl/info/L3/cbm_mask': expected a hex mask, got '7fz'", root);
	ck_assert_str_eq(e.msg, want);
	schemata_release(&f.root);
	testlib_write(root, "sys/fs/resctrl/info/L3/cbm_mask", "7ff\n");
	testlib_write(root, "sys/fs/resctrl/schemata", "L3:0=7ff\nMB 0=100\n");
	ck_assert_int_eq(resctrl_detect(&sr, &f, &why, &e), -1);
	snprintf(want, sizeof(want),
		 "read '%s/sys/fs/resctrl/schemata': line 2: expected <resource>:<id>=<value>;..., "
		 "got 'MB 0=100'",
		 root);
	ck_assert_str_eq(e.msg, want);
	schemata_release(&f.root);
}
END_TEST

/* ---- groups ----------------------------------------------------------- */

static void want_be(const char *text, struct schemata *want)
{
	struct err e = { 0 };

	ck_assert_int_eq(schemata_parse(text, want, &e), 0);
}

START_TEST(test_resctrl_group_unchanged_when_numerically_equal)
{
	struct resctrl_group_result r;
	struct schemata want = { 0 };
	const char *padded = "L3:0=00f;1=00f\nMB:0= 30;1= 30\n";

	use_fixture("resctrl-intel");
	testlib_write(root, "sys/fs/resctrl/BE/schemata", padded);
	want_be("L3:0=f;1=f\nMB:0=30;1=30", &want);
	sysroot_fault_add(SYSROOT_WRITE, "BE/schemata", EIO, 0); /* any write would fail */
	ck_assert_int_eq(resctrl_group_apply(&sr, "BE", &want, 0, &r), 0);
	ck_assert_str_eq(r.result, "unchanged");
	ck_assert_int_eq(r.created, 0);
	ck_assert_str_eq(r.old, "L3:0=f;1=f\nMB:0=30;1=30");
	ck_assert_str_eq(r.new, "L3:0=f;1=f\nMB:0=30;1=30");
	assert_file("sys/fs/resctrl/BE/schemata", padded);
	resctrl_group_result_release(&r);
	schemata_release(&want);
}
END_TEST

START_TEST(test_resctrl_group_writes_only_differing_lines)
{
	struct resctrl_group_result r;
	struct schemata want = { 0 };

	use_fixture("resctrl-intel");
	testlib_write(root, "sys/fs/resctrl/BE/schemata", "L3:0=00f;1=00f\nMB:0=100;1=100\n");
	want_be("L3:0=f;1=f\nMB:0=30;1=30", &want);
	/* the first write fails: it must be the MB line, L3 is already right */
	sysroot_fault_add(SYSROOT_WRITE, "BE/schemata", EINVAL, 1);
	ck_assert_int_eq(resctrl_group_apply(&sr, "BE", &want, 0, &r), -1);
	ck_assert_str_eq(r.result, "failed");
	ck_assert_ptr_nonnull(strstr(r.err.msg, "MB:0=30;1=30: write '"));
	resctrl_group_result_release(&r);
	ck_assert_int_eq(resctrl_group_apply(&sr, "BE", &want, 0, &r), 0);
	ck_assert_str_eq(r.result, "written");
	assert_file("sys/fs/resctrl/BE/schemata", "MB:0=30;1=30\n");
	resctrl_group_result_release(&r);
	schemata_release(&want);
}
END_TEST

START_TEST(test_resctrl_group_einval_reports_last_cmd_status_and_goes_on)
{
	struct resctrl_group_result r;
	struct schemata want = { 0 };
	char want_msg[4200];

	use_fixture("resctrl-intel");
	want_be("L3:0=0;1=0\nMB:0=30;1=30", &want);
	testlib_write(root, "sys/fs/resctrl/info/last_cmd_status",
		      "Need at least 1 bits in the mask\n");
	sysroot_fault_add(SYSROOT_WRITE, "BE/schemata", EINVAL, 1);
	ck_assert_int_eq(resctrl_group_apply(&sr, "BE", &want, 0, &r), -1);
	ck_assert_str_eq(r.result, "failed");
	ck_assert_int_eq(r.err.errnum, EINVAL);
	snprintf(want_msg, sizeof(want_msg),
		 "L3:0=0;1=0: write '%s/sys/fs/resctrl/BE/schemata': Invalid argument "
		 "(info/last_cmd_status: Need at least 1 bits in the mask)",
		 root);
	ck_assert_str_eq(r.err.msg, want_msg);
	/* the MB line was still written */
	assert_file("sys/fs/resctrl/BE/schemata", "MB:0=30;1=30\n");
	resctrl_group_result_release(&r);
	schemata_release(&want);
}
END_TEST

START_TEST(test_resctrl_group_create)
{
	struct resctrl_group_result r;
	struct schemata want = { 0 };
	char want_msg[4200];

	use_fixture("resctrl-intel");
	want_be("L3:0=7ff;1=7ff\nMB:0=100;1=100", &want);
	ck_assert_int_eq(resctrl_group_apply(&sr, "LS", &want, 1, &r), 0);
	ck_assert_int_eq(r.created, 1);
	ck_assert_str_eq(r.result, "planned");
	ck_assert_ptr_null(r.old);
	ck_assert_int_eq(sysroot_is_dir(&sr, "sys/fs/resctrl/LS"), 0);
	resctrl_group_result_release(&r);

	sysroot_fault_add(SYSROOT_MKDIR, "resctrl/LS", ENOSPC, 1);
	ck_assert_int_eq(resctrl_group_apply(&sr, "LS", &want, 0, &r), -1);
	ck_assert_int_eq(r.created, 0);
	snprintf(
		want_msg, sizeof(want_msg),
		"no free CLOSID for group LS: mkdir '%s/sys/fs/resctrl/LS': No space left on device",
		root);
	ck_assert_str_eq(r.err.msg, want_msg);
	resctrl_group_result_release(&r);

	/* the kernel fills a new group; a plain directory stays empty */
	ck_assert_int_eq(resctrl_group_apply(&sr, "LS", &want, 0, &r), -1);
	ck_assert_int_eq(r.created, 1);
	ck_assert_int_eq(sysroot_is_dir(&sr, "sys/fs/resctrl/LS"), 1);
	ck_assert_int_eq(r.err.kind, ERR_NOTFOUND);
	resctrl_group_result_release(&r);
	testlib_write(root, "sys/fs/resctrl/LS/schemata", "L3:0=7ff;1=7ff\nMB:0=100;1=100\n");
	ck_assert_int_eq(resctrl_group_apply(&sr, "LS", &want, 0, &r), 0);
	ck_assert_int_eq(r.created, 0);
	ck_assert_str_eq(r.result, "unchanged");
	resctrl_group_result_release(&r);
	schemata_release(&want);
}
END_TEST

/* ---- tasks ------------------------------------------------------------ */

START_TEST(test_resctrl_tasks_one_write_per_id_ascending)
{
	static const pid_t ids[] = { 2001, 1003, 1001, 1002, 1001, 2001 };
	struct resctrl_tasks_result r;
	struct err e = { 0 };

	use_fixture("resctrl-intel"); /* BE/tasks holds 1003 */
	/* fail the first write only: if ids were batched, nothing would be moved */
	sysroot_fault_add(SYSROOT_WRITE, "BE/tasks", ESRCH, 1);
	ck_assert_int_eq(resctrl_tasks_move(&sr, "BE", ids, 6, NULL, NULL, 0, &r, &e), 0);
	ck_assert_int_eq(r.already, 1);
	ck_assert_int_eq(r.gone, 1);
	ck_assert_int_eq(r.moved, 2);
	ck_assert_int_eq(r.failed, 0);
	ck_assert_uint_eq(json_array_size(r.errors), 0);
	/* appended one by one, ascending; 1001 was gone */
	assert_file("sys/fs/resctrl/BE/tasks", "1003\n1002\n2001\n");
	resctrl_tasks_result_release(&r);
}
END_TEST

START_TEST(test_resctrl_tasks_all_gone_is_an_error)
{
	static const pid_t ids[] = { 1001, 1002, 1003, 2001 };
	struct resctrl_tasks_result r;
	struct err e = { 0 };
	char want[4200];

	use_fixture("resctrl-intel");
	sysroot_fault_add(SYSROOT_WRITE, "BE/tasks", ESRCH, 0);
	ck_assert_int_eq(resctrl_tasks_move(&sr, "BE", ids, 4, NULL, NULL, 0, &r, &e), -1);
	ck_assert_int_eq(r.gone, 3);
	ck_assert_int_eq(r.already, 1);
	ck_assert_int_eq(e.errnum, ESRCH);
	snprintf(want, sizeof(want),
		 "write '%s/sys/fs/resctrl/BE/tasks': all 3 thread ids are gone (ESRCH): is this "
		 "the host pid namespace (hostPID)?",
		 root);
	ck_assert_str_eq(e.msg, want);
	ck_assert_str_eq(json_string_value(json_array_get(r.errors, 0)), want);
	resctrl_tasks_result_release(&r);
}
END_TEST

START_TEST(test_resctrl_tasks_other_errors_listed)
{
	static const pid_t ids[] = { 1001, 1002 };
	struct resctrl_tasks_result r;
	struct err e = { 0 };
	char want[4200];

	use_fixture("resctrl-intel");
	sysroot_fault_add(SYSROOT_WRITE, "BE/tasks", EINVAL, 1);
	ck_assert_int_eq(resctrl_tasks_move(&sr, "BE", ids, 2, NULL, NULL, 0, &r, &e), 0);
	ck_assert_int_eq(r.failed, 1);
	ck_assert_int_eq(r.moved, 1);
	snprintf(want, sizeof(want), "thread 1001: write '%s/sys/fs/resctrl/BE/tasks': %s", root,
		 strerror(EINVAL));
	ck_assert_str_eq(json_string_value(json_array_get(r.errors, 0)), want);
	resctrl_tasks_result_release(&r);

	/* dry run: nothing written, a group still to be made counts as empty */
	ck_assert_int_eq(resctrl_tasks_move(&sr, "LS", ids, 2, NULL, NULL, 1, &r, &e), 0);
	ck_assert_int_eq(r.moved, 2);
	resctrl_tasks_result_release(&r);
	ck_assert_int_eq(resctrl_tasks_move(&sr, "LS", ids, 2, NULL, NULL, 0, &r, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	resctrl_tasks_result_release(&r);
}
END_TEST

/* ---- yarntasks -------------------------------------------------------- */

#define C2 "container_e17_1410901177871_0001_01_000002"

static void pids_str(char *got, size_t size, const pid_t *v, size_t n)
{
	got[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(got + strlen(got), size - strlen(got), "%d ", (int)v[i]);
}

/* resctrl-assign's tasks mode: the member threads of the whole tree. */
START_TEST(test_members_threads_of_tree)
{
	struct cgroup_layout l = { 0 };
	struct members m;
	struct err e = { 0 };
	char got[256];

	use_fixture("resctrl-intel");
	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, NULL, &e), 0);
	ck_assert_int_eq(members_read(&l, &sr, l.hadoop_yarn, MEMBERS_THREADS, &m, &e), CGROUP_OK);
	pids_str(got, sizeof(got), m.pids, m.n);
	ck_assert_str_eq(got, "1001 2001 2002 "); /* attempt/ is nested */
	pids_str(got, sizeof(got), m.tids, m.ntids);
	ck_assert_str_eq(got, "1001 1002 1003 2001 2002 2003 ");
	ck_assert_uint_eq(m.nforeign, 0);
	members_release(&m);

	/* a breaker writes thread 4243 of process 4242 (outside YARN) into a
	 * container's tasks: v1 then lists 4242 in cgroup.procs */
	testlib_write(root,
		      "sys/fs/cgroup/cpu,cpuacct/kubepods/besteffort/hadoop-yarn/" C2 "/tasks",
		      "1001\n1002\n1003\n4243\n");
	testlib_write(root,
		      "sys/fs/cgroup/cpu,cpuacct/kubepods/besteffort/hadoop-yarn/" C2
		      "/cgroup.procs",
		      "1001\n4242\n");
	testlib_write(root, "proc/4242/cgroup", "3:cpu,cpuacct:/system.slice\n"); /* its leader */
	ck_assert_int_eq(members_read(&l, &sr, l.hadoop_yarn, MEMBERS_THREADS, &m, &e), CGROUP_OK);
	pids_str(got, sizeof(got), m.tids, m.ntids);
	ck_assert_str_eq(got, "1001 1002 1003 2001 2002 2003 ");
	pids_str(got, sizeof(got), m.foreign, m.nforeign);
	ck_assert_str_eq(got, "4243 ");
	members_release(&m);
	/* as processes: 4242 is foreign */
	ck_assert_int_eq(members_read(&l, &sr, "/kubepods/besteffort/hadoop-yarn/" C2, 0, &m, &e),
			 CGROUP_OK);
	pids_str(got, sizeof(got), m.pids, m.n);
	ck_assert_str_eq(got, "1001 ");
	pids_str(got, sizeof(got), m.foreign, m.nforeign);
	ck_assert_str_eq(got, "4242 ");
	members_release(&m);
	cgroup_layout_release(&l);

	ck_assert_int_eq(cgroup_layout_detect(&l, &sr, CGROUP_DRIVER_AUTO, "yarn-elsewhere", &e),
			 0);
	ck_assert_int_eq(members_read(&l, &sr, l.hadoop_yarn, MEMBERS_THREADS, &m, &e),
			 CGROUP_ABSENT);
	ck_assert_uint_eq(m.ntids, 0);
	ck_assert_str_eq(e.msg, "cgroup '/yarn-elsewhere' is in none of the NodeManager's "
				"hierarchies");
	members_release(&m);
	cgroup_layout_release(&l);
}
END_TEST

START_TEST(test_yarntasks_nodemanager)
{
	static const char nm[] = "java\0-Xmx1g\0" YARNTASKS_NM_CLASS "\0";
	static const char wrapper[] = "bash\0-c\0exec java " YARNTASKS_NM_CLASS "\0";
	static const char longer[] = "java\0" YARNTASKS_NM_CLASS "X\0";
	pid_t pid = 0, *tids = NULL;
	size_t n = 0;
	struct err e = { 0 };

	ck_assert_int_eq(yarntasks_is_nm_cmdline(nm, sizeof(nm) - 1), 1);
	ck_assert_int_eq(yarntasks_is_nm_cmdline(wrapper, sizeof(wrapper) - 1), 0);
	ck_assert_int_eq(yarntasks_is_nm_cmdline(longer, sizeof(longer) - 1), 0);
	/* no trailing NUL (a cmdline rewritten by the process) */
	ck_assert_int_eq(yarntasks_is_nm_cmdline(nm, sizeof(nm) - 2), 1);

	use_fixture("resctrl-intel");
	ck_assert_int_eq(yarntasks_find_nm(&sr, &pid, &e), 0);
	ck_assert_int_eq(pid, 4242); /* not the wrapper shell 4200 */
	ck_assert_int_eq(yarntasks_threads(&sr, pid, &tids, &n, &e), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(tids[0], 4242);
	ck_assert_int_eq(tids[2], 4244);
	free(tids);
	ck_assert_int_eq(yarntasks_threads(&sr, 999, &tids, &n, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);

	testlib_write(root, "proc/4300/cmdline", "java\n");
	{
		FILE *f;
		char *path = NULL;

		ck_assert(asprintf(&path, "%s/proc/4300/cmdline", root) > 0);
		f = fopen(path, "w");
		fwrite(nm, 1, sizeof(nm), f);
		fclose(f);
		free(path);
	}
	ck_assert_int_eq(yarntasks_find_nm(&sr, &pid, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, "2 NodeManager processes (4242, 4300): give one with --nm-pid");
	testlib_rmtree(root);
	ck_assert_int_eq(yarntasks_find_nm(&sr, &pid, &e), -1);
}
END_TEST

static Suite *resctrl_suite(void)
{
	Suite *s = suite_create("resctrl");
	TCase *tc = tcase_create("resctrl");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_resctrl_detect_intel);
	tcase_add_test(tc, test_resctrl_detect_amd_l3only_mbps_cdp);
	tcase_add_test(tc, test_resctrl_detect_none_and_unmounted);
	tcase_add_test(tc, test_resctrl_detect_bad_files);
	tcase_add_test(tc, test_resctrl_group_unchanged_when_numerically_equal);
	tcase_add_test(tc, test_resctrl_group_writes_only_differing_lines);
	tcase_add_test(tc, test_resctrl_group_einval_reports_last_cmd_status_and_goes_on);
	tcase_add_test(tc, test_resctrl_group_create);
	tcase_add_test(tc, test_resctrl_tasks_one_write_per_id_ascending);
	tcase_add_test(tc, test_resctrl_tasks_all_gone_is_an_error);
	tcase_add_test(tc, test_resctrl_tasks_other_errors_listed);
	tcase_add_test(tc, test_members_threads_of_tree);
	tcase_add_test(tc, test_yarntasks_nodemanager);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(resctrl_suite)
