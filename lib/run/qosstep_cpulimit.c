// SPDX-License-Identifier: Apache-2.0
/* qosstep_cpulimit - the cpuset and the CFS quota CPU suppress writes
 * (see qosstep.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"
#include "kernel/cputopo.h"
#include "run/qosstep.h"

/* ---- cpuset.cpus -------------------------------------------------------- */

struct subtree {
	struct qos_cpuset_dir *dirs;
	char **cgs;
	int64_t *age; /* ms since the cache read dirs[i].old, -1: read now */
	size_t n, cap;
	/* The distinct sets the dirs hold, with the text each was parsed
	 * from: 500 container mirrors holding one set share it. */
	struct cpuset **sets;
	char **texts;
	size_t nsets;
};

/* The set text parses to, shared with the dirs holding the same text. */
static const struct cpuset *subtree_set(struct subtree *t, const char *text)
{
	struct cpuset *set;

	for (size_t i = t->nsets; i-- > 0;)
		if (strcmp(t->texts[i], text) == 0)
			return t->sets[i];
	set = xcalloc(1, sizeof(*set));
	cpuset_parse(text, set, NULL); /* unreadable: empty, as before */
	t->sets = xrealloc(t->sets, (t->nsets + 1) * sizeof(*t->sets));
	t->texts = xrealloc(t->texts, (t->nsets + 1) * sizeof(*t->texts));
	t->sets[t->nsets] = set;
	t->texts[t->nsets++] = xstrdup(text);
	return set;
}

static void subtree_add(struct subtree *t, const char *cg, int parent, const struct qosstep *x)
{
	struct qos_cpuset_dir *d;
	cleanup_free char *text = NULL;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->dirs = xrealloc(t->dirs, t->cap * sizeof(*t->dirs));
		t->cgs = xrealloc(t->cgs, t->cap * sizeof(*t->cgs));
		t->age = xrealloc(t->age, t->cap * sizeof(*t->age));
	}
	d = &t->dirs[t->n];
	d->parent = parent;
	t->age[t->n] = -1;
	/* v2 dirs may take their parent's set (cpuset.cpus.effective). */
	if (cgknob_version(x->l, CGROUP_CPUSET) == 2) {
		struct cpuset set = { 0 };

		if (cgroup_read_cpuset(x->l, x->s, cg, &set, NULL) == CGROUP_OK)
			text = cpuset_format(&set);
	} else {
		qosstep_read_cached(x, CGROUP_CPUSET, cg, CPUS(x->l), &text, &t->age[t->n]);
	}
	d->old = subtree_set(t, text ? text : "");
	t->cgs[t->n++] = xstrdup(cg);
}

/* cg and its subdirs down to depth levels, in lexical pre-order. */
static void subtree_walk(struct subtree *t, const struct qosstep *x, const char *cg, int parent,
			 int depth)
{
	int me = (int)t->n;
	size_t n = 0;
	char **names;

	subtree_add(t, cg, parent, x);
	if (depth == 0)
		return;
	names = qosstep_subdirs(x, CGROUP_CPUSET, cg, &n);
	for (size_t i = 0; i < n; i++) {
		cleanup_free char *sub = qosstep_child(cg, names[i]);

		subtree_walk(t, x, sub, me, depth - 1);
	}
	qosstep_free_names(names, n);
}

static void subtree_release(struct subtree *t)
{
	qosstep_free_names(t->cgs, t->n);
	qosstep_free_names(t->texts, t->nsets);
	for (size_t i = 0; i < t->nsets; i++)
		free(t->sets[i]);
	free(t->sets);
	free(t->dirs);
	free(t->age);
}

static int reserved_cpus(const struct policy *p, struct cpuset *set)
{
	return cpuset_parse(p->reserved_cpus, set, NULL);
}

/* The CPUs suppress keeps this round: qos_cpuset_step() from cur to
 * wantn CPUs, then qos_cpuset_choose() over the sysfs topology (two files a
 * CPU), memoized in the cache under everything it depends on: the online
 * CPUs, the candidates and the count.  Returns 0 with *want, *count (CPUs
 * in it) and *nlogical (online CPUs), or -1 with e set. */
static int choose_cpus(const struct qosstep *x, const struct cpuset *cand, int cur, int wantn,
		       struct cpuset *want, int *count, int *nlogical, struct err *e)
{
	cleanup_free char *online = NULL, *cands = NULL, *key = NULL, *val = NULL;
	cleanup_free struct cpuset_cpu *topo = NULL;
	struct cpuset on;
	const char *memo = NULL;
	size_t ntopo = 0;

	if (sysroot_read_str(x->s, "sys/devices/system/cpu/online", &online, e) < 0 ||
	    cpuset_parse(online, &on, e) < 0)
		return err_wrap(e, "online CPUs");
	*nlogical = cpuset_count(&on);
	*count = qos_cpuset_step(cur, wantn, *nlogical);
	cands = cpuset_format(cand);
	key = xasprintf("cpus online=%s candidates=%s count=%d", online, cands, *count);
	/* A remembered choice is used only if it could be this one (the state
	 * file may have been edited): else it is made again. */
	if (cgcache_memo_get(x->o->cache, key, &memo) && cpuset_parse(memo, want, NULL) == 0 &&
	    qos_cpuset_choice_valid(want, cand, &on, *count)) {
		*count = cpuset_count(want);
		return 0;
	}
	if (cputopo_read(x->s, &topo, &ntopo, e) < 0)
		return -1;
	*count = qos_cpuset_choose(topo, ntopo, cand, *count, want);
	val = cpuset_format(want);
	cgcache_memo_put(x->o->cache, key, val);
	return 0;
}

void qosstep_cpuset(struct qosstep *x, const char *target, int64_t allowed, int restore,
		    const char *why)
{
	const struct policy *p = x->o->policy;
	cleanup_free char *parent = qosstep_parent(target);
	cleanup_free struct qos_cpuset_write *writes = NULL;
	cleanup_free char *val = NULL;
	struct cpuset cand, resv, want;
	struct subtree t = { 0 };
	struct err e = { 0 };
	size_t nw;
	int chain = cgchange_chain(x->plan), r, count = 0, nlogical = 0;
	char detail[160];

	r = cgroup_read_cpuset(x->l, x->s, parent, &cand, &e);
	if (r == CGROUP_OK && !cgroup_exists(x->l, x->s, CGROUP_CPUSET, target))
		r = CGROUP_ABSENT;
	if (r != CGROUP_OK) {
		struct cgchange_item *it = cgchange_add_knob(
			x->plan, chain, x->l, CGKNOB_CPUSET_CPUS, target, NULL, "%s", why);

		if (r == CGROUP_UNSUPPORTED)
			it->result = CGCHANGE_UNSUPPORTED;
		else if (r == CGROUP_ABSENT)
			cgchange_preset(it, CGCHANGE_SKIPPED, "%s (no such cgroup)", why);
		else
			cgchange_preset(it, CGCHANGE_SKIPPED, "no cpuset of the parent %s: %s",
					parent, e.msg);
		return;
	}
	if (reserved_cpus(p, &resv) == 0)
		for (size_t i = 0; i < sizeof(cand.bits) / sizeof(cand.bits[0]); i++)
			cand.bits[i] &= ~resv.bits[i];
	/* v2 children inherit the parent's effective cpuset: only the target. */
	subtree_walk(&t, x, target, -1, x->l->version == 2 ? 0 : x->o->scope_besteffort ? 2 : 1);
	if (restore) {
		want = cand;
		snprintf(detail, sizeof(detail), "%s: all %d candidate CPUs", why,
			 cpuset_count(&cand));
	} else if (choose_cpus(x, &cand, cpuset_count(t.dirs[0].old), qos_cpuset_want(allowed),
			       &want, &count, &nlogical, &e) < 0) {
		struct cgchange_item *it = cgchange_add_knob(
			x->plan, chain, x->l, CGKNOB_CPUSET_CPUS, target, NULL, "%s", why);

		cgchange_fail(it, e.msg);
		subtree_release(&t);
		return;
	} else {
		snprintf(detail, sizeof(detail),
			 "%s: %lld milli-cores allowed -> %d CPUs, %d this round (from %d; "
			 "growth at most %d a pass)",
			 why, (long long)allowed, qos_cpuset_want(allowed), count,
			 cpuset_count(t.dirs[0].old), (nlogical + 9) / 10);
	}
	val = cpuset_format(&want);
	/* Suppress never goes below 2 CPUs; a restore never writes an empty set. */
	if (cpuset_count(&want) < (restore ? 1 : QOS_MIN_CPUSET_CPUS)) {
		cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPUSET_CPUS, target, val, "%s",
				  detail);
		cgchange_preset(&x->plan->items[x->plan->n - 1], CGCHANGE_SKIPPED,
				"%s: fewer than %d candidate CPUs, not written", detail,
				restore ? 1 : QOS_MIN_CPUSET_CPUS);
		subtree_release(&t);
		return;
	}
	writes = xcalloc(2 * t.n, sizeof(*writes));
	nw = qos_cpuset_order(t.dirs, t.n, &want, writes);
	for (size_t i = 0; i < nw; i++) {
		cleanup_free char *v = cpuset_format(&writes[i].set);
		int is_union = !cpuset_equal(&writes[i].set, &want);

		cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPUSET_CPUS, t.cgs[writes[i].dir], v,
				  "%s%s", detail,
				  is_union ? " (union with the old CPUs first)" : "");
	}
	for (size_t i = 0; i < t.n; i++) {
		int written = 0;
		struct cgchange_item *it;

		for (size_t w = 0; w < nw && !written; w++)
			written = writes[w].dir == i;
		if (written)
			continue;
		it = cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPUSET_CPUS, t.cgs[i], val,
				       "%s", detail);
		it->old = xstrdup(val);
		it->result = CGCHANGE_UNCHANGED;
		if (t.age[i] >= 0)
			cgchange_note_cached(it, t.age[i]);
	}
	subtree_release(&t);
}

/* ---- CFS quota ---------------------------------------------------------- */

void qosstep_quota(struct qosstep *x, const char *target, int64_t allowed, int unlimited,
		   const char *why)
{
	int64_t quota = -1, period = 0, q;
	struct err e = { 0 };
	int chain = cgchange_chain(x->plan), r;
	char val[48], detail[200];
	long raised = -1;
	struct cgchange_item *it;

	r = cgroup_read_cfs(x->l, x->s, target, &quota, &period, &e);
	if (r != CGROUP_OK) {
		it = cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CFS_QUOTA, target, NULL, "%s",
				       why);
		if (r == CGROUP_UNSUPPORTED) {
			it->result = CGCHANGE_UNSUPPORTED;
		} else if (r == CGROUP_ABSENT) {
			cgchange_preset(it, CGCHANGE_SKIPPED, "%s (no such cgroup)", why);
		} else {
			cgchange_fail(it, e.msg);
		}
		return;
	}
	q = unlimited ? -1 : qos_cfs_quota(allowed, period);
	snprintf(detail, sizeof(detail), "%s", why);
	if (!unlimited) {
		int64_t want = q;

		q = qos_cfs_quota_round(quota, want, x->o->in->usage.capacity_milli, period);
		snprintf(
			detail, sizeof(detail),
			"%s: %lld milli-cores allowed x period %lld us / 1000 (at least %d) = %lld%s",
			why, (long long)allowed, (long long)period, QOS_MIN_QUOTA_US,
			(long long)want,
			q == want    ? ""
			: q == quota ? ", within 1% of capacity: kept"
				     : ", rise limited to 10% of capacity");
	}
	/* v1 (tg_cfs_schedulable_down): a parent's quota/period covers its
	 * children's; v2 limits each level on its own */
	if (q >= 0 && cgknob_version(x->l, CGROUP_CPU) == 1) {
		size_t n = 0;
		char **names = qosstep_subdirs(x, CGROUP_CPU, target, &n);
		struct qos_cfs *ch = xcalloc(n ? n : 1, sizeof(*ch));

		for (size_t i = 0; i < n; i++) {
			cleanup_free char *sub = qosstep_child(target, names[i]);

			/* The period matters only for a limited child (most are not). */
			ch[i].quota_us = -1;
			if (qosstep_read_cached_i64(x, sub, CGKNOB_CFS_QUOTA, &ch[i].quota_us) &&
			    ch[i].quota_us >= 0)
				qosstep_read_cached_i64(x, sub, CGKNOB_CFS_PERIOD,
							&ch[i].period_us);
		}
		q = qos_cfs_quota_v1(q, period, ch, n, &raised);
		if (raised >= 0) {
			size_t len = strlen(detail);

			snprintf(detail + len, sizeof(detail) - len,
				 "; raised for child %s (%lld/%lld us): v1 needs parent >= child",
				 names[raised], (long long)ch[raised].quota_us,
				 (long long)ch[raised].period_us);
		}
		free(ch);
		qosstep_free_names(names, n);
	}
	cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CFS_QUOTA, target,
			  cgknob_format(x->l, CGKNOB_CFS_QUOTA, q, period, val, sizeof(val)), "%s",
			  detail);
}
