// SPDX-License-Identifier: Apache-2.0
/* qosstep - what the steps of a qos-cgset pass share (see qosstep.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "run/qosstep.h"

char *qosstep_parent(const char *cg)
{
	const char *slash = strrchr(cg, '/');

	if (!slash || slash == cg)
		return xstrdup("/");
	return strndup(cg, (size_t)(slash - cg));
}

char *qosstep_child(const char *cg, const char *name)
{
	return xasprintf("%s/%s", strcmp(cg, "/") == 0 ? "" : cg, name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the subdirs of cg in c, sorted; *n of them (new array of new
 * strings; NULL when none or unreadable). */
char **qosstep_subdirs(const struct qosstep *x, enum cgroup_ctrl c, const char *cg, size_t *n)
{
	cleanup_free char *rel = cgroup_path(x->l, c, cg, NULL);
	cleanup_closedir DIR *d = NULL;
	struct err e = { 0 };
	struct dirent *de;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (!rel || !(d = sysroot_opendir(x->s, rel, &e)))
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR) {
			cleanup_free char *sub = NULL;

			if (de->d_type != DT_UNKNOWN)
				continue;
			sub = xasprintf("%s/%s", rel, de->d_name);
			if (!sysroot_is_dir(x->s, sub))
				continue;
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[(*n)++] = xstrdup(de->d_name);
	}
	if (*n)
		qsort(names, *n, sizeof(*names), str_cmp);
	return names;
}

void qosstep_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int qosstep_has_pid(const pid_t *pids, size_t n, pid_t p)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == p)
			return 1;
	return 0;
}

/* cgroup_read() through o->cache: a status, the text in *out (new) when
 * CGROUP_OK, *age_ms the cache's age of it or -1 when read now. */
int qosstep_read_cached(const struct qosstep *x, enum cgroup_ctrl c, const char *cg,
			const char *file, char **out, int64_t *age_ms)
{
	const char *v = NULL;
	int r;

	*out = NULL;
	if (cgcache_get(x->o->cache, c, cg, file, &v, age_ms)) {
		if (!v)
			return CGROUP_UNSUPPORTED;
		*out = xstrdup(v);
		return CGROUP_OK;
	}
	*age_ms = -1;
	r = cgroup_read(x->l, x->s, c, cg, file, out, NULL);
	if (r == CGROUP_OK || r == CGROUP_UNSUPPORTED)
		cgcache_put(x->o->cache, c, cg, file, *out);
	return r;
}

/* An integer knob of the cpu dir cg through the cache: 1 with *v, else 0. */
int qosstep_read_cached_i64(const struct qosstep *x, const char *cg, enum cgknob k, int64_t *v)
{
	cleanup_free char *text = NULL;
	int64_t age;

	return qosstep_read_cached(x, CGROUP_CPU, cg, cgknob_file(x->l, k, CGROUP_CPU), &text,
				   &age) == CGROUP_OK &&
	       num_parse_i64(text, INT64_MIN, INT64_MAX, v) == 0;
}

void qosstep_add_int(struct qosstep *x, enum cgknob k, const char *cg, int64_t v, const char *why)
{
	char val[24];

	cgchange_add_knob(x->plan, cgchange_chain(x->plan), x->l, k, cg,
			  cgknob_format(x->l, k, v, -1, val, sizeof(val)), "%s", why);
}
