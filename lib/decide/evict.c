// SPDX-License-Identifier: Apache-2.0
/* evict - memory and CPU eviction decisions (see evict.h) */
#include "decide/evict.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"

/* A container ranked for eviction.  The rank key is num/den (memory: bytes/1;
 * CPU: usage/request), larger first; known says the key is known. */
struct cand {
	size_t index;
	int am, known;
	int64_t num, den, started_ms, release;
	int from_request;
	const char *id;
};

/* What the CPU evaluation found, before the plan is chosen. */
struct cpu_eval {
	int ok; /* window valid and both evaluations done */
	struct killplan_cpu_figures window, current;
	int64_t need, coverage_ms;
	size_t nsamples;
};

static void note(struct evict_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct evict_plan *plan, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	plan->notes = xrealloc(plan->notes, (plan->nnotes + 1) * sizeof(*plan->notes));
	plan->notes[plan->nnotes++] = xstrdup(buf);
}

int64_t evict_be_limit_milli(const struct evict_input *in)
{
	const struct evict_scope_limit *dirs[] = { &in->be, &in->hadoop_yarn };
	int64_t limit = EVICT_UNKNOWN;

	for (size_t i = 0; i < 2; i++) {
		const struct evict_scope_limit *d = dirs[i];
		int64_t v;

		if (d->cpuset_cpus > 0) {
			v = d->cpuset_cpus * 1000;
			limit = limit < 0 || v < limit ? v : limit;
		}
		if (d->cfs_quota_us >= 0 && d->cfs_period_us > 0) {
			v = d->cfs_quota_us * 1000 / d->cfs_period_us;
			limit = limit < 0 || v < limit ? v : limit;
		}
	}
	return limit;
}

static int victim_recent(const struct evictorstate *st, const char *id)
{
	for (size_t i = 0; i < st->nvictims; i++)
		if (strcmp(st->victims[i].id, id) == 0)
			return 1;
	return 0;
}

static int listed(const struct evict_input *in, const char *id)
{
	for (size_t i = 0; i < in->ncontainers; i++)
		if (strcmp(in->containers[i].id, id) == 0)
			return 1;
	return 0;
}

/* Keep the victims planned within the terminating timeout that are still listed. */
static void prune_victims(const struct policy *p, const struct evict_input *in,
			  struct evictorstate *st, int64_t now_ms)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nvictims; i++) {
		struct evictorstate_victim v = st->victims[i];

		if (v.at_ms <= now_ms && now_ms - v.at_ms < p->terminating_timeout_ms &&
		    listed(in, v.id))
			st->victims[n++] = v;
		else
			free(v.id);
	}
	st->nvictims = n;
}

static void add_victims(struct evictorstate *st, const struct evict_plan *plan,
			const struct evict_input *in, int64_t now_ms)
{
	st->victims =
		xrealloc(st->victims, (st->nvictims + plan->nitems + 1) * sizeof(*st->victims));
	for (size_t i = 0; i < plan->nitems; i++) {
		st->victims[st->nvictims].id = xstrdup(in->containers[plan->items[i].index].id);
		st->victims[st->nvictims++].at_ms = now_ms;
	}
}

static void skip(struct evict_plan *plan, size_t index, const char *reason)
{
	plan->skipped[plan->nskipped].index = index;
	plan->skipped[plan->nskipped++].reason = reason;
}

static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->am != b->am)
		return a->am - b->am;
	if (a->known != b->known)
		return b->known - a->known;
	if (a->known) {
		__int128 x = (__int128)a->num * b->den, y = (__int128)b->num * a->den;

		if (x != y)
			return x > y ? -1 : 1;
	}
	if (a->started_ms != b->started_ms)
		return a->started_ms > b->started_ms ? -1 : 1; /* youngest first, unknown last */
	return strcmp(a->id, b->id);
}

/* Fill a candidate for c: rank key and expected release for the resource. */
static void cand_fill(struct cand *k, const struct evict_container *c, size_t index,
		      enum evict_resource r)
{
	memset(k, 0, sizeof(*k));
	k->index = index;
	k->am = c->am;
	k->id = c->id;
	k->started_ms = c->started_ms;
	k->den = 1;
	k->release = EVICT_UNKNOWN;
	if (r == EVICT_MEMORY) {
		k->known = c->memory_bytes >= 0;
		k->num = c->memory_bytes;
		k->release = c->memory_bytes;
		if (!k->known && c->request_memory_bytes >= 0) {
			k->release = c->request_memory_bytes;
			k->from_request = 1;
		}
	} else {
		k->known = c->cpu_milli >= 0 && c->request_cpu_milli > 0;
		k->num = c->cpu_milli;
		k->den = c->request_cpu_milli;
		k->release = c->request_cpu_milli;
		k->from_request = 1;
	}
}

/* Credit what is already leaving, rank the rest, take victims until the
 * need is covered (plan->need and plan->resource set by the caller). */
static void select_victims(const struct policy *p, const struct evict_input *in,
			   struct evictorstate *st, int64_t now_ms, struct evict_plan *plan)
{
	int memory = plan->resource == EVICT_MEMORY;
	int64_t last = memory ? st->last_memory_ms : st->last_cpu_ms;
	int64_t cool = memory ? p->memory_evict_cool_down_ms : p->cpu_evict_cool_down_ms;
	struct cand *cands = xcalloc(in->ncontainers + 1, sizeof(*cands));
	size_t n = 0;
	int64_t remaining;

	plan->items = xcalloc(in->ncontainers + 1, sizeof(*plan->items));
	plan->skipped = xcalloc(in->ncontainers + 1, sizeof(*plan->skipped));
	for (size_t i = 0; i < in->ncontainers; i++) {
		const struct evict_container *c = &in->containers[i];
		struct cand k;

		cand_fill(&k, c, i, plan->resource);
		if (c->terminating || victim_recent(st, c->id)) {
			skip(plan, i, c->terminating ? "terminating" : "recentlyPlanned");
			plan->credit += k.release > 0 ? k.release : 0;
		} else if (c->processes == 0) {
			skip(plan, i, "noProcesses");
		} else {
			cands[n++] = k;
		}
	}
	remaining = plan->need - plan->credit;
	if (last >= 0 && last <= now_ms && now_ms - last < cool)
		plan->cool_down_remaining_ms = last + cool - now_ms;
	if (plan->cool_down_remaining_ms > 0 && remaining > 0)
		note(plan, "%s: cool-down: no new victims for %lld ms", memory ? "memory" : "cpu",
		     (long long)plan->cool_down_remaining_ms);
	qsort(cands, n, sizeof(*cands), cand_cmp);
	for (size_t i = 0; i < n && remaining > 0 && plan->cool_down_remaining_ms == 0; i++) {
		struct evict_item *it = &plan->items[plan->nitems];

		if (cands[i].release <= 0) {
			skip(plan, cands[i].index,
			     cands[i].release == 0 ? "nothingToRelease"
			     : memory              ? "noUsage"
						   : "noRequest");
			continue;
		}
		if (cands[i].am && !p->allow_am) {
			skip(plan, cands[i].index, "am");
			continue;
		}
		it->index = cands[i].index;
		it->release = cands[i].release;
		it->from_request = cands[i].from_request;
		plan->nitems++;
		remaining -= cands[i].release;
	}
	plan->pressure_remains = remaining > 0;
	free(cands);
	if (plan->nitems) {
		*(memory ? &st->last_memory_ms : &st->last_cpu_ms) = now_ms;
		add_victims(st, plan, in, now_ms);
	}
}

/* Memory (koordlet BEMemoryEvict): 1 when the node is over the threshold. */
static int memory_trigger(const struct policy *p, const struct evict_input *in,
			  struct evict_plan *plan)
{
	int64_t cap = in->capacity_memory_bytes, used = in->node_memory_bytes;

	if (cap <= 0 || used < 0) {
		note(plan, "memory: not evaluated: NodeUsage %s is null",
		     cap <= 0 ? "capacity.memoryBytes" : "node.memoryBytes");
		return 0;
	}
	if ((__int128)used * 100 < (__int128)cap * p->memory_evict_threshold_percent)
		return 0;
	plan->resource = EVICT_MEMORY;
	plan->usage_bytes = used;
	plan->capacity_bytes = cap;
	plan->usage_percent = (double)used * 100.0 / (double)cap;
	plan->threshold_percent = p->memory_evict_threshold_percent;
	plan->lower_percent = p->memory_evict_lower_percent;
	plan->need = used - (int64_t)((__int128)cap * p->memory_evict_lower_percent / 100);
	return 1;
}

/* koordlet cpuevict steps 2-4 on one set of figures: the release in
 * milli-cores, 0 when the usage or satisfaction condition does not hold. */
static void cpu_figures(const struct policy *p, struct killplan_cpu_figures *f)
{
	f->need_cpu_milli = 0;
	if (f->limit_cpu_milli <= 0 || f->request_cpu_milli <= 0)
		return;
	if (f->usage_cpu_milli * 100 < f->limit_cpu_milli * p->cpu_evict_be_usage_threshold_percent)
		return;
	if (f->limit_cpu_milli * 100 >
	    f->request_cpu_milli * p->cpu_evict_be_satisfaction_lower_percent)
		return;
	f->need_cpu_milli =
		f->request_cpu_milli * p->cpu_evict_be_satisfaction_upper_percent / 100 -
		f->limit_cpu_milli;
	if (f->need_cpu_milli < 0)
		f->need_cpu_milli = 0;
}

static int sample_cmp(const void *pa, const void *pb)
{
	const struct evictorstate_sample *a = pa, *b = pb;

	return (a->at_ms > b->at_ms) - (a->at_ms < b->at_ms);
}

/* Add the current BE sample to st, drop those outside the window, and
 * evaluate the window and the current figures. */
static void cpu_evaluate(const struct policy *p, const struct evict_input *in,
			 struct evictorstate *st, int64_t now_ms, struct evict_plan *plan,
			 struct cpu_eval *ev)
{
	int64_t window = p->cpu_evict_time_window_seconds * 1000, start = now_ms - window;
	int64_t request = in->nm_reachable ? in->pods_batch_cpu_milli : EVICT_UNKNOWN, prev = start;
	struct killplan_cpu_figures *cur = &ev->current, *avg = &ev->window;
	size_t n = 0;

	memset(ev, 0, sizeof(*ev));
	for (size_t i = 0; request >= 0 && i < in->ncontainers; i++)
		if (in->containers[i].request_cpu_milli > 0)
			request += in->containers[i].request_cpu_milli;
	cur->usage_cpu_milli = in->be_cpu_milli;
	cur->limit_cpu_milli = evict_be_limit_milli(in);
	cur->request_cpu_milli = request;
	if (!in->have_pods)
		note(plan, "cpu: no PodList given: the BE request counts YARN containers only");
	if (in->pods_bad) {
		note(plan, "cpu: no sample: the BE request is unknown: %zu pod%s unreadable (%s)",
		     in->pods_bad, in->pods_bad == 1 ? "'s request is" : "s' requests are",
		     in->pods_problem);
		return;
	}
	for (size_t i = 0; i < st->nsamples; i++)
		if (st->samples[i].at_ms > start && st->samples[i].at_ms < now_ms)
			st->samples[n++] = st->samples[i];
	st->nsamples = n;
	if (cur->usage_cpu_milli < 0 || cur->limit_cpu_milli < 0 || request < 0) {
		note(plan, "cpu: no sample: %s unknown",
		     cur->usage_cpu_milli < 0   ? "BE usage (NodeUsage qos.besteffort.cpuMilli)"
		     : cur->limit_cpu_milli < 0 ? "BE limit (NodeUsage limits)"
						: "YARN requests (NodeManager unreachable)");
		return;
	}
	st->samples = xrealloc(st->samples, (st->nsamples + 1) * sizeof(*st->samples));
	st->samples[st->nsamples++] = (struct evictorstate_sample){ now_ms, in->window_ms,
								    cur->usage_cpu_milli,
								    cur->limit_cpu_milli, request };
	qsort(st->samples, st->nsamples, sizeof(*st->samples), sample_cmp);
	for (size_t i = 0; i < st->nsamples; i++) {
		const struct evictorstate_sample *s = &st->samples[i];
		int64_t lo = s->window_ms >= 0 ? s->at_ms - s->window_ms : i ? prev : s->at_ms;

		lo = lo < prev ? prev : lo;
		ev->coverage_ms += s->at_ms > lo ? s->at_ms - lo : 0;
		prev = s->at_ms > prev ? s->at_ms : prev;
		avg->usage_cpu_milli += s->usage_cpu_milli;
		avg->limit_cpu_milli += s->limit_cpu_milli;
		avg->request_cpu_milli += s->request_cpu_milli;
	}
	ev->nsamples = st->nsamples;
	avg->usage_cpu_milli /= (int64_t)st->nsamples;
	avg->limit_cpu_milli /= (int64_t)st->nsamples;
	avg->request_cpu_milli /= (int64_t)st->nsamples;
	if (ev->coverage_ms * 3 < window) {
		note(plan, "cpu: samples cover %lld ms of the %lld ms window, %lld ms needed",
		     (long long)ev->coverage_ms, (long long)window, (long long)((window + 2) / 3));
		return;
	}
	cpu_figures(p, avg);
	cpu_figures(p, cur);
	ev->ok = 1;
	ev->need = avg->need_cpu_milli < cur->need_cpu_milli ? avg->need_cpu_milli
							     : cur->need_cpu_milli;
}

static void cpu_trigger(const struct policy *p, const struct cpu_eval *ev, struct evict_plan *plan)
{
	const struct killplan_cpu_figures *w = &ev->window;

	plan->resource = EVICT_CPU;
	plan->window = ev->window;
	plan->current = ev->current;
	plan->need = ev->need;
	plan->usage_percent = (double)w->usage_cpu_milli * 100.0 / (double)w->limit_cpu_milli;
	plan->satisfaction_percent =
		(double)w->limit_cpu_milli * 100.0 / (double)w->request_cpu_milli;
	plan->threshold_percent = p->cpu_evict_be_usage_threshold_percent;
	plan->lower_percent = p->cpu_evict_be_satisfaction_lower_percent;
	plan->upper_percent = p->cpu_evict_be_satisfaction_upper_percent;
	plan->window_seconds = p->cpu_evict_time_window_seconds;
	plan->coverage_ms = ev->coverage_ms;
	plan->nsamples = ev->nsamples;
}

void evict_decide(const struct policy *p, const struct evict_input *in, struct evictorstate *st,
		  int64_t now_ms, struct evict_plan *plan)
{
	int cpu_on = p->cpu_evict_be_satisfaction_lower_percent > 0 &&
		     p->cpu_evict_be_satisfaction_upper_percent > 0;
	struct cpu_eval ev = { 0 };

	memset(plan, 0, sizeof(*plan));
	prune_victims(p, in, st, now_ms);
	if (!p->threshold_enable) {
		note(plan, "eviction off: resourceUsedThresholdWithBE.enable is false");
		return;
	}
	if (!in->nm_reachable)
		note(plan, "NodeManager unreachable: planning by usage alone");
	if (cpu_on)
		cpu_evaluate(p, in, st, now_ms, plan, &ev);
	else
		note(plan, "cpu: off: cpuEvictBESatisfactionLowerPercent and "
			   "cpuEvictBESatisfactionUpperPercent are not both set");
	if (memory_trigger(p, in, plan)) {
		if (ev.need > 0)
			note(plan, "cpu: %lld milli-cores also over, planned after memory",
			     (long long)ev.need);
	} else if (ev.ok && ev.need > 0) {
		cpu_trigger(p, &ev, plan);
	} else {
		return;
	}
	select_victims(p, in, st, now_ms, plan);
}

void evict_plan_release(struct evict_plan *plan)
{
	free(plan->items);
	free(plan->skipped);
	for (size_t i = 0; i < plan->nnotes; i++)
		free(plan->notes[i]);
	free(plan->notes);
	memset(plan, 0, sizeof(*plan));
}

/* The plan's trigger as the KillPlan says it. */
static void trigger_of(const struct evict_plan *plan, const struct evict_input *in,
		       struct killplan_trigger *t)
{
	*t = (struct killplan_trigger){
		.resource = plan->resource == EVICT_MEMORY ? KILLPLAN_MEMORY
			    : plan->resource == EVICT_CPU  ? KILLPLAN_CPU
							   : KILLPLAN_NONE,
		.usage_percent = plan->usage_percent,
		.threshold_percent = plan->threshold_percent,
		.lower_percent = plan->lower_percent,
		.upper_percent = plan->upper_percent,
		.need = plan->need,
		.credit = plan->credit,
		.cool_down_remaining_ms = plan->cool_down_remaining_ms,
		.usage_bytes = plan->usage_bytes,
		.capacity_bytes = plan->capacity_bytes,
		.satisfaction_percent = plan->satisfaction_percent,
		.window = plan->window,
		.current = plan->current,
		.window_seconds = plan->window_seconds,
		.coverage_ms = plan->coverage_ms,
		.samples = (int64_t)plan->nsamples,
		.request_from_pods = in->have_pods,
	};
}

void evict_killplan(const struct evict_plan *plan, const struct evict_input *in,
		    const struct policy *p, int64_t now_ms, struct killplan *kp)
{
	memset(kp, 0, sizeof(*kp));
	kp->node = in->node ? xstrdup(in->node) : NULL;
	kp->timestamp_ms = now_ms;
	kp->grace_period_ms = p->grace_period_ms;
	trigger_of(plan, in, &kp->trigger);
	kp->items = xcalloc(plan->nitems + 1, sizeof(*kp->items));
	for (size_t i = 0; i < plan->nitems; i++) {
		const struct evict_item *it = &plan->items[i];
		const struct evict_container *c = &in->containers[it->index];

		kp->items[kp->nitems++] = (struct killplan_item){
			.id = xstrdup(c->id),
			.reason = kp->trigger.resource,
			.release = it->release,
			.from_request = it->from_request,
			.am = c->am,
			.memory_bytes = c->memory_bytes,
			.cpu_milli = c->cpu_milli,
			.request_cpu_milli = c->request_cpu_milli,
			.started_ms = c->started_ms,
		};
	}
	kp->skipped = xcalloc(plan->nskipped + 1, sizeof(*kp->skipped));
	for (size_t i = 0; i < plan->nskipped; i++)
		kp->skipped[kp->nskipped++] = (struct killplan_skip){
			.id = xstrdup(in->containers[plan->skipped[i].index].id),
			.reason = xstrdup(plan->skipped[i].reason),
		};
	kp->pressure_remains = plan->pressure_remains;
	for (size_t i = 0; i < plan->nnotes; i++)
		killplan_add_note(kp, plan->notes[i]);
}

json_t *evict_plan_json(const struct evict_plan *plan, const struct evict_input *in,
			const struct policy *p, int64_t now_ms)
{
	struct killplan kp;
	json_t *doc;

	evict_killplan(plan, in, p, now_ms, &kp);
	doc = killplan_to_json(&kp);
	killplan_release(&kp);
	return doc;
}
