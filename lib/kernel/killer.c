// SPDX-License-Identifier: Apache-2.0
/* killer - end YARN containers through their cgroups (see killer.h) */
#include "kernel/killer.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "kernel/members.h"
#include "kernel/procfs.h"

static int pidfd_pin(void *arg, pid_t pid)
{
	(void)arg;
	return pidfd_open(pid, 0);
}

static int pidfd_send(void *arg, int handle, pid_t pid, int sig)
{
	(void)arg;
	(void)pid;
	return pidfd_send_signal(handle, sig, NULL, 0);
}

static void pidfd_unpin(void *arg, int handle)
{
	(void)arg;
	close(handle);
}

const struct killer_ops killer_ops_pidfd = {
	.pin = pidfd_pin,
	.send = pidfd_send,
	.unpin = pidfd_unpin,
	.live = 1,
};

const char *killer_result_name(enum killer_result r)
{
	switch (r) {
	case KILLER_TERMINATED:
		return "terminated";
	case KILLER_KILLED:
		return "killed";
	case KILLER_GONE:
		return "gone";
	case KILLER_FAILED:
		return "failed";
	default:
		return "pending";
	}
}

/* Remember pid among its foreign ids (once). */
static void add_foreign(struct killer_item *it, pid_t pid)
{
	for (size_t i = 0; i < it->nforeign; i++)
		if (it->foreign[i] == pid)
			return;
	it->foreign = xrealloc(it->foreign, (it->nforeign + 1) * sizeof(*it->foreign));
	it->foreign[it->nforeign++] = pid;
}

/* The container's members (kernel/members.h), ascending; the ids of its
 * dirs that are not members are noted in it->foreign, never signalled.
 * 0 with *n (0 when it has no dir), or -1 with it->err set. */
/* Remember the members of this read: each must be seen to end, wherever
 * it hides (a process hopping between the dirs of the tree can be missed
 * by any number of walks). */
static void note_seen(const struct sysroot *s, struct killer_item *it, const pid_t *pids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t ticks;
		char state;
		size_t k = 0;

		while (k < it->nseen && it->seen[k].pid != pids[i])
			k++;
		if (k < it->nseen || procfs_read_state(s, pids[i], &state, &ticks, NULL) < 0)
			continue;
		it->seen = xrealloc(it->seen, (it->nseen + 1) * sizeof(*it->seen));
		it->seen[it->nseen++] = (struct killer_seen){ pids[i], ticks };
	}
}

/* A member seen before that still lives (the same start time, no zombie),
 * or 0. */
static pid_t seen_alive(const struct sysroot *s, const struct killer_item *it)
{
	for (size_t k = 0; k < it->nseen; k++) {
		uint64_t ticks;
		char state;

		if (procfs_read_state(s, it->seen[k].pid, &state, &ticks, NULL) == 0 &&
		    ticks == it->seen[k].start_ticks && state != 'Z' && state != 'X')
			return it->seen[k].pid;
	}
	return 0;
}

/* The members of the item now, into *pids (caller frees): by a walk of its
 * dirs, or, when the container has made more dirs than a walk reads
 * (it->too_big), by every process's own cgroup file.  -1 with it->err set. */
static int read_procs(const struct cgroup_layout *l, const struct sysroot *s,
		      struct killer_item *it, pid_t **pids, size_t *n)
{
	struct members m;
	int r = members_read(l, s, it->cg, MEMBERS_MIRRORS, &m, &it->err);

	it->too_big = m.too_big;
	if (m.too_big) {
		members_release(&m);
		r = members_scan(l, s, it->cg, &m, &it->err);
		if (r == CGROUP_OK)
			err_clear(&it->err);
	}

	for (size_t i = 0; i < m.nforeign; i++)
		add_foreign(it, m.foreign[i]);
	note_seen(s, it, m.pids, m.n);
	it->nmixed = m.nmixed;
	it->mixed = m.mixed;
	it->nmirrored = m.nmirrored;
	it->nvanished = m.nvanished;
	*pids = m.pids;
	*n = m.n;
	m.pids = NULL;
	members_release(&m);
	if (r == CGROUP_ABSENT)
		err_clear(&it->err);
	return r < 0 ? -1 : 0;
}

/* Send sig to pid, a member just read: pinned first (a pidfd), and sent
 * only when the pinned process is a member still by its own cgroup files
 * (members_pid_is_member), at once: a process that forks its successor and
 * exits leaves no time to spare.  Adds to *sent; -1 with it->err set. */
static int signal_one(const struct cgroup_layout *l, const struct sysroot *s,
		      const struct killer_ops *ops, struct killer_item *it, pid_t pid, int sig,
		      long *sent)
{
	int handle, r = 0;

	/* never pid 1; nor this process when signals are real (a recorder's
	 * fake pids may happen to equal ours: a test on a fresh machine) */
	if (pid <= 1 || (ops->live && pid == getpid()))
		return 0;
	handle = ops->pin(ops->arg, pid);
	if (handle < 0) {
		if (errno == ESRCH)
			return 0; /* exited meanwhile */
		return err_set(&it->err, ERR_SYSTEM, errno, "pin pid %ld of '%s'", (long)pid,
			       it->id);
	}
	if (members_pid_is_member(l, s, pid, it->cg)) {
		if (ops->send(ops->arg, handle, pid, sig) == 0)
			(*sent)++;
		else if (errno != ESRCH)
			r = err_set(&it->err, ERR_SYSTEM, errno, "send SIG%s to pid %ld of '%s'",
				    sigabbrev_np(sig), (long)pid, it->id);
	}
	ops->unpin(ops->arg, handle);
	return r;
}

/* One round of sig to pids[0..n) (members just read), one at a time.
 * Returns the number of processes signalled, or -1 with it->err set. */
static long signal_round(const struct cgroup_layout *l, const struct sysroot *s,
			 const struct killer_ops *ops, struct killer_item *it, int sig,
			 const pid_t *pids, size_t n)
{
	long sent = 0;

	for (size_t i = 0; i < n; i++)
		if (signal_one(l, s, ops, it, pids[i], sig, &sent) < 0)
			return -1;
	if (sent)
		it->sent |= sig == SIGKILL ? KILLER_SENT_KILL : KILLER_SENT_TERM;
	return sent;
}

static void finish(struct killer_item *it, enum killer_result r, int64_t elapsed)
{
	it->result = r;
	it->elapsed_ms = elapsed;
}

/* 1 when some authority holds the hadoop-yarn dir: only then does a
 * container without dir or members count as gone. */
static int yarn_dir_exists(const struct cgroup_layout *l, const struct sysroot *s)
{
	unsigned auth = members_authorities(l);

	for (int c = 0; c < CGROUP_NCTRL; c++)
		if ((auth & (1u << c)) && cgroup_exists(l, s, (enum cgroup_ctrl)c, l->hadoop_yarn))
			return 1;
	return 0;
}

/* 1 (with it->err set) when the container's pids.current counts tasks
 * while no member is visible: they live in a pid namespace this run does
 * not see, or are zombies not yet reaped (pids_release uncharges only
 * then).  Only where a pids dir of the container exists. */
static int unseen_tasks(const struct cgroup_layout *l, const struct sysroot *s,
			struct killer_item *it)
{
	int64_t cur = 0;

	if (cgroup_read_i64(l, s, CGROUP_PIDS, it->cg, "pids.current", &cur, NULL) != CGROUP_OK ||
	    cur <= 0)
		return 0;
	err_set(&it->err, ERR_SYSTEM, 0,
		"no process of '%s' is visible but its pids.current is %lld: processes in a pid "
		"namespace this run does not see (run in the host's: hostPID: true), or exited "
		"ones their parent has not reaped",
		it->id, (long long)cur);
	return 1;
}

/* Start: find the dir and its processes, send SIGTERM. */
static void start_item(const struct cgroup_layout *l, const struct sysroot *s,
		       const struct killer_ops *ops, struct killer_item *it, int64_t start)
{
	cleanup_free pid_t *pids = NULL;
	size_t n = 0;

	it->cg = cgroup_container_path(l, it->id);
	it->kill_ms = -1;
	if (read_procs(l, s, it, &pids, &n) < 0)
		return finish(it, KILLER_FAILED, 0);
	it->processes = n;
	if (n == 0 && !it->nvanished && !yarn_dir_exists(l, s)) {
		/* no dir to look in is no evidence that the container is gone */
		char hint[256];

		cgroup_layout_hint(l, s, hint, sizeof(hint));
		err_set(&it->err, ERR_NOTFOUND, 0,
			"hadoop-yarn cgroup '%s' not found in the NodeManager's hierarchies (%s%s; "
			"found %s): check --hierarchy and --cgroup-driver",
			l->hadoop_yarn, l->version == 2 ? "unified" : "cpu",
			members_authorities(l) & (1u << CGROUP_MEMORY) ? ", memory" : "", hint);
		return finish(it, KILLER_FAILED, 0);
	}
	if (n == 0 && !it->nvanished && unseen_tasks(l, s, it))
		return finish(it, KILLER_FAILED, 0);
	if (n == 0) { /* confirmed over KILLER_EMPTY_READS polls: see poll_item */
		it->empty_reads = !it->nvanished;
		return;
	}
	if (ops->live && !s->live) {
		err_set(&it->err, ERR_USAGE, 0,
			"not signalling %zu process%s of '%s': sysroot '%s' is not /", n,
			n == 1 ? "" : "es", it->id, s->prefix);
		return finish(it, KILLER_FAILED, 0);
	}
	if (signal_round(l, s, ops, it, SIGTERM, pids, n) < 0)
		return finish(it, KILLER_FAILED, 0);
	it->term_ms = clock_mono_ms() - start; /* the grace period runs from here */
}

/* 1 (with it->err set) when no member is left but the container's dirs
 * hold what the run cannot end or leave: a process with threads inside and
 * outside (members.h "mixed"), or processes only in what is taken for
 * kilo's mirrors (with a NodeManager that makes memory dirs and no
 * --nm-memory-cgroups, they are the container's). */
static int leftovers(struct killer_item *it)
{
	if (it->nmixed)
		err_set(&it->err, ERR_SYSTEM, 0,
			"process %ld has threads in '%s' and outside it: not signalled, and the "
			"container is not proven ended",
			(long)it->mixed, it->id);
	else if (it->nmirrored)
		err_set(&it->err, ERR_SYSTEM, 0,
			"no member of '%s' is left, but %zu process%s only in its cpuset or memory "
			"dirs (see foreign), taken for kilo's mirrors: not signalled; if the "
			"NodeManager makes memory cgroups, give --nm-memory-cgroups",
			it->id, it->nmirrored, it->nmirrored == 1 ? " is" : "es are");
	return it->nmixed || it->nmirrored;
}

/* One poll of a pending item at elapsed ms from the start. */
static void poll_item(const struct cgroup_layout *l, const struct sysroot *s,
		      const struct killer_ops *ops, const struct killer_opts *o,
		      struct killer_item *it, int64_t elapsed)
{
	cleanup_free pid_t *pids = NULL;
	size_t n = 0;
	int64_t since = elapsed - it->term_ms;
	pid_t survivor;
	int busy;

	if (read_procs(l, s, it, &pids, &n) < 0)
		return finish(it, KILLER_FAILED, elapsed);
	/* one empty read is no proof: a process moving between the dirs of the
	 * tree may be missed by one walk; nor is one whose processes all
	 * exited before they were placed (a fork chain) */
	busy = n > 0 || it->nvanished > 0;
	it->empty_reads = busy ? 0 : it->empty_reads + 1;
	if (!busy && it->empty_reads < KILLER_EMPTY_READS)
		return;
	survivor = n ? pids[0] : 0;
	if (!busy && (unseen_tasks(l, s, it) || leftovers(it)))
		return finish(it, KILLER_FAILED, elapsed);
	if (!busy) { /* before "none left": every process's own cgroup file */
		struct members m;

		if (members_scan(l, s, it->cg, &m, &it->err) < 0)
			return finish(it, KILLER_FAILED, elapsed);
		free(pids);
		pids = m.pids, n = m.n;
		m.pids = NULL;
		members_release(&m);
		note_seen(s, it, pids, n);
		if (n) { /* hidden from the walks: confirm again after these */
			it->empty_reads = 0;
			survivor = pids[0];
		}
	}
	if (!busy && it->too_big && !(survivor = seen_alive(s, it))) {
		err_set(&it->err, ERR_SYSTEM, 0,
			"the cgroup dirs of '%s' pass %d levels or %d dirs, more than a walk "
			"reads: by every process's own cgroup file, %s, but the container is "
			"not proven ended",
			it->id, CGROUP_TREE_DEPTH, CGROUP_TREE_DIRS,
			it->sent ? "its members were signalled and none is left"
				 : "no member is found");
		return finish(it, KILLER_FAILED, elapsed);
	}
	if (!busy && !(survivor = seen_alive(s, it)))
		return finish(it,
			      it->sent & KILLER_SENT_KILL   ? KILLER_KILLED
			      : it->sent & KILLER_SENT_TERM ? KILLER_TERMINATED
							    : KILLER_GONE,
			      elapsed);
	/* members left, or one seen before that lives on out of sight: go on */
	if (since < o->grace_ms)
		return;
	if (it->kill_ms >= 0 && elapsed - it->kill_ms >= o->kill_timeout_ms) {
		if (n == 0 && !survivor) /* only vanished ones in the last read */
			err_set(&it->err, ERR_TEMP, 0,
				"processes of '%s' still appear in its dirs %ld ms after SIGKILL, "
				"each exiting before it could be signalled (a process forking its "
				"successor and exiting?): not proven ended",
				it->id, (long)o->kill_timeout_ms);
		else
			err_set(&it->err, ERR_TEMP, 0,
				"%zu processes of '%s' remain %ld ms after SIGKILL (pid %ld%s%s)",
				n ? n : 1, it->id, (long)o->kill_timeout_ms, (long)survivor,
				n > 1 ? " and more" : "",
				n ? "" : ", alive but no longer found in its dirs");
		return finish(it, KILLER_FAILED, elapsed);
	}
	/* again on every poll: a process forked meanwhile is caught too; the
	 * timeout runs from the first round, however long the polls took */
	if (signal_round(l, s, ops, it, SIGKILL, pids, n) < 0)
		return finish(it, KILLER_FAILED, elapsed);
	if (it->kill_ms < 0)
		it->kill_ms = elapsed;
}

int killer_own_pidns(const struct sysroot *s, struct err *e)
{
	cleanup_free char *status = NULL;
	const char *line;
	int fields = 0;

	cleanup_free char *kthreadd = NULL;
	char state;
	int ppid = -1;

	if (sysroot_read_str(s, "proc/self/status", &status, NULL) >= 0 &&
	    (line = strstr(status, "\nNSpid:")) != NULL)
		for (const char *p = line + 7; *p && *p != '\n'; p++)
			if (isdigit((unsigned char)*p) && !isdigit((unsigned char)p[-1]))
				fields++;
	if (fields > 1) {
		err_set(e, ERR_SYSTEM, 0,
			"runs in a pid namespace of its own (NSpid has %d levels): the "
			"containers' processes are not visible; run in the host's (hostPID: true)",
			fields);
		return 1;
	}
	/* a /proc mounted in the namespace shows one level: in the host's,
	 * pid 2 is kthreadd, the parent of kernel threads (parent 0) */
	if (sysroot_read_str(s, "proc/2/stat", &kthreadd, NULL) < 0 ||
	    sscanf(kthreadd, "2 (kthreadd) %c %d", &state, &ppid) != 2 || ppid != 0) {
		err_set(e, ERR_SYSTEM, 0,
			"pid 2 is not kthreadd: runs in a pid namespace of its own (or with a "
			"/proc not the host's); the containers' processes are not visible; run "
			"in the host's (hostPID: true)");
		return 1;
	}
	return 0;
}

size_t killer_run(const struct cgroup_layout *l, const struct sysroot *s,
		  const struct killer_ops *ops, const struct killer_opts *o,
		  struct killer_item *items, size_t n)
{
	int64_t start = clock_mono_ms();
	size_t failed = 0, pending;
	struct err ns = { 0 };

	/* in a pid namespace of its own the tool sees none of the containers'
	 * processes: "gone" would be a lie, a pid a stranger's */
	if (ops->live && s->live && killer_own_pidns(s, &ns)) {
		for (size_t i = 0; i < n; i++) {
			items[i].err = ns;
			finish(&items[i], KILLER_FAILED, 0);
		}
		return n;
	}
	for (size_t i = 0; i < n; i++)
		start_item(l, s, ops, &items[i], start);
	for (;;) {
		int64_t elapsed = clock_mono_ms() - start, next;

		pending = 0;
		for (size_t i = 0; i < n; i++)
			if (items[i].result == KILLER_PENDING) {
				poll_item(l, s, ops, o, &items[i], elapsed);
				pending += items[i].result == KILLER_PENDING;
			}
		if (!pending)
			break;
		/* sleep one poll interval, or less to meet a SIGKILL time */
		next = elapsed + o->poll_ms;
		for (size_t i = 0; i < n; i++) {
			int64_t kill_at = items[i].term_ms + o->grace_ms;

			if (items[i].result == KILLER_PENDING && elapsed < kill_at &&
			    kill_at < next)
				next = kill_at;
		}
		elapsed = clock_mono_ms() - start;
		if (next > elapsed)
			clock_sleep_ms(next - elapsed);
	}
	for (size_t i = 0; i < n; i++)
		failed += items[i].result == KILLER_FAILED;
	return failed;
}

void killer_items_release(struct killer_item *items, size_t n)
{
	for (size_t i = 0; items && i < n; i++) {
		free(items[i].cg);
		items[i].cg = NULL;
		free(items[i].foreign);
		items[i].foreign = NULL;
		items[i].nforeign = 0;
		free(items[i].seen);
		items[i].seen = NULL;
		items[i].nseen = 0;
	}
}

/* Add id to *items unless it is there already; -1 for a duplicate. */
static int add_item(struct killer_item **items, size_t *n, const char *id)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*items)[i].id, id) == 0)
			return -1;
	*items = xrealloc(*items, (*n + 1) * sizeof(**items));
	memset(&(*items)[*n], 0, sizeof(**items));
	snprintf((*items)[*n].id, sizeof((*items)[*n].id), "%s", id);
	(*n)++;
	return 0;
}

void killer_plan_items(const struct killplan *kp, struct killer_item **items, size_t *n)
{
	*items = kp->nitems ? xcalloc(kp->nitems, sizeof(**items)) : NULL;
	*n = kp->nitems;
	for (size_t i = 0; i < kp->nitems; i++)
		snprintf((*items)[i].id, sizeof((*items)[i].id), "%s", kp->items[i].id);
}

int killer_ids_parse(char *const *ids, size_t nids, struct killer_item **items, size_t *n,
		     struct err *e)
{
	*items = NULL;
	*n = 0;
	for (size_t i = 0; i < nids; i++) {
		struct containerid cid;

		if (containerid_parse(ids[i], &cid, e) < 0 ||
		    (add_item(items, n, ids[i]) < 0 &&
		     err_set(e, ERR_INPUT, 0, "container id '%s' given twice", ids[i]) < 0)) {
			e->kind = ERR_USAGE;
			free(*items);
			*items = NULL;
			*n = 0;
			return -1;
		}
	}
	return 0;
}

void killer_killreport(const struct killer_item *items, size_t n, const char *node, int64_t now_ms,
		       struct killreport *r)
{
	static const enum killreport_result results[] = {
		[KILLER_TERMINATED] = KILLREPORT_TERMINATED,
		[KILLER_KILLED] = KILLREPORT_KILLED,
		[KILLER_GONE] = KILLREPORT_GONE,
		[KILLER_FAILED] = KILLREPORT_FAILED,
	};

	memset(r, 0, sizeof(*r));
	r->node = node ? xstrdup(node) : NULL;
	r->timestamp_ms = now_ms;
	r->items = n ? xcalloc(n, sizeof(*r->items)) : NULL;
	for (size_t i = 0; i < n; i++) {
		const struct killer_item *it = &items[i];
		struct killreport_item *out = &r->items[r->nitems++];

		out->id = xstrdup(it->id);
		/* a pending item cannot be reported: killer_run finishes every one */
		out->result = it->result == KILLER_PENDING ? KILLREPORT_FAILED
							   : results[it->result];
		out->processes = (int64_t)it->processes;
		out->signalled = (it->sent & KILLER_SENT_TERM ? KILLREPORT_SIGTERM : 0) |
				 (it->sent & KILLER_SENT_KILL ? KILLREPORT_SIGKILL : 0);
		out->foreign = it->nforeign ? xcalloc(it->nforeign, sizeof(*out->foreign)) : NULL;
		for (size_t k = 0; k < it->nforeign; k++)
			out->foreign[out->nforeign++] = it->foreign[k];
		out->elapsed_ms = it->elapsed_ms;
		out->error = it->result == KILLER_FAILED ? xstrdup(it->err.msg) : NULL;
	}
}

json_t *killer_report(const struct killer_item *items, size_t n, const char *node, int64_t now_ms)
{
	struct killreport r;
	json_t *doc;

	killer_killreport(items, n, node, now_ms, &r);
	doc = killreport_to_json(&r);
	killreport_release(&r);
	return doc;
}
