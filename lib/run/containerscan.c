// SPDX-License-Identifier: Apache-2.0
/* containerscan - the scan of the container dirs joined with the NodeManager (see containerscan.h) */
#include "run/containerscan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "kernel/members.h"
#include "kernel/procfs.h"

void containerscan_release(struct containerscan *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		free(cl->items[i].cg);
		free(cl->items[i].pids);
	}
	free(cl->items);
	memset(cl, 0, sizeof(*cl));
}

/* Note a failed read (r < 0) in cl; returns 1 when the value is usable. */
static int noted(struct containerscan *cl, int r, const struct err *e)
{
	if (r == CGROUP_OK)
		return 1;
	if (r < 0 && cl->failed_reads++ == 0)
		cl->first_err = *e;
	return 0;
}

/* Oldest start time of pids in ms since the epoch, or -1.  btime_s is read
 * once per walk (-2 before). */
static int64_t oldest_start(const struct sysroot *s, const pid_t *pids, size_t n, int64_t *btime_s,
			    struct containerscan *cl)
{
	uint64_t oldest = UINT64_MAX;
	struct err e = { 0 };

	for (size_t i = 0; i < n; i++) {
		uint64_t ticks;

		if (procfs_read_starttime(s, pids[i], &ticks, &e) < 0) {
			if (e.kind != ERR_NOTFOUND && e.errnum != ESRCH)
				noted(cl, -1, &e);
			continue; /* exited meanwhile */
		}
		if (ticks < oldest)
			oldest = ticks;
	}
	if (oldest == UINT64_MAX)
		return -1;
	if (*btime_s == -2 && procfs_read_stat(s, NULL, btime_s, &e) < 0) {
		*btime_s = -1;
		noted(cl, -1, &e);
	}
	return *btime_s < 0 ? -1 : procfs_ticks_to_ms(*btime_s, oldest, procfs_hz());
}

/* Read one container; 0 when it vanished (drop it), 1 otherwise. */
static int read_item(const struct cgroup_layout *l, const struct sysroot *s,
		     struct containerscan_item *it, int64_t *btime_s, struct containerscan *cl)
{
	struct cgroup_memory_stat ms;
	struct members m;
	struct err e = { 0 };
	int r;

	it->processes = it->start_ms = it->cpu_ns = it->memory_bytes = it->memory_current = -1;
	r = members_read(l, s, it->cg, 0, &m, &e);
	it->pids = m.pids;
	it->npids = m.n;
	m.pids = NULL;
	if (noted(cl, r, &e)) {
		/* with those that exited while read: a fork chain, each process
		 * forking the next and exiting, may never show a member, and a
		 * container that reads 0 is never evicted */
		it->processes = (int64_t)(m.n + m.nvanished);
		it->start_ms = oldest_start(s, it->pids, m.n, btime_s, cl);
	}
	members_release(&m);
	if (r == CGROUP_ABSENT) /* only in kilo's mirrors, or gone meanwhile */
		return 0;
	if (noted(cl, cgroup_read_cpu_usage(l, s, it->cg, &it->cpu_ns, &e), &e) == 0)
		it->cpu_ns = -1;
	if (noted(cl, cgroup_read_memory_stat(l, s, it->cg, &ms, &e), &e))
		it->memory_bytes = cgroup_memory_stat_used(&ms);
	if (noted(cl, cgroup_read_memory_current(l, s, it->cg, &it->memory_current, &e), &e) == 0)
		it->memory_current = -1;
	return 1;
}

int containerscan_collect(const struct cgroup_layout *l, const struct sysroot *s,
			  struct containerscan *out, struct err *e)
{
	cleanup_free struct cgroup_container *dirs = NULL;
	size_t n = 0;
	int64_t btime_s = -2;

	memset(out, 0, sizeof(*out));
	if (cgroup_list_containers(l, s, &dirs, &n, e) < 0)
		return -1;
	out->yarn_found = cgroup_exists_any(l, s, l->hadoop_yarn);
	out->items = xcalloc(n ? n : 1, sizeof(*out->items));
	for (size_t i = 0; i < n; i++) {
		struct containerscan_item *it = &out->items[out->n];

		memcpy(it->id, dirs[i].id, sizeof(it->id));
		it->ctrls = dirs[i].ctrls;
		it->cg = cgroup_container_path(l, it->id);
		if (read_item(l, s, it, &btime_s, out)) {
			out->n++;
		} else {
			free(it->cg);
			free(it->pids);
			it->pids = NULL;
		}
	}
	return 0;
}

static json_t *int_or_null(int64_t v)
{
	return jsonio_int_or_null(v >= 0, v);
}

static json_t *time_or_null(int64_t ms)
{
	char buf[32];

	return ms >= 0 ? json_string(clock_format_rfc3339(ms, buf, sizeof(buf))) : json_null();
}

/* usage.cpuMilli from the previous state, or -1. */
static int64_t cpu_milli(const json_t *prev, const char *id, int64_t cpu_ns, int64_t now_ms)
{
	json_t *then = json_object_get(prev, "timestampMs");
	json_t *ns = json_object_get(json_object_get(prev, "cpuNanos"), id);
	int64_t dms, dns;

	if (!prev || cpu_ns < 0 || !json_is_integer(then) || !json_is_integer(ns))
		return -1;
	dms = now_ms - json_integer_value(then);
	dns = cpu_ns - json_integer_value(ns);
	if (dms <= 0 || dns < 0)
		return -1;
	return llround((double)dns / (double)dms / 1000.0);
}

/* The pids as a JSON array, null when cgroup.procs could not be read. */
static json_t *pids_or_null(const struct containerscan_item *it)
{
	json_t *a;

	if (it->processes < 0)
		return json_null();
	a = json_array();
	for (size_t i = 0; i < it->npids; i++)
		json_array_append_new(a, json_integer(it->pids[i]));
	return a;
}

static json_t *item_doc(const struct containerscan_item *it, const struct containerscan_nm *nm,
			const json_t *prev, int64_t now_ms)
{
	const struct nm_container *c = nm->reachable ? nm_containers_find(nm->containers, it->id)
						     : NULL;
	enum nm_phase phase = c ? nm_state_phase(c->state) : NM_PHASE_UNKNOWN;
	struct containerid cid;
	char app[64];
	json_t *requests = json_null(), *usage, *stale, *doc;
	int starting;

	containerid_parse(it->id, &cid, NULL);
	if (c && c->vcores >= 0 && c->memory_mb >= 0)
		requests = json_pack("{s:I, s:I}", "cpuMilli", (json_int_t)(c->vcores * 1000),
				     "memoryBytes", (json_int_t)(c->memory_mb * 1048576));
	usage = json_pack("{s:o, s:o, s:o, s:o}", "cpuNanos", int_or_null(it->cpu_ns), "cpuMilli",
			  int_or_null(cpu_milli(prev, it->id, it->cpu_ns, now_ms)), "memoryBytes",
			  int_or_null(it->memory_bytes), "memoryCurrentBytes",
			  int_or_null(it->memory_current));
	stale = nm->reachable ? json_boolean(!c || phase == NM_PHASE_FINISHED) : json_null();
	starting =
		it->processes == 0 &&
		(nm->reachable ? c && phase != NM_PHASE_FINISHED && phase != NM_PHASE_KILLING : 1);
	doc = json_pack("{s:s, s:s, s:I, s:I, s:I, s:b}", "id", it->id, "applicationId",
			containerid_application(&cid, app, sizeof(app)), "attempt",
			(json_int_t)cid.attempt, "number", (json_int_t)cid.number, "epoch",
			(json_int_t)cid.epoch, "am", containerid_is_am(&cid));
	json_object_set_new(doc, "state", c && c->state ? json_string(c->state) : json_null());
	json_object_set_new(doc, "phase", c ? json_string(nm_phase_name(phase)) : json_null());
	json_object_set_new(doc, "user", c && c->user ? json_string(c->user) : json_null());
	json_object_set_new(doc, "requests", requests);
	json_object_set_new(doc, "cgroup", it->cg ? json_string(it->cg) : json_null());
	json_object_set_new(doc, "processes", int_or_null(it->processes));
	json_object_set_new(doc, "pids", pids_or_null(it));
	json_object_set_new(doc, "startTime", time_or_null(it->start_ms));
	json_object_set_new(doc, "usage", usage);
	json_object_set_new(doc, "starting", json_boolean(starting));
	json_object_set_new(doc, "stale", stale);
	json_object_set_new(doc, "terminating",
			    json_boolean(phase == NM_PHASE_KILLING && it->processes > 0));
	return doc;
}

json_t *containerscan_doc(const struct containerscan *cl, const struct cgroup_layout *l,
			  const struct containerscan_nm *nm, const json_t *prev, int64_t now_ms,
			  const char *node)
{
	json_t *doc = jsonio_new_doc("ContainerList");
	json_t *items = json_array();
	const struct nm_containers *nc = nm->reachable ? nm->containers : NULL;
	size_t nn = nc ? nc->n : 0;

	json_object_set_new(doc, "metadata", jsonio_metadata(node, now_ms));
	json_object_set_new(doc, "nodeManager",
			    json_pack("{s:s, s:b, s:o}", "url", nm->url, "reachable", nm->reachable,
				      "error", nm->error ? json_string(nm->error) : json_null()));
	json_object_set_new(doc, "hadoopYarn",
			    json_pack("{s:i, s:s, s:s, s:b}", "cgroupVersion", l->version, "driver",
				      cgroup_driver_name(l->driver), "path", l->hadoop_yarn,
				      "found", cl->yarn_found));
	/* the container dirs, and in id order among them the containers the
	 * NodeManager knows that have no dir (yet: NEW, LOCALIZING, SCHEDULED,
	 * or RUNNING just after launch) and are not finished: their requests
	 * count (qos-cgset sums them), they have no process */
	for (size_t i = 0, k = 0; i < cl->n || k < nn;) {
		const struct nm_container *c = k < nn ? &nc->items[k] : NULL;
		int cmp = i == cl->n ? 1 : !c ? -1 : strcmp(cl->items[i].id, c->id);

		if (cmp <= 0) {
			json_array_append_new(items, item_doc(&cl->items[i++], nm, prev, now_ms));
			k += cmp == 0;
			continue;
		}
		k++;
		if (nm_state_phase(c->state) != NM_PHASE_FINISHED) {
			struct containerscan_item none = { .processes = 0,
							   .start_ms = -1,
							   .cpu_ns = -1,
							   .memory_bytes = -1,
							   .memory_current = -1 };

			snprintf(none.id, sizeof(none.id), "%s", c->id);
			json_array_append_new(items, item_doc(&none, nm, prev, now_ms));
		}
	}
	json_object_set_new(doc, "items", items);
	return doc;
}

json_t *containerscan_state(const struct containerscan *cl, int64_t now_ms)
{
	json_t *doc = jsonio_new_doc("ContainerListState");
	json_t *ns = json_object();

	json_object_set_new(doc, "timestampMs", json_integer(now_ms));
	for (size_t i = 0; i < cl->n; i++)
		if (cl->items[i].cpu_ns >= 0)
			json_object_set_new(ns, cl->items[i].id, json_integer(cl->items[i].cpu_ns));
	json_object_set_new(doc, "cpuNanos", ns);
	return doc;
}
