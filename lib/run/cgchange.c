// SPDX-License-Identifier: Apache-2.0
/* cgchange - plan, executor and report of cgroup changes (see cgchange.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "kernel/cgroup.h"
#include "kernel/members.h"
#include "run/cgchange.h"

static const char *const result_names[CGCHANGE_NRESULTS] = {
	[CGCHANGE_PENDING] = "pending",     [CGCHANGE_WRITTEN] = "written",
	[CGCHANGE_UNCHANGED] = "unchanged", [CGCHANGE_UNSUPPORTED] = "unsupported",
	[CGCHANGE_FAILED] = "failed",       [CGCHANGE_SKIPPED] = "skipped",
	[CGCHANGE_PLANNED] = "planned",     [CGCHANGE_DEFERRED] = "deferred",
};

const char *cgchange_result_name(enum cgchange_result r)
{
	return r < CGCHANGE_NRESULTS ? result_names[r] : "unknown";
}

int cgchange_chain(struct cgchange_plan *plan)
{
	return plan->nchains++;
}

__attribute__((format(printf, 1, 0))) static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		return xstrdup("");
	return s;
}

struct cgchange_item *cgchange_add(struct cgchange_plan *plan, int chain, enum cgroup_ctrl ctrl,
				   const char *cg, const char *file, enum cgchange_cmp cmp,
				   const char *value, const char *fmt, ...)
{
	struct cgchange_item *it;
	va_list ap;

	if (plan->n == plan->cap) {
		plan->cap = plan->cap ? plan->cap * 2 : 64;
		plan->items = xrealloc(plan->items, plan->cap * sizeof(*plan->items));
	}
	it = &plan->items[plan->n++];
	*it = (struct cgchange_item){
		.ctrl = ctrl,
		.cg = xstrdup(cg),
		.file = file ? xstrdup(file) : NULL,
		.cmp = cmp,
		.value = value ? xstrdup(value) : NULL,
		.chain = chain,
	};
	va_start(ap, fmt);
	it->reason = vformat(fmt, ap);
	va_end(ap);
	return it;
}

static enum cgchange_cmp cmp_of(enum cgknob_kind kind)
{
	switch (kind) {
	case CGKNOB_INT:
	case CGKNOB_INT_MAX:
		return CGCHANGE_INT;
	case CGKNOB_CPUMAX:
		return CGCHANGE_CPUMAX;
	case CGKNOB_LIST:
		return CGCHANGE_CPUSET;
	case CGKNOB_IDS:
		return CGCHANGE_ALWAYS;
	default:
		return CGCHANGE_TEXT;
	}
}

struct cgchange_item *cgchange_add_knob(struct cgchange_plan *plan, int chain,
					const struct cgroup_layout *l, enum cgknob k,
					const char *cg, const char *value, const char *fmt, ...)
{
	const struct cgknob_def *d = cgknob_def(k);
	const struct cgknob_file *f = cgknob_file_of(l, k, d->ctrl);
	struct cgchange_item *it = cgchange_add(plan, chain, d->ctrl, cg,
						f->name ? f->name : d->term, cmp_of(f->kind), value,
						"%s", "");
	va_list ap;

	free(it->reason);
	va_start(ap, fmt);
	it->reason = vformat(fmt, ap);
	va_end(ap);
	if (!f->name)
		cgchange_preset(it, CGCHANGE_UNSUPPORTED, "%s (cgroup v%d has no %s)", it->reason,
				cgknob_version(l, d->ctrl), d->term);
	return it;
}

void cgchange_fail(struct cgchange_item *it, const char *error)
{
	it->result = CGCHANGE_FAILED;
	free(it->error);
	it->error = xstrdup(error);
}

void cgchange_preset(struct cgchange_item *it, enum cgchange_result r, const char *fmt, ...)
{
	va_list ap;
	char *reason;

	it->result = r;
	if (!fmt)
		return;
	/* The arguments may include the old reason: format before freeing it. */
	va_start(ap, fmt);
	reason = vformat(fmt, ap);
	va_end(ap);
	free(it->reason);
	it->reason = reason;
}

int cgchange_equal(enum cgchange_cmp cmp, const char *current, const char *wanted)
{
	int64_t a, b, pa, pb;
	struct cpuset x, y;

	switch (cmp) {
	case CGCHANGE_INT:
		if (cgroup_parse_i64(current, &a) == 0 && cgroup_parse_i64(wanted, &b) == 0)
			return a == b;
		return strcmp(current, wanted) == 0 && strcmp(current, "max") == 0;
	case CGCHANGE_CPUSET:
		return cpuset_parse(current, &x, NULL) == 0 &&
		       cpuset_parse(wanted, &y, NULL) == 0 && cpuset_equal(&x, &y);
	case CGCHANGE_CPUMAX:
		return cgroup_parse_cpu_max_value(current, &a, &pa) == 0 &&
		       cgroup_parse_cpu_max_value(wanted, &b, &pb) == 0 && a == b &&
		       (pb < 0 || pa == pb);
	case CGCHANGE_TEXT:
		return strcmp(current, wanted) == 0;
	default:
		return 0;
	}
}

/* In a dry run: the value planned earlier for the same file (or "" for a
 * dir whose mkdir was planned), else NULL. */
static const char *planned_value(const struct cgchange_plan *plan, size_t upto,
				 const struct cgchange_item *it, int *dir_planned)
{
	*dir_planned = 0;
	for (size_t i = upto; i-- > 0;) {
		const struct cgchange_item *p = &plan->items[i];

		if (p->result != CGCHANGE_PLANNED || p->ctrl != it->ctrl || strcmp(p->cg, it->cg))
			continue;
		if (p->cmp == CGCHANGE_MKDIR) {
			*dir_planned = 1;
			return NULL;
		}
		if (p->file && strcmp(p->file, it->file) == 0 && p->cmp != CGCHANGE_ALWAYS)
			return p->value;
	}
	return NULL;
}

static void fail(struct cgchange_item *it, const struct err *e)
{
	it->result = CGCHANGE_FAILED;
	it->error = xstrdup(e->msg);
}

/* The cgroup dir is not there (YARN has not made it yet, or the container
 * ended during the pass): nothing to write, not a failure. */
static void absent(struct cgchange_item *it)
{
	cgchange_preset(it, CGCHANGE_SKIPPED, "%s (no such cgroup)", it->reason);
}

void cgchange_note_cached(struct cgchange_item *it, int64_t age_ms)
{
	it->cached = 1;
	cgchange_preset(it, it->result, "%s (cached: read %lld s ago)", it->reason,
			(long long)(age_ms / 1000));
}

size_t cgchange_count_cached(const struct cgchange_plan *plan)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n; i++)
		n += plan->items[i].cached;
	return n;
}

static void apply_dir(struct cgchange_item *it, const struct cgroup_layout *l,
		      const struct sysroot *s, int dry_run, struct cgcache *cache)
{
	int is_mkdir = it->cmp == CGCHANGE_MKDIR;
	int exists = cgroup_exists(l, s, it->ctrl, it->cg);
	struct err e = { 0 };
	int r;

	if (exists)
		it->old = xstrdup("directory");
	if (exists == is_mkdir) {
		it->result = CGCHANGE_UNCHANGED;
		return;
	}
	if (dry_run) {
		it->result = CGCHANGE_PLANNED;
		return;
	}
	cgcache_withdraw(cache);
	cgcache_forget(cache, it->ctrl, it->cg, NULL);
	r = is_mkdir ? cgroup_mkdir(l, s, it->ctrl, it->cg, NULL, &e)
		     : cgroup_rmdir(l, s, it->ctrl, it->cg, &e);
	if (r == CGROUP_OK)
		it->result = CGCHANGE_WRITTEN;
	else if (r == CGROUP_ABSENT)
		absent(it);
	else
		fail(it, &e);
}

/* The value the file holds, from the cache or read into it->old: 1 to
 * go on comparing, 0 when the item is decided (unsupported, absent,
 * failed). */
static int current_value(struct cgchange_item *it, const struct cgroup_layout *l,
			 const struct sysroot *s, struct cgcache *cache)
{
	const char *cached = NULL;
	struct err e = { 0 };
	int64_t age = 0;
	int r;

	if (cgcache_get(cache, it->ctrl, it->cg, it->file, &cached, &age) &&
	    (!cached || cgchange_equal(it->cmp, cached, it->value))) {
		it->result = cached ? CGCHANGE_UNCHANGED : CGCHANGE_UNSUPPORTED;
		it->old = cached ? xstrdup(cached) : NULL;
		cgchange_note_cached(it, age);
		return 0;
	}
	r = cgroup_read(l, s, it->ctrl, it->cg, it->file, &it->old, &e);
	if (r == CGROUP_UNSUPPORTED) {
		cgcache_put(cache, it->ctrl, it->cg, it->file, NULL);
		it->result = CGCHANGE_UNSUPPORTED;
		return 0;
	}
	if (r == CGROUP_ABSENT) {
		absent(it);
		return 0;
	}
	if (r != CGROUP_OK) {
		fail(it, &e);
		return 0;
	}
	cgcache_put(cache, it->ctrl, it->cg, it->file, it->old);
	return 1;
}

static void apply_file(struct cgchange_plan *plan, size_t idx, const struct cgroup_layout *l,
		       const struct sysroot *s, int dry_run, struct cgcache *cache)
{
	struct cgchange_item *it = &plan->items[idx];
	struct err e = { 0 };
	int64_t pid;
	int r;

	if (it->cmp != CGCHANGE_ALWAYS) {
		const char *prev = NULL;
		int dir_planned = 0;

		if (dry_run)
			prev = planned_value(plan, idx, it, &dir_planned);
		if (prev)
			it->old = xstrdup(prev);
		else if (!dir_planned && !current_value(it, l, s, cache))
			return;
		if (it->old && cgchange_equal(it->cmp, it->old, it->value)) {
			it->result = CGCHANGE_UNCHANGED;
			return;
		}
	}
	if (dry_run) {
		it->result = CGCHANGE_PLANNED;
		return;
	}
	if (it->member_of && (num_parse_i64(it->value, 1, INT32_MAX, &pid) < 0 ||
			      members_pid_is_member(l, s, (pid_t)pid, it->member_of) != 1)) {
		/* exited since the plan read it, the pid is another's now, or a
		 * thread of it is elsewhere now (mixed): the same rule as the plan */
		cgchange_preset(it, CGCHANGE_SKIPPED,
				"%s (no longer a member: exited, the pid reused, or a thread "
				"elsewhere)",
				it->reason);
		return;
	}
	cgcache_withdraw(cache);
	cgcache_forget(cache, it->ctrl, it->cg, it->file);
	r = cgroup_write(l, s, it->ctrl, it->cg, it->file, it->value, &e);
	if (r == CGROUP_OK) {
		it->result = CGCHANGE_WRITTEN;
		if (it->cmp != CGCHANGE_ALWAYS)
			cgcache_put(cache, it->ctrl, it->cg, it->file, it->value);
	} else if (r == CGROUP_UNSUPPORTED) {
		it->result = CGCHANGE_UNSUPPORTED;
	} else if (r == CGROUP_ABSENT) {
		absent(it);
	} else if (it->unsupported_errno && e.errnum == it->unsupported_errno) {
		it->result = CGCHANGE_UNSUPPORTED;
		it->error = xstrdup(e.msg);
	} else if (e.errnum == ESRCH && strcmp(it->file, "cgroup.procs") == 0) {
		cgchange_preset(it, CGCHANGE_SKIPPED, "%s (the process exited)", it->reason);
	} else {
		fail(it, &e);
	}
}

void cgchange_apply(struct cgchange_plan *plan, size_t first, const struct cgroup_layout *l,
		    const struct sysroot *s, int dry_run, struct cgcache *cache)
{
	char *broken = xcalloc(plan->nchains ? (size_t)plan->nchains : 1, 1);

	for (size_t i = first; i < plan->n; i++) {
		struct cgchange_item *it = &plan->items[i];

		if (it->result != CGCHANGE_PENDING) {
			if (it->result == CGCHANGE_FAILED)
				broken[it->chain] = 1;
			continue;
		}
		if (broken[it->chain]) {
			it->result = CGCHANGE_SKIPPED;
			continue;
		}
		if (it->cmp == CGCHANGE_MKDIR || it->cmp == CGCHANGE_RMDIR)
			apply_dir(it, l, s, dry_run, cache);
		else
			apply_file(plan, i, l, s, dry_run, cache);
		if (plan->items[i].result == CGCHANGE_FAILED)
			broken[it->chain] = 1;
	}
	free(broken);
}

size_t cgchange_count(const struct cgchange_plan *plan, enum cgchange_result r)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n; i++)
		n += plan->items[i].result == r;
	return n;
}

void cgchange_item_view(const struct cgchange_item *it, struct cgroupchanges_item *out)
{
	*out = (struct cgroupchanges_item){
		.path = it->cg,
		.controller = cgroup_ctrl_name(it->ctrl),
		.file = it->file,
		.old = it->old,
		.new = it->value,
		/* the report's results are the executed ones, in the same order */
		.result = it->result == CGCHANGE_PENDING
				  ? CGROUPCHANGES_SKIPPED
				  : (enum cgroupchanges_result)(it->result - CGCHANGE_WRITTEN),
		.reason = it->reason,
		.error = it->error,
		.foreign = it->foreign,
		.nforeign = it->nforeign,
	};
}

void cgchange_summary(const struct cgchange_plan *plan, int64_t summary[CGROUPCHANGES_NRESULTS])
{
	memset(summary, 0, CGROUPCHANGES_NRESULTS * sizeof(*summary));
	for (size_t i = 0; i < plan->n; i++)
		if (plan->items[i].result >= CGCHANGE_WRITTEN)
			summary[plan->items[i].result - CGCHANGE_WRITTEN]++;
}

void cgchange_release(struct cgchange_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct cgchange_item *it = &plan->items[i];

		free(it->cg);
		free(it->file);
		free(it->value);
		free(it->old);
		free(it->reason);
		free(it->error);
		free(it->foreign);
		free(it->member_of);
	}
	free(plan->items);
	*plan = (struct cgchange_plan){ 0 };
}
