// SPDX-License-Identifier: Apache-2.0
/* resctrl - resctrl groups, schemata and tasks through the sysroot (see resctrl.h) */
#include "kernel/resctrl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "kernel/cgroup.h"

static int read_hex(const struct sysroot *s, const char *rel, uint64_t *out, struct err *e)
{
	cleanup_free char *text = NULL;
	const char *p;

	if (sysroot_read_str(s, rel, &text, e) < 0)
		return -1;
	p = text;
	if (num_scan_u64(&p, 16, UINT64_MAX, out) < 0 || *p) {
		cleanup_free char *path = sysroot_path(s, rel);

		return err_set(e, ERR_INPUT, 0, "read '%s': expected a hex mask, got '%.40s'", path,
			       text);
	}
	return 0;
}

static int read_int(const struct sysroot *s, const char *dir, const char *file, int *out,
		    struct err *e)
{
	cleanup_free char *rel = xasprintf("%s/%s", dir, file);
	int64_t v;

	if (sysroot_read_i64(s, rel, &v, e) < 0)
		return -1;
	if (v < 0 || v > 1 << 30) {
		cleanup_free char *path = sysroot_path(s, rel);

		return err_set(e, ERR_INPUT, 0, "read '%s': expected 0..%d, got %lld", path,
			       1 << 30, (long long)v);
	}
	*out = (int)v;
	return 0;
}

static int read_cache(const struct sysroot *s, struct schemata_cache *c, struct err *e)
{
	cleanup_free char *dir = xasprintf(RESCTRL_ROOT "/info/%s", c->name);
	cleanup_free char *mask = xasprintf("%s/cbm_mask", dir);

	if (read_hex(s, mask, &c->cbm_mask, e) < 0 ||
	    read_int(s, dir, "min_cbm_bits", &c->min_cbm_bits, e) < 0 ||
	    read_int(s, dir, "num_closids", &c->num_closids, e) < 0)
		return -1;
	return 0;
}

static int read_mb(const struct sysroot *s, struct schemata_facts *f, struct err *e)
{
	static const char dir[] = RESCTRL_ROOT "/info/MB";

	if (read_int(s, dir, "min_bandwidth", &f->mb_min_bandwidth, e) < 0 ||
	    read_int(s, dir, "bandwidth_gran", &f->mb_bandwidth_gran, e) < 0 ||
	    read_int(s, dir, "delay_linear", &f->mb_delay_linear, e) < 0 ||
	    read_int(s, dir, "num_closids", &f->mb_num_closids, e) < 0)
		return -1;
	return 0;
}

/* 1 when a resctrl mount line of proc/self/mounts carries mba_MBps. */
static int mounted_mbps(const struct sysroot *s)
{
	cleanup_free char *text = NULL;
	struct err ignored = { 0 };

	if (sysroot_read_str(s, "proc/self/mounts", &text, &ignored) < 0)
		return 0;
	for (char *line = text, *nl; line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (strstr(line, " resctrl ") && strstr(line, "mba_MBps"))
			return 1;
	}
	return 0;
}

int resctrl_detect(const struct sysroot *s, struct schemata_facts *f, const char **why,
		   struct err *e)
{
	cleanup_free char *root = NULL, *cpuinfo = NULL;
	struct err ignored = { 0 };

	memset(f, 0, sizeof(*f));
	*why = NULL;
	if (!sysroot_is_dir(s, RESCTRL_ROOT)) {
		*why = "no /" RESCTRL_ROOT ": the kernel or the CPU lacks resctrl";
		return 0;
	}
	if (!sysroot_exists(s, RESCTRL_ROOT "/schemata")) {
		*why = "resctrl is not mounted on /" RESCTRL_ROOT;
		return 0;
	}
	if (sysroot_read_str(s, RESCTRL_ROOT "/schemata", &root, e) < 0)
		return -1;
	if (schemata_parse(root, &f->root, e) < 0) {
		cleanup_free char *path = sysroot_path(s, RESCTRL_ROOT "/schemata");

		return err_wrap(e, "read '%s'", path);
	}
	if (sysroot_read_str(s, "proc/cpuinfo", &cpuinfo, &ignored) >= 0)
		f->vendor = schemata_vendor_parse(cpuinfo);
	for (size_t i = 0; i < f->root.n && f->ncache < SCHEMATA_MAX_CACHES; i++) {
		const char *name = f->root.line[i].name;
		struct schemata_cache *c = &f->cache[f->ncache];

		if (strcmp(name, "L3") != 0 && strcmp(name, "L3CODE") != 0 &&
		    strcmp(name, "L3DATA") != 0)
			continue;
		snprintf(c->name, sizeof(c->name), "%s", name);
		if (read_cache(s, c, e) < 0)
			return -1;
		f->ncache++;
	}
	f->has_mb = sysroot_is_dir(s, RESCTRL_ROOT "/info/MB");
	if (f->has_mb && read_mb(s, f, e) < 0)
		return -1;
	f->mb_mbps = mounted_mbps(s);
	if (f->ncache == 0 && !f->has_mb) {
		*why = "no L3 cache or memory bandwidth allocation (info/L3, info/MB)";
		return 0;
	}
	return 1;
}

/* The kernel's reason for the last refused write, or NULL. */
static char *last_cmd_status(const struct sysroot *s)
{
	char *text = NULL;
	struct err ignored = { 0 };

	if (sysroot_read_str(s, RESCTRL_ROOT "/info/last_cmd_status", &text, &ignored) < 0)
		return NULL;
	if (!*text || strcmp(text, "ok") == 0) {
		free(text);
		return NULL;
	}
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static int write_line(const struct sysroot *s, const char *rel, const struct schemata_line *l,
		      struct err *e)
{
	cleanup_free char *text = schemata_format_line(l);
	cleanup_free char *status = NULL;
	int errnum;

	if (!text)
		return err_set(e, ERR_SYSTEM, ENOMEM, "format %s line", l->name);
	if (sysroot_writef(s, rel, e, "%s\n", text) == 0)
		return 0;
	errnum = e->errnum;
	status = errnum == EINVAL ? last_cmd_status(s) : NULL;
	if (status) {
		char msg[ERR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", e->msg);
		err_set(e, e->kind, 0, "%.300s (info/last_cmd_status: %.100s)", msg, status);
		e->errnum = errnum;
	}
	return err_wrap(e, "%s", text);
}

int resctrl_group_apply(const struct sysroot *s, const char *name, const struct schemata *want,
			int dry_run, struct resctrl_group_result *r)
{
	cleanup_free char *dir = xasprintf(RESCTRL_ROOT "/%s", name);
	cleanup_free char *file = xasprintf("%s/schemata", dir);
	cleanup_free char *text = NULL;
	struct schemata have = { 0 };
	int written = 0, planned = 0, failed = 0;

	memset(r, 0, sizeof(*r));
	r->new = schemata_format(want, NULL);
	r->result = "failed";
	if (!sysroot_is_dir(s, dir)) {
		r->created = 1;
		if (dry_run) {
			r->result = "planned";
			return 0;
		}
		if (sysroot_mkdir(s, dir, 0755, &r->err) < 0) {
			r->created = 0;
			if (r->err.errnum == ENOSPC)
				err_wrap(&r->err, "no free CLOSID for group %s", name);
			return -1;
		}
	}
	if (sysroot_read_str(s, file, &text, &r->err) < 0)
		return -1;
	if (schemata_parse(text, &have, &r->err) < 0) {
		cleanup_free char *path = sysroot_path(s, file);

		schemata_release(&have);
		return err_wrap(&r->err, "read '%s'", path);
	}
	r->old = schemata_format(&have, want);
	for (size_t i = 0; i < want->n; i++) {
		struct err e = { 0 };

		if (schemata_line_equal(&want->line[i], &have))
			continue;
		if (dry_run)
			planned++;
		else if (write_line(s, file, &want->line[i], &e) == 0)
			written++;
		else if (failed++ == 0)
			r->err = e; /* the first refusal tells why */
	}
	schemata_release(&have);
	r->result = failed ? "failed" : written ? "written" : planned ? "planned" : "unchanged";
	return failed ? -1 : 0;
}

void resctrl_group_result_release(struct resctrl_group_result *r)
{
	free(r->old);
	free(r->new);
	r->old = r->new = NULL;
}

static void add_error(struct resctrl_tasks_result *r, const char *msg)
{
	if (json_array_size(r->errors) < RESCTRL_MAX_ERRORS)
		json_array_append_new(r->errors, jsonio_string(msg));
}

static int write_id(const struct sysroot *s, int fd, const char *file, pid_t id, struct err *e)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%d\n", (int)id);
	return sysroot_write_fd(s, fd, file, buf, e);
}

int resctrl_tasks_move(const struct sysroot *s, const char *group, const pid_t *ids, size_t n,
		       int (*still)(void *arg, pid_t id), void *arg, int dry_run,
		       struct resctrl_tasks_result *r, struct err *e)
{
	cleanup_free char *file = xasprintf(RESCTRL_ROOT "/%s/tasks", group);
	cleanup_free char *text = NULL;
	cleanup_free pid_t *have = NULL, *todo = NULL;
	cleanup_close int fd = -1;
	size_t nhave = 0;
	pid_t prev = 0;
	long refused = 0; /* by still() */

	memset(r, 0, sizeof(*r));
	r->errors = json_array();
	if (sysroot_read_str(s, file, &text, e) < 0) {
		if (!dry_run || e->kind != ERR_NOTFOUND) /* a dry run may not have made the group */
			return err_wrap(e, "tasks of group %s", group);
	} else if (cgroup_parse_pids(text, &have, &nhave, e) < 0) {
		return err_wrap(e, "tasks of group %s", group);
	}
	if (nhave)
		qsort(have, nhave, sizeof(*have), cgroup_pid_cmp);
	todo = xcalloc(n ? n : 1, sizeof(*todo));
	if (n) {
		memcpy(todo, ids, n * sizeof(*todo));
		qsort(todo, n, sizeof(*todo), cgroup_pid_cmp);
	}
	for (size_t i = 0; i < n; i++) {
		struct err we = { 0 };

		if (todo[i] == prev)
			continue;
		prev = todo[i];
		if (nhave && bsearch(&todo[i], have, nhave, sizeof(*have), cgroup_pid_cmp)) {
			r->already++;
			continue;
		}
		if (dry_run) {
			r->moved++;
			continue;
		}
		if (fd < 0 && (fd = sysroot_open_append(s, file, e)) < 0)
			return err_wrap(e, "tasks of group %s", group);
		if (still && still(arg, todo[i]) != 1) {
			r->gone++; /* exited since it was read, or the id is another's */
			refused++;
			continue;
		}
		if (write_id(s, fd, file, todo[i], &we) == 0) {
			r->moved++;
		} else if (we.errnum == ESRCH) {
			r->gone++;
		} else {
			r->failed++;
			err_wrap(&we, "thread %d", (int)todo[i]);
			add_error(r, we.msg);
		}
	}
	if (r->gone > refused && r->moved == 0 && r->failed == 0) {
		cleanup_free char *path = sysroot_path(s, file);

		err_set(e, ERR_SYSTEM, 0,
			"write '%s': all %ld thread ids are gone (ESRCH): is this the host pid namespace (hostPID)?",
			path, r->gone - refused);
		e->errnum = ESRCH;
		add_error(r, e->msg);
		return -1;
	}
	return 0;
}

void resctrl_tasks_result_release(struct resctrl_tasks_result *r)
{
	json_decref(r->errors);
	r->errors = NULL;
}
