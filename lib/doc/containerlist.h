/* SPDX-License-Identifier: Apache-2.0 */
/* containerlist - the ContainerList document (SCHEMAS.md "ContainerList"):
 * what yarn-copilot list writes and qos-cgset, the evictor and yarn-copilot
 * metrics read, as typed values.  run/containerscan builds it from the
 * cgroup dirs and the NodeManager; containerlist_to_json() writes it;
 * containerlist_from_json() reads it back, strictly, for every consumer.
 * Pure.
 *
 * Figures are int64 with CONTAINERLIST_UNKNOWN (-1) for null or absent,
 * each 0..CONTAINERLIST_FIGURE_MAX (2^53: exact in a double, and a sum
 * over thousands of containers stays far from overflow), but the counter
 * usage.cpuNanos 0..INT64_MAX (the cgroup's CPU time: 2^53 ns is 64 CPUs
 * busy for under two days; nothing sums it); flags are 0/1,
 * stale also CONTAINERLIST_UNKNOWN (null: the NodeManager unreachable).
 * Units are in the names: _milli milli-cores, _bytes bytes, _ns ns, _ms
 * ms since the epoch.
 *
 * The derived facts are computed once, here, from the NodeManager's state
 * by the one table (doc/nmstate): phase, live, held.  The flags the
 * document carries (am, starting, stale, terminating) are computed by the
 * producer (containerlist_item_flags) and read back as written.
 */
#ifndef KILO_DOC_CONTAINERLIST_H
#define KILO_DOC_CONTAINERLIST_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/err.h"
#include "core/jsonio.h"
#include "doc/containerid.h"
#include "doc/nmstate.h"

#define CONTAINERLIST_UNKNOWN (-1)
#define CONTAINERLIST_FIGURE_MAX (INT64_C(1) << 53)

struct containerlist_item {
	char id[CONTAINERID_MAX + 1]; /* a valid YARN container id (doc/containerid) */
	struct containerid cid;       /* id, parsed */
	int am;                       /* the AM guess (containerid_is_am), as written */
	char *state;                  /* the NodeManager's ContainerState, NULL: null */
	int listed;                   /* the NodeManager lists it: "phase" is not null */
	char *user;                   /* NULL: null */
	int64_t request_cpu_milli;    /* requests.cpuMilli (vcores * 1000) */
	int64_t request_memory_bytes; /* requests.memoryBytes (MB * 2^20) */
	char *cgroup;                 /* "<hadoop-yarn>/<id>", NULL: no dir (yet) */
	int64_t processes;            /* members and those that exited while read */
	pid_t *pids;                  /* ascending; NULL with npids 0 when none */
	size_t npids;
	int pids_known;        /* 0: "pids" null (its dirs could not be read) */
	int64_t start_ms;      /* startTime: the oldest process's start */
	int64_t cpu_ns;        /* usage.cpuNanos, cumulative */
	int64_t cpu_milli;     /* usage.cpuMilli: the rate since the state's sample */
	int64_t memory_bytes;  /* usage.memoryBytes: anon + unevictable */
	int64_t memory_charge; /* usage.memoryCurrentBytes: the whole charge */
	int starting;          /* no process yet, the NM lists it as not killing/finished */
	int stale;             /* the NM does not list it or lists it finished; UNKNOWN */
	int terminating;       /* the NM is killing it and processes remain */
	/* derived from state (not in the document but as "phase") */
	enum nm_phase phase; /* nm_state_phase(state); NM_PHASE_UNKNOWN when not listed */
	int held;            /* a state that is not finished: the NM still holds it */
	int live;            /* a state in phase starting, running or unknown: its
			      * requests count (qos-cgset sums them) */
};

struct containerlist {
	char *node;             /* metadata.node, NULL when absent */
	char *timestamp;        /* metadata.timestamp (RFC 3339), NULL when absent */
	char *nm_url;           /* nodeManager.url */
	int nm_reachable;       /* nodeManager.reachable; absent: 0 (unknown, never known-good) */
	char *nm_error;         /* nodeManager.error, NULL: null */
	int64_t cgroup_version; /* hadoopYarn.cgroupVersion, 1 or 2 */
	char *driver;           /* hadoopYarn.driver: "cgroupfs" or "systemd" */
	char *yarn_path;        /* hadoopYarn.path */
	int yarn_found;         /* hadoopYarn.found; CONTAINERLIST_UNKNOWN when absent */
	struct containerlist_item *items; /* in id order as written */
	size_t n;
};

/* The producer's flags of it and the derived facts, from what is already
 * set (state, listed, processes) and whether the NodeManager answered
 * (SCHEMAS.md): terminating = phase killing with processes left; stale =
 * not listed or finished (UNKNOWN when not reachable); starting = no process
 * and listed in a phase other than killing or finished (not reachable: no
 * process).  Sets phase, held and live too. */
void containerlist_item_flags(struct containerlist_item *it, int reachable);

/* Phase, held and live from it->state and it->listed. */
void containerlist_item_derive(struct containerlist_item *it);

/* Read a ContainerList (borrowed doc) into *out.  Every member is
 * optional (absent is null), but a member of the wrong type or range is an
 * error: ERR_INPUT, one line naming its path and value
 * ("ContainerList.items[3].requests.cpuMilli: expected an integer
 * 0..9007199254740992, got -5"); an item that is no object, an id that is
 * no YARN container id, one listed twice (containerid_get_unique), a
 * startTime that is no RFC 3339 time, a phase that is none of
 * nm_phase_name's, a pid outside 1..2147483647.  Returns 0, or -1 with *out
 * released.  Reads only the members containerlist_fields names. */
int containerlist_from_json(const json_t *doc, struct containerlist *out, struct err *e);

/* The document, byte for byte what yarn-copilot list writes (key order,
 * nulls; applicationId, attempt, number and epoch from the id).  New
 * reference. */
json_t *containerlist_to_json(const struct containerlist *cl);

/* Free what cl holds and zero it (a zeroed struct is fine). */
void containerlist_release(struct containerlist *cl);

/* ---- ContainerListState: yarn-copilot list --state ------------------------
 * {"apiVersion":"kilo/v1","kind":"ContainerListState","timestampMs":ms,
 *  "cpuNanos":{"<id>":ns,...}}: each container's cumulative CPU time at the
 * previous call, for usage.cpuMilli.  A section of this module, not one of
 * its own: it is the ContainerList's companion, read and written by
 * yarn-copilot list alone, and two functions of it are the whole format. */
struct containerlist_sample {
	char id[CONTAINERID_MAX + 1];
	int64_t cpu_ns;
};

struct containerlist_state {
	int64_t timestamp_ms;                 /* CONTAINERLIST_UNKNOWN when absent */
	struct containerlist_sample *samples; /* sorted by id, each id once */
	size_t n;
};

/* Read a state (borrowed doc; its kind is checked by core/statefile) into
 * *out: timestampMs an integer >= 0, cpuNanos an object of YARN container
 * ids to integers >= 0.  Returns 0, or -1 with e set (ERR_INPUT
 * "ContainerListState.cpuNanos.<id>: expected ..., got ...") and *out
 * released. */
int containerlist_state_from_json(const json_t *doc, struct containerlist_state *out,
				  struct err *e);

/* The document, byte for byte what yarn-copilot list writes.  New reference. */
json_t *containerlist_state_to_json(const struct containerlist_state *st);

/* The sample of container id, or NULL (a binary search). */
const struct containerlist_sample *containerlist_state_find(const struct containerlist_state *st,
							    const char *id);

void containerlist_state_release(struct containerlist_state *st);

/* What containerlist_from_json() reads, for the filtered reader
 * (jsonio_collect): a ContainerList's members, and one item's. */
extern const struct jsonio_filter containerlist_fields[];
extern const struct jsonio_filter containerlist_item_fields[];

/* The item members a consumer of the NodeManager's view reads (id, state,
 * phase, requests, pids, stale: qos-cgset), for a filter that skips the
 * rest (usage, cgroup, user, ...: absent to containerlist_from_json, so
 * unknown).  A member read through it must be in containerlist_item_fields. */
extern const struct jsonio_filter containerlist_item_nm_fields[];

#endif
