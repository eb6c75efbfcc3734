/* SPDX-License-Identifier: Apache-2.0 */
/* yarntasks - the thread ids YARN work runs as, found through the sysroot.
 *
 * Two sources, the two ways resctrl-assign puts YARN into the BE group
 * (DESIGN.md): every thread of the hadoop-yarn cgroup tree (nested dirs
 * included: LinuxContainerExecutor may nest, and the NodeManager itself may
 * sit in the top dir), or the NodeManager process's threads, whose later
 * children inherit the resctrl group on fork.
 */
#ifndef KILO_YARNTASKS_H
#define KILO_YARNTASKS_H

#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"

/* The main class on a NodeManager's command line (yarn-interfaces.md). */
#define YARNTASKS_NM_CLASS "org.apache.hadoop.yarn.server.nodemanager.NodeManager"

/* Thread ids of every cgroup under l->hadoop_yarn, the dir itself included,
 * in the cpu controller (v1: the cpu,cpuacct hierarchy where YARN's LCE puts
 * tasks; v2: cgroup.threads of the unified tree), in walk order, duplicates
 * possible.  Dirs that vanish during the walk are skipped.  *tids is a new
 * array (caller frees; NULL when none).  Returns CGROUP_OK, CGROUP_ABSENT
 * when the hadoop-yarn dir (or the cpu controller) does not exist (*n 0), or
 * -1 with e set. */
int yarntasks_from_cgroup(const struct cgroup_layout *l, const struct sysroot *s, pid_t **tids,
			  size_t *n, struct err *e);

/* 1 when cmdline (the NUL-separated proc/<pid>/cmdline, len bytes) has an
 * argument equal to YARNTASKS_NM_CLASS (a wrapper shell whose one argument
 * merely contains it does not count).  Pure. */
int yarntasks_is_nm_cmdline(const char *cmdline, size_t len);

/* The pid of the one NodeManager under proc/.  Returns 0, or -1 with e set:
 * ERR_NOTFOUND when there is none, ERR_INPUT listing the pids when there are
 * several (give --nm-pid). */
int yarntasks_find_nm(const struct sysroot *s, pid_t *pid, struct err *e);

/* The thread ids of process pid (proc/<pid>/task), ascending.  *tids new
 * (caller frees).  Returns 0, or -1 with e set (ERR_NOTFOUND when there is
 * no such process). */
int yarntasks_threads(const struct sysroot *s, pid_t pid, pid_t **tids, size_t *n, struct err *e);

#endif
