/* SPDX-License-Identifier: Apache-2.0 */
/* procfs - /proc/stat, /proc/meminfo and /proc/<pid>/stat, read through the
 * sysroot, with pure parsers beside the I/O (proc(5)).
 */
#ifndef KILO_PROCFS_H
#define KILO_PROCFS_H

#include <stdint.h>
#include <sys/types.h>

#include "core/err.h"
#include "kernel/sysroot.h"

/* /proc/meminfo, bytes (the kernel prints kB); -1 for an absent key. */
struct procfs_meminfo {
	int64_t total;     /* MemTotal */
	int64_t available; /* MemAvailable */
};

/* Parse /proc/meminfo text.  Returns 0, or -1 with e set (ERR_INPUT: a
 * malformed value, or MemTotal missing). */
int procfs_parse_meminfo(const char *text, struct procfs_meminfo *mi, struct err *e);

/* From /proc/stat text: the busy CPU time of the aggregate "cpu" line in
 * ns, user + nice + system + irq + softirq + steal (idle and iowait excluded;
 * guest is inside user), each in USER_HZ ticks of hz per second (koordlet
 * node CPU collector).  Returns 0, or -1 with e set (ERR_INPUT). */
int procfs_parse_cpu_busy(const char *text, long hz, int64_t *ns, struct err *e);

/* The "btime" line of /proc/stat: boot time in s since the epoch.  Returns
 * 0, or -1 with e set (ERR_INPUT). */
int procfs_parse_btime(const char *text, int64_t *btime_s, struct err *e);

/* Field 22 (starttime, ticks since boot) of a /proc/<pid>/stat text; the
 * comm field may hold spaces and parentheses, so fields are counted after
 * the last ')'.  Returns 0, or -1 with e set (ERR_INPUT). */
int procfs_parse_starttime(const char *text, uint64_t *ticks, struct err *e);

/* Ticks since boot to ms since the epoch, INT64_MAX when it does not fit. */
int64_t procfs_ticks_to_ms(int64_t btime_s, uint64_t ticks, long hz);

/* USER_HZ: sysconf(_SC_CLK_TCK), 100 when unknown. */
long procfs_hz(void);

/* Read and parse proc/meminfo.  Returns 0, or -1 with e set. */
int procfs_read_meminfo(const struct sysroot *s, struct procfs_meminfo *mi, struct err *e);

/* Read proc/stat and give the busy CPU ns and the boot time (either pointer
 * may be NULL).  Returns 0, or -1 with e set. */
int procfs_read_stat(const struct sysroot *s, int64_t *busy_ns, int64_t *btime_s, struct err *e);

/* The start time of pid in ticks since boot.  Returns 0, or -1 with e set
 * (ERR_NOTFOUND when the process is gone). */
int procfs_read_starttime(const struct sysroot *s, pid_t pid, uint64_t *ticks, struct err *e);

/* The state letter (field 3: R, S, D, Z, X, ...) and start time of pid.
 * Returns 0, or -1 with e set (ERR_NOTFOUND when the process is gone). */
int procfs_read_state(const struct sysroot *s, pid_t pid, char *state, uint64_t *ticks,
		      struct err *e);

/* The thread group (process) of thread tid: the "Tgid:" line of
 * proc/<tid>/status (a thread's id opens its own entry too); 0 when the
 * thread is gone or the line is missing. */
pid_t procfs_tgid(const struct sysroot *s, pid_t tid);

/* The online CPUs (sys/devices/system/cpu/online) as a new canonical list
 * string in *list and their count in *n.  Returns 0, or -1 with e set. */
int procfs_read_cpus_online(const struct sysroot *s, char **list, int *n, struct err *e);

#endif
