// SPDX-License-Identifier: Apache-2.0
/* cgroup - paths, dirs, raw files, typed readers and YARN containers (see
 * cgroup.h; the layout is in cgroup_layout.c) */
#include "kernel/cgroup.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "kernel/cgknob.h"
#include "kernel/procfs.h"

static const char *const ctrl_names[CGROUP_NCTRL] = {
	[CGROUP_CPU] = "cpu",       [CGROUP_CPUACCT] = "cpuacct", [CGROUP_CPUSET] = "cpuset",
	[CGROUP_MEMORY] = "memory", [CGROUP_BLKIO] = "blkio",     [CGROUP_PIDS] = "pids",
};

const char *cgroup_ctrl_name(enum cgroup_ctrl c)
{
	return c < CGROUP_NCTRL ? ctrl_names[c] : "?";
}

/* ---- Pure parsers ---------------------------------------------------- */

/* A decimal integer at s (after blanks), followed by white space or the
 * end.  Returns 0 and sets *end past it, or -1. */
static int parse_int(const char *s, int64_t *out, const char **end)
{
	int64_t v;

	s += strspn(s, " \t");
	if (num_scan_i64(&s, INT64_MIN, INT64_MAX, &v) < 0 || (*s && !isspace((unsigned char)*s)))
		return -1;
	*out = v;
	if (end)
		*end = s;
	return 0;
}

int cgroup_parse_i64(const char *text, int64_t *out)
{
	const char *p;
	int64_t v;

	if (parse_int(text, &v, &p) < 0 || p[strspn(p, " \t\n")])
		return -1;
	*out = v;
	return 0;
}

/* The start of the line after line, or NULL at the end of the text. */
static const char *next_line(const char *line)
{
	line = strchr(line, '\n');
	return line && line[1] ? line + 1 : NULL;
}

int cgroup_parse_kv(const char *text, const char *key, int64_t *out, struct err *e)
{
	size_t kl = strlen(key);

	for (const char *line = *text ? text : NULL; line; line = next_line(line)) {
		if (strncmp(line, key, kl) != 0 || line[kl] != ' ')
			continue;
		if (parse_int(line + kl + 1, out, NULL) < 0) {
			int len = (int)strcspn(line, "\n");

			return err_set(e, ERR_INPUT, 0, "expected '%s <integer>', got '%.*s'", key,
				       len > 80 ? 80 : len, line);
		}
		return 1;
	}
	return 0;
}

int cgroup_parse_memory_stat(const char *text, int version, struct cgroup_memory_stat *ms,
			     struct err *e)
{
	static const struct {
		const char *v1, *v2;
		size_t off;
	} keys[] = {
		{ "total_rss", "anon", offsetof(struct cgroup_memory_stat, anon) },
		{ "total_cache", "file", offsetof(struct cgroup_memory_stat, file) },
		{ "total_active_anon", "active_anon",
		  offsetof(struct cgroup_memory_stat, active_anon) },
		{ "total_inactive_anon", "inactive_anon",
		  offsetof(struct cgroup_memory_stat, inactive_anon) },
		{ "total_active_file", "active_file",
		  offsetof(struct cgroup_memory_stat, active_file) },
		{ "total_inactive_file", "inactive_file",
		  offsetof(struct cgroup_memory_stat, inactive_file) },
		{ "total_unevictable", "unevictable",
		  offsetof(struct cgroup_memory_stat, unevictable) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int64_t *field = (int64_t *)((char *)ms + keys[i].off);
		int r = cgroup_parse_kv(text, version == 2 ? keys[i].v2 : keys[i].v1, field, e);

		if (r < 0)
			return err_wrap(e, "memory.stat");
		if (r == 0)
			*field = -1;
	}
	return 0;
}

int64_t cgroup_memory_stat_used(const struct cgroup_memory_stat *ms)
{
	if (ms->inactive_anon < 0 || ms->active_anon < 0 || ms->unevictable < 0)
		return -1;
	return ms->inactive_anon + ms->active_anon + ms->unevictable;
}

int cgroup_parse_cpu_stat_usage(const char *text, int64_t *ns, struct err *e)
{
	int64_t us;
	int r = cgroup_parse_kv(text, "usage_usec", &us, e);

	if (r < 0)
		return err_wrap(e, "cpu.stat");
	if (r == 0)
		return err_set(e, ERR_INPUT, 0, "cpu.stat: no usage_usec line");
	if (us < 0 || us > INT64_MAX / 1000)
		return err_set(e, ERR_INPUT, 0, "cpu.stat: usage_usec out of range");
	*ns = us * 1000;
	return 0;
}

int cgroup_parse_cpu_max_value(const char *text, int64_t *quota_us, int64_t *period_us)
{
	const char *p = text + strspn(text, " ");
	int64_t q, per = -1;

	if (strncmp(p, "max", 3) == 0 && (p[3] == ' ' || p[3] == '\n' || !p[3])) {
		q = -1;
		p += 3;
	} else if (parse_int(p, &q, &p) < 0 || q <= 0) {
		return -1;
	}
	p += strspn(p, " ");
	if (*p && *p != '\n' && (parse_int(p, &per, &p) < 0 || per <= 0))
		return -1;
	if (p[strspn(p, " \t\n")])
		return -1;
	*quota_us = q;
	*period_us = per;
	return 0;
}

int cgroup_parse_cpu_max(const char *text, int64_t *quota_us, int64_t *period_us, struct err *e)
{
	int64_t q, per;

	if (cgroup_parse_cpu_max_value(text, &q, &per) < 0 || per < 0)
		return err_set(e, ERR_INPUT, 0,
			       "cpu.max: expected '<quota|max> <period>', got '%.40s'", text);
	*quota_us = q;
	*period_us = per;
	return 0;
}

int cgroup_parse_pids(const char *text, pid_t **pids, size_t *n, struct err *e)
{
	cleanup_free pid_t *v = NULL;
	size_t len = 0, cap = 0;
	const char *p = text;

	*pids = NULL;
	*n = 0;
	while (*p) {
		int64_t pid;
		const char *end;

		if (*p == '\n') {
			p++;
			continue;
		}
		if (!isdigit((unsigned char)*p) || parse_int(p, &pid, &end) < 0 || pid <= 0 ||
		    pid > INT32_MAX || (*end && *end != '\n'))
			return err_set(e, ERR_INPUT, 0, "expected one pid a line, got '%.*s'",
				       (int)strcspn(p, "\n") > 40 ? 40 : (int)strcspn(p, "\n"), p);
		if (len == cap) {
			cap = cap ? cap * 2 : 16;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[len++] = (pid_t)pid;
		p = end;
	}
	*pids = steal_ptr(&v);
	*n = len;
	return 0;
}

char *cgroup_path(const struct cgroup_layout *l, enum cgroup_ctrl c, const char *cg,
		  const char *file)
{
	if (c >= CGROUP_NCTRL || !l->mount[c])
		return NULL;
	if (!cg)
		cg = "";
	while (*cg == '/')
		cg++;
	return xasprintf("%s%s%s%s%s", l->mount[c], *cg ? "/" : "", cg, file ? "/" : "",
			 file ? file : "");
}

int cgroup_exists(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		  const char *cg)
{
	cleanup_free char *dir = cgroup_path(l, c, cg, NULL);

	return dir && sysroot_is_dir(s, dir);
}

int cgroup_exists_any(const struct cgroup_layout *l, const struct sysroot *s, const char *cg)
{
	for (int c = 0; c < CGROUP_NCTRL; c++)
		if (cgroup_exists(l, s, (enum cgroup_ctrl)c, cg))
			return 1;
	return 0;
}

enum cgroup_ctrl cgroup_procs_ctrl(unsigned ctrls)
{
	static const enum cgroup_ctrl order[] = { CGROUP_CPU,  CGROUP_CPUACCT, CGROUP_MEMORY,
						  CGROUP_PIDS, CGROUP_CPUSET,  CGROUP_BLKIO };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (ctrls & (1u << order[i]))
			return order[i];
	return CGROUP_CPU;
}

char *cgroup_container_path(const struct cgroup_layout *l, const char *id)
{
	return xasprintf("%s/%s", l->hadoop_yarn, id);
}

static int not_mounted(enum cgroup_ctrl c, const char *cg, struct err *e)
{
	err_set(e, ERR_NOTFOUND, 0, "cgroup '%s': controller %s is not mounted", cg,
		cgroup_ctrl_name(c));
	return CGROUP_ABSENT;
}

int cgroup_mkdir(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		 const char *cg, int *created, struct err *e)
{
	cleanup_free char *dir = cgroup_path(l, c, cg, NULL);
	struct err local = { 0 };
	int r;

	if (created)
		*created = 0;
	if (!dir)
		return not_mounted(c, cg, e);
	r = sysroot_mkdir(s, dir, 0755, &local);
	if (r >= 0) {
		if (created)
			*created = r == 0;
		return CGROUP_OK;
	}
	if (e)
		*e = local;
	return local.kind == ERR_NOTFOUND ? CGROUP_ABSENT : -1;
}

int cgroup_rmdir(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		 const char *cg, struct err *e)
{
	cleanup_free char *dir = cgroup_path(l, c, cg, NULL);
	struct err local = { 0 };

	if (!dir)
		return not_mounted(c, cg, e);
	if (sysroot_rmdir(s, dir, &local) == 0)
		return CGROUP_OK;
	if (e)
		*e = local;
	return local.kind == ERR_NOTFOUND ? CGROUP_ABSENT : -1;
}

/* ---- Raw files ------------------------------------------------------- */

/* After a failed open of file in cg: which status.  e holds the message. */
static int classify(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		    const char *cg, struct err *e)
{
	if (e->kind != ERR_NOTFOUND)
		return -1;
	return cgroup_exists(l, s, c, cg) ? CGROUP_UNSUPPORTED : CGROUP_ABSENT;
}

int cgroup_read(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		const char *cg, const char *file, char **out, struct err *e)
{
	cleanup_free char *rel = cgroup_path(l, c, cg, file);
	struct err local = { 0 };

	*out = NULL;
	if (!rel)
		return not_mounted(c, cg, e);
	if (sysroot_read_str(s, rel, out, &local) >= 0)
		return CGROUP_OK;
	if (e)
		*e = local;
	return classify(l, s, c, cg, &local);
}

int cgroup_read_i64(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		    const char *cg, const char *file, int64_t *out, struct err *e)
{
	cleanup_free char *text = NULL;
	int r = cgroup_read(l, s, c, cg, file, &text, e);

	if (r != CGROUP_OK)
		return r;
	if (parse_int(text, out, NULL) < 0) {
		cleanup_free char *rel = cgroup_path(l, c, cg, file);
		cleanup_free char *path = sysroot_path(s, rel);

		return err_set(e, ERR_INPUT, 0, "read '%s': expected an integer, got '%.40s'", path,
			       text);
	}
	return CGROUP_OK;
}

int cgroup_write(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		 const char *cg, const char *file, const char *val, struct err *e)
{
	cleanup_free char *rel = cgroup_path(l, c, cg, file);
	struct err local = { 0 };

	if (!rel)
		return not_mounted(c, cg, e);
	if (sysroot_write_str(s, rel, val, &local) == 0)
		return CGROUP_OK;
	if (e)
		*e = local;
	return classify(l, s, c, cg, &local);
}

static int wrap_path(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		     const char *cg, const char *file, struct err *e)
{
	cleanup_free char *rel = cgroup_path(l, c, cg, file);
	cleanup_free char *path = sysroot_path(s, rel);

	return err_wrap(e, "read '%s'", path);
}

/* ---- Typed readers ---------------------------------------------------- */

int cgroup_read_cpu_usage(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
			  int64_t *ns, struct err *e)
{
	int64_t aux;

	return cgknob_read(l, s, cg, CGKNOB_CPU_USAGE, ns, &aux, e);
}

int cgroup_read_memory_stat(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
			    struct cgroup_memory_stat *ms, struct err *e)
{
	const char *file = cgknob_file(l, CGKNOB_MEMORY_STAT, CGROUP_MEMORY);
	cleanup_free char *text = NULL;
	int r = cgroup_read(l, s, CGROUP_MEMORY, cg, file, &text, e);

	if (r != CGROUP_OK)
		return r;
	if (cgroup_parse_memory_stat(text, cgknob_version(l, CGROUP_MEMORY), ms, e) < 0)
		return wrap_path(l, s, CGROUP_MEMORY, cg, file, e);
	return CGROUP_OK;
}

int cgroup_read_memory_current(const struct cgroup_layout *l, const struct sysroot *s,
			       const char *cg, int64_t *bytes, struct err *e)
{
	int64_t aux;

	return cgknob_read(l, s, cg, CGKNOB_MEMORY_CURRENT, bytes, &aux, e);
}

int cgroup_read_cfs(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		    int64_t *quota_us, int64_t *period_us, struct err *e)
{
	int64_t aux;
	int r = cgknob_read(l, s, cg, CGKNOB_CFS_QUOTA, quota_us, period_us, e);

	/* v2: both in cpu.max; v1: the period in a file of its own */
	if (r != CGROUP_OK || *period_us >= 0)
		return r;
	return cgknob_read(l, s, cg, CGKNOB_CFS_PERIOD, period_us, &aux, e);
}

int cgroup_read_cpuset(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		       struct cpuset *set, struct err *e)
{
	cleanup_free char *text = NULL;
	const char *file = cgknob_file(l, CGKNOB_CPUSET_CPUS, CGROUP_CPUSET);
	int r = cgroup_read(l, s, CGROUP_CPUSET, cg, file, &text, e);

	/* v2: an empty cpuset.cpus means the parent's CPUs (cgroup-v2.rst) */
	if (r == CGROUP_OK && cgknob_version(l, CGROUP_CPUSET) == 2 && !text[strspn(text, " \n")]) {
		free(text);
		text = NULL;
		file = cgknob_file(l, CGKNOB_CPUSET_CPUS_EFFECTIVE, CGROUP_CPUSET);
		r = cgroup_read(l, s, CGROUP_CPUSET, cg, file, &text, e);
	}
	if (r != CGROUP_OK)
		return r;
	if (cpuset_parse(text, set, e) < 0)
		return wrap_path(l, s, CGROUP_CPUSET, cg, file, e);
	return CGROUP_OK;
}

static int read_pid_file(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
			 const char *cg, const char *file, pid_t **pids, size_t *n, struct err *e)
{
	cleanup_free char *text = NULL;
	int r = cgroup_read(l, s, c, cg, file, &text, e);

	*pids = NULL;
	*n = 0;
	if (r != CGROUP_OK)
		return r;
	if (cgroup_parse_pids(text, pids, n, e) < 0)
		return wrap_path(l, s, c, cg, file, e);
	return CGROUP_OK;
}

int cgroup_read_procs(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		      const char *cg, pid_t **pids, size_t *n, struct err *e)
{
	return read_pid_file(l, s, c, cg, cgknob_file(l, CGKNOB_PROCS, c), pids, n, e);
}

int cgroup_read_threads(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
			const char *cg, pid_t **tids, size_t *n, struct err *e)
{
	return read_pid_file(l, s, c, cg, cgknob_file(l, CGKNOB_THREADS, c), tids, n, e);
}

int cgroup_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* file of cg and of every dir below it, appended to *v (len, cap); dirs
 * counts the dirs read.  A dir that vanishes meanwhile adds nothing. */
static int read_tree(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		     const char *cg, const char *file, int depth, pid_t **v, size_t *len,
		     size_t *dirs, struct err *e)
{
	cleanup_free pid_t *ids = NULL;
	cleanup_free char *dir = NULL;
	struct err de = { 0 };
	struct dirent *ent;
	size_t n = 0;
	DIR *d;
	int r;

	if (depth > CGROUP_TREE_DEPTH || ++*dirs > CGROUP_TREE_DIRS) {
		err_set(e, ERR_INPUT, 0, "cgroup '%s': more than %d levels or %d dirs below", cg,
			CGROUP_TREE_DEPTH, CGROUP_TREE_DIRS);
		return CGROUP_TOO_BIG;
	}
	r = read_pid_file(l, s, c, cg, file, &ids, &n, e);
	if (r == CGROUP_ABSENT)
		return depth == 0 ? CGROUP_ABSENT : CGROUP_OK; /* gone meanwhile */
	if (r < 0 && depth > 0 && e && e->errnum == ENAMETOOLONG)
		return CGROUP_TOO_BIG; /* a path past PATH_MAX: too deep a tree */
	if (r != CGROUP_OK)
		return r;
	*v = xrealloc(*v, (*len + n + 1) * sizeof(**v));
	if (n)
		memcpy(*v + *len, ids, n * sizeof(*ids));
	*len += n;
	dir = cgroup_path(l, c, cg, NULL);
	d = dir ? sysroot_opendir(s, dir, &de) : NULL;
	if (!d) {
		if (!dir || de.kind == ERR_NOTFOUND)
			return CGROUP_OK;
		if (e)
			*e = de;
		return -1;
	}
	while ((ent = readdir(d))) {
		cleanup_free char *sub = NULL;

		if (ent->d_type != DT_DIR || strcmp(ent->d_name, ".") == 0 ||
		    strcmp(ent->d_name, "..") == 0)
			continue; /* ".hidden" is a cgroup like any other */
		sub = xasprintf("%s/%s", cg, ent->d_name);
		r = read_tree(l, s, c, sub, file, depth + 1, v, len, dirs, e);
		if (r < 0 || r == CGROUP_TOO_BIG) {
			closedir(d);
			return r;
		}
	}
	closedir(d);
	return CGROUP_OK;
}

int cgroup_read_tree(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		     const char *cg, int threads, pid_t **ids, size_t *n, struct err *e)
{
	const char *file = cgknob_file(l, threads ? CGKNOB_THREADS : CGKNOB_PROCS, c);
	pid_t *v = NULL;
	size_t len = 0, dirs = 0, m = 0;
	int r = read_tree(l, s, c, cg, file, 0, &v, &len, &dirs, e);

	*ids = NULL;
	*n = 0;
	if (r != CGROUP_OK) {
		free(v);
		return r;
	}
	if (len)
		qsort(v, len, sizeof(*v), cgroup_pid_cmp);
	for (size_t i = 0; i < len; i++) /* a process moved between dirs meanwhile: once */
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	if (!m) {
		free(v);
		v = NULL;
	}
	*ids = v;
	*n = m;
	return CGROUP_OK;
}

int cgroup_start_time_ms(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
			 const char *cg, int64_t *ms, struct err *e)
{
	cleanup_free pid_t *pids = NULL;
	size_t n = 0;
	uint64_t oldest = UINT64_MAX;
	int64_t btime;
	int r = cgroup_read_procs(l, s, c, cg, &pids, &n, e);

	*ms = -1;
	if (r != CGROUP_OK)
		return r;
	if (n == 0)
		return CGROUP_OK;
	if (procfs_read_stat(s, NULL, &btime, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct err pe = { 0 };
		uint64_t ticks;

		if (procfs_read_starttime(s, pids[i], &ticks, &pe) < 0) {
			if (pe.kind == ERR_NOTFOUND || pe.errnum == ESRCH)
				continue; /* exited meanwhile */
			if (e)
				*e = pe;
			return -1;
		}
		if (ticks < oldest)
			oldest = ticks;
	}
	if (oldest != UINT64_MAX)
		*ms = procfs_ticks_to_ms(btime, oldest, procfs_hz());
	return CGROUP_OK;
}

/* ---- YARN containers ------------------------------------------------- */

static int container_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cgroup_container *)a)->id,
		      ((const struct cgroup_container *)b)->id);
}

int cgroup_list_containers(const struct cgroup_layout *l, const struct sysroot *s,
			   struct cgroup_container **out, size_t *n, struct err *e)
{
	cleanup_free struct cgroup_container *v = NULL;
	size_t len = 0, cap = 0, w = 0;

	*out = NULL;
	*n = 0;
	for (int c = 0; c < CGROUP_NCTRL; c++) {
		cleanup_free char *dir = cgroup_path(l, (enum cgroup_ctrl)c, l->hadoop_yarn, NULL);
		cleanup_closedir DIR *d = NULL;
		struct err de = { 0 };
		struct dirent *ent;
		int same = -1;

		if (!dir)
			continue;
		for (int p = 0; p < c && same < 0; p++)
			if (l->mount[p] && strcmp(l->mount[p], l->mount[c]) == 0)
				same = p;
		if (same >= 0) { /* one mount, several controllers (v2, cpu,cpuacct) */
			for (size_t i = 0; i < len; i++)
				if (v[i].ctrls & (1u << same)) {
					v[i].ctrls |= 1u << c;
					v[i].ino[c] = v[i].ino[same];
				}
			continue;
		}
		d = sysroot_opendir(s, dir, &de);
		if (!d) {
			if (de.kind == ERR_NOTFOUND)
				continue;
			if (e)
				*e = de;
			return -1;
		}
		while ((ent = readdir(d))) {
			size_t nl = strlen(ent->d_name);

			/* the grammar is checked once a name, after the merge */
			if (nl > CONTAINERID_MAX || strncmp(ent->d_name, "container_", 10) != 0)
				continue;
			if (ent->d_type != DT_DIR) {
				cleanup_free char *sub = NULL;

				if (ent->d_type != DT_UNKNOWN && ent->d_type != DT_LNK)
					continue;
				sub = xasprintf("%s/%s", dir, ent->d_name);
				if (!sysroot_is_dir(s, sub))
					continue;
			}
			if (len == cap) {
				cap = cap ? cap * 2 : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			memset(&v[len], 0, sizeof(v[len]));
			memcpy(v[len].id, ent->d_name, nl + 1);
			v[len].ctrls = 1u << c;
			v[len].ino[c] = ent->d_ino;
			len++;
		}
	}
	if (len == 0)
		return 0;
	qsort(v, len, sizeof(*v), container_cmp);
	for (size_t i = 0; i < len; i++) {
		if (w > 0 && strcmp(v[w - 1].id, v[i].id) == 0) {
			v[w - 1].ctrls |= v[i].ctrls;
			for (int c = 0; c < CGROUP_NCTRL; c++)
				v[w - 1].ino[c] |= v[i].ino[c];
		} else if (w > 0 && !containerid_valid(v[w - 1].id)) {
			v[w - 1] = v[i]; /* not a container: overwritten */
		} else {
			v[w++] = v[i];
		}
	}
	if (w > 0 && !containerid_valid(v[w - 1].id))
		w--;
	if (w == 0)
		return 0;
	*out = steal_ptr(&v);
	*n = w;
	return 0;
}
