// SPDX-License-Identifier: Apache-2.0
/* members - the processes and threads of a YARN cgroup dir (see members.h) */
#include "kernel/members.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"

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
		char *end;
		long tid = strtol(ent->d_name, &end, 10);

		if (ent->d_name[0] >= '0' && ent->d_name[0] <= '9' && *end == '\0' && tid > 0 &&
		    tid <= 0x7fffffff)
			fn(arg, (pid_t)tid);
	}
}

struct thread_probe {
	pid_t leader;
	const pid_t *tids;
	size_t nt;
	int found;
};

static void probe(void *arg, pid_t tid)
{
	struct thread_probe *p = arg;

	p->found |= tid != p->leader && in(p->tids, p->nt, tid);
}

/* 1 when the leader thread of pid has exited (a zombie: v1 drops it from
 * tasks while its other threads run on) and one of its live threads is in
 * tids[0..nt): the process is still the dir's. */
static int leader_gone_thread_in(const struct sysroot *s, pid_t pid, const pid_t *tids, size_t nt)
{
	cleanup_free char *rel = xasprintf("proc/%ld/stat", (long)pid);
	cleanup_free char *stat = NULL;
	struct thread_probe p = { pid, tids, nt, 0 };
	const char *close_paren;

	if (sysroot_read_str(s, rel, &stat, NULL) < 0 || !(close_paren = strrchr(stat, ')')) ||
	    close_paren[1] != ' ' || (close_paren[2] != 'Z' && close_paren[2] != 'X'))
		return 0;
	each_thread(s, pid, probe, &p);
	return p.found;
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

int members_has(const struct members *m, pid_t pid)
{
	return in(m->pids, m->n, pid);
}

int members_read(const struct cgroup_layout *l, const struct sysroot *s, const char *cg,
		 unsigned flags, struct members *m, struct err *e)
{
	unsigned auth = members_authorities(l),
		 mir = flags & MEMBERS_MIRRORS ? mirrors(l, auth) : 0;
	struct pidvec mem = { 0 }, cand = { 0 }, threads = { 0 }, mthreads = { 0 };
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
			r = -1;
			break;
		}
		if (!(auth & (1u << c))) { /* a mirror: only ever evidence of strangers */
			for (size_t i = 0; i < (flags & MEMBERS_THREADS ? nt : np); i++)
				add(&cand, flags & MEMBERS_THREADS ? tids[i] : procs[i]);
			continue;
		}
		m->ctrls |= 1u << c;
		for (size_t i = 0; i < np; i++)
			if (in(tids, nt, procs[i]) || leader_gone_thread_in(s, procs[i], tids, nt))
				add(&mem, procs[i]);
			else if (!(flags & MEMBERS_THREADS))
				add(&cand, procs[i]);
		for (size_t i = 0; (flags & MEMBERS_THREADS) && i < nt; i++)
			add(&threads, tids[i]);
	}
	if (r < 0) {
		free(mem.v);
		free(cand.v);
		free(threads.v);
		return -1;
	}
	settle(&mem);
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
