// SPDX-License-Identifier: Apache-2.0
/* k8s - Kubernetes API calls over lib/remote/http (see k8s.h).
 * Retry rules: client-go rest/with_retry.go and the API conventions (429
 * and 5xx with Retry-After); token files: client-go
 * transport/token_source.go; exec plugins: plugin/pkg/client/auth/exec;
 * k8s-conventions.md sections 1.3, 2.1, 3.4-3.8. */
#include "remote/k8s.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "remote/spawn.h"

extern char **environ;

/* ---- parse ---- */

int k8s_status_err(const struct http_response *r, const char *what, char *reason, size_t size,
		   struct err *e)
{
	json_auto_t *st = NULL;
	const char *msg, *why;

	if (reason && size)
		reason[0] = '\0';
	if (http_response_is_json(r))
		st = json_loadb(r->body, r->body_len, 0, NULL);
	msg = json_string_value(json_object_get(st, "message"));
	why = json_string_value(json_object_get(st, "reason"));
	if (!json_is_object(st) || !msg ||
	    strcmp(json_string_value(json_object_get(st, "kind")) ?: "", "Status") != 0) {
		/* plain text, HTML, or JSON that is no Status */
		if (http_status_err(r, what, e) == 0) /* a 2xx given to us by mistake */
			err_set(e, ERR_REMOTE, 0, "%s: HTTP %ld", what, r->status);
		return -1;
	}
	if (reason && why)
		snprintf(reason, size, "%s", why);
	if (why && *why)
		return err_set(e, http_status_kind(r->status), 0, "%s: %s (%s)", what, msg, why);
	return err_set(e, http_status_kind(r->status), 0, "%s: %s (HTTP %ld)", what, msg,
		       r->status);
}

int k8s_exec_parse(const char *out, const char *api_version, char **token, char **cert, char **key,
		   int64_t *expiry_ms, struct err *e)
{
	struct err pe = { 0 };
	json_auto_t *doc = jsonio_parse(out, "exec plugin output", &pe);
	json_t *status = NULL;
	const char *v = NULL, *t = NULL, *c = NULL, *k = NULL, *exp = NULL;

	*token = *cert = *key = NULL;
	*expiry_ms = 0;
	if (!doc)
		return err_set(e, ERR_REMOTE, 0, "%s", pe.msg);
	if (jsonio_get_str(doc, "ExecCredential", "apiVersion", &v, e) < 0 ||
	    jsonio_get_obj(doc, "ExecCredential", "status", &status, e) < 0 ||
	    jsonio_get_str(status, "ExecCredential.status", "token", &t, e) < 0 ||
	    jsonio_get_str(status, "ExecCredential.status", "clientCertificateData", &c, e) < 0 ||
	    jsonio_get_str(status, "ExecCredential.status", "clientKeyData", &k, e) < 0 ||
	    jsonio_get_str(status, "ExecCredential.status", "expirationTimestamp", &exp, e) < 0) {
		e->kind = ERR_REMOTE;
		return -1;
	}
	if (!v || strcmp(v, api_version) != 0)
		return err_set(e, ERR_REMOTE, 0, "ExecCredential.apiVersion: expected %s, got '%s'",
			       api_version, v ? v : "");
	if (!status)
		return err_set(e, ERR_REMOTE, 0, "ExecCredential.status: missing");
	if (!!c != !!k)
		return err_set(e, ERR_REMOTE, 0,
			       "ExecCredential.status: clientCertificateData and "
			       "clientKeyData must be given together");
	if (!(t && *t) && !c)
		return err_set(e, ERR_REMOTE, 0,
			       "ExecCredential.status: no token and no client "
			       "certificate");
	if (exp && clock_parse_rfc3339(exp, expiry_ms) < 0)
		return err_set(e, ERR_REMOTE, 0,
			       "ExecCredential.status.expirationTimestamp: "
			       "expected an RFC 3339 time, got '%s'",
			       exp);
	*token = t && *t ? xstrdup(t) : NULL;
	*cert = c ? xstrdup(c) : NULL;
	*key = k ? xstrdup(k) : NULL;
	return 0;
}

/* ---- credentials ---- */

/* The content of a token file, whitespace-trimmed; NULL with e set when it
 * cannot be read or is empty.  Opened by path on every call: the kubelet
 * replaces projected files by renaming a symlink. */
static char *read_token_file(const char *path, struct err *e)
{
	cleanup_fclose FILE *f = fopen(path, "re");
	char buf[16384];
	size_t n, a = 0;

	if (!f) {
		err_set(e, errno == ENOENT ? ERR_NOTFOUND : ERR_SYSTEM, errno, "read token '%s'",
			path);
		return NULL;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	while (n > 0 && strchr(" \t\r\n", buf[n - 1]))
		buf[--n] = '\0';
	while (buf[a] && strchr(" \t\r\n", buf[a]))
		a++;
	if (!buf[a]) {
		err_set(e, ERR_INPUT, 0, "read token '%s': empty", path);
		return NULL;
	}
	for (size_t i = a; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 ||
		    buf[i] == 0x7f) { /* CR/LF would forge headers */
			err_set(e, ERR_INPUT, 0, "read token '%s': holds a control character",
				path);
			return NULL;
		}
	return xstrdup(buf + a);
}

/* An exec plugin's stdout, up to K8S_EXEC_MAX_BYTES (over: the rest is
 * read and dropped, and the run fails). */
struct exec_out {
	char *text;
	size_t len;
	int over;
};

static void exec_feed(void *arg, const char *buf, size_t n)
{
	struct exec_out *o = arg;

	if (o->over || n > K8S_EXEC_MAX_BYTES - o->len) {
		o->over = 1;
		return;
	}
	o->text = xrealloc(o->text, o->len + n + 1);
	memcpy(o->text + o->len, buf, n);
	o->len += n;
	o->text[o->len] = '\0';
}

/* Run the exec plugin (its stderr is kilo's, as client-go passes it) and
 * read its stdout, within K8S_EXEC_TIMEOUT_MS.  New string or NULL with e
 * set. */
static char *exec_run(const struct k8s_client *c, struct err *e)
{
	const struct k8s_exec *x = c->cfg.exec;
	json_auto_t *info = json_pack("{s:s, s:s, s:{s:b}}", "apiVersion", x->api_version, "kind",
				      "ExecCredential", "spec", "interactive", 0);
	cleanup_free char *info_text = NULL;
	cleanup_free char *info_env = NULL;
	cleanup_free char **envp = NULL;
	cleanup_free char **argv = NULL;
	struct exec_out out = { 0 };
	struct spawn_opts so = { .timeout_ms = K8S_EXEC_TIMEOUT_MS, .feed = exec_feed };
	struct spawn_result res;
	size_t nenv = 0, nargs = 0;

	if (x->provide_cluster_info)
		json_object_set_new(json_object_get(info, "spec"), "cluster",
				    json_pack("{s:s, s:b}", "server", c->cfg.server,
					      "insecure-skip-tls-verify", c->cfg.insecure));
	info_text = json_dumps(info, JSON_COMPACT);
	info_env = xasprintf("KUBERNETES_EXEC_INFO=%s", info_text);
	while (environ[nenv])
		nenv++;
	for (char **p = x->env; *p; p++)
		nenv++;
	envp = xcalloc(nenv + 2, sizeof(char *));
	nenv = 0;
	for (char **p = environ; *p; p++) {
		/* the operator's Kerberos environment, not kilo-sync's own */
		const char *v = http_negotiate_env_outside(*p);

		if (v && strncmp(v, "KUBERNETES_EXEC_INFO=", 21) != 0)
			envp[nenv++] = (char *)v;
	}
	for (char **p = x->env; *p; p++)
		envp[nenv++] = *p;
	envp[nenv] = info_env;
	while (x->args[nargs])
		nargs++;
	argv = xcalloc(nargs + 2, sizeof(char *));
	argv[0] = x->command;
	memcpy(argv + 1, x->args, nargs * sizeof(char *));

	so.argv = argv;
	so.envp = envp;
	so.arg = &out;
	if (spawn_run(&so, &res, e) < 0)
		err_set(e, e->kind, e->errnum, "exec plugin '%s'", x->command);
	else if (res.timed_out)
		err_set(e, ERR_TEMP, 0, "exec plugin '%s': no answer within %d s (killed)",
			x->command, K8S_EXEC_TIMEOUT_MS / 1000);
	else if (out.over)
		err_set(e, ERR_REMOTE, 0, "exec plugin '%s': output over %d bytes", x->command,
			K8S_EXEC_MAX_BYTES);
	else if (!res.exited || res.code != 0)
		err_set(e, ERR_SYSTEM, 0, "exec plugin '%s' failed (status %d)", x->command,
			res.exited ? res.code : 128 + res.code);
	else
		return out.text ? out.text : xstrdup("");
	free(out.text);
	return NULL;
}

static int exec_refresh(struct k8s_client *c, int force, struct err *e)
{
	cleanup_free char *out = NULL;
	char *token = NULL, *cert = NULL, *key = NULL;
	int64_t expiry = 0;

	if (!force && (c->token || c->exec_cert) &&
	    (c->token_expiry_ms == 0 || clock_now_ms() < c->token_expiry_ms))
		return 0;
	out = exec_run(c, e);
	if (!out)
		return -1;
	if (k8s_exec_parse(out, c->cfg.exec->api_version, &token, &cert, &key, &expiry, e) < 0)
		return err_wrap(e, "exec plugin '%s'", c->cfg.exec->command);
	free(c->token);
	free(c->exec_cert);
	free(c->exec_key);
	c->token = token;
	err_secret_add(token); /* a server may echo it: never in a message */
	c->exec_cert = cert;
	c->exec_key = key;
	c->token_expiry_ms = expiry;
	c->token_read_ms = clock_mono_ms();
	c->http.tls.cert_data = cert ? cert : c->cfg.cert_data;
	c->http.tls.key_data = key ? key : c->cfg.key_data;
	c->http.tls.cert_file = cert ? NULL : c->cfg.cert_file;
	c->http.tls.key_file = key ? NULL : c->cfg.key_file;
	return 0;
}

/* Make c->token current: a token file is re-read when force is set or
 * K8S_TOKEN_REREAD_MS have passed (a failed re-read keeps the old token);
 * an exec credential is re-made when forced or expired.  A token file that
 * cannot be read (missing, empty) keeps the last good token. */
static int token_refresh(struct k8s_client *c, int force, struct err *e)
{
	struct err re = { 0 };
	char *t;

	if (c->cfg.exec)
		return exec_refresh(c, force, e);
	if (!c->cfg.token_file) {
		if (!c->token && c->cfg.token)
			c->token = xstrdup(c->cfg.token);
		return 0;
	}
	if (!force && c->token && clock_mono_ms() - c->token_read_ms < K8S_TOKEN_REREAD_MS)
		return 0;
	t = read_token_file(c->cfg.token_file, &re);
	if (!t) {
		/* keep the last good token; before the first good read, a
		 * kubeconfig token (client-go NewBearerAuthWithRefreshRoundTripper) */
		if (!c->token && c->cfg.token)
			c->token = xstrdup(c->cfg.token);
		if (c->token)
			return 0;
		*e = re;
		return -1;
	}
	free(c->token);
	c->token = t;
	err_secret_add(t);
	c->token_read_ms = clock_mono_ms();
	return 0;
}

/* ---- client ---- */

int k8s_client_init_config(struct k8s_client *c, struct k8s_config *cfg, http_trace_fn *trace,
			   void *trace_arg, struct err *e)
{
	memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	memset(cfg, 0, sizeof(*cfg));
	c->max_retries = K8S_MAX_RETRIES;
	c->max_wait_ms = K8S_MAX_WAIT_MS;
	c->backoff_ms = 200;
	c->http.tls = (struct http_tls){
		.ca_file = c->cfg.ca_file,
		.ca_data = c->cfg.ca_data,
		.cert_file = c->cfg.cert_file,
		.cert_data = c->cfg.cert_data,
		.key_file = c->cfg.key_file,
		.key_data = c->cfg.key_data,
		.insecure_skip_verify = c->cfg.insecure,
	};
	c->http.trace = trace;
	c->http.trace_arg = trace_arg;
	c->http.pool = http_pool_new(); /* pages and retries reuse the connection */
	err_secret_add(c->cfg.token);   /* never in a message, whoever echoes it */
	err_secret_add(c->cfg.key_data);
	if (token_refresh(c, 1, e) < 0)
		return err_wrap(e, "%s", c->cfg.source ? c->cfg.source : "kubernetes");
	return 0;
}

int k8s_client_init(struct k8s_client *c, const struct k8s_options *o, http_trace_fn *trace,
		    void *trace_arg, struct err *e)
{
	struct k8s_config cfg;

	memset(c, 0, sizeof(*c));
	if (k8s_config_load(&cfg, o, e) < 0) {
		k8s_config_release(&cfg);
		return -1;
	}
	return k8s_client_init_config(c, &cfg, trace, trace_arg, e);
}

void k8s_client_release(struct k8s_client *c)
{
	k8s_config_release(&c->cfg);
	http_pool_free(c->http.pool);
	free(c->token);
	free(c->exec_cert);
	free(c->exec_key);
	memset(c, 0, sizeof(*c));
}

static int retriable(const struct k8s_client *c, int attempt)
{
	return attempt < c->max_retries;
}

/* k8s_call(), the answer built only as far as keep names (NULL: whole). */
static json_t *call(struct k8s_client *c, enum http_method method, const char *path,
		    const char *const *query, const char *content_type, const json_t *body,
		    const struct jsonio_filter *keep, struct err *e)
{
	const char *m = http_method_name(method);
	int can_reauth = c->cfg.token_file || c->cfg.exec;
	struct http_response resp = { .retry_after_ms = -1 };
	struct http_request req;
	int64_t backoff = c->backoff_ms > 0 ? c->backoff_ms : 1;
	cleanup_free char *what = xasprintf("%s %s", m, path);
	json_t *doc = NULL;
	int attempt = 0;

	http_request_init(&req, method, c->cfg.server, path);
	for (const char *const *q = query; q && q[0]; q += 2)
		if (q[1])
			http_request_add_query(&req, q[0], q[1]);
	if (body)
		http_request_set_json(&req, content_type, body);
	c->retries = 0;
	for (;;) {
		int64_t wait;

		c->last_status = 0;
		c->last_reason[0] = '\0';
		if (token_refresh(c, 0, e) < 0)
			break;
		c->http.bearer_token = c->token;
		if (http_perform(&c->http, &req, &resp, e) < 0) {
			/* only a GET is safe to send again after a lost connection */
			if (e->kind != ERR_TEMP || method != HTTP_GET || !retriable(c, attempt))
				break;
			wait = backoff;
		} else {
			c->last_status = resp.status;
			if (resp.status >= 200 && resp.status < 300) {
				doc = keep ? http_response_json_filtered(&resp, keep, NULL, e)
					   : http_response_json(&resp, e);
				if (!doc)
					err_wrap(e, "%s", what);
				break;
			}
			if (resp.status == 401 && can_reauth) {
				can_reauth = 0; /* once per call */
				if (token_refresh(c, 1, e) < 0)
					break;
				continue;
			}
			if ((resp.status != 429 && resp.status < 500) || !retriable(c, attempt)) {
				k8s_status_err(&resp, what, c->last_reason, sizeof(c->last_reason),
					       e);
				if (attempt > 0)
					err_wrap(e, "after %d retries", attempt);
				break;
			}
			wait = resp.retry_after_ms >= 0 ? resp.retry_after_ms : backoff;
		}
		attempt++;
		c->retries = attempt;
		backoff *= 2;
		clock_sleep_ms(wait < c->max_wait_ms ? wait : c->max_wait_ms);
	}
	http_response_release(&resp);
	http_request_release(&req);
	return doc;
}

json_t *k8s_call(struct k8s_client *c, enum http_method method, const char *path,
		 const char *const *query, const char *content_type, const json_t *body,
		 struct err *e)
{
	return call(c, method, path, query, content_type, body, NULL, e);
}

json_t *k8s_node_get(struct k8s_client *c, const char *name, struct err *e)
{
	cleanup_free char *seg = http_escape(name, 1);
	cleanup_free char *path = xasprintf("/api/v1/nodes/%s", seg);

	return k8s_call(c, HTTP_GET, path, NULL, NULL, NULL, e);
}

/* ERR_TEMP unless page is a list object: kind want (or "<Kind>List"),
 * items an array. */
static int check_page(const json_t *page, const char *want, struct err *e)
{
	const char *kind = json_string_value(json_object_get(page, "kind"));
	size_t len = kind ? strlen(kind) : 0;

	if (!json_is_object(page) || len < 4 || strcmp(kind + len - 4, "List") != 0 ||
	    (want && strcmp(kind, want) != 0))
		return err_set(e, ERR_TEMP, 0, "not a %s (kind %s%.40s%s)", want ? want : "list",
			       kind ? "'" : "", kind ? kind : "missing", kind ? "'" : "");
	if (!json_is_array(json_object_get(page, "items")))
		return err_set(e, ERR_TEMP, 0, "%s without an items array", kind);
	return 0;
}

/* What k8s_list() and k8s_list_all() read of a page's own metadata. */
static const struct jsonio_filter list_meta_fields[] = {
	{ "continue" },
	{ "resourceVersion" },
	{ NULL },
};

int k8s_list(struct k8s_client *c, const char *path, const struct k8s_list_options *lo,
	     k8s_page_fn *fn, void *arg, struct err *e)
{
	static const struct k8s_list_options none = { 0 };
	/* With item_fields the body is parsed by the field filter of `plan
	 * --from` (jsonio_filter.c), never as a whole jansson tree: a 500-pod
	 * page is ~1.6 MB of text, managedFields and env most of it.  It is
	 * parsed whole from the buffer libcurl filled, not fed from the write
	 * callback: jansson's json_load_callback pulls its input and builds the
	 * whole tree (the very cost avoided here), and a filter fed by pushes
	 * would be a second, resumable JSON parser written by hand. */
	const struct jsonio_filter page_fields[] = {
		{ "kind" },
		{ "apiVersion" },
		{ "metadata", list_meta_fields },
		{ "items", lo ? lo->item_fields : NULL },
		{ NULL },
	};
	json_auto_t *seen = json_object(); /* continue tokens given since the last start */
	cleanup_free char *cont = NULL;
	char limit[32];
	int pages = 0, restarts = 0;
	long max_pages;

	if (!lo)
		lo = &none;
	max_pages = lo->max_pages > 0 ? lo->max_pages : K8S_LIST_MAX_PAGES;
	snprintf(limit, sizeof(limit), "%ld", lo->limit > 0 ? lo->limit : K8S_LIST_LIMIT);
	for (;;) {
		const char *q[] = { "limit",
				    limit,
				    "fieldSelector",
				    lo->field_selector,
				    "labelSelector",
				    lo->label_selector,
				    "continue",
				    cont,
				    NULL };
		json_auto_t *page = NULL;
		const char *next = NULL;

		if (lo->deadline_ms > 0 && clock_mono_ms() > lo->deadline_ms)
			return err_set(e, ERR_TEMP, 0,
				       "list %s: out of time after %d pages (the pass deadline)",
				       path, pages);
		if (pages >= max_pages)
			return err_set(e, ERR_TEMP, 0,
				       "list %s: more than %ld pages: not taken as complete", path,
				       max_pages);
		page = call(c, HTTP_GET, path, q, NULL, NULL, lo->item_fields ? page_fields : NULL,
			    e);
		if (!page && cont && c->last_status == 410 && restarts < K8S_LIST_RESTARTS) {
			/* the snapshot is gone: start again, the caller drops its partial result */
			restarts++;
			free(cont);
			cont = NULL;
			pages = 0;
			json_object_clear(seen);
			if (fn(arg, NULL, e) < 0)
				return -1;
			continue;
		}
		if (!page)
			return err_wrap(e, "list %s: page %d", path, pages + 1);
		if (check_page(page, lo->kind, e) < 0)
			return err_wrap(e, "list %s: page %d", path, pages + 1);
		if (jsonio_get_str(json_object_get(page, "metadata"), "list.metadata", "continue",
				   &next, e) < 0) {
			e->kind = ERR_TEMP;
			return err_wrap(e, "list %s: page %d", path, pages + 1);
		}
		if (next && strlen(next) > K8S_CONTINUE_MAX)
			return err_set(
				e, ERR_TEMP, 0,
				"list %s: page %d: a continue token of %zu bytes (at most %d): "
				"not taken as complete",
				path, pages + 1, strlen(next), K8S_CONTINUE_MAX);
		if (next && *next && json_object_get(seen, next))
			return err_set(e, ERR_TEMP, 0,
				       "list %s: page %d repeats the continue token of an earlier "
				       "page: not taken as complete",
				       path, pages + 1);
		pages++;
		if (fn(arg, page, e) < 0)
			return -1;
		if (!next || !*next)
			return pages;
		json_object_set_new(seen, next, json_true());
		free(cont);
		cont = xstrdup(next);
	}
}

int k8s_nodes_list(struct k8s_client *c, const struct k8s_list_options *lo, k8s_page_fn *fn,
		   void *arg, struct err *e)
{
	struct k8s_list_options o = lo ? *lo : (struct k8s_list_options){ 0 };

	o.kind = "NodeList";
	return k8s_list(c, "/api/v1/nodes", &o, fn, arg, e);
}

int k8s_pods_list(struct k8s_client *c, const char *namespace, const char *node_name,
		  const struct k8s_list_options *lo, k8s_page_fn *fn, void *arg, struct err *e)
{
	struct k8s_list_options o = lo ? *lo : (struct k8s_list_options){ 0 };
	cleanup_free char *path = NULL;
	cleanup_free char *ns = NULL;
	cleanup_free char *sel = NULL;

	o.kind = "PodList";
	if (namespace) {
		ns = http_escape(namespace, 1);
		path = xasprintf("/api/v1/namespaces/%s/pods", ns);
	} else {
		path = xstrdup("/api/v1/pods");
	}
	if (node_name) {
		sel = xasprintf("spec.nodeName=%s%s%s", node_name,
				o.field_selector && *o.field_selector ? "," : "",
				o.field_selector ? o.field_selector : "");
		o.field_selector = sel;
	}
	return k8s_list(c, path, &o, fn, arg, e);
}

static int collect_page(void *arg, json_t *page, struct err *e)
{
	json_t **all = arg;
	json_t *items;

	(void)e;
	if (!page) {
		json_decref(*all);
		*all = NULL;
		return 0;
	}
	if (!*all) {
		json_t *md = json_object_get(page, "metadata");

		*all = json_pack("{s:O?, s:O?, s:{s:O?}, s:[]}", "kind",
				 json_object_get(page, "kind"), "apiVersion",
				 json_object_get(page, "apiVersion"), "metadata", "resourceVersion",
				 json_object_get(md, "resourceVersion"), "items");
	}
	items = json_object_get(page, "items");
	if (json_is_array(items))
		json_array_extend(json_object_get(*all, "items"), items);
	return 0;
}

json_t *k8s_list_all(struct k8s_client *c, const char *path, const struct k8s_list_options *lo,
		     struct err *e)
{
	json_t *all = NULL;

	if (k8s_list(c, path, lo, collect_page, &all, e) < 0) {
		json_decref(all);
		return NULL;
	}
	return all;
}

json_t *k8s_node_patch_metadata(struct k8s_client *c, const char *name, const json_t *annotations,
				const json_t *labels, const char *resource_version, struct err *e)
{
	cleanup_free char *seg = http_escape(name, 1);
	cleanup_free char *path = xasprintf("/api/v1/nodes/%s", seg);
	json_auto_t *body = json_pack("{s:{}}", "metadata");
	json_t *meta = json_object_get(body, "metadata");

	if (annotations)
		json_object_set(meta, "annotations", (json_t *)annotations);
	if (labels)
		json_object_set(meta, "labels", (json_t *)labels);
	if (resource_version)
		json_object_set_new(meta, "resourceVersion", json_string(resource_version));
	return k8s_call(c, HTTP_PATCH, path, NULL, "application/merge-patch+json", body, e);
}

json_t *k8s_node_patch_annotations(struct k8s_client *c, const char *name,
				   const json_t *annotations, const char *resource_version,
				   struct err *e)
{
	return k8s_node_patch_metadata(c, name, annotations, NULL, resource_version, e);
}
