/* SPDX-License-Identifier: Apache-2.0 */
/* killreport - the KillReport document (SCHEMAS.md "KillReport"): how each
 * container of a kill ended, written by `yarn-copilot kill`
 * (kernel/killer.h fills it).  Pure.
 */
#ifndef KILO_KILLREPORT_H
#define KILO_KILLREPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* items[].result (SCHEMAS.md). */
enum killreport_result {
	KILLREPORT_TERMINATED, /* "terminated": ended after SIGTERM */
	KILLREPORT_KILLED,     /* "killed": SIGKILL was needed */
	KILLREPORT_GONE,       /* "gone": no member to signal */
	KILLREPORT_FAILED,     /* "failed": error says why */
};

/* items[].signalled, in this order: bits. */
enum { KILLREPORT_SIGTERM = 1, KILLREPORT_SIGKILL = 2 };

struct killreport_item {
	char *id; /* a valid YARN container id, owned */
	enum killreport_result result;
	int64_t processes;  /* members at the start, >= 0 */
	unsigned signalled; /* KILLREPORT_SIG* bits */
	int64_t *foreign;   /* process ids in its dirs that are no members, owned */
	size_t nforeign;
	int64_t elapsed_ms; /* >= 0 */
	char *error;        /* owned; non-NULL exactly when result is failed */
};

struct killreport {
	char *node;                    /* metadata.node, or NULL (owned) */
	int64_t timestamp_ms;          /* metadata.timestamp, ms since the epoch */
	struct killreport_item *items; /* owned */
	size_t nitems;
};

/* "terminated", "killed", "gone", "failed". */
const char *killreport_result_name(enum killreport_result r);

/* Read a KillReport: metadata.node (a string or absent), metadata.timestamp
 * (RFC 3339 UTC, as jsonio_metadata writes it), items[] with every member
 * above (error a string for a failed item, null otherwise).  Returns 0, or
 * -1 with e set (ERR_INPUT, "KillReport.items[1].result: expected one of
 * terminated, killed, gone, failed, got ...") and *out empty. */
int killreport_from_json(const json_t *doc, struct killreport *out, struct err *e);

/* The KillReport document of r, members in the order above.  New reference. */
json_t *killreport_to_json(const struct killreport *r);

/* Free what r owns and zero it. */
void killreport_release(struct killreport *r);

#endif
