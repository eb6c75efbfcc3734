/* SPDX-License-Identifier: Apache-2.0 */
/* yarntasks - the NodeManager process and its threads, found through the
 * sysroot: resctrl-assign --mode nm-pid puts them into the BE group, and
 * their later children inherit the group on fork (DESIGN.md).  The other
 * mode, the member threads of the hadoop-yarn cgroup tree, is
 * kernel/members.h.
 */
#ifndef KILO_YARNTASKS_H
#define KILO_YARNTASKS_H

#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"
#include "kernel/sysroot.h"

/* The main class on a NodeManager's command line (yarn-interfaces.md). */
#define YARNTASKS_NM_CLASS "org.apache.hadoop.yarn.server.nodemanager.NodeManager"

/* 1 when cmdline (the NUL-separated proc/<pid>/cmdline, len bytes) has an
 * argument equal to YARNTASKS_NM_CLASS (a wrapper shell whose one argument
 * merely contains it does not count).  Pure. */
int yarntasks_is_nm_cmdline(const char *cmdline, size_t len);

/* The pid of the one NodeManager under proc/.  Returns 0, or -1 with e set:
 * ERR_NOTFOUND when there is none, ERR_INPUT listing the pids when there are
 * several (give --nm-pid). */
int yarntasks_find_nm(const struct sysroot *s, pid_t *pid, struct err *e);

/* 0 when process pid (--nm-pid) is a NodeManager: its proc/<pid>/cmdline
 * has the argument YARNTASKS_NM_CLASS (pid 1, a shell, a wrapper whose one
 * argument merely contains the class are not; their threads must not go
 * into the BE group).  -1 with e set: ERR_USAGE "--nm-pid 1: process 1 is
 * not a NodeManager (...)", ERR_NOTFOUND when there is no such process. */
int yarntasks_check_nm(const struct sysroot *s, pid_t pid, struct err *e);

/* The thread ids of process pid (proc/<pid>/task), ascending.  *tids new
 * (caller frees).  Returns 0, or -1 with e set (ERR_NOTFOUND when there is
 * no such process). */
int yarntasks_threads(const struct sysroot *s, pid_t pid, pid_t **tids, size_t *n, struct err *e);

#endif
