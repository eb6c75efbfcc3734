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
#include "doc/policy.h"
#include "doc/resctrlreport.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"
#include "kernel/yarntasks.h"
#include "run/resctrlrun.h"

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

static int yarn_dir_check(const struct cgroup_layout *l, const struct sysroot *s)
{
	return nodecli_yarn_dir_check(l, s, 0, "nothing to move");
}

/* The pass and its report: the exit code. */
static int run(const struct opts *o, const struct policy *p, const struct sysroot *sr)
{
	const struct resctrlrun_opts ro = {
		.mode = o->mode == MODE_TASKS ? RESCTRLREPORT_TASKS : RESCTRLREPORT_NM_PID,
		.nm_pid = o->nm_pid,
		.dry_run = o->dry_run,
		.driver = o->common.driver,
		.hierarchy = o->common.hierarchy,
		.nm_memory = o->common.nm_memory,
		.warn = cli_warn_err,
		.error = cli_print_err,
		.yarn_dir_check = yarn_dir_check,
	};
	struct resctrlreport report;
	json_auto_t *doc = NULL;
	struct err e = { 0 };
	size_t total, failed;
	int code;

	if (resctrlrun(&ro, p, sr, &report, &total, &failed, &e) < 0) {
		cli_print_err(&e);
		code = KILO_EXIT_FAIL;
	} else {
		code = cli_exit_for_items(total, failed);
	}
	doc = resctrlreport_to_json(&report);
	resctrlreport_release(&report);
	if (jsonio_write(stdout, doc, o->common.pretty, &e) < 0) {
		cli_print_err(&e);
		return KILO_EXIT_FAIL;
	}
	return code;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct sysroot sr = { .dirfd = -1 };
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
	code = run(&o, &p, &sr);
	sysroot_release(&sr);
	return cli_finish(code);
}
