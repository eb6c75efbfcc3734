/* SPDX-License-Identifier: Apache-2.0 */
/* resctrl - the kernel's resctrl filesystem (sys/fs/resctrl) through the
 * sysroot: detection, control groups, their schemata and tasks.
 *
 * The values come from lib/doc/schemata (pure); this module only reads and
 * writes the files, with the kernel's semantics (Documentation/arch/x86/
 * resctrl.rst): a group is a mkdir under the root (ENOSPC when the CLOSIDs
 * are used up); a schemata write names the lines it changes and fails as a
 * whole with EINVAL, the reason then in info/last_cmd_status; a write of one
 * thread id to a group's tasks file moves that thread, ESRCH when it does
 * not exist (it exited, or it lives in another pid namespace).
 */
#ifndef KILO_RESCTRL_H
#define KILO_RESCTRL_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"
#include "doc/schemata.h"
#include "kernel/sysroot.h"

#define RESCTRL_ROOT "sys/fs/resctrl"

/* Read what the kernel tells about resctrl into *f (zeroed first; release
 * f->root with schemata_release()): the vendor from proc/cpuinfo (OTHER when
 * unreadable), for each cache resource of the root schemata (L3, or L3CODE
 * and L3DATA with CDP) info/<name>/cbm_mask (hex), min_cbm_bits and
 * num_closids, and info/MB/min_bandwidth, bandwidth_gran, delay_linear,
 * num_closids, the mba_MBps mount option from proc/self/mounts, and the
 * root schemata.  Returns 1 when resctrl can be used; 0 when it cannot, with
 * *why a static string (no sys/fs/resctrl, not mounted, no L3 or MB
 * allocation); -1 with e set when a file that must be there is unreadable
 * or malformed (ERR_INPUT naming the file). */
int resctrl_detect(const struct sysroot *s, struct schemata_facts *f, const char **why,
		   struct err *e);

/* What resctrl_group_apply() did to one group (ResctrlReport groups[]). */
struct resctrl_group_result {
	int created;        /* mkdir made the group (in a dry run: would) */
	char *old;          /* current values of the lines of want, formatted;
			     * NULL when the group did not exist or was unreadable */
	char *new;          /* want, formatted */
	const char *result; /* "written", "unchanged", "planned" or "failed" */
	struct err err;     /* why, when "failed" */
};

/* Make group name (a directory under RESCTRL_ROOT) hold the values of want:
 * mkdir 0755 when missing, read its schemata, and write each line of want
 * that differs numerically (schemata_line_equal()), one write per line so a
 * refused MB value does not hold back L3.  A refused write carries the
 * kernel's info/last_cmd_status in its message.  With dry_run nothing is
 * created or written.  *r is filled in every case (release it).  Returns 0,
 * or -1 when r->result is "failed". */
int resctrl_group_apply(const struct sysroot *s, const char *name, const struct schemata *want,
			int dry_run, struct resctrl_group_result *r);

/* Free what r holds. */
void resctrl_group_result_release(struct resctrl_group_result *r);

/* What resctrl_tasks_move() did (ResctrlReport tasks). */
struct resctrl_tasks_result {
	long moved;     /* written (in a dry run: would be) */
	long gone;      /* ESRCH: the thread exited */
	long already;   /* listed in the group's tasks file before */
	long failed;    /* other errors */
	json_t *errors; /* array of messages, at most RESCTRL_MAX_ERRORS; new reference */
};

#define RESCTRL_MAX_ERRORS 10

/* Move the thread ids ids[0..n) (any order, duplicates allowed) into group:
 * ids listed in its tasks file are counted as already there; every other
 * id is written alone ("<id>\n"), in ascending order, with one write(2)
 * each on one open file (koordlet resctrl_updater: a failed id must not
 * abort the others, as a comma-separated batch would).  Just before each
 * write still(arg, id) (when not NULL) must say 1: an id read earlier may
 * be another thread's now; one it refuses counts as gone.
 * ESRCH counts as gone.  In a dry run nothing is written and a missing
 * tasks file (a group still to be made) counts as empty.  *r is filled in every case (release it).  Returns
 * 0; -1 with e set when the tasks file cannot be read or written at all, or
 * when every write failed with ESRCH (ERR_SYSTEM, errnum ESRCH: most likely
 * the tool runs in another pid namespace than the tasks, e.g. a pod
 * without hostPID). */
int resctrl_tasks_move(const struct sysroot *s, const char *group, const pid_t *ids, size_t n,
		       int (*still)(void *arg, pid_t id), void *arg, int dry_run,
		       struct resctrl_tasks_result *r, struct err *e);

/* Free what r holds. */
void resctrl_tasks_result_release(struct resctrl_tasks_result *r);

#endif
