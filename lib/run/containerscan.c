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
#include "doc/containerlist.h"
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

/* usage.cpuMilli from the previous state, or -1. */
static int64_t cpu_milli(const struct containerlist_state *prev, const char *id, int64_t cpu_ns,
			 int64_t now_ms)
{
	const struct containerlist_sample *then = containerlist_state_find(prev, id);
	int64_t dms, dns;

	if (!then || cpu_ns < 0 || prev->timestamp_ms < 0)
		return -1;
	dms = now_ms - prev->timestamp_ms;
	dns = cpu_ns - then->cpu_ns;
	if (dms <= 0 || dns < 0)
		return -1;
	return llround((double)dns / (double)dms / 1000.0);
}

/* One item of the list: the scanned dir it (NULL: a container the
 * NodeManager lists without a dir) joined with c, the NodeManager's entry
 * (NULL: not listed or not asked). */
static void list_item(struct containerlist_item *out, const struct containerscan_item *it,
		      const char *id, const struct nm_container *c, int reachable,
		      const struct containerlist_state *prev, int64_t now_ms)
{
	snprintf(out->id, sizeof(out->id), "%s", id);
	containerid_parse(out->id, &out->cid, NULL);
	out->am = containerid_is_am(&out->cid);
	out->listed = c != NULL;
	out->state = c && c->state ? xstrdup(c->state) : NULL;
	out->user = c && c->user ? xstrdup(c->user) : NULL;
	out->request_cpu_milli = out->request_memory_bytes = CONTAINERLIST_UNKNOWN;
	if (c && c->vcores >= 0 && c->memory_mb >= 0) {
		out->request_cpu_milli = c->vcores * 1000;
		out->request_memory_bytes = c->memory_mb * 1048576;
	}
	out->processes = 0;
	out->start_ms = out->cpu_ns = out->cpu_milli = CONTAINERLIST_UNKNOWN;
	out->memory_bytes = out->memory_charge = CONTAINERLIST_UNKNOWN;
	out->pids_known = 1;
	if (it) {
		out->cgroup = xstrdup(it->cg);
		out->processes = it->processes;
		out->pids_known = it->processes >= 0;
		out->npids = out->pids_known ? it->npids : 0;
		if (out->npids) {
			out->pids = xcalloc(out->npids, sizeof(*out->pids));
			memcpy(out->pids, it->pids, out->npids * sizeof(*out->pids));
		}
		out->start_ms = it->start_ms;
		out->cpu_ns = it->cpu_ns;
		out->cpu_milli = cpu_milli(prev, it->id, it->cpu_ns, now_ms);
		out->memory_bytes = it->memory_bytes;
		out->memory_charge = it->memory_current;
	}
	containerlist_item_flags(out, reachable);
}

void containerscan_list(const struct containerscan *cs, const struct cgroup_layout *l,
			const struct containerscan_nm *nm, const struct containerlist_state *prev,
			int64_t now_ms, const char *node, struct containerlist *out)
{
	const struct nm_containers *nc = nm->reachable ? nm->containers : NULL;
	size_t nn = nc ? nc->n : 0;
	char ts[40];

	memset(out, 0, sizeof(*out));
	out->node = node ? xstrdup(node) : NULL;
	out->timestamp = xstrdup(clock_format_rfc3339(now_ms, ts, sizeof(ts)));
	out->nm_url = xstrdup(nm->url);
	out->nm_reachable = nm->reachable;
	out->nm_error = nm->error ? xstrdup(nm->error) : NULL;
	out->cgroup_version = l->version;
	out->driver = xstrdup(cgroup_driver_name(l->driver));
	out->yarn_path = xstrdup(l->hadoop_yarn);
	out->yarn_found = cs->yarn_found;
	out->items = xcalloc(cs->n + nn + 1, sizeof(*out->items));
	/* the container dirs, and in id order among them the containers the
	 * NodeManager knows that have no dir (yet: NEW, LOCALIZING, SCHEDULED,
	 * or RUNNING just after launch) and are not finished: their requests
	 * count (qos-cgset sums them), they have no process */
	for (size_t i = 0, k = 0; i < cs->n || k < nn;) {
		const struct nm_container *c = k < nn ? &nc->items[k] : NULL;
		int cmp = i == cs->n ? 1 : !c ? -1 : strcmp(cs->items[i].id, c->id);

		if (cmp <= 0) {
			const struct containerscan_item *it = &cs->items[i++];

			list_item(&out->items[out->n++], it, it->id,
				  nm->reachable ? nm_containers_find(nm->containers, it->id) : NULL,
				  nm->reachable, prev, now_ms);
			k += cmp == 0;
			continue;
		}
		k++;
		if (nm_state_phase(c->state) != NM_PHASE_FINISHED)
			list_item(&out->items[out->n++], NULL, c->id, c, 1, prev, now_ms);
	}
}

void containerscan_state(const struct containerscan *cs, int64_t now_ms,
			 struct containerlist_state *out)
{
	memset(out, 0, sizeof(*out));
	out->timestamp_ms = now_ms;
	out->samples = xcalloc(cs->n + 1, sizeof(*out->samples));
	for (size_t i = 0; i < cs->n; i++) {
		if (cs->items[i].cpu_ns < 0)
			continue;
		memcpy(out->samples[out->n].id, cs->items[i].id, sizeof(out->samples[0].id));
		out->samples[out->n++].cpu_ns = cs->items[i].cpu_ns;
	}
}
