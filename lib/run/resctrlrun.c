// SPDX-License-Identifier: Apache-2.0
/* resctrlrun - one resctrl-assign pass (see resctrlrun.h) */
#include "run/resctrlrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"
#include "decide/resctrlqos.h"
#include "doc/schemata.h"
#include "kernel/members.h"
#include "kernel/procfs.h"
#include "kernel/resctrl.h"
#include "kernel/yarntasks.h"

/* The thread ids to move and what vouches for each just before its write. */
struct yarn_tasks {
	struct cgroup_layout l; /* tasks mode */
	const struct sysroot *sr;
	pid_t nm; /* nm-pid mode */
	pid_t *tids, *foreign;
	size_t n, nforeign;
	char **errors; /* a container whose dirs could not be read: its message */
	size_t nerrors;
	struct members_memo memo; /* the processes re-checked in this pass */
};

/* 1 when thread tid is one to move still (just before its write: it may
 * have exited and its id be another's): a member thread of the hadoop-yarn
 * tree, or the NodeManager's, by its own proc files. */
static int still_yarn(void *arg, pid_t tid)
{
	struct yarn_tasks *y = arg;

	if (y->nm)
		return procfs_tgid(y->sr, tid) == y->nm;
	return members_tid_is_member(&y->l, y->sr, tid, y->l.hadoop_yarn, &y->memo);
}

/* Fill y: the member threads of each container's tree (a container that
 * cannot be read costs only itself: y->errors), the rest of the ids listed
 * there in y->foreign; or the NodeManager's threads.  -1 with e set when
 * none can be had. */
static int yarn_threads(const struct resctrlrun_opts *o, struct yarn_tasks *y, struct err *e)
{
	cleanup_free struct cgroup_container *cts = NULL;
	size_t nct = 0;

	if (o->mode == RESCTRLREPORT_NM_PID) {
		y->nm = o->nm_pid;
		if (!y->nm && yarntasks_find_nm(y->sr, &y->nm, e) < 0)
			return -1;
		if (o->nm_pid && yarntasks_check_nm(y->sr, y->nm, e) < 0) /* gone since */
			return -1;
		return yarntasks_threads(y->sr, y->nm, &y->tids, &y->n, e);
	}
	if (cgroup_layout_detect(&y->l, y->sr, o->driver, o->hierarchy, e) < 0)
		return -1;
	y->l.nm_memory = o->nm_memory;
	if (o->yarn_dir_check(&y->l, y->sr) != 0)
		return err_set(e, ERR_SYSTEM, 0, "tasks: no thread moved");
	if (cgroup_list_containers(&y->l, y->sr, &cts, &nct, e) < 0)
		return -1;
	for (size_t i = 0; i < nct; i++) {
		cleanup_free char *cg = cgroup_container_path(&y->l, cts[i].id);
		struct members m;
		struct err ce = { 0 };

		if (members_read(&y->l, y->sr, cg, MEMBERS_THREADS, &m, &ce) < 0) {
			o->warn(&ce);
			y->errors = xrealloc(y->errors, (y->nerrors + 1) * sizeof(*y->errors));
			y->errors[y->nerrors++] = xstrdup(ce.msg);
		}
		if (m.ntids) {
			y->tids = xrealloc(y->tids, (y->n + m.ntids) * sizeof(*y->tids));
			memcpy(y->tids + y->n, m.tids, m.ntids * sizeof(*m.tids));
			y->n += m.ntids;
		}
		if (m.nforeign) {
			y->foreign =
				xrealloc(y->foreign, (y->nforeign + m.nforeign) * sizeof(pid_t));
			memcpy(y->foreign + y->nforeign, m.foreign, m.nforeign * sizeof(pid_t));
			y->nforeign += m.nforeign;
		}
		members_release(&m);
	}
	if (y->nforeign)
		err_say(o->warn,
			"%zu %s in the hadoop-yarn tree %s to processes outside it (thread %ld "
			"first): not moved",
			y->nforeign, y->nforeign == 1 ? "thread" : "threads",
			y->nforeign == 1 ? "belongs" : "belong", (long)y->foreign[0]);

	return 0;
}

/* Report the kernel's tasks result r, the containers that could not be
 * read (y->errors, failed: the others moved) and the foreign threads. */
static void tasks_report(const struct resctrlrun_opts *o, const char *group,
			 const struct resctrl_tasks_result *r, const struct yarn_tasks *y,
			 struct resctrlreport *report)
{
	struct resctrlreport_tasks *t = &report->tasks;

	report->has_tasks = 1;
	t->mode = o->mode;
	t->group = xstrdup(group);
	t->moved = r->moved;
	t->gone = r->gone;
	t->already = r->already;
	t->failed = r->failed + (long)y->nerrors;
	for (size_t i = 0; i < json_array_size(r->errors); i++)
		resctrlreport_add_task_error(report,
					     json_string_value(json_array_get(r->errors, i)));
	for (size_t i = 0; i < y->nerrors; i++)
		resctrlreport_add_task_error(report, y->errors[i]);
	t->foreign = y->nforeign ? xcalloc(y->nforeign, sizeof(*t->foreign)) : NULL;
	for (size_t i = 0; i < y->nforeign; i++)
		t->foreign[t->nforeign++] = y->foreign[i];
}

/* The tasks step.  Returns 1 when it failed, else 0. */
static int assign_tasks(const struct resctrlrun_opts *o, const struct sysroot *sr,
			struct resctrlreport *report)
{
	const char *group = policy_class_group(POLICY_BE);
	struct resctrl_tasks_result r = { 0 };
	struct yarn_tasks y = { .sr = sr };
	struct err e = { 0 };
	int failed;

	if (yarn_threads(o, &y, &e) < 0) {
		r.errors = json_pack("[s]", e.msg);
		o->error(&e);
		failed = 1;
	} else {
		failed = resctrl_tasks_move(sr, group, y.tids, y.n, still_yarn, &y, o->dry_run, &r,
					    &e) < 0 ||
			 r.failed;
		if (e.kind != ERR_NONE)
			o->error(&e);
		for (size_t i = 0; i < json_array_size(r.errors) && r.failed; i++)
			err_say(o->warn, "%s", json_string_value(json_array_get(r.errors, i)));
		failed |= y.nerrors > 0;
	}
	tasks_report(o, group, &r, &y, report);
	resctrl_tasks_result_release(&r);
	for (size_t i = 0; i < y.nerrors; i++)
		free(y.errors[i]);
	free(y.errors);
	free(y.foreign);
	free(y.tids);
	members_memo_release(&y.memo);
	cgroup_layout_release(&y.l);
	return failed;
}

/* Why a group's MB values are not plainly what the policy says: the value
 * clamped, a percent of an assumed maximum, kilo.mbaBandwidth naming a
 * domain the machine lacks, an absolute value above the root group's (the
 * kernel's maximum by default) or 0. */
static void mb_warn(const struct resctrlrun_opts *o, const char *group,
		    const struct policy_resctrl *r, const struct policy_mba *mba,
		    const struct schemata_facts *f, const struct schemata *want, unsigned how)
{
	const struct schemata_line *root = schemata_find(&f->root, "MB"),
				   *mb = schemata_find(want, "MB");
	int given = mba && (mba->all >= 0 || mba->n);
	char what[64];

	if (given)
		snprintf(what, sizeof(what), "kilo.mbaBandwidth");
	else
		snprintf(what, sizeof(what), "mbaPercent %d", r->mba_percent);
	if (how & RESCTRLQOS_MB_NONE)
		err_say(o->warn,
			"group %s: MB left unchanged: resctrl is mounted with mba_MBps (MiB/s): "
			"mbaPercent %d needs kilo.mbaMaxBandwidth, or give kilo.mbaBandwidth",
			group, r->mba_percent);
	if (how & RESCTRLQOS_MB_RAISED)
		err_say(o->warn,
			"group %s: %s is outside what the kernel takes (info/MB/min_bandwidth %d "
			"..%s): clamped",
			group, what, f->mb_min_bandwidth,
			f->vendor != SCHEMATA_VENDOR_AMD && !f->mb_mbps ? " 100" : "");
	for (size_t i = 0; mba && root && i < mba->n; i++) {
		size_t k = 0;

		while (k < root->n && root->dom[k].id != mba->dom[i].id)
			k++;
		if (k == root->n)
			err_say(o->warn,
				"group %s: kilo.mbaBandwidth names MB domain %u, which this "
				"machine lacks: ignored",
				group, mba->dom[i].id);
	}
	for (size_t i = 0; mb && root && (f->vendor == SCHEMATA_VENDOR_AMD || f->mb_mbps) &&
			   i < mb->n && i < root->n;
	     i++) {
		if (mb->dom[i].value > root->dom[i].value)
			err_say(o->warn,
				"group %s: MB domain %u: %llu is above the root group's %llu (the "
				"kernel's maximum unless changed): it may refuse it",
				group, mb->dom[i].id, (unsigned long long)mb->dom[i].value,
				(unsigned long long)root->dom[i].value);
		else if (mb->dom[i].value == 0)
			err_say(o->warn,
				"group %s: MB domain %u: 0 leaves the group no memory bandwidth",
				group, mb->dom[i].id);
	}
	if (how & RESCTRLQOS_MB_ASSUMED)
		err_say(o->warn,
			"group %s: MB is absolute bandwidth here: mbaPercent %d of each domain's "
			"value in the root group, taken for the maximum (set kilo.mbaMaxBandwidth "
			"or kilo.mbaBandwidth to say otherwise)",
			group, r->mba_percent);
}

static enum resctrlreport_result group_result(const char *result)
{
	static const char *const names[] = { "written", "unchanged", "planned", "failed" };
	int i = 0;

	while (i < 3 && strcmp(result, names[i]) != 0)
		i++;
	return (enum resctrlreport_result)i;
}

int resctrlrun(const struct resctrlrun_opts *o, const struct policy *p, const struct sysroot *sr,
	       struct resctrlreport *report, size_t *total, size_t *failed, struct err *e)
{
	struct schemata_facts f;
	const char *why = NULL, *mb_why;
	int be_ready = 0, r;

	memset(report, 0, sizeof(*report));
	*total = *failed = 0;
	report->dry_run = o->dry_run;
	r = resctrl_detect(sr, &f, &why, e);
	report->supported = r == 1;
	if (r <= 0)
		report->reason = xstrdup(r == 0 ? why : e->msg);
	if (r < 0) {
		schemata_release(&f.root);
		return -1;
	}
	if (r == 0) {
		err_say(o->warn, "%s: nothing to do", why);
		return 0;
	}
	mb_why = resctrlqos_mb_skip_reason(&f);
	if (f.has_mb && mb_why)
		err_say(o->warn, "MB left unchanged: %s", mb_why);
	for (int k = 0; k < POLICY_NCLASSES; k++) {
		const char *name = policy_class_group((enum policy_class)k);
		struct resctrl_group_result g = { 0 };
		struct schemata want = { 0 };
		/* kilo.mbaBandwidth is the BE group's; the maximum is every class's */
		struct policy_mba mba = { .all = -1, .max = p->mba.max };
		unsigned how = 0;

		if (!p->resctrl[k].enable)
			continue;
		(*total)++;
		if (resctrlqos_plan(&f, &p->resctrl[k], k == POLICY_BE ? &p->mba : &mba, &want,
				    &how, &g.err) < 0) {
			g.result = "failed";
		} else {
			mb_warn(o, name, &p->resctrl[k], k == POLICY_BE ? &p->mba : &mba, &f, &want,
				how);
			resctrl_group_apply(sr, name, &want, o->dry_run, &g);
		}
		if (strcmp(g.result, "failed") == 0) {
			(*failed)++;
			err_say(o->error, "group %s: %s", name, g.err.msg);
		} else if (k == POLICY_BE) {
			be_ready = 1;
		}
		resctrlreport_add_group(report, name, g.created, g.old, g.new,
					group_result(g.result),
					strcmp(g.result, "failed") == 0 ? g.err.msg : NULL);
		resctrl_group_result_release(&g);
		schemata_release(&want);
	}
	schemata_release(&f.root);
	/* tasks need the group; a refused schemata write still leaves it usable */
	if (p->resctrl[POLICY_BE].enable && (be_ready || sysroot_is_dir(sr, RESCTRL_ROOT "/BE"))) {
		(*total)++;
		*failed += (size_t)assign_tasks(o, sr, report);
	}
	return 0;
}
