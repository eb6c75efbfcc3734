// SPDX-License-Identifier: Apache-2.0
/* yarn-copilot - list, kill and measure the YARN containers of this node */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/copilothealth.h"
#include "cli/nodecli.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/promtext.h"
#include "core/statefile.h"
#include "core/xalloc.h"
#include "kernel/cgroup.h"
#include "kernel/killer.h"
#include "kernel/sysroot.h"
#include "remote/http.h"
#include "remote/nm.h"
#include "run/copilot.h"

#define NM_TIMEOUT_MS 1000

struct opts {
	const char *command;
	char **args; /* after the command */
	int nargs;
	struct nodecli_opts
		common; /* --sysroot, --cgroup-driver, --hierarchy, --state, --node, --pretty */
	const char *nm_url;
	const char *nm_url_shown; /* without userinfo: for messages and the ContainerList */
	int64_t nm_timeout_ms;
	int64_t nm_max_bytes;
	int no_nm;
	const char *node;
	const char *textfile_dir;
	int64_t grace_ms;
	int grace_given;
	int64_t kill_timeout_ms;
	/* kill: the containers, read before anything else is looked at */
	struct killer_item *items;
	size_t nitems;
};

enum {
	OPT_NM_URL = NODECLI_OPT_END,
	OPT_NM_TIMEOUT,
	OPT_NM_MAX_BYTES,
	OPT_NO_NM,
	OPT_TEXTFILE_DIR,
	OPT_GRACE,
	OPT_KILL_TIMEOUT,
};

static const struct option longopts[] = {
	NODECLI_OPTION_SYSROOT,
	NODECLI_OPTION_DRIVER,
	NODECLI_OPTION_HIERARCHY,
	NODECLI_OPTION_NM_MEMORY,
	{ "nm-url", required_argument, NULL, OPT_NM_URL },
	{ "nm-timeout", required_argument, NULL, OPT_NM_TIMEOUT },
	{ "nm-max-bytes", required_argument, NULL, OPT_NM_MAX_BYTES },
	{ "no-nm", no_argument, NULL, OPT_NO_NM },
	NODECLI_OPTION_NODE,
	NODECLI_OPTION_STATE,
	{ "textfile-dir", required_argument, NULL, OPT_TEXTFILE_DIR },
	{ "grace-period", required_argument, NULL, OPT_GRACE },
	{ "kill-timeout", required_argument, NULL, OPT_KILL_TIMEOUT },
	NODECLI_OPTION_PRETTY,
	NODECLI_OPTIONS_END,
};

static void usage(void)
{
	fputs("Usage:\n"
	      " yarn-copilot [options] list\n"
	      " yarn-copilot [options] kill [<container-id>...]\n"
	      " yarn-copilot [options] metrics\n"
	      " yarn-copilot [options] health\n"
	      "\n"
	      "List, kill and measure the YARN containers of this node from their cgroups\n"
	      "and the NodeManager REST API.\n"
	      "\n"
	      "Options:\n"
	      "     --sysroot <dir>         root for /sys and /proc (not / : no signal is sent)\n"
	      "     --cgroup-driver <name>  auto, cgroupfs or systemd (default auto)\n"
	      "     --hierarchy <path>      the hadoop-yarn cgroup (yarn-site cgroups.hierarchy)\n"
	      "     --nm-memory-cgroups     the NodeManager makes memory cgroups (v1)\n"
	      "     --nm-url <url>          NodeManager web address (default " NM_DEFAULT_URL ")\n"
	      "     --nm-timeout <ms>       NodeManager request timeout (default 1000)\n"
	      "     --nm-max-bytes <n>      largest NodeManager answer read (default 16777216)\n"
	      "     --no-nm                 do not ask the NodeManager\n"
	      "     --node <name>           node name for metadata (default $NODE_NAME, else\n"
	      "                               the host name)\n"
	      "     --state <file>          list: keep CPU samples here for usage.cpuMilli\n"
	      "     --textfile-dir <dir>    metrics: write <dir>/yarn-copilot.prom atomically\n"
	      "     --grace-period <ms>     kill: SIGTERM to SIGKILL delay (default 250)\n"
	      "     --kill-timeout <ms>     kill: wait after SIGKILL (default 2000)\n"
	      "     --pretty                indented JSON\n"
	      " -h, --help                  display this help\n"
	      " -V, --version               display version\n"
	      "\n"
	      "Input:  kill without ids: a KillPlan on stdin\n"
	      "Output: list: ContainerList; kill: KillReport; metrics: Prometheus text\n"
	      "\n"
	      "For more details see yarn-copilot(1).\n",
	      stdout);
}

/* NODECLI_MORE to go on, else the exit code (after printing). */
static int own_option(void *ctx, int c, const char *arg)
{
	struct opts *o = ctx;
	struct err e = { 0 };

	switch (c) {
	case OPT_NM_URL:
		o->nm_url = arg;
		break;
	case OPT_NM_TIMEOUT:
		if (cli_parse_i64(arg, "--nm-timeout", 1, 600000, &o->nm_timeout_ms, &e) < 0)
			return cli_usage_error("%s", e.msg);
		break;
	case OPT_NM_MAX_BYTES:
		if (cli_parse_i64(arg, "--nm-max-bytes", 4096, INT64_C(1) << 30, &o->nm_max_bytes,
				  &e) < 0)
			return cli_usage_error("%s", e.msg);
		break;
	case OPT_NO_NM:
		o->no_nm = 1;
		break;
	case OPT_TEXTFILE_DIR:
		o->textfile_dir = arg;
		break;
	case OPT_GRACE:
		if (cli_parse_i64(arg, "--grace-period", 0, 3600000, &o->grace_ms, &e) < 0)
			return cli_usage_error("%s", e.msg);
		o->grace_given = 1;
		break;
	case OPT_KILL_TIMEOUT:
		if (cli_parse_i64(arg, "--kill-timeout", 1, 3600000, &o->kill_timeout_ms, &e) < 0)
			return cli_usage_error("%s", e.msg);
		break;
	default:
		return NODECLI_PASS;
	}
	return NODECLI_MORE;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct nodecli_tool tool = { .usage = usage,
						  .features = "+cgroup1 +cgroup2 +pidfd" };
	int r;

	o->nm_url = NM_DEFAULT_URL;
	o->nm_timeout_ms = NM_TIMEOUT_MS;
	o->nm_max_bytes = NM_MAX_BYTES;
	o->grace_ms = KILLER_GRACE_MS;
	o->kill_timeout_ms = KILLER_KILL_TIMEOUT_MS;
	r = nodecli_parse(argc, argv, longopts, &o->common, &tool, own_option, o, INT_MAX);
	if (r != NODECLI_MORE)
		return r;
	if (optind >= argc)
		return cli_usage_error("no command given (list, kill, metrics or health)");
	o->command = argv[optind];
	o->args = argv + optind + 1;
	o->nargs = argc - optind - 1;
	if (o->nargs && strcmp(o->command, "kill") != 0)
		return cli_usage_error("'%s' takes no arguments, got '%s'", o->command, o->args[0]);
	if (o->textfile_dir && strcmp(o->command, "metrics") != 0)
		return cli_usage_error("--textfile-dir is for metrics");
	if (o->common.state && strcmp(o->command, "list") != 0)
		return cli_usage_error("--state is for list");
	return NODECLI_MORE;
}

/* The passes' options (run/copilot.h) from the command line's. */
static struct copilot_opts copilot_opts(const struct opts *o)
{
	return (struct copilot_opts){ .nm_url = o->nm_url,
				      .nm_url_shown = o->nm_url_shown,
				      .nm_timeout_ms = o->nm_timeout_ms,
				      .nm_max_bytes = o->nm_max_bytes,
				      .no_nm = o->no_nm,
				      .warn = cli_warn_err };
}

/* The sysroot and cgroup layout; 0 or an exit code after printing. */
static int open_node(const struct opts *o, struct sysroot *s, struct cgroup_layout *l)
{
	struct err e = { 0 };

	return nodecli_open_node(&o->common, s, l, &e) < 0 ? cli_fail(&e, 0) : 0;
}

/* The previous --state into *st: 1, or 0 for none (a missing file is the
 * first call; an unreadable or malformed one is warned about and rates
 * start over). */
static int read_state(const char *path, struct containerlist_state *st)
{
	struct err e = { 0 };
	json_auto_t *doc = NULL;

	if (statefile_load(path, "ContainerListState", &doc, &e) < 0 ||
	    (doc && containerlist_state_from_json(doc, st, &e) < 0 && err_wrap(&e, "%s", path))) {
		cli_warn("%s; rates start over", e.msg);
		return 0;
	}
	return doc != NULL;
}

/* Collect the containers and the NM view: 0, or an exit code.  A
 * hadoop-yarn dir that is not there while the NodeManager runs containers,
 * or while one is elsewhere: a wrong layout (exit 1), not an empty list
 * that stops eviction and QoS without a word. */
static int gather(const struct opts *o, const struct cgroup_layout *l, const struct sysroot *s,
		  struct copilot_scan *g)
{
	const struct copilot_opts co = copilot_opts(o);
	struct err e = { 0 };

	if (copilot_gather(&co, l, s, g, &e) < 0)
		return cli_fail(&e, 0);
	return nodecli_yarn_dir_check(l, s, copilot_scan_live(g), "the list has no cgroup items");
}

static int cmd_list(const struct opts *o, const struct cgroup_layout *l, const struct sysroot *s)
{
	struct copilot_scan g = { 0 };
	struct containerlist list = { 0 };
	struct err e = { 0 };
	struct containerlist_state prev = { 0 }, next = { 0 };
	json_auto_t *doc = NULL;
	json_auto_t *state = NULL;
	cleanup_close int lock = -1;
	int64_t now = clock_now_ms();
	int rc = gather(o, l, s, &g);

	const char *path = rc == 0 ? nodecli_lock_state_soft(&o->common, &lock) : NULL;

	if (rc == 0) {
		int have = path && read_state(path, &prev);

		containerscan_list(&g.cl, l, &g.nm, have ? &prev : NULL, now, o->node, &list);
		doc = containerlist_to_json(&list);
		containerlist_release(&list);
		if (jsonio_write(stdout, doc, o->common.pretty, &e) < 0)
			rc = cli_fail(&e, KILO_EXIT_FAIL);
		if (path) {
			containerscan_state(&g.cl, now, &next);
			state = containerlist_state_to_json(&next);
		}
		if (rc == 0 && state && statefile_save(path, state, &e) < 0) /* the list went out */
			cli_warn("%s; the next call's rates start over", e.msg);
	}
	containerlist_state_release(&prev);
	containerlist_state_release(&next);
	copilot_scan_release(&g);
	return rc;
}

static int cmd_metrics(const struct opts *o, const struct cgroup_layout *l, const struct sysroot *s)
{
	struct copilot_scan g = { 0 };
	struct err e = { 0 };
	struct promtext *p = NULL;
	int rc = gather(o, l, s, &g);

	if (rc == 0) {
		p = promtext_new();
		copilot_metrics(&g, l, o->node, clock_now_ms(), p);
		if (o->textfile_dir
			    ? promtext_write_textfile(p, o->textfile_dir, "yarn-copilot.prom", &e)
			    : promtext_write(p, stdout, &e))
			rc = cli_fail(&e, KILO_EXIT_FAIL);
		promtext_free(p);
	}
	copilot_scan_release(&g);
	return rc;
}

/* The containers to kill: ids from the command line, else a KillPlan on
 * stdin, whose gracePeriodMs replaces *grace_ms.  0, or an exit code after
 * printing (nothing signalled). */
static int kill_items(const struct opts *o, struct killer_item **items, size_t *n,
		      int64_t *grace_ms)
{
	static const char *const want[] = { "KillPlan" };
	json_auto_t *doc = NULL;
	struct err e = { 0 };

	if (o->nargs) {
		if (killer_ids_parse(o->args, (size_t)o->nargs, items, n, &e) < 0)
			return cli_usage_error("%s", e.msg);
		return 0;
	}
	if (jsonio_collect(stdin, "stdin", want, 1, &doc, NULL, &e) < 0 ||
	    jsonio_require(doc, "KillPlan", "stdin", &e) < 0 ||
	    copilot_kill_plan(doc, items, n, grace_ms, &e) < 0)
		return cli_fail(&e, 0);
	return 0;
}

static int cmd_kill(const struct opts *o, const struct cgroup_layout *l, const struct sysroot *s)
{
	const struct copilot_opts co = copilot_opts(o);
	const struct killer_opts ko = { .grace_ms = o->grace_ms,
					.kill_timeout_ms = o->kill_timeout_ms,
					.poll_ms = KILLER_POLL_MS };
	struct err e = { 0 };
	json_auto_t *report = NULL;
	size_t n = o->nitems, failed = copilot_kill(&co, l, s, &ko, o->items, n);
	int rc = cli_exit_for_items(n, failed);

	report = killer_report(o->items, n, o->node, clock_now_ms());
	if (jsonio_write(stdout, report, o->common.pretty, &e) < 0)
		rc = cli_fail(&e, KILO_EXIT_FAIL);
	killer_items_release(o->items, n);
	return rc;
}

static int cmd_health(const struct opts *o, const struct cgroup_layout *l, const struct sysroot *s)
{
	const struct copilot_opts co = copilot_opts(o);
	struct copilot_health h;
	char hint[512];
	/* list's rule: absent is fine where no YARN container has run yet */
	int dir = nodecli_yarn_layout(l, s, 0, hint, sizeof(hint)), rc;

	copilot_health(&co, dir == 1, &h);
	rc = copilothealth_report(stdout, &co, l, dir, hint, &h);
	copilot_health_release(&h);
	return rc;
}

int main(int argc, char **argv)
{
	cleanup_free char *shown = NULL, *node = NULL;
	static const struct {
		const char *name;
		int (*fn)(const struct opts *, const struct cgroup_layout *,
			  const struct sysroot *);
	} commands[] = {
		{ "list", cmd_list },
		{ "kill", cmd_kill },
		{ "metrics", cmd_metrics },
		{ "health", cmd_health },
	};
	struct opts o = { 0 };
	struct sysroot s = { 0 };
	struct cgroup_layout l = { 0 };
	struct err e = { 0 };
	int rc, i, ncmd = (int)(sizeof(commands) / sizeof(commands[0]));

	cli_init("yarn-copilot");
	argv[0] = (char *)cli_prog(); /* getopt names the tool in its messages */
	rc = parse_args(argc, argv, &o);
	if (rc != NODECLI_MORE)
		return cli_finish(rc);
	/* threat-model.md: a URL's userinfo is a secret, in every form */
	http_url_secrets_add(o.nm_url);
	shown = http_redact_url(o.nm_url);
	o.nm_url_shown = shown;
	for (i = 0; i < ncmd && strcmp(o.command, commands[i].name) != 0; i++)
		;
	if (i == ncmd)
		return cli_finish(cli_usage_error("unknown command '%s'", o.command));
	if (commands[i].fn == cmd_kill) {
		rc = kill_items(&o, &o.items, &o.nitems, &o.grace_ms);
		if (rc)
			return cli_finish(rc);
	}
	if (http_global_init(&e) < 0)
		return cli_finish(cli_fail(&e, KILO_EXIT_FAIL));
	rc = open_node(&o, &s, &l);
	o.node = node = rc == 0 ? nodecli_node_name(&o.common, &s) : NULL;
	if (rc == 0)
		rc = commands[i].fn(&o, &l, &s);
	cgroup_layout_release(&l);
	sysroot_release(&s);
	http_global_cleanup();
	free(o.items);
	return cli_finish(rc);
}
