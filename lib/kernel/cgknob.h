/* SPDX-License-Identifier: Apache-2.0 */
/* cgknob - the cgroup files kilo reads and writes, one entry a knob: its
 * controller, its v1 file and its v2 file (either may be missing), how a
 * value is parsed from and formatted into each, how a v1 value becomes the
 * v2 one, and which kernels have it.  Every choice between a v1 and a v2
 * file name is made here, from the table in cgknob.c; callers name the knob
 * (crun keeps such a table in src/libcrun/cgroup-resources.c).
 *
 * Sources of the mapping: the kernel's Documentation/admin-guide/cgroup-v1/
 * and cgroup-v2.rst; koordlet pkg/koordlet/util/system/cgroup_resource.go
 * (koordlet-qos.md, conventions), which also names the Anolis files (Alibaba
 * Cloud Linux / OpenAnolis kernels: group identity, memory watermarks and
 * priorities).
 *
 * The version of a knob is that of its controller in the layout
 * (l->ctrl_version[ctrl], or l->version when it is not mounted): a hybrid
 * node may have cpu in v1 beside memory in v2.
 */
#ifndef KILO_CGKNOB_H
#define KILO_CGKNOB_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"

/* Units and ranges are the kernel's; v1 | v2. */
enum cgknob {
	CGKNOB_CPU_WEIGHT,                /* cpu.shares 2..262144 | cpu.weight 1..10000 */
	CGKNOB_CPU_IDLE,                  /* cpu.idle 0 or 1 (SCHED_IDLE group, Linux 5.15) */
	CGKNOB_CFS_QUOTA,                 /* cpu.cfs_quota_us, us, -1 unlimited | cpu.max quota */
	CGKNOB_CFS_PERIOD,                /* cpu.cfs_period_us, us | cpu.max period */
	CGKNOB_BVT_WARP_NS,               /* cpu.bvt_warp_ns -1..2: Anolis group identity */
	CGKNOB_CPU_USAGE,                 /* cpuacct.usage, ns | cpu.stat usage_usec, us */
	CGKNOB_CPUSET_CPUS,               /* cpuset.cpus, a CPU list */
	CGKNOB_CPUSET_CPUS_EFFECTIVE,     /* cpuset.effective_cpus | cpuset.cpus.effective */
	CGKNOB_CPUSET_MEMS,               /* cpuset.mems, a node list */
	CGKNOB_MEMORY_CURRENT,            /* memory.usage_in_bytes | memory.current, bytes */
	CGKNOB_MEMORY_MAX,                /* memory.limit_in_bytes | memory.max, bytes or "max" */
	CGKNOB_MEMORY_HIGH,               /* none | memory.high, bytes or "max": throttled above */
	CGKNOB_MEMORY_STAT,               /* memory.stat, "key bytes" lines (total_* keys in v1) */
	CGKNOB_MEMORY_OOM_GROUP,          /* memory.oom.group 0 or 1 (v1: Anolis) */
	CGKNOB_MEMORY_WMARK_RATIO,        /* memory.wmark_ratio 0..100: Anolis */
	CGKNOB_MEMORY_WMARK_SCALE_FACTOR, /* memory.wmark_scale_factor 1..1000: Anolis */
	CGKNOB_MEMORY_WMARK_MIN_ADJ,      /* memory.wmark_min_adj -25..50: Anolis */
	CGKNOB_MEMORY_PRIORITY,           /* memory.priority 0..12: Anolis */
	CGKNOB_MEMORY_USE_PRIORITY_OOM,   /* memory.use_priority_oom 0 or 1: Anolis */
	CGKNOB_MEMORY_MOVE_CHARGE,        /* memory.move_charge_at_immigrate bits | none */
	CGKNOB_PROCS,                     /* cgroup.procs, one process id a line (any controller) */
	CGKNOB_THREADS,                   /* tasks | cgroup.threads, one thread id a line */
	CGKNOB_N
};

/* How a file's text is parsed and compared (CgroupChanges compares by it). */
enum cgknob_kind {
	CGKNOB_NONE,    /* this version has no such file */
	CGKNOB_INT,     /* one decimal integer */
	CGKNOB_INT_MAX, /* a decimal integer, or "max" (read as INT64_MAX) */
	CGKNOB_CPUMAX,  /* "<quota|max> <period>", us */
	CGKNOB_KEYED,   /* "key value" lines */
	CGKNOB_LIST,    /* a CPU or node list, "0-3,8" */
	CGKNOB_IDS,     /* one process or thread id a line; written one id at a time */
};

/* How the v1 value becomes the v2 one. */
enum cgknob_conv {
	CGKNOB_SAME,   /* the same value */
	CGKNOB_WEIGHT, /* v2 is the weight of the v1 shares: decide/qos qos_weight(), whose
			* formula is the caller's (qos-cgset --weight-conversion) */
	CGKNOB_CFS,    /* the two v1 files are the two fields of v2 cpu.max; -1 is "max" */
	CGKNOB_USEC,   /* v1 ns = v2 usage_usec x 1000 */
	CGKNOB_KEYS,   /* v1 total_<key> = v2 <key> (cgroup_parse_memory_stat) */
};

struct cgknob_file {
	const char *name; /* NULL: this version lacks the knob */
	enum cgknob_kind kind;
	const char *vendor; /* only these kernels have it ("Anolis"), NULL: mainline */
};

struct cgknob_def {
	const char *term;        /* the kernel's name: the v2 file's, else the v1 one */
	enum cgroup_ctrl ctrl;   /* CGROUP_NCTRL: a file of every controller */
	struct cgknob_file v[2]; /* [0] v1, [1] v2 */
	enum cgknob_conv conv;
};

/* The entry of k (static). */
const struct cgknob_def *cgknob_def(enum cgknob k);

/* The cgroup version of controller c in l: 1 or 2 (l->version when c is
 * not mounted). */
int cgknob_version(const struct cgroup_layout *l, enum cgroup_ctrl c);

/* The file of k for the version of its controller in l (of c for a knob of
 * every controller, CGROUP_NCTRL in its entry; c is ignored otherwise).
 * Static; its name is NULL when that version lacks the knob. */
const struct cgknob_file *cgknob_file_of(const struct cgroup_layout *l, enum cgknob k,
					 enum cgroup_ctrl c);

/* cgknob_file_of(l, k, c)->name: the file name, or NULL. */
const char *cgknob_file(const struct cgroup_layout *l, enum cgknob k, enum cgroup_ctrl c);

/* The conversion the v1 value of k needs in l: CGKNOB_SAME on v1. */
enum cgknob_conv cgknob_conv(const struct cgroup_layout *l, enum cgknob k);

/* Parse text of k's file in l (pure) into *v, and *aux where the file has
 * a second value (v2 cpu.max: *v the quota, -1 for max, *aux the period),
 * else *aux is -1.  CGKNOB_INT and _INT_MAX: the integer ("max" INT64_MAX
 * for _INT_MAX); CGKNOB_CPUMAX: cgroup_parse_cpu_max(); CGKNOB_KEYED:
 * only CGKNOB_CPU_USAGE, usage_usec x 1000 in ns.  Returns 0, or -1 with e
 * set (ERR_INPUT; "expected an integer" for the integer kinds, else the
 * parser's message; the caller adds the path), also for a knob or version
 * without one value (memory.stat, cgroup.procs). */
int cgknob_parse(const struct cgroup_layout *l, enum cgknob k, const char *text, int64_t *v,
		 int64_t *aux, struct err *e);

/* Format v (and aux) for k's file in l into buf (size bytes), as the
 * kernel takes it: the integer kinds "%lld"; v2 cpu.max "<v> <aux>", "max
 * <aux>" for v -1 (the period read back is written with the quota, so the
 * file holds exactly this afterwards).  Returns buf. */
char *cgknob_format(const struct cgroup_layout *l, enum cgknob k, int64_t v, int64_t aux, char *buf,
		    size_t size);

/* Read and parse k's file of cg (cgknob_parse()).  Returns a status of
 * cgroup.h: CGROUP_UNSUPPORTED also when the layout's version lacks the
 * knob (the dir exists); -1 with e naming the file's path on a bad value. */
int cgknob_read(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		enum cgknob k, int64_t *v, int64_t *aux, struct err *e);

#endif
