// SPDX-License-Identifier: Apache-2.0
/* evictor - decide which YARN containers to kill under memory or CPU pressure */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/nodecli.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/statefile.h"
#include "decide/evict.h"
#include "doc/containerlist.h"
#include "doc/nodeusage.h"
#include "doc/policy.h"

static const struct option longopts[] = {
	NODECLI_OPTION_POLICY,
	NODECLI_OPTION_STATE,
	NODECLI_OPTION_PRETTY,
	NODECLI_OPTIONS_END,
};

static void usage(void)
{
	fputs("Usage:\n"
	      " evictor [options] < documents\n"
	      "\n"
	      "Decide which YARN containers to kill under memory or CPU pressure.\n"
	      "\n"
	      "Options:\n"
	      "     --policy <file>   NodeSLO object or spec, YAML or JSON (default: built-in)\n"
	      "     --state <file>    own victims, cool-downs and CPU samples between runs\n"
	      "     --pretty          indented JSON\n"
	      " -h, --help            display this help\n"
	      " -V, --version         display version\n"
	      "\n"
	      "Input:  NodeUsage, ContainerList and optionally a PodList on stdin\n"
	      "Output: KillPlan\n"
	      "\n"
	      "For more details see evictor(1).\n",
	      stdout);
}

/* NODECLI_MORE to go on, else the exit code (after printing). */
static int parse_args(int argc, char **argv, struct nodecli_opts *o)
{
	static const struct nodecli_tool tool = { .usage = usage };

	return nodecli_parse(argc, argv, longopts, o, &tool, NULL, NULL, 0);
}

/* What one run holds; released by run_release() on every path. */
struct run {
	json_t *docs[4]; /* NodeUsage, ContainerList, PodList, List: in borrows from them */
	json_t *state_doc;
	struct nodeusage usage;    /* in borrows its node */
	struct containerlist list; /* in borrows its ids */
	struct evict_input in;
	struct evictorstate st;
	struct evict_plan plan;
};

static void run_release(struct run *r)
{
	evict_plan_release(&r->plan);
	evictorstate_release(&r->st);
	evict_input_release(&r->in);
	containerlist_release(&r->list);
	nodeusage_release(&r->usage);
	for (size_t i = 0; i < 4; i++)
		json_decref(r->docs[i]);
	json_decref(r->state_doc);
}

/* Read the documents on stdin into r->in. */
static int read_input(struct run *r, struct err *e)
{
	static const char *const want[] = { "NodeUsage", "ContainerList", "PodList", "List" };
	json_t *pods;

	if (jsonio_collect(stdin, "stdin", want, 4, r->docs, NULL, e) < 0 ||
	    jsonio_require(r->docs[0], "NodeUsage", "stdin", e) < 0 ||
	    jsonio_require(r->docs[1], "ContainerList", "stdin", e) < 0 ||
	    nodeusage_from_json(r->docs[0], &r->usage, e) < 0 ||
	    evict_input_usage(&r->in, &r->usage, e) < 0 ||
	    containerlist_from_json(r->docs[1], &r->list, e) < 0)
		return -1;
	evict_input_containers(&r->in, &r->list);
	pods = r->docs[2] ? r->docs[2] : r->docs[3];
	return pods ? evict_parse_pods(pods, &r->in, e) : 0;
}

/* Policy, input and state first (any error: nothing written), then decide,
 * save the state, and print the plan. */
static int run(const struct nodecli_opts *o, struct err *e)
{
	__attribute__((cleanup(run_release))) struct run r = { 0 };
	json_auto_t *plan_doc = NULL;
	struct policy p;
	int64_t now = clock_now_ms();
	const char *state = o->state;
	cleanup_close int lock = -1;

	evictorstate_init(&r.st);
	if (nodecli_policy_load(o, &p, e) < 0 || read_input(&r, e) < 0)
		return -1;
	if (r.in.pods_bad) /* a tenant's pod spec costs the BE request only */
		cli_warn("%zu pod%s of the PodList unreadable, the BE request unknown (no CPU "
			 "eviction this pass; memory eviction goes on): %s",
			 r.in.pods_bad, r.in.pods_bad == 1 ? "" : "s", r.in.pods_problem);
	/* nothing at the state path may disable eviction: protecting the
	 * online pods comes first, so no cool-down holds without a state */
	if (nodecli_lock_state(o, &lock, e) < 0) {
		cli_warn("%s; evicting without --state (no cool-downs)", e->msg);
		err_clear(e);
		state = NULL;
	}
	if (state && (statefile_load(state, "EvictorState", &r.state_doc, e) < 0 ||
		      evict_state_parse(r.state_doc, state, &r.st, e) < 0)) {
		cli_warn("%s; starting over without cool-downs", e->msg); /* rewritten below */
		err_clear(e);
		evictorstate_release(&r.st);
		evictorstate_init(&r.st);
	}
	evict_decide(&p, &r.in, &r.st, now, &r.plan);
	if (state) {
		json_auto_t *next = evictorstate_to_json(&r.st);

		if (statefile_save(state, next, e) < 0) { /* the plan still goes out */
			cli_warn("%s; the next run has no cool-downs", e->msg);
			err_clear(e);
		}
	}
	plan_doc = evict_plan_json(&r.plan, &r.in, &p, now);
	return jsonio_write(stdout, plan_doc, o->pretty, e);
}

int main(int argc, char **argv)
{
	struct nodecli_opts o = { 0 };
	struct err e = { 0 };
	int code;

	cli_init("evictor");
	argv[0] = (char *)cli_prog(); /* getopt names the tool in its messages */
	code = parse_args(argc, argv, &o);
	if (code != NODECLI_MORE)
		return cli_finish(code);
	if (run(&o, &e) < 0) {
		cli_print_err(&e);
		return cli_finish(err_exit_code(&e));
	}
	return cli_finish(KILO_EXIT_OK);
}
