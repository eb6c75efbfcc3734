/* SPDX-License-Identifier: Apache-2.0 */
/* resctrlreport - the ResctrlReport document (SCHEMAS.md "ResctrlReport"):
 * what resctrl-assign did to each resctrl group and to YARN's tasks
 * (run/resctrlrun.h fills it).  Pure.
 *
 *   {"apiVersion","kind","dryRun","supported","reason" (only when not
 *    supported),"groups":[{"name","created","schemata":{"old","new",
 *    "result","error"}}],"tasks":null|{"mode","group","moved","gone",
 *    "already","failed","errors","foreign"}}
 */
#ifndef KILO_RESCTRLREPORT_H
#define KILO_RESCTRLREPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* groups[].schemata.result. */
enum resctrlreport_result {
	RESCTRLREPORT_WRITTEN,
	RESCTRLREPORT_UNCHANGED,
	RESCTRLREPORT_PLANNED, /* a dry run */
	RESCTRLREPORT_FAILED,  /* error says why */
};

/* tasks.mode: every member thread of the hadoop-yarn tree, or the
 * NodeManager's threads. */
enum resctrlreport_mode { RESCTRLREPORT_TASKS, RESCTRLREPORT_NM_PID };

struct resctrlreport_group {
	char *name;  /* the group's dir under /sys/fs/resctrl (LSR, LS, BE), owned */
	int created; /* mkdir made it (in a dry run: would) */
	char *old;   /* schemata lines before, or NULL (no group, unreadable); owned */
	char *new;   /* the lines wanted, or NULL (no plan); owned */
	enum resctrlreport_result result;
	char *error; /* owned; non-NULL exactly when result is failed */
};

struct resctrlreport_tasks {
	enum resctrlreport_mode mode;
	char *group;                          /* owned */
	int64_t moved, gone, already, failed; /* thread counts, >= 0 */
	char **errors;                        /* owned messages */
	size_t nerrors;
	int64_t *foreign; /* thread ids of the tree whose process is no member, owned */
	size_t nforeign;
};

struct resctrlreport {
	int dry_run;
	int supported;                      /* resctrl is mounted and usable */
	char *reason;                       /* why not, when !supported (owned) */
	struct resctrlreport_group *groups; /* owned */
	size_t ngroups;
	int has_tasks; /* 0: "tasks":null (the step did not run) */
	struct resctrlreport_tasks tasks;
};

/* "written", "unchanged", "planned", "failed". */
const char *resctrlreport_result_name(enum resctrlreport_result r);

/* Read a ResctrlReport, every member above, strictly.  Returns 0, or -1
 * with e set (ERR_INPUT, "ResctrlReport.groups[0].schemata.result:
 * expected one of written, unchanged, planned, failed, got ...") and *out
 * empty. */
int resctrlreport_from_json(const json_t *doc, struct resctrlreport *out, struct err *e);

/* The document of r, members in the order above.  New reference. */
json_t *resctrlreport_to_json(const struct resctrlreport *r);

/* Add a group (its strings copied; old, new and error may be NULL); returns it. */
struct resctrlreport_group *resctrlreport_add_group(struct resctrlreport *r, const char *name,
						    int created, const char *old, const char *new,
						    enum resctrlreport_result result,
						    const char *error);

/* Append a copy of msg to r->tasks.errors. */
void resctrlreport_add_task_error(struct resctrlreport *r, const char *msg);

/* Free what r owns and zero it. */
void resctrlreport_release(struct resctrlreport *r);

#endif
