// SPDX-License-Identifier: Apache-2.0
/* cgroup_layout - the node's cgroup layout: mounts, versions, the kubelet
 * driver and the kube paths, and the hint when the hadoop-yarn dir is
 * elsewhere (see cgroup.h, "Layout"). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"
#include "kernel/cgroup.h"

static int ctrl_from_name(const char *name, size_t len)
{
	for (int c = 0; c < CGROUP_NCTRL; c++)
		if (strlen(cgroup_ctrl_name((enum cgroup_ctrl)c)) == len &&
		    memcmp(cgroup_ctrl_name((enum cgroup_ctrl)c), name, len) == 0)
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
		const char *want = cgroup_ctrl_name((enum cgroup_ctrl)c);
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
