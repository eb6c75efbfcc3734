// SPDX-License-Identifier: Apache-2.0
/* node-usage - sample node, kube QoS-class and hadoop-yarn CPU and memory
 * usage from /proc and the cgroups; print one NodeUsage document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/nodecli.h"
#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/statefile.h"
#include "core/xalloc.h"
#include "decide/usagerates.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"
#include "run/nodeusage_sample.h"

enum { OPT_INTERVAL = NODECLI_OPT_END };

struct opts {
	struct nodecli_opts
		common; /* --sysroot, --cgroup-driver, --hierarchy, --state, --node, --pretty */
	int64_t interval_ms;
	int interval_given;
};

static void usage(void)
{
	fputs("Usage:\n"
	      " node-usage [options]\n"
	      "\n"
	      "Sample node, QoS-class and hadoop-yarn CPU and memory usage from /proc and cgroups.\n"
	      "\n"
	      "Options:\n"
	      "     --sysroot <dir>          root for /sys and /proc (default /)\n"
	      "     --cgroup-driver <name>   kubelet cgroup driver: auto, cgroupfs, systemd\n"
	      "                                (default auto)\n"
	      "     --hierarchy <path>       the hadoop-yarn cgroup, relative to the mount\n"
	      "                                (default <besteffort>/hadoop-yarn)\n"
	      "     --nm-memory-cgroups      the NodeManager makes memory cgroups (v1; taken\n"
	      "                                for the other node tools, no effect here)\n"
	      "     --interval <ms>          sleep between the two CPU samples (default 1000)\n"
	      "     --state <file>           take CPU rates against the sample kept in <file>\n"
	      "                                instead of sleeping, and keep this one there\n"
	      "     --node <name>            node name in metadata (default $NODE_NAME, else\n"
	      "                                the host name)\n"
	      "     --pretty                 indented JSON\n"
	      " -h, --help                   display this help\n"
	      " -V, --version                display version\n"
	      "\n"
	      "Output: one NodeUsage document (kilo/v1) on stdout.\n"
	      "\n"
	      "For more details see node-usage(1).\n",
	      stdout);
}

/* Returns NODECLI_MORE to go on, else the exit code. */
static int own_option(void *ctx, int c, const char *arg)
{
	struct opts *o = ctx;
	struct err e = { 0 };

	switch (c) {
	case NODECLI_HIERARCHY: {
		struct cgroup_layout check = { 0 };
		int bad = cgroup_layout_set_kube(&check, CGROUP_DRIVER_CGROUPFS, arg, &e);

		cgroup_layout_release(&check);
		if (bad < 0)
			return cli_usage_error("%s", e.msg);
		o->common.hierarchy = arg;
		break;
	}
	case OPT_INTERVAL:
		if (cli_parse_i64(arg, "--interval", 1, 3600000, &o->interval_ms, &e) < 0)
			return cli_usage_error("%s", e.msg);
		o->interval_given = 1;
		break;
	default:
		return NODECLI_PASS;
	}
	return NODECLI_MORE;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		NODECLI_OPTION_SYSROOT,
		NODECLI_OPTION_DRIVER,
		NODECLI_OPTION_HIERARCHY,
		NODECLI_OPTION_NM_MEMORY,
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		NODECLI_OPTION_STATE,
		NODECLI_OPTION_NODE,
		NODECLI_OPTION_PRETTY,
		NODECLI_OPTIONS_END,
	};
	static const struct nodecli_tool tool = { .usage = usage, .features = "+cgroup1 +cgroup2" };
	int r = nodecli_parse(argc, argv, longopts, &o->common, &tool, own_option, o, 0);

	if (r != NODECLI_MORE)
		return r;
	if (o->common.state && o->interval_given)
		return cli_usage_error("--interval and --state exclude each other");
	return NODECLI_MORE;
}

/* The previous sample from --state.  0 with *have set to whether one was
 * found; a broken state file is warned about and ignored. */
static void load_state(const char *path, struct nodeusage_sample *prev, int *have)
{
	json_auto_t *doc = NULL;
	struct nodeusage_state st = { 0 };
	struct err e = { 0 };
	int r = statefile_load(path, "NodeUsageState", &doc, &e);

	*have = 0;
	if (r > 0 && nodeusage_state_from_json(doc, &st, &e) == 0) {
		usagerates_prev(&st, prev);
		*have = 1;
	} else if (r != 0) {
		cli_warn("%s; starting afresh", e.msg);
	}
	nodeusage_state_release(&st);
}

/* One sample (two without --state).  Returns 0, 1 when some figures are
 * null (exit 3), -1 with e set, or -2 when the hadoop-yarn dir is wrong and
 * nodecli_yarn_dir_check() has said so (exit 1, no document). */
static int run(const struct opts *o, struct err *e)
{
	struct sysroot sr = { 0 };
	struct cgroup_layout l = { 0 };
	struct nodeusage_sample prev = { 0 }, cur = { 0 };
	struct nodeusage_pass_opts po;
	struct nodeusage usage;
	cleanup_free char *node = NULL;
	json_auto_t *doc = NULL;
	int have = 0, errors = 0, ret = -1, keep_prev = 0;
	cleanup_close int lock = -1;
	const char *state;

	nodeusage_sample_release(&prev);
	nodeusage_sample_release(&cur);
	if (nodecli_open_node(&o->common, &sr, &l, e) < 0)
		goto out;
	if (nodecli_yarn_dir_check(&l, &sr, 0, "its figures are null") != 0) {
		ret = -2; /* said, in the one line a loop logs: no second line */
		goto out;
	}
	node = nodecli_node_name(&o->common, &sr);
	state = nodecli_lock_state_soft(&o->common, &lock);
	po = (struct nodeusage_pass_opts){ .layout = &l,
					   .sysroot = &sr,
					   .with_state = state != NULL,
					   .interval_ms = o->interval_ms,
					   .node = node,
					   .warn = cli_warn_err };
	if (state)
		load_state(state, &prev, &have);
	if (nodeusage_sample_pass(&po, &prev, have, &cur, &usage, &keep_prev, e) < 0)
		goto out;
	errors = cur.errors;
	doc = nodeusage_to_json(&usage);
	nodeusage_release(&usage);
	if (state && !keep_prev) {
		struct nodeusage_state next = { 0 };
		json_auto_t *st = NULL;
		struct err se = { 0 };

		usagerates_state(&cur, &next);
		st = nodeusage_state_to_json(&next);
		nodeusage_state_release(&next);

		if (statefile_save(state, st, &se) < 0) /* the figures still go out */
			cli_warn("%s; the next call starts over", se.msg);
	}
	if (jsonio_write(stdout, doc, o->common.pretty, e) < 0)
		goto out;
	ret = errors ? 1 : 0;
out:
	nodeusage_sample_release(&prev);
	nodeusage_sample_release(&cur);
	cgroup_layout_release(&l);
	sysroot_release(&sr);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { .interval_ms = 1000 };
	struct err e = { 0 };
	int code, r;

	cli_init("node-usage");
	argv[0] = (char *)cli_prog(); /* getopt names the tool in its messages */
	code = parse_args(argc, argv, &o);
	if (code != NODECLI_MORE)
		return cli_finish(code);
	r = run(&o, &e);
	if (r == -2) /* a wrong hierarchy, said already; no document written */
		return cli_finish(KILO_EXIT_FAIL);
	if (r < 0)
		return cli_finish(cli_fail(&e, 0));
	return cli_finish(r > 0 ? KILO_EXIT_PARTIAL : KILO_EXIT_OK);
}
