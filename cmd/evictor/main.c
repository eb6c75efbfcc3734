// SPDX-License-Identifier: Apache-2.0
/* evictor - decide which YARN containers to kill under memory or CPU pressure */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>

#include "cli.h"
#include "clock.h"
#include "evict.h"
#include "jsonio.h"
#include "policy.h"
#include "statefile.h"

struct opts {
	const char *policy;
	const char *state;
	int pretty;
};

enum { OPT_POLICY = CHAR_MAX + 1, OPT_STATE, OPT_PRETTY };

static const struct option longopts[] = {
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "pretty", no_argument, NULL, OPT_PRETTY },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
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

/* 0 to go on, else the exit code (after printing). */
static int parse_args(int argc, char **argv, struct opts *o, int *done)
{
	int c;

	*done = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_POLICY:
			o->policy = optarg;
			break;
		case OPT_STATE:
			o->state = optarg;
			break;
		case OPT_PRETTY:
			o->pretty = 1;
			break;
		case 'h':
			usage();
			*done = 1;
			return KILO_EXIT_OK;
		case 'V':
			cli_print_version(NULL);
			*done = 1;
			return KILO_EXIT_OK;
		case ':':
			return cli_usage_error("option '%s' requires an argument", argv[optind - 1]);
		default:
			return cli_usage_error("unrecognized option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

/* Read the documents into *in (docs[] keeps them alive for its borrowed strings). */
static int read_input(json_t **docs, struct evict_input *in, struct err *e)
{
	static const char *const want[] = { "NodeUsage", "ContainerList", "PodList", "List" };
	json_t *pods;

	if (jsonio_collect(stdin, "stdin", want, 4, docs, e) < 0 ||
	    jsonio_require(docs[0], "NodeUsage", "stdin", e) < 0 ||
	    jsonio_require(docs[1], "ContainerList", "stdin", e) < 0 ||
	    evict_parse_node_usage(docs[0], in, e) < 0 ||
	    evict_parse_container_list(docs[1], in, e) < 0)
		return -1;
	pods = docs[2] ? docs[2] : docs[3];
	return pods ? evict_parse_pods(pods, in, e) : 0;
}

static int run(const struct opts *o, struct err *e)
{
	json_t *docs[4] = { NULL }, *warnings = json_array();
	json_auto_t *state_doc = NULL;
	json_auto_t *plan_doc = NULL;
	struct evict_input in = { 0 };
	struct evict_state st;
	struct evict_plan plan = { 0 };
	struct policy p;
	int64_t now = clock_now_ms();
	int ret = -1;

	evict_state_init(&st);
	if (policy_load(&p, o->policy, warnings, e) < 0)
		goto out;
	for (size_t i = 0; i < json_array_size(warnings); i++)
		cli_warn("unknown policy field '%s'", json_string_value(json_array_get(warnings, i)));
	if (read_input(docs, &in, e) < 0 ||
	    (o->state && (statefile_load(o->state, "EvictorState", &state_doc, e) < 0 ||
			  evict_state_parse(state_doc, o->state, &st, e) < 0)))
		goto out;
	evict_decide(&p, &in, &st, now, &plan);
	if (o->state) {
		json_auto_t *next = evict_state_json(&st);

		if (statefile_save(o->state, next, e) < 0)
			goto out;
	}
	plan_doc = evict_plan_json(&plan, &in, &p, now);
	ret = jsonio_write(stdout, plan_doc, o->pretty, e);
out:
	evict_plan_release(&plan);
	evict_state_release(&st);
	evict_input_release(&in);
	for (size_t i = 0; i < 4; i++)
		json_decref(docs[i]);
	json_decref(warnings);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct err e = { 0 };
	int done, code;

	cli_init("evictor");
	code = parse_args(argc, argv, &o, &done);
	if (done || code)
		return cli_finish(code);
	if (run(&o, &e) < 0) {
		cli_print_err(&e);
		return cli_finish(err_exit_code(&e));
	}
	return cli_finish(KILO_EXIT_OK);
}
