// SPDX-License-Identifier: Apache-2.0
/* test_yarn_rm - lib/remote/yarn and lib/remote/http against the fake RM pair
 * (test/fake/fake_rm.py): discovery, failover, standby never written, no
 * active RM, unknown node, missing endpoint and the rmadmin fallback,
 * asynchronous apply, faults, TLS.  Each test gets its own fake. */
#include <string.h>
#include <sys/stat.h>

#include "core/clock.h"
#include "fakeproc.h"
#include "remote/yarn.h"
#include "testlib.h"

#define HOST1 "host1.domain.com:8041"
#define HOST2 "host2.domain.com:8041"
#define HOST3 "host3.domain.com:8041"

static struct fakeproc rm;
static const char *urls[2];
static char *tls_dir;

static void start(const char *const *args)
{
	struct err e = { 0 };

	ck_assert_int_eq(http_global_init(&e), 0);
	fakeproc_start(&rm, "fake_rm.py", args);
	urls[0] = fakeproc_url(&rm, "rm1");
	urls[1] = fakeproc_url(&rm, "rm2");
}

static void setup(void)
{
	start(NULL);
}

static void teardown(void)
{
	fakeproc_stop(&rm);
	http_global_cleanup();
}

static void cluster(struct yarn_cluster *c)
{
	yarn_cluster_init(c);
	c->id = "c1";
	c->rm_urls = urls;
	c->n_rm = 2;
	c->user_name = "yarn";
	c->http.timeout_ms = 5000;
	c->http.connect_timeout_ms = 2000;
}

static void control(const char *path, const char *body)
{
	json_decref(fakeproc_call(&rm, "POST", path, body));
}

/* The fake's request log, only entries after the first `skip`. */
static json_t *rm_log(void)
{
	return fakeproc_call(&rm, "GET", "/log", NULL);
}

/* How many logged requests match: rm ("rm1", "rm2" or NULL), method, path
 * prefix, role ("ACTIVE", "STANDBY" or NULL). */
static int count(const char *name, const char *method, const char *path, const char *role)
{
	json_t *log = rm_log(), *x;
	size_t i;
	int n = 0;

	json_array_foreach(log, i, x)
	{
		const char *p = json_string_value(json_object_get(x, "path"));

		if ((!name || strcmp(json_string_value(json_object_get(x, "rm")), name) == 0) &&
		    strcmp(json_string_value(json_object_get(x, "method")), method) == 0 &&
		    strncmp(p, path, strlen(path)) == 0 &&
		    (!role || strcmp(json_string_value(json_object_get(x, "role")), role) == 0))
			n++;
	}
	json_decref(log);
	return n;
}

static json_t *state(void)
{
	return fakeproc_call(&rm, "GET", "/state", NULL);
}

START_TEST(test_rm_discovery)
{
	struct yarn_cluster c;
	struct err e = { 0 };
	json_t *log;

	cluster(&c);
	ck_assert_int_eq(yarn_find_active(&c, &e), 0);
	ck_assert_int_eq(c.active, 0);
	log = rm_log();
	ck_assert_uint_eq(json_array_size(log), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(log, 0), "path")),
			 "/ws/v1/cluster/info");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(log, 0), "query")),
			 "user.name=yarn");
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(json_array_get(log, 0), "headers"), "user-agent")),
			 "kilo/" KILO_VERSION);
	json_decref(log);

	/* rm2 active: rm1 says STANDBY, rm2 is found and remembered. */
	control("/failover", NULL);
	cluster(&c);
	ck_assert_int_eq(yarn_find_active(&c, &e), 1);
	ck_assert_int_eq(count("rm1", "GET", "/ws/v1/cluster/info", "STANDBY"), 1);
	ck_assert_int_eq(count("rm2", "GET", "/ws/v1/cluster/info", "ACTIVE"), 1);

	/* An unreachable RM first in the list is skipped. */
	urls[0] = "http://127.0.0.1:1";
	cluster(&c);
	ck_assert_int_eq(yarn_find_active(&c, &e), 1);
}
END_TEST

START_TEST(test_rm_single_without_ha_state)
{
	struct yarn_cluster c;
	struct yarn_nodes nodes;
	struct err e = { 0 };

	control("/config", "{\"haState\":false}");
	cluster(&c);
	c.n_rm = 1;
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), 0);
	ck_assert_int_eq(c.active, 0);
	ck_assert_uint_eq(nodes.n, 3);
	yarn_nodes_release(&nodes);
}
END_TEST

START_TEST(test_rm_failover_between_calls)
{
	struct yarn_cluster c;
	struct yarn_nodes nodes;
	struct err e = { 0 };

	cluster(&c);
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), 0);
	ck_assert_int_eq(c.active, 0);
	yarn_nodes_release(&nodes);
	control("/failover", NULL);
	ck_assert_msg(yarn_nodes_list(&c, &nodes, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(nodes.n, 3);
	yarn_nodes_release(&nodes);
	/* rm1, now standby, answered 307; the client did not follow it but found rm2 by discovery. */
	ck_assert_int_eq(count("rm1", "GET", "/ws/v1/cluster/nodes", "STANDBY"), 1);
	ck_assert_int_eq(count("rm2", "GET", "/ws/v1/cluster/nodes", "ACTIVE"), 1);
	ck_assert_int_eq(c.active, 1);
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), 0);
	yarn_nodes_release(&nodes);
	ck_assert_int_eq(count("rm1", "GET", "/ws/v1/cluster/nodes", NULL), 2);
	ck_assert_int_eq(count("rm2", "GET", "/ws/v1/cluster/nodes", NULL), 2);
}
END_TEST

START_TEST(test_rm_standby_never_written)
{
	struct yarn_resize_result res;
	struct yarn_cluster c;
	struct err e = { 0 };
	json_t *st;

	cluster(&c);
	ck_assert_int_eq(yarn_find_active(&c, &e), 0);
	control("/failover", NULL);
	ck_assert_msg(yarn_node_resize(&c, HOST1, (struct yarn_resource){ 4096, 4 }, -1, &res,
				       &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(res.via, YARN_VIA_REST);
	ck_assert_int_eq(res.rm, 1);
	control("/failover", NULL);
	ck_assert_int_eq(
		yarn_node_resize(&c, HOST2, (struct yarn_resource){ 2048, 2 }, -1, &res, &e), 0);
	ck_assert_int_eq(res.rm, 0);
	ck_assert_int_eq(count(NULL, "POST", "/", "STANDBY"), 0);
	ck_assert_int_eq(count("rm2", "POST", "/ws/v1/cluster/nodes/" HOST1 "/resource", "ACTIVE"),
			 1);
	ck_assert_int_eq(count("rm1", "POST", "/ws/v1/cluster/nodes/" HOST2 "/resource", "ACTIVE"),
			 1);
	st = state();
	ck_assert_uint_eq(json_array_size(json_object_get(st, "resizes")), 2);
	json_decref(st);
}
END_TEST

static const char *const no_active_modes[] = { "exhausted", "retrying" };

START_TEST(test_rm_no_active)
{
	struct yarn_resize_result res;
	struct yarn_cluster c;
	struct yarn_nodes nodes;
	struct err e = { 0 };
	char body[128];

	cluster(&c);
	ck_assert_int_eq(yarn_find_active(&c, &e), 0);
	snprintf(body, sizeof(body), "{\"active\":null,\"noActive\":\"%s\"}", no_active_modes[_i]);
	control("/config", body);
	/* The remembered RM answers plain text 200 or 307 without Location. */
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strstr(e.msg, "no active RM") != NULL, "%s", e.msg);
	ck_assert_int_eq(c.active, -1);
	ck_assert_int_eq(count("rm1", "GET", "/ws/v1/cluster/nodes", "STANDBY"), 1);
	ck_assert_int_eq(yarn_node_resize(&c, HOST1, (struct yarn_resource){ 1, 1 }, -1, &res, &e),
			 -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strstr(e.msg, "cluster c1: no active RM (") != NULL, "%s", e.msg);
	ck_assert_int_eq(count(NULL, "POST", "/", NULL), 0);
}
END_TEST

START_TEST(test_rm_unknown_node)
{
	struct yarn_resize_result res;
	struct yarn_cluster c;
	struct yarn_node n;
	struct err e = { 0 };
	json_t *st;

	cluster(&c);
	ck_assert_int_eq(yarn_node_get(&c, "nope.domain.com:8041", &n, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_msg(strstr(e.msg, "nodeId, nope.domain.com:8041, is not found") != NULL, "%s",
		      e.msg);
	ck_assert_int_eq(yarn_node_resize(&c, "nope.domain.com:8041",
					  (struct yarn_resource){ 1, 1 }, -1, &res, &e),
			 -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_msg(strstr(e.msg, "node unknown to the RM: NotFoundException") != NULL, "%s",
		      e.msg);
	/* A malformed id is a 400 from NodeId.fromString. */
	ck_assert_int_eq(yarn_node_get(&c, "no-port", &n, &e), -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	st = state();
	ck_assert_uint_eq(json_array_size(json_object_get(st, "resizes")), 0);
	json_decref(st);
}
END_TEST

static const char *const missing_modes[] = { "missing404", "missing405" };

START_TEST(test_rm_endpoint_missing)
{
	struct yarn_resize_result res;
	struct yarn_cluster c;
	struct err e = { 0 };
	char *dir = testlib_tmpdir(), *yarn = NULL, *args;
	char body[64];

	snprintf(body, sizeof(body), "{\"endpoint\":\"%s\"}", missing_modes[_i]);
	control("/config", body);
	cluster(&c);
	ck_assert_int_eq(
		yarn_node_resize(&c, HOST2, (struct yarn_resource){ 4096, 3 }, -1, &res, &e), -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_msg(strstr(e.msg, "the RM has no node resource endpoint") != NULL, "%s", e.msg);

	/* The fallback: a stub `yarn` records its arguments. */
	testlib_write(dir, "yarn",
		      "#!/bin/sh\nprintf '%s\\n' \"$*\" >>\"$(dirname \"$0\")/args\"\n");
	ck_assert(asprintf(&yarn, "%s/yarn", dir) > 0);
	ck_assert_int_eq(chmod(yarn, 0755), 0);
	c.rmadmin = yarn;
	ck_assert_msg(yarn_node_resize(&c, HOST2, (struct yarn_resource){ 4096, 3 }, -1, &res,
				       &e) == 0,
		      "%s", e.msg);
	ck_assert_int_eq(res.via, YARN_VIA_RMADMIN);
	ck_assert_int_eq(
		yarn_node_resize(&c, HOST1, (struct yarn_resource){ 0, 0 }, 30000, &res, &e), 0);
	args = testlib_read(dir, "args");
	ck_assert_str_eq(args, "rmadmin -updateNodeResource " HOST2 " 4096 3 -1\n"
			       "rmadmin -updateNodeResource " HOST1 " 0 0 30000\n");
	free(args);

	/* A hanging rmadmin is killed, with what it started. */
	testlib_write(dir, "yarn", "#!/bin/sh\nsleep 30\n");
	c.rmadmin_timeout_ms = 300;
	ck_assert_int_eq(yarn_node_resize(&c, HOST2, (struct yarn_resource){ 1, 1 }, -1, &res, &e),
			 -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strstr(e.msg, "timed out after 300 ms") != NULL, "%s", e.msg);

	/* One that closes its output and hangs on is killed just the same (its
	 * end of output is no exit): not waited for, nor taken for success. */
	testlib_write(dir, "yarn", "#!/bin/sh\nexec >/dev/null 2>&1\nsleep 5\n");
	{
		int64_t t0 = clock_mono_ms();

		ck_assert_int_eq(yarn_refresh_nodes(&c, 60, &e), -1);
		ck_assert_int_eq(e.kind, ERR_TEMP);
		ck_assert_msg(strstr(e.msg, "timed out after 300 ms") != NULL, "%s", e.msg);
		ck_assert_msg(clock_mono_ms() - t0 < 3000, "waited %lld ms",
			      (long long)(clock_mono_ms() - t0));
	}

	/* A failing rmadmin: its exit status and output end up in the message. */
	testlib_write(dir, "yarn",
		      "#!/bin/sh\necho 'updateNodeResource: access denied' >&2\nexit 3\n");
	ck_assert_int_eq(yarn_node_resize(&c, HOST2, (struct yarn_resource){ 1, 1 }, -1, &res, &e),
			 -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_msg(strstr(e.msg, "exit status 3: updateNodeResource: access denied") != NULL,
		      "%s", e.msg);
	free(yarn);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_rm_async_apply)
{
	struct yarn_resource want = { 4096, 3 };
	struct yarn_resize_result res;
	struct yarn_cluster c;
	struct yarn_node n;
	struct err e = { 0 };
	json_t *st, *r;

	control("/config", "{\"applyDelayMs\":400}");
	cluster(&c);
	ck_assert_int_eq(yarn_node_resize(&c, HOST1, want, 5000, &res, &e), 0);
	/* 200 = accepted: the answer shows the total asked for (Hadoop 3.4,
	 * test/fixtures/yarn/hadoop-3.4.2/resize.json), an immediate read the
	 * old one. */
	ck_assert_int_eq(res.reported_known, 1);
	ck_assert_int_eq(res.reported.memory_mb, want.memory_mb);
	ck_assert_int_eq(res.reported.vcores, want.vcores);
	ck_assert_int_eq(yarn_node_get(&c, HOST1, &n, &e), 0);
	ck_assert_int_eq(n.total.memory_mb, 8192);
	yarn_node_release(&n);
	ck_assert_int_eq(yarn_node_wait_total(&c, HOST1, want, 5000, 50, &n, &e), 1);
	ck_assert_int_eq(n.total.memory_mb, 4096);
	ck_assert_int_eq(n.total.vcores, 3);
	ck_assert_int_eq(n.total_reported, 1);
	yarn_node_release(&n);
	st = state();
	r = json_array_get(json_object_get(st, "resizes"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "overCommitTimeout")), 5000);
	ck_assert(json_is_true(json_object_get(r, "overCommitTimeoutSent")));
	ck_assert_int_eq(json_integer_value(json_object_get(r, "memory")), 4096);
	json_decref(st);

	/* An RM restart forgets every resize. */
	control("/restart", NULL);
	ck_assert_int_eq(yarn_node_get(&c, HOST1, &n, &e), 0);
	ck_assert_int_eq(n.total.memory_mb, 8192);
	yarn_node_release(&n);

	/* Accepted but never applied (a failover race answers 200 too). */
	control("/config", "{\"acceptWithoutApply\":true}");
	ck_assert_int_eq(yarn_node_resize(&c, HOST1, want, -1, &res, &e), 0);
	ck_assert_int_eq(yarn_node_wait_total(&c, HOST1, want, 600, 100, &n, &e), 0);
	ck_assert_int_eq(n.total.memory_mb, 8192);
	yarn_node_release(&n);
}
END_TEST

START_TEST(test_rm_nodes)
{
	struct yarn_cluster c;
	struct yarn_nodes nodes;
	const struct yarn_node *n;
	struct err e = { 0 };

	cluster(&c);
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), 0);
	ck_assert_uint_eq(nodes.n, 3);
	n = yarn_nodes_find(&nodes, HOST1);
	ck_assert_int_eq(n->total_reported, 1);
	ck_assert_int_eq(n->total.memory_mb, 8192);
	ck_assert_int_eq(n->used.memory_mb, 2048);
	ck_assert_int_eq(n->used.vcores, 2);
	ck_assert_int_eq(n->containers, 2);
	ck_assert_int_eq(n->inactive, 0);
	n = yarn_nodes_find(&nodes, HOST3);
	ck_assert_str_eq(n->state, "LOST");
	ck_assert_int_eq(n->inactive, 1);
	yarn_nodes_release(&nodes);

	/* An RM without totalResource, a node shrunk below its allocation. */
	control("/config", "{\"totalResource\":false}");
	control("/nodes", "[{\"id\":\"" HOST1 "\",\"memoryMB\":4096,\"vCores\":2,"
			  "\"usedMemoryMB\":6144,\"usedVCores\":3}]");
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), 0);
	ck_assert_uint_eq(nodes.n, 1);
	ck_assert_int_eq(nodes.items[0].total_reported, 0);
	ck_assert_int_eq(nodes.items[0].total.memory_mb, 4096);
	ck_assert_int_eq(nodes.items[0].total.vcores, 2);
	yarn_nodes_release(&nodes);

	control("/nodes", "[]");
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), 0);
	ck_assert_uint_eq(nodes.n, 0);
	yarn_nodes_release(&nodes);
}
END_TEST

START_TEST(test_rm_user_name)
{
	struct yarn_cluster c;
	struct yarn_nodes nodes;
	struct err e = { 0 };

	control("/config", "{\"requireUserName\":true}");
	cluster(&c);
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), 0);
	yarn_nodes_release(&nodes);
	c.user_name = NULL;
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_msg(strstr(e.msg, "HTTP 401") != NULL, "%s", e.msg);
}
END_TEST

START_TEST(test_rm_faults)
{
	struct yarn_cluster c;
	struct yarn_nodes nodes;
	struct err e = { 0 };

	cluster(&c);
	/* 500: temporary, not retried by the library (the loop retries). */
	control("/fault", "{\"path\":\"/ws/v1/cluster/nodes\",\"status\":500}");
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strstr(e.msg, "HTTP 500") != NULL, "%s", e.msg);

	/* One dropped connection: re-discovered and retried once. */
	control("/fault", "{\"path\":\"/ws/v1/cluster/nodes\",\"drop\":true}");
	ck_assert_msg(yarn_nodes_list(&c, &nodes, &e) == 0, "%s", e.msg);
	yarn_nodes_release(&nodes);
	ck_assert_int_eq(count("rm1", "GET", "/ws/v1/cluster/nodes", NULL), 3);

	/* Slower than the timeout, twice: a temporary failure. */
	c.http.timeout_ms = 300;
	control("/fault", "{\"path\":\"/ws/v1/cluster/nodes\",\"delayMs\":1000,\"count\":2}");
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strstr(e.msg, "imeout") || strstr(e.msg, "timed out"), "%s", e.msg);

	/* Every RM unreachable. */
	urls[0] = urls[1] = "http://127.0.0.1:1";
	cluster(&c);
	ck_assert_int_eq(yarn_nodes_list(&c, &nodes, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strncmp(e.msg, "cluster c1: no active RM (http://127.0.0.1:1: GET ", 50) == 0,
		      "%s", e.msg);
}
END_TEST

START_TEST(test_rm_inactive_node_resize)
{
	struct yarn_resize_result res;
	struct yarn_cluster c;
	struct err e = { 0 };

	cluster(&c);
	ck_assert_int_eq(yarn_node_resize(&c, HOST3, (struct yarn_resource){ 1, 1 }, -1, &res, &e),
			 -1);
	ck_assert_msg(strstr(e.msg, "HTTP 500: YarnRuntimeException: ") != NULL, "%s", e.msg);
}
END_TEST

/* ---- lib/remote/http against a real server ---- */

/* The client ports of the logged requests, in order. */
static void peer_ports(long *ports, size_t n)
{
	json_t *log = rm_log();

	ck_assert_uint_eq(json_array_size(log), n);
	for (size_t i = 0; i < n; i++)
		ports[i] = (long)json_integer_value(
			json_object_get(json_array_get(log, i), "peerPort"));
	json_decref(log);
}

START_TEST(test_http_pool_keeps_connection)
{
	struct http_client c = { .timeout_ms = 5000 };
	struct http_response resp = { 0 };
	struct http_request req;
	struct err e = { 0 };
	long ports[4];

	http_request_init(&req, HTTP_GET, urls[0], YARN_PATH_INFO);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	c.pool = http_pool_new();
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	peer_ports(ports, 4);
	ck_assert_int_ne(ports[0], ports[1]);
	ck_assert_int_eq(ports[2], ports[3]);
	http_pool_free(c.pool);
	http_request_release(&req);
	http_response_release(&resp);
}
END_TEST

START_TEST(test_http_redirect_resends_body)
{
	struct http_client c = { .bearer_token = "tok-secret", .timeout_ms = 5000 };
	struct http_response resp = { 0 };
	struct http_request req;
	struct err e = { 0 };
	json_t *log, *first, *second;
	const char *body = "{\"resource\":{\"memory\":1024,\"vCores\":1},\"overCommitTimeout\":-1}";

	/* POST to the standby rm2: 307 to rm1, re-sent with its body. */
	http_request_init(&req, HTTP_POST, urls[1], "/ws/v1/cluster/nodes/" HOST1 "/resource");
	http_request_set_body(&req, "application/json", body, strlen(body));
	req.follow_redirects = 1;
	ck_assert_msg(http_perform(&c, &req, &resp, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(resp.status, 200);
	ck_assert_int_eq(resp.redirects, 1);
	ck_assert_str_eq(resp.content_type, "application/json");
	ck_assert(strncmp(resp.url, urls[0], strlen(urls[0])) == 0);
	log = rm_log();
	ck_assert_uint_eq(json_array_size(log), 2);
	first = json_array_get(log, 0);
	second = json_array_get(log, 1);
	ck_assert_str_eq(json_string_value(json_object_get(first, "rm")), "rm2");
	ck_assert_int_eq(json_integer_value(json_object_get(first, "status")), 307);
	ck_assert_str_eq(json_string_value(json_object_get(second, "rm")), "rm1");
	ck_assert_str_eq(json_string_value(json_object_get(second, "method")), "POST");
	ck_assert_str_eq(json_string_value(json_object_get(second, "body")), body);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(second, "headers"),
							   "content-type")),
			 "application/json");
	/* The token went to the first origin only. */
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(first, "headers"),
							   "authorization")),
			 "Bearer tok-secret");
	ck_assert_ptr_null(json_object_get(json_object_get(second, "headers"), "authorization"));
	json_decref(log);

	/* Not asked to follow: the 307 itself, with its Location. */
	req.follow_redirects = 0;
	ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	ck_assert_int_eq(resp.status, 307);
	ck_assert_int_eq(resp.redirects, 0);
	ck_assert(strncmp(resp.location, urls[0], strlen(urls[0])) == 0);
	ck_assert(strncmp(resp.body, "This is standby RM. The redirect url is: ", 41) == 0);
	http_request_release(&req);
	http_response_release(&resp);
}
END_TEST

START_TEST(test_http_patch_and_retry_after)
{
	struct http_client c = { .timeout_ms = 5000 };
	struct http_response resp = { 0 };
	struct http_request req;
	struct err e = { 0 };
	json_t *log, *x;

	http_request_init(&req, HTTP_PATCH, urls[0], "/api/v1/nodes/n1");
	http_request_set_body(&req, "application/merge-patch+json", "{\"a\":1}", 7);
	ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	ck_assert_int_eq(resp.status, 404);
	log = rm_log();
	x = json_array_get(log, 0);
	ck_assert_str_eq(json_string_value(json_object_get(x, "method")), "PATCH");
	ck_assert_str_eq(json_string_value(json_object_get(x, "body")), "{\"a\":1}");
	ck_assert_str_eq(
		json_string_value(json_object_get(json_object_get(x, "headers"), "content-type")),
		"application/merge-patch+json");
	json_decref(log);
	http_request_release(&req);

	/* A body does not turn a GET into a POST. */
	http_request_init(&req, HTTP_GET, urls[0], "/ws/v1/cluster/info");
	http_request_set_body(&req, "application/json", "{}", 2);
	ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	ck_assert_int_eq(resp.status, 200);
	ck_assert_int_eq(count("rm1", "GET", "/ws/v1/cluster/info", NULL), 1);
	http_request_release(&req);

	control("/fault", "{\"path\":\"/ws/v1/cluster/nodes\",\"status\":503,\"retryAfter\":7}");
	http_request_init(&req, HTTP_GET, urls[0], "/ws/v1/cluster/nodes");
	ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	ck_assert_int_eq(resp.status, 503);
	ck_assert_int_eq(resp.retry_after_ms, 7000);
	ck_assert_int_eq(http_status_kind(resp.status), ERR_TEMP);
	/* The same response struct is reused for the next exchange. */
	ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	ck_assert_int_eq(resp.status, 200);
	ck_assert_int_eq(resp.retry_after_ms, -1);

	/* A per-request timeout wins over the client's. */
	control("/fault", "{\"path\":\"/ws/v1/cluster/nodes\",\"delayMs\":1500}");
	req.timeout_ms = 200;
	ck_assert_int_eq(http_perform(&c, &req, &resp, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strstr(e.msg, "GET http://127.0.0.1:") == e.msg, "%s", e.msg);
	ck_assert_int_eq(resp.status, 0);
	http_request_release(&req);
	http_response_release(&resp);
}
END_TEST

static void trace_to(void *arg, const char *line)
{
	fprintf(arg, "%s\n", line);
}

START_TEST(test_http_trace_has_no_secret)
{
	struct http_client c = { .bearer_token = "tok-secret", .timeout_ms = 5000 };
	struct http_response resp = { 0 };
	struct http_request req;
	struct err e = { 0 };
	char *text = NULL, *url = NULL, *want = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	c.trace = trace_to;
	c.trace_arg = m;
	ck_assert(asprintf(&url, "http://admin:pw@%s", urls[1] + 7) > 0);
	http_request_init(&req, HTTP_GET, url, "/ws/v1/cluster/nodes");
	req.follow_redirects = 1;
	ck_assert_int_eq(http_perform(&c, &req, &resp, &e), 0);
	fclose(m);
	ck_assert(asprintf(&want, "GET %s/ws/v1/cluster/nodes -> 307 (", urls[1]) > 0);
	ck_assert_msg(strncmp(text, want, strlen(want)) == 0, "%s", text);
	ck_assert_msg(strstr(text, "\nGET http://127.0.0.1:") != NULL, "%s", text);
	ck_assert_ptr_null(strstr(text, "tok-secret"));
	ck_assert_ptr_null(strstr(text, "pw"));
	http_request_release(&req);
	http_response_release(&resp);
	free(text);
	free(url);
	free(want);
}
END_TEST

/* ---- TLS, with a CA made for the test ---- */

static char *tls_file(const char *name)
{
	char *p = NULL;

	ck_assert(asprintf(&p, "%s/%s", tls_dir, name) > 0);
	return p;
}

static void tls_setup(void)
{
	char *cmd = NULL, *script = testlib_fixture("../fake/mkcerts.sh");
	char *cert, *key, *ca;

	tls_dir = testlib_tmpdir();
	ck_assert(asprintf(&cmd, "sh '%s' '%s' >/dev/null 2>&1", script, tls_dir) > 0);
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
	cert = tls_file("server.crt");
	key = tls_file("server.key");
	ca = tls_file("ca.crt");
	start((const char *const[]){ "--tls-cert", cert, "--tls-key", key, "--client-ca", ca,
				     NULL });
	free(cert);
	free(key);
	free(ca);
	free(cmd);
	free(script);
}

static void tls_teardown(void)
{
	teardown();
	testlib_rmtree(tls_dir);
	free(tls_dir);
}

/* find_active over TLS with the settings given; returns its result. */
static int tls_try(struct http_tls tls, struct err *e)
{
	struct yarn_cluster c;

	cluster(&c);
	c.http.tls = tls;
	return yarn_find_active(&c, e);
}

START_TEST(test_tls_files_and_data)
{
	char *ca = tls_file("ca.crt"), *cert = tls_file("client.crt"),
	     *key = tls_file("client.key");
	char *ca_pem = testlib_read(tls_dir, "ca.crt"),
	     *cert_pem = testlib_read(tls_dir, "client.crt");
	char *key_pem = testlib_read(tls_dir, "client.key");
	struct err e = { 0 };

	ck_assert(strncmp(urls[0], "https://127.0.0.1:", 18) == 0);
	ck_assert_msg(
		tls_try((struct http_tls){ .ca_file = ca, .cert_file = cert, .key_file = key },
			&e) == 0,
		"%s", e.msg);
	ck_assert_msg(tls_try((struct http_tls){ .ca_data = ca_pem,
						 .cert_data = cert_pem,
						 .key_data = key_pem },
			      &e) == 0,
		      "%s", e.msg);
	/* Skip-verify only when asked; the client certificate is still needed. */
	ck_assert_int_eq(tls_try((struct http_tls){ .insecure_skip_verify = 1,
						    .cert_file = cert,
						    .key_file = key },
				 &e),
			 0);
	ck_assert_int_eq(count(NULL, "GET", "/ws/v1/cluster/info", NULL), 3);
	free(ca);
	free(cert);
	free(key);
	free(ca_pem);
	free(cert_pem);
	free(key_pem);
}
END_TEST

START_TEST(test_tls_refused)
{
	char *ca = tls_file("ca.crt"), *cert = tls_file("client.crt"),
	     *key = tls_file("client.key");
	struct yarn_cluster c;
	struct http_response resp = { 0 };
	struct http_request req;
	struct err e = { 0 };

	/* The system store does not know the test CA. */
	cluster(&c);
	c.http.tls = (struct http_tls){ .cert_file = cert, .key_file = key };
	http_request_init(&req, HTTP_GET, urls[0], YARN_PATH_INFO);
	ck_assert_int_eq(http_perform(&c.http, &req, &resp, &e), -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_msg(strstr(e.msg, "certificate") != NULL, "%s", e.msg);
	/* No client certificate: the server refuses the handshake. */
	c.http.tls = (struct http_tls){ .ca_file = ca };
	ck_assert_int_eq(http_perform(&c.http, &req, &resp, &e), -1);
	/* A CA file that does not exist is a configuration error. */
	c.http.tls = (struct http_tls){ .ca_file = "/nonexistent/ca.crt" };
	ck_assert_int_eq(http_perform(&c.http, &req, &resp, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_int_eq(count(NULL, "GET", "/", NULL), 0);
	http_request_release(&req);
	free(ca);
	free(cert);
	free(key);
}
END_TEST

static Suite *yarn_rm_suite(void)
{
	Suite *s = suite_create("yarn_rm");
	TCase *tc = tcase_create("rm");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rm_discovery);
	tcase_add_test(tc, test_rm_single_without_ha_state);
	tcase_add_test(tc, test_rm_failover_between_calls);
	tcase_add_test(tc, test_rm_standby_never_written);
	tcase_add_loop_test(tc, test_rm_no_active, 0, 2);
	tcase_add_test(tc, test_rm_unknown_node);
	tcase_add_loop_test(tc, test_rm_endpoint_missing, 0, 2);
	tcase_add_test(tc, test_rm_async_apply);
	tcase_add_test(tc, test_rm_nodes);
	tcase_add_test(tc, test_rm_user_name);
	tcase_add_test(tc, test_rm_faults);
	tcase_add_test(tc, test_rm_inactive_node_resize);
	tcase_add_test(tc, test_http_pool_keeps_connection);
	tcase_add_test(tc, test_http_redirect_resends_body);
	tcase_add_test(tc, test_http_patch_and_retry_after);
	tcase_add_test(tc, test_http_trace_has_no_secret);
	suite_add_tcase(s, tc);
	tc = tcase_create("tls");
	tcase_add_checked_fixture(tc, tls_setup, tls_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tls_files_and_data);
	tcase_add_test(tc, test_tls_refused);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(yarn_rm_suite)
