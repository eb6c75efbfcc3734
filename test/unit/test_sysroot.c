// SPDX-License-Identifier: Apache-2.0
/* test_sysroot - the /sys and /proc seam on a fake tree, with faults */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/sysroot.h"
#include "testlib.h"

static char *root;
static struct sysroot sr;

static void setup(void)
{
	struct err e = { 0 };

	root = testlib_tmpdir();
	testlib_write(root, "sys/fs/cgroup/cpu/kubepods/cpu.shares", "1024\n");
	testlib_write(root, "sys/fs/cgroup/cpu/kubepods/cpu.cfs_quota_us", "max\n");
	testlib_write(root, "proc/self/mountinfo", "");
	ck_assert_int_eq(sysroot_open(&sr, root, &e), 0);
}

static void teardown(void)
{
	sysroot_release(&sr);
	sysroot_fault_clear();
	testlib_rmtree(root);
	free(root);
}

START_TEST(test_sysroot_read_write)
{
	struct err e = { 0 };
	char *s = NULL;
	int64_t v = 0;

	ck_assert_int_eq(sr.live, 0);
	ck_assert_int_eq(sysroot_read_str(&sr, "sys/fs/cgroup/cpu/kubepods/cpu.shares", &s, &e), 4);
	ck_assert_str_eq(s, "1024");
	free(s);
	ck_assert_int_eq(sysroot_read_i64(&sr, "/sys/fs/cgroup/cpu/kubepods/cpu.shares", &v, &e),
			 0);
	ck_assert_int_eq(v, 1024);
	ck_assert_int_eq(sysroot_writef(&sr, "sys/fs/cgroup/cpu/kubepods/cpu.shares", &e, "%d", 2),
			 0);
	s = testlib_read(root, "sys/fs/cgroup/cpu/kubepods/cpu.shares");
	ck_assert_str_eq(s, "2");
	free(s);
	ck_assert_int_eq(
		sysroot_read_i64(&sr, "sys/fs/cgroup/cpu/kubepods/cpu.cfs_quota_us", &v, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
}
END_TEST

/* Whole files of every size around the 4096-byte first read, on the paths
 * where a short read ends the loop and on one where it does not. */
static const size_t sizes[] = { 0, 1, 4031, 4032, 4033, 4095, 4096, 4097, 8191, 8192, 20000 };
static const char *const big_files[] = { "sys/fs/cgroup/cpu/kubepods/cgroup.procs", "proc/42/stat",
					 "proc/self/mountinfo" };

START_TEST(test_sysroot_read_sizes)
{
	size_t size = sizes[_i % (sizeof(sizes) / sizeof(sizes[0]))];
	const char *rel = big_files[_i / (sizeof(sizes) / sizeof(sizes[0]))];
	char *text = malloc(size + 2), *s = NULL;
	struct err e = { 0 };

	for (size_t i = 0; i < size; i++)
		text[i] = i % 8 == 7 ? '\n' : (char)('0' + i % 7);
	text[size] = 'x';
	text[size + 1] = '\0';
	testlib_write(root, rel, text);
	ck_assert_int_eq(sysroot_read_str(&sr, rel, &s, &e), (long)size + 1);
	ck_assert_str_eq(s, text);
	free(s);
	free(text);
}
END_TEST

START_TEST(test_sysroot_missing_is_notfound_with_full_path)
{
	struct err e = { 0 };
	char *s = NULL;
	char want[4200];

	ck_assert_int_eq(sysroot_read_str(&sr, "sys/fs/cgroup/memory/x/memory.stat", &s, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_int_eq(e.errnum, ENOENT);
	snprintf(want, sizeof(want), "open '%s/sys/fs/cgroup/memory/x/memory.stat': %s", root,
		 strerror(ENOENT));
	ck_assert_str_eq(e.msg, want);
	/* writes never create files: the kernel lacks it = unsupported */
	ck_assert_int_eq(sysroot_write_str(&sr, "sys/fs/cgroup/cpu/kubepods/cpu.idle", "1", &e),
			 -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_int_eq(sysroot_exists(&sr, "sys/fs/cgroup/cpu/kubepods/cpu.idle"), 0);
}
END_TEST

START_TEST(test_sysroot_dirs)
{
	struct err e = { 0 };
	DIR *d;

	ck_assert_int_eq(sysroot_mkdir(&sr, "sys/fs/cgroup/cpu/kubepods/new", 0755, &e), 0);
	ck_assert_int_eq(sysroot_mkdir(&sr, "sys/fs/cgroup/cpu/kubepods/new", 0755, &e), 1);
	ck_assert_int_eq(sysroot_is_dir(&sr, "sys/fs/cgroup/cpu/kubepods/new"), 1);
	d = sysroot_opendir(&sr, "sys/fs/cgroup/cpu/kubepods", &e);
	ck_assert_ptr_nonnull(d);
	closedir(d);
	ck_assert_ptr_null(sysroot_opendir(&sr, "sys/fs/cgroup/nope", &e));
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_int_eq(sysroot_rmdir(&sr, "sys/fs/cgroup/cpu/kubepods/new", &e), 0);
	ck_assert_int_eq(sysroot_is_dir(&sr, "sys/fs/cgroup/cpu/kubepods/new"), 0);
}
END_TEST

START_TEST(test_sysroot_faults)
{
	struct err e = { 0 };
	const char *f = "sys/fs/cgroup/cpu/kubepods/cpu.shares";
	char *s = NULL;

	sysroot_fault_add(SYSROOT_WRITE, "cpu.shares", EBUSY, 1);
	ck_assert_int_eq(sysroot_write_str(&sr, f, "5", &e), -1);
	ck_assert_int_eq(e.errnum, EBUSY);
	ck_assert_int_eq(e.kind, ERR_SYSTEM);
	/* used up: the next write goes through */
	ck_assert_int_eq(sysroot_write_str(&sr, f, "5", &e), 0);
	/* the name must match whole path components */
	sysroot_fault_add(SYSROOT_READ, "shares", EIO, 0);
	ck_assert_int_eq(sysroot_read_str(&sr, f, &s, &e), 1);
	free(s);
	ck_assert_int_eq(sysroot_fault_parse("read:kubepods/cpu.shares:ESRCH:2", &e), 0);
	ck_assert_int_eq(sysroot_read_str(&sr, f, &s, &e), -1);
	ck_assert_int_eq(e.errnum, ESRCH);
	ck_assert_int_eq(sysroot_read_str(&sr, f, &s, &e), -1);
	ck_assert_int_eq(sysroot_read_str(&sr, f, &s, &e), 1);
	free(s);
	ck_assert_int_eq(sysroot_fault_parse("write:x:EWHAT", &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE);
	ck_assert_int_eq(sysroot_fault_parse("write", &e), -1);
}
END_TEST

START_TEST(test_sysroot_append_one_write_each)
{
	struct err e = { 0 };
	char *s = NULL;
	int fd;

	testlib_write(root, "sys/fs/resctrl/BE/tasks", "7\n");
	fd = sysroot_open_append(&sr, "sys/fs/resctrl/BE/tasks", &e);
	ck_assert_int_ge(fd, 0);
	sysroot_fault_add(SYSROOT_WRITE, "BE/tasks", ESRCH, 1);
	ck_assert_int_eq(sysroot_write_fd(&sr, fd, "sys/fs/resctrl/BE/tasks", "8\n", &e), -1);
	ck_assert_int_eq(e.errnum, ESRCH);
	ck_assert_int_eq(sysroot_write_fd(&sr, fd, "sys/fs/resctrl/BE/tasks", "9\n", &e), 0);
	ck_assert_int_eq(sysroot_write_fd(&sr, fd, "sys/fs/resctrl/BE/tasks", "10\n", &e), 0);
	close(fd);
	s = testlib_read(root, "sys/fs/resctrl/BE/tasks");
	ck_assert_str_eq(s, "7\n9\n10\n");
	free(s);
	/* never created */
	ck_assert_int_eq(sysroot_open_append(&sr, "sys/fs/resctrl/LS/tasks", &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	sysroot_fault_add(SYSROOT_OPEN, "BE/tasks", EACCES, 1);
	ck_assert_int_eq(sysroot_open_append(&sr, "sys/fs/resctrl/BE/tasks", &e), -1);
	ck_assert_int_eq(e.errnum, EACCES);
}
END_TEST

START_TEST(test_sysroot_not_a_dir)
{
	struct sysroot bad;
	struct err e = { 0 };

	ck_assert_int_eq(sysroot_open(&bad, "/nonexistent/kilo", &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(e.msg, "sysroot '/nonexistent/kilo'"));
	sysroot_release(&bad);
	ck_assert_int_eq(sysroot_open(&bad, "/", &e), 0);
	ck_assert_int_eq(bad.live, 1);
	sysroot_release(&bad);
}
END_TEST

static Suite *sysroot_suite(void)
{
	Suite *s = suite_create("sysroot");
	TCase *tc = tcase_create("fake-tree");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sysroot_read_write);
	tcase_add_loop_test(tc, test_sysroot_read_sizes, 0,
			    (int)(sizeof(sizes) / sizeof(sizes[0]) * 3));
	tcase_add_test(tc, test_sysroot_missing_is_notfound_with_full_path);
	tcase_add_test(tc, test_sysroot_dirs);
	tcase_add_test(tc, test_sysroot_faults);
	tcase_add_test(tc, test_sysroot_not_a_dir);
	tcase_add_test(tc, test_sysroot_append_one_write_each);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(sysroot_suite)
