// SPDX-License-Identifier: Apache-2.0
/* qos-cgset - cgroup QoS for the hadoop-yarn tree: shares, CPU suppress,
 * group identity, memory QoS */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/nodecli.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "decide/qos.h"
#include "doc/cgroupchanges.h"
#include "doc/policy.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"
#include "run/cgcache.h"
#include "run/cgchange.h"
#include "run/qosapply.h"

struct opts {
	struct nodecli_opts common; /* --policy, --sysroot, --cgroup-driver, --hierarchy, --state,
				       --pretty */
	int scope_besteffort;
	enum qos_weight_conv conv;
	int do_static, do_suppress;
	int dry_run;
	int changes_only;
	int64_t recheck_ms;
};

enum {
	OPT_SCOPE = NODECLI_OPT_END,
	OPT_WEIGHT,
	OPT_ONLY,
	OPT_DRY_RUN,
	OPT_CHANGES_ONLY,
	OPT_RECHECK,
};

static const struct option longopts[] = {
	NODECLI_OPTION_POLICY,
	NODECLI_OPTION_SYSROOT,
	NODECLI_OPTION_DRIVER,
	NODECLI_OPTION_HIERARCHY,
	NODECLI_OPTION_NM_MEMORY,
	NODECLI_OPTION_STATE,
	{ "recheck", required_argument, NULL, OPT_RECHECK },
	{ "scope", required_argument, NULL, OPT_SCOPE },
	{ "weight-conversion", required_argument, NULL, OPT_WEIGHT },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "changes-only", no_argument, NULL, OPT_CHANGES_ONLY },
	NODECLI_OPTION_PRETTY,
	NODECLI_OPTIONS_END,
};

static void usage(void)
{
	fputs("Usage:\n"
	      " qos-cgset [options] < NodeUsage+ContainerList\n"
	      "\n"
	      "Apply cgroup QoS to the hadoop-yarn tree: cpu.shares, CPU suppress, group\n"
	      "identity and memory QoS, writing only the values that differ.\n"
	      "\n"
	      "Options:\n"
	      "     --policy <file>              NodeSLO object or spec, YAML or JSON\n"
	      "     --sysroot <dir>              root for /sys and /proc\n"
	      "     --cgroup-driver <name>       auto, cgroupfs or systemd (default auto)\n"
	      "     --hierarchy <path>           the hadoop-yarn cgroup (yarn-site cgroups.hierarchy)\n"
	      "     --nm-memory-cgroups          the NodeManager makes memory cgroups (v1): no\n"
	      "                                    memory mirror\n"
	      "     --state <file>               cache what the container dirs' files hold\n"
	      "     --recheck <seconds>          trust the cache this long (default 60)\n"
	      "     --scope <dir>                suppress hadoop-yarn (default) or besteffort\n"
	      "     --weight-conversion <name>   v2 cpu.weight: linear (default) or nonlinear\n"
	      "     --only <part>                static (steps 0, 1, 3, 4) or suppress (step 2)\n"
	      "     --dry-run                    report what would change, write nothing\n"
	      "     --changes-only               leave unchanged items out of the report\n"
	      "     --pretty                     indented JSON\n"
	      " -h, --help                       display this help\n"
	      " -V, --version                    display version\n"
	      "\n"
	      "Input:  NodeUsage (node-usage) and ContainerList (yarn-copilot list) on stdin\n"
	      "Output: CgroupChanges\n"
	      "\n"
	      "For more details see qos-cgset(1).\n",
	      stdout);
}

/* NODECLI_MORE to go on, else the exit code (after printing). */
static int own_option(void *ctx, int c, const char *arg)
{
	struct opts *o = ctx;
	struct err e = { 0 };

	switch (c) {
	case OPT_SCOPE:
		if (strcmp(arg, "hadoop-yarn") && strcmp(arg, "besteffort"))
			return cli_usage_error("invalid value for --scope: '%s' (expected "
					       "hadoop-yarn or besteffort)",
					       arg);
		o->scope_besteffort = strcmp(arg, "besteffort") == 0;
		break;
	case OPT_WEIGHT:
		if (qos_weight_conv_parse(arg, &o->conv, &e) < 0)
			return cli_usage_error("%s", e.msg);
		break;
	case OPT_ONLY:
		if (strcmp(arg, "static") && strcmp(arg, "suppress"))
			return cli_usage_error("invalid value for --only: '%s' (expected "
					       "static or suppress)",
					       arg);
		o->do_static = strcmp(arg, "static") == 0;
		o->do_suppress = !o->do_static;
		break;
	case OPT_DRY_RUN:
		o->dry_run = 1;
		break;
	case OPT_CHANGES_ONLY:
		o->changes_only = 1;
		break;
	case OPT_RECHECK:
		if (cli_parse_i64(arg, "--recheck", 1, 86400, &o->recheck_ms, &e) < 0)
			return cli_usage_error("%s", e.msg);
		o->recheck_ms *= 1000;
		break;
	default:
		return NODECLI_PASS;
	}
	return NODECLI_MORE;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct nodecli_tool tool = { .usage = usage, .features = "+cgroup1 +cgroup2" };
	int r;

	o->do_static = o->do_suppress = 1;
	r = nodecli_parse(argc, argv, longopts, &o->common, &tool, own_option, o, 0);
	if (r != NODECLI_MORE)
		return r;
	if (o->recheck_ms && !o->common.state)
		return cli_usage_error("--recheck needs --state");
	if (!o->recheck_ms)
		o->recheck_ms = 60000;
	return NODECLI_MORE;
}

/* Policy and stdin, checked before anything is written: 0 or an exit code. */
static int load_inputs(const struct opts *o, struct policy *p, json_t **docs,
		       struct nodeusage *usage, struct containerlist *list,
		       struct qosapply_inputs *in)
{
	static const char *const kinds[] = { "NodeUsage", "ContainerList" };
	struct err e = { 0 };

	if (nodecli_policy_load(&o->common, p, &e) < 0)
		return cli_fail(&e, 0);
	if (jsonio_collect(stdin, "stdin", kinds, 2, docs, qosapply_input_fields, &e) < 0 ||
	    (o->do_suppress && jsonio_require(docs[0], kinds[0], "stdin", &e) < 0) ||
	    (o->do_static && jsonio_require(docs[1], kinds[1], "stdin", &e) < 0) ||
	    (docs[1] && containerlist_from_json(docs[1], list, &e) < 0) ||
	    (docs[0] && nodeusage_from_json(docs[0], usage, &e) < 0) ||
	    qosapply_inputs(docs[0] ? usage : NULL, docs[1] ? list : NULL, in, &e) < 0)
		return cli_fail(&e, 0);
	return 0;
}

/* The cache of --state (a dry run uses it too, so that it shows what the
 * same command would do, but never saves it); a state file that cannot be
 * used is warned about and the pass reads everything. */
static struct cgcache *load_cache(const struct opts *o, const struct cgroup_layout *l)
{
	struct cgcache *c;
	struct err e = { 0 };

	if (!o->common.state)
		return NULL;
	c = cgcache_new(l->hadoop_yarn, clock_now_ms(), o->recheck_ms);
	if (cgcache_load(c, o->common.state, &e) < 0)
		cli_warn("%s; reading every file", e.msg);
	return c;
}

/* After a failed write nothing is trusted: the next pass reads everything.
 * A state that cannot be saved costs the next pass its reads, not this
 * pass its result: a warning.  Fills the report's "cache" member. */
static void save_cache(const struct opts *o, struct cgcache *c, const struct cgchange_plan *plan,
		       struct cgroupchanges *out)
{
	struct err e = { 0 };
	int saved = 0;

	if (!c)
		return;
	if (!o->dry_run) {
		if (cgchange_count(plan, CGCHANGE_FAILED))
			cgcache_clear(c);
		saved = cgcache_save(c, o->common.state, &e);
		if (saved < 0)
			cli_warn_err(&e);
	}
	out->has_cache = 1;
	out->cache = (struct cgroupchanges_cache){
		.file = xstrdup(o->common.state),
		.items = (int64_t)cgchange_count_cached(plan),
		.hits = (int64_t)cgcache_hits(c),
		.saved = saved > 0,
	};
}

struct report {
	const struct cgchange_plan *plan;
	int changes_only;
};

/* Item i of the report into b: 1, 0 when --changes-only leaves it out, -1
 * when it cannot be encoded. */
static int report_item(size_t i, void *arg, struct jsonio_buf *b)
{
	const struct report *r = arg;
	const struct cgchange_item *it = &r->plan->items[i];
	struct cgroupchanges_item v;

	if (r->changes_only && it->result == CGCHANGE_UNCHANGED)
		return 0;
	cgchange_item_view(it, &v);
	return cgroupchanges_item_text(&v, b) == 0 ? 1 : -1;
}

static int run(const struct opts *o)
{
	struct sysroot s = { 0 };
	struct cgroup_layout l = { 0 };
	struct cgchange_plan plan = { 0 };
	struct policy p;
	struct qosapply_inputs in = { 0 };
	struct containerlist list = { 0 };
	struct nodeusage usage = { 0 };
	json_t *docs[2] = { NULL, NULL };
	json_auto_t *out = NULL;
	struct cgcache *cache = NULL;
	cleanup_close int lock = -1;
	struct opts lo;
	struct report report;
	struct err e = { 0 };
	int code;

	code = load_inputs(o, &p, docs, &usage, &list, &in);
	if (code == 0 && nodecli_open_node(&o->common, &s, &l, &e) < 0)
		code = cli_fail(&e, 0);
	/* no hadoop-yarn dir where the NodeManager holds containers, or one
	 * elsewhere: every item would be skipped, exit 0, QoS silently off */
	if (code == 0)
		code = nodecli_yarn_dir_check(&l, &s, json_object_size(in.held),
					      "nothing to set for YARN");
	if (code == 0) { /* without a usable --state every file is read: no cache */
		lo = *o;
		lo.common.state = nodecli_lock_state_soft(&o->common, &lock);
		o = &lo;
		cache = load_cache(o, &l);
	}
	if (code == 0) {
		struct qosapply_opts qo = {
			.layout = &l,
			.sysroot = &s,
			.policy = &p,
			.in = &in,
			.scope_besteffort = o->scope_besteffort,
			.conv = o->conv,
			.do_static = o->do_static,
			.do_suppress = o->do_suppress,
			.dry_run = o->dry_run,
			.page_size = sysconf(_SC_PAGESIZE),
			.cache = cache,
		};

		struct cgroupchanges head;

		qosapply_run(&qo, &plan);
		qosapply_head(&plan, in.node, o->dry_run, clock_now_ms(), &head);
		code = cli_exit_for_items(plan.n, cgchange_count(&plan, CGCHANGE_FAILED));
		save_cache(o, cache, &plan, &head);
		out = cgroupchanges_head_json(&head);
		cgroupchanges_release(&head);
		qosapply_warnings(&plan, cli_warn_err);
		report.plan = &plan;
		report.changes_only = o->changes_only;
		if (jsonio_write_items(stdout, out, "items", plan.n, report_item, &report,
				       o->common.pretty, &e) < 0)
			code = cli_fail(&e, KILO_EXIT_FAIL);
	}
	cgchange_release(&plan);
	cgcache_free(cache);
	qosapply_inputs_release(&in);
	containerlist_release(&list);
	nodeusage_release(&usage);
	cgroup_layout_release(&l);
	sysroot_release(&s);
	json_decref(docs[0]);
	json_decref(docs[1]);
	return code;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	int code;

	cli_init("qos-cgset");
	argv[0] = (char *)cli_prog(); /* getopt names the tool in its messages */
	code = parse_args(argc, argv, &o);
	if (code != NODECLI_MORE)
		return cli_finish(code);
	return cli_finish(run(&o));
}
