// SPDX-License-Identifier: Apache-2.0
/* testlib - helpers shared by the unit tests */
#include "testlib.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc/containerlist.h"
#include "doc/nodeusage.h"
#include "run/qosapply.h"

char *testlib_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = NULL;

	ck_assert(asprintf(&dir, "%s/kilo-unit-XXXXXX", base && *base ? base : "/tmp") > 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void testlib_rmtree(const char *dir)
{
	if (dir)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void mkparents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		ck_assert_msg(mkdir(path, 0755) == 0 || errno == EEXIST, "mkdir %s", path);
		*p = '/';
	}
}

void testlib_write(const char *dir, const char *rel, const char *content)
{
	char *path = NULL;
	FILE *f;

	ck_assert(asprintf(&path, "%s/%s", dir, rel) > 0);
	mkparents(path);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "create %s", path);
	fputs(content, f);
	fclose(f);
	free(path);
}

char *testlib_read(const char *dir, const char *rel)
{
	char *path = NULL, *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	if (dir)
		ck_assert(asprintf(&path, "%s/%s", dir, rel) > 0);
	else
		path = strdup(rel);
	f = fopen(path, "r");
	free(path);
	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

char *testlib_fixture(const char *rel)
{
	const char *base = getenv("KILO_FIXTURES");
	char *path = NULL;

	ck_assert(asprintf(&path, "%s/%s", base && *base ? base : "test/fixtures", rel) > 0);
	return path;
}

int testlib_qos_inputs(const json_t *usage, const json_t *list, struct nodeusage *nu,
		       struct containerlist *cl, struct qosapply_inputs *in, struct err *e)
{
	memset(in, 0, sizeof(*in));
	memset(cl, 0, sizeof(*cl));
	memset(nu, 0, sizeof(*nu));
	if ((list && containerlist_from_json(list, cl, e) < 0) ||
	    (usage && nodeusage_from_json(usage, nu, e) < 0))
		return -1;
	return qosapply_inputs(usage ? nu : NULL, list ? cl : NULL, in, e);
}
