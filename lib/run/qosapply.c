// SPDX-License-Identifier: Apache-2.0
/* qosapply - one qos-cgset pass (see qosapply.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "kernel/cputopo.h"
#include "kernel/members.h"
#include "remote/nm.h"
#include "run/qosapply.h"

/* ---- Inputs ------------------------------------------------------------ */

/* Live: the NodeManager lists it (a state) in the starting or running
 * phase (remote/nm.h, the one state table); a state the table lacks counts
 * as running.  No state: a dir the NodeManager does not list, or no
 * NodeManager answer (then the requests are unknown anyway). */
static int is_live(const char *state, size_t *unknown)
{
	enum nm_phase p = nm_state_phase(state);

	*unknown += state && p == NM_PHASE_UNKNOWN;
	return state && p != NM_PHASE_KILLING && p != NM_PHASE_FINISHED;
}

/* obj.key.cpuMilli (or memoryBytes); returns 1 known, 0 null/absent, -1. */
static int get_nested(const json_t *doc, const char *ctx, const char *k1, const char *k2,
		      const char *field, int64_t *out, struct err *e)
{
	json_t *a = NULL, *b = NULL;
	char c1[96], c2[128];
	int r;

	snprintf(c1, sizeof(c1), "%s.%s", ctx, k1);
	if ((r = jsonio_get_obj(doc, ctx, k1, &a, e)) <= 0)
		return r;
	if (k2) {
		snprintf(c2, sizeof(c2), "%s.%s", c1, k2);
		if ((r = jsonio_get_obj(a, c1, k2, &b, e)) <= 0)
			return r;
		return jsonio_get_int(b, c2, field, 0, INT64_MAX, out, e);
	}
	return jsonio_get_int(a, c1, field, 0, INT64_MAX, out, e);
}

static int node_of(const json_t *doc, const char *ctx, const char **node, struct err *e)
{
	json_t *m = NULL;
	int r = jsonio_get_obj(doc, ctx, "metadata", &m, e);

	if (r <= 0)
		return r;
	return jsonio_get_str(m, "metadata", "node", node, e);
}

static int usage_inputs(const json_t *u, struct qosapply_inputs *in, struct err *e)
{
	const char *ctx = "NodeUsage";
	int64_t g = 0, b = 0;
	int known[4];

	if ((known[0] = get_nested(u, ctx, "capacity", NULL, "cpuMilli", &in->usage.capacity_milli,
				   e)) < 0 ||
	    (known[1] = get_nested(u, ctx, "system", NULL, "cpuMilli", &in->usage.system_milli,
				   e)) < 0 ||
	    (known[2] = get_nested(u, ctx, "qos", "guaranteed", "cpuMilli", &g, e)) < 0 ||
	    (known[3] = get_nested(u, ctx, "qos", "burstable", "cpuMilli", &b, e)) < 0 ||
	    get_nested(u, ctx, "capacity", NULL, "memoryBytes", &in->capacity_bytes, e) < 0 ||
	    (!in->node && node_of(u, ctx, &in->node, e) < 0))
		return -1;
	in->usage.nonbe_milli = g + b;
	in->usage_known = known[0] && known[1] && known[2] && known[3];
	if (json_is_null(json_object_get(u, "windowMs")) || !json_object_get(u, "windowMs"))
		in->usage_why = "NodeUsage has no CPU rates yet: windowMs null (the first --state "
				"call, or one too soon after the last)";
	else if (!known[0])
		in->usage_why = "NodeUsage capacity.cpuMilli null";
	else if (!known[1])
		in->usage_why =
			"NodeUsage system.cpuMilli null (the kubepods cgroup's usage unknown)";
	else
		in->usage_why = "NodeUsage qos guaranteed/burstable cpuMilli null (no kubepods or "
				"burstable cgroup in the cpu hierarchy)";
	return 0;
}

/* it.pids into in->pids when given: 0, or -1 with e set. */
static int item_pids(const json_t *it, const char *ctx, const char *id, struct qosapply_inputs *in,
		     struct err *e)
{
	json_t *a = NULL, *v;
	struct qosapply_pids *p;
	size_t i;
	int r = jsonio_get_arr(it, ctx, "pids", &a, e);

	if (r <= 0)
		return r;
	json_array_foreach(a, i, v)
	{
		char ectx[96];

		if (json_is_integer(v) && json_integer_value(v) >= 1 &&
		    json_integer_value(v) <= INT_MAX)
			continue;
		snprintf(ectx, sizeof(ectx), "%s.pids[%zu]", ctx, i);
		return jsonio_bad_value(e, ectx, NULL, "a process id 1..2147483647", v);
	}
	p = &in->pids[in->npids++]; /* sized for every item */
	snprintf(p->id, sizeof(p->id), "%s", id);
	p->n = json_array_size(a);
	p->pids = xcalloc(p->n ? p->n : 1, sizeof(*p->pids));
	json_array_foreach(a, i, v)
	{
		p->pids[i] = (pid_t)json_integer_value(v);
	}
	return 0;
}

static int pids_cmp(const void *a, const void *b)
{
	return strcmp(((const struct qosapply_pids *)a)->id, ((const struct qosapply_pids *)b)->id);
}

static int list_inputs(const json_t *list, struct qosapply_inputs *in, struct err *e)
{
	json_auto_t *seen = json_object();
	json_t *nm = NULL, *items = NULL;
	int reachable = 0;
	size_t i;
	json_t *it;

	if (jsonio_get_obj(list, "ContainerList", "nodeManager", &nm, e) < 0 ||
	    (nm &&
	     jsonio_get_bool(nm, "ContainerList.nodeManager", "reachable", &reachable, e) < 0) ||
	    jsonio_get_arr(list, "ContainerList", "items", &items, e) < 0 ||
	    (!in->node && node_of(list, "ContainerList", &in->node, e) < 0))
		return -1;
	in->requests_known = in->nm_reachable = reachable;
	in->pids = xcalloc(json_array_size(items) + 1, sizeof(*in->pids));
	json_array_foreach(items, i, it)
	{
		char ctx[64], rctx[80];
		const char *state = NULL, *id = NULL;
		struct containerid cid;
		json_t *req = NULL;
		int64_t milli = 0;
		int r, stale = -1;

		snprintf(ctx, sizeof(ctx), "ContainerList.items[%zu]", i);
		if (!json_is_object(it))
			return jsonio_bad_value(e, "ContainerList.items", "", "an object", it);
		if (containerid_get_unique(it, ctx, seen, &id, &cid, e) < 0 ||
		    jsonio_get_str(it, ctx, "state", &state, e) < 0 ||
		    jsonio_get_obj(it, ctx, "requests", &req, e) < 0 ||
		    item_pids(it, ctx, id, in, e) < 0 ||
		    jsonio_get_bool(it, ctx, "stale", &stale, e) < 0)
			return -1;
		if (stale == 1)
			json_object_set_new(in->stale, id, json_true());
		if (state && nm_state_phase(state) != NM_PHASE_FINISHED)
			json_object_set_new(in->held, id, json_true());
		if (!is_live(state, &in->nunknown))
			continue;
		in->nlive++;
		snprintf(rctx, sizeof(rctx), "%s.requests", ctx);
		r = req ? jsonio_get_int(req, rctx, "cpuMilli", 0, INT64_C(1) << 40, &milli, e) : 0;
		if (r < 0)
			return -1;
		if (r == 0)
			in->requests_known = 0;
		in->cpu_milli_sum += milli;
	}
	return 0;
}

static const struct jsonio_filter node_field[] = { { "node" }, { NULL } };
static const struct jsonio_filter reachable_field[] = { { "reachable" }, { NULL } };
static const struct jsonio_filter item_fields[] = {
	{ "id" }, { "state" }, { "requests" }, { "pids" }, { "stale" }, { NULL },
};

/* What usage_inputs, list_inputs and node_of read; a field read there
 * must be added here. */
const struct jsonio_filter qosapply_input_fields[] = {
	{ "kind" },
	{ "apiVersion" },
	{ "metadata", node_field },
	{ "windowMs" },
	{ "capacity" },
	{ "system" },
	{ "qos" },
	{ "nodeManager", reachable_field },
	{ "items", item_fields },
	{ NULL },
};

int qosapply_inputs(const json_t *usage, const json_t *list, struct qosapply_inputs *in,
		    struct err *e)
{
	*in = (struct qosapply_inputs){ .capacity_bytes = -1,
					.stale = json_object(),
					.held = json_object() };
	if (list && list_inputs(list, in, e) < 0)
		return -1;
	if (in->npids)
		qsort(in->pids, in->npids, sizeof(*in->pids), pids_cmp);
	if (usage && usage_inputs(usage, in, e) < 0)
		return -1;
	return 0;
}

void qosapply_inputs_release(struct qosapply_inputs *in)
{
	for (size_t i = 0; i < in->npids; i++)
		free(in->pids[i].pids);
	free(in->pids);
	in->pids = NULL;
	in->npids = 0;
	json_decref(in->stale);
	json_decref(in->held);
	in->stale = in->held = NULL;
}

/* ---- Tree helpers ------------------------------------------------------- */

/* File names of the knob table (kernel/cgknob.h). */
#define CPUS(l) cgknob_file(l, CGKNOB_CPUSET_CPUS, CGROUP_CPUSET)
#define MEMS(l) cgknob_file(l, CGKNOB_CPUSET_MEMS, CGROUP_CPUSET)
#define PROCS(l, c) cgknob_file(l, CGKNOB_PROCS, c)

struct ctx {
	const struct qosapply_opts *o;
	const struct cgroup_layout *l;
	const struct sysroot *s;
	struct cgchange_plan *plan;
	struct cgroup_container *containers;
	size_t ncontainers;
};

static char *parent_of(const char *cg)
{
	const char *slash = strrchr(cg, '/');

	if (!slash || slash == cg)
		return xstrdup("/");
	return strndup(cg, (size_t)(slash - cg));
}

static char *child_of(const char *cg, const char *name)
{
	return xasprintf("%s/%s", strcmp(cg, "/") == 0 ? "" : cg, name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the subdirs of cg in c, sorted; *n of them (new array of new
 * strings; NULL when none or unreadable). */
static char **subdirs(const struct ctx *x, enum cgroup_ctrl c, const char *cg, size_t *n)
{
	cleanup_free char *rel = cgroup_path(x->l, c, cg, NULL);
	cleanup_closedir DIR *d = NULL;
	struct err e = { 0 };
	struct dirent *de;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (!rel || !(d = sysroot_opendir(x->s, rel, &e)))
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR) {
			cleanup_free char *sub = NULL;

			if (de->d_type != DT_UNKNOWN)
				continue;
			sub = xasprintf("%s/%s", rel, de->d_name);
			if (!sysroot_is_dir(x->s, sub))
				continue;
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[(*n)++] = xstrdup(de->d_name);
	}
	if (*n)
		qsort(names, *n, sizeof(*names), str_cmp);
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int has_pid(const pid_t *pids, size_t n, pid_t p)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == p)
			return 1;
	return 0;
}

/* cgroup_read() through o->cache: a status, the text in *out (new) when
 * CGROUP_OK, *age_ms the cache's age of it or -1 when read now. */
static int read_cached(const struct ctx *x, enum cgroup_ctrl c, const char *cg, const char *file,
		       char **out, int64_t *age_ms)
{
	const char *v = NULL;
	int r;

	*out = NULL;
	if (cgcache_get(x->o->cache, c, cg, file, &v, age_ms)) {
		if (!v)
			return CGROUP_UNSUPPORTED;
		*out = xstrdup(v);
		return CGROUP_OK;
	}
	*age_ms = -1;
	r = cgroup_read(x->l, x->s, c, cg, file, out, NULL);
	if (r == CGROUP_OK || r == CGROUP_UNSUPPORTED)
		cgcache_put(x->o->cache, c, cg, file, *out);
	return r;
}

/* An integer knob of the cpu dir cg through the cache: 1 with *v, else 0. */
static int read_cached_i64(const struct ctx *x, const char *cg, enum cgknob k, int64_t *v)
{
	cleanup_free char *text = NULL;
	int64_t age;

	return read_cached(x, CGROUP_CPU, cg, cgknob_file(x->l, k, CGROUP_CPU), &text, &age) ==
		       CGROUP_OK &&
	       num_parse_i64(text, INT64_MIN, INT64_MAX, v) == 0;
}

/* Every container dir found, entered in the cache for this pass. */
static void enter_containers(const struct ctx *x)
{
	for (size_t k = 0; x->o->cache && k < x->ncontainers; k++)
		cgcache_enter(x->o->cache, &x->containers[k]);
}

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
static void cpuset_ready(struct ctx *x, int chain, const char *cg, const struct cpuset_src *up,
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
		parent = parent_of(cg);
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
static const struct cpuset_src *cpuset_src_get(struct ctx *x, const char *cg,
					       struct cpuset_src *src)
{
	if (!src->cpus && !src->e.kind)
		cpuset_ready(x, cgchange_chain(x->plan), cg, NULL, src, 0);
	return src;
}

static void mirror_dir(struct ctx *x, int chain, enum cgroup_ctrl c, const char *cg,
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
static int pids_cached(const struct ctx *x, enum cgroup_ctrl c, const char *cg, const pid_t *pids,
		       size_t n)
{
	cleanup_free pid_t *there = NULL;
	const char *v = NULL;
	size_t nthere = 0;
	int64_t age;

	if (!cgcache_get(x->o->cache, c, cg, PROCS(x->l, c), &v, &age) || !v ||
	    cgroup_parse_pids(v, &there, &nthere, NULL) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!has_pid(there, nthere, pids[i]))
			return 0;
	return 1;
}

/* The items moving pids not in there into c's dir cg.  When none is
 * missing, the pids go into the cache: a pid of the cpu dir later missing
 * from them makes the next pass read the mirror's cgroup.procs again. */
static void move_pids(struct ctx *x, int chain, enum cgroup_ctrl c, const char *cg,
		      const pid_t *pids, size_t n, const pid_t *there, size_t nthere)
{
	size_t moves = 0;

	for (size_t i = 0; i < n; i++) {
		char v[24];

		if (has_pid(there, nthere, pids[i]))
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
		if (!has_pid(there, nthere, pids[i]))
			return 1;
	return 0;
}

static void mirror_remove(struct ctx *x, enum cgroup_ctrl c, const char *cg)
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

/* The pids ContainerList gave for id, or NULL. */
static const struct qosapply_pids *listed_pids(const struct ctx *x, const char *id)
{
	struct qosapply_pids key;

	if (!x->o->in->npids)
		return NULL;
	snprintf(key.id, sizeof(key.id), "%s", id);
	return bsearch(&key, x->o->in->pids, x->o->in->npids, sizeof(key), pids_cmp);
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
static int may_remove(const struct ctx *x, const char *id)
{
	return x->o->in->nm_reachable && !json_object_get(x->o->in->held, id);
}

/* 1 when ContainerList gave the container's pids and the cache vouches
 * that every mirror holds them all: nothing to read.  The pids are only a
 * hint: anything missing makes the pass read the cpu dir's own
 * cgroup.procs, and only pids read there are ever moved.  A process forked
 * later is in its parent's mirrors already; one placed later into the cpu
 * dir (a relaunch) is in the next ContainerList. */
static int mirrors_cached(const struct ctx *x, const struct cgroup_container *ct, const char *cg)
{
	static const enum cgroup_ctrl dsts[] = { CGROUP_CPUSET, CGROUP_MEMORY };
	const struct qosapply_pids *p = x->o->cache ? listed_pids(x, ct->id) : NULL;

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
static int cpu_members(struct ctx *x, const char *cg, struct members *m)
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
static void note_foreign(struct ctx *x, int chain, enum cgroup_ctrl c, const char *cg,
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

static void plan_mirror(struct ctx *x)
{
	static const enum cgroup_ctrl dsts[] = { CGROUP_CPUSET, CGROUP_MEMORY };
	const char *yarn = x->l->hadoop_yarn;
	cleanup_free char *be = parent_of(yarn);
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

/* ---- Step 1: cpu.idle and cpu.shares / cpu.weight ---------------------- */

static void plan_shares(struct ctx *x)
{
	const struct policy *p = x->o->policy;
	const struct qosapply_inputs *in = x->o->in;
	const char *yarn = x->l->hadoop_yarn;
	int chain = cgchange_chain(x->plan);
	int idle = p->cpu_qos_enable && p->sched_idle;
	int weight = cgknob_conv(x->l, CGKNOB_CPU_WEIGHT) == CGKNOB_WEIGHT;
	int64_t shares = qos_shares(in->cpu_milli_sum), v = shares;
	char val[24], vcores[32];
	struct cgchange_item *it;

	/* Written back to 0 too: the kernel refuses shares on an idle group. */
	cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPU_IDLE, yarn, idle ? "1" : "0",
			  idle ? "beClass.cpuQOS.schedIdle"
			       : "schedIdle off: shares need a non-idle group");
	if (weight)
		v = qos_weight(shares, x->o->conv);
	snprintf(val, sizeof(val), "%lld", (long long)v);
	if (in->cpu_milli_sum % 1000)
		snprintf(vcores, sizeof(vcores), "%lld.%03lld",
			 (long long)(in->cpu_milli_sum / 1000),
			 (long long)(in->cpu_milli_sum % 1000));
	else
		snprintf(vcores, sizeof(vcores), "%lld", (long long)(in->cpu_milli_sum / 1000));
	/* Unknown requests: no value is wanted, so none is shown. */
	if (!in->requests_known)
		val[0] = '\0';
	if (weight)
		it = cgchange_add_knob(
			x->plan, chain, x->l, CGKNOB_CPU_WEIGHT, yarn, *val ? val : NULL,
			"sum of %s vCores x 1024 = %lld shares (%zu container%s), %s "
			"weight conversion",
			vcores, (long long)shares, in->nlive, in->nlive == 1 ? "" : "s",
			qos_weight_conv_name(x->o->conv));
	else
		it = cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CPU_WEIGHT, yarn,
				       *val ? val : NULL,
				       "sum of %s vCores x 1024 (%zu container%s)", vcores,
				       in->nlive, in->nlive == 1 ? "" : "s");
	if (idle)
		cgchange_preset(it, CGCHANGE_SKIPPED,
				"idle: the kernel refuses shares on an idle "
				"group");
	else if (!in->requests_known)
		cgchange_preset(it, CGCHANGE_SKIPPED,
				"container requests unknown (NodeManager "
				"unreachable)");
	else if (in->nlive == 0) {
		/* the minimum (2) would start the next container at the bottom */
		free(it->value);
		it->value = NULL;
		cgchange_preset(it, CGCHANGE_UNCHANGED,
				"no live container: left as it is for the next one");
	} else if (in->nunknown)
		cgchange_preset(it, CGCHANGE_PENDING,
				"%s; %zu in a state kilo does not know, "
				"counted as running",
				it->reason, in->nunknown);
}

/* ---- Step 2: CPU suppress ---------------------------------------------- */

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

static void subtree_add(struct subtree *t, const char *cg, int parent, const struct ctx *x)
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
		read_cached(x, CGROUP_CPUSET, cg, CPUS(x->l), &text, &t->age[t->n]);
	}
	d->old = subtree_set(t, text ? text : "");
	t->cgs[t->n++] = xstrdup(cg);
}

/* cg and its subdirs down to depth levels, in lexical pre-order. */
static void subtree_walk(struct subtree *t, const struct ctx *x, const char *cg, int parent,
			 int depth)
{
	int me = (int)t->n;
	size_t n = 0;
	char **names;

	subtree_add(t, cg, parent, x);
	if (depth == 0)
		return;
	names = subdirs(x, CGROUP_CPUSET, cg, &n);
	for (size_t i = 0; i < n; i++) {
		cleanup_free char *sub = child_of(cg, names[i]);

		subtree_walk(t, x, sub, me, depth - 1);
	}
	free_names(names, n);
}

static void subtree_release(struct subtree *t)
{
	free_names(t->cgs, t->n);
	free_names(t->texts, t->nsets);
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
static int choose_cpus(const struct ctx *x, const struct cpuset *cand, int cur, int wantn,
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

static void plan_cpuset(struct ctx *x, const char *target, int64_t allowed, int restore,
			const char *why)
{
	const struct policy *p = x->o->policy;
	cleanup_free char *parent = parent_of(target);
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

static void plan_quota(struct ctx *x, const char *target, int64_t allowed, int unlimited,
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
		char **names = subdirs(x, CGROUP_CPU, target, &n);
		struct qos_cfs *ch = xcalloc(n ? n : 1, sizeof(*ch));

		for (size_t i = 0; i < n; i++) {
			cleanup_free char *sub = child_of(target, names[i]);

			/* The period matters only for a limited child (most are not). */
			ch[i].quota_us = -1;
			if (read_cached_i64(x, sub, CGKNOB_CFS_QUOTA, &ch[i].quota_us) &&
			    ch[i].quota_us >= 0)
				read_cached_i64(x, sub, CGKNOB_CFS_PERIOD, &ch[i].period_us);
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
		free_names(names, n);
	}
	cgchange_add_knob(x->plan, chain, x->l, CGKNOB_CFS_QUOTA, target,
			  cgknob_format(x->l, CGKNOB_CFS_QUOTA, q, period, val, sizeof(val)), "%s",
			  detail);
}

static void plan_suppress(struct ctx *x)
{
	const struct policy *p = x->o->policy;
	const struct qosapply_inputs *in = x->o->in;
	const char *target = x->o->scope_besteffort ? x->l->besteffort : x->l->hadoop_yarn;
	int cfs = p->cpu_suppress_policy == POLICY_SUPPRESS_CFSQUOTA;
	int64_t allowed = 0;

	if (!p->threshold_enable) {
		plan_cpuset(x, target, 0, 1, "resourceUsedThresholdWithBE disabled: restore");
		plan_quota(x, target, 0, 1, "resourceUsedThresholdWithBE disabled: unlimited");
		return;
	}
	if (!in->usage_known) {
		struct cgchange_item *it = cgchange_add_knob(
			x->plan, cgchange_chain(x->plan), x->l,
			cfs ? CGKNOB_CFS_QUOTA : CGKNOB_CPUSET_CPUS, target, NULL, "CPU suppress");

		cgchange_preset(it, CGCHANGE_SKIPPED, "non-BE CPU usage not known: %s",
				in->usage_why ? in->usage_why : "no NodeUsage");
		return;
	}
	allowed = qos_suppress_milli(&in->usage, p->cpu_suppress_threshold_percent,
				     p->cpu_suppress_min_percent);
	if (cfs) {
		plan_cpuset(x, target, allowed, 1, "cfsQuota policy: cpuset restored");
		plan_quota(x, target, allowed, 0, "cfsQuota policy");
	} else {
		plan_cpuset(x, target, allowed, 0, "cpuset policy");
		plan_quota(x, target, allowed, 1, "cpuset policy: quota unlimited");
	}
}

/* ---- Steps 3 and 4: group identity, memory QoS ------------------------- */

static void add_int(struct ctx *x, enum cgknob k, const char *cg, int64_t v, const char *why)
{
	char val[24];

	cgchange_add_knob(x->plan, cgchange_chain(x->plan), x->l, k, cg,
			  cgknob_format(x->l, k, v, -1, val, sizeof(val)), "%s", why);
}

static void plan_group_identity(struct ctx *x)
{
	const struct policy *p = x->o->policy;

	add_int(x, CGKNOB_BVT_WARP_NS, x->l->hadoop_yarn, p->cpu_qos_enable ? p->group_identity : 0,
		p->cpu_qos_enable ? "beClass.cpuQOS.groupIdentity" : "beClass.cpuQOS disabled");
}

static void plan_memory_cap(struct ctx *x)
{
	const struct policy *p = x->o->policy;
	const char *yarn = x->l->hadoop_yarn;
	int64_t usage = -1, current = -1, limit = 0, aux;
	char val[24];
	struct cgchange_item *it;
	int ok;

	if (p->hadoop_yarn_memory_limit_percent < 0)
		return;
	cgroup_read_memory_current(x->l, x->s, yarn, &usage, NULL);
	if (cgknob_read(x->l, x->s, yarn, CGKNOB_MEMORY_MAX, &current, &aux, NULL) != CGROUP_OK)
		current = -1;
	ok = qos_memory_cap(x->o->in->capacity_bytes, p->hadoop_yarn_memory_limit_percent, current,
			    usage, p->memory_limit_margin_bytes, x->o->page_size, &limit);
	it = cgchange_add_knob(x->plan, cgchange_chain(x->plan), x->l, CGKNOB_MEMORY_MAX, yarn,
			       cgknob_format(x->l, CGKNOB_MEMORY_MAX, limit, -1, val, sizeof(val)),
			       "kilo.hadoopYarnMemoryLimitPercent %d of %lld bytes",
			       p->hadoop_yarn_memory_limit_percent,
			       (long long)x->o->in->capacity_bytes);
	if (x->o->in->capacity_bytes < 0)
		cgchange_preset(it, CGCHANGE_DEFERRED, "memory capacity unknown (NodeUsage)");
	else if (!ok)
		cgchange_preset(it, CGCHANGE_DEFERRED,
				"limit %lld is below usage %lld + margin %lld bytes",
				(long long)limit, (long long)usage,
				(long long)p->memory_limit_margin_bytes);
}

static void plan_memory(struct ctx *x)
{
	const char *yarn = x->l->hadoop_yarn;
	cleanup_free char *oom =
		cgroup_path(x->l, CGROUP_MEMORY, yarn,
			    cgknob_file(x->l, CGKNOB_MEMORY_OOM_GROUP, CGROUP_MEMORY));
	struct qos_memory m;

	if (!x->l->mount[CGROUP_MEMORY])
		return;
	qos_memory_values(x->o->policy, &m);
	add_int(x, CGKNOB_MEMORY_WMARK_RATIO, yarn, m.wmark_ratio, "beClass.memoryQOS.wmarkRatio");
	add_int(x, CGKNOB_MEMORY_WMARK_SCALE_FACTOR, yarn, m.wmark_scale_factor,
		"beClass.memoryQOS.wmarkScalePermill");
	add_int(x, CGKNOB_MEMORY_WMARK_MIN_ADJ, yarn, m.wmark_min_adj,
		"beClass.memoryQOS.wmarkMinAdj");
	add_int(x, CGKNOB_MEMORY_PRIORITY, yarn, m.priority, "beClass.memoryQOS.priority");
	add_int(x, CGKNOB_MEMORY_USE_PRIORITY_OOM, yarn, m.use_priority_oom,
		"beClass.memoryQOS.priorityEnable");
	add_int(x, CGKNOB_MEMORY_OOM_GROUP, yarn, m.oom_group_hadoop_yarn,
		"one OOM must not kill every YARN container");
	/* Checked once on the parent, as koordlet does, instead of one
	 * "unsupported" per container on kernels without the file. */
	if (oom && sysroot_exists(x->s, oom)) {
		for (size_t k = 0; k < x->ncontainers; k++) {
			cleanup_free char *cg = cgroup_container_path(x->l, x->containers[k].id);

			if (!(x->containers[k].ctrls & (1u << CGROUP_CPU)))
				continue;
			add_int(x, CGKNOB_MEMORY_OOM_GROUP, cg, m.oom_group_container,
				"one task's OOM ends the whole container");
		}
	}
	plan_memory_cap(x);
}

void qosapply_run(const struct qosapply_opts *o, struct cgchange_plan *plan)
{
	struct ctx x = { .o = o, .l = o->layout, .s = o->sysroot, .plan = plan };
	struct err e = { 0 };
	size_t first;

	if (cgroup_list_containers(x.l, x.s, &x.containers, &x.ncontainers, &e) < 0) {
		struct cgchange_item *it = cgchange_add(plan, cgchange_chain(plan), CGROUP_CPU,
							x.l->hadoop_yarn, NULL, CGCHANGE_TEXT, NULL,
							"list the containers");

		cgchange_fail(it, e.msg);
	}
	enter_containers(&x);
	if (o->do_static)
		plan_mirror(&x);
	cgchange_apply(plan, 0, x.l, x.s, o->dry_run, o->cache);
	first = plan->n;
	if (o->do_static)
		plan_shares(&x);
	if (o->do_suppress)
		plan_suppress(&x);
	if (o->do_static) {
		plan_group_identity(&x);
		plan_memory(&x);
	}
	cgchange_apply(plan, first, x.l, x.s, o->dry_run, o->cache);
	free(x.containers);
}
