// SPDX-License-Identifier: Apache-2.0
/* test_statefile - JSON state files: first run, round trip, atomic replace */
#include <dirent.h>
#include <string.h>

#include "statefile.h"
#include "testlib.h"
#include "xalloc.h"

/* Number of entries in dir besides . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

START_TEST(test_statefile_missing_is_first_run)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/none.json", dir);
	struct err e = { 0 };
	json_t *doc = json_true();

	ck_assert_int_eq(statefile_load(path, "T", &doc, &e), 0);
	ck_assert_ptr_null(doc);
	testlib_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_statefile_round_trip_replaces_atomically)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/s.json", dir), *text;
	struct err e = { 0 };
	json_t *doc = json_pack("{s:s,s:i}", "kind", "T", "a", 1), *back = NULL;

	testlib_write(dir, "s.json", "{\"old\":true}\n");
	ck_assert_msg(statefile_save(path, doc, &e) == 0, "%s", e.msg);
	text = testlib_read(dir, "s.json");
	ck_assert_str_eq(text, "{\"kind\":\"T\",\"a\":1}\n");
	ck_assert_int_eq(entries(dir), 1); /* no temporary file left */
	ck_assert_int_eq(statefile_load(path, "T", &back, &e), 1);
	ck_assert(json_equal(doc, back));
	json_decref(back);
	json_decref(doc);
	free(text);
	testlib_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_statefile_errors)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/s.json", dir);
	char *nodir = xasprintf("%s/no/such/s.json", dir);
	struct err e = { 0 };
	json_t *doc = json_object(), *back = NULL;

	testlib_write(dir, "s.json", "{\"a\":\n");
	ck_assert_int_eq(statefile_load(path, "T", &back, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0, "%s", e.msg);
	testlib_write(dir, "s.json", "");
	ck_assert_int_eq(statefile_load(path, "T", &back, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	testlib_write(dir, "s.json", "{\"kind\":\"U\"}");
	ck_assert_int_eq(statefile_load(path, "T", &back, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(e.msg, "no T document"));
	ck_assert_int_eq(statefile_save(nodir, doc, &e), -1);
	ck_assert_int_eq(e.kind, ERR_SYSTEM);
	ck_assert_ptr_nonnull(strstr(e.msg, "No such file or directory"));
	ck_assert_int_eq(entries(dir), 1);
	json_decref(doc);
	testlib_rmtree(dir);
	free(nodir);
	free(path);
	free(dir);
}
END_TEST

static Suite *statefile_suite(void)
{
	Suite *s = suite_create("statefile");
	TCase *tc = tcase_create("statefile");

	tcase_add_test(tc, test_statefile_missing_is_first_run);
	tcase_add_test(tc, test_statefile_round_trip_replaces_atomically);
	tcase_add_test(tc, test_statefile_errors);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(statefile_suite)
