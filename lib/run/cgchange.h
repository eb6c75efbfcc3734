/* SPDX-License-Identifier: Apache-2.0 */
/* cgchange - a plan of cgroup changes, its executor and its CgroupChanges
 * report (SCHEMAS.md).
 *
 * A plan is an ordered list of items, each one file write (or a mkdir or
 * rmdir of a cgroup dir) with the value wanted and why.  Items belong to
 * chains: the steps of one chain depend on each other (create a mirror dir,
 * set its cpuset, then move the pids in), so after a failed item the later
 * items of its chain are not tried and are reported `skipped`.  The
 * executor compares each value with what the file holds now -- numerically,
 * or as a CPU set, or as cpu.max fields -- and writes only what differs
 * (koordlet's "write if different").  Building a plan is pure; only
 * cgchange_apply() touches the tree.
 */
#ifndef KILO_CGCHANGE_H
#define KILO_CGCHANGE_H

#include <jansson.h>
#include <stddef.h>

#include "core/err.h"
#include "doc/cgroupchanges.h"
#include "kernel/cgknob.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"
#include "run/cgcache.h"

/* How a current value is compared with the wanted one. */
enum cgchange_cmp {
	CGCHANGE_INT,    /* decimal integers ("max" only equals "max") */
	CGCHANGE_CPUSET, /* CPU lists, as sets */
	CGCHANGE_CPUMAX, /* v2 cpu.max: "<quota|max> [<period>]", a missing period matches */
	CGCHANGE_TEXT,   /* exact text (cpuset.mems is compared as a set too: use CPUSET) */
	CGCHANGE_ALWAYS, /* never read: always written (a pid into cgroup.procs) */
	CGCHANGE_MKDIR,  /* create the cgroup dir (file NULL) */
	CGCHANGE_RMDIR,  /* remove the cgroup dir (file NULL) */
};

enum cgchange_result {
	CGCHANGE_PENDING,     /* not executed yet */
	CGCHANGE_WRITTEN,     /* the value differed and was written */
	CGCHANGE_UNCHANGED,   /* the file already held the value */
	CGCHANGE_UNSUPPORTED, /* the kernel lacks the file: never fatal */
	CGCHANGE_FAILED,      /* read or write error: error says why */
	CGCHANGE_SKIPPED,     /* an earlier step of the chain failed, or reason says why */
	CGCHANGE_PLANNED,     /* dry run: would be written */
	CGCHANGE_DEFERRED,    /* decided not to write yet (reason says why) */
	CGCHANGE_NRESULTS
};

struct cgchange_item {
	enum cgroup_ctrl ctrl;
	char *cg;   /* cgroup path, "/kubepods/besteffort/hadoop-yarn" */
	char *file; /* "cpu.shares", NULL for a mkdir or rmdir */
	enum cgchange_cmp cmp;
	char *value; /* wanted value; NULL for rmdir */
	char *old;   /* the value found (filled by the executor), or NULL */
	char *reason;
	char *error;
	int chain;
	int unsupported_errno; /* a write error meaning "the kernel lacks this", or 0 */
	int cached;            /* decided from the cache, without a read */
	pid_t *foreign;        /* ids of a container's dirs that are no members, not moved
				* (a mirror's cgroup.procs item; owned, may be NULL) */
	char *member_of;       /* a pid written to cgroup.procs must still be a process of
				* this tree when written (members_pid_is_member), or NULL */
	size_t nforeign;
	enum cgchange_result result;
};

struct cgchange_plan {
	struct cgchange_item *items;
	size_t n, cap;
	int nchains;
};

/* "written", "unchanged", ... as in the report. */
const char *cgchange_result_name(enum cgchange_result r);

/* A new chain number for plan. */
int cgchange_chain(struct cgchange_plan *plan);

/* Append an item (strings copied; value and file may be NULL).  reason is
 * printf-style.  Returns the item, valid until the next append. */
struct cgchange_item *cgchange_add(struct cgchange_plan *plan, int chain, enum cgroup_ctrl ctrl,
				   const char *cg, const char *file, enum cgchange_cmp cmp,
				   const char *value, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* cgchange_add() for knob k of the table (kernel/cgknob.h), a knob of one
 * controller (cgroup.procs goes through cgchange_add()): its controller,
 * its file for the layout's version of it, and the comparison of its kind
 * (integers, lists as sets, cpu.max fields, ids always written).  When that version lacks the knob the item names it by its
 * term and is `unsupported`, its reason ending in " (cgroup v1 has no
 * memory.high)".  value may be NULL. */
struct cgchange_item *cgchange_add_knob(struct cgchange_plan *plan, int chain,
					const struct cgroup_layout *l, enum cgknob k,
					const char *cg, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* Decide an item's result without executing it (skipped, deferred), with a
 * new reason (printf-style; NULL keeps the old one). */
void cgchange_preset(struct cgchange_item *it, enum cgchange_result r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Decide it as failed with error (copied): a read the plan needed failed. */
void cgchange_fail(struct cgchange_item *it, const char *error);

/* 1 when current and wanted are equal under cmp (pure).  A value that does
 * not parse is never equal. */
int cgchange_equal(enum cgchange_cmp cmp, const char *current, const char *wanted);

/* Execute the items from index first on (earlier ones are left as they
 * are): read, compare, write what differs (dry_run: report `planned` and
 * remember the value, so a later item on the same file compares with it).
 * A cgroup dir that does not exist (or a controller not mounted) makes
 * its items `skipped` ("no such cgroup"), not failed: YARN may not have
 * made it yet, or the container ended during the pass.
 * ESRCH on a cgroup.procs write (the process exited) is `skipped`, and a
 * write error equal to the item's unsupported_errno is `unsupported` (with
 * the error): neither is a failure.
 * cache (NULL: none) answers for the files of the dirs entered in it: a
 * value it holds that equals the wanted one is `unchanged` without a read
 * (the reason says how old it is), a file it knows absent is `unsupported`;
 * what is read or written is put into it, a mkdir or rmdir drops the
 * dir's entry, and the cache's state file is withdrawn before the first
 * change (cgcache_withdraw).  Never fails as a whole: every error is in its
 * item. */
void cgchange_apply(struct cgchange_plan *plan, size_t first, const struct cgroup_layout *l,
		    const struct sysroot *s, int dry_run, struct cgcache *cache);

/* Mark it as decided from the cache: " (cached: read N s ago)" is added to
 * its reason. */
void cgchange_note_cached(struct cgchange_item *it, int64_t age_ms);

/* Number of items decided from the cache. */
size_t cgchange_count_cached(const struct cgchange_plan *plan);

/* Number of items with result r. */
size_t cgchange_count(const struct cgchange_plan *plan, enum cgchange_result r);

/* Item it as a CgroupChanges item (doc/cgroupchanges.h), borrowing its
 * strings: valid while it is.  A pending item (never executed) shows as
 * skipped. */
void cgchange_item_view(const struct cgchange_item *it, struct cgroupchanges_item *out);

/* The count of every executed result of plan, zeros included (CgroupChanges
 * summary). */
void cgchange_summary(const struct cgchange_plan *plan, int64_t summary[CGROUPCHANGES_NRESULTS]);

/* Free everything; the plan is empty and reusable afterwards. */
void cgchange_release(struct cgchange_plan *plan);

#endif
