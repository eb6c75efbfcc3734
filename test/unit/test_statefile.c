// SPDX-License-Identifier: Apache-2.0
/* test_statefile - JSON state files: first run, round trip, atomic replace */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/statefile.h"
#include "core/xalloc.h"
#include "testlib.h"

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
	json_t *doc = json_pack("{s:s,s:s,s:i}", "apiVersion", "kilo/v1", "kind", "T", "a", 1),
	       *back = NULL;

	testlib_write(dir, "s.json", "{\"apiVersion\":\"kilo/v1\",\"kind\":\"T\",\"a\":0}\n");
	ck_assert_msg(statefile_save(path, doc, &e) == 0, "%s", e.msg);
	text = testlib_read(dir, "s.json");
	ck_assert_str_eq(text, "{\"apiVersion\":\"kilo/v1\",\"kind\":\"T\",\"a\":1}\n");
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
	json_t *doc = json_pack("{s:s,s:s}", "apiVersion", "kilo/v1", "kind", "T"), *back = NULL;

	testlib_write(dir, "s.json", "{\"a\":\n");
	ck_assert_int_eq(statefile_load(path, "T", &back, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	/* the position, never the content (the file may hold what it should not) */
	ck_assert_msg(strstr(e.msg, "not a readable T document at line 2, column 0") != NULL, "%s",
		      e.msg);
	ck_assert_ptr_null(strstr(e.msg, "{\"a\""));
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

/* A state path given by mistake: a FIFO is never opened for a blocking
 * read (the tool would hang), and neither it nor a directory is ever
 * replaced; a symlink is written through (its file made when missing); a
 * document of another apiVersion and a huge file are refused. */
START_TEST(test_statefile_not_a_regular_file)
{
	char *dir = testlib_tmpdir(), *fifo = xasprintf("%s/fifo", dir);
	char *link = xasprintf("%s/link", dir), *big = xasprintf("%s/big", dir);
	char *path = xasprintf("%s/s.json", dir), *text;
	struct err e = { 0 };
	json_t *doc = json_pack("{s:s,s:s}", "apiVersion", "kilo/v1", "kind", "T"), *back = NULL;
	struct stat st;
	int fd;

	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(statefile_load(fifo, "T", &back, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(e.msg, "not a regular file"));
	ck_assert_int_eq(statefile_save(fifo, doc, &e), -1);
	ck_assert_int_eq(e.kind, ERR_SYSTEM); /* a state that cannot be written: exit 1 */
	ck_assert_ptr_nonnull(strstr(e.msg, "is not a regular file: not replaced"));
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));

	/* a symlink is written through: the link stays, its file (a state cut
	 * short) is replaced */
	testlib_write(dir, "target", "{\"apiVersion\":\"ki");
	ck_assert_int_eq(symlink("target", link), 0);
	ck_assert_msg(statefile_save(link, doc, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	text = testlib_read(dir, "target");
	ck_assert_str_eq(text, "{\"apiVersion\":\"kilo/v1\",\"kind\":\"T\"}\n");
	free(text);
	ck_assert_int_eq(statefile_load(link, "T", &back, &e), 1);
	json_decref(back);
	back = NULL;
	/* one whose file is gone (a pass withdrew it) makes it again */
	ck_assert_int_eq(unlink(path), -1); /* (no s.json yet) */
	testlib_write(dir, "sub/.keep", "");
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(symlink("sub/made", link), 0);
	ck_assert_msg(statefile_save(link, doc, &e) == 0, "%s", e.msg);
	text = testlib_read(dir, "sub/made");
	ck_assert_ptr_nonnull(text);
	free(text);
	/* one to a FIFO is not replaced, nor is a loop followed */
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(symlink("fifo", link), 0);
	ck_assert_int_eq(statefile_save(link, doc, &e), -1);
	ck_assert_int_eq(e.kind, ERR_SYSTEM);
	ck_assert_ptr_nonnull(strstr(e.msg, "fifo' is not a regular file: not replaced"));
	ck_assert(S_ISFIFO((stat(fifo, &st), st.st_mode)));
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(symlink("link", link), 0);
	ck_assert_int_eq(statefile_save(link, doc, &e), -1);
	ck_assert_int_eq(e.errnum, ELOOP);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(statefile_save(dir, doc, &e), -1); /* a directory */
	ck_assert_int_eq(e.kind, ERR_SYSTEM);

	testlib_write(dir, "s.json", "{\"apiVersion\":\"kilo/v2\",\"kind\":\"T\"}");
	ck_assert_int_eq(statefile_load(path, "T", &back, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(e.msg, "apiVersion is not 'kilo/v1'"));
	ck_assert_ptr_null(strstr(e.msg, "kilo/v2"));
	testlib_write(dir, "s.json", "{\"kind\":\"T\"}");
	ck_assert_int_eq(statefile_load(path, "T", &back, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "apiVersion is not 'kilo/v1'"));

	fd = open(big, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, STATEFILE_MAX_BYTES + 1), 0); /* sparse */
	close(fd);
	ck_assert_int_eq(statefile_load(big, "T", &back, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "larger than 8 MiB"));
	ck_assert_ptr_null(back);
	json_decref(doc);
	testlib_rmtree(dir);
	free(fifo);
	free(link);
	free(big);
	free(path);
	free(dir);
}
END_TEST

/* What is not a state of the kind is never replaced (a path given by
 * mistake, a root-owned symlink to /etc/passwd: it used to become 0600
 * JSON); an empty file, a state cut short, one reformatted by hand are. */
START_TEST(test_statefile_never_replaces_what_is_not_a_state)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/s.json", dir);
	char *link = xasprintf("%s/link", dir), *text;
	struct err e = { 0 };
	json_t *doc = json_pack("{s:s,s:s,s:i}", "apiVersion", "kilo/v1", "kind", "T", "a", 1);
	static const char *const foreign[] = {
		"root:x:0:0:root:/root:/bin/bash\n",
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"U\"}\n", /* another tool's state */
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"TT\"}\n",
		"{ \"kind\": \"T\" }\n",
		"\n",
	};
	static const char *const ours[] = {
		"",
		"{",
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"T\",\"a\":",
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"T\"} trailing\n", /* a torn write */
		"{\n  \"kind\": \"T\",\n  \"apiVersion\": \"kilo/v1\"\n}\n",
	};

	ck_assert_int_eq(symlink("passwd", link), 0);
	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
		testlib_write(dir, "passwd", foreign[i]);
		ck_assert_int_eq(statefile_save(link, doc, &e), -1);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_msg(
			strstr(e.msg,
			       "passwd' is not a kilo state file of kind T (another tool's state, or no state): not replaced") !=
				NULL,
			"%s", e.msg);
		ck_assert_ptr_null(strstr(e.msg, "root:")); /* never the content */
		text = testlib_read(dir, "passwd");
		ck_assert_str_eq(text, foreign[i]);
		free(text);
	}
	ck_assert_int_eq(entries(dir), 2); /* no temporary file left */
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		testlib_write(dir, "s.json", ours[i]);
		ck_assert_msg(statefile_save(path, doc, &e) == 0, "%zu: %s", i, e.msg);
		text = testlib_read(dir, "s.json");
		ck_assert_str_eq(text, "{\"apiVersion\":\"kilo/v1\",\"kind\":\"T\",\"a\":1}\n");
		free(text);
	}
	/* 4 KiB of zeros: the blocks of a crashed write; but a swap file (a
	 * KiB of zeros, then its signature at 4086) is no state */
	{
		char zeros[8192] = { 0 };
		int fd = open(path, O_WRONLY | O_TRUNC);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, zeros, 4096), 4096);
		close(fd);
		ck_assert_msg(statefile_save(path, doc, &e) == 0, "zeros: %s", e.msg);
		memcpy(zeros + 4086, "SWAPSPACE2", 10);
		fd = open(path, O_WRONLY | O_TRUNC);
		ck_assert_int_eq(write(fd, zeros, sizeof(zeros)), (ssize_t)sizeof(zeros));
		close(fd);
		ck_assert_int_eq(statefile_save(path, doc, &e), -1);
		ck_assert_ptr_nonnull(strstr(e.msg, "is not a kilo state file of kind T"));
	}
	json_decref(doc);
	testlib_rmtree(dir);
	free(link);
	free(path);
	free(dir);
}
END_TEST

/* The lock: one holder at a time (a second run waits, then ERR_TEMP); a
 * hard link to the lock file (fs.protected_hardlinks=0 lets another user
 * link any file there) is replaced, never locked; a symlink too. */
START_TEST(test_statefile_lock)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/s.json", dir);
	char *lock = xasprintf("%s.lock", path), *other = xasprintf("%s/other", dir);
	struct err e = { 0 };
	struct stat st;
	int fd, fd2;

	fd = statefile_lock(path, 100, &e);
	ck_assert_msg(fd >= 0, "%s", e.msg);
	fd2 = statefile_lock(path, 60, &e);
	ck_assert_int_eq(fd2, -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_ptr_nonnull(strstr(e.msg, "is in use by another run"));
	close(fd);
	fd = statefile_lock(path, 100, &e);
	ck_assert_int_ge(fd, 0);
	close(fd);

	testlib_write(dir, "other", "x");
	ck_assert_int_eq(unlink(lock), 0);
	ck_assert_int_eq(link(other, lock), 0); /* the lock is another file's name */
	fd = statefile_lock(path, 100, &e);
	ck_assert_msg(fd >= 0, "%s", e.msg);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_nlink, 1);
	ck_assert_int_eq(stat(other, &st), 0);
	ck_assert_int_eq(st.st_nlink, 1); /* replaced, not locked */
	close(fd);
	ck_assert_int_eq(unlink(lock), 0);
	ck_assert_int_eq(symlink(other, lock), 0);
	fd = statefile_lock(path, 100, &e);
	ck_assert_msg(fd >= 0, "%s", e.msg);
	ck_assert_int_eq(lstat(lock, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	close(fd);
	testlib_rmtree(dir);
	free(other);
	free(lock);
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
	tcase_add_test(tc, test_statefile_not_a_regular_file);
	tcase_add_test(tc, test_statefile_never_replaces_what_is_not_a_state);
	tcase_add_test(tc, test_statefile_lock);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(statefile_suite)
