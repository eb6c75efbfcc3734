/* SPDX-License-Identifier: Apache-2.0 */
/* copilot - the passes of yarn-copilot (yarn-copilot(1)): list and metrics
 * gather the container dirs (run/containerscan) and the NodeManager's view
 * (remote/nm); kill ends containers (kernel/killer); health asks the
 * NodeManager.  cmd/yarn-copilot's main wires options, stdin, stdout and
 * --state and chooses the exit code; a pass never prints: its warnings go
 * to the caller's warn, one line each, in the pass's order.
 */
#ifndef KILO_COPILOT_H
#define KILO_COPILOT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/promtext.h"
#include "kernel/cgroup.h"
#include "kernel/killer.h"
#include "kernel/sysroot.h"
#include "remote/nm.h"
#include "run/containerscan.h"

struct copilot_opts {
	const char *nm_url;       /* the NodeManager's web address, userinfo and all */
	const char *nm_url_shown; /* without userinfo: for messages and the ContainerList */
	int64_t nm_timeout_ms;    /* per request, > 0 */
	int64_t nm_max_bytes;     /* largest answer read */
	int no_nm;                /* do not ask the NodeManager */
	/* One warning line for the operator: e's message (without the
	 * "<prog>: warning: "), as nodeusage_sample's warn */
	err_say_fn *warn;
};

/* What list and metrics read: the cgroup scan and the NodeManager's view
 * of it (nm.containers is c; nm.error points into nm_err or is a literal). */
struct copilot_scan {
	struct containerscan cl;
	struct nm_containers c;
	struct containerscan_nm nm;
	struct err nm_err;
};

/* Scan the container dirs of l in s (containerscan_collect: a warning
 * "N cgroup reads failed, their values are null; first: ..." when some
 * failed), then ask the NodeManager for its containers unless o->no_nm
 * (nm.error "not asked (--no-nm)").  An NM that cannot be asked is
 * nm.reachable 0 and a warning "NodeManager '<shown>': <why>; listing
 * from cgroups alone"; entries it gave that were skipped a warning that
 * counts them.  Returns 0, or -1 with e set when the walk fails (the NM is
 * not asked).  Release *g with copilot_scan_release() on every return. */
int copilot_gather(const struct copilot_opts *o, const struct cgroup_layout *l,
		   const struct sysroot *s, struct copilot_scan *g, struct err *e);

/* The NodeManager's live containers (running, killing) in g, 0 when it was
 * not reachable: for nodecli_yarn_dir_check(). */
size_t copilot_scan_live(const struct copilot_scan *g);

/* Free what g holds and zero it. */
void copilot_scan_release(struct copilot_scan *g);

/* The metrics of g (containerscan_list with no previous state, at now_ms,
 * then containermetrics_text) added to p; node may be NULL. */
void copilot_metrics(const struct copilot_scan *g, const struct cgroup_layout *l, const char *node,
		     int64_t now_ms, struct promtext *p);

/* The items of the KillPlan doc (doc/killplan.h, strict): *items a new
 * array of *n (caller frees), and *grace_ms the plan's gracePeriodMs when
 * it gives one (the plan's wins over --grace-period).  Returns 0, or -1
 * with e set (the field path) and nothing allocated. */
int copilot_kill_plan(const json_t *doc, struct killer_item **items, size_t *n, int64_t *grace_ms,
		      struct err *e);

/* End items[0..n) with killer_run through the pidfd ops (kernel/killer.h)
 * and ko: a warning first when s is not live ("sysroot '<prefix>' is not
 * /: no signal will be sent"), then one per failed item (its message) and
 * one per item whose dirs held processes that are no members (never
 * signalled).  Returns the number of failed items. */
size_t copilot_kill(const struct copilot_opts *o, const struct cgroup_layout *l,
		    const struct sysroot *s, const struct killer_opts *ko,
		    struct killer_item *items, size_t n);

/* What health learns from the NodeManager. */
struct copilot_health {
	size_t live;  /* its live containers, when asked for them (else 0) */
	int nm_ok;    /* it answered its info, or was not to be asked (no_nm) */
	char *id;     /* its node id (NULL: unknown or not asked) */
	struct err e; /* why not, when !nm_ok */
};

/* Ask the NodeManager (unless o->no_nm) for its live containers when
 * ask_live (health's rule: only where the hadoop-yarn dir is absent, so
 * that a running NM makes an absent dir a wrong layout), then for its info
 * (nm_fetch_info).  Release *h with copilot_health_release(). */
void copilot_health(const struct copilot_opts *o, int ask_live, struct copilot_health *h);

void copilot_health_release(struct copilot_health *h);

#endif
