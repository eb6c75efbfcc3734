/* SPDX-License-Identifier: Apache-2.0 */
/* nm - the YARN NodeManager REST API, read side (yarn-interfaces.md section 4).
 *
 * The NM lists its containers at GET /ws/v1/node/containers as
 * {"containers":{"container":[{...}]}} (NodeManagerRest.md; ContainerInfo.java).
 * Jersey 1 turns an empty or one-element list into other shapes, and every
 * one of them is seen in the field, so the parser accepts all of:
 *   {"containers":{"container":[...]}}   the documented form (2.x and 3.x keys)
 *   {"containers":{"container":{...}}}   one container, not wrapped in an array
 *   {"containers":{"container":null}}, {"containers":{}}, {"containers":null}, {}
 *                                        no containers
 *   {"container":{...}}                  GET /ws/v1/node/containers/{id}
 * Parsing is pure (nm_parse_containers); nm_fetch_containers is the only code
 * that talks to the NM, through lib/remote/http.
 */
#ifndef KILO_NM_H
#define KILO_NM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/containerlist.h"
#include "doc/nmstate.h"

/* Default NM web address (yarn.nodemanager.webapp.address, port 8042). */
#define NM_DEFAULT_URL "http://127.0.0.1:8042"

/* The largest requests taken (a larger one is a bad field, taken as
 * absent): what a ContainerList can carry once they are bytes and
 * milli-CPU (CONTAINERLIST_FIGURE_MAX, 2^53), 8 PiB and 9e12 vCores, far
 * beyond any NodeManager's. */
#define NM_MEMORY_MB_MAX (CONTAINERLIST_FIGURE_MAX / 1048576)
#define NM_VCORES_MAX (CONTAINERLIST_FIGURE_MAX / 1000)

/* One container as the NM reports it. */
struct nm_container {
	char *id;    /* validated YARN container id */
	char *state; /* NM-internal ContainerState ("RUNNING", "KILLING"...); NULL when absent */
	char *user;  /* NULL when absent */
	int64_t memory_mb; /* totalMemoryNeededMB (YARN MB = MiB), 0..NM_MEMORY_MB_MAX; -1 when absent */
	int64_t vcores;    /* totalVCoresNeeded, 0..NM_VCORES_MAX; -1 when absent */
	int64_t exit_code; /* exitCode; -1000 (ContainerExitStatus.INVALID) while running or absent */
};

struct nm_containers {
	struct nm_container *items; /* sorted by id, each id once */
	size_t n;
	size_t ignored;      /* entries skipped: no object, or an id that is no container id */
	size_t bad_fields;   /* fields of a kept entry of the wrong type, taken as absent */
	size_t duplicates;   /* entries dropped because their id came before */
	char *first_problem; /* the first of those, one line ("<path>: expected ...") */
};

/* Fill *out from a parsed NM payload doc (any shape listed above; borrowed).
 * Bad data costs only what it belongs to (it is counted, the first one kept
 * in out->first_problem for a warning): an entry that is no object or whose
 * id is not a valid container id is skipped (ignored); a field of the wrong
 * type is taken as absent (bad_fields: "2Gi" for totalMemoryNeededMB makes
 * that container's requests unknown, not the whole NM unreachable); of an
 * id listed twice the entry not finished is kept (so a running container is
 * never taken for one the NM is done with), else the first (duplicates).
 * Returns 0, or -1 with e set (ERR_INPUT, "<path>: expected ..., got ...")
 * for a payload of another shape: no "containers" member, a member the
 * containers object does not have ({"containerz":[...]}), both the list and
 * the one-container form; *out is then empty.  Free with
 * nm_containers_release(). */
int nm_parse_containers(const json_t *doc, struct nm_containers *out, struct err *e);

/* Free what *c holds and zero it.  Safe on a zeroed struct. */
void nm_containers_release(struct nm_containers *c);

/* The container with this id, or NULL (binary search; borrowed). */
const struct nm_container *nm_containers_find(const struct nm_containers *c, const char *id);

/* The phases of the NodeManager's states: doc/nmstate.h. */

/* The containers of c in phase running or killing: those whose processes
 * the cgroup tree must show. */
size_t nm_containers_live(const struct nm_containers *c);

/* The default cap on a NodeManager's containers answer (--nm-max-bytes):
 * ~20,000 containers of ~800 bytes, far above what one node runs. */
#define NM_MAX_BYTES (16L << 20)
/* Containers an answer may list: a node runs hundreds at once, and the
 * NodeManager keeps finished ones for minutes (duration-to-track-stopped-
 * containers); an answer of more (tens of bytes an item make 450k in 16 MiB,
 * each an item of the ContainerList) is no NodeManager's. */
#define NM_MAX_CONTAINERS 10000

/* GET <url>/ws/v1/node/containers with a total timeout of timeout_ms and
 * parse it into *out; a body over max_bytes (0: NM_MAX_BYTES) is not read
 * further.  Returns 0, or -1 with e set: ERR_TEMP when the NM is
 * unreachable, times out or answers 5xx; ERR_REMOTE for another non-200
 * status or a body over the cap; ERR_INPUT when the body is not such a
 * payload ({} and other documents without "containers" included). */
int nm_fetch_containers(const char *url, long timeout_ms, int64_t max_bytes,
			struct nm_containers *out, struct err *e);

/* GET <url>/ws/v1/node/info (at most 1 MiB): 0 when the NM answers 200
 * with a JSON {"nodeInfo":{...}}; *id receives its NodeId ("host:port", new
 * string, NULL when absent).  Errors as nm_fetch_containers(). */
int nm_fetch_info(const char *url, long timeout_ms, char **id, struct err *e);

#endif
