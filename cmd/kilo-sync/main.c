// SPDX-License-Identifier: Apache-2.0
/* kilo-sync - Kubernetes Batch resources -> YARN node totals, and YARN's
 * allocation -> the Node's thirdPartyAllocations annotation. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/syncsummary.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/promtext.h"
#include "core/xalloc.h"
#include "decide/syncplanner.h"
#include "doc/syncconfig.h"
#include "remote/k8s.h"
#include "run/syncrun.h"

#define MAX_NODES 256

enum mode { MODE_SYNC, MODE_PLAN, MODE_APPLY };

struct opts {
	enum mode mode;
	const char *config, *from, *kubeconfig, *context, *textfile_dir;
	const char *nodes[MAX_NODES + 1];
	size_t nnodes;
	int dry_run, pretty, verbose, quiet, allow_no_pods;
};

static void usage(void)
{
	printf("Usage:\n"
	       " kilo-sync [options]               plan from the live APIs, then apply\n"
	       " kilo-sync plan [options]          print the SyncPlan only\n"
	       " kilo-sync apply [options]         perform a SyncPlan read from stdin\n"
	       "\n"
	       "Report each node's unallocated Kubernetes Batch resources to the YARN\n"
	       "ResourceManager as the NodeManager's total, and write YARN's allocation back\n"
	       "onto the Node (node.koordinator.sh/thirdPartyAllocations).\n"
	       "\n"
	       "Options:\n"
	       " -c, --config <file>       clusters, names, reservation, timeouts (YAML/JSON);\n"
	       "                           a live pass needs at least one cluster\n"
	       " -f, --from <file>         plan: read Node/Pod/List and RM documents from file\n"
	       "                           ('-' for stdin) instead of the live APIs;\n"
	       "                           apply: read the SyncPlan from file (default stdin)\n"
	       "     --kubeconfig <file>   kubeconfig (default: config, KUBECONFIG, ~/.kube/config,\n"
	       "                           in-cluster)\n"
	       "     --context <name>      kubeconfig context\n"
	       " -n, --node <name>         only this node (repeatable)\n"
	       "     --allow-no-pods       plan --from: the input truly has Nodes and no Pod\n"
	       "     --dry-run             compute and report; change nothing\n"
	       "     --textfile-dir <dir>  write <dir>/kilo-sync.prom (node_exporter textfile)\n"
	       " -p, --pretty              indented JSON\n"
	       " -q, --quiet               no line per node skipped or failed (the lines of\n"
	       "                           unreachable clusters and the summary stay)\n"
	       " -v, --verbose             log every HTTP exchange on stderr\n"
	       " -h, --help                display this help\n"
	       " -V, --version             display version\n"
	       "\n"
	       "Input:  plan --from: Node, NodeList, Pod, PodList, List, RM nodes payloads,\n"
	       "        YarnNodes (an RM payload of a named cluster)\n"
	       "Output: SyncPlan (plan) or SyncReport (apply, default)\n"
	       "\n"
	       "For more details see kilo-sync(1).\n");
}

/* The command word: plan or apply.  -1 (and a usage line) for another. */
static int set_command(struct opts *o, const char *word)
{
	if (strcmp(word, "plan") == 0)
		o->mode = MODE_PLAN;
	else if (strcmp(word, "apply") == 0)
		o->mode = MODE_APPLY;
	else
		return cli_usage_error("unknown command '%s'", word), -1;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	enum { OPT_KUBECONFIG = CHAR_MAX + 1, OPT_CONTEXT, OPT_DRY_RUN, OPT_TEXTFILE, OPT_NO_PODS };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, 'f' },
		{ "kubeconfig", required_argument, NULL, OPT_KUBECONFIG },
		{ "context", required_argument, NULL, OPT_CONTEXT },
		{ "node", required_argument, NULL, 'n' },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "allow-no-pods", no_argument, NULL, OPT_NO_PODS },
		{ "textfile-dir", required_argument, NULL, OPT_TEXTFILE },
		{ "pretty", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, command = 0;

	if (argc > 1 && argv[1][0] != '-') {
		if (set_command(o, argv[1]) < 0)
			return -1;
		command = 1;
		argv++;
		argc--;
	}
	argv[0] = (char *)cli_prog(); /* getopt names the tool in its messages */
	while ((c = getopt_long(argc, argv, "c:f:n:pqvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config = optarg;
			break;
		case 'f':
			o->from = optarg;
			break;
		case OPT_KUBECONFIG:
			o->kubeconfig = optarg;
			break;
		case OPT_CONTEXT:
			o->context = optarg;
			break;
		case 'n':
			if (o->nnodes == MAX_NODES)
				return cli_usage_error("too many --node options (at most %d)",
						       MAX_NODES),
				       -1;
			o->nodes[o->nnodes++] = optarg;
			break;
		case OPT_DRY_RUN:
			o->dry_run = 1;
			break;
		case OPT_NO_PODS:
			o->allow_no_pods = 1;
			break;
		case OPT_TEXTFILE:
			o->textfile_dir = optarg;
			break;
		case 'p':
			o->pretty = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			usage();
			exit(cli_finish(KILO_EXIT_OK));
		case 'V':
			cli_print_version("+k8s +yarn-rest");
			exit(cli_finish(KILO_EXIT_OK));
		default: /* getopt has said what was wrong */
			fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog());
			return -1;
		}
	}
	/* the command after options (getopt moves it to the end), as
	 * yarn-copilot takes it */
	if (optind < argc && !command) {
		if (set_command(o, argv[optind]) < 0)
			return -1;
		optind++;
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]), -1;
	if (o->from && o->mode == MODE_SYNC)
		return cli_usage_error("--from needs 'plan' or 'apply'"), -1;
	if (o->mode == MODE_APPLY && o->nnodes)
		return cli_usage_error("--node applies to planning, not to 'apply'"), -1;
	if (o->allow_no_pods && !(o->mode == MODE_PLAN && o->from))
		return cli_usage_error("--allow-no-pods goes with 'plan --from'"), -1;
	/* an empty --textfile-dir is a typo, refused before anything runs; a
	 * directory missing at run time costs the metrics only (exit 3): a
	 * metrics problem never stops the sync, which lowers totals too */
	if (o->textfile_dir && !*o->textfile_dir)
		return cli_usage_error("--textfile-dir: '' is no directory"), -1;
	return 0;
}

static void trace(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "%s: %s\n", cli_prog(), line);
}

static int read_inputs(struct sync_input *in, const char *from, int allow_no_pods,
		       struct sync_stats *st, struct err *e)
{
	FILE *f = strcmp(from, "-") == 0 ? stdin : fopen(from, "re");
	const char *name = f == stdin ? "stdin" : from;
	struct jsonio_reader *r;
	json_t *doc = NULL;
	size_t ndocs = 0;
	int ret;

	if (!f)
		return err_set(e, ERR_USAGE, errno, "open '%s'", from);
	r = jsonio_reader_new(f, strcmp(from, "-") == 0 ? "stdin" : from);
	jsonio_reader_filter(r, sync_input_fields);
	while ((ret = jsonio_read(r, &doc, e)) == 1) {
		ndocs++;
		ret = sync_input_add_document(in, doc, e);
		json_decref(doc);
		if (ret < 0) {
			err_wrap(e, "%s:%ld", strcmp(from, "-") == 0 ? "stdin" : from,
				 jsonio_reader_line(r));
			break;
		}
	}
	jsonio_reader_free(r);
	if (f != stdin)
		fclose(f);
	if (ret == 0 && ndocs == 0) /* an empty input is a broken pipeline, not an empty cluster */
		ret = err_set(
			e, ERR_INPUT, 0,
			"no documents on %s (expected Node, NodeList, Pod, PodList, List or RM nodes)",
			name);
	/* Nodes without a single Pod (kinds judged by the items: kubectl's
	 * output is a List) would plan every node as having no NodeManager and
	 * zero YARN's share everywhere: a forgotten input, not an empty cluster */
	if (ret == 0 && sync_input_nodes(in) > 0 && sync_input_pods(in) == 0 && !allow_no_pods)
		ret = err_set(e, ERR_INPUT, 0,
			      "%s has %zu Node%s but no Pod: every node would be planned without "
			      "its NodeManager and YARN's share annotated 0; add the pods "
			      "(kubectl get pods -A -o json), or give --allow-no-pods for a "
			      "cluster that has none",
			      name, sync_input_nodes(in), sync_input_nodes(in) == 1 ? "" : "s");
	st->nodes = sync_input_nodes(in);
	st->pods = sync_input_pods(in);
	return ret < 0 ? -1 : 0;
}

static json_t *read_plan(const char *from, struct err *e)
{
	const char *const want[] = { "SyncPlan" };
	FILE *f = !from || strcmp(from, "-") == 0 ? stdin : fopen(from, "re");
	json_t *plan = NULL;
	long n;

	if (!f)
		return err_set(e, ERR_USAGE, errno, "open '%s'", from), NULL;
	n = jsonio_collect(f, f == stdin ? "stdin" : from, want, 1, &plan, NULL, e);
	if (f != stdin)
		fclose(f);
	if (n < 0 || jsonio_require(plan, "SyncPlan", f == stdin ? "stdin" : from, e) < 0)
		return NULL;
	return plan;
}

static int write_metrics(const struct opts *o, const struct syncreport *report,
			 const struct sync_rms *rms, const struct sync_stats *st, double secs)
{
	struct promtext *p;
	struct err e = { 0 };
	int ret;

	if (!o->textfile_dir)
		return 0;
	p = promtext_new();
	sync_metrics(p, report, rms, st, secs);
	ret = promtext_write_textfile(p, o->textfile_dir, "kilo-sync.prom", &e);
	promtext_free(p);
	if (ret < 0) {
		err_wrap(&e, "--textfile-dir: metrics not written");
		cli_print_err(&e);
	}
	return ret;
}

/* One pass.  kc is the caller's (released by it, after the secrets it
 * holds were redacted from e). */
static int run(const struct opts *o, const struct sync_config *sc, struct sync_rms *rms,
	       struct k8s_client *kc, struct err *e)
{
	const char *const *only = o->nnodes ? o->nodes : NULL;
	struct k8s_options ko = {
		.kubeconfig = o->kubeconfig ? o->kubeconfig : sc->kubeconfig,
		.context = o->context ? o->context : sc->context,
	};
	struct sync_stats st = { 0 }, shown = { 0 }; /* shown: a plan's actions */
	int64_t t0 = clock_mono_ms();
	struct syncplan plan = { 0 };
	struct syncreport report = { 0 };
	json_t *doc = NULL, *out;
	int planned = 0;
	struct sync_input *in = NULL;
	int need_k8s = (o->mode == MODE_SYNC || (o->mode == MODE_PLAN && !o->from) ||
			(o->mode == MODE_APPLY && !o->dry_run));
	int code = KILO_EXIT_OK;

	/* threat-model.md: never a live pass with zero clusters (it could
	 * resize nothing, and would zero shares with no RM evidence) */
	if ((o->mode == MODE_SYNC || (o->mode == MODE_PLAN && !o->from)) && sc->nclusters == 0)
		return err_set(e, ERR_USAGE, 0,
			       "%s names no YARN cluster (clusters: [{id, rmUrls}]): nothing "
			       "to sync with; give --config FILE (the sync.yaml of "
			       "manifests/kilo/kilo-sync-config.yaml's data), or plan --from -",
			       o->config ? o->config : "the default configuration");
	/* a SyncPlan is checked whole before any connection or write */
	if (o->mode == MODE_APPLY) {
		int ret = (doc = read_plan(o->from, e)) ? sync_plan_read(doc, sc, 0, &plan, e) : -1;

		json_decref(doc);
		if (ret < 0)
			return -1;
		planned = 1;
	}
	if (need_k8s && k8s_client_init(kc, &ko, o->verbose ? trace : NULL, NULL, e) < 0) {
		syncplan_release(&plan);
		return -1; /* main prints e */
	}
	kc->http.timeout_ms = sc->kube_timeout_ms;
	if (o->mode != MODE_APPLY) {
		in = sync_input_new(&sc->options);
		/* a configured cluster whose list is not given is no evidence */
		for (size_t i = 0; o->from && i < sc->nclusters; i++)
			sync_input_cluster_expect(in, sc->clusters[i].id);
		if ((o->from ? read_inputs(in, o->from, o->allow_no_pods, &st, e)
			     : sync_gather(in, sc, rms, kc, only, &st, e)) == 0) {
			sync_plan_build(in, clock_now_ms(), only, &plan);
			planned = 1;
		}
		sync_input_free(in);
	}
	if (!planned) {
		st.errors[e->kind <= ERR_TEMP ? e->kind : ERR_SYSTEM]++;
		write_metrics(o, NULL, rms, &st, (double)(clock_mono_ms() - t0) / 1000);
		return -1;
	}
	if (o->mode == MODE_PLAN) {
		out = syncplan_to_json(&plan);
		syncreport_of_plan(&report, &plan); /* what its summary and metrics read */
		sync_count_plan(&plan, &shown);
		code = sync_plan_exit_code(&st, &shown);
	} else {
		if (o->dry_run) { /* the summary says what would be done */
			struct sync_stats would = { 0 };

			sync_count_plan(&plan, &would);
			shown.updated = would.updated;
			shown.annotated = would.annotated;
		}
		sync_apply(&plan, sc, rms, kc, o->dry_run, &report, &st);
		out = syncreport_to_json(&report);
		code = sync_exit_code(&st);
	}
	/* what a server echoed is never printed (out shares the items' documents) */
	sync_redact(out);
	syncreport_bind(&report);
	if (jsonio_write(stdout, out, o->pretty, e) < 0)
		code = KILO_EXIT_FAIL;
	/* offline inputs are often partial (one RM's list): no unclaimed warning */
	sync_report_problems(&report, rms, sc, o->quiet, o->nnodes > 0 || o->from);
	sync_summary_line(o->mode == MODE_PLAN ? "plan: "
			  : o->dry_run         ? "dry run: "
					       : "",
			  &st, &shown, (double)(clock_mono_ms() - t0) / 1000);
	if (write_metrics(o, &report, rms, &st, (double)(clock_mono_ms() - t0) / 1000) < 0 &&
	    code == KILO_EXIT_OK)
		code = KILO_EXIT_PARTIAL;
	json_decref(out);
	syncreport_release(&report);
	syncplan_release(&plan);
	return code;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct sync_config sc;
	struct sync_rms rms;
	struct k8s_client kc = { 0 };
	struct err e = { 0 };
	int code;

	cli_init("kilo-sync");
	if (parse_args(argc, argv, &o) < 0) /* --help and --version exit in there */
		return KILO_EXIT_USAGE;
	if (sync_config_load(&sc, o.config, &e) < 0) {
		struct sync_stats st = { 0 };

		cli_print_err(&e);
		sync_config_release(&sc);
		/* the metrics say the pass failed (the last good pass's would go
		 * on saying all is well while nothing is synced) */
		st.errors[e.kind <= ERR_TEMP ? e.kind : ERR_SYSTEM]++;
		write_metrics(&o, NULL, NULL, &st, 0);
		return cli_finish(KILO_EXIT_USAGE); /* a config that cannot be used */
	}
	if (http_global_init(&e) < 0) {
		cli_print_err(&e);
		sync_config_release(&sc);
		return KILO_EXIT_FAIL;
	}
	sync_rms_init(&rms, &sc, o.verbose ? trace : NULL);
	code = run(&o, &sc, &rms, &kc, &e);
	if (code < 0) {
		cli_print_err(&e);
		code = err_exit_code(&e);
	}
	k8s_client_release(&kc);
	sync_rms_release(&rms);
	sync_config_release(&sc);
	http_global_cleanup();
	return cli_finish(code);
}
