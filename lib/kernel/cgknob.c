// SPDX-License-Identifier: Apache-2.0
/* cgknob - the table of cgroup knobs (see cgknob.h) */
#include "kernel/cgknob.h"

#include <stdio.h>
#include <string.h>

#include "core/cleanup.h"

/* The table, one knob a row: its term, its controller, its v1 and its v2
 * file (F: mainline, ANOLIS: only on Anolis kernels, NONE: not in that
 * version), the conversion. */
/* clang-format off */
#define F(n, k) { n, CGKNOB_##k, NULL }
#define ANOLIS(n, k) { n, CGKNOB_##k, "Anolis" }
#define NONE { NULL, CGKNOB_NONE, NULL }

static const struct cgknob_def knobs[CGKNOB_N] = {
	[CGKNOB_CPU_WEIGHT] = { "cpu.weight", CGROUP_CPU,
		{ F("cpu.shares", INT), F("cpu.weight", INT) }, CGKNOB_WEIGHT },
	[CGKNOB_CPU_IDLE] = { "cpu.idle", CGROUP_CPU,
		{ F("cpu.idle", INT), F("cpu.idle", INT) }, CGKNOB_SAME },
	[CGKNOB_CFS_QUOTA] = { "cpu.max", CGROUP_CPU,
		{ F("cpu.cfs_quota_us", INT), F("cpu.max", CPUMAX) }, CGKNOB_CFS },
	[CGKNOB_CFS_PERIOD] = { "cpu.max", CGROUP_CPU,
		{ F("cpu.cfs_period_us", INT), F("cpu.max", CPUMAX) }, CGKNOB_CFS },
	[CGKNOB_BVT_WARP_NS] = { "cpu.bvt_warp_ns", CGROUP_CPU,
		{ ANOLIS("cpu.bvt_warp_ns", INT), ANOLIS("cpu.bvt_warp_ns", INT) }, CGKNOB_SAME },
	[CGKNOB_CPU_USAGE] = { "cpu.stat", CGROUP_CPUACCT,
		{ F("cpuacct.usage", INT), F("cpu.stat", KEYED) }, CGKNOB_USEC },
	[CGKNOB_CPUSET_CPUS] = { "cpuset.cpus", CGROUP_CPUSET,
		{ F("cpuset.cpus", LIST), F("cpuset.cpus", LIST) }, CGKNOB_SAME },
	[CGKNOB_CPUSET_CPUS_EFFECTIVE] = { "cpuset.cpus.effective", CGROUP_CPUSET,
		{ F("cpuset.effective_cpus", LIST), F("cpuset.cpus.effective", LIST) }, CGKNOB_SAME },
	[CGKNOB_CPUSET_MEMS] = { "cpuset.mems", CGROUP_CPUSET,
		{ F("cpuset.mems", LIST), F("cpuset.mems", LIST) }, CGKNOB_SAME },
	[CGKNOB_MEMORY_CURRENT] = { "memory.current", CGROUP_MEMORY,
		{ F("memory.usage_in_bytes", INT), F("memory.current", INT) }, CGKNOB_SAME },
	[CGKNOB_MEMORY_MAX] = { "memory.max", CGROUP_MEMORY,
		{ F("memory.limit_in_bytes", INT_MAX), F("memory.max", INT_MAX) }, CGKNOB_SAME },
	/* cgroup-v2.rst "memory.high": v1 has no throttle limit */
	[CGKNOB_MEMORY_HIGH] = { "memory.high", CGROUP_MEMORY,
		{ NONE, F("memory.high", INT_MAX) }, CGKNOB_SAME },
	[CGKNOB_MEMORY_STAT] = { "memory.stat", CGROUP_MEMORY,
		{ F("memory.stat", KEYED), F("memory.stat", KEYED) }, CGKNOB_KEYS },
	[CGKNOB_MEMORY_OOM_GROUP] = { "memory.oom.group", CGROUP_MEMORY,
		{ ANOLIS("memory.oom.group", INT), F("memory.oom.group", INT) }, CGKNOB_SAME },
	[CGKNOB_MEMORY_WMARK_RATIO] = { "memory.wmark_ratio", CGROUP_MEMORY,
		{ ANOLIS("memory.wmark_ratio", INT), ANOLIS("memory.wmark_ratio", INT) }, CGKNOB_SAME },
	[CGKNOB_MEMORY_WMARK_SCALE_FACTOR] = { "memory.wmark_scale_factor", CGROUP_MEMORY,
		{ ANOLIS("memory.wmark_scale_factor", INT), ANOLIS("memory.wmark_scale_factor", INT) },
		CGKNOB_SAME },
	[CGKNOB_MEMORY_WMARK_MIN_ADJ] = { "memory.wmark_min_adj", CGROUP_MEMORY,
		{ ANOLIS("memory.wmark_min_adj", INT), ANOLIS("memory.wmark_min_adj", INT) },
		CGKNOB_SAME },
	[CGKNOB_MEMORY_PRIORITY] = { "memory.priority", CGROUP_MEMORY,
		{ ANOLIS("memory.priority", INT), ANOLIS("memory.priority", INT) }, CGKNOB_SAME },
	[CGKNOB_MEMORY_USE_PRIORITY_OOM] = { "memory.use_priority_oom", CGROUP_MEMORY,
		{ ANOLIS("memory.use_priority_oom", INT), ANOLIS("memory.use_priority_oom", INT) },
		CGKNOB_SAME },
	/* cgroup-v1/memory.rst 8: deprecated, refused with EINVAL since Linux 6.x */
	[CGKNOB_MEMORY_MOVE_CHARGE] = { "memory.move_charge_at_immigrate", CGROUP_MEMORY,
		{ F("memory.move_charge_at_immigrate", INT), NONE }, CGKNOB_SAME },
	[CGKNOB_PROCS] = { "cgroup.procs", CGROUP_NCTRL,
		{ F("cgroup.procs", IDS), F("cgroup.procs", IDS) }, CGKNOB_SAME },
	[CGKNOB_THREADS] = { "cgroup.threads", CGROUP_NCTRL,
		{ F("tasks", IDS), F("cgroup.threads", IDS) }, CGKNOB_SAME },
};
/* clang-format on */

const struct cgknob_def *cgknob_def(enum cgknob k)
{
	return &knobs[k];
}

int cgknob_version(const struct cgroup_layout *l, enum cgroup_ctrl c)
{
	int v = c < CGROUP_NCTRL ? l->ctrl_version[c] : 0;

	return v ? v : l->version == 2 ? 2 : 1;
}

const struct cgknob_file *cgknob_file_of(const struct cgroup_layout *l, enum cgknob k,
					 enum cgroup_ctrl c)
{
	const struct cgknob_def *d = &knobs[k];

	return &d->v[cgknob_version(l, d->ctrl == CGROUP_NCTRL ? c : d->ctrl) - 1];
}

const char *cgknob_file(const struct cgroup_layout *l, enum cgknob k, enum cgroup_ctrl c)
{
	return cgknob_file_of(l, k, c)->name;
}

enum cgknob_conv cgknob_conv(const struct cgroup_layout *l, enum cgknob k)
{
	return cgknob_version(l, knobs[k].ctrl) == 2 ? knobs[k].conv : CGKNOB_SAME;
}

int cgknob_parse(const struct cgroup_layout *l, enum cgknob k, const char *text, int64_t *v,
		 int64_t *aux, struct err *e)
{
	const struct cgknob_file *f = cgknob_file_of(l, k, knobs[k].ctrl);

	*aux = -1;
	switch (f->kind) {
	case CGKNOB_INT_MAX:
		if (strcmp(text, "max") == 0) {
			*v = INT64_MAX;
			return 0;
		}
		/* fall through */
	case CGKNOB_INT:
		if (cgroup_parse_i64(text, v) < 0)
			return err_set(e, ERR_INPUT, 0, "expected an integer, got '%.40s'", text);
		return 0;
	case CGKNOB_CPUMAX:
		return cgroup_parse_cpu_max(text, v, aux, e);
	case CGKNOB_KEYED:
		if (k == CGKNOB_CPU_USAGE)
			return cgroup_parse_cpu_stat_usage(text, v, e);
		break;
	default:
		break;
	}
	return err_set(e, ERR_INPUT, 0, "%s: no single value to parse", knobs[k].term);
}

char *cgknob_format(const struct cgroup_layout *l, enum cgknob k, int64_t v, int64_t aux, char *buf,
		    size_t size)
{
	if (cgknob_file_of(l, k, knobs[k].ctrl)->kind != CGKNOB_CPUMAX)
		snprintf(buf, size, "%lld", (long long)v);
	else if (v < 0)
		snprintf(buf, size, "max %lld", (long long)aux);
	else
		snprintf(buf, size, "%lld %lld", (long long)v, (long long)aux);
	return buf;
}

int cgknob_read(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		enum cgknob k, int64_t *v, int64_t *aux, struct err *e)
{
	const char *file = cgknob_file(l, k, knobs[k].ctrl);
	cleanup_free char *text = NULL;
	int r;

	if (!file) {
		err_set(e, ERR_NOTFOUND, 0, "cgroup '%s': cgroup v%d has no %s", cg,
			cgknob_version(l, knobs[k].ctrl), knobs[k].term);
		return cgroup_exists(l, s, knobs[k].ctrl, cg) ? CGROUP_UNSUPPORTED : CGROUP_ABSENT;
	}
	r = cgroup_read(l, s, knobs[k].ctrl, cg, file, &text, e);
	if (r != CGROUP_OK)
		return r;
	if (cgknob_parse(l, k, text, v, aux, e) < 0) {
		cleanup_free char *rel = cgroup_path(l, knobs[k].ctrl, cg, file);
		cleanup_free char *path = sysroot_path(s, rel);

		return err_wrap(e, "read '%s'", path);
	}
	return CGROUP_OK;
}
