// SPDX-License-Identifier: Apache-2.0
/* members - the processes and threads of a YARN cgroup dir (see members.h) */
#include "kernel/members.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "kernel/procfs.h"

struct pidvec {
	pid_t *v;
	size_t n;
};

static void add(struct pidvec *p, pid_t id)
{
	if ((p->n & (p->n - 1)) == 0) /* 0, 1, 2, 4, ...: double */
		p->v = xrealloc(p->v, (p->n ? p->n * 2 : 1) * sizeof(*p->v));
	p->v[p->n++] = id;
}

/* Sort and drop repeats. */
static void settle(struct pidvec *p)
{
	size_t m = 0;

	if (p->n > 1)
		qsort(p->v, p->n, sizeof(*p->v), cgroup_pid_cmp);
	for (size_t i = 0; i < p->n; i++)
		if (!m || p->v[m - 1] != p->v[i])
			p->v[m++] = p->v[i];
	p->n = m;
	if (!m) {
		free(p->v);
		p->v = NULL;
	}
}

static int in(const pid_t *v, size_t n, pid_t id)
{
	return n && bsearch(&id, v, n, sizeof(*v), cgroup_pid_cmp) != NULL;
}

/* Call fn(arg, tid) for every thread listed in proc/<pid>/task (none when
 * the process is gone). */
static void each_thread(const struct sysroot *s, pid_t pid, void (*fn)(void *, pid_t), void *arg)
{
	cleanup_free char *rel = xasprintf("proc/%ld/task", (long)pid);
	cleanup_closedir DIR *d = sysroot_opendir(s, rel, NULL);
	struct dirent *ent;

	while (d && (ent = readdir(d))) {
		const char *end = ent->d_name;
		int64_t tid;

		if (num_scan_i64(&end, 1, INT32_MAX, &tid) == 0 && !*end)
			fn(arg, (pid_t)tid);
	}
}

/* 1 when the cgroup of task tid of process pid in c (proc/<pid>/task/<tid>/cgroup;
 * the process's own when tid is pid: its leader thread) is cg or below it,
 * 0 when it is elsewhere (*root set when that is the root, as for every
 * exited task: root may be NULL), -1 when unknown (the task is gone, or no
 * line for c).  proc(5): "hierarchy-ID:controller-list:path", v2 "0::path". */
static int task_in_root(const struct cgroup_layout *l, const struct sysroot *s, enum cgroup_ctrl c,
			pid_t pid, pid_t tid, const char *cg, int *root)
{
	cleanup_free char *rel =
		tid == pid ? xasprintf("proc/%ld/cgroup", (long)pid)
			   : xasprintf("proc/%ld/task/%ld/cgroup", (long)pid, (long)tid);
	cleanup_free char *text = NULL;
	const char *name = cgroup_ctrl_name(c);
	size_t cglen = strlen(cg), nlen = strlen(name);

	if (sysroot_read_str(s, rel, &text, NULL) < 0)
		return -1;
	for (char *line = text, *next; line && *line; line = next) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *path;
		int match = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!c2)
			continue;
		path = c2 + 1;
		if (l->ctrl_version[c] == 2) {
			match = c2 == c1 + 1 && strncmp(line, "0:", 2) == 0;
		} else {
			for (char *p = c1 + 1; p < c2;) { /* "cpu,cpuacct": one of the list */
				char *comma = memchr(p, ',', (size_t)(c2 - p));
				size_t len = (size_t)((comma ? comma : c2) - p);

				match |= len == nlen && memcmp(p, name, len) == 0;
				p += len + 1;
			}
		}
		if (match) {
			if (root)
				*root = strcmp(path, "/") == 0;
			return strncmp(path, cg, cglen) == 0 &&
			       (path[cglen] == '\0' || path[cglen] == '/');
		}
	}
	return -1;
}

enum verdict { FOREIGN, MEMBER, MIXED, VANISHED };

struct classify {
	const struct cgroup_layout *l;
	const struct sysroot *s;
	enum cgroup_ctrl c;
	const char *cg;
	pid_t pid;
	const pid_t *tids;
	size_t nt;
	size_t inside, outside; /* live threads of the process in the tree, elsewhere */
};

/* PF_EXITING of a task's flags (include/linux/sched.h): set in do_exit()
 * before cgroup_exit() moves it to the root css_set. */
#define TASK_PF_EXITING 0x4u

/* 1 when task tid of process pid (tid == pid: its leader) is exiting or
 * has exited: a zombie (Z, X) or PF_EXITING in the flags of its stat
 * (field 9).  Such a task's own cgroup file reads the root, wherever it
 * ran; 0 otherwise (a task that is gone: 1). */
static int exiting(const struct sysroot *s, pid_t pid, pid_t tid)
{
	cleanup_free char *rel =
		tid == pid ? xasprintf("proc/%ld/stat", (long)pid)
			   : xasprintf("proc/%ld/task/%ld/stat", (long)pid, (long)tid);
	cleanup_free char *stat = NULL;
	const char *paren;
	unsigned long flags = 0;
	char state;

	if (sysroot_read_str(s, rel, &stat, NULL) < 0)
		return 1;
	paren = strrchr(stat, ')');
	/* ") S ppid pgrp session tty_nr tpgid flags" */
	if (!paren || sscanf(paren + 1, " %c", &state) != 1)
		return 0;
	if (state == 'Z' || state == 'X')
		return 1;
	return sscanf(paren + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1 &&
	       (flags & TASK_PF_EXITING);
}

/* Count tid (not the leader) inside or outside the tree: by the tasks
 * read, else (born since, or elsewhere) by its own cgroup file; a thread
 * gone meanwhile, or exiting (its file reads the root: a thread pool's
 * churn), counts nowhere. */
static void count_thread(void *arg, pid_t tid)
{
	struct classify *k = arg;
	int r, root = 0;

	if (tid == k->pid)
		return;
	r = k->tids && in(k->tids, k->nt, tid)
		    ? 1
		    : task_in_root(k->l, k->s, k->c, k->pid, tid, k->cg, &root);
	if (r == 1)
		k->inside++;
	else if (r == 0 && !(root && exiting(k->s, k->pid, tid)))
		k->outside++;
}

/* What process pid, listed in cgroup.procs of the tree cg in c whose
 * threads are tids[0..nt) (NULL: one process by its own files alone), is
 * to the container:
 *   - its leader thread in the tree (the tasks read, else its own cgroup
 *     file: one that came between the reads): a member when every other
 *     live thread is too, else mixed (its leader was written into tasks,
 *     or a thread left): never signalled or moved, no proof of an end;
 *   - its leader elsewhere: foreign (a thread of it was written into tasks);
 *   - its leader exited (a zombie with live threads: v1 drops it from
 *     tasks, and its own cgroup file then reads the root, so the threads
 *     decide) or is exiting: member with all of them in the tree, mixed
 *     with some, foreign with none; a thread that is exiting itself counts
 *     nowhere (its file reads the root too);
 *   - gone before it was placed (a fork chain: each process forks the next
 *     and exits): vanished, neither, but it ran in the tree. */
static enum verdict classify(const struct cgroup_layout *l, const struct sysroot *s,
			     enum cgroup_ctrl c, const char *cg, pid_t pid, const pid_t *tids,
			     size_t nt)
{
	struct classify k = { l, s, c, cg, pid, tids, nt, 0, 0 };
	int root = 0,
	    leader = tids && in(tids, nt, pid) ? 1 : task_in_root(l, s, c, pid, pid, cg, &root);

	if (leader < 0)
		return VANISHED;
	/* an exited or exiting leader's file reads the root: only then is it
	 * looked at again (one read for most processes of a scan) */
	if (leader == 0 && (!root || !exiting(s, pid, pid)))
		return FOREIGN;
	each_thread(s, pid, count_thread, &k);
	if (leader == 1)
		return k.outside ? MIXED : MEMBER;
	if (k.inside)
		return k.outside ? MIXED : MEMBER;
	return k.outside ? FOREIGN : VANISHED;
}

unsigned members_authorities(const struct cgroup_layout *l)
{
	unsigned a;

	if (!l->mount[CGROUP_CPU])
		return 0;
	a = 1u << CGROUP_CPU;
	if (l->version == 1 && l->nm_memory && l->mount[CGROUP_MEMORY] &&
	    strcmp(l->mount[CGROUP_MEMORY], l->mount[CGROUP_CPU]) != 0)
		a |= 1u << CGROUP_MEMORY;
	return a;
}

/* The v1 hierarchies kilo mirrors into and that are no authority. */
static unsigned mirrors(const struct cgroup_layout *l, unsigned authorities)
{
	static const enum cgroup_ctrl v1[] = { CGROUP_CPUSET, CGROUP_MEMORY };
	unsigned m = 0;

	if (l->version != 1)
		return 0;
	for (size_t i = 0; i < sizeof(v1) / sizeof(v1[0]); i++)
		if (!(authorities & (1u << v1[i])) && l->mount[v1[i]] && l->mount[CGROUP_CPU] &&
		    strcmp(l->mount[v1[i]], l->mount[CGROUP_CPU]) != 0)
			m |= 1u << v1[i];
	return m;
}

struct collect {
	const pid_t *tids;
	size_t nt;
	struct pidvec *out;
};

static void collect(void *arg, pid_t tid)
{
	struct collect *c = arg;

	if (in(c->tids, c->nt, tid))
		add(c->out, tid);
}

int members_pid_is_member(const struct cgroup_layout *l, const struct sysroot *s, pid_t pid,
			  const char *cg)
{
	unsigned auth = members_authorities(l);
	int member = 0;

	for (int c = 0; c < CGROUP_NCTRL; c++) {
		if (!(auth & (1u << c)))
			continue;
		switch (classify(l, s, (enum cgroup_ctrl)c, cg, pid, NULL, 0)) {
		case MIXED:
			return 0;
		case MEMBER:
			member = 1;
			break;
		case FOREIGN:
		case VANISHED:
			break;
		}
	}
	return member;
}

/* 1 when thread tid of process pid, a member a moment ago, is one still by
 * its own files, as classify() has it, in some authority: the leader in the
 * tree, or exited or exiting (its file reads the root: the threads decide
 * then), and the thread not elsewhere (unknown, or exiting, counts nowhere:
 * a write of a gone thread is ESRCH). */
static int thread_still_member(const struct cgroup_layout *l, const struct sysroot *s, pid_t pid,
			       pid_t tid, const char *cg)
{
	unsigned auth = members_authorities(l);

	for (int c = 0; c < CGROUP_NCTRL; c++) {
		int root = 0, r;

		if (!(auth & (1u << c)))
			continue;
		r = task_in_root(l, s, (enum cgroup_ctrl)c, pid, pid, cg, &root);
		if (r < 0 || (r == 0 && !(root && exiting(s, pid, pid))))
			continue; /* the leader gone, or elsewhere */
		if (tid == pid)
			return 1;
		root = 0;
		r = task_in_root(l, s, (enum cgroup_ctrl)c, pid, tid, cg, &root);
		if (r != 0 || (root && exiting(s, pid, tid)))
			return 1;
	}
	return 0;
}

int members_tid_is_member(const struct cgroup_layout *l, const struct sysroot *s, pid_t tid,
			  const char *cg, struct members_memo *memo)
{
	pid_t tgid = procfs_tgid(s, tid);
	size_t lo = 0, hi;
	int member;

	if (tgid <= 0)
		return 0;
	if (!memo)
		return members_pid_is_member(l, s, tgid, cg);
	for (hi = memo->n; lo < hi;) { /* the first pids[i] >= tgid */
		size_t mid = lo + (hi - lo) / 2;

		if (memo->pids[mid] < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < memo->n && memo->pids[lo] == tgid)
		return memo->member[lo] && thread_still_member(l, s, tgid, tid, cg);
	member = members_pid_is_member(l, s, tgid, cg);
	if (memo->n == memo->cap) {
		memo->cap = memo->cap ? memo->cap * 2 : 16;
		memo->pids = xrealloc(memo->pids, memo->cap * sizeof(*memo->pids));
		memo->member = xrealloc(memo->member, memo->cap);
	}
	memmove(memo->pids + lo + 1, memo->pids + lo, (memo->n - lo) * sizeof(*memo->pids));
	memmove(memo->member + lo + 1, memo->member + lo, memo->n - lo);
	memo->pids[lo] = tgid;
	memo->member[lo] = (unsigned char)member;
	memo->n++;
	return member;
}

void members_memo_release(struct members_memo *memo)
{
	free(memo->pids);
	free(memo->member);
	memset(memo, 0, sizeof(*memo));
}

int members_scan(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		 struct members *m, struct err *e)
{
	cleanup_closedir DIR *d = sysroot_opendir(s, "proc", e);
	struct pidvec mem = { 0 };
	struct dirent *ent;

	memset(m, 0, sizeof(*m));
	if (!d && e && e->kind == ERR_NOTFOUND) { /* a sysroot without proc/: nothing runs */
		err_clear(e);
		return CGROUP_OK;
	}
	if (!d)
		return -1;
	while ((ent = readdir(d))) {
		const char *end = ent->d_name;
		int64_t pid;

		if (ent->d_name[0] == '0' || num_scan_i64(&end, 1, INT32_MAX, &pid) < 0 || *end)
			continue;
		if (members_pid_is_member(l, s, (pid_t)pid, cg))
			add(&mem, (pid_t)pid);
	}
	settle(&mem);
	m->pids = mem.v;
	m->n = mem.n;
	m->ctrls = members_authorities(l);
	return CGROUP_OK;
}

int members_has(const struct members *m, pid_t pid)
{
	return in(m->pids, m->n, pid);
}

int members_read(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		 unsigned flags, struct members *m, struct err *e)
{
	unsigned auth = members_authorities(l),
		 mir = flags & MEMBERS_MIRRORS ? mirrors(l, auth) : 0;
	struct pidvec mem = { 0 }, cand = { 0 }, threads = { 0 }, mthreads = { 0 },
		      inmirror = { 0 }, mixed = { 0 };
	int r = CGROUP_OK;

	memset(m, 0, sizeof(*m));
	for (int c = 0; c < CGROUP_NCTRL && r >= 0; c++) {
		cleanup_free pid_t *procs = NULL, *tids = NULL;
		size_t np = 0, nt = 0;

		if (!((auth | mir) & (1u << c)))
			continue;
		r = cgroup_read_tree(l, s, (enum cgroup_ctrl)c, cg, 0, &procs, &np, e);
		if (r == CGROUP_OK)
			r = cgroup_read_tree(l, s, (enum cgroup_ctrl)c, cg, 1, &tids, &nt, e);
		if (r == CGROUP_ABSENT) { /* no dir here; vanished between the reads */
			r = CGROUP_OK;
			continue;
		}
		if (r != CGROUP_OK) { /* CGROUP_UNSUPPORTED: a dir without cgroup.procs */
			m->too_big = r == CGROUP_TOO_BIG;
			r = -1;
			break;
		}
		if (!(auth & (1u << c))) { /* a mirror: only ever evidence of strangers */
			for (size_t i = 0; i < (flags & MEMBERS_THREADS ? nt : np); i++)
				add(&inmirror, flags & MEMBERS_THREADS ? tids[i] : procs[i]);
			continue;
		}
		m->ctrls |= 1u << c;
		for (size_t i = 0; i < np; i++)
			switch (classify(l, s, (enum cgroup_ctrl)c, cg, procs[i], tids, nt)) {
			case MEMBER:
				add(&mem, procs[i]);
				break;
			case MIXED:
				add(&mixed, procs[i]);
				if (!(flags & MEMBERS_THREADS))
					add(&cand, procs[i]);
				break;
			case FOREIGN:
				if (!(flags & MEMBERS_THREADS))
					add(&cand, procs[i]);
				break;
			case VANISHED:
				m->nvanished++;
				break;
			}
		for (size_t i = 0; (flags & MEMBERS_THREADS) && i < nt; i++)
			add(&threads, tids[i]);
	}
	if (r < 0) {
		free(mem.v);
		free(cand.v);
		free(threads.v);
		free(inmirror.v);
		free(mixed.v);
		return -1;
	}
	settle(&mixed);
	settle(&mem);
	/* mixed in one hierarchy is mixed: never a member */
	size_t w = 0;

	for (size_t i = 0; i < mem.n; i++)
		if (!in(mixed.v, mixed.n, mem.v[i]))
			mem.v[w++] = mem.v[i];
	mem.n = w;
	m->nmixed = mixed.n;
	m->mixed = mixed.n ? mixed.v[0] : 0;
	free(mixed.v);
	if (flags & MEMBERS_THREADS) {
		settle(&threads);
		for (size_t i = 0; i < mem.n; i++)
			each_thread(s, mem.v[i], collect,
				    &(struct collect){ threads.v, threads.n, &mthreads });
		settle(&mthreads);
		for (size_t i = 0; i < threads.n; i++)
			add(&cand, threads.v[i]);
		free(threads.v);
	}
	settle(&inmirror);
	for (size_t i = 0; i < inmirror.n; i++) /* only evidence of strangers, or a wrong layout */
		if (!in(flags & MEMBERS_THREADS ? mthreads.v : mem.v,
			flags & MEMBERS_THREADS ? mthreads.n : mem.n, inmirror.v[i])) {
			m->nmirrored++;
			add(&cand, inmirror.v[i]);
		}
	free(inmirror.v);
	settle(&cand);
	m->pids = mem.v;
	m->n = mem.n;
	m->tids = mthreads.v;
	m->ntids = mthreads.n;
	/* foreign: the candidates that are no member (process or thread) */
	for (size_t i = 0; i < cand.n; i++)
		if (!in(flags & MEMBERS_THREADS ? m->tids : m->pids,
			flags & MEMBERS_THREADS ? m->ntids : m->n, cand.v[i]))
			cand.v[m->nforeign++] = cand.v[i];
	m->foreign = m->nforeign ? cand.v : NULL;
	if (!m->nforeign)
		free(cand.v);
	if (!m->ctrls) {
		err_set(e, ERR_NOTFOUND, 0,
			"cgroup '%s' is in none of the NodeManager's hierarchies", cg);
		return CGROUP_ABSENT;
	}
	return CGROUP_OK;
}

void members_release(struct members *m)
{
	free(m->pids);
	free(m->tids);
	free(m->foreign);
	memset(m, 0, sizeof(*m));
}
