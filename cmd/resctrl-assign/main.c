// SPDX-License-Identifier: Apache-2.0
/* resctrl-assign - LLC and memory-bandwidth isolation for YARN tasks */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/nodecli.h"
#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "decide/resctrlqos.h"
#include "doc/policy.h"
#include "doc/schemata.h"
#include "kernel/cgroup.h"
#include "kernel/members.h"
#include "kernel/procfs.h"
#include "kernel/resctrl.h"
#include "kernel/sysroot.h"
#include "kernel/yarntasks.h"

enum mode { MODE_TASKS, MODE_NM_PID };

struct opts {
	struct nodecli_opts common; /* --policy, --sysroot, --hierarchy, --cgroup-driver, --pretty */
	enum mode mode;
	pid_t nm_pid; /* 0: find it */
	int dry_run;
};

static void usage(void)
{
	fputs("Usage:\n"
	      " resctrl-assign [options]\n"
	      "\n"
	      "Create resctrl groups from the node policy, write their L3 and MB schemata\n"
	      "and move YARN's threads into the BE group.\n"
	      "\n"
	      "Options:\n"
	      "     --policy <file>          NodeSLO object or spec, YAML or JSON\n"
	      "     --mode <tasks|nm-pid>    how YARN tasks join BE: every thread of the\n"
	      "                                hadoop-yarn cgroup tree, or the NodeManager's\n"
	      "                                threads (default tasks)\n"
	      "     --nm-pid <pid>           the NodeManager's pid (implies --mode nm-pid;\n"
	      "                                default: found by its command line)\n"
	      "     --cgroup-driver <name>   auto, cgroupfs or systemd (default auto)\n"
	      "     --hierarchy <path>       the hadoop-yarn cgroup, relative to the mount\n"
	      "     --nm-memory-cgroups      the NodeManager makes memory cgroups (v1)\n"
	      "     --sysroot <dir>          root for /sys and /proc (default /)\n"
	      "     --dry-run                compute and report, write nothing\n"
	      "     --pretty                 indented JSON\n"
	      " -h, --help                   display this help\n"
	      " -V, --version                display version\n"
	      "\n"
	      "Output: a ResctrlReport document.\n"
	      "\n"
	      "For more details see resctrl-assign(1).\n",
	      stdout);
}

/* NODECLI_MORE to go on, else the exit code (after printing). */
enum { OPT_MODE = NODECLI_OPT_END, OPT_NM_PID, OPT_DRY_RUN };

struct parse_ctx {
	struct opts *o;
	const char *mode;
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct parse_ctx *x = ctx;
	struct err e = { 0 };
	int64_t pid;

	switch (c) {
	case OPT_MODE:
		x->mode = arg;
		break;
	case OPT_NM_PID:
		if (cli_parse_i64(arg, "--nm-pid", 1, INT_MAX, &pid, &e) < 0)
			return cli_usage_error("%s", e.msg);
		x->o->nm_pid = (pid_t)pid;
		break;
	case OPT_DRY_RUN:
		x->o->dry_run = 1;
		break;
	default:
		return NODECLI_PASS;
	}
	return NODECLI_MORE;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		NODECLI_OPTION_POLICY,
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "nm-pid", required_argument, NULL, OPT_NM_PID },
		NODECLI_OPTION_DRIVER,
		NODECLI_OPTION_HIERARCHY,
		NODECLI_OPTION_NM_MEMORY,
		NODECLI_OPTION_SYSROOT,
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		NODECLI_OPTION_PRETTY,
		NODECLI_OPTIONS_END,
	};
	static const struct nodecli_tool tool = { .usage = usage,
						  .features = "+resctrl +cgroup1 +cgroup2 +yaml" };
	struct parse_ctx x = { .o = o };
	const char *mode;
	int r = nodecli_parse(argc, argv, longopts, &o->common, &tool, own_option, &x, 0);

	if (r != NODECLI_MORE)
		return r;
	mode = x.mode;
	if (mode && strcmp(mode, "tasks") != 0 && strcmp(mode, "nm-pid") != 0)
		return cli_usage_error("invalid value for --mode: '%s' (expected tasks or nm-pid)",
				       mode);
	o->mode = (mode && strcmp(mode, "tasks") == 0) || (!mode && !o->nm_pid) ? MODE_TASKS
										: MODE_NM_PID;
	if (o->nm_pid && o->mode == MODE_TASKS)
		return cli_usage_error("--nm-pid goes with --mode nm-pid, not --mode tasks");
	return NODECLI_MORE;
}

/* The thread ids to move and what vouches for each just before its write. */
struct yarn_tasks {
	struct cgroup_layout l; /* tasks mode */
	const struct sysroot *sr;
	pid_t nm; /* nm-pid mode */
	pid_t *tids, *foreign;
	size_t n, nforeign;
	json_t *errors; /* a container whose dirs could not be read: its message */
};

/* 1 when thread tid is one to move still (just before its write: it may
 * have exited and its id be another's): a member thread of the hadoop-yarn
 * tree, or the NodeManager's, by its own proc files. */
static int still_yarn(void *arg, pid_t tid)
{
	const struct yarn_tasks *y = arg;

	if (y->nm)
		return procfs_tgid(y->sr, tid) == y->nm;
	return members_tid_is_member(&y->l, y->sr, tid, y->l.hadoop_yarn);
}

/* Fill y: the member threads of each container's tree (a container that
 * cannot be read costs only itself: y->errors), the rest of the ids listed
 * there in y->foreign; or the NodeManager's threads.  -1 with e set when
 * none can be had. */
static int yarn_threads(const struct opts *o, struct yarn_tasks *y, struct err *e)
{
	cleanup_free struct cgroup_container *cts = NULL;
	size_t nct = 0;

	y->errors = json_array();
	if (o->mode == MODE_NM_PID) {
		y->nm = o->nm_pid;
		if (!y->nm && yarntasks_find_nm(y->sr, &y->nm, e) < 0)
			return -1;
		if (o->nm_pid && yarntasks_check_nm(y->sr, y->nm, e) < 0) /* gone since */
			return -1;
		return yarntasks_threads(y->sr, y->nm, &y->tids, &y->n, e);
	}
	if (cgroup_layout_detect(&y->l, y->sr, o->common.driver, o->common.hierarchy, e) < 0)
		return -1;
	y->l.nm_memory = o->common.nm_memory;
	if (nodecli_yarn_dir_check(&y->l, y->sr, 0, "nothing to move") != 0)
		return err_set(e, ERR_SYSTEM, 0, "tasks: no thread moved");
	if (cgroup_list_containers(&y->l, y->sr, &cts, &nct, e) < 0)
		return -1;
	for (size_t i = 0; i < nct; i++) {
		cleanup_free char *cg = cgroup_container_path(&y->l, cts[i].id);
		struct members m;
		struct err ce = { 0 };

		if (members_read(&y->l, y->sr, cg, MEMBERS_THREADS, &m, &ce) < 0) {
			cli_warn("%s", ce.msg);
			json_array_append_new(y->errors, jsonio_string(ce.msg));
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
		cli_warn("%zu %s in the hadoop-yarn tree %s to processes outside it (thread %ld "
			 "first): not moved",
			 y->nforeign, y->nforeign == 1 ? "thread" : "threads",
			 y->nforeign == 1 ? "belongs" : "belong", (long)y->foreign[0]);

	return 0;
}

/* The tasks step.  Returns 1 when it failed, else 0. */
static int assign_tasks(const struct opts *o, const struct sysroot *sr, json_t *report)
{
	const char *mode = o->mode == MODE_TASKS ? "tasks" : "nm-pid";
	const char *group = policy_class_group(POLICY_BE);
	struct resctrl_tasks_result r = { 0 };
	struct yarn_tasks y = { .sr = sr };
	struct err e = { 0 };
	int failed;

	if (yarn_threads(o, &y, &e) < 0) {
		r.errors = json_pack("[s]", e.msg);
		cli_print_err(&e);
		failed = 1;
	} else {
		failed = resctrl_tasks_move(sr, group, y.tids, y.n, still_yarn, &y, o->dry_run, &r,
					    &e) < 0 ||
			 r.failed;
		if (e.kind != ERR_NONE)
			cli_print_err(&e);
		for (size_t i = 0; i < json_array_size(r.errors) && r.failed; i++)
			cli_warn("%s", json_string_value(json_array_get(r.errors, i)));
		/* the containers that could not be read: failed, the others moved */
		r.failed += (long)json_array_size(y.errors);
		failed |= json_array_size(y.errors) > 0;
		json_array_extend(r.errors, y.errors);
	}
	r.foreign = y.foreign; /* resctrl_tasks_move() starts r afresh */
	r.nforeign = y.nforeign;
	json_object_set_new(report, "tasks", resctrl_tasks_json(mode, group, &r));
	resctrl_tasks_result_release(&r);
	json_decref(y.errors);
	free(y.tids);
	cgroup_layout_release(&y.l);
	return failed;
}

/* Why a group's MB values are not plainly what the policy says: the value
 * clamped, a percent of an assumed maximum, kilo.mbaBandwidth naming a
 * domain the machine lacks, an absolute value above the root group's (the
 * kernel's maximum by default) or 0. */
static void mb_warn(const char *group, const struct policy_resctrl *r, const struct policy_mba *mba,
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
		cli_warn("group %s: MB left unchanged: resctrl is mounted with mba_MBps (MiB/s): "
			 "mbaPercent %d needs kilo.mbaMaxBandwidth, or give kilo.mbaBandwidth",
			 group, r->mba_percent);
	if (how & RESCTRLQOS_MB_RAISED)
		cli_warn("group %s: %s is outside what the kernel takes (info/MB/min_bandwidth %d "
			 "..%s): clamped",
			 group, what, f->mb_min_bandwidth,
			 f->vendor != SCHEMATA_VENDOR_AMD && !f->mb_mbps ? " 100" : "");
	for (size_t i = 0; mba && root && i < mba->n; i++) {
		size_t k = 0;

		while (k < root->n && root->dom[k].id != mba->dom[i].id)
			k++;
		if (k == root->n)
			cli_warn("group %s: kilo.mbaBandwidth names MB domain %u, which this "
				 "machine lacks: ignored",
				 group, mba->dom[i].id);
	}
	for (size_t i = 0; mb && root && (f->vendor == SCHEMATA_VENDOR_AMD || f->mb_mbps) &&
			   i < mb->n && i < root->n;
	     i++) {
		if (mb->dom[i].value > root->dom[i].value)
			cli_warn("group %s: MB domain %u: %llu is above the root group's %llu (the "
				 "kernel's maximum unless changed): it may refuse it",
				 group, mb->dom[i].id, (unsigned long long)mb->dom[i].value,
				 (unsigned long long)root->dom[i].value);
		else if (mb->dom[i].value == 0)
			cli_warn("group %s: MB domain %u: 0 leaves the group no memory bandwidth",
				 group, mb->dom[i].id);
	}
	if (how & RESCTRLQOS_MB_ASSUMED)
		cli_warn("group %s: MB is absolute bandwidth here: mbaPercent %d of each domain's "
			 "value in the root group, taken for the maximum (set kilo.mbaMaxBandwidth "
			 "or kilo.mbaBandwidth to say otherwise)",
			 group, r->mba_percent);
}

static int run(const struct opts *o, const struct policy *p, const struct sysroot *sr,
	       json_t *report)
{
	struct schemata_facts f;
	json_t *groups = json_array();
	const char *why = NULL, *mb_why;
	size_t total = 0, failed = 0;
	struct err e = { 0 };
	int be_ready = 0, r;

	json_object_set_new(report, "dryRun", json_boolean(o->dry_run));
	r = resctrl_detect(sr, &f, &why, &e);
	json_object_set_new(report, "supported", json_boolean(r == 1));
	if (r <= 0)
		json_object_set_new(report, "reason", jsonio_string(r == 0 ? why : e.msg));
	json_object_set_new(report, "groups", groups);
	json_object_set_new(report, "tasks", json_null());
	if (r < 0) {
		schemata_release(&f.root);
		cli_print_err(&e);
		return KILO_EXIT_FAIL;
	}
	if (r == 0) {
		cli_warn("%s: nothing to do", why);
		return KILO_EXIT_OK;
	}
	mb_why = resctrlqos_mb_skip_reason(&f);
	if (f.has_mb && mb_why)
		cli_warn("MB left unchanged: %s", mb_why);
	for (int k = 0; k < POLICY_NCLASSES; k++) {
		const char *name = policy_class_group((enum policy_class)k);
		struct resctrl_group_result g = { 0 };
		struct schemata want = { 0 };
		/* kilo.mbaBandwidth is the BE group's; the maximum is every class's */
		struct policy_mba mba = { .all = -1, .max = p->mba.max };
		unsigned how = 0;

		if (!p->resctrl[k].enable)
			continue;
		total++;
		if (resctrlqos_plan(&f, &p->resctrl[k], k == POLICY_BE ? &p->mba : &mba, &want,
				    &how, &g.err) < 0) {
			g.result = "failed";
		} else {
			mb_warn(name, &p->resctrl[k], k == POLICY_BE ? &p->mba : &mba, &f, &want,
				how);
			resctrl_group_apply(sr, name, &want, o->dry_run, &g);
		}
		if (strcmp(g.result, "failed") == 0) {
			failed++;
			cli_error("group %s: %s", name, g.err.msg);
		} else if (k == POLICY_BE) {
			be_ready = 1;
		}
		json_array_append_new(groups, resctrl_group_json(name, &g));
		resctrl_group_result_release(&g);
		schemata_release(&want);
	}
	schemata_release(&f.root);
	/* tasks need the group; a refused schemata write still leaves it usable */
	if (p->resctrl[POLICY_BE].enable && (be_ready || sysroot_is_dir(sr, RESCTRL_ROOT "/BE"))) {
		total++;
		failed += (size_t)assign_tasks(o, sr, report);
	}
	return cli_exit_for_items(total, failed);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct sysroot sr = { .dirfd = -1 };
	json_auto_t *report = jsonio_new_doc("ResctrlReport");
	struct policy p;
	struct err e = { 0 };
	int code;

	cli_init("resctrl-assign");
	argv[0] = (char *)cli_prog(); /* getopt names the tool in its messages */
	code = parse_args(argc, argv, &o);
	if (code != NODECLI_MORE)
		return cli_finish(code);
	if (nodecli_policy_load(&o.common, &p, &e) < 0) {
		cli_print_err(&e);
		return cli_finish(err_exit_code(&e));
	}
	if (sysroot_open(&sr, o.common.sysroot, &e) < 0) {
		cli_print_err(&e);
		return cli_finish(err_exit_code(&e));
	}
	/* a pid given that is no NodeManager: nothing written (its threads
	 * would go into BE; pid 1's are every service's parent) */
	if (o.nm_pid && yarntasks_check_nm(&sr, o.nm_pid, &e) < 0 &&
	    (e.kind == ERR_USAGE || e.kind == ERR_NOTFOUND)) {
		sysroot_release(&sr);
		cli_print_err(&e);
		return cli_finish(KILO_EXIT_USAGE);
	}
	code = run(&o, &p, &sr, report);
	sysroot_release(&sr);
	if (jsonio_write(stdout, report, o.common.pretty, &e) < 0) {
		cli_print_err(&e);
		return cli_finish(KILO_EXIT_FAIL);
	}
	return cli_finish(code);
}
