// SPDX-License-Identifier: Apache-2.0
/* yarn - YARN ResourceManager REST client (see yarn.h) */
#include "remote/yarn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "remote/spawn.h"

#define RMADMIN_TIMEOUT_MS 60000

/* ---- pure ---- */

/* The RemoteException text of a JSON error answer, or NULL. */
static char *answer_exception(const struct http_response *resp)
{
	json_auto_t *doc = NULL;

	if (!http_response_is_json(resp))
		return NULL;
	doc = json_loadb(resp->body, resp->body_len, 0, NULL);
	return doc ? yarn_remote_exception(doc) : NULL;
}

enum yarn_resize_answer yarn_resize_classify(const struct http_response *resp, const char *what,
					     int *reported_known, struct yarn_resource *reported,
					     struct err *e)
{
	cleanup_free char *ex = answer_exception(resp);
	char snippet[200];
	json_auto_t *doc = NULL;
	json_t *info;

	*reported_known = 0;
	http_response_snippet(resp, snippet, sizeof(snippet));
	if (resp->status == 307 || resp->status == 308 ||
	    (resp->status == 200 && !http_response_is_json(resp))) {
		err_set(e, ERR_TEMP, 0, "%s: no active RM (HTTP %ld, %s: '%s')", what, resp->status,
			resp->content_type ? resp->content_type : "no content type", snippet);
		return YARN_RESIZE_NO_ACTIVE;
	}
	if (resp->status >= 200 && resp->status < 300) {
		doc = http_response_json(resp, e);
		if (!doc) {
			err_wrap(e, "%s", what);
			return YARN_RESIZE_FAILED;
		}
		info = json_object_get(doc, "resourceInfo");
		if (json_is_object(info) && json_is_integer(json_object_get(info, "memory")) &&
		    json_is_integer(json_object_get(info, "vCores"))) {
			reported->memory_mb = json_integer_value(json_object_get(info, "memory"));
			reported->vcores = json_integer_value(json_object_get(info, "vCores"));
			*reported_known = 1;
		}
		return YARN_RESIZE_ACCEPTED;
	}
	if (resp->status == 404 && ex) {
		err_set(e, ERR_NOTFOUND, 0, "%s: node unknown to the RM: %s", what, ex);
		return YARN_RESIZE_UNKNOWN_NODE;
	}
	/* No RemoteException: not RMWebServices answering but the servlet
	 * container (an HTML page from Jetty before Hadoop 3.5, a JSON one from
	 * Jersey 2 in 3.5): the path is not served. */
	if ((resp->status == 404 || resp->status == 405) && !ex) {
		err_set(e, ERR_REMOTE, 0,
			"%s: HTTP %ld: the RM has no node resource endpoint "
			"(older Hadoop); configure the rmadmin fallback",
			what, resp->status);
		return YARN_RESIZE_NO_ENDPOINT;
	}
	err_set(e, http_status_kind(resp->status), 0, "%s: HTTP %ld: %s", what, resp->status,
		ex                 ? ex
		: resp->auth_error ? resp->auth_error
				   : snippet);
	return YARN_RESIZE_FAILED;
}

static const char RMADMIN_REASON[] = "updateNodeResource: ";

void yarn_rmadmin_feed(struct yarn_rmadmin_out *o, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = buf[i] == '\0' ? ' ' : buf[i];

		if (o->head_len < YARN_RMADMIN_HEAD)
			o->head[o->head_len++] = c;
		if (c != '\n') {
			if (o->line_len < YARN_RMADMIN_LINE)
				o->line[o->line_len++] = c;
			continue;
		}
		o->line[o->line_len] = '\0';
		if (!o->reason[0] &&
		    strncmp(o->line, RMADMIN_REASON, sizeof(RMADMIN_REASON) - 1) == 0)
			memcpy(o->reason, o->line, o->line_len + 1);
		o->line_len = 0;
	}
	o->head[o->head_len] = '\0';
	o->line[o->line_len] = '\0';
}

/* Append line[0..n) to msg (len bytes used of size) as printable text,
 * after "; " when msg is not empty; nothing for a blank line. */
static void why_append(char *msg, size_t size, size_t *len, const char *line, size_t n)
{
	size_t start = *len, l;

	if (*len > 0 && *len + 2 < size) {
		memcpy(msg + *len, "; ", 2);
		*len += 2;
	}
	l = *len;
	for (size_t i = 0; i < n && l + 1 < size; i++)
		msg[l++] = (unsigned char)line[i] < 0x20 ? ' ' : line[i];
	while (l > *len && msg[l - 1] == ' ')
		l--;
	*len = l > *len ? l : start; /* a blank line adds nothing, not even "; " */
	msg[*len] = '\0';
}

void yarn_rmadmin_why(const struct yarn_rmadmin_out *o, char *msg, size_t size)
{
	const char *p;
	size_t len = 0;

	if (size == 0)
		return;
	msg[0] = '\0';
	if (!o->reason[0] && strncmp(o->line, RMADMIN_REASON, sizeof(RMADMIN_REASON) - 1) == 0) {
		why_append(msg, size, &len, o->line, strlen(o->line)); /* the last, unterminated */
		return;
	}
	if (o->reason[0]) {
		why_append(msg, size, &len, o->reason, strlen(o->reason));
		return;
	}
	for (p = o->head; *p; p += *p == '\n') {
		size_t n = strcspn(p, "\n");

		if (n > 0 && p[0] != ' ' && p[0] != '\t')
			why_append(msg, size, &len, p, n);
		p += n;
	}
}

/* ---- I/O ---- */

void yarn_cluster_init(struct yarn_cluster *c)
{
	memset(c, 0, sizeof(*c));
	c->active = -1;
	c->http.max_body = YARN_MAX_BYTES;
}

/* What yarn_node_parse() reads of a NodeInfo, and the two documents that
 * carry them: a large answer costs these fields, not all of it. */
static const struct jsonio_filter node_fields[] = {
	{ "id" },
	{ "state" },
	{ "nodeHostName" },
	{ "numContainers" },
	{ "totalResource", (const struct jsonio_filter[]){ { "memory" }, { "vCores" }, { NULL } } },
	{ "usedMemoryMB" },
	{ "usedVirtualCores" },
	{ "availMemoryMB" },
	{ "availableVirtualCores" },
	{ NULL },
};
static const struct jsonio_filter node_docs[] = {
	{ "nodes", (const struct jsonio_filter[]){ { "node", node_fields }, { NULL } } },
	{ "node", node_fields },
	{ NULL },
};

static void rm_request(const struct yarn_cluster *c, int rm, struct http_request *r,
		       enum http_method method, const char *path)
{
	http_request_init(r, method, c->rm_urls[rm], path);
	if (c->user_name)
		http_request_add_query(r, "user.name", c->user_name);
}

/* haState of RM rm.  Returns 0, or -1 with e set. */
static int rm_ha_state(struct yarn_cluster *c, int rm, enum yarn_ha_state *state, struct err *e)
{
	struct http_response resp = { 0 };
	struct http_request req;
	json_auto_t *doc = NULL;
	int ret = -1;

	rm_request(c, rm, &req, HTTP_GET, YARN_PATH_INFO);
	if (http_perform(&c->http, &req, &resp, e) < 0)
		goto out;
	if (resp.status >= 400)
		c->error_status = resp.status;
	if (http_status_err(&resp, "cluster info", e) < 0)
		goto out;
	doc = http_response_json(&resp, e);
	if (!doc)
		goto out;
	ret = yarn_cluster_info_parse(doc, state, e);
	if (ret == 0 && (*state == YARN_HA_ACTIVE || *state == YARN_HA_NONE))
		c->active_started_on = yarn_cluster_info_started_on(doc);
out:
	http_request_release(&req);
	http_response_release(&resp);
	return ret;
}

int yarn_find_active(struct yarn_cluster *c, struct err *e)
{
	char why[ERR_MSG_MAX] = "";
	size_t len = 0;

	c->active = -1;
	c->active_started_on = 0;
	c->error_status = 0;
	for (size_t i = 0; i < c->n_rm; i++) {
		enum yarn_ha_state st = YARN_HA_OTHER;
		struct err sub = { 0 };
		char *url;

		if (rm_ha_state(c, (int)i, &st, &sub) == 0 &&
		    (st == YARN_HA_ACTIVE || st == YARN_HA_NONE)) {
			c->active = (int)i;
			return c->active;
		}
		if (sub.kind == ERR_NONE)
			snprintf(sub.msg, sizeof(sub.msg), "%s",
				 st == YARN_HA_STANDBY ? "standby" : "not active");
		url = http_redact_url(c->rm_urls[i]); /* no userinfo in any message */
		len += (size_t)snprintf(why + len, len < sizeof(why) ? sizeof(why) - len : 0,
					"%s%s: %s", i ? "; " : "", url, sub.msg);
		free(url);
		if (len >= sizeof(why))
			len = sizeof(why) - 1;
	}
	return err_set(e, ERR_TEMP, 0, "cluster %s: no active RM (%s)", c->id ? c->id : "?",
		       c->n_rm ? why : "no RM URL configured");
}

/* GET path from the active RM and parse its JSON body into *doc.  A
 * transport failure or a "no active RM" answer drops the remembered RM and
 * tries once more after re-discovery.  ERR_NOTFOUND when the answer is 404
 * with a RemoteException. */
static int get_json(struct yarn_cluster *c, const char *path, json_t **doc, struct err *e)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		struct http_response resp = { 0 };
		struct http_request req;
		cleanup_free char *ex = NULL;
		int ret;

		if (c->active < 0 && yarn_find_active(c, e) < 0)
			return -1;
		rm_request(c, c->active, &req, HTTP_GET, path);
		ret = http_perform(&c->http, &req, &resp, e); /* a redirect is never followed */
		if (ret == 0 && resp.status >= 400)
			c->error_status = resp.status;
		if (ret == 0 && (resp.status == 307 || resp.status == 308 ||
				 (resp.status == 200 && !http_response_is_json(&resp)))) {
			char snippet[200];
			cleanup_free char *url = http_redact_url(req.url);

			http_response_snippet(&resp, snippet, sizeof(snippet));
			ret = err_set(e, ERR_TEMP, 0, "GET %s: not the active RM (HTTP %ld: '%s')",
				      url, resp.status, snippet);
		}
		http_request_release(&req);
		if (ret < 0) {
			http_response_release(&resp);
			c->active = -1;
			continue;
		}
		if (resp.status == 404 && (ex = answer_exception(&resp)))
			ret = err_set(e, ERR_NOTFOUND, 0, "GET %s: %s", path, ex);
		else if (http_status_err(&resp, path, e) < 0) {
			cleanup_free char *url = http_redact_url(c->rm_urls[c->active]);

			ret = err_wrap(e, "%s", url); /* which RM answered so */
		} else if (!(*doc = http_response_json_filtered(&resp, node_docs, NULL, e)))
			ret = err_wrap(e, "GET %s", path);
		http_response_release(&resp);
		return ret;
	}
	return err_wrap(e, "cluster %s", c->id ? c->id : "?");
}

int yarn_nodes_list(struct yarn_cluster *c, struct yarn_nodes *out, struct err *e)
{
	json_auto_t *doc = NULL;

	out->items = NULL;
	out->n = 0;
	c->error_status = 0;
	if (get_json(c, YARN_PATH_NODES, &doc, e) < 0)
		return -1;
	if (yarn_nodes_parse(doc, YARN_NODES_KEEP_BAD, out, e) < 0)
		return err_wrap(e, "cluster %s: GET %s", c->id ? c->id : "?", YARN_PATH_NODES);
	return 0;
}

int yarn_node_get(struct yarn_cluster *c, const char *id, struct yarn_node *out, struct err *e)
{
	cleanup_free char *seg = http_escape(id, 1);
	cleanup_free char *path = xasprintf(YARN_PATH_NODES "/%s", seg);
	json_auto_t *doc = NULL;
	json_t *node = NULL;

	memset(out, 0, sizeof(*out));
	c->error_status = 0;
	if (get_json(c, path, &doc, e) < 0)
		return -1;
	if (jsonio_get_obj(doc, "", "node", &node, e) <= 0)
		return node ? -1 : err_set(e, ERR_INPUT, 0, "GET %s: node: missing", path);
	return yarn_node_parse(node, "node", out, e);
}

/* Make sure c->active is an RM that says ACTIVE now.  Returns its index or
 * -1 with e set. */
static int confirm_active(struct yarn_cluster *c, struct err *e)
{
	enum yarn_ha_state st = YARN_HA_OTHER;

	if (c->active >= 0 && rm_ha_state(c, c->active, &st, e) == 0 &&
	    (st == YARN_HA_ACTIVE || st == YARN_HA_NONE))
		return c->active;
	return yarn_find_active(c, e);
}

/* Run `<rmadmin> rmadmin ARGS...` (argv[0] c->rmadmin, argv[1] "rmadmin")
 * with stdin from /dev/null, in a process group of its own killed after
 * rmadmin.timeoutMs, collecting its output for the message; what names it
 * there ("rmadmin -updateNodeResource ID"). */
static void rmadmin_feed(void *arg, const char *buf, size_t n)
{
	yarn_rmadmin_feed(arg, buf, n);
}

static int rmadmin_run(const struct yarn_cluster *c, char *const *argv, const char *what,
		       struct err *e)
{
	char why[512];
	cleanup_free struct yarn_rmadmin_out *out = xcalloc(1, sizeof(*out));
	int64_t limit = c->rmadmin_timeout_ms ? c->rmadmin_timeout_ms : RMADMIN_TIMEOUT_MS;
	/* its own process group, so a timeout kills the JVM `yarn` starts too */
	struct spawn_opts so = { .argv = argv,
				 .merge_stderr = 1,
				 .timeout_ms = limit,
				 .feed = rmadmin_feed,
				 .arg = out };
	struct spawn_result res;

	/* auth: kerberos: the child inherits KRB5CCNAME and HADOOP_OPTS's
	 * -Djava.security.krb5.conf (remote/http_auth.h) */
	if (c->http.negotiate && http_negotiate_env(c->http.negotiate, e) < 0)
		return err_wrap(e, "%s %s", c->rmadmin, what);
	if (spawn_run(&so, &res, e) < 0)
		return err_set(e, ERR_SYSTEM, e->errnum, "run %s", c->rmadmin);
	yarn_rmadmin_why(out, why, sizeof(why));
	if (res.timed_out)
		return err_set(e, ERR_TEMP, 0, "%s %s: timed out after %" PRId64 " ms", c->rmadmin,
			       what, limit);
	if (!res.exited || res.code != 0)
		return err_set(
			e, ERR_REMOTE, 0, "%s %s: %s %d%s%s%s", c->rmadmin, what,
			res.exited ? "exit status" : "killed by signal", res.code, *why ? ": " : "",
			why,
			/* AdminService's AccessControlException (RMServerUtils.verifyAdminAccess) */
			strstr(why, "doesn't have permission to call")
				? " (the RM's yarn.admin.acl does not list kilo's user or principal)"
				: "");
	return 0;
}

/* `<rmadmin> rmadmin -updateNodeResource ID MB VCORES TIMEOUT` */
static int run_rmadmin(const struct yarn_cluster *c, const char *id, struct yarn_resource total,
		       int64_t timeout_ms, struct err *e)
{
	char mb[32], vc[32], to[32], what[300];
	char *argv[] = { (char *)c->rmadmin,
			 (char *)"rmadmin",
			 (char *)"-updateNodeResource",
			 (char *)id,
			 mb,
			 vc,
			 to,
			 NULL };

	snprintf(mb, sizeof(mb), "%" PRId64, total.memory_mb);
	snprintf(vc, sizeof(vc), "%" PRId64, total.vcores);
	snprintf(to, sizeof(to), "%" PRId64, timeout_ms);
	snprintf(what, sizeof(what), "rmadmin -updateNodeResource %s", id);
	return rmadmin_run(c, argv, what, e);
}

int yarn_refresh_nodes(const struct yarn_cluster *c, int64_t graceful_s, struct err *e)
{
	char g[32], what[96];
	char *argv[] = { (char *)c->rmadmin,
			 (char *)"rmadmin",
			 (char *)"-refreshNodes",
			 (char *)"-g",
			 g,
			 (char *)"-server",
			 NULL };

	if (!c->rmadmin)
		return err_set(e, ERR_USAGE, 0, "cluster %s: no rmadmin command configured",
			       c->id ? c->id : "?");
	snprintf(g, sizeof(g), "%" PRId64, graceful_s);
	snprintf(what, sizeof(what), "rmadmin -refreshNodes -g %s -server", g);
	return rmadmin_run(c, argv, what, e);
}

int yarn_node_resize(struct yarn_cluster *c, const char *id, struct yarn_resource total,
		     int64_t over_commit_timeout_ms, struct yarn_resize_result *res, struct err *e)
{
	cleanup_free char *seg = http_escape(id, 1);
	cleanup_free char *path = xasprintf(YARN_PATH_NODES "/%s/resource", seg);
	json_auto_t *body = yarn_resize_body(total, over_commit_timeout_ms);

	memset(res, 0, sizeof(*res));
	c->error_status = 0;
	res->rm = -1;
	res->answer = YARN_RESIZE_NO_ACTIVE;
	for (int attempt = 0; attempt < 2; attempt++) {
		struct http_response resp = { 0 };
		struct http_request req;
		enum yarn_resize_answer answer;
		char what[256];
		int rm = confirm_active(c, e), ret;

		if (rm < 0)
			return -1;
		rm_request(c, rm, &req, HTTP_POST, path);
		http_request_set_json(&req, NULL, body);
		ret = http_perform(&c->http, &req, &resp, e); /* a redirect is never followed */
		http_request_release(&req);
		if (ret < 0) {
			c->active = -1;
			continue;
		}
		if (resp.status >= 400)
			c->error_status = resp.status;
		snprintf(what, sizeof(what), "cluster %s: POST %s", c->id ? c->id : "?", path);
		answer = yarn_resize_classify(&resp, what, &res->reported_known, &res->reported, e);
		res->answer = answer;
		res->rm = rm; /* no redirect is followed: the RM asked answered */
		http_response_release(&resp);
		switch (answer) {
		case YARN_RESIZE_ACCEPTED:
			c->active = res->rm;
			res->via = YARN_VIA_REST;
			return 0;
		case YARN_RESIZE_NO_ACTIVE:
			c->active = -1;
			continue;
		case YARN_RESIZE_NO_ENDPOINT:
			if (!c->rmadmin)
				return -1;
			res->via = YARN_VIA_RMADMIN;
			res->rm = -1;
			return run_rmadmin(c, id, total, over_commit_timeout_ms, e);
		default:
			return -1;
		}
	}
	return -1;
}

int yarn_node_wait_total(struct yarn_cluster *c, const char *id, struct yarn_resource want,
			 int64_t timeout_ms, int64_t poll_ms, struct yarn_node *out, struct err *e)
{
	int64_t deadline = clock_mono_ms() + timeout_ms;

	for (;;) {
		if (yarn_node_get(c, id, out, e) < 0)
			return -1;
		if (out->total.memory_mb == want.memory_mb && out->total.vcores == want.vcores)
			return 1;
		if (clock_mono_ms() >= deadline)
			return 0;
		yarn_node_release(out);
		clock_sleep_ms(poll_ms);
	}
}
