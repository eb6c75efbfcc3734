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
#include "decide/resctrlqos.h"
#include "doc/policy.h"
#include "doc/schemata.h"
#include "kernel/cgroup.h"
#include "kernel/members.h"
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
static int parse_args(int argc, char **argv, struct opts *o)
{
	enum { OPT_MODE = NODECLI_OPT_END, OPT_NM_PID, OPT_DRY_RUN };
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
	const char *mode = NULL;
	struct err e = { 0 };
	int64_t pid;
	int c, r;

	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_MODE:
			mode = optarg;
			break;
		case OPT_NM_PID:
			if (cli_parse_i64(optarg, "--nm-pid", 1, INT_MAX, &pid, &e) < 0)
				return cli_usage_error("%s", e.msg);
			o->nm_pid = (pid_t)pid;
			break;
		case OPT_DRY_RUN:
			o->dry_run = 1;
			break;
		default:
			r = nodecli_option(&o->common, &tool, c, optarg);
			if (r != NODECLI_MORE)
				return r;
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (mode && strcmp(mode, "tasks") != 0 && strcmp(mode, "nm-pid") != 0)
		return cli_usage_error("invalid value for --mode: '%s' (expected tasks or nm-pid)",
				       mode);
	o->mode = (mode && strcmp(mode, "tasks") == 0) || (!mode && !o->nm_pid) ? MODE_TASKS
										: MODE_NM_PID;
	if (o->nm_pid && o->mode == MODE_TASKS)
		return cli_usage_error("--nm-pid goes with --mode nm-pid, not --mode tasks");
	return NODECLI_MORE;
}

/* The thread ids to move: the member threads of the hadoop-yarn tree
 * (the others go to *foreign), or the NodeManager's. */
static int yarn_threads(const struct opts *o, const struct sysroot *sr, pid_t **tids, size_t *n,
			pid_t **foreign, size_t *nforeign, struct err *e)
{
	struct cgroup_layout l = { 0 };
	struct members m = { 0 };
	pid_t nm = o->nm_pid;
	int r;

	if (o->mode == MODE_NM_PID) {
		if (!nm && yarntasks_find_nm(sr, &nm, e) < 0)
			return -1;
		return yarntasks_threads(sr, nm, tids, n, e);
	}
	if (cgroup_layout_detect(&l, sr, o->common.driver, o->common.hierarchy, e) < 0)
		return -1;
	l.nm_memory = o->common.nm_memory;
	r = members_read(&l, sr, l.hadoop_yarn, MEMBERS_THREADS, &m, e);
	cgroup_layout_release(&l);
	*tids = m.tids;
	*n = m.ntids;
	*foreign = m.foreign;
	*nforeign = m.nforeign;
	m.tids = m.foreign = NULL;
	members_release(&m);
	if (*nforeign)
		cli_warn("%zu %s in the hadoop-yarn tree %s to processes outside it (thread %ld "
			 "first): not moved",
			 *nforeign, *nforeign == 1 ? "thread" : "threads",
			 *nforeign == 1 ? "belongs" : "belong", (long)(*foreign)[0]);
	if (r == CGROUP_ABSENT) {
		cli_warn("%s: nothing to move", e->msg);
		return 0;
	}
	return r < 0 ? -1 : 0;
}

/* The tasks step.  Returns 1 when it failed, else 0. */
static int assign_tasks(const struct opts *o, const struct sysroot *sr, json_t *report)
{
	const char *mode = o->mode == MODE_TASKS ? "tasks" : "nm-pid";
	const char *group = policy_class_group(POLICY_BE);
	struct resctrl_tasks_result r = { 0 };
	cleanup_free pid_t *tids = NULL;
	pid_t *foreign = NULL;
	struct err e = { 0 };
	size_t n = 0, nforeign = 0;
	int failed;

	if (yarn_threads(o, sr, &tids, &n, &foreign, &nforeign, &e) < 0) {
		r.errors = json_pack("[s]", e.msg);
		cli_print_err(&e);
		failed = 1;
	} else {
		failed = resctrl_tasks_move(sr, group, tids, n, o->dry_run, &r, &e) < 0 || r.failed;
		if (e.kind != ERR_NONE)
			cli_print_err(&e);
		for (size_t i = 0; i < json_array_size(r.errors) && r.failed; i++)
			cli_warn("%s", json_string_value(json_array_get(r.errors, i)));
	}
	r.foreign = foreign; /* resctrl_tasks_move() starts r afresh */
	r.nforeign = nforeign;
	json_object_set_new(report, "tasks", resctrl_tasks_json(mode, group, &r));
	resctrl_tasks_result_release(&r);
	return failed;
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
		json_object_set_new(report, "reason", json_string(r == 0 ? why : e.msg));
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

		if (!p->resctrl[k].enable)
			continue;
		total++;
		if (resctrlqos_plan(&f, &p->resctrl[k], &want, &g.err) < 0) {
			g.result = "failed";
		} else {
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
	code = run(&o, &p, &sr, report);
	sysroot_release(&sr);
	if (jsonio_write(stdout, report, o.common.pretty, &e) < 0) {
		cli_print_err(&e);
		return cli_finish(KILO_EXIT_FAIL);
	}
	return cli_finish(code);
}
