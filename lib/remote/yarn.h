/* SPDX-License-Identifier: Apache-2.0 */
/* yarn - the YARN ResourceManager REST client (RMWebServices).
 *
 * The node values it returns and the resize body it sends are in
 * doc/rmnode.h.  Pure here: the classification of a resize answer.  I/O
 * (remote/http, and for the fallback one child process): active-RM
 * discovery in an HA pair, the node list, one node, and the resize, with
 * the rules of yarn-interfaces.md
 * sections 1-3:
 *  - the active RM is the one whose /ws/v1/cluster/info says haState ACTIVE
 *    (no haState: an old single RM); it is remembered and re-discovered when
 *    a call fails;
 *  - no redirect is ever followed (threat-model.md: a resize or the admin
 *    identity never goes to a host not configured): a 307 or 308 (a
 *    standby's Location, or only Refresh when it knows no active RM) or a
 *    200 that is not JSON means "not the active RM": the client drops it,
 *    re-runs discovery over the configured RMs and tries once more
 *    (ERR_TEMP when none is active);
 *  - a write goes only to an RM that said ACTIVE just before;
 *  - a resize always carries overCommitTimeout (the RM defaults a missing
 *    one to 0, "kill at once"); a 200 means accepted, not applied.
 */
#ifndef KILO_YARN_H
#define KILO_YARN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/rmnode.h"
#include "remote/http.h"

#define YARN_PATH_INFO "/ws/v1/cluster/info"
#define YARN_PATH_NODES "/ws/v1/cluster/nodes"
/* The largest RM answer read (10,000 nodes are some 20 MB): past it the
 * cluster counts as unreachable, never parsed whole into memory. */
#define YARN_MAX_BYTES (64L << 20)

/* A YARN cluster as configured.  Strings and arrays are borrowed from the
 * caller's config and must outlive the struct; `active` is the client's
 * memory of the active RM.  Set up with yarn_cluster_init(), then fill the
 * config members. */
struct yarn_cluster {
	const char *id;             /* cluster id, for messages ("default") */
	const char *const *rm_urls; /* RM web bases "http://rm1:8088" (HA: several) */
	size_t n_rm;
	const char *user_name;      /* sent as ?user.name= (simple auth), or NULL */
	struct http_client http;    /* TLS, timeouts, token, trace */
	const char *rmadmin;        /* the `yarn` command for the resize fallback
				      * (path, or a name looked up in PATH), or NULL */
	int64_t rmadmin_timeout_ms; /* 0: 60000 */
	int active;                 /* index into rm_urls of the active RM, -1 unknown */
	int64_t active_started_on;  /* its clusterInfo.startedOn (ms), 0 unknown */
	long error_status;          /* the last HTTP status >= 400 an RM answered in the
				     * last yarn_* call (0: none), for the caller's
				     * reason code: 401/403 refused, 5xx/429 an RM error */
};

/* How a resize was handed over. */
enum yarn_resize_via {
	YARN_VIA_REST,    /* POST /ws/v1/cluster/nodes/{id}/resource answered 200 */
	YARN_VIA_RMADMIN, /* `yarn rmadmin -updateNodeResource` exited 0 */
};

/* Outcome of POST .../resource, from the status and body alone. */
enum yarn_resize_answer {
	YARN_RESIZE_ACCEPTED,     /* 200: queued; reported total in *reported when known */
	YARN_RESIZE_UNKNOWN_NODE, /* 404 with a RemoteException: no such node id */
	YARN_RESIZE_NO_ENDPOINT,  /* 404/405 without a RemoteException: the RM lacks the endpoint */
	YARN_RESIZE_NO_ACTIVE,    /* 307/308 (never followed), or 200 not JSON */
	YARN_RESIZE_FAILED,       /* anything else: e says what */
};

struct yarn_resize_result {
	enum yarn_resize_via via;
	enum yarn_resize_answer answer; /* the RM's last answer (YARN_RESIZE_NO_ACTIVE
					 * also when no RM was reached) */
	int rm;                         /* index of the RM written (REST), or -1 */
	int reported_known;             /* REST: the 200 carried resourceInfo */
	struct yarn_resource reported;  /* its total: Hadoop 3.4 echoes the total
					* asked for, applied or not (the RM applies
					* asynchronously): never proof */
};

/* ---- pure ---- */

/* Classify a resize answer.  For ACCEPTED sets *reported_known and
 * *reported; for every other outcome sets e (UNKNOWN_NODE ERR_NOTFOUND,
 * NO_ENDPOINT ERR_REMOTE, NO_ACTIVE ERR_TEMP, FAILED by status with the
 * RemoteException text when there is one).  what prefixes messages. */
enum yarn_resize_answer yarn_resize_classify(const struct http_response *resp, const char *what,
					     int *reported_known, struct yarn_resource *reported,
					     struct err *e);

/* The output (stdout and stderr) of `yarn rmadmin -updateNodeResource`,
 * fed as it streams: its first YARN_RMADMIN_HEAD bytes, and the first line
 * RMAdminCLI prints for a failure ("updateNodeResource: <message>", each
 * line cut at YARN_RMADMIN_LINE bytes), wherever in the output it comes
 * (after any number of log lines).  NUL bytes count as spaces.  Zero it
 * before the first feed. */
#define YARN_RMADMIN_HEAD 8192
#define YARN_RMADMIN_LINE 1024
struct yarn_rmadmin_out {
	char head[YARN_RMADMIN_HEAD + 1];
	size_t head_len;
	char line[YARN_RMADMIN_LINE + 1]; /* the line being read */
	size_t line_len;
	char reason[YARN_RMADMIN_LINE + 1]; /* "" until seen */
};

void yarn_rmadmin_feed(struct yarn_rmadmin_out *o, const char *buf, size_t n);

/* Why the command failed, into msg (size bytes, NUL-terminated, control
 * characters as spaces): RMAdminCLI's failure line when there was one (its
 * log lines and the stack frames of a remote exception left out), else the
 * lines of the head that are not stack frames ("\tat ...") nor blank,
 * joined by "; ". */
void yarn_rmadmin_why(const struct yarn_rmadmin_out *o, char *msg, size_t size);

/* ---- I/O ---- */

/* Zero c and set active to -1. */
void yarn_cluster_init(struct yarn_cluster *c);

/* Find the active RM: GET /ws/v1/cluster/info on each RM in order, the first
 * with haState ACTIVE (or without haState) wins and is remembered in
 * c->active.  Returns its index, or -1 with e set: ERR_TEMP "cluster <id>:
 * no active RM (<url>: <why>; ...)". */
int yarn_find_active(struct yarn_cluster *c, struct err *e);

/* GET /ws/v1/cluster/nodes (every state) from the active RM, re-discovering
 * it once when the call fails.  Fills *out (release with
 * yarn_nodes_release); an item the RM answered that cannot be read is kept
 * with .bad set (YARN_NODES_KEEP_BAD: it costs only its node).  Returns 0,
 * or -1 with e set (ERR_TEMP when no RM answers or none is active,
 * ERR_INPUT/ERR_REMOTE for an answer that is not a nodes list). */
int yarn_nodes_list(struct yarn_cluster *c, struct yarn_nodes *out, struct err *e);

/* GET /ws/v1/cluster/nodes/{id} (inactive nodes included).  Fills *out
 * (release with yarn_node_release).  Returns 0, or -1 with e set:
 * ERR_NOTFOUND when the RM does not know the id (404 RemoteException),
 * ERR_REMOTE for a malformed id (400), ERR_TEMP as yarn_nodes_list. */
int yarn_node_get(struct yarn_cluster *c, const char *id, struct yarn_node *out, struct err *e);

/* Ask the active RM to set node id's total to `total`, with an explicit
 * overCommitTimeout (ms).  The RM is confirmed ACTIVE by /ws/v1/cluster/info
 * right before the POST; a 307/308 from it is never followed: discovery
 * runs again and the POST goes to the configured RM that says ACTIVE.
 * When the RM lacks the endpoint (404/405 without a RemoteException) and
 * c->rmadmin is set,
 * runs `<rmadmin> rmadmin -updateNodeResource ID MB VCORES TIMEOUT` instead.
 * Returns 0 (accepted: confirm with a later read), or -1 with e set:
 * ERR_NOTFOUND unknown node id, ERR_REMOTE endpoint missing without
 * fallback or rmadmin failed, ERR_TEMP no active RM/unreachable. */
int yarn_node_resize(struct yarn_cluster *c, const char *id, struct yarn_resource total,
		     int64_t over_commit_timeout_ms, struct yarn_resize_result *res, struct err *e);

/* Run `<rmadmin> rmadmin -refreshNodes -g GRACEFUL_S -server`: the RM
 * rereads its include and exclude lists; hosts newly excluded are
 * decommissioned gracefully (DECOMMISSIONING, then DECOMMISSIONED once
 * their containers end or after GRACEFUL_S, tracked by the RM: -server),
 * hosts taken off the list are recommissioned (peers-and-lifecycle.md;
 * hadoop-yarn RMAdminCLI).  Graceful for every newly excluded host, the
 * operator's too, so kilo never decommissions one at once.  Bounded by
 * rmadmin.timeoutMs as the resize fallback.  Returns 0 (exit 0), or -1 with
 * e set: ERR_USAGE no rmadmin configured, ERR_REMOTE its exit status and
 * output, ERR_TEMP timed out, ERR_SYSTEM it could not start. */
int yarn_refresh_nodes(const struct yarn_cluster *c, int64_t graceful_s, struct err *e);

/* Poll yarn_node_get every poll_ms until the node's total equals want or
 * timeout_ms passed.  Returns 1 when it does (node in *out), 0 on timeout
 * (last read in *out), -1 with e set when a read failed. */
int yarn_node_wait_total(struct yarn_cluster *c, const char *id, struct yarn_resource want,
			 int64_t timeout_ms, int64_t poll_ms, struct yarn_node *out, struct err *e);

#endif
