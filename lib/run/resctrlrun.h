/* SPDX-License-Identifier: Apache-2.0 */
/* resctrlrun - one resctrl-assign pass (resctrl-assign(1)): detect resctrl
 * (kernel/resctrl), give each enabled class's group the schemata the
 * policy asks for (decide/resctrlqos), then move YARN's threads into the BE
 * group (kernel/yarntasks, kernel/members), and fill a ResctrlReport
 * (doc/resctrlreport.h).
 */
#ifndef KILO_RESCTRLRUN_H
#define KILO_RESCTRLRUN_H

#include <stddef.h>
#include <sys/types.h>

#include "core/err.h"
#include "doc/policy.h"
#include "doc/resctrlreport.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"

struct resctrlrun_opts {
	enum resctrlreport_mode mode; /* how YARN's threads are found */
	pid_t nm_pid;              /* nm-pid mode: the NodeManager, 0: found by its command line */
	int dry_run;               /* compute and report, write nothing */
	enum cgroup_driver driver; /* tasks mode: the layout, as nodecli_open_node */
	const char *hierarchy;
	int nm_memory;
	/* The operator's lines (err_say_fn), called in the pass's order: a
	 * warning, and a failed step's error; the pass goes on either way. */
	err_say_fn *warn, *error;
	/* Tasks mode: 0 when the hadoop-yarn dir of l is there to read, else
	 * nonzero (the tasks step fails: "tasks: no thread moved"); it says
	 * why itself.  The node tools' rule (cli/nodecli.h). */
	int (*yarn_dir_check)(const struct cgroup_layout *l, const struct sysroot *s);
};

/* One pass through sr with policy p, filling *report (release it with
 * resctrlreport_release, on every return).  *total counts the steps tried
 * (each enabled group, and the tasks step when the BE group is there),
 * *failed those that failed.  Without resctrl (not mounted, no L3 or MB):
 * supported false with the reason, a warning "<reason>: nothing to do", 0
 * steps.  Returns 0, or -1 with e set when resctrl could not be read
 * (report supported false, reason e's message). */
int resctrlrun(const struct resctrlrun_opts *o, const struct policy *p, const struct sysroot *sr,
	       struct resctrlreport *report, size_t *total, size_t *failed, struct err *e);

#endif
