// SPDX-License-Identifier: Apache-2.0
/* cgroup - layout detection, paths and typed files (see cgroup.h) */
#include "kernel/cgroup.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
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

static int ctrl_from_name(const char *name, size_t len)
{
	for (int c = 0; c < CGROUP_NCTRL; c++)
		if (strlen(ctrl_names[c]) == len && memcmp(ctrl_names[c], name, len) == 0)
			return c;
	return -1;
}

static const char *const driver_names[] = { "auto", "cgroupfs", "systemd" };

const char *cgroup_driver_name(enum cgroup_driver d)
{
	return d <= CGROUP_DRIVER_SYSTEMD ? driver_names[d] : "?";
}

int cgroup_driver_parse(const char *s, enum cgroup_driver *out, struct err *e)
{
	for (int d = CGROUP_DRIVER_AUTO; d <= CGROUP_DRIVER_SYSTEMD; d++)
		if (strcmp(s, driver_names[d]) == 0) {
			*out = (enum cgroup_driver)d;
			return 0;
		}
	return err_set(
		e, ERR_USAGE, 0,
		"invalid value for --cgroup-driver: '%s' (expected auto, cgroupfs or systemd)", s);
}

/* ---- Pure parsers ---------------------------------------------------- */

/* A decimal integer at s, followed by whitespace or the end.  Returns 0 and
 * sets *end past it, or -1. */
static int parse_int(const char *s, int64_t *out, const char **end)
{
	char *p = NULL;
	long long v;

	errno = 0;
	v = strtoll(s, &p, 10);
	if (errno || p == s || (*p && !isspace((unsigned char)*p)))
		return -1;
	*out = v;
	if (end)
		*end = p;
	return 0;
}

int cgroup_parse_i64(const char *text, int64_t *out)
{
	return parse_int(text, out, NULL);
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

int cgroup_parse_cpu_max(const char *text, int64_t *quota_us, int64_t *period_us, struct err *e)
{
	const char *p = text;
	int64_t q, per;

	while (*p == ' ')
		p++;
	if (strncmp(p, "max", 3) == 0 && (p[3] == ' ' || p[3] == '\n' || !p[3])) {
		q = -1;
		p += 3;
	} else if (parse_int(p, &q, &p) < 0 || q <= 0) {
		return err_set(e, ERR_INPUT, 0,
			       "cpu.max: expected '<quota|max> <period>', got '%.40s'", text);
	}
	while (*p == ' ')
		p++;
	if (parse_int(p, &per, &p) < 0 || per <= 0)
		return err_set(e, ERR_INPUT, 0,
			       "cpu.max: expected '<quota|max> <period>', got '%.40s'", text);
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return err_set(e, ERR_INPUT, 0, "cpu.max: trailing text in '%.40s'", text);
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

/* ---- Layout ---------------------------------------------------------- */

void cgroup_layout_release(struct cgroup_layout *l)
{
	for (int c = 0; c < CGROUP_NCTRL; c++)
		free(l->mount[c]);
	free(l->unified);
	free(l->kubepods);
	free(l->burstable);
	free(l->besteffort);
	free(l->hadoop_yarn);
	memset(l, 0, sizeof(*l));
}

/* Copy a mountinfo field (octal escapes \ooo decoded) without the leading
 * '/', as a sysroot-relative path.  New string. */
static char *mount_rel(const char *field, size_t len)
{
	char *out = xmalloc(len + 1), *o = out;

	for (size_t i = 0; i < len; i++) {
		if (field[i] == '\\' && i + 3 < len && field[i + 1] >= '0' && field[i + 1] <= '3' &&
		    field[i + 2] >= '0' && field[i + 2] <= '7' && field[i + 3] >= '0' &&
		    field[i + 3] <= '7') {
			*o++ = (char)((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
				      (field[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = field[i];
		}
	}
	*o = '\0';
	o = out;
	while (*o == '/')
		o++;
	memmove(out, o, strlen(o) + 1);
	return out;
}

/* Split the next space-separated field of a mountinfo line. */
static const char *next_field(const char **p, size_t *len)
{
	const char *s = *p;

	while (*s == ' ')
		s++;
	*len = strcspn(s, " \n");
	*p = s + *len;
	return *len ? s : NULL;
}

/* Map the controllers named in a comma-separated list to the mount mnt. */
static void map_v1(struct cgroup_layout *l, const char *opts, size_t olen, const char *mnt,
		   size_t mlen)
{
	const char *o = opts, *end = opts + olen;

	while (o < end) {
		size_t n = strcspn(o, ",");
		int c;

		if (o + n > end)
			n = (size_t)(end - o);
		c = ctrl_from_name(o, n);
		if (c >= 0 && !l->mount[c]) {
			l->mount[c] = mount_rel(mnt, mlen);
			l->ctrl_version[c] = 1;
		}
		o += n + 1;
	}
}

int cgroup_mounts_parse(const char *mountinfo, struct cgroup_layout *l, struct err *e)
{
	int count = 0, lineno = 0;

	for (const char *line = mountinfo; line && *line;) {
		const char *p = line, *mnt = NULL, *f, *fstype, *opts;
		size_t len, mlen = 0, flen, olen;
		int i;

		lineno++;
		for (i = 0; i < 5 && (f = next_field(&p, &len)); i++)
			if (i == 4) {
				mnt = f;
				mlen = len;
			}
		/* optional fields up to the "-" separator */
		while ((f = next_field(&p, &len)) && !(len == 1 && *f == '-'))
			;
		fstype = f ? next_field(&p, &flen) : NULL;
		if (!mnt || !fstype || !next_field(&p, &len))
			return err_set(e, ERR_INPUT, 0, "mountinfo line %d: malformed", lineno);
		opts = next_field(&p, &olen);
		if (flen == 7 && memcmp(fstype, "cgroup2", 7) == 0) {
			if (!l->unified)
				l->unified = mount_rel(mnt, mlen);
			count++;
		} else if (flen == 6 && memcmp(fstype, "cgroup", 6) == 0 && opts) {
			map_v1(l, opts, olen, mnt, mlen);
			count++;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return count;
}

void cgroup_layout_map_unified(struct cgroup_layout *l, const char *controllers)
{
	int pure = 1;

	for (int c = 0; c < CGROUP_NCTRL; c++)
		if (l->ctrl_version[c] == 1)
			pure = 0;
	for (int c = 0; l->unified && c < CGROUP_NCTRL; c++) {
		const char *want = ctrl_names[c];
		int listed = pure;

		if (l->mount[c])
			continue;
		if (c == CGROUP_CPUACCT)
			want = "cpu";
		else if (c == CGROUP_BLKIO)
			want = "io";
		for (const char *p = controllers; !listed && p && *p;) {
			size_t n;

			while (*p == ' ' || *p == '\n')
				p++;
			n = strcspn(p, " \n");
			listed = n && n == strlen(want) && memcmp(p, want, n) == 0;
			p += n;
		}
		if (listed) {
			l->mount[c] = xstrdup(l->unified);
			l->ctrl_version[c] = 2;
		}
	}
	if (l->ctrl_version[CGROUP_CPU])
		l->version = l->ctrl_version[CGROUP_CPU];
	else if (l->ctrl_version[CGROUP_MEMORY])
		l->version = l->ctrl_version[CGROUP_MEMORY];
	else
		l->version = pure && l->unified ? 2 : 1;
}

int cgroup_layout_set_kube(struct cgroup_layout *l, enum cgroup_driver driver,
			   const char *hierarchy, struct err *e)
{
	cleanup_free char *h = NULL;
	int systemd = driver == CGROUP_DRIVER_SYSTEMD;

	if (hierarchy) {
		const char *p = hierarchy;
		size_t n;

		while (*p == '/')
			p++;
		h = xstrdup(p);
		n = strlen(h);
		while (n > 0 && h[n - 1] == '/')
			h[--n] = '\0';
		if (!*h || strchr(h, ','))
			goto bad;
		for (const char *c = h;; c++) { /* each component */
			size_t cl = strcspn(c, "/");

			if (cl == 0 || (cl == 1 && c[0] == '.') ||
			    (cl == 2 && c[0] == '.' && c[1] == '.'))
				goto bad;
			c += cl;
			if (!*c)
				break;
		}
	}
	free(l->kubepods);
	free(l->burstable);
	free(l->besteffort);
	free(l->hadoop_yarn);
	l->driver = systemd ? CGROUP_DRIVER_SYSTEMD : CGROUP_DRIVER_CGROUPFS;
	l->kubepods = xstrdup(systemd ? "/kubepods.slice" : "/kubepods");
	l->burstable = xstrdup(systemd ? "/kubepods.slice/kubepods-burstable.slice"
				       : "/kubepods/burstable");
	l->besteffort = xstrdup(systemd ? "/kubepods.slice/kubepods-besteffort.slice"
					: "/kubepods/besteffort");
	l->hadoop_yarn = h ? xasprintf("/%s", h) : xasprintf("%s/hadoop-yarn", l->besteffort);
	return 0;
bad:
	return err_set(e, ERR_USAGE, 0,
		       "invalid value for --hierarchy: '%s' (expected a cgroup path such as "
		       "kubepods/besteffort/hadoop-yarn)",
		       hierarchy);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* No mountinfo: read the layout from the content of sys/fs/cgroup. */
static void mounts_from_tree(struct cgroup_layout *l, const struct sysroot *s)
{
	cleanup_closedir DIR *d = NULL;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;

	if (sysroot_exists(s, "sys/fs/cgroup/cgroup.controllers")) {
		l->unified = xstrdup("sys/fs/cgroup");
		return;
	}
	d = sysroot_opendir(s, "sys/fs/cgroup", NULL);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xasprintf("sys/fs/cgroup/%s", de->d_name);
	}
	if (n)
		qsort(names, n, sizeof(*names), entry_cmp);
	for (size_t i = 0; i < n; i++) {
		cleanup_free char *probe = xasprintf("%s/cgroup.controllers", names[i]);

		if (!sysroot_is_dir(s, names[i]))
			continue;
		if (sysroot_exists(s, probe)) {
			if (!l->unified)
				l->unified = xstrdup(names[i]);
		} else {
			const char *base = names[i] + strlen("sys/fs/cgroup/");

			map_v1(l, base, strlen(base), names[i], strlen(names[i]));
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int cgroup_layout_detect(struct cgroup_layout *l, const struct sysroot *s,
			 enum cgroup_driver driver, const char *hierarchy, struct err *e)
{
	cleanup_free char *mi = NULL;
	cleanup_free char *controllers = NULL;
	struct err ign = { 0 };
	int any = 0;

	memset(l, 0, sizeof(*l));
	if (sysroot_read_str(s, "proc/self/mountinfo", &mi, &ign) >= 0) {
		int n = cgroup_mounts_parse(mi, l, e);

		if (n < 0) {
			cleanup_free char *path = sysroot_path(s, "proc/self/mountinfo");

			cgroup_layout_release(l);
			return err_wrap(e, "read '%s'", path);
		}
		if (n == 0)
			mounts_from_tree(l, s);
	} else {
		mounts_from_tree(l, s);
	}
	if (l->unified) {
		cleanup_free char *rel = xasprintf("%s/cgroup.controllers", l->unified);

		sysroot_read_str(s, rel, &controllers, &ign);
	}
	cgroup_layout_map_unified(l, controllers);
	for (int c = 0; c < CGROUP_NCTRL; c++)
		any |= l->mount[c] != NULL;
	if (!any) {
		cgroup_layout_release(l);
		return err_set(e, ERR_NOTFOUND, 0, "no cgroup controller mounted under '%s'",
			       s->prefix && *s->prefix ? s->prefix : "/");
	}
	if (driver == CGROUP_DRIVER_AUTO) {
		driver = CGROUP_DRIVER_CGROUPFS;
		if (cgroup_exists(l, s, CGROUP_CPU, "/kubepods.slice") ||
		    cgroup_exists(l, s, CGROUP_MEMORY, "/kubepods.slice"))
			driver = CGROUP_DRIVER_SYSTEMD;
	}
	if (cgroup_layout_set_kube(l, driver, hierarchy, e) < 0) {
		cgroup_layout_release(l);
		return -1;
	}
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

/* Append the dirs named hadoop-yarn at or below cg (depth levels left). */
static int find_yarn(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		     int depth, char *out, size_t size)
{
	cleanup_free char *dir = cgroup_path(l, CGROUP_CPU, cg, NULL);
	cleanup_closedir DIR *d = dir ? sysroot_opendir(s, dir, NULL) : NULL;
	struct dirent *ent;
	int found = 0;

	while (d && depth > 0 && (ent = readdir(d))) {
		cleanup_free char *sub = NULL;

		if (ent->d_type != DT_DIR || ent->d_name[0] == '.' ||
		    strncmp(ent->d_name, "container_", 10) == 0)
			continue;
		sub = xasprintf("%s/%s", strcmp(cg, "/") == 0 ? "" : cg, ent->d_name);
		if (strcmp(ent->d_name, "hadoop-yarn") == 0) {
			snprintf(out + strlen(out), size - strlen(out), "%shadoop-yarn at '%s'",
				 *out ? ", " : "", sub);
			found++;
		} else {
			found += find_yarn(l, s, sub, depth - 1, out, size);
		}
	}
	return found;
}

int cgroup_layout_hint(const struct cgroup_layout *l, const struct sysroot *s, char *out,
		       size_t size)
{
	int found;

	static const char *const kube[][2] = { { "/kubepods", "cgroupfs" },
					       { "/kubepods.slice", "systemd" } };

	out[0] = '\0';
	for (size_t i = 0; i < 2; i++)
		if (cgroup_exists(l, s, CGROUP_CPU, kube[i][0]))
			snprintf(out + strlen(out), size - strlen(out), "%s'%s' (the %s driver)",
				 *out ? ", " : "", kube[i][0], kube[i][1]);
	found = find_yarn(l, s, "/", 4, out, size);
	if (!*out)
		snprintf(out, size, "nothing of kubepods or hadoop-yarn");
	return found;
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
