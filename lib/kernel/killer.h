/* SPDX-License-Identifier: Apache-2.0 */
/* killer - end YARN containers by signalling the processes of their cgroups
 * (yarn-copilot kill; DESIGN.md section 6 "Kill"; yarn-interfaces.md 5d).
 *
 * The NM's own sequence is SIGTERM to the container's process group, then
 * SIGKILL after yarn.nodemanager.sleep-delay-before-sigkill.ms (250).  Here
 * every member process of the container is signalled, so children that
 * left the process group are not missed, and all containers are handled
 * at once: SIGTERM to all, one poll loop over all their dirs, SIGKILL to
 * what remains of each container when its grace period ends.  A process
 * is signalled only through a handle that pins it (a pidfd) and only if,
 * once pinned, it is still a member of that container by its own cgroup
 * files: a pid reused by another process cannot be hit.  A read whose
 * processes all exited before they were placed (a fork chain) is no empty
 * read: such a container ends killed only once its dirs read empty, else
 * it fails after the timeout.  Pid 1 and the caller itself are never
 * signalled, and pids come only from the
 * container dirs under the hadoop-yarn cgroup (never from input).
 *
 * A container's processes are its members (kernel/members.h: the
 * NodeManager's hierarchies, every dir below, leader thread inside); the
 * other ids of its dirs, kilo's mirrors included, are reported as foreign
 * and never signalled.  "gone" needs the hadoop-yarn dir to exist in those
 * hierarchies; a run in a pid namespace of its own fails every item (its
 * view of the containers is empty), and so does a container whose
 * pids.current counts tasks none of which is visible.  A container that
 * made more dirs below its own than a walk reads (cgroup_read_tree) is
 * signalled through members_scan(), every process's own cgroup file, and
 * fails even when none is left: it is not proven ended.  The grace period
 * of each container runs from the end of its SIGTERM round.
 *
 * A signalled container exits 143 or 137; MapReduce and Spark count that as
 * a failed attempt (yarn-interfaces.md 5f).  The graceful path is the RM
 * preempting (exit -102) after kilo-sync shrinks the node.
 */
#ifndef KILO_KILLER_H
#define KILO_KILLER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/err.h"
#include "doc/killplan.h"
#include "doc/killreport.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"

/* Defaults: the NM's sleep-delay-before-sigkill.ms, the wait after SIGKILL
 * and the cgroup.procs polling interval, in ms. */
#define KILLER_GRACE_MS 250
#define KILLER_KILL_TIMEOUT_MS 2000
#define KILLER_POLL_MS 10
/* Consecutive empty reads, a poll apart, before a container counts as empty. */
#define KILLER_EMPTY_READS 3

/* The one seam every signal goes through.  Tests replace it with a
 * recorder; the live one is killer_ops_pidfd. */
struct killer_ops {
	/* Pin pid: a handle >= 0, or -1 with errno set (ESRCH: it is gone). */
	int (*pin)(void *arg, pid_t pid);
	/* Send sig to the pinned process: 0, or -1 with errno set. */
	int (*send)(void *arg, int handle, pid_t pid, int sig);
	/* Drop the handle. */
	void (*unpin)(void *arg, int handle);
	void *arg;
	int live; /* signals reach real processes: refused unless the sysroot is "/" */
};

/* pidfd_open(2), pidfd_send_signal(2), close(2).  Live. */
extern const struct killer_ops killer_ops_pidfd;

enum killer_result {
	KILLER_PENDING,    /* not finished (internal) */
	KILLER_TERMINATED, /* ended after SIGTERM */
	KILLER_KILLED,     /* SIGKILL was needed */
	KILLER_GONE,       /* nothing to signal: no dir or no process */
	KILLER_FAILED,     /* err says why */
};

/* KillReport result names: "terminated", "killed", "gone", "failed". */
const char *killer_result_name(enum killer_result r);

/* Signals sent to a container (KillReport "signalled"). */
enum { KILLER_SENT_TERM = 1, KILLER_SENT_KILL = 2 };

/* A member once seen: the process (pid and start time) must end. */
struct killer_seen {
	pid_t pid;
	uint64_t start_ticks;
};

struct killer_item {
	char id[CONTAINERID_MAX + 1]; /* in: a valid container id */
	enum killer_result result;    /* out */
	size_t processes;             /* out: processes found at the start */
	unsigned sent;                /* out: KILLER_SENT_* bits */
	int64_t elapsed_ms;           /* out: from the start until no member was left */
	struct err err;               /* out: when KILLER_FAILED */
	pid_t *foreign;               /* out: ids in its dirs that are no members (a thread's
				       * process elsewhere, a pid only in a mirror): never
				       * signalled */
	size_t nforeign;
	/* internal */
	int empty_reads;
	int64_t term_ms; /* when its SIGTERM round ended, ms from the start */
	int64_t kill_ms; /* when its first SIGKILL round ended, -1 before */
	char *cg;
	struct killer_seen *seen; /* every member seen, to be seen to end */
	size_t nseen;
	size_t nmixed, nmirrored; /* of the last read (members.h) */
	int too_big;              /* the last read: a tree past the walk's limits, scanned */
	size_t nvanished;         /* the last read: processes that exited before placed */
	pid_t mixed;
};

struct killer_opts {
	int64_t grace_ms;        /* SIGTERM -> SIGKILL, >= 0 (0: both at once) */
	int64_t kill_timeout_ms; /* how long to wait for the cgroup to empty after SIGKILL */
	int64_t poll_ms;         /* cgroup.procs polling interval, > 0 */
};

/* End the containers items[0..n) as described at the top, in parallel,
 * with the container dirs found through l and s, and fill each item's out
 * fields.  ops must not be live unless s is live ("/"): with any other
 * sysroot every item with processes fails ("not signalling: sysroot ... is
 * not /") and no signal is sent.  Returns the number of failed items. */
size_t killer_run(const struct cgroup_layout *l, const struct sysroot *s,
		  const struct killer_ops *ops, const struct killer_opts *o,
		  struct killer_item *items, size_t n);

/* 1 (with e set, naming the fix) when the caller runs in a pid namespace
 * other than the host's (/proc/self/status NSpid has several levels): the
 * containers' processes are not visible there.  0 otherwise. */
int killer_own_pidns(const struct sysroot *s, struct err *e);

/* Free the internal state of items (after killer_run). */
void killer_items_release(struct killer_item *items, size_t n);

/* Items for the ids of a KillPlan (doc/killplan.h: valid, each once).
 * *items is a new array of *n items (caller frees; NULL when empty). */
void killer_plan_items(const struct killplan *kp, struct killer_item **items, size_t *n);

/* Items for ids given on the command line (pure), as killer_plan_items():
 * each a valid container id, given once.  Returns 0, or -1 with e set
 * (ERR_USAGE, "invalid container id '...'", "container id '...' given
 * twice") and nothing to signal. */
int killer_ids_parse(char *const *ids, size_t nids, struct killer_item **items, size_t *n,
		     struct err *e);

/* The KillReport (doc/killreport.h) of items after killer_run: metadata
 * from node (may be NULL) and now_ms.  Release *r with killreport_release. */
void killer_killreport(const struct killer_item *items, size_t n, const char *node, int64_t now_ms,
		       struct killreport *r);

/* killreport_to_json() of killer_killreport().  New reference. */
json_t *killer_report(const struct killer_item *items, size_t n, const char *node, int64_t now_ms);

#endif
