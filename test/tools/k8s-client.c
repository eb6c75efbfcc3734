// SPDX-License-Identifier: Apache-2.0
/* k8s-client - drive lib/remote/k8s from shell tests (built by `make check`, not
 * installed).
 *
 *   k8s-client [--kubeconfig F] [--context C] [-n NS] [--root DIR] CMD ...
 *     config                       the resolved configuration as JSON
 *     node NAME                    the Node
 *     nodes                        all nodes as one NodeList
 *     pods [NODE]                  pods of all namespaces (of NODE) as one PodList
 *     annotate NODE [RV] K=V|K-... merge-patch annotations (with resourceVersion RV)
 *   --field-selector S, --label-selector S, --limit N apply to nodes/pods.
 * Prints one JSON document; errors as "k8s-client: <message>" with the exit
 * code of err_exit_code().  Each HTTP exchange is traced on stderr with
 * --verbose.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "remote/k8s.h"

static void trace(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "k8s-client: %s\n", line);
}

static json_t *config_doc(const struct k8s_client *c)
{
	const struct k8s_config *k = &c->cfg;

	return json_pack("{s:s?, s:s?, s:s?, s:b, s:b, s:s?, s:b, s:s?, s:b, s:s?, s:b, s:s?}",
			 "source", k->source, "server", k->server, "caFile", k->ca_file, "caData",
			 k->ca_data != NULL, "insecure", k->insecure, "certFile", k->cert_file,
			 "certData", k->cert_data != NULL, "keyFile", k->key_file, "keyData",
			 k->key_data != NULL, "tokenFile", k->token_file, "hasToken",
			 c->token != NULL, "namespace", k->namespace);
}

static json_t *annotate(struct k8s_client *c, int argc, char **argv, struct err *e)
{
	json_auto_t *ann = json_object();
	const char *rv = NULL;
	int i = 1;

	if (argc < 2)
		return err_set(e, ERR_USAGE, 0, "annotate: NODE expected"), NULL;
	if (i + 1 < argc && !strchr(argv[i + 1], '=') &&
	    argv[i + 1][strlen(argv[i + 1]) - 1] != '-')
		rv = argv[++i];
	for (i++; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t n = strlen(argv[i]);

		if (eq) {
			cleanup_free char *k = xasprintf("%.*s", (int)(eq - argv[i]), argv[i]);

			json_object_set_new(ann, k, json_string(eq + 1));
		} else if (n > 1 && argv[i][n - 1] == '-') {
			cleanup_free char *k = xasprintf("%.*s", (int)(n - 1), argv[i]);

			json_object_set_new(ann, k, json_null());
		} else {
			return err_set(e, ERR_USAGE, 0, "annotate: bad argument '%s'", argv[i]),
			       NULL;
		}
	}
	return k8s_node_patch_annotations(c, argv[1], ann, rv, e);
}

/* pods [NODE]: spec.nodeName=NODE before any --field-selector. */
static json_t *pods(struct k8s_client *c, const char *node, struct k8s_list_options lo,
		    struct err *e)
{
	cleanup_free char *sel = NULL;

	if (node) {
		sel = xasprintf("spec.nodeName=%s%s%s", node, lo.field_selector ? "," : "",
				lo.field_selector ? lo.field_selector : "");
		lo.field_selector = sel;
	}
	return k8s_list_all(c, "/api/v1/pods", &lo, e);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kubeconfig", required_argument, NULL, 'k' },
		{ "context", required_argument, NULL, 'c' },
		{ "namespace", required_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'r' },
		{ "field-selector", required_argument, NULL, 'f' },
		{ "label-selector", required_argument, NULL, 'l' },
		{ "limit", required_argument, NULL, 'L' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct k8s_options o = { 0 };
	struct k8s_list_options lo = { 0 };
	struct k8s_client c;
	struct err e = { 0 };
	json_auto_t *out = NULL;
	int opt, verbose = 0, ret;
	const char *cmd;

	cli_init("k8s-client");
	while ((opt = getopt_long(argc, argv, "n:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'k':
			o.kubeconfig = optarg;
			break;
		case 'c':
			o.context = optarg;
			break;
		case 'n':
			o.namespace = optarg;
			break;
		case 'r':
			o.root = optarg;
			break;
		case 'f':
			lo.field_selector = optarg;
			break;
		case 'l':
			lo.label_selector = optarg;
			break;
		case 'L':
			lo.limit = strtol(optarg, NULL, 10);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			return cli_usage_error("unknown option");
		}
	}
	if (optind >= argc)
		return cli_usage_error("command expected");
	cmd = argv[optind];
	if (http_global_init(&e) < 0) {
		cli_print_err(&e);
		return cli_finish(err_exit_code(&e));
	}
	ret = k8s_client_init(&c, &o, verbose ? trace : NULL, NULL, &e);
	if (ret == 0) {
		if (strcmp(cmd, "config") == 0)
			out = config_doc(&c);
		else if (strcmp(cmd, "node") == 0 && optind + 1 < argc)
			out = k8s_node_get(&c, argv[optind + 1], &e);
		else if (strcmp(cmd, "nodes") == 0)
			out = k8s_list_all(&c, "/api/v1/nodes", &lo, &e);
		else if (strcmp(cmd, "pods") == 0)
			out = pods(&c, optind + 1 < argc ? argv[optind + 1] : NULL, lo, &e);
		else if (strcmp(cmd, "annotate") == 0)
			out = annotate(&c, argc - optind, argv + optind, &e);
		else
			err_set(&e, ERR_USAGE, 0, "unknown command '%s'", cmd);
		ret = out ? 0 : -1;
	}
	if (ret == 0)
		ret = jsonio_write(stdout, out, 0, &e);
	if (ret < 0)
		cli_print_err(&e);
	k8s_client_release(&c);
	http_global_cleanup();
	return cli_finish(ret < 0 ? err_exit_code(&e) : 0);
}
