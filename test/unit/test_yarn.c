// SPDX-License-Identifier: Apache-2.0
/* test_yarn - RM payload parsing, the resize body and answer classification,
 * from the fixtures in test/fixtures/yarn (no socket) */
#include <stdlib.h>
#include <string.h>

#include "remote/yarn.h"
#include "testlib.h"

static json_t *fixture(const char *name)
{
	char *dir = testlib_fixture("yarn");
	char *text = testlib_read(dir, name);
	json_t *doc;

	ck_assert_msg(text != NULL, "fixture %s", name);
	doc = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	free(dir);
	free(text);
	return doc;
}

START_TEST(test_yarn_nodes_fixture)
{
	json_t *doc = fixture("rm-nodes.json");
	struct yarn_nodes nodes;
	struct err e = { 0 };

	ck_assert_int_eq(yarn_nodes_parse(doc, YARN_NODES_STRICT, &nodes, &e), 0);
	ck_assert_uint_eq(nodes.n, 2);
	ck_assert_str_eq(nodes.items[0].id, "host.domain.com:54158");
	ck_assert_str_eq(nodes.items[0].state, "RUNNING");
	ck_assert_str_eq(nodes.items[0].host, "host.domain.com");
	/* No totalResource in this (3.0-era) shape: used + avail. */
	ck_assert_int_eq(nodes.items[0].total_reported, 0);
	ck_assert_int_eq(nodes.items[0].total.memory_mb, 8192);
	ck_assert_int_eq(nodes.items[0].total.vcores, 8);
	ck_assert_int_eq(nodes.items[0].used.memory_mb, 0);
	ck_assert_int_eq(nodes.items[0].inactive, 0);
	ck_assert_ptr_eq(yarn_nodes_find(&nodes, "host.domain.com:54158"), &nodes.items[0]);
	ck_assert_ptr_null(yarn_nodes_find(&nodes, "host.domain.com:1"));
	yarn_nodes_release(&nodes);
	json_decref(doc);
}
END_TEST

START_TEST(test_yarn_node_total_sources)
{
	json_t *doc = fixture("rm-node.json");
	json_t *node = json_object_get(doc, "node");
	struct yarn_node n;
	struct err e = { 0 };

	/* Shrunk below its allocation: availMemoryMB is negative. */
	json_object_set_new(node, "usedMemoryMB", json_integer(6144));
	json_object_set_new(node, "availMemoryMB", json_integer(-2048));
	json_object_set_new(node, "usedVirtualCores", json_integer(6));
	json_object_set_new(node, "availableVirtualCores", json_integer(-2));
	json_object_set_new(node, "numContainers", json_integer(3));
	ck_assert_int_eq(yarn_node_parse(node, "node", &n, &e), 0);
	ck_assert_int_eq(n.total.memory_mb, 4096);
	ck_assert_int_eq(n.total.vcores, 4);
	ck_assert_int_eq(n.used.memory_mb, 6144);
	ck_assert_int_eq(n.containers, 3);
	yarn_node_release(&n);

	/* totalResource wins over used + avail when present (3.2+). */
	json_object_set_new(node, "totalResource",
			    json_pack("{s:i,s:i}", "memory", 4000, "vCores", 5));
	ck_assert_int_eq(yarn_node_parse(node, "node", &n, &e), 0);
	ck_assert_int_eq(n.total_reported, 1);
	ck_assert_int_eq(n.total.memory_mb, 4000);
	ck_assert_int_eq(n.total.vcores, 5);
	yarn_node_release(&n);
	json_decref(doc);
}
END_TEST

static const struct {
	const char *state;
	int inactive;
} state_cases[] = {
	{ "NEW", 0 },
	{ "RUNNING", 0 },
	{ "UNHEALTHY", 0 },
	{ "DECOMMISSIONING", 0 },
	{ "DECOMMISSIONED", 1 },
	{ "LOST", 1 },
	{ "SHUTDOWN", 1 },
	{ "REBOOTED", 1 },
};

START_TEST(test_yarn_node_states)
{
	json_t *node = json_pack("{s:s,s:s,s:i,s:i,s:i,s:i}", "id", "h1:8041", "state",
				 state_cases[_i].state, "usedMemoryMB", 0, "availMemoryMB", 0,
				 "usedVirtualCores", 0, "availableVirtualCores", 0);
	struct yarn_node n;
	struct err e = { 0 };

	ck_assert_int_eq(yarn_node_parse(node, "n", &n, &e), 0);
	ck_assert_int_eq(n.inactive, state_cases[_i].inactive);
	ck_assert_int_eq(yarn_node_state_inactive(state_cases[_i].state), state_cases[_i].inactive);
	ck_assert_str_eq(n.host, "");
	yarn_node_release(&n);
	json_decref(node);
}
END_TEST

static const char *const empty_lists[] = {
	"{\"nodes\":null}",
	"{\"nodes\":{}}",
	"{\"nodes\":{\"node\":[]}}",
	"{\"nodes\":{\"node\":null}}",
};

START_TEST(test_yarn_nodes_empty)
{
	json_t *doc = json_loads(empty_lists[_i], 0, NULL);
	struct yarn_nodes nodes;
	struct err e = { 0 };

	ck_assert_int_eq(yarn_nodes_parse(doc, YARN_NODES_STRICT, &nodes, &e), 0);
	ck_assert_uint_eq(nodes.n, 0);
	yarn_nodes_release(&nodes);
	json_decref(doc);
}
END_TEST

/* {} or another RM document is no list: taken as empty it zeroed YARN's
 * share on nodes whose NodeManager pod was gone (a breaker's finding). */
START_TEST(test_yarn_nodes_not_a_list)
{
	static const char *const docs[] = { "{}", "{\"clusterInfo\":{\"haState\":\"ACTIVE\"}}",
					    "[]" };
	struct yarn_nodes nodes;
	struct err e = { 0 };

	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		json_t *doc = json_loads(docs[i], 0, NULL);

		ck_assert_int_eq(yarn_nodes_parse(doc, YARN_NODES_KEEP_BAD, &nodes, &e), -1);
		ck_assert_str_eq(e.msg, "not an RM nodes list (no \"nodes\" member)");
		json_decref(doc);
	}
}
END_TEST

static const struct {
	const char *doc, *msg;
} bad_nodes[] = {
	{ "{\"nodes\":{\"node\":{}}}", "nodes.node: expected an array, got {}" },
	{ "{\"nodes\":[]}", "nodes: expected an object, got []" },
	{ "{\"nodes\":{\"node\":[{\"state\":\"RUNNING\"}]}}", "nodes.node[0].id: missing" },
	{ "{\"nodes\":{\"node\":[{\"id\":\"\",\"state\":\"RUNNING\"}]}}",
	  "nodes.node[0].id: missing" },
	{ "{\"nodes\":{\"node\":[{\"id\":\"h:1\"}]}}", "nodes.node[0].state: missing" },
	{ "{\"nodes\":{\"node\":[{\"id\":\"h:1\",\"state\":\"RUNNING\"}]}}",
	  "nodes.node[0]: expected totalResource or usedMemoryMB and availMemoryMB" },
	{ "{\"nodes\":{\"node\":[{\"id\":\"h:1\",\"state\":\"RUNNING\",\"usedMemoryMB\":0,"
	  "\"availMemoryMB\":\"8192\"}]}}",
	  "nodes.node[0].availMemoryMB: expected an integer" },
	{ "{\"nodes\":{\"node\":[{\"id\":\"h:1\",\"state\":\"RUNNING\",\"usedMemoryMB\":0,"
	  "\"availMemoryMB\":8192}]}}",
	  "nodes.node[0].availableVirtualCores: missing" },
	{ "{\"nodes\":{\"node\":[{\"id\":\"h:1\",\"state\":\"RUNNING\","
	  "\"totalResource\":{\"memory\":-1,\"vCores\":1}}]}}",
	  "nodes.node[0].totalResource.memory: expected an integer 0.." },
	{ "{\"nodes\":{\"node\":[{\"id\":\"h:1\",\"state\":\"RUNNING\","
	  "\"usedMemoryMB\":9223372036854775807,\"availMemoryMB\":1,"
	  "\"usedVirtualCores\":0,\"availableVirtualCores\":0}]}}",
	  "nodes.node[0]: usedMemoryMB + availMemoryMB overflows" },
};

START_TEST(test_yarn_nodes_bad)
{
	json_t *doc = json_loads(bad_nodes[_i].doc, 0, NULL);
	struct yarn_nodes nodes;
	struct err e = { 0 };

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(yarn_nodes_parse(doc, YARN_NODES_STRICT, &nodes, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strncmp(e.msg, bad_nodes[_i].msg, strlen(bad_nodes[_i].msg)) == 0,
		      "got '%s', want '%s'", e.msg, bad_nodes[_i].msg);
	ck_assert_uint_eq(nodes.n, 0);
	json_decref(doc);
}
END_TEST

START_TEST(test_yarn_cluster_info)
{
	json_t *doc = fixture("rm-cluster-info.json");
	enum yarn_ha_state st = YARN_HA_OTHER;
	struct err e = { 0 };

	ck_assert_int_eq(yarn_cluster_info_parse(doc, &st, &e), 0);
	ck_assert_int_eq(st, YARN_HA_ACTIVE);
	json_object_set_new(json_object_get(doc, "clusterInfo"), "haState", json_string("STANDBY"));
	ck_assert_int_eq(yarn_cluster_info_parse(doc, &st, &e), 0);
	ck_assert_int_eq(st, YARN_HA_STANDBY);
	json_object_set_new(json_object_get(doc, "clusterInfo"), "haState", json_integer(1));
	ck_assert_int_eq(yarn_cluster_info_parse(doc, &st, &e), -1);
	ck_assert_str_eq(e.msg, "clusterInfo.haState: expected a string, got 1");
	json_decref(doc);

	doc = fixture("rm-cluster-info-legacy.json");
	ck_assert_int_eq(yarn_cluster_info_parse(doc, &st, &e), 0);
	ck_assert_int_eq(st, YARN_HA_NONE);
	json_decref(doc);
	doc = json_pack("{s:s}", "RemoteException", "x");
	ck_assert_int_eq(yarn_cluster_info_parse(doc, &st, &e), -1);
	ck_assert_str_eq(e.msg, "clusterInfo: missing");
	json_decref(doc);
}
END_TEST

START_TEST(test_yarn_resize_body)
{
	json_t *want = fixture("rm-node-resource-request.json");
	json_t *body = yarn_resize_body((struct yarn_resource){ 2048, 3 }, 1000);
	char *text;

	ck_assert(json_equal(want, body));
	json_decref(body);
	/* The default -1 (never kill) is written out, never left to the RM's 0. */
	body = yarn_resize_body((struct yarn_resource){ 0, 0 }, -1);
	text = json_dumps(body, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(text,
			 "{\"resource\":{\"memory\":0,\"vCores\":0},\"overCommitTimeout\":-1}");
	free(text);
	json_decref(body);
	json_decref(want);
}
END_TEST

static const char *remote_404 =
	"{\"RemoteException\":{\"exception\":\"NotFoundException\",\"message\":"
	"\"java.lang.Exception: nodeId, h9:1, is not found\",\"javaClassName\":"
	"\"org.apache.hadoop.yarn.webapp.NotFoundException\"}}";
static const char *remote_500 =
	"{\"RemoteException\":{\"exception\":\"YarnRuntimeException\",\"message\":\"boom\"}}";
static const char *jetty_404 = "<html><head><title>Error 404 Not Found</title></head>"
			       "<body><h2>HTTP ERROR 404</h2></body></html>";

/* Hadoop 3.5 (Jersey 2 in Jetty): a path the RM does not serve is a JSON
 * 404 without a RemoteException (test/hadoop/tests/kilo-sync.sh, step 6). */
static const char *jersey2_404 =
	"{\"servlet\":\"org.glassfish.jersey.servlet.ServletContainer-6ff415ad\",\"message\":"
	"\"Not Found\",\"url\":\"/ws/v1/cluster/nodes/127.0.0.2:48371/resource\",\"status\":\"404\"}";

static const struct {
	long status;
	const char *ct, *body;
	enum yarn_resize_answer answer;
	enum err_kind kind;
	const char *msg;
} answers[] = {
	{ 200, "application/json", NULL, YARN_RESIZE_ACCEPTED, ERR_NONE, "" },
	{ 200, "application/json", "{}", YARN_RESIZE_ACCEPTED, ERR_NONE, "" },
	{ 404, "application/json", NULL, YARN_RESIZE_UNKNOWN_NODE, ERR_NOTFOUND,
	  "POST x: node unknown to the RM: NotFoundException: java.lang.Exception: nodeId, h9:1, "
	  "is not found" },
	{ 404, "text/html", NULL, YARN_RESIZE_NO_ENDPOINT, ERR_REMOTE,
	  "POST x: HTTP 404: the RM has no node resource endpoint (older Hadoop); "
	  "configure the rmadmin fallback" },
	{ 405, NULL, "", YARN_RESIZE_NO_ENDPOINT, ERR_REMOTE, "POST x: HTTP 405: the RM has no" },
	{ 404, "application/json", "JERSEY2", YARN_RESIZE_NO_ENDPOINT, ERR_REMOTE,
	  "POST x: HTTP 404: the RM has no node resource endpoint" },
	{ 405, "application/json", "{\"servlet\":\"x\",\"message\":\"Method Not Allowed\"}",
	  YARN_RESIZE_NO_ENDPOINT, ERR_REMOTE, "POST x: HTTP 405: the RM has no" },
	{ 200, "text/plain",
	  "There is no active RM right now.\nHA Zookeeper Connection State: "
	  "CONNECTED",
	  YARN_RESIZE_NO_ACTIVE, ERR_TEMP,
	  "POST x: no active RM (HTTP 200, text/plain: 'There is no active RM right now. HA "
	  "Zookeeper Connection State: CONNECTED')" },
	{ 307, "text/plain", "Can not find any active RM.", YARN_RESIZE_NO_ACTIVE, ERR_TEMP,
	  "POST x: no active RM (HTTP 307" },
	{ 500, "application/json", NULL, YARN_RESIZE_FAILED, ERR_TEMP,
	  "POST x: HTTP 500: YarnRuntimeException: boom" },
	{ 401, "text/html", "<html><body>Authentication required</body></html>", YARN_RESIZE_FAILED,
	  ERR_REMOTE, "POST x: HTTP 401: Authentication required" },
	{ 200, "application/json", "{\"resourceInfo\":", YARN_RESIZE_FAILED, ERR_REMOTE,
	  "POST x: invalid JSON answer" },
};

START_TEST(test_yarn_resize_classify)
{
	struct http_response r = { 0 };
	struct yarn_resource reported = { -1, -1 };
	struct err e = { 0 };
	char *dir = testlib_fixture("yarn");
	const char *body = answers[_i].body;
	char *text = NULL;
	int known = -1;

	if (body && strcmp(body, "JERSEY2") == 0)
		body = jersey2_404;
	else if (!body && answers[_i].status == 200)
		body = text = testlib_read(dir, "rm-node-resource-response.json");
	else if (!body && answers[_i].status == 404 && strcmp(answers[_i].ct, "text/html") == 0)
		body = jetty_404;
	else if (!body)
		body = answers[_i].status == 404 ? remote_404 : remote_500;
	http_response_release(&r);
	r.status = answers[_i].status;
	r.content_type = answers[_i].ct ? strdup(answers[_i].ct) : NULL;
	r.body = strdup(body);
	r.body_len = strlen(body);
	ck_assert_int_eq(yarn_resize_classify(&r, "POST x", &known, &reported, &e),
			 answers[_i].answer);
	ck_assert_int_eq(e.kind, answers[_i].kind);
	ck_assert_msg(strncmp(e.msg, answers[_i].msg, strlen(answers[_i].msg)) == 0,
		      "got '%s', want '%s'", e.msg, answers[_i].msg);
	if (answers[_i].answer == YARN_RESIZE_ACCEPTED && text) {
		ck_assert_int_eq(known, 1);
		ck_assert_int_eq(reported.memory_mb, 2048);
		ck_assert_int_eq(reported.vcores, 3);
	} else {
		ck_assert_int_eq(known, 0);
	}
	http_response_release(&r);
	free(text);
	free(dir);
}
END_TEST

START_TEST(test_yarn_remote_exception)
{
	json_t *doc = json_loads(remote_404, 0, NULL);
	char *s = yarn_remote_exception(doc);

	ck_assert_str_eq(s, "NotFoundException: java.lang.Exception: nodeId, h9:1, is not found");
	free(s);
	json_decref(doc);
	doc = json_pack("{s:{s:s}}", "RemoteException", "message", "only a message");
	s = yarn_remote_exception(doc);
	ck_assert_str_eq(s, "only a message");
	free(s);
	json_decref(doc);
	doc = json_pack("{s:{}}", "kind");
	ck_assert_ptr_null(yarn_remote_exception(doc));
	json_decref(doc);
}
END_TEST

/* why() of n bytes of output fed in chunks of chunk bytes. */
static void whyn(const char *out, size_t n, size_t chunk, char *msg, size_t size)
{
	struct yarn_rmadmin_out *o = calloc(1, sizeof(*o));

	ck_assert_ptr_nonnull(o);
	for (size_t i = 0; i < n; i += chunk)
		yarn_rmadmin_feed(o, out + i, n - i < chunk ? n - i : chunk);
	yarn_rmadmin_why(o, msg, size);
	free(o);
}

static void why(const char *out, size_t chunk, char *msg, size_t size)
{
	whyn(out, strlen(out), chunk, msg, size);
}

/* What an operator reads of a failed rmadmin: the RMAdminCLI line, not its
 * log line or stack frames (output captured from Hadoop 3.4.2), wherever
 * it comes in the output. */
START_TEST(test_yarn_rmadmin_why)
{
	static const char reason[] = "updateNodeResource: Resource update get failed on all nodes "
				     "due to change resource on an unrecognized node: nosuch:1";
	char *path = testlib_fixture("yarn/rmadmin-unknown-node.txt");
	char *out = testlib_read(NULL, path), msg[512], small[24], *logs;
	size_t len = 0;

	ck_assert_ptr_nonnull(out);
	for (size_t chunk = 1; chunk <= 4096; chunk *= 8) {
		why(out, chunk, msg, sizeof(msg));
		ck_assert_str_eq(msg, reason);
	}
	why(out, 512, small, sizeof(small));
	ck_assert_str_eq(small, "updateNodeResource: Res"); /* 23 of 24 bytes */
	/* no RMAdminCLI line: the lines that are neither stack frames nor blank */
	why("Error: JAVA_HOME is not set\r\n\tat x\n\r\n  \nsecond line  \n", 3, msg, sizeof(msg));
	ck_assert_str_eq(msg, "Error: JAVA_HOME is not set; second line");
	why("", 1, msg, sizeof(msg));
	ck_assert_str_eq(msg, "");
	whyn("a\0b\x1b[31m", 8, 2, msg, sizeof(msg));
	ck_assert_str_eq(msg, "a b [31m");
	/* from a review: the reason after 10 kB of log lines, or without a final newline */
	logs = calloc(1, 20000);
	ck_assert_ptr_nonnull(logs);
	for (int i = 0; i < 250; i++)
		len += (size_t)snprintf(logs + len, 20000 - len, "%s",
					"07:01:02.003 WARN Something: a log line of some length\n");
	len += (size_t)snprintf(logs + len, 20000 - len, "%s", reason);
	why(logs, 4096, msg, sizeof(msg));
	ck_assert_str_eq(msg, reason);
	snprintf(logs + len, 20000 - len, "\n\tat org.apache.hadoop.Frame(Frame.java:1)\n");
	why(logs, 100, msg, sizeof(msg));
	ck_assert_str_eq(msg, reason);
	free(logs);
	free(out);
	free(path);
}
END_TEST

static Suite *yarn_suite(void)
{
	Suite *s = suite_create("yarn");
	TCase *tc = tcase_create("nodes");

	tcase_add_test(tc, test_yarn_nodes_fixture);
	tcase_add_test(tc, test_yarn_node_total_sources);
	tcase_add_loop_test(tc, test_yarn_node_states, 0,
			    sizeof(state_cases) / sizeof(state_cases[0]));
	tcase_add_loop_test(tc, test_yarn_nodes_empty, 0,
			    sizeof(empty_lists) / sizeof(empty_lists[0]));
	tcase_add_test(tc, test_yarn_nodes_not_a_list);
	tcase_add_loop_test(tc, test_yarn_nodes_bad, 0, sizeof(bad_nodes) / sizeof(bad_nodes[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("cluster");
	tcase_add_test(tc, test_yarn_cluster_info);
	suite_add_tcase(s, tc);
	tc = tcase_create("resize");
	tcase_add_test(tc, test_yarn_resize_body);
	tcase_add_loop_test(tc, test_yarn_resize_classify, 0, sizeof(answers) / sizeof(answers[0]));
	tcase_add_test(tc, test_yarn_remote_exception);
	tcase_add_test(tc, test_yarn_rmadmin_why);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(yarn_suite)
