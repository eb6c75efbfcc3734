// SPDX-License-Identifier: Apache-2.0
/* test_k8s - lib/remote/k8s: configuration, error decoding, and calls against the
 * fake API server (test/fake/fake_apiserver.py) on 127.0.0.1. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/jsonio.h"
#include "fakeproc.h"
#include "remote/k8s.h"
#include "testlib.h"

static char *tmp;

static void setup(void)
{
	struct err e = { 0 };

	tmp = testlib_tmpdir();
	ck_assert_int_eq(http_global_init(&e), 0);
	unsetenv("KUBECONFIG");
	unsetenv("KUBERNETES_SERVICE_HOST");
	unsetenv("KUBERNETES_SERVICE_PORT");
	unsetenv("POD_NAMESPACE");
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

static json_t *fixture(const char *rel)
{
	char *path = testlib_fixture(rel);
	json_t *doc = json_load_file(path, 0, NULL);

	ck_assert_ptr_nonnull(doc);
	free(path);
	return doc;
}

/* ---- the fake API server ---- */

struct fake {
	struct fakeproc proc;
	const char *url; /* the API server's URL, borrowed from proc */
	char *log;
};

/* Start the fake with the node and pod fixtures plus args (NULL-terminated). */
static void fake_start(struct fake *f, const char *const *args)
{
	char *node = testlib_fixture("k8s/node-batch.json");
	char *pods = testlib_fixture("k8s/podlist-mixed.json");
	const char *argv[24] = { "--log", NULL, "--load", node, "--load", pods, "--lifetime", "60" };
	size_t n = 8;

	f->log = path_in("fake.log");
	argv[1] = f->log;
	for (; args && *args && n < 23; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	fakeproc_start(&f->proc, "fake_apiserver.py", argv);
	f->url = fakeproc_url(&f->proc, "api");
	free(node);
	free(pods);
}

static void fake_stop(struct fake *f)
{
	fakeproc_stop(&f->proc);
	free(f->log);
}

/* POST a fault (JSON text) to the fake's control URL. */
static void fake_fault(struct fake *f, const char *json)
{
	json_decref(fakeproc_call(&f->proc, "POST", "/faults", json));
}

/* Lines of the request log that contain every one of the given strings. */
static int log_count(const struct fake *f, const char *a, const char *b)
{
	FILE *in = fopen(f->log, "r");
	char line[8192];
	int n = 0;

	if (!in)
		return 0;
	while (fgets(line, sizeof(line), in))
		n += strstr(line, a) && (!b || strstr(line, b));
	fclose(in);
	return n;
}

/* A kubeconfig at tmp/rel for server with the given user body (YAML lines
 * indented by 4) and cluster extra lines. */
static char *kubeconfig(const char *rel, const char *server, const char *cluster_extra,
			const char *user)
{
	char *text = NULL;

	ck_assert(asprintf(&text,
			   "apiVersion: v1\nkind: Config\ncurrent-context: test\n"
			   "clusters:\n- name: fake\n  cluster:\n    server: %s\n%s"
			   "users:\n- name: u\n  user:\n%s"
			   "contexts:\n- name: test\n  context: {cluster: fake, user: u, "
			   "namespace: yarn}\n",
			   server, cluster_extra ? cluster_extra : "",
			   user ? user : "    {}\n") > 0);
	testlib_write(tmp, rel, text);
	free(text);
	return path_in(rel);
}

static void client_for(struct k8s_client *c, const char *kc)
{
	struct k8s_options o = { .kubeconfig = kc };
	struct err e = { 0 };

	ck_assert_msg(k8s_client_init(c, &o, NULL, NULL, &e) == 0, "%s", e.msg);
	c->backoff_ms = 10;
}

/* ---- pure parts ---- */

static const struct {
	const char *in, *out;
} b64[] = {
	{ "", "" },
	{ "Zg==", "f" },
	{ "Zm8=", "fo" },
	{ "Zm9v", "foo" },
	{ "Zm9v\nYmFy\r\n", "foobar" },
	{ "Zm9vYg", "foob" }, /* missing padding, as Go's StdEncoding would refuse; we accept */
	{ "Zm9v!", NULL },
	{ "Zg==Zg==", NULL },
	{ "Z", NULL },
};

START_TEST(test_k8s_base64)
{
	size_t len = 0;
	char *got = k8s_base64_decode(b64[_i].in, &len);

	if (!b64[_i].out) {
		ck_assert_ptr_null(got);
		return;
	}
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, b64[_i].out);
	ck_assert_uint_eq(len, strlen(b64[_i].out));
	free(got);
}
END_TEST

static const struct {
	const char *fixture; /* or NULL: body below as text/plain */
	const char *body;
	long status;
	enum err_kind kind;
	const char *msg, *reason;
} statuses[] = {
	{ "k8s/status-conflict.json", NULL, 409, ERR_REMOTE,
	  "PATCH /api/v1/nodes/worker-1: Operation cannot be fulfilled on nodes \"worker-1\": the "
	  "object has been modified; please apply your changes to the latest version and try again "
	  "(Conflict)",
	  "Conflict" },
	{ "k8s/status-notfound.json", NULL, 404, ERR_NOTFOUND,
	  "PATCH /api/v1/nodes/worker-1: nodes \"worker-9\" not found (NotFound)", "NotFound" },
	{ "k8s/status-gone.json", NULL, 410, ERR_REMOTE, NULL, "Expired" },
	{ NULL, "Too many requests, please try again later.\n", 429, ERR_TEMP,
	  "PATCH /api/v1/nodes/worker-1: HTTP 429: Too many requests, please try again later.",
	  "" },
	{ NULL, "", 503, ERR_TEMP, "PATCH /api/v1/nodes/worker-1: HTTP 503", "" },
};

START_TEST(test_k8s_status_err)
{
	struct http_response r = { .status = statuses[_i].status };
	struct err e = { 0 };
	char reason[64];

	if (statuses[_i].fixture) {
		json_t *doc = fixture(statuses[_i].fixture);

		r.body = json_dumps(doc, 0);
		r.content_type = strdup("application/json");
		json_decref(doc);
	} else {
		r.body = strdup(statuses[_i].body);
		r.content_type = strdup("text/plain");
	}
	r.body_len = strlen(r.body);
	ck_assert_int_eq(
		k8s_status_err(&r, "PATCH /api/v1/nodes/worker-1", reason, sizeof(reason), &e), -1);
	ck_assert_int_eq(e.kind, statuses[_i].kind);
	ck_assert_str_eq(reason, statuses[_i].reason);
	if (statuses[_i].msg)
		ck_assert_str_eq(e.msg, statuses[_i].msg);
	else /* the long message is cut at ERR_MSG_MAX */
		ck_assert_msg(strncmp(e.msg,
				      "PATCH /api/v1/nodes/worker-1: The provided continue "
				      "parameter is too old",
				      72) == 0,
			      "%s", e.msg);
	http_response_release(&r);
}
END_TEST

START_TEST(test_k8s_exec_parse)
{
	const char *v1 = "client.authentication.k8s.io/v1";
	char *token, *cert, *key;
	int64_t exp;
	struct err e = { 0 };

	ck_assert_int_eq(k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1\","
					"\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t0k\","
					"\"expirationTimestamp\":\"2026-11-29T17:00:00Z\"}}",
					v1, &token, &cert, &key, &exp, &e),
			 0);
	ck_assert_str_eq(token, "t0k");
	ck_assert_ptr_null(cert);
	ck_assert_int_eq(exp, 1795971600000);
	free(token);
	ck_assert_int_eq(k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1\","
					"\"status\":{\"clientCertificateData\":\"C\","
					"\"clientKeyData\":\"K\"}}",
					v1, &token, &cert, &key, &exp, &e),
			 0);
	ck_assert_ptr_null(token);
	ck_assert_str_eq(cert, "C");
	ck_assert_str_eq(key, "K");
	ck_assert_int_eq(exp, 0);
	free(cert);
	free(key);
	ck_assert_int_eq(k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1\","
					"\"status\":{\"clientCertificateData\":\"C\"}}",
					v1, &token, &cert, &key, &exp, &e),
			 -1);
	ck_assert_str_eq(e.msg, "ExecCredential.status: clientCertificateData and clientKeyData "
				"must be given together");
	ck_assert_int_eq(k8s_exec_parse("{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\","
					"\"status\":{\"token\":\"x\"}}",
					v1, &token, &cert, &key, &exp, &e),
			 -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_int_eq(k8s_exec_parse("not json", v1, &token, &cert, &key, &exp, &e), -1);
}
END_TEST

/* ---- configuration ---- */

START_TEST(test_k8s_kubeconfig_merge)
{
	struct k8s_config cfg;
	struct k8s_options o = { 0 };
	struct err e = { 0 };
	char *a, *b, *list, *want;

	/* a: the first file wins for current-context, cluster "shared" and user
	 * "red"; b adds context "other" and user "blue", whose relative paths are
	 * b's directory's. */
	testlib_write(tmp, "a/config",
		      "current-context: main\n"
		      "clusters:\n"
		      "- name: shared\n  cluster:\n    server: https://a.example:6443\n"
		      "    certificate-authority: pki/ca.crt\n"
		      "users:\n- name: red\n  user:\n    tokenFile: ../tokens/red\n"
		      "contexts:\n- name: main\n  context: {cluster: shared, user: red, "
		      "namespace: yarn}\n");
	testlib_write(tmp, "b/config",
		      "current-context: other\n"
		      "clusters:\n"
		      "- name: shared\n  cluster:\n    server: https://b.example:6443\n"
		      "    proxy-url: http://ignored-because-a-wins\n"
		      "users:\n- name: red\n  user: {token: from-b}\n"
		      "- name: blue\n  user:\n    client-certificate: blue.crt\n"
		      "    client-key: /abs/blue.key\n"
		      "contexts:\n- name: other\n  context: {cluster: shared, user: blue}\n");
	a = path_in("a/config");
	b = path_in("b/config");
	ck_assert(asprintf(&list, "%s::%s:%s:%s/missing", a, b, a, tmp) > 0);
	setenv("KUBECONFIG", list, 1);

	ck_assert_msg(k8s_config_load(&cfg, &o, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(cfg.server, "https://a.example:6443");
	want = path_in("a/pki/ca.crt");
	ck_assert_str_eq(cfg.ca_file, want);
	free(want);
	want = path_in("a/../tokens/red");
	ck_assert_str_eq(cfg.token_file, want);
	free(want);
	ck_assert_ptr_null(cfg.token);
	ck_assert_str_eq(cfg.namespace, "yarn");
	k8s_config_release(&cfg);

	o.context = "other";
	o.namespace = "kube-system";
	ck_assert_msg(k8s_config_load(&cfg, &o, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(cfg.server, "https://a.example:6443");
	want = path_in("b/blue.crt");
	ck_assert_str_eq(cfg.cert_file, want);
	free(want);
	ck_assert_str_eq(cfg.key_file, "/abs/blue.key");
	ck_assert_str_eq(cfg.namespace, "kube-system");
	k8s_config_release(&cfg);

	/* a context naming a user no file defines */
	testlib_write(tmp, "c/config",
		      "contexts:\n- name: ghost\n  context: {cluster: shared, "
		      "user: nobody}\n");
	free(list);
	ck_assert(asprintf(&list, "%s:%s/c/config", a, tmp) > 0);
	setenv("KUBECONFIG", list, 1);
	o.context = "ghost";
	ck_assert_int_eq(k8s_config_load(&cfg, &o, &e), -1);
	ck_assert_msg(strstr(e.msg, "context 'ghost': user 'nobody' not found"), "%s", e.msg);
	k8s_config_release(&cfg);

	/* --kubeconfig: that file only, b's current-context and cluster */
	o = (struct k8s_options){ .kubeconfig = b, .context = "other" };
	ck_assert_int_eq(k8s_config_load(&cfg, &o, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strstr(e.msg, "b/config:6:16: clusters[name=shared].cluster.proxy-url: "
				    "not supported by kilo"),
		      "%s", e.msg);
	k8s_config_release(&cfg);
	o.kubeconfig = "/nonexistent/kubeconfig";
	ck_assert_int_eq(k8s_config_load(&cfg, &o, &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE); /* a file the user named: exit 2 */
	k8s_config_release(&cfg);

	/* ~/.kube/config when KUBECONFIG is unset; JSON is YAML too */
	unsetenv("KUBECONFIG");
	testlib_write(tmp, ".kube/config",
		      "{\"apiVersion\":\"v1\",\"kind\":\"Config\",\"clusters\":[{\"name\":\"c\","
		      "\"cluster\":{\"server\":\"http://home:8080\"}}],\"users\":[{\"name\":\"u\","
		      "\"user\":{\"token\":\"t\"}}],\"contexts\":[{\"name\":\"x\",\"context\":"
		      "{\"cluster\":\"c\",\"user\":\"u\"}}],\"current-context\":\"x\"}\n");
	o = (struct k8s_options){ 0 };
	ck_assert_msg(k8s_config_load(&cfg, &o, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(cfg.server, "http://home:8080");
	ck_assert_str_eq(cfg.token, "t");
	ck_assert_str_eq(cfg.namespace, "default");
	k8s_config_release(&cfg);
	free(a);
	free(b);
	free(list);
}
END_TEST

static const struct {
	const char *cluster, *user, *context_extra, *top, *msg;
} refused[] = {
	{ "server: https://x\n    tls-server-name: y", "{}", "", "",
	  "clusters[name=c].cluster.tls-server-name: not supported by kilo" },
	{ "server: https://x", "{username: a, password: b}", "", "",
	  "users[name=u].user.username: not supported by kilo" },
	{ "server: https://x", "{auth-provider: {name: oidc}}", "", "",
	  "users[name=u].user.auth-provider: not supported by kilo" },
	{ "server: https://x", "{as: admin}", "", "",
	  "users[name=u].user.as: not supported by kilo" },
	{ "server: https://x", "{}", "", "preferences: {}\nfoo: 1\n",
	  "kubeconfig.foo: not supported by kilo" },
	{ "server: https://x", "{}", ", bar: 1", "",
	  "contexts[name=x].context.bar: not supported by kilo" },
	{ "server: https://x\n    certificate-authority: a\n    certificate-authority-data: Zg==",
	  "{}", "", "", "certificate-authority and certificate-authority-data are both specified" },
	{ "server: https://x\n    certificate-authority: a\n    insecure-skip-tls-verify: true",
	  "{}", "", "",
	  "specifying a root certificates file with the insecure flag is not allowed" },
	{ "server: https://x", "{client-certificate: c}", "", "",
	  "client certificate and key must be given together" },
	{ "insecure-skip-tls-verify: true", "{}", "", "",
	  "clusters[name=c].cluster: no server found" },
	{ "server: https://x\n    certificate-authority-data: '%%%'", "{}", "", "",
	  "certificate-authority-data: not valid base64" },
	{ "server: https://x", "{exec: {command: x}}", "", "",
	  "users[name=u].user.exec.apiVersion: expected client.authentication.k8s.io/v1 or v1beta1" },
	{ "server: https://x", "{exec: {apiVersion: client.authentication.k8s.io/v1, command: x}}",
	  "", "", "users[name=u].user.exec.interactiveMode: required for v1" },
	{ "server: https://x",
	  "{exec: {apiVersion: client.authentication.k8s.io/v1beta1, "
	  "command: x, provideClusterInfo: true, installHint: h, bogus: 1}}",
	  "", "", "users[name=u].user.exec.bogus: not supported by kilo" },
	{ "server: https://x", "{}", ", namespace: Not_A_Label", "",
	  "namespace 'Not_A_Label' is not a DNS label" },
	{ "server: https://x", "{}", "", "current-context: nope\n", "context 'nope' not found" },
};

START_TEST(test_k8s_kubeconfig_refused)
{
	struct k8s_options o = { 0 };
	struct k8s_config cfg;
	struct err e = { 0 };
	char *text = NULL, *path;

	ck_assert(asprintf(&text,
			   "%sclusters:\n- name: c\n  cluster:\n    %s\n"
			   "users:\n- name: u\n  user: %s\n"
			   "contexts:\n- name: x\n  context: {cluster: c, user: u%s}\n"
			   "current-context: x\n",
			   refused[_i].top, refused[_i].cluster, refused[_i].user,
			   refused[_i].context_extra) > 0);
	/* a later duplicate key would be refused by the loader: drop ours */
	if (strstr(refused[_i].top, "current-context"))
		*strstr(text, "current-context: x\n") = '\0';
	testlib_write(tmp, "config", text);
	path = path_in("config");
	o.kubeconfig = path;
	ck_assert_int_eq(k8s_config_load(&cfg, &o, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strstr(e.msg, refused[_i].msg), "got '%s'", e.msg);
	k8s_config_release(&cfg);
	free(text);
	free(path);
}
END_TEST

static void write_sa(const char *token, const char *ns)
{
	testlib_write(tmp, "root/var/run/secrets/kubernetes.io/serviceaccount/token", token);
	if (ns)
		testlib_write(tmp, "root/var/run/secrets/kubernetes.io/serviceaccount/namespace",
			      ns);
}

START_TEST(test_k8s_in_cluster_config)
{
	char *root = path_in("root");
	struct k8s_options o = { .root = root };
	struct k8s_config cfg;
	struct err e = { 0 };
	char *want;

	/* nothing at all: not found */
	ck_assert_int_eq(k8s_config_load(&cfg, &o, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	k8s_config_release(&cfg);

	write_sa("jwt\n", "yarn\n");
	setenv("KUBERNETES_SERVICE_HOST", "fd00::1", 1);
	setenv("KUBERNETES_SERVICE_PORT", "443", 1);
	ck_assert_msg(k8s_config_load(&cfg, &o, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(cfg.source, "in-cluster");
	ck_assert_str_eq(cfg.server, "https://[fd00::1]:443");
	want = path_in("root/var/run/secrets/kubernetes.io/serviceaccount/token");
	ck_assert_str_eq(cfg.token_file, want);
	free(want);
	ck_assert_ptr_null(cfg.ca_file); /* no ca.crt: system roots, like client-go */
	ck_assert_str_eq(cfg.namespace, "yarn");
	k8s_config_release(&cfg);

	/* KUBECONFIG naming only missing files: in-cluster too */
	setenv("KUBECONFIG", "/nonexistent/a:/nonexistent/b", 1);
	ck_assert_msg(k8s_config_load(&cfg, &o, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(cfg.source, "in-cluster");
	k8s_config_release(&cfg);
	unsetenv("KUBECONFIG");

	setenv("POD_NAMESPACE", "kube-system", 1);
	setenv("KUBERNETES_SERVICE_HOST", "10.96.0.1", 1);
	ck_assert_int_eq(k8s_config_in_cluster(&cfg, &o, &e), 0);
	ck_assert_str_eq(cfg.server, "https://10.96.0.1:443");
	ck_assert_str_eq(cfg.namespace, "kube-system");
	k8s_config_release(&cfg);

	unsetenv("KUBERNETES_SERVICE_PORT");
	ck_assert_int_eq(k8s_config_in_cluster(&cfg, &o, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	k8s_config_release(&cfg);
	free(root);
}
END_TEST

/* ---- against the fake ---- */

struct pages {
	int pages, restarts, items;
	char names[16][80];
	struct fake *fake; /* when set, the first page compacts the server */
};

static int count_page(void *arg, json_t *page, struct err *e)
{
	struct pages *p = arg;
	json_t *items, *it;
	size_t i;

	(void)e;
	if (!page) {
		p->restarts++;
		p->items = 0;
		return 0;
	}
	p->pages++;
	items = json_object_get(page, "items");
	json_array_foreach(items, i, it)
	{
		const char *name =
			json_string_value(json_object_get(json_object_get(it, "metadata"), "name"));

		if (p->items < 16)
			snprintf(p->names[p->items], sizeof(p->names[0]), "%s", name);
		p->items++;
	}
	return 0;
}

START_TEST(test_k8s_list_pages)
{
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	struct pages p = { 0 };
	struct k8s_list_options lo = { .limit = 2 };
	char *kc;

	fake_start(&f, NULL);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);

	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, count_page, &p, &e), 3);
	ck_assert_int_eq(p.pages, 3);
	ck_assert_int_eq(p.items, 5);
	ck_assert_str_eq(p.names[0], "yarn-nm-0"); /* by namespace: hadoop-yarn first */
	ck_assert_str_eq(p.names[4], "spark-pi-5f8a2b8f1c3d4e6a-exec-1");
	ck_assert_int_eq(log_count(&f, "\"query\": \"limit=2\"", NULL), 1);
	ck_assert_int_eq(log_count(&f, "\"query\": \"limit=2&continue=", NULL), 2);

	/* by node, without the finished ones: kubectl describe node's selector */
	memset(&p, 0, sizeof(p));
	lo.field_selector = "status.phase!=Succeeded,status.phase!=Failed";
	ck_assert_int_eq(k8s_pods_list(&c, NULL, "worker-1", &lo, count_page, &p, &e), 2);
	ck_assert_int_eq(p.items, 3);
	ck_assert_str_eq(p.names[0], "yarn-nm-0");
	ck_assert_str_eq(p.names[1], "web-frontend-6d9c7b8f5d-kx7pq");
	ck_assert_str_eq(p.names[2], "spark-pi-5f8a2b8f1c3d4e6a-exec-1");
	ck_assert_int_eq(log_count(&f,
				   "fieldSelector=spec.nodeName%3Dworker-1%2Cstatus.phase%21%3D"
				   "Succeeded%2Cstatus.phase%21%3DFailed",
				   NULL),
			 2);

	/* labels, one namespace */
	memset(&p, 0, sizeof(p));
	lo = (struct k8s_list_options){ .label_selector =
						"koordinator.sh/qosClass in (BE),!job-name" };
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, count_page, &p, &e), 1);
	ck_assert_int_eq(p.items, 3);
	ck_assert_str_eq(p.names[0], "yarn-nm-0");
	ck_assert_str_eq(p.names[1], "sessionize-8c2e4a6f1b3d5e7a-exec-3");
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(k8s_pods_list(&c, "hadoop-yarn", NULL, NULL, count_page, &p, &e), 1);
	ck_assert_int_eq(p.items, 1);
	ck_assert_str_eq(p.names[0], "yarn-nm-0");

	/* nodes, and a bad selector failing the listing with the server's message */
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(k8s_nodes_list(&c, NULL, count_page, &p, &e), 1);
	ck_assert_str_eq(p.names[0], "worker-1");
	lo = (struct k8s_list_options){ .field_selector = "spec.bogus=1" };
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, count_page, &p, &e), -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_str_eq(e.msg, "list /api/v1/pods: page 1: GET /api/v1/pods: field label not "
				"supported: spec.bogus (BadRequest)");

	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

START_TEST(test_k8s_list_expired_restarts)
{
	const char *args[] = {
		"--fault", "{\"path\":\"/api/v1/pods\",\"query\":\"continue=\",\"compact\":true}",
		NULL
	};
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	struct pages p = { 0 };
	struct k8s_list_options lo = { .limit = 2 };
	json_t *all;
	char *kc;

	fake_start(&f, args);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);

	/* page 1, then 410 on page 2: restart, then pages 1-3 again */
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, count_page, &p, &e), 3);
	ck_assert_int_eq(p.restarts, 1);
	ck_assert_int_eq(p.pages, 4);
	ck_assert_int_eq(p.items, 5);
	ck_assert_int_eq(log_count(&f, "\"status\": 410", NULL), 1);

	/* the collected list has no duplicates from the abandoned pass */
	fake_fault(&f, "{\"path\":\"/api/v1/pods\",\"query\":\"continue=\",\"compact\":true}");
	all = k8s_list_all(&c, "/api/v1/pods", &lo, &e);
	ck_assert_ptr_nonnull(all);
	ck_assert_str_eq(json_string_value(json_object_get(all, "kind")), "PodList");
	ck_assert_uint_eq(json_array_size(json_object_get(all, "items")), 5);
	json_decref(all);

	/* expiring for ever: bounded */
	fake_fault(&f, "{\"path\":\"/api/v1/pods\",\"query\":\"continue=\",\"compact\":true,"
		       "\"count\":0}");
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, count_page, &p, &e), -1);
	ck_assert_int_eq(p.restarts, K8S_LIST_RESTARTS);
	ck_assert_ptr_nonnull(strstr(e.msg, "page 2: GET /api/v1/pods: The provided continue "
					    "parameter is too old"));
	ck_assert_int_eq(c.last_status, 410);
	ck_assert_str_eq(c.last_reason, "Expired");

	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

START_TEST(test_k8s_list_failed_page)
{
	const char *args[] = { "--fault",
			       "{\"path\":\"/api/v1/pods\",\"query\":\"continue=\",\"status\":403}",
			       NULL };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	struct pages p = { 0 };
	struct k8s_list_options lo = { .limit = 2 };
	char *kc;

	fake_start(&f, args);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, count_page, &p, &e), -1);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_str_eq(e.msg, "list /api/v1/pods: page 2: GET /api/v1/pods: fault injected: 403 "
				"(Forbidden)");
	ck_assert_int_eq(p.pages, 1);
	ck_assert_int_eq(p.restarts, 0);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

/* What the filtered listings below keep of a pod. */
static const struct jsonio_filter name_node[] = {
	{ "metadata", (const struct jsonio_filter[]){ { "name" }, { NULL } } },
	{ "spec", (const struct jsonio_filter[]){ { "nodeName" }, { NULL } } },
	{ NULL },
};

struct kept {
	int pages, items;
	char page_keys[128], meta_keys[128], first[256];
};

/* The keys of obj, sorted, joined with ','. */
static void keys_of(const json_t *obj, char *out, size_t size)
{
	json_t *arr = json_array();
	const char *k;
	json_t *v;
	size_t n = 0, i;

	json_object_foreach((json_t *)obj, k, v)
	{
		(void)v;
		json_array_append_new(arr, json_string(k));
	}
	out[0] = '\0';
	for (size_t a = 0; a < json_array_size(arr); a++) /* a small sort: a handful of keys */
		for (size_t b = a + 1; b < json_array_size(arr); b++)
			if (strcmp(json_string_value(json_array_get(arr, a)),
				   json_string_value(json_array_get(arr, b))) > 0) {
				json_t *t = json_incref(json_array_get(arr, a));

				json_array_set(arr, a, json_array_get(arr, b));
				json_array_set_new(arr, b, t);
			}
	json_array_foreach(arr, i, v)
	{
		n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%s", i ? "," : "",
				      json_string_value(v));
	}
	json_decref(arr);
}

static int kept_page(void *arg, json_t *page, struct err *e)
{
	struct kept *k = arg;

	(void)e;
	if (!page)
		return 0;
	if (k->pages++ == 0) {
		char *first = json_dumps(json_array_get(json_object_get(page, "items"), 0),
					 JSON_COMPACT | JSON_SORT_KEYS);

		keys_of(page, k->page_keys, sizeof(k->page_keys));
		keys_of(json_object_get(page, "metadata"), k->meta_keys, sizeof(k->meta_keys));
		snprintf(k->first, sizeof(k->first), "%s", first ? first : "");
		free(first);
	}
	k->items += (int)json_array_size(json_object_get(page, "items"));
	return 0;
}

/* With item_fields a page is built only as far as the filter names (not
 * whole, the cost of a live pass at scale), and the listing is the same. */
START_TEST(test_k8s_list_filtered_pages)
{
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	struct kept k = { 0 };
	struct pages p = { 0 };
	struct k8s_list_options lo = { .limit = 2, .item_fields = name_node };
	char *kc;

	fake_start(&f, NULL);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, kept_page, &k, &e), 3);
	ck_assert_int_eq(k.pages, 3);
	ck_assert_int_eq(k.items, 5);
	ck_assert_str_eq(k.page_keys, "apiVersion,items,kind,metadata");
	ck_assert_str_eq(k.meta_keys, "continue,resourceVersion");
	ck_assert_str_eq(k.first, "{\"metadata\":{\"name\":\"yarn-nm-0\"},"
				  "\"spec\":{\"nodeName\":\"worker-1\"}}");
	/* the same pages, names and order as whole pages */
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, &lo, count_page, &p, &e), 3);
	ck_assert_int_eq(p.items, 5);
	ck_assert_str_eq(p.names[0], "yarn-nm-0");
	ck_assert_str_eq(p.names[4], "spark-pi-5f8a2b8f1c3d4e6a-exec-1");
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

/* Pages the API server never sends, read whole and filtered: the same
 * verdict and the same message. */
static const char *const raw_pages[] = {
	/* cut short */
	"{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[{\"metadata\":"
	"{\"name\":\"a\"}}",
	/* a duplicate key among the fields read: an item's, the page's own */
	"{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"a\","
	"\"name\":\"b\"}}]}",
	"{\"kind\":\"PodList\",\"metadata\":{\"continue\":\"x\",\"continue\":\"\"},\"items\":[]}",
	"{\"kind\":\"PodList\",\"metadata\":{},\"items\":[],\"items\":[{}]}",
	/* under keys not built: still checked */
	"{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"a\"},"
	"\"spec\":{\"nodeName\":\"n\",\"priority\":1e999}}]}",
	"{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"a\","
	"\"uid\":\"\\u0000\"}}]}",
	"{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"status\":{\"x\":99999999999999999999}}]}",
	/* no list */
	"[]",
	"{\"kind\":\"PodList\",\"metadata\":{}}",
	"",
};

static void list_raw(struct fake *f, struct k8s_client *c, const char *body,
		     const struct jsonio_filter *keep, int *ret, struct err *e)
{
	json_t *fault = json_pack("{s:s,s:s,s:i,s:s}", "method", "GET", "path", "/api/v1/pods",
				  "count", 1, "rawBody", body);
	char *text = json_dumps(fault, JSON_COMPACT);
	struct k8s_list_options lo = { .limit = 2, .item_fields = keep };
	struct pages p = { 0 };

	fake_fault(f, text);
	memset(e, 0, sizeof(*e));
	*ret = k8s_pods_list(c, NULL, NULL, &lo, count_page, &p, e);
	free(text);
	json_decref(fault);
}

START_TEST(test_k8s_list_filtered_errors)
{
	struct fake f;
	struct k8s_client c;
	struct err whole = { 0 }, filtered = { 0 };
	int rw, rf;
	char *kc;

	fake_start(&f, NULL);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	for (size_t i = 0; i < sizeof(raw_pages) / sizeof(raw_pages[0]); i++) {
		list_raw(&f, &c, raw_pages[i], NULL, &rw, &whole);
		list_raw(&f, &c, raw_pages[i], name_node, &rf, &filtered);
		ck_assert_msg(rw == -1 && rf == -1, "page %zu taken: %d %d", i, rw, rf);
		ck_assert_msg(strstr(whole.msg, "list /api/v1/pods: page 1: "), "%s", whole.msg);
		ck_assert_str_eq(filtered.msg, whole.msg);
		ck_assert_int_eq(filtered.kind, whole.kind);
	}
	/* a duplicate under a key not built (managedFields) changes nothing
	 * read: looked for only in whole pages, as `plan --from` does */
	list_raw(&f, &c,
		 "{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"a\","
		 "\"managedFields\":[{\"manager\":\"x\",\"manager\":\"y\"}]}}]}",
		 NULL, &rw, &whole);
	ck_assert_int_eq(rw, -1);
	ck_assert_ptr_nonnull(strstr(whole.msg, "duplicate object key"));
	list_raw(&f, &c,
		 "{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"a\","
		 "\"managedFields\":[{\"manager\":\"x\",\"manager\":\"y\"}]}}]}",
		 name_node, &rf, &filtered);
	ck_assert_msg(rf == 1, "%s", filtered.msg);
	/* the body cap: the same for both */
	c.http.max_body = 300;
	rw = k8s_pods_list(&c, NULL, NULL, &(struct k8s_list_options){ .limit = 5 }, count_page,
			   &(struct pages){ 0 }, &whole);
	rf = k8s_pods_list(&c, NULL, NULL,
			   &(struct k8s_list_options){ .limit = 5, .item_fields = name_node },
			   count_page, &(struct pages){ 0 }, &filtered);
	ck_assert_int_eq(rw, -1);
	ck_assert_int_eq(rf, -1);
	ck_assert_ptr_nonnull(strstr(whole.msg, "response body over 300 bytes"));
	ck_assert_str_eq(filtered.msg, whole.msg);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

START_TEST(test_k8s_patch_conflict)
{
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	json_t *node, *again, *patched,
		*ann = json_pack("{s:s, s:n}", "kilo.io/yarn-allocated", "{\"cpuMilli\":12000}",
				 "node.alpha.kubernetes.io/ttl");
	json_t *other = json_pack("{s:s}", "other", "writer"), *got;
	const char *rv;
	char *kc, *old_rv;

	fake_start(&f, NULL);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_ptr_nonnull(node);
	old_rv = strdup(json_string_value(
		json_object_get(json_object_get(node, "metadata"), "resourceVersion")));
	ck_assert_str_eq(old_rv, "5823107");

	/* a concurrent writer (no resourceVersion: last writer wins) */
	patched = k8s_node_patch_annotations(&c, "worker-1", other, NULL, &e);
	ck_assert_ptr_nonnull(patched);
	json_decref(patched);

	/* our stale write: 409, nothing changed */
	ck_assert_ptr_null(k8s_node_patch_annotations(&c, "worker-1", ann, old_rv, &e));
	ck_assert_int_eq(c.last_status, 409);
	ck_assert_str_eq(c.last_reason, "Conflict");
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_int_eq(c.retries, 0);
	ck_assert_int_eq(log_count(&f, "\"resourceVersion\\\":\\\"5823107\\\"", "409"), 1);

	/* re-read, retry: applied, the new resourceVersion is the server's */
	again = k8s_node_get(&c, "worker-1", &e);
	rv = json_string_value(
		json_object_get(json_object_get(again, "metadata"), "resourceVersion"));
	ck_assert_str_eq(rv, "5823108");
	patched = k8s_node_patch_annotations(&c, "worker-1", ann, rv, &e);
	ck_assert_msg(patched != NULL, "%s", e.msg);
	got = json_object_get(json_object_get(patched, "metadata"), "annotations");
	ck_assert_str_eq(json_string_value(json_object_get(got, "kilo.io/yarn-allocated")),
			 "{\"cpuMilli\":12000}");
	ck_assert_str_eq(json_string_value(json_object_get(got, "other")), "writer");
	ck_assert_ptr_null(json_object_get(got, "node.alpha.kubernetes.io/ttl"));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(patched, "metadata"),
							   "resourceVersion")),
			 "5823109");
	ck_assert_int_eq(log_count(&f, "application/merge-patch+json", NULL), 3);

	json_decref(patched);
	json_decref(again);
	json_decref(node);
	json_decref(other);
	json_decref(ann);
	free(old_rv);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

START_TEST(test_k8s_retry_429)
{
	const char *args[] = { "--fault",
			       "{\"path\":\"/api/v1/nodes/worker-1\",\"status\":429,"
			       "\"retryAfter\":\"1\"}",
			       NULL };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	json_t *node;
	int64_t t0;
	char *kc;

	fake_start(&f, args);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	t0 = clock_mono_ms();
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	/* waited Retry-After (1 s), not the 10 ms backoff */
	ck_assert_int_ge(clock_mono_ms() - t0, 1000);
	ck_assert_int_eq(c.retries, 1);
	ck_assert_int_eq(log_count(&f, "\"status\": 429", NULL), 1);
	ck_assert_int_eq(log_count(&f, "\"status\": 200", NULL), 1);
	json_decref(node);

	/* 429 for ever: the plain-text body is the message, after max_retries */
	fake_fault(&f, "{\"path\":\"/api/v1/nodes\",\"status\":429,"
		       "\"retryAfter\":\"0\",\"count\":0}");
	c.max_retries = 2;
	ck_assert_ptr_null(k8s_node_get(&c, "worker-1", &e));
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_str_eq(e.msg, "after 2 retries: GET /api/v1/nodes/worker-1: HTTP 429: Too many "
				"requests, please try again later.");
	ck_assert_int_eq(log_count(&f, "\"status\": 429", NULL), 4);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

START_TEST(test_k8s_retry_5xx_bounded)
{
	const char *args[] = { "--fault", "{\"path\":\"/api/v1/nodes\",\"status\":500,\"count\":2}",
			       "--fault", "{\"path\":\"/api/v1/pods\",\"status\":503,\"count\":0}",
			       NULL };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	struct pages p = { 0 };
	json_t *node;
	int64_t t0;
	char *kc;

	fake_start(&f, args);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	c.max_retries = 3;
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	ck_assert_int_eq(c.retries, 2);
	json_decref(node);

	t0 = clock_mono_ms();
	ck_assert_int_eq(k8s_pods_list(&c, NULL, NULL, NULL, count_page, &p, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_int_eq(c.retries, 3);
	ck_assert_int_eq(c.last_status, 503);
	ck_assert_str_eq(e.msg, "list /api/v1/pods: page 1: after 3 retries: GET /api/v1/pods: "
				"fault injected: 503 (ServiceUnavailable)");
	ck_assert_int_eq(log_count(&f, "/api/v1/pods", "\"status\": 503"), 4);
	/* backoff 10, 20, 40 ms */
	ck_assert_int_ge(clock_mono_ms() - t0, 70);
	ck_assert_int_eq(p.pages, 0);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

START_TEST(test_k8s_dropped_connection)
{
	const char *args[] = { "--fault",
			       "{\"method\":\"GET\",\"path\":\"/api/v1/nodes\","
			       "\"drop\":true}",
			       "--fault",
			       "{\"method\":\"PATCH\",\"path\":\"/api/v1/nodes\","
			       "\"drop\":true,\"count\":0}",
			       NULL };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	json_t *node, *ann = json_pack("{s:s}", "a", "b");
	char *kc;

	fake_start(&f, args);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	ck_assert_int_eq(c.retries, 1);
	json_decref(node);
	/* we do not send a PATCH again after a lost answer; libcurl itself
	 * re-sends once when a kept-alive connection was closed under it */
	ck_assert_ptr_null(k8s_node_patch_annotations(&c, "worker-1", ann, NULL, &e));
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_int_eq(c.retries, 0);
	ck_assert_int_eq(log_count(&f, "PATCH", NULL), 2);
	json_decref(ann);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

START_TEST(test_k8s_slow_answer)
{
	const char *args[] = { "--fault", "{\"path\":\"/api/v1/nodes\",\"delayMs\":1500}", NULL };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	json_t *node;
	char *kc;

	fake_start(&f, args);
	kc = kubeconfig("kc", f.url, NULL, NULL);
	client_for(&c, kc);
	c.http.timeout_ms = 500;
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	ck_assert_int_eq(c.retries, 1);
	json_decref(node);
	/* without retries the timeout is the error, a temporary one */
	fake_fault(&f, "{\"path\":\"/api/v1/nodes\",\"delayMs\":1500}");
	c.max_retries = 0;
	ck_assert_ptr_null(k8s_node_get(&c, "worker-1", &e));
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_int_eq(c.last_status, 0);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
}
END_TEST

/* Append line to the 4096-byte buffer arg. */
static void collect_trace(void *arg, const char *line)
{
	char *buf = arg;
	size_t n = strlen(buf);

	snprintf(buf + n, 4096 - n, "%s\n", line);
}

START_TEST(test_k8s_token_file_reread)
{
	char *accepted = path_in("accepted");
	const char *args[] = { "--token-file", accepted, NULL };
	const char *secret = "tok-never-accepted-9f8e7d";
	struct k8s_options o = { 0 };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	char trace[4096] = "";
	json_t *node;
	char *kc;

	testlib_write(tmp, "accepted", "tok-A\n");
	testlib_write(tmp, "sa/token", "  tok-A\n");
	fake_start(&f, args);
	kc = kubeconfig("kc", f.url, NULL, "    tokenFile: sa/token\n");
	o.kubeconfig = kc;
	ck_assert_msg(k8s_client_init(&c, &o, collect_trace, trace, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(c.token, "tok-A");

	/* rotated on disk: not re-read within a minute, the old one still works */
	testlib_write(tmp, "sa/token", "tok-B\n");
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	ck_assert_str_eq(c.token, "tok-A");

	/* the server moved on: 401, re-read, sent again */
	testlib_write(tmp, "accepted", "tok-B\n");
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	ck_assert_str_eq(c.token, "tok-B");
	ck_assert_int_eq(log_count(&f, "\"status\": 401", NULL), 1);
	ck_assert_int_eq(log_count(&f, "\"auth\": \"bearer\"", "\"status\": 200"), 2);

	/* a token the server never takes: one 401 re-read, then the error,
	 * which like the trace never shows the token */
	testlib_write(tmp, "accepted", "tok-C\n");
	testlib_write(tmp, "sa/token", secret);
	ck_assert_ptr_null(k8s_node_get(&c, "worker-1", &e));
	ck_assert_int_eq(c.last_status, 401);
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_str_eq(e.msg, "GET /api/v1/nodes/worker-1: Unauthorized (Unauthorized)");
	ck_assert_int_eq(log_count(&f, "\"status\": 401", NULL), 3);
	ck_assert_ptr_nonnull(strstr(trace, "GET http://127.0.0.1:"));
	ck_assert_ptr_null(strstr(trace, secret));
	ck_assert_ptr_null(strstr(trace, "tok-B"));
	ck_assert_ptr_null(strstr(e.msg, secret));

	/* an empty file keeps the last token */
	testlib_write(tmp, "sa/token", "\n");
	ck_assert_ptr_null(k8s_node_get(&c, "worker-1", &e));
	ck_assert_str_eq(c.token, secret);
	k8s_client_release(&c);
	free(kc);

	/* tokenFile unreadable at start: the kubeconfig's token, until the file reads */
	kc = kubeconfig("kc", f.url, NULL, "    token: tok-C\n    tokenFile: sa/missing\n");
	client_for(&c, kc);
	ck_assert_str_eq(c.token, "tok-C");
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	k8s_client_release(&c);
	free(kc);

	/* without one: the client cannot start */
	kc = kubeconfig("kc", f.url, NULL, "    tokenFile: sa/missing\n");
	o.kubeconfig = kc;
	ck_assert_int_eq(k8s_client_init(&c, &o, NULL, NULL, &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_msg(strstr(e.msg, "read token '") && strstr(e.msg, "sa/missing': No such file"),
		      "%s", e.msg);

	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
	free(accepted);
}
END_TEST

/* tmp/pki: a CA, server and client certificates (test/fake/mkcerts.sh)
 * and base64 forms; tmp/other: another CA. */
static void make_certs(void)
{
	char *script = testlib_fixture("../fake/mkcerts.sh"), *cmd = NULL;

	ck_assert(
		asprintf(&cmd,
			 "exec >'%s/mkcerts.log' 2>&1 && sh '%s' '%s/pki' && sh '%s' '%s/other' && "
			 "cd '%s/pki' && base64 -w0 ca.crt >ca.b64 && base64 -w0 client.crt >cli.b64 "
			 "&& base64 -w0 client.key >key.b64",
			 tmp, script, tmp, script, tmp, tmp) > 0);
	ck_assert_msg(system(cmd) == 0, "mkcerts failed, see %s/mkcerts.log", tmp);
	free(cmd);
	free(script);
}

START_TEST(test_k8s_tls_client_certificate)
{
	char *srv_crt = path_in("pki/server.crt"), *srv_key = path_in("pki/server.key");
	char *ca = path_in("pki/ca.crt");
	const char *args[] = { "--tls-cert", srv_crt,   "--tls-key",        srv_key, "--client-ca",
			       ca,           "--token", "some-other-token", NULL };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	char *kc, *ca_b64, *cli_b64, *key_b64, *user = NULL, *cluster = NULL;
	json_t *node;

	make_certs();
	ca_b64 = testlib_read(tmp, "pki/ca.b64");
	cli_b64 = testlib_read(tmp, "pki/cli.b64");
	key_b64 = testlib_read(tmp, "pki/key.b64");
	fake_start(&f, args);

	/* files, relative to the kubeconfig */
	kc = kubeconfig("kc", f.url, "    certificate-authority: pki/ca.crt\n",
			"    client-certificate: pki/client.crt\n    client-key: pki/client.key\n");
	client_for(&c, kc);
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	ck_assert_int_eq(log_count(&f, "\"auth\": \"cert\"", NULL), 1);
	k8s_client_release(&c);
	free(kc);

	/* *-data */
	ck_assert(asprintf(&cluster, "    certificate-authority-data: %s\n", ca_b64) > 0);
	ck_assert(asprintf(&user, "    client-certificate-data: %s\n    client-key-data: %s\n",
			   cli_b64, key_b64) > 0);
	kc = kubeconfig("kc", f.url, cluster, user);
	client_for(&c, kc);
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	ck_assert_int_eq(log_count(&f, "\"auth\": \"cert\"", NULL), 2);
	k8s_client_release(&c);
	free(kc);

	/* no client certificate: 401 */
	kc = kubeconfig("kc", f.url, cluster, NULL);
	client_for(&c, kc);
	ck_assert_ptr_null(k8s_node_get(&c, "worker-1", &e));
	ck_assert_int_eq(c.last_status, 401);
	k8s_client_release(&c);
	free(kc);

	/* a CA that did not sign the server: refused, not retried */
	kc = kubeconfig("kc", f.url, "    certificate-authority: other/ca.crt\n", NULL);
	client_for(&c, kc);
	ck_assert_ptr_null(k8s_node_get(&c, "worker-1", &e));
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_int_eq(c.retries, 0);
	k8s_client_release(&c);
	free(kc);

	fake_stop(&f);
	free(user);
	free(cluster);
	free(ca_b64);
	free(cli_b64);
	free(key_b64);
	free(srv_crt);
	free(srv_key);
	free(ca);
}
END_TEST

/* Publish the service-account files the way the kubelet's atomic writer
 * does: files in a new "..<gen>" directory, the "..data" symlink swapped to
 * it with rename(2), and token, namespace and ca.crt symlinks into ..data. */
static void sa_publish(const char *gen, const char *token, const char *ca)
{
	const char *const files[][2] = { { "token", token },
					 { "namespace", "yarn\n" },
					 { "ca.crt", ca } };
	char *dir = path_in("root/var/run/secrets/kubernetes.io/serviceaccount");
	char *rel = NULL, *link = NULL, *tmp_link = NULL, *data = NULL;

	for (size_t i = 0; i < 3; i++) {
		ck_assert(asprintf(&rel,
				   "root/var/run/secrets/kubernetes.io/serviceaccount/..%s/%s", gen,
				   files[i][0]) > 0);
		testlib_write(tmp, rel, files[i][1]);
		free(rel);
		ck_assert(asprintf(&link, "%s/%s", dir, files[i][0]) > 0);
		ck_assert(asprintf(&data, "..data/%s", files[i][0]) > 0);
		ck_assert(symlink(data, link) == 0 || errno == EEXIST);
		free(link);
		free(data);
	}
	ck_assert(asprintf(&tmp_link, "%s/..data_tmp", dir) > 0);
	ck_assert(asprintf(&data, "%s/..data", dir) > 0);
	ck_assert(asprintf(&rel, "..%s", gen) > 0);
	ck_assert_int_eq(symlink(rel, tmp_link), 0);
	ck_assert_int_eq(rename(tmp_link, data), 0);
	free(rel);
	free(tmp_link);
	free(data);
	free(dir);
}

START_TEST(test_k8s_in_cluster_against_fake)
{
	char *srv_crt = path_in("pki/server.crt"), *srv_key = path_in("pki/server.key");
	char *accepted = path_in("accepted");
	char *root = path_in("root");
	const char *args[] = { "--tls-cert",   srv_crt,  "--tls-key", srv_key,
			       "--token-file", accepted, NULL };
	struct k8s_options o = { .root = root };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	char *ca_pem;
	json_t *node;

	make_certs();
	ca_pem = testlib_read(tmp, "pki/ca.crt");
	sa_publish("2026_11_29_16_00_00.1", "sa-token-1\n", ca_pem);
	testlib_write(tmp, "accepted", "sa-token-1\n");
	fake_start(&f, args);
	setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1", 1);
	setenv("KUBERNETES_SERVICE_PORT", strrchr(f.url, ':') + 1, 1);

	ck_assert_msg(k8s_client_init(&c, &o, NULL, NULL, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(c.cfg.source, "in-cluster");
	ck_assert_str_eq(c.cfg.namespace, "yarn");
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);

	/* the kubelet rotates the projected token; the server takes only the new one */
	sa_publish("2026_11_29_16_50_00.2", "sa-token-2\n", ca_pem);
	testlib_write(tmp, "accepted", "sa-token-2\n");
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	ck_assert_str_eq(c.token, "sa-token-2");
	ck_assert_int_eq(log_count(&f, "\"status\": 401", NULL), 1);

	k8s_client_release(&c);
	fake_stop(&f);
	free(ca_pem);
	free(srv_crt);
	free(srv_key);
	free(accepted);
	free(root);
}
END_TEST

START_TEST(test_k8s_exec_plugin)
{
	char *accepted = path_in("accepted");
	const char *args[] = { "--token-file", accepted, NULL };
	struct fake f;
	struct k8s_client c;
	struct err e = { 0 };
	char *kc, *info, *user = NULL;
	struct k8s_options o = { 0 };
	json_t *node;

	testlib_write(tmp, "bin/cred",
		      "#!/bin/sh\n"
		      "printf '%s' \"$KUBERNETES_EXEC_INFO\" >\"$OUT_DIR/exec-info\"\n"
		      "printf '%s\\n' \"$1\" >>\"$OUT_DIR/runs\"\n"
		      "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
		      "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"%s\"}}\\n' "
		      "\"$(cat \"$OUT_DIR/token\")\"\n");
	testlib_write(tmp, "token", "exec-1");
	testlib_write(tmp, "accepted", "exec-1\n");
	ck_assert_int_eq(chmod(kc = path_in("bin/cred"), 0755), 0);
	free(kc);
	fake_start(&f, args);
	/* command relative to the kubeconfig; env from it goes to the plugin */
	ck_assert(asprintf(&user,
			   "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
			   "      command: ./bin/cred\n      args: [first]\n"
			   "      interactiveMode: Never\n      provideClusterInfo: true\n"
			   "      env: [{name: OUT_DIR, value: '%s'}]\n",
			   tmp) > 0);
	kc = kubeconfig("kc", f.url, NULL, user);
	client_for(&c, kc);
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	info = testlib_read(tmp, "exec-info");
	ck_assert_ptr_nonnull(strstr(info, "\"kind\":\"ExecCredential\""));
	ck_assert_ptr_nonnull(strstr(info, "\"interactive\":false"));
	ck_assert_ptr_nonnull(strstr(info, f.url));
	free(info);
	info = testlib_read(tmp, "runs");
	ck_assert_str_eq(info, "first\n"); /* cached: one run for init and the call */
	free(info);

	/* the credential went stale: 401, the plugin runs again */
	testlib_write(tmp, "token", "exec-2");
	testlib_write(tmp, "accepted", "exec-2\n");
	node = k8s_node_get(&c, "worker-1", &e);
	ck_assert_msg(node != NULL, "%s", e.msg);
	json_decref(node);
	ck_assert_str_eq(c.token, "exec-2");
	ck_assert_int_eq(log_count(&f, "\"status\": 401", NULL), 1);
	info = testlib_read(tmp, "runs");
	ck_assert_str_eq(info, "first\nfirst\n");
	free(info);
	k8s_client_release(&c);
	free(kc);

	/* a plugin that fails: the client cannot start */
	testlib_write(tmp, "bin/cred", "#!/bin/sh\nexit 3\n");
	kc = kubeconfig("kc", f.url, NULL, user);
	o.kubeconfig = kc;
	ck_assert_int_eq(k8s_client_init(&c, &o, NULL, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "bin/cred' failed (status 3)"), "%s", e.msg);
	k8s_client_release(&c);
	fake_stop(&f);
	free(kc);
	free(user);
	free(accepted);
}
END_TEST

static Suite *k8s_suite(void)
{
	Suite *s = suite_create("k8s");
	TCase *pure = tcase_create("pure");
	TCase *fake = tcase_create("fake");

	tcase_add_checked_fixture(pure, setup, teardown);
	tcase_add_loop_test(pure, test_k8s_base64, 0, sizeof(b64) / sizeof(b64[0]));
	tcase_add_loop_test(pure, test_k8s_status_err, 0, sizeof(statuses) / sizeof(statuses[0]));
	tcase_add_test(pure, test_k8s_exec_parse);
	tcase_add_test(pure, test_k8s_kubeconfig_merge);
	tcase_add_loop_test(pure, test_k8s_kubeconfig_refused, 0,
			    sizeof(refused) / sizeof(refused[0]));
	tcase_add_test(pure, test_k8s_in_cluster_config);
	suite_add_tcase(s, pure);

	tcase_add_checked_fixture(fake, setup, teardown);
	tcase_set_timeout(fake, 60);
	tcase_add_test(fake, test_k8s_list_pages);
	tcase_add_test(fake, test_k8s_list_expired_restarts);
	tcase_add_test(fake, test_k8s_list_failed_page);
	tcase_add_test(fake, test_k8s_list_filtered_pages);
	tcase_add_test(fake, test_k8s_list_filtered_errors);
	tcase_add_test(fake, test_k8s_patch_conflict);
	tcase_add_test(fake, test_k8s_retry_429);
	tcase_add_test(fake, test_k8s_retry_5xx_bounded);
	tcase_add_test(fake, test_k8s_dropped_connection);
	tcase_add_test(fake, test_k8s_slow_answer);
	tcase_add_test(fake, test_k8s_token_file_reread);
	tcase_add_test(fake, test_k8s_tls_client_certificate);
	tcase_add_test(fake, test_k8s_in_cluster_against_fake);
	tcase_add_test(fake, test_k8s_exec_plugin);
	suite_add_tcase(s, fake);
	return s;
}

KILO_TEST_MAIN(k8s_suite)
