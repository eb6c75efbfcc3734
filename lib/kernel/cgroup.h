/* SPDX-License-Identifier: Apache-2.0 */
/* cgroup - the node's cgroups, v1 and v2, both kubelet drivers: the one
 * public cgroup API of kilo.
 *
 * A struct cgroup_layout describes what cgroup_layout_detect() found through
 * the sysroot: the mount dir of each controller (relative to the sysroot,
 * "sys/fs/cgroup/cpu" or "sys/fs/cgroup"), its version, the kubelet driver
 * and the kubepods, burstable, besteffort and hadoop-yarn cgroups.
 *
 * Names:
 *   - a *cgroup path* (cg) is relative to the controller's mount (v1) or to
 *     the unified root (v2) and starts with '/' (SCHEMAS.md):
 *     "/kubepods/besteffort/hadoop-yarn".  "/" is the root.
 *   - a *file path* is relative to the sysroot, as lib/kernel/sysroot takes it:
 *     "sys/fs/cgroup/cpu/kubepods/besteffort/cpu.shares" (cgroup_path()).
 *
 * Status of the typed readers and the raw files: 0 (CGROUP_OK); CGROUP_ABSENT when
 * the cgroup dir does not exist in that controller or the controller is not
 * mounted (a result is then null, not an error); CGROUP_UNSUPPORTED when the
 * dir exists but the kernel lacks the file (CgroupChanges "unsupported");
 * -1 for a real failure.  In all three non-zero cases e holds a message.
 *
 * Which file holds a value in v1 and in v2, and how its text reads, is the
 * knob table's (kernel/cgknob.h): the typed readers below take their file
 * names from it.  Process start times (/proc/<pid>/stat) are in lib/kernel/procfs.h;
 * cgroup_start_time_ms() combines both.
 */
#ifndef KILO_CGROUP_H
#define KILO_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/err.h"
#include "doc/containerid.h"
#include "doc/cpuset.h"
#include "kernel/sysroot.h"

/* The controllers kilo uses.  In v2, CGROUP_CPUACCT names the cpu.stat
 * accounting of the unified tree. */
enum cgroup_ctrl {
	CGROUP_CPU,
	CGROUP_CPUACCT,
	CGROUP_CPUSET,
	CGROUP_MEMORY,
	CGROUP_BLKIO,
	CGROUP_PIDS,
	CGROUP_NCTRL
};

enum cgroup_driver {
	CGROUP_DRIVER_AUTO,     /* only as a request: detect */
	CGROUP_DRIVER_CGROUPFS, /* kubepods/besteffort */
	CGROUP_DRIVER_SYSTEMD,  /* kubepods.slice/kubepods-besteffort.slice */
};

enum {
	CGROUP_OK = 0,
	CGROUP_ABSENT = 1,      /* no such cgroup dir in this controller (or not mounted) */
	CGROUP_UNSUPPORTED = 2, /* the dir exists, the kernel lacks the file */
	CGROUP_TOO_BIG = 3,     /* cgroup_read_tree(): more dirs than it reads */
};

struct cgroup_layout {
	int version;                    /* 2 when cpu is in the unified tree, else 1 */
	enum cgroup_driver driver;      /* resolved: CGROUP_DRIVER_CGROUPFS or _SYSTEMD */
	char *mount[CGROUP_NCTRL];      /* sysroot-relative mount dir, NULL when not mounted */
	int ctrl_version[CGROUP_NCTRL]; /* 1 or 2, 0 when not mounted */
	char *unified;                  /* the cgroup2 mount (also in hybrid layouts), or NULL */
	char *kubepods;                 /* "/kubepods" or "/kubepods.slice" */
	char *burstable;                /* "/kubepods/burstable", ".../kubepods-burstable.slice" */
	char *besteffort;  /* "/kubepods/besteffort", ".../kubepods-besteffort.slice" */
	char *hadoop_yarn; /* "<besteffort>/hadoop-yarn", or --hierarchy */
	/* the NodeManager makes v1 memory dirs (yarn.nodemanager.resource.memory.enabled,
	 * --nm-memory-cgroups): they hold members (kernel/members.h), qos-cgset does
	 * not mirror memory */
	int nm_memory;
};

/* "cpu", "cpuacct", "cpuset", "memory", "blkio", "pids". */
const char *cgroup_ctrl_name(enum cgroup_ctrl c);

/* Parse "auto", "cgroupfs" or "systemd".  Returns 0, or -1 with e set
 * (ERR_USAGE naming --cgroup-driver and the value). */
int cgroup_driver_parse(const char *s, enum cgroup_driver *out, struct err *e);

/* "auto", "cgroupfs", "systemd". */
const char *cgroup_driver_name(enum cgroup_driver d);

/* ---- Layout ---------------------------------------------------------- */

/* Fill l from the text of proc/self/mountinfo (pure): v1 mounts (fstype
 * "cgroup") give the controllers named in their super options, separate
 * ("cpu") or combined ("cpu,cpuacct"); the first cgroup2 mount becomes
 * l->unified.  Mount points become sysroot-relative ("/sys/fs/cgroup/cpu"
 * -> "sys/fs/cgroup/cpu"; octal escapes such as \040 decoded).  Controllers
 * not found in v1 stay unmapped (see cgroup_layout_map_unified()).  l must be
 * zeroed or released first.  Returns the number of cgroup mounts found (0 is
 * not an error here), or -1 with e set (ERR_INPUT on a malformed line). */
int cgroup_mounts_parse(const char *mountinfo, struct cgroup_layout *l, struct err *e);

/* Map the controllers still unmapped to l->unified (pure).  controllers is
 * the text of the unified root's cgroup.controllers ("cpuset cpu io memory
 * pids"), or NULL when unknown.  With no v1 controller mounted (pure v2) every
 * controller is mapped; in a hybrid layout only those listed (cpuacct
 * follows cpu, blkio follows io).  Then sets l->version. */
void cgroup_layout_map_unified(struct cgroup_layout *l, const char *controllers);

/* Set l->driver and the kube paths (pure).  driver AUTO is resolved to
 * cgroupfs here; cgroup_layout_detect() resolves it from the tree first.
 * hierarchy is yarn-site's yarn.nodemanager.linux-container-executor.cgroups.
 * hierarchy (leading and trailing '/' stripped, as YARN does;
 * yarn-interfaces.md 5a), or NULL for "<besteffort>/hadoop-yarn".  Also
 * changes the driver or hierarchy of a detected layout.  Returns 0, or -1
 * with e set (ERR_USAGE: an empty hierarchy, an empty, "." or ".."
 * component, or a ','), l then unchanged. */
int cgroup_layout_set_kube(struct cgroup_layout *l, enum cgroup_driver driver,
			   const char *hierarchy, struct err *e);

/* Detect the layout through s: mounts from proc/self/mountinfo, or, when
 * that file is missing or lists no cgroup mount (a dump of sys/ only, a
 * container's own view), from the content of
 * sys/fs/cgroup (cgroup.controllers at the root means unified, otherwise each
 * subdir named by controllers, "cpu,cpuacct" included, is a v1 mount).  The
 * version is read from content, never from statfs magic.  driver AUTO picks
 * systemd when "kubepods.slice" exists in the cpu (else memory) controller,
 * otherwise cgroupfs (the kubelet default).  Returns 0, or -1 with e set
 * (ERR_NOTFOUND: no cgroup mount; ERR_USAGE: bad hierarchy; ERR_INPUT: bad
 * mountinfo).  Release with cgroup_layout_release(). */
int cgroup_layout_detect(struct cgroup_layout *l, const struct sysroot *s,
			 enum cgroup_driver driver, const char *hierarchy, struct err *e);

/* Free what l holds and zero it.  Safe on a zeroed struct. */
void cgroup_layout_release(struct cgroup_layout *l);

/* The sysroot-relative path of file (NULL: the dir itself) of cgroup cg in
 * controller c: "sys/fs/cgroup/cpu/kubepods/cpu.shares".  New string, or
 * NULL when c is not mounted. */
char *cgroup_path(const struct cgroup_layout *l, enum cgroup_ctrl c, const char *cg,
		  const char *file);

/* 1 when cg is a directory in at least one mounted controller, else 0
 * (a hadoop-yarn dir that exists nowhere means a wrong --cgroup-driver or
 * --hierarchy, or YARN not running). */
int cgroup_exists_any(const struct cgroup_layout *l, const struct sysroot *s, const char *cg);

/* 1 when cg is a directory in controller c, else 0. */
int cgroup_exists(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		  const char *cg);

/* Create cgroup cg in controller c (its parent must exist).  *created
 * (may be NULL) is 1 when made, 0 when it already existed.  Returns 0;
 * CGROUP_ABSENT when c is not mounted or the parent does not exist; -1 with
 * e set otherwise.  A new v1 cpuset needs cpuset.cpus and cpuset.mems
 * written before any task can join it. */
int cgroup_mkdir(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		 const char *cg, int *created, struct err *e);

/* Remove the (empty) cgroup cg in controller c; children first is the
 * caller's business.  Returns 0; CGROUP_ABSENT when it was already gone (or c
 * is not mounted); -1 with e set (EBUSY: tasks or children remain). */
int cgroup_rmdir(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		 const char *cg, struct err *e);

/* ---- Raw files ------------------------------------------------------- */

/* Read file of cg in c into a new string (*out, caller frees; trailing
 * newline removed).  Returns a status (see top), *out NULL unless 0. */
int cgroup_read(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		const char *cg, const char *file, char **out, struct err *e);

/* Read a file holding one decimal integer.  Returns a status; ERR_INPUT
 * (-1) when the content is not an integer. */
int cgroup_read_i64(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		    const char *cg, const char *file, int64_t *out, struct err *e);

/* Write val to the existing file of cg in c with one write(2).  Returns a
 * status; -1 carries the kernel's errno (EINVAL, EBUSY...). */
int cgroup_write(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		 const char *cg, const char *file, const char *val, struct err *e);

/* ---- Typed readers (v1 or v2 file chosen by kernel/cgknob) ----------- */

/* Cumulative CPU time of cg in ns: v1 cpuacct.usage, v2 cpu.stat
 * usage_usec x 1000.  Returns a status. */
int cgroup_read_cpu_usage(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
			  int64_t *ns, struct err *e);

/* memory.stat, bytes; -1 for a key the kernel did not print. */
struct cgroup_memory_stat {
	int64_t anon;          /* v1 total_rss, v2 anon */
	int64_t file;          /* v1 total_cache, v2 file */
	int64_t active_anon;   /* v1 total_active_anon */
	int64_t inactive_anon; /* v1 total_inactive_anon */
	int64_t active_file;   /* v1 total_active_file */
	int64_t inactive_file; /* v1 total_inactive_file */
	int64_t unevictable;   /* v1 total_unevictable */
};

/* memory.stat of cg (hierarchical: v1 total_* keys).  Returns a status. */
int cgroup_read_memory_stat(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
			    struct cgroup_memory_stat *ms, struct err *e);

/* The cgroup's whole memory charge in bytes: v1 memory.usage_in_bytes, v2
 * memory.current.  Returns a status. */
int cgroup_read_memory_current(const struct cgroup_layout *l, const struct sysroot *s,
			       const char *cg, int64_t *bytes, struct err *e);

/* CFS bandwidth: quota in us (-1 unlimited) and period in us.  v1
 * cpu.cfs_quota_us and cpu.cfs_period_us, v2 cpu.max.  Returns a status. */
int cgroup_read_cfs(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		    int64_t *quota_us, int64_t *period_us, struct err *e);

/* cpuset.cpus of cg (v2: cpuset.cpus.effective when cpuset.cpus is empty,
 * as koordlet reads both).  Returns a status; -1 (ERR_INPUT) on a bad list. */
int cgroup_read_cpuset(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		       struct cpuset *set, struct err *e);

/* Pids of cgroup.procs of cg in c (processes), in file order.  *pids is a
 * new array (caller frees; NULL when empty).  Returns a status. */
int cgroup_read_procs(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		      const char *cg, pid_t **pids, size_t *n, struct err *e);

/* Thread ids of cg in c: v1 tasks, v2 cgroup.threads.  As cgroup_read_procs(). */
int cgroup_read_threads(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
			const char *cg, pid_t **tids, size_t *n, struct err *e);

/* qsort/bsearch order of pid_t values (cgroup_read_tree's order). */
int cgroup_pid_cmp(const void *a, const void *b);

/* Limits of cgroup_read_tree(): a container with more is an error. */
#define CGROUP_TREE_DEPTH 16
#define CGROUP_TREE_DIRS 4096

/* The processes (threads 0: cgroup.procs) or threads (1: v1 tasks, v2
 * cgroup.threads) of cg in c and of every dir below it (YARN's Docker
 * runtime and launchers make sub-cgroups), sorted and unique.  *ids is a
 * new array (caller frees; NULL when empty).  Returns a status:
 * CGROUP_ABSENT when cg itself is no dir; a dir below that vanishes
 * meanwhile adds nothing; CGROUP_TOO_BIG with e set past CGROUP_TREE_DEPTH
 * levels or CGROUP_TREE_DIRS dirs (a container can make dirs in its own:
 * the walk is bounded, members_scan() is not). */
int cgroup_read_tree(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
		     const char *cg, int threads, pid_t **ids, size_t *n, struct err *e);

/* The start time of the oldest process of cg in c, ms since the epoch
 * (proc/<pid>/stat starttime + proc/stat btime; processes that exit while
 * read are skipped).  *ms is -1 when cg has no process.  Returns a status. */
int cgroup_start_time_ms(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
			 const char *cg, int64_t *ms, struct err *e);

/* ---- YARN containers ------------------------------------------------- */

struct cgroup_container {
	char id[CONTAINERID_MAX + 1]; /* the dir name, a valid container id */
	unsigned ctrls;               /* bit (1u << c) set when the dir exists in controller c */
	uint64_t ino[CGROUP_NCTRL];   /* the dir's inode number in controller c (readdir d_ino) */
};

/* The container_* dirs directly under l->hadoop_yarn in every mounted
 * controller (each mount visited once), merged by name and sorted by
 * strcmp, with each dir's inode number (a dir removed and made again gets a
 * new one on cgroupfs).  Names that are not valid container ids (containerid_valid) and
 * non-dirs are ignored; a controller without the hadoop-yarn dir adds
 * nothing.  *out is a new array (caller frees; NULL when none).  Returns 0,
 * or -1 with e set (a dir that exists but cannot be read). */
int cgroup_list_containers(const struct cgroup_layout *l, const struct sysroot *s,
			   struct cgroup_container **out, size_t *n, struct err *e);

/* What the cpu hierarchy holds instead, for a message when l->hadoop_yarn
 * is not there: the kubelet layouts present ("kubepods" for cgroupfs,
 * "kubepods.slice" for systemd) and the dirs named hadoop-yarn within 4
 * levels of the root, as one line into out (size bytes, NUL-terminated;
 * "nothing of kubepods or hadoop-yarn" when there is none).  Returns the
 * number of hadoop-yarn dirs found. */
int cgroup_layout_hint(const struct cgroup_layout *l, const struct sysroot *s, char *out,
		       size_t size);

/* The controller whose cgroup.procs lists a container's processes, given
 * the controllers holding its dir: cpu (YARN's CPU handler; the unified
 * tree on v2), else cpuacct, memory, pids, cpuset, blkio. */
enum cgroup_ctrl cgroup_procs_ctrl(unsigned ctrls);

/* The cgroup path of a container: "<hadoop_yarn>/<id>".  New string. */
char *cgroup_container_path(const struct cgroup_layout *l, const char *id);

/* ---- Pure parsers ---------------------------------------------------- */

/* A decimal integer (leading blanks and trailing white space allowed, as
 * the kernel prints it; nothing else).  Returns 0 with *out, or -1. */
int cgroup_parse_i64(const char *text, int64_t *out);

/* The value of key in "key value" lines (memory.stat, cpu.stat).  Returns 1
 * and *out when found, 0 when absent, -1 with e set (ERR_INPUT) when the
 * value is not an integer. */
int cgroup_parse_kv(const char *text, const char *key, int64_t *out, struct err *e);

/* memory.stat text into *ms: version 1 reads the total_* keys (total_rss,
 * total_cache, total_active_anon...), version 2 the plain keys.  Returns 0,
 * or -1 with e set (ERR_INPUT). */
int cgroup_parse_memory_stat(const char *text, int version, struct cgroup_memory_stat *ms,
			     struct err *e);

/* Memory in use excluding page cache: inactive_anon + active_anon +
 * unevictable (koordlet metricsadvisor), or -1 when a term is missing. */
int64_t cgroup_memory_stat_used(const struct cgroup_memory_stat *ms);

/* v2 cpu.stat usage_usec x 1000, in ns.  Returns 0, or -1 with e set
 * (ERR_INPUT: missing or not an integer). */
int cgroup_parse_cpu_stat_usage(const char *text, int64_t *ns, struct err *e);

/* v2 cpu.max "<quota|max> <period>": quota in us (-1 for max), period in
 * us.  Returns 0, or -1 with e set (ERR_INPUT). */
int cgroup_parse_cpu_max(const char *text, int64_t *quota_us, int64_t *period_us, struct err *e);

/* A cpu.max value as written or read: "<quota|max>[ <period>]" (quota and
 * period >= 1; writing "max" alone keeps the period).  Returns 0 with the
 * quota in us (-1 for max) and the period in us (-1 when absent), or -1. */
int cgroup_parse_cpu_max_value(const char *text, int64_t *quota_us, int64_t *period_us);

/* A cgroup.procs, tasks or cgroup.threads text: one positive pid a line.
 * *pids new (NULL when empty).  Returns 0, or -1 with e set (ERR_INPUT). */
int cgroup_parse_pids(const char *text, pid_t **pids, size_t *n, struct err *e);

#endif
