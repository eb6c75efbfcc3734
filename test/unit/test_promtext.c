// SPDX-License-Identifier: Apache-2.0
/* test_promtext - Prometheus text format and the atomic textfile write */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "core/promtext.h"
#include "testlib.h"

START_TEST(test_promtext_format)
{
	struct promtext *p = promtext_new();
	const char *const lab[] = { "container", "c\"1\\\n", "app", "a", NULL };

	ck_assert_str_eq(promtext_text(p), "");
	promtext_family(p, "x_bytes", "gauge", "Bytes \\ of\nx");
	promtext_sample_i64(p, "x_bytes", lab, INT64_MAX);
	promtext_sample_i64(p, "x_bytes", NULL, -3);
	promtext_family(p, "y_seconds_total", "counter", "Y");
	promtext_sample_f64(p, "y_seconds_total", NULL, 123.456789);
	promtext_sample_f64(p, "y_seconds_total", lab + 2, 0.1);
	promtext_sample_f64(p, "y_seconds_total", lab + 4, NAN);
	promtext_sample_f64(p, "y_seconds_total", NULL, 1.0 / 3);
	promtext_sample_f64(p, "y_seconds_total", NULL, -INFINITY);
	ck_assert_str_eq(promtext_text(p),
			 "# HELP x_bytes Bytes \\\\ of\\nx\n"
			 "# TYPE x_bytes gauge\n"
			 "x_bytes{container=\"c\\\"1\\\\\\n\",app=\"a\"} 9223372036854775807\n"
			 "x_bytes -3\n"
			 "# HELP y_seconds_total Y\n"
			 "# TYPE y_seconds_total counter\n"
			 "y_seconds_total 123.456789\n"
			 "y_seconds_total{app=\"a\"} 0.1\n"
			 "y_seconds_total NaN\n"
			 "y_seconds_total 0.3333333333333333\n"
			 "y_seconds_total -Inf\n");
	promtext_free(p);
}
END_TEST

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."));
	closedir(d);
	return n;
}

START_TEST(test_promtext_textfile)
{
	char *dir = testlib_tmpdir();
	struct promtext *p = promtext_new();
	struct err e = { 0 };
	struct stat st;
	char *path, *got;

	testlib_write(dir, "t.prom", "old\n");
	promtext_family(p, "a", "gauge", "A");
	promtext_sample_i64(p, "a", NULL, 1);
	ck_assert_int_eq(promtext_write_textfile(p, dir, "t.prom", &e), 0);
	got = testlib_read(dir, "t.prom");
	ck_assert_str_eq(got, "# HELP a A\n# TYPE a gauge\na 1\n");
	free(got);
	ck_assert_int_eq(count_entries(dir), 1); /* no temporary left */
	ck_assert(asprintf(&path, "%s/t.prom", dir) > 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	free(path);

	/* what is there and not a regular file (here a dir) is never
	 * replaced, and no temporary is left */
	testlib_write(dir, "busy.prom/x", "");
	ck_assert_int_eq(promtext_write_textfile(p, dir, "busy.prom", &e), -1);
	ck_assert_int_eq(e.kind, ERR_SYSTEM);
	ck_assert_ptr_nonnull(strstr(e.msg, "busy.prom' is not a regular file: not replaced"));
	ck_assert_int_eq(count_entries(dir), 2);

	/* a missing dir */
	ck_assert(asprintf(&path, "%s/none", dir) > 0);
	ck_assert_int_eq(promtext_write_textfile(p, path, "t.prom", &e), -1);
	ck_assert_int_eq(e.errnum, ENOENT);
	free(path);
	promtext_free(p);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

static Suite *promtext_suite(void)
{
	Suite *s = suite_create("promtext");
	TCase *tc = tcase_create("promtext");

	tcase_add_test(tc, test_promtext_format);
	tcase_add_test(tc, test_promtext_textfile);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(promtext_suite)
