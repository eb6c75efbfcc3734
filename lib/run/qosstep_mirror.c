// SPDX-License-Identifier: Apache-2.0
/* qosstep_mirror - step 0 of a qos-cgset pass (see qosstep.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"
#include "kernel/members.h"
#include "run/qosstep.h"

/* ---- Step 0: mirror the cpu tree into cpuset and memory (v1) ----------- */

/* The cpuset.cpus and cpuset.mems a new cpuset child takes from src. */
struct cpuset_src {
	char *cpus, *mems;
	struct err e;
	int ok;
};

/* The cpuset.cpus and cpuset.mems of cg into *src, making cg ready for
 * tasks first: a v1 cpuset dir that exists with either file empty (a crash
 * between mkdir and init, another agent) takes no task (ENOSPC), so each
 * empty one gets its parent's value, ancestors first, on chain.  The
 * parent's values are up (NULL: read, healed the same way, up to the root,
 * which the kernel always fills). */
static void cpuset_ready(struct qosstep *x, int chain, const char *cg, const struct cpuset_src *up,
			 struct cpuset_src *src, int depth)
{
	cleanup_free char *cpus = NULL, *mems = NULL, *parent = NULL;
	struct cpuset_src p = { 0 };

	if (cgroup_read(x->l, x->s, CGROUP_CPUSET, cg, CPUS(x->l), &cpus, &src->e) != CGROUP_OK ||
	    cgroup_read(x->l, x->s, CGROUP_CPUSET, cg, MEMS(x->l), &mems, &src->e) != CGROUP_OK) {
		if (!src->e.kind)
			err_set(&src->e, ERR_NOTFOUND, 0, "no cpuset of %s", cg);
		return;
	}
	if (*cpus && *mems) {
		src->cpus = cpus, src->mems = mems;
		cpus = mems = NULL;
		src->ok = 1;
		return;
	}
	if (strcmp(cg, "/") == 0 || depth >= CGROUP_TREE_DEPTH) {
		err_set(&src->e, ERR_INPUT, 0, "cpuset.cpus or cpuset.mems of %s is empty", cg);
		return;
	}
	if (up && up->ok) {
		p.cpus = xstrdup(up->cpus), p.mems = xstrdup(up->mems);
		p.ok = 1;
	} else if (up) {
		src->e = up->e;
		return;
	} else {
		parent = qosstep_parent(cg);
		cpuset_ready(x, chain, parent, NULL, &p, depth + 1);
	}
	if (!p.ok) {
		*src = p;
		return;
	}
	if (!*cpus)
		cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPUSET_CPUS, cg, p.cpus,
				  "empty: a cpuset dir takes no task before it has CPUs (its "
				  "parent's)");
	if (!*mems)
		cgchange_add_knob(
			x->plan, chain, x->l, CGKNOB_CPUSET_MEMS, cg, p.mems,
			"empty: a cpuset dir takes no task before it has memory nodes (its "
			"parent's)");
	src->cpus = *cpus ? xstrdup(cpus) : xstrdup(p.cpus);
	src->mems = *mems ? xstrdup(mems) : xstrdup(p.mems);
	src->ok = 1;
	free(p.cpus);
	free(p.mems);
}

/* The cpuset a new child of cg takes (cg healed first: cpuset_ready),
 * read and planned once, on first use. */
static const struct cpuset_src *cpuset_src_get(struct qosstep *x, const char *cg,
					       struct cpuset_src *src)
{
	if (!src->cpus && !src->e.kind)
		cpuset_ready(x, cgchange_chain(x->plan), cg, NULL, src, 0);
	return src;
}

static void mirror_dir(struct qosstep *x, int chain, enum cgroup_ctrl c, const char *cg,
		       const struct cpuset_src *src, const char *why)
{
	struct cgchange_item *it =
		cgchange_add(x->plan, chain, c, cg, NULL, CGCHANGE_MKDIR, "directory", "%s", why);

	if (c == CGROUP_CPUSET) {
		/* Without a source the dir is not made: it would take no task. */
		if (!src->ok)
			cgchange_fail(it, src->e.msg);
		cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPUSET_CPUS, cg, src->cpus,
				  "a cpuset child needs CPUs and memory nodes before tasks");
		cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPUSET_MEMS, cg, src->mems,
				  "a cpuset child needs CPUs and memory nodes before tasks");
	} else {
		/* Kernels since 6.x refuse charge moving with EINVAL: the
		 * tasks still move, their old charges stay behind. */
		cgchange_add_knob(x->plan, chain, x->l, CGKNOB_MEMORY_MOVE_CHARGE, cg, "3",
				  "charges move with the tasks")
			->unsupported_errno = EINVAL;
	}
}

/* 1 when the cache holds every one of pids as in c's dir cg. */
static int pids_cached(const struct qosstep *x, enum cgroup_ctrl c, const char *cg,
		       const pid_t *pids, size_t n)
{
	cleanup_free pid_t *there = NULL;
	const char *v = NULL;
	size_t nthere = 0;
	int64_t age;

	if (!cgcache_get(x->o->cache, c, cg, PROCS(x->l, c), &v, &age) || !v ||
	    cgroup_parse_pids(v, &there, &nthere, NULL) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!qosstep_has_pid(there, nthere, pids[i]))
			return 0;
	return 1;
}

/* The items moving pids not in there into c's dir cg.  When none is
 * missing, the pids go into the cache: a pid of the cpu dir later missing
 * from them makes the next pass read the mirror's cgroup.procs again. */
static void move_pids(struct qosstep *x, int chain, enum cgroup_ctrl c, const char *cg,
		      const pid_t *pids, size_t n, const pid_t *there, size_t nthere)
{
	size_t moves = 0;

	for (size_t i = 0; i < n; i++) {
		char v[24];

		if (qosstep_has_pid(there, nthere, pids[i]))
			continue;
		snprintf(v, sizeof(v), "%d", (int)pids[i]);
		cgchange_add(x->plan, chain, c, cg, PROCS(x->l, c), CGCHANGE_ALWAYS, v,
			     "process of the container's cpu cgroup")
			->member_of = xstrdup(cg);
		moves++;
	}
	if (moves == 0 && x->o->cache) {
		size_t len = 0, cap = n * 12 + 1; /* "\n" and at most 10 digits a pid */
		cleanup_free char *text = xmalloc(cap);

		text[0] = '\0';
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(text + len, cap - len, "%s%d", i ? "\n" : "",
						(int)pids[i]);
		cgcache_put(x->o->cache, c, cg, PROCS(x->l, c), text);
	}
}

/* 1 when some of pids[0..n) is not in there[0..nthere). */
static int some_missing(const pid_t *pids, size_t n, const pid_t *there, size_t nthere)
{
	for (size_t i = 0; i < n; i++)
		if (!qosstep_has_pid(there, nthere, pids[i]))
			return 1;
	return 0;
}

static void mirror_remove(struct qosstep *x, enum cgroup_ctrl c, const char *cg)
{
	cleanup_free pid_t *pids = NULL;
	struct err e = { 0 };
	size_t n = 0;
	struct cgchange_item *it;

	cgroup_read_procs(x->l, x->s, c, cg, &pids, &n, &e);
	it = cgchange_add(x->plan, cgchange_chain(x->plan), c, cg, NULL, CGCHANGE_RMDIR, NULL,
			  "the container's cpu cgroup is gone");
	if (n)
		cgchange_preset(it, CGCHANGE_SKIPPED,
				"the container's cpu cgroup is gone, but %zu "
				"processes remain",
				n);
}

/* 1 when kilo mirrors the cpu dirs into c: a v1 hierarchy of its own that
 * is no authority (members_authorities: with --nm-memory-cgroups the
 * memory dirs are the NodeManager's, never made, filled or removed here). */
static int mirrored(const struct cgroup_layout *l, enum cgroup_ctrl c)
{
	return l->mount[c] && l->ctrl_version[c] == 1 && l->mount[CGROUP_CPU] &&
	       strcmp(l->mount[c], l->mount[CGROUP_CPU]) != 0 &&
	       !(members_authorities(l) & (1u << c));
}

/* 1 when the dirs of a container without a cpu dir may go: the NodeManager
 * answered and holds it no more (not listed, or finished).  While it holds
 * it the dirs may be the NodeManager's own, made before the cpu dir at
 * launch (Hadoop's ResourceHandlerModule adds memory before cpu). */
static int may_remove(const struct qosstep *x, const char *id)
{
	return x->o->in->nm_reachable && !json_object_get(x->o->in->held, id);
}

/* 1 when ContainerList gave the container's pids and the cache vouches
 * that every mirror holds them all: nothing to read.  The pids are only a
 * hint: anything missing makes the pass read the cpu dir's own
 * cgroup.procs, and only pids read there are ever moved.  A process forked
 * later is in its parent's mirrors already; one placed later into the cpu
 * dir (a relaunch) is in the next ContainerList. */
static int mirrors_cached(const struct qosstep *x, const struct cgroup_container *ct,
			  const char *cg)
{
	static const enum cgroup_ctrl dsts[] = { CGROUP_CPUSET, CGROUP_MEMORY };
	const struct qosapply_pids *p = x->o->cache ? qosapply_inputs_pids(x->o->in, ct->id) : NULL;

	if (!p)
		return 0;
	for (int d = 0; d < 2; d++)
		if (mirrored(x->l, dsts[d]) &&
		    (!(ct->ctrls & (1u << dsts[d])) || !pids_cached(x, dsts[d], cg, p->pids, p->n)))
			return 0;
	return 1;
}

/* The container's members (kernel/members.h: its cpu dir and every dir
 * below, leader thread inside): 1, or 0 when there is nothing to mirror:
 * the dir is gone (the container ended meanwhile) or could not be read (a
 * failed item names it; its mirrors are left as they are). */
static int cpu_members(struct qosstep *x, const char *cg, struct members *m)
{
	struct err e = { 0 };
	int r = members_read(x->l, x->s, cg, 0, m, &e);
	struct cgchange_item *it;

	if (r == CGROUP_OK)
		return 1;
	if (r != CGROUP_ABSENT) {
		it = cgchange_add(x->plan, cgchange_chain(x->plan), CGROUP_CPU, cg,
				  PROCS(x->l, CGROUP_CPU), CGCHANGE_TEXT, NULL,
				  "the container's processes, to mirror");
		cgchange_fail(it, e.msg);
	}
	return 0;
}

/* The ids of the container's dirs that are no members (a thread written
 * into its tasks, its process elsewhere): a skipped item naming them, on
 * the chain moving the members into c's mirror. */
static void note_foreign(struct qosstep *x, int chain, enum cgroup_ctrl c, const char *cg,
			 const struct members *m)
{
	struct cgchange_item *it;

	if (!m->nforeign)
		return;
	it = cgchange_add(x->plan, chain, c, cg, PROCS(x->l, c), CGCHANGE_ALWAYS, NULL,
			  "not moved");
	cgchange_preset(it, CGCHANGE_SKIPPED,
			"%zu process%s in the container's cpu dirs %s no member (a thread in "
			"them, or its leader only): not moved",
			m->nforeign, m->nforeign == 1 ? "" : "es", m->nforeign == 1 ? "is" : "are");
	it->foreign = xmalloc(m->nforeign * sizeof(*m->foreign));
	memcpy(it->foreign, m->foreign, m->nforeign * sizeof(*m->foreign));
	it->nforeign = m->nforeign;
}

void qosstep_mirror(struct qosstep *x)
{
	static const enum cgroup_ctrl dsts[] = { CGROUP_CPUSET, CGROUP_MEMORY };
	const char *yarn = x->l->hadoop_yarn;
	cleanup_free char *be = qosstep_parent(yarn);
	struct cpuset_src src = { 0 };
	/* A container mirror takes the hadoop-yarn dir's cpuset, or the
	 * besteffort dir's when the hadoop-yarn dir is made in this pass. */
	const char *src_cg = yarn;

	if (x->l->version != 1 || !cgroup_exists(x->l, x->s, CGROUP_CPU, yarn))
		return;
	for (int d = 0; d < 2; d++) {
		if (!mirrored(x->l, dsts[d]) || cgroup_exists(x->l, x->s, dsts[d], yarn))
			continue;
		if (dsts[d] == CGROUP_CPUSET)
			src_cg = be;
		mirror_dir(x, cgchange_chain(x->plan), dsts[d], yarn,
			   dsts[d] == CGROUP_CPUSET ? cpuset_src_get(x, be, &src) : &src,
			   "the hadoop-yarn dir of the cpu hierarchy");
	}

	for (size_t k = 0; k < x->ncontainers; k++) {
		const struct cgroup_container *ct = &x->containers[k];
		cleanup_free char *cg = cgroup_container_path(x->l, ct->id);
		struct members m = { 0 };
		const pid_t *pids;
		size_t n;
		int in_cpu = !!(ct->ctrls & (1u << CGROUP_CPU));

		/* a left-over the NodeManager has finished with: no new mirror, no
		 * moves (what exists stays until its cpu dir goes) */
		if (in_cpu && json_object_get(x->o->in->stale, ct->id))
			continue;
		if (in_cpu && mirrors_cached(x, ct, cg))
			continue;
		if (in_cpu && !cpu_members(x, cg, &m)) {
			members_release(&m);
			continue;
		}
		pids = m.pids;
		n = m.n;
		for (int d = 0; d < 2; d++) {
			enum cgroup_ctrl c = dsts[d];
			cleanup_free pid_t *there = NULL;
			size_t nthere = 0;
			int chain;

			if (!mirrored(x->l, c))
				continue;
			if (!in_cpu) {
				if ((ct->ctrls & (1u << c)) && may_remove(x, ct->id))
					mirror_remove(x, c, cg);
				continue;
			}
			chain = cgchange_chain(x->plan);
			if (!(ct->ctrls & (1u << c)))
				mirror_dir(x, chain, c, cg,
					   c == CGROUP_CPUSET ? cpuset_src_get(x, src_cg, &src)
							      : &src,
					   "mirror of the container's cpu cgroup");
			else if (n && pids_cached(x, c, cg, pids, n) && !m.nforeign)
				continue;
			else if (n)
				cgroup_read_procs(x->l, x->s, c, cg, &there, &nthere, NULL);
			if (c == CGROUP_CPUSET && (ct->ctrls & (1u << c)) &&
			    some_missing(pids, n, there, nthere)) {
				/* a mirror that exists may be one the kernel refuses tasks in */
				struct cpuset_src own = { 0 };

				cpuset_ready(x, chain, cg, cpuset_src_get(x, src_cg, &src), &own,
					     0);
				if (!own.ok)
					cgchange_fail(
						cgchange_add_knob(x->plan, chain, x->l,
								  CGKNOB_CPUSET_CPUS, cg, NULL,
								  "the mirror's CPUs, before its "
								  "processes"),
						own.e.msg);
				free(own.cpus);
				free(own.mems);
			}
			move_pids(x, chain, c, cg, pids, n, there, nthere);
			note_foreign(x, chain, c, cg, &m);
		}
		members_release(&m);
	}
	free(src.cpus);
	free(src.mems);
}
