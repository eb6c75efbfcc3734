/* SPDX-License-Identifier: Apache-2.0 */
/* members - which processes and threads belong to a YARN cgroup dir (a
 * container's, or the hadoop-yarn dir itself).  The one membership rule of
 * yarn-copilot list and kill, qos-cgset's mirror and resctrl-assign.
 *
 * Authorities are the hierarchies the NodeManager itself populates
 * (yarn-interfaces.md; Hadoop's CGroupsHandlerImpl writes a container's
 * pid into each controller it manages): v2 the unified tree; v1 the cpu
 * hierarchy (cpu,cpuacct), and memory when the layout says the NodeManager
 * makes memory dirs (nm_memory: yarn.nodemanager.resource.memory.enabled).
 * Otherwise the v1 cpuset and memory dirs are kilo's own mirrors
 * (qos-cgset): never an authority, a pid found only there is no member.
 *
 * A process is a member when cgroup.procs of the dir or of any dir below
 * it (cgroup_read_tree) lists it in an authority and its thread-group
 * leader is in that tree too (v1 tasks, v2 cgroup.threads), or the leader
 * has exited (a zombie, dropped from tasks) and one of its live threads is
 * there.  On v1 a thread id written into tasks moves that thread alone, and
 * cgroup.procs then lists its whole process: such a process is foreign,
 * never signalled or moved.
 */
#ifndef KILO_MEMBERS_H
#define KILO_MEMBERS_H

#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"

/* members_read() flags. */
#define MEMBERS_THREADS 1u /* fill tids: the member processes' threads found in the dirs */
#define MEMBERS_MIRRORS 2u /* also read kilo's mirror dirs: their non-members are foreign */

struct members {
	pid_t *pids; /* member processes (thread-group ids), ascending */
	size_t n;
	pid_t *tids; /* MEMBERS_THREADS: member threads in the dirs, ascending */
	size_t ntids;
	/* ids listed in the dirs that are not members, ascending: process ids,
	 * or with MEMBERS_THREADS thread ids */
	pid_t *foreign;
	size_t nforeign;
	unsigned ctrls; /* bit (1u << c) per authority whose dir cg exists */
};

/* The authorities of l as controller bits (see the top; CGROUP_CPU stands
 * for the unified tree on v2).  0 when the cpu controller is not mounted. */
unsigned members_authorities(const struct cgroup_layout *l);

/* The members of cg (a cgroup path, "<hadoop_yarn>/<id>") through l and s,
 * into *m (zeroed first; release with members_release() in every case).
 * Returns CGROUP_OK, CGROUP_ABSENT when cg is a dir in no authority (*m
 * empty, e says which), or -1 with e set (a file or dir that exists but
 * cannot be read, a tree past CGROUP_TREE_DEPTH or CGROUP_TREE_DIRS). */
int members_read(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		 unsigned flags, struct members *m, struct err *e);

/* 1 when pid is among m's members.  O(log n). */
int members_has(const struct members *m, pid_t pid);

void members_release(struct members *m);

#endif
