// SPDX-License-Identifier: Apache-2.0
/* procfs - /proc/stat, /proc/meminfo, /proc/<pid>/stat (see procfs.h) */
#include "kernel/procfs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "doc/cpuset.h"

/* The line of text starting with key (followed by a space or ':'), or NULL. */
static const char *find_line(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l;) {
		if (strncmp(l, key, kl) == 0 && (l[kl] == ' ' || l[kl] == ':'))
			return l + kl + 1;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return NULL;
}

static int meminfo_kb(const char *text, const char *key, int64_t *bytes, struct err *e)
{
	const char *p = find_line(text, key);
	int64_t kb;

	*bytes = -1;
	if (!p)
		return 0;
	p += strspn(p, " ");
	if (num_scan_i64(&p, 0, INT64_MAX / 1024, &kb) < 0 || strncmp(p + strspn(p, " "), "kB", 2))
		return err_set(e, ERR_INPUT, 0, "meminfo: bad value for %s", key);
	*bytes = kb * 1024;
	return 0;
}

int procfs_parse_meminfo(const char *text, struct procfs_meminfo *mi, struct err *e)
{
	if (meminfo_kb(text, "MemTotal", &mi->total, e) < 0 ||
	    meminfo_kb(text, "MemAvailable", &mi->available, e) < 0)
		return -1;
	if (mi->total < 0)
		return err_set(e, ERR_INPUT, 0, "meminfo: no MemTotal line");
	return 0;
}

int procfs_parse_cpu_busy(const char *text, long hz, int64_t *ns, struct err *e)
{
	/* user nice system idle iowait irq softirq steal */
	static const int busy[8] = { 1, 1, 1, 0, 0, 1, 1, 1 };
	const char *p = find_line(text, "cpu");
	int64_t ticks = 0, v;

	if (!p || hz <= 0 || hz > 1000000000)
		return err_set(e, ERR_INPUT, 0, "stat: no aggregate cpu line");
	for (int i = 0; i < 8; i++) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p)) {
			if (i >= 4 && (*p == '\n' || !*p))
				break; /* old kernels print fewer fields */
			return err_set(e, ERR_INPUT, 0, "stat: malformed cpu line");
		}
		if (num_scan_i64(&p, 0, INT64_MAX, &v) < 0 ||
		    (busy[i] && num_add(ticks, v, &ticks) < 0))
			return err_set(e, ERR_INPUT, 0, "stat: cpu field out of range");
	}
	if (num_mul(ticks, 1000000000 / hz, &v) < 0)
		return err_set(e, ERR_INPUT, 0, "stat: cpu time out of range");
	*ns = v;
	return 0;
}

int procfs_parse_btime(const char *text, int64_t *btime_s, struct err *e)
{
	const char *p = find_line(text, "btime");
	int64_t v;

	if (!p)
		return err_set(e, ERR_INPUT, 0, "stat: no btime line");
	p += strspn(p, " ");
	if (num_scan_i64(&p, 0, INT64_MAX, &v) < 0)
		return err_set(e, ERR_INPUT, 0, "stat: bad btime");
	*btime_s = v;
	return 0;
}

int procfs_parse_starttime(const char *text, uint64_t *ticks, struct err *e)
{
	const char *p = strrchr(text, ')');
	uint64_t v;

	/* after "pid (comm)": field 3 is state, starttime is field 22 */
	for (int field = 2; p && field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (p)
			while (p[1] == ' ')
				p++;
	}
	if (!p)
		return err_set(e, ERR_INPUT, 0, "stat: fewer than 22 fields");
	p++;
	if (num_scan_u64(&p, 10, UINT64_MAX, &v) < 0 || (*p && *p != ' ' && *p != '\n'))
		return err_set(e, ERR_INPUT, 0, "stat: bad starttime field");
	*ticks = v;
	return 0;
}

int64_t procfs_ticks_to_ms(int64_t btime_s, uint64_t ticks, long hz)
{
	__int128 ms;

	if (hz <= 0)
		hz = 100;
	ms = (__int128)btime_s * 1000 + (__int128)(ticks / (uint64_t)hz) * 1000 +
	     (__int128)(ticks % (uint64_t)hz) * 1000 / hz;
	return ms > INT64_MAX ? INT64_MAX : (int64_t)ms;
}

long procfs_hz(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? hz : 100;
}

/* Read rel and run parse over it, prefixing errors with the full path. */
static int wrap(const struct sysroot *s, const char *rel, int r, struct err *e)
{
	cleanup_free char *path = NULL;

	if (r == 0)
		return 0;
	path = sysroot_path(s, rel);
	return err_wrap(e, "read '%s'", path);
}

int procfs_read_meminfo(const struct sysroot *s, struct procfs_meminfo *mi, struct err *e)
{
	cleanup_free char *text = NULL;

	if (sysroot_read_str(s, "proc/meminfo", &text, e) < 0)
		return -1;
	return wrap(s, "proc/meminfo", procfs_parse_meminfo(text, mi, e), e);
}

int procfs_read_stat(const struct sysroot *s, int64_t *busy_ns, int64_t *btime_s, struct err *e)
{
	cleanup_free char *text = NULL;

	if (sysroot_read_str(s, "proc/stat", &text, e) < 0)
		return -1;
	if (busy_ns && procfs_parse_cpu_busy(text, procfs_hz(), busy_ns, e) < 0)
		return wrap(s, "proc/stat", -1, e);
	if (btime_s && procfs_parse_btime(text, btime_s, e) < 0)
		return wrap(s, "proc/stat", -1, e);
	return 0;
}

int procfs_read_starttime(const struct sysroot *s, pid_t pid, uint64_t *ticks, struct err *e)
{
	char rel[64];
	cleanup_free char *text = NULL;

	snprintf(rel, sizeof(rel), "proc/%d/stat", (int)pid);
	if (sysroot_read_str(s, rel, &text, e) < 0)
		return -1;
	return wrap(s, rel, procfs_parse_starttime(text, ticks, e), e);
}

int procfs_read_state(const struct sysroot *s, pid_t pid, char *state, uint64_t *ticks,
		      struct err *e)
{
	char rel[64];
	cleanup_free char *text = NULL;
	const char *paren;

	snprintf(rel, sizeof(rel), "proc/%d/stat", (int)pid);
	if (sysroot_read_str(s, rel, &text, e) < 0)
		return -1;
	paren = strrchr(text, ')');
	if (!paren || paren[1] != ' ' || !paren[2])
		return wrap(s, rel, err_set(e, ERR_INPUT, 0, "no state after the command name"), e);
	*state = paren[2];
	return wrap(s, rel, procfs_parse_starttime(text, ticks, e), e);
}

pid_t procfs_tgid(const struct sysroot *s, pid_t tid)
{
	char rel[64];
	cleanup_free char *text = NULL;
	const char *line;
	int64_t tgid;

	snprintf(rel, sizeof(rel), "proc/%d/status", (int)tid);
	if (sysroot_read_str(s, rel, &text, NULL) < 0)
		return 0;
	line = strncmp(text, "Tgid:", 5) == 0 ? text : strstr(text, "\nTgid:");
	if (!line)
		return 0;
	line += line == text ? 5 : 6;
	line += strspn(line, " \t");
	return num_scan_i64(&line, 1, INT32_MAX, &tgid) == 0 ? (pid_t)tgid : 0;
}

int procfs_read_cpus_online(const struct sysroot *s, char **list, int *n, struct err *e)
{
	static const char rel[] = "sys/devices/system/cpu/online";
	cleanup_free char *text = NULL;
	struct cpuset set;

	*list = NULL;
	if (sysroot_read_str(s, rel, &text, e) < 0)
		return -1;
	if (cpuset_parse(text, &set, e) < 0)
		return wrap(s, rel, -1, e);
	*n = cpuset_count(&set);
	*list = cpuset_format(&set);
	return 0;
}
