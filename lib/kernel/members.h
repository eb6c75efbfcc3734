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
 * A process listed in cgroup.procs of the dir or of any dir below it
 * (cgroup_read_tree) in an authority is
 *   - a member when its thread-group leader is in that tree (v1 tasks, v2
 *     cgroup.threads; a leader that has exited, a zombie v1 drops from
 *     tasks, by its proc/<pid>/cgroup) and so is every live thread of it
 *     (a thread missing from the tasks read, born since, by its own
 *     proc/<pid>/task/<tid>/cgroup);
 *   - foreign when its leader is elsewhere: on v1 a thread id written into
 *     tasks moves that thread alone, and cgroup.procs then lists its whole
 *     process;
 *   - mixed when its leader is in the tree and a thread is elsewhere (an
 *     outside process whose leader thread was written into tasks, or a
 *     thread that left): neither;
 *   - vanished when it exited before it was placed (nvanished): neither,
 *     but evidence that the tree is not idle: a fork chain, each process
 *     forking the next and exiting, may never show one member.
 * A leader the tasks read missed (born, exited or moved between the two
 * reads) is placed by its own proc/<pid>/cgroup.
 * Foreign and mixed processes are never signalled or moved.
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
	size_t nmirrored; /* of them, found in kilo's mirror dirs (MEMBERS_MIRRORS) */
	size_t nmixed;    /* processes whose leader is in the tree and a thread elsewhere */
	pid_t mixed;      /* the first of them */
	unsigned ctrls;   /* bit (1u << c) per authority whose dir cg exists */
	int too_big;      /* members_read() -1: the tree passes cgroup_read_tree()'s limits */
	size_t nvanished; /* processes listed that exited before they were placed: the
			   * tree was not idle (a fork chain never shows a member) */
};

/* The authorities of l as controller bits (see the top; CGROUP_CPU stands
 * for the unified tree on v2).  0 when the cpu controller is not mounted. */
unsigned members_authorities(const struct cgroup_layout *l);

/* The members of cg (a cgroup path, "<hadoop_yarn>/<id>") through l and s,
 * into *m (zeroed first; release with members_release() in every case).
 * Returns CGROUP_OK, CGROUP_ABSENT when cg is a dir in no authority (*m
 * empty, e says which), or -1 with e set (a file or dir that exists but
 * cannot be read; a tree past CGROUP_TREE_DEPTH or CGROUP_TREE_DIRS, which
 * sets m->too_big: only members_scan() then finds its members). */
int members_read(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		 unsigned flags, struct members *m, struct err *e);

/* 1 when process pid is a member of cg now by its own cgroup files alone
 * (its leader's proc/<pid>/cgroup, each thread's), in some authority and
 * mixed in none; 0 otherwise (gone, foreign, mixed).  One process's check,
 * for a pid pinned before it is acted on. */
int members_pid_is_member(const struct cgroup_layout *l, const struct sysroot *s, pid_t pid,
			  const char *cg);

/* What members_tid_is_member() found of each process in one pass (zero it
 * first; members_memo_release() it). */
struct members_memo {
	pid_t *pids;           /* ascending */
	unsigned char *member; /* members_pid_is_member() of pids[i] */
	size_t n, cap;
};

/* 1 when thread tid is a thread of a member of cg now, by its own files; 0
 * otherwise (gone, reused by an outsider).  For a check just before a
 * thread id read earlier is acted on.  Its process is procfs_tgid() of it,
 * read each time.  That process must be a member (members_pid_is_member,
 * which reads every live thread's cgroup file): with memo (may be NULL)
 * that check is had once per process and memo, the process's first thread
 * checked; each thread after it is then checked by its own files alone
 * (the leader still in the tree or exiting, as members_pid_is_member
 * wants, and the thread in the tree, in one authority).  Without the memo
 * a process of T threads cost T x T reads (100 containers of 100 threads:
 * a million). */
int members_tid_is_member(const struct cgroup_layout *l, const struct sysroot *s, pid_t tid,
			  const char *cg, struct members_memo *memo);

void members_memo_release(struct members_memo *memo);

/* The members of cg found by every process's own cgroup files (a walk of
 * proc/, members_pid_is_member on each): a process moving between the dirs
 * of the tree faster than a walk cannot hide from it, which costs a read per
 * process on the node.  *m holds pids (no foreign, no threads).  Returns
 * CGROUP_OK, or -1 with e set (proc/ unreadable). */
int members_scan(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		 struct members *m, struct err *e);

/* 1 when pid is among m's members.  O(log n). */
int members_has(const struct members *m, pid_t pid);

void members_release(struct members *m);

#endif
