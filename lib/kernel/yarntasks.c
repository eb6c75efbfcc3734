// SPDX-License-Identifier: Apache-2.0
/* yarntasks - the NodeManager process and its threads (see yarntasks.h) */
#include "kernel/yarntasks.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "kernel/cgroup.h"

struct pidvec {
	pid_t *v;
	size_t n, cap;
};

static void pidvec_add(struct pidvec *p, const pid_t *ids, size_t n)
{
	if (n == 0)
		return;
	if (p->n + n > p->cap) {
		p->cap = (p->n + n) * 2;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	memcpy(p->v + p->n, ids, n * sizeof(*ids));
	p->n += n;
}

int yarntasks_is_nm_cmdline(const char *cmdline, size_t len)
{
	for (size_t i = 0; i < len; i += strnlen(cmdline + i, len - i) + 1)
		if (strnlen(cmdline + i, len - i) == strlen(YARNTASKS_NM_CLASS) &&
		    memcmp(cmdline + i, YARNTASKS_NM_CLASS, strlen(YARNTASKS_NM_CLASS)) == 0)
			return 1;
	return 0;
}

/* A decimal pid from a /proc entry name, or 0. */
static pid_t name_pid(const char *name)
{
	int64_t v;

	return num_scan_i64(&name, 1, INT32_MAX, &v) == 0 && !*name ? (pid_t)v : 0;
}

int yarntasks_find_nm(const struct sysroot *s, pid_t *pid, struct err *e)
{
	cleanup_closedir DIR *d = sysroot_opendir(s, "proc", e);
	struct pidvec found = { 0 };
	struct dirent *ent;
	char list[128] = "";

	if (!d)
		return -1;
	while ((ent = readdir(d))) {
		cleanup_free char *rel = NULL, *cmdline = NULL;
		struct err ignored = { 0 };
		pid_t p = name_pid(ent->d_name);
		long len;

		if (!p)
			continue;
		rel = xasprintf("proc/%d/cmdline", (int)p);
		len = sysroot_read_str(s, rel, &cmdline, &ignored);
		if (len > 0 && yarntasks_is_nm_cmdline(cmdline, (size_t)len))
			pidvec_add(&found, &p, 1);
	}
	if (found.n == 1)
		*pid = found.v[0];
	if (found.n > 1)
		qsort(found.v, found.n, sizeof(*found.v), cgroup_pid_cmp);
	for (size_t i = 0; i < found.n; i++) {
		size_t used = strlen(list);

		snprintf(list + used, sizeof(list) - used, "%s%d", i ? ", " : "", (int)found.v[i]);
	}
	free(found.v);
	if (found.n == 0) {
		cleanup_free char *path = sysroot_path(s, "proc");

		return err_set(e, ERR_NOTFOUND, 0, "no NodeManager process (%s) under '%s'",
			       YARNTASKS_NM_CLASS, path);
	}
	if (found.n > 1)
		return err_set(e, ERR_INPUT, 0,
			       "%zu NodeManager processes (%s): give one with --nm-pid", found.n,
			       list);
	return 0;
}

int yarntasks_check_nm(const struct sysroot *s, pid_t pid, struct err *e)
{
	cleanup_free char *rel = xasprintf("proc/%d/cmdline", (int)pid), *cmdline = NULL;
	struct err re = { 0 };
	long len = sysroot_read_str(s, rel, &cmdline, &re);

	if (len < 0 && re.kind == ERR_NOTFOUND)
		return err_set(e, ERR_NOTFOUND, 0, "--nm-pid %d: no such process", (int)pid);
	if (len < 0) {
		if (e)
			*e = re;
		return -1;
	}
	if (!yarntasks_is_nm_cmdline(cmdline, (size_t)len))
		return err_set(e, ERR_USAGE, 0,
			       "--nm-pid %d: process %d is not a NodeManager (no argument '%s' on "
			       "its command line)",
			       (int)pid, (int)pid, YARNTASKS_NM_CLASS);
	return 0;
}

int yarntasks_threads(const struct sysroot *s, pid_t pid, pid_t **tids, size_t *n, struct err *e)
{
	cleanup_free char *rel = xasprintf("proc/%d/task", (int)pid);
	cleanup_closedir DIR *d = NULL;
	struct pidvec out = { 0 };
	struct dirent *ent;

	*tids = NULL;
	*n = 0;
	d = sysroot_opendir(s, rel, e);
	if (!d)
		return err_wrap(e, "threads of process %d", (int)pid);
	while ((ent = readdir(d))) {
		pid_t t = name_pid(ent->d_name);

		if (t)
			pidvec_add(&out, &t, 1);
	}
	if (out.n > 1)
		qsort(out.v, out.n, sizeof(*out.v), cgroup_pid_cmp);
	*tids = out.v;
	*n = out.n;
	return 0;
}
