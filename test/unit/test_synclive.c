// SPDX-License-Identifier: Apache-2.0
/* test_synclive - kilo-sync's live gathering (lib/run/syncrun sync_gather)
 * against the fake API server and the fake RM: the pages it reads through
 * the field filter give the planner exactly what whole pages give, so the
 * SyncPlans are the same bytes.  The cluster is test/bench/gen-cluster.py's
 * (pods of ~3.9 KB with managedFields, env, conditions) with the fixtures'
 * node and pods and a few odd but valid objects, listed in pages of 7. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "fakeproc.h"
#include "run/syncrun.h"
#include "testlib.h"

#define NOW_MS 1795363200000LL /* 2026-11-22T00:00:00Z */

static char *tmp;

static void setup(void)
{
	struct err e = { 0 };

	tmp = testlib_tmpdir();
	ck_assert_int_eq(http_global_init(&e), 0);
	unsetenv("KUBECONFIG");
	setenv("HOME", tmp, 1);
}

static void teardown(void)
{
	testlib_rmtree(tmp);
	free(tmp);
	http_global_cleanup();
}

static char *path_in(const char *rel)
{
	char *p = NULL;

	ck_assert(asprintf(&p, "%s/%s", tmp, rel) > 0);
	return p;
}

/* gen-cluster.py's stream as a List for the fake API server
 * (cluster.json) and its RM node list in the fake RM's shape (rm.json),
 * with what the generator lacks: escapes in strings the planner reads, a
 * pod in no phase with overhead and a sidecar, a terminating NodeManager,
 * two registered under their pod IP and hostname, the fixtures'
 * NodeManager. */
static const char convert[] =
	"import json, sys\n"
	"items, rm = [], []\n"
	"for line in open(sys.argv[1]):\n"
	"    d = json.loads(line)\n"
	"    if 'nodes' in d:\n"
	"        for n in d['nodes']['node']:\n"
	"            rm.append({'id': n['id'], 'state': n['state'], 'memoryMB': 40960,\n"
	"                       'vCores': 20, 'usedMemoryMB': 4096, 'usedVCores': 2,\n"
	"                       'containers': 2})\n"
	"    else:\n"
	"        items.append(d)\n"
	"pods = [p for p in items if p['kind'] == 'Pod']\n"
	"odd = json.loads(json.dumps(pods[-1]))\n"
	"odd['metadata'].update(name='caf\\u00e9-\"q\"\\\\x', namespace='t\\u00e9am')\n"
	"odd['metadata']['annotations']['note'] = 'line\\nbreak \\u2028 \\U0001F600'\n"
	"odd['spec']['containers'][0]['resources'] = {'requests': {\n"
	"    'kubernetes.io/batch-cpu': '1500', 'kubernetes.io/batch-memory': '1.5Gi'}}\n"
	"odd['spec']['overhead'] = {'kubernetes.io/batch-cpu': '250'}\n"
	"odd['spec']['initContainers'] = [\n"
	"    {'name': 'side', 'restartPolicy': 'Always', 'resources': {'requests': {\n"
	"        'kubernetes.io/batch-cpu': '500'}}},\n"
	"    {'name': 'init', 'resources': {'requests': {'kubernetes.io/batch-cpu': '9k'}}}]\n"
	"del odd['status']['phase']\n"
	"items.append(odd)\n"
	"for p in pods:\n"
	"    if p['metadata']['name'].startswith('yarn-nm-') and p['spec']['nodeName'].endswith('2'):\n"
	"        p['metadata']['deletionTimestamp'] = '2026-11-29T15:59:00Z'\n"
	"    if p['metadata']['name'] == 'yarn-nm-worker-00003':  # registered under its pod IP\n"
	"        nmid = p['status']['podIP'] + ':8041'\n"
	"        p['metadata']['annotations']['yarn.hadoop.apache.org/node-id'] = nmid\n"
	"        for r in rm:\n"
	"            if r['id'] == 'worker-00003:8041':\n"
	"                r['id'] = nmid\n"
	"    if p['metadata']['name'] == 'yarn-nm-worker-00004':  # under its spec.hostname\n"
	"        p['spec']['hostname'] = 'nm-host-4'\n"
	"        p['metadata']['annotations']['yarn.hadoop.apache.org/node-id'] = 'nm-host-4:8041'\n"
	"        for r in rm:\n"
	"            if r['id'] == 'worker-00004:8041':\n"
	"                r['id'] = 'nm-host-4:8041'\n"
	"rm.append({'id': 'yarn-nm-0.node-manager.hadoop-yarn.svc.cluster.local:8041',\n"
	"           'state': 'RUNNING', 'memoryMB': 8192, 'vCores': 8, 'usedMemoryMB': 1024,\n"
	"           'usedVCores': 1, 'containers': 1})\n"
	"json.dump({'kind': 'List', 'apiVersion': 'v1', 'items': items}, open(sys.argv[2], 'w'))\n"
	"json.dump(rm, open(sys.argv[3], 'w'))\n";

struct whole {
	struct sync_input *in;
	int nodes;
};

/* Today's reader: every item of a whole page, as sync_gather's on_page. */
static int whole_page(void *arg, json_t *page, struct err *e)
{
	struct whole *w = arg;
	const json_t *it;
	size_t i;

	ck_assert_ptr_nonnull(page); /* no restart in this test */
	ck_assert_ptr_nonnull(json_object_get(json_array_get(json_object_get(page, "items"), 0),
					      "spec")); /* whole indeed */
	json_array_foreach(json_object_get(page, "items"), i, it)
	{
		if ((w->nodes ? sync_input_add_node(w->in, it, e)
			      : sync_input_add_pod(w->in, it, e)) < 0)
			return -1;
	}
	return 0;
}

/* The first line where a and b differ (for the message), or NULL. */
static char *first_difference(const char *a, const char *b)
{
	const char *la = a, *lb = b;
	char *out = NULL;

	for (size_t i = 0; a[i] == b[i]; i++) {
		if (!a[i])
			return NULL;
		if (a[i] == '\n')
			la = a + i + 1, lb = b + i + 1;
	}
	ck_assert(asprintf(&out, "'%.*s' against '%.*s'", (int)strcspn(la, "\n"), la,
			   (int)strcspn(lb, "\n"), lb) > 0);
	return out;
}

static char *plan_text(const struct sync_input *in)
{
	json_t *plan = sync_plan(in, NOW_MS, NULL);
	char *text = json_dumps(plan, JSON_INDENT(1));

	json_decref(plan);
	return text;
}

START_TEST(test_synclive_filtered_pages_same_plan)
{
	char *gen = testlib_fixture("../bench/gen-cluster.py");
	char *node = testlib_fixture("k8s/node-batch.json");
	char *pods = testlib_fixture("k8s/podlist-mixed.json");
	char *stream = path_in("stream.json"), *cluster = path_in("cluster.json"),
	     *rmfile = path_in("rm.json"), *cfgfile = path_in("kilo-sync.yaml"),
	     *kcfile = path_in("kubeconfig"), *cmd = NULL, *conv = path_in("convert.py");
	struct fakeproc api, rm;
	struct sync_config sc = { 0 };
	struct sync_rms rms = { 0 }, rms2 = { 0 };
	struct k8s_client kc;
	struct k8s_options ko = { 0 };
	struct sync_stats st = { 0 };
	struct sync_input *live, *ref;
	struct err e = { 0 };
	char *text, *a, *b, *diff;

	testlib_write(tmp, "convert.py", convert);
	ck_assert(asprintf(&cmd, "python3 '%s' 6 > '%s' && python3 '%s' '%s' '%s' '%s'", gen,
			   stream, conv, stream, cluster, rmfile) > 0);
	ck_assert_msg(system(cmd) == 0, "%s", cmd);
	{
		const char *args[] = { "--load", node, "--load", pods, "--load", cluster, NULL };
		const char *rargs[] = { "--nodes-file", rmfile, NULL };

		fakeproc_start(&api, "fake_apiserver.py", args);
		fakeproc_start(&rm, "fake_rm.py", rargs);
	}
	json_decref(fakeproc_call(&rm, "POST", "/config", "{\"applyDelayMs\":0}"));
	ck_assert(asprintf(&text,
			   "clusters:\n  - id: yarn-cluster-1\n    rmUrls: [%s, %s]\n"
			   "  - id: default\n    rmUrls: [%s]\n"
			   "kubernetes: {pageSize: 7}\n",
			   fakeproc_url(&rm, "rm1"), fakeproc_url(&rm, "rm2"),
			   fakeproc_url(&rm, "rm1")) > 0);
	testlib_write(tmp, "kilo-sync.yaml", text);
	free(text);
	ck_assert(asprintf(&text,
			   "apiVersion: v1\nkind: Config\ncurrent-context: t\n"
			   "clusters:\n- name: f\n  cluster:\n    server: %s\n"
			   "users:\n- name: u\n  user: {}\n"
			   "contexts:\n- name: t\n  context: {cluster: f, user: u}\n",
			   fakeproc_url(&api, "api")) > 0);
	testlib_write(tmp, "kubeconfig", text);
	free(text);
	ko.kubeconfig = kcfile;
	ck_assert_msg(sync_config_load(&sc, cfgfile, &e) == 0, "%s", e.msg);
	ck_assert_msg(k8s_client_init(&kc, &ko, NULL, NULL, &e) == 0, "%s", e.msg);

	/* the live pass's gathering: pages through the filter */
	live = sync_input_new(&sc.options);
	sync_rms_init(&rms, &sc, NULL);
	ck_assert_msg(sync_gather(live, &sc, &rms, &kc, NULL, &st, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(st.nodes, 7);
	ck_assert_int_eq(st.pages, 1 + 26);            /* pages of 7: the nodes; the pods */
	ck_assert_int_eq(st.pods, 6 * 30 - 6 + 4 + 1); /* not Succeeded: generated, fixtures, odd */

	/* the same cluster read as whole pages, the RM lists the same way */
	ref = sync_input_new(&sc.options);
	sync_input_set_remote(ref);
	sync_rms_init(&rms2, &sc, NULL);
	{
		struct k8s_list_options nl = { .limit = 7 };
		struct k8s_list_options pl = {
			.limit = 7,
			.field_selector = "status.phase!=Succeeded,status.phase!=Failed",
		};
		struct whole w = { .in = ref, .nodes = 1 };

		ck_assert_int_eq(k8s_nodes_list(&kc, &nl, whole_page, &w, &e), 1);
		w.nodes = 0;
		ck_assert_int_eq(k8s_pods_list(&kc, NULL, NULL, &pl, whole_page, &w, &e), 26);
	}
	for (size_t i = 0; i < rms2.n; i++) {
		struct yarn_nodes nodes = { 0 };

		ck_assert_msg(yarn_nodes_list(&rms2.c[i], &nodes, &e) == 0, "%s", e.msg);
		sync_input_cluster_rm(ref, rms2.c[i].id, rms2.c[i].active,
				      rms2.c[i].active_started_on);
		ck_assert_int_eq(sync_input_add_rm_nodes(ref, rms2.c[i].id, &nodes, &e), 0);
		yarn_nodes_release(&nodes);
	}
	ck_assert_int_eq(sync_input_pods(ref), sync_input_pods(live));

	a = plan_text(live);
	b = plan_text(ref);
	diff = first_difference(a, b);
	ck_assert_msg(!diff, "the plans differ: filtered %s", diff);
	/* and the plan is one of substance: resizes, a skip, the odd pod summed */
	ck_assert_ptr_nonnull(strstr(a, "\"node\": \"worker-00000\""));
	ck_assert_ptr_nonnull(strstr(a, "\"action\": \"update\""));
	ck_assert_ptr_nonnull(strstr(a, "\"node\": \"worker-1\""));
	ck_assert_ptr_nonnull(strstr(a, "nodemanager-terminating"));
	ck_assert_ptr_nonnull(strstr(a, "\"yarnNodeId\": \"10.244.0.3:8041\""));
	ck_assert_ptr_nonnull(strstr(a, "\"yarnNodeId\": \"nm-host-4:8041\""));

	free(a);
	free(b);

	sync_input_free(live);
	sync_input_free(ref);
	sync_rms_release(&rms);
	sync_rms_release(&rms2);
	k8s_client_release(&kc);
	sync_config_release(&sc);
	fakeproc_stop(&api);
	fakeproc_stop(&rm);
	free(gen);
	free(node);
	free(pods);
	free(stream);
	free(cluster);
	free(rmfile);
	free(cfgfile);
	free(kcfile);
	free(conv);
	free(cmd);
}
END_TEST

static Suite *synclive_suite(void)
{
	Suite *s = suite_create("synclive");
	TCase *tc = tcase_create("fake");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_synclive_filtered_pages_same_plan);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(synclive_suite)
