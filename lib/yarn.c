// SPDX-License-Identifier: Apache-2.0
/* yarn - YARN ResourceManager REST client (see yarn.h) */
#include "yarn.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "clock.h"
#include "jsonio.h"
#include "xalloc.h"

#define RMADMIN_TIMEOUT_MS 60000

extern char **environ;

/* ---- pure ---- */

int yarn_node_state_inactive(const char *state)
{
	static const char *const inactive[] = { "DECOMMISSIONED", "LOST", "SHUTDOWN", "REBOOTED" };

	for (size_t i = 0; i < sizeof(inactive) / sizeof(inactive[0]); i++)
		if (strcmp(state, inactive[i]) == 0)
			return 1;
	return 0;
}

void yarn_node_release(struct yarn_node *n)
{
	free(n->id);
	free(n->state);
	free(n->host);
	memset(n, 0, sizeof(*n));
}

/* a + b, or -1 with e set when the sum overflows. */
static int add_checked(int64_t a, int64_t b, int64_t *sum, const char *ctx, const char *what,
		       struct err *e)
{
	if (__builtin_add_overflow(a, b, sum))
		return err_set(e, ERR_INPUT, 0, "%s: %s overflows", ctx, what);
	return 0;
}

/* Read key as a required integer; missing is an error naming it. */
static int need_int(const json_t *obj, const char *ctx, const char *key, int64_t min, int64_t *out,
		    struct err *e)
{
	int ret = jsonio_get_int(obj, ctx, key, min, INT64_MAX, out, e);

	if (ret == 0)
		return err_set(e, ERR_INPUT, 0, "%s.%s: missing", ctx, key);
	return ret < 0 ? -1 : 0;
}

/* Read key as a required non-empty string (borrowed). */
static int need_str(const json_t *obj, const char *ctx, const char *key, const char **out,
		    struct err *e)
{
	int ret = jsonio_get_str(obj, ctx, key, out, e);

	if (ret == 0 || (ret > 0 && !**out))
		return err_set(e, ERR_INPUT, 0, "%s.%s: missing", ctx, key);
	return ret < 0 ? -1 : 0;
}

int yarn_node_parse(const json_t *obj, const char *ctx, struct yarn_node *out, struct err *e)
{
	const char *id = NULL, *state = NULL, *host = "";
	int64_t avail_mb = 0, avail_vc = 0;
	json_t *total = NULL;
	struct yarn_node n = { 0 };
	char sub[256];
	int ret;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj))
		return err_set(e, ERR_INPUT, 0, "%s: expected an object", ctx);
	if (need_str(obj, ctx, "id", &id, e) < 0 || need_str(obj, ctx, "state", &state, e) < 0 ||
	    jsonio_get_str(obj, ctx, "nodeHostName", &host, e) < 0)
		return -1;
	if (jsonio_get_int(obj, ctx, "numContainers", 0, INT64_MAX, &n.containers, e) < 0 ||
	    jsonio_get_obj(obj, ctx, "totalResource", &total, e) < 0)
		return -1;
	/* Inactive nodes carry zeros; a node without a scheduler report may
	 * lack the used fields: both mean nothing used. */
	if (jsonio_get_int(obj, ctx, "usedMemoryMB", INT64_MIN, INT64_MAX, &n.used.memory_mb, e) <
		    0 ||
	    jsonio_get_int(obj, ctx, "usedVirtualCores", INT64_MIN, INT64_MAX, &n.used.vcores, e) <
		    0)
		return -1;
	if (total) {
		snprintf(sub, sizeof(sub), "%s.totalResource", ctx);
		if (need_int(total, sub, "memory", 0, &n.total.memory_mb, e) < 0 ||
		    need_int(total, sub, "vCores", 0, &n.total.vcores, e) < 0)
			return -1;
		n.total_reported = 1;
	} else {
		ret = jsonio_get_int(obj, ctx, "availMemoryMB", INT64_MIN, INT64_MAX, &avail_mb, e);
		if (ret == 0)
			return err_set(
				e, ERR_INPUT, 0,
				"%s: expected totalResource or usedMemoryMB and availMemoryMB",
				ctx);
		if (ret < 0 ||
		    need_int(obj, ctx, "availableVirtualCores", INT64_MIN, &avail_vc, e) < 0 ||
		    add_checked(n.used.memory_mb, avail_mb, &n.total.memory_mb, ctx,
				"usedMemoryMB + availMemoryMB", e) < 0 ||
		    add_checked(n.used.vcores, avail_vc, &n.total.vcores, ctx,
				"usedVirtualCores + availableVirtualCores", e) < 0)
			return -1;
	}
	n.id = xstrdup(id);
	n.state = xstrdup(state);
	n.host = xstrdup(host);
	n.inactive = yarn_node_state_inactive(state);
	*out = n;
	return 0;
}

void yarn_nodes_release(struct yarn_nodes *nodes)
{
	for (size_t i = 0; i < nodes->n; i++)
		yarn_node_release(&nodes->items[i]);
	free(nodes->items);
	nodes->items = NULL;
	nodes->n = 0;
}

int yarn_nodes_parse(const json_t *doc, struct yarn_nodes *out, struct err *e)
{
	json_t *wrap = NULL, *list = NULL;
	char ctx[64];

	out->items = NULL;
	out->n = 0;
	if (jsonio_get_obj(doc, "", "nodes", &wrap, e) < 0 ||
	    (wrap && jsonio_get_arr(wrap, "nodes", "node", &list, e) < 0))
		return -1;
	if (!list)
		return 0;
	out->items = xcalloc(json_array_size(list) + 1, sizeof(*out->items));
	for (size_t i = 0; i < json_array_size(list); i++) {
		snprintf(ctx, sizeof(ctx), "nodes.node[%zu]", i);
		if (yarn_node_parse(json_array_get(list, i), ctx, &out->items[i], e) < 0) {
			yarn_nodes_release(out);
			return -1;
		}
		out->n = i + 1;
	}
	return 0;
}

const struct yarn_node *yarn_nodes_find(const struct yarn_nodes *nodes, const char *id)
{
	for (size_t i = 0; i < nodes->n; i++)
		if (strcmp(nodes->items[i].id, id) == 0)
			return &nodes->items[i];
	return NULL;
}

int yarn_cluster_info_parse(const json_t *doc, enum yarn_ha_state *state, struct err *e)
{
	static const struct {
		const char *name;
		enum yarn_ha_state state;
	} names[] = {
		{ "ACTIVE", YARN_HA_ACTIVE },
		{ "STANDBY", YARN_HA_STANDBY },
		{ "INITIALIZING", YARN_HA_INITIALIZING },
		{ "STOPPED", YARN_HA_STOPPED },
	};
	json_t *info = NULL;
	const char *ha = NULL;
	int ret;

	if (jsonio_get_obj(doc, "", "clusterInfo", &info, e) <= 0)
		return info ? -1 : err_set(e, ERR_INPUT, 0, "clusterInfo: missing");
	ret = jsonio_get_str(info, "clusterInfo", "haState", &ha, e);
	if (ret < 0)
		return -1;
	*state = ret == 0 ? YARN_HA_NONE : YARN_HA_OTHER;
	for (size_t i = 0; ha && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(ha, names[i].name) == 0)
			*state = names[i].state;
	return 0;
}

json_t *yarn_resize_body(struct yarn_resource total, int64_t over_commit_timeout_ms)
{
	return json_pack("{s:{s:I,s:I},s:I}", "resource", "memory", (json_int_t)total.memory_mb,
			 "vCores", (json_int_t)total.vcores, "overCommitTimeout",
			 (json_int_t)over_commit_timeout_ms);
}

char *yarn_remote_exception(const json_t *doc)
{
	json_t *re = json_object_get(doc, "RemoteException");
	const char *ex = json_string_value(json_object_get(re, "exception"));
	const char *msg = json_string_value(json_object_get(re, "message"));

	if (!json_is_object(re) || (!ex && !msg))
		return NULL;
	if (ex && msg)
		return xasprintf("%s: %s", ex, msg);
	return xstrdup(ex ? ex : msg);
}

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
	if (resp->status == 307 || (resp->status == 200 && !http_response_is_json(resp))) {
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
	if ((resp->status == 404 || resp->status == 405) && !http_response_is_json(resp)) {
		err_set(e, ERR_REMOTE, 0,
			"%s: HTTP %ld: the RM has no node resource endpoint "
			"(older Hadoop); configure the rmadmin fallback",
			what, resp->status);
		return YARN_RESIZE_NO_ENDPOINT;
	}
	err_set(e, http_status_kind(resp->status), 0, "%s: HTTP %ld: %s", what, resp->status,
		ex ? ex : snippet);
	return YARN_RESIZE_FAILED;
}

/* ---- I/O ---- */

void yarn_cluster_init(struct yarn_cluster *c)
{
	memset(c, 0, sizeof(*c));
	c->active = -1;
}

static void rm_request(const struct yarn_cluster *c, int rm, struct http_request *r,
		       enum http_method method, const char *path)
{
	http_request_init(r, method, c->rm_urls[rm], path);
	if (c->user_name)
		http_request_add_query(r, "user.name", c->user_name);
}

/* The index of the RM whose web base has the origin of url, or -1. */
static int rm_of_url(const struct yarn_cluster *c, const char *url)
{
	for (size_t i = 0; i < c->n_rm; i++)
		if (http_same_origin(c->rm_urls[i], url))
			return (int)i;
	return -1;
}

/* haState of RM rm.  Returns 0, or -1 with e set. */
static int rm_ha_state(const struct yarn_cluster *c, int rm, enum yarn_ha_state *state,
		       struct err *e)
{
	struct http_response resp = { 0 };
	struct http_request req;
	json_auto_t *doc = NULL;
	int ret = -1;

	rm_request(c, rm, &req, HTTP_GET, YARN_PATH_INFO);
	if (http_perform(&c->http, &req, &resp, e) < 0)
		goto out;
	if (http_status_err(&resp, "cluster info", e) < 0)
		goto out;
	doc = http_response_json(&resp, e);
	if (!doc)
		goto out;
	ret = yarn_cluster_info_parse(doc, state, e);
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
	for (size_t i = 0; i < c->n_rm; i++) {
		enum yarn_ha_state st = YARN_HA_OTHER;
		struct err sub = { 0 };

		if (rm_ha_state(c, (int)i, &st, &sub) == 0 &&
		    (st == YARN_HA_ACTIVE || st == YARN_HA_NONE)) {
			c->active = (int)i;
			return c->active;
		}
		if (sub.kind == ERR_NONE)
			snprintf(sub.msg, sizeof(sub.msg), "%s",
				 st == YARN_HA_STANDBY ? "standby" : "not active");
		len += (size_t)snprintf(why + len, len < sizeof(why) ? sizeof(why) - len : 0,
					"%s%s: %s", i ? "; " : "", c->rm_urls[i], sub.msg);
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
		int rm, ret;

		if (c->active < 0 && yarn_find_active(c, e) < 0)
			return -1;
		rm_request(c, c->active, &req, HTTP_GET, path);
		req.follow_redirects = 1;
		ret = http_perform(&c->http, &req, &resp, e);
		if (ret == 0 &&
		    (resp.status == 307 || (resp.status == 200 && !http_response_is_json(&resp)))) {
			char snippet[200];

			http_response_snippet(&resp, snippet, sizeof(snippet));
			ret = err_set(e, ERR_TEMP, 0, "GET %s: no active RM (HTTP %ld: '%s')",
				      req.url, resp.status, snippet);
		}
		http_request_release(&req);
		if (ret < 0) {
			http_response_release(&resp);
			c->active = -1;
			continue;
		}
		rm = rm_of_url(c, resp.url);
		c->active = rm;
		if (resp.status == 404 && (ex = answer_exception(&resp)))
			ret = err_set(e, ERR_NOTFOUND, 0, "GET %s: %s", path, ex);
		else if (http_status_err(&resp, path, e) < 0)
			ret = -1;
		else if (!(*doc = http_response_json(&resp, e)))
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
	if (get_json(c, YARN_PATH_NODES, &doc, e) < 0)
		return -1;
	if (yarn_nodes_parse(doc, out, e) < 0)
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

/* Run `<rmadmin> rmadmin -updateNodeResource ID MB VCORES TIMEOUT` with
 * stdin from /dev/null, collecting its output for the message. */
static int run_rmadmin(const struct yarn_cluster *c, const char *id, struct yarn_resource total,
		       int64_t timeout_ms, struct err *e)
{
	char mb[32], vc[32], to[32], out[512] = "";
	char *argv[] = { (char *)c->rmadmin,
			 (char *)"rmadmin",
			 (char *)"-updateNodeResource",
			 (char *)id,
			 mb,
			 vc,
			 to,
			 NULL };
	int64_t limit = c->rmadmin_timeout_ms ? c->rmadmin_timeout_ms : RMADMIN_TIMEOUT_MS;
	int64_t deadline = clock_mono_ms() + limit;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	size_t len = 0;
	int pipefd[2], status = 0, rc, timed_out = 0;
	pid_t pid;

	snprintf(mb, sizeof(mb), "%" PRId64, total.memory_mb);
	snprintf(vc, sizeof(vc), "%" PRId64, total.vcores);
	snprintf(to, sizeof(to), "%" PRId64, timeout_ms);
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return err_set(e, ERR_SYSTEM, errno, "pipe");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	/* Its own process group, so a timeout kills the JVM `yarn` started too. */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	rc = posix_spawnp(&pid, c->rmadmin, &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		return err_set(e, ERR_SYSTEM, rc, "run %s", c->rmadmin);
	}
	for (;;) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		int64_t left = deadline - clock_mono_ms();
		char buf[512];
		ssize_t n;

		if (left <= 0) {
			timed_out = 1;
			kill(-pid, SIGKILL);
			break;
		}
		if (poll(&p, 1, (int)(left > 1000 ? 1000 : left)) <= 0)
			continue;
		n = read(pipefd[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && len + 1 < sizeof(out); i++)
			out[len++] = buf[i] == '\n' || buf[i] == '\r' ? ' ' : buf[i];
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	while (len > 0 && out[len - 1] == ' ')
		len--;
	out[len] = '\0';
	if (timed_out)
		return err_set(e, ERR_TEMP, 0,
			       "%s rmadmin -updateNodeResource %s: timed out after %" PRId64 " ms",
			       c->rmadmin, id, limit);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return err_set(e, ERR_REMOTE, 0, "%s rmadmin -updateNodeResource %s: %s %d%s%s",
			       c->rmadmin, id,
			       WIFEXITED(status) ? "exit status" : "killed by signal",
			       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			       *out ? ": " : "", out);
	return 0;
}

int yarn_node_resize(struct yarn_cluster *c, const char *id, struct yarn_resource total,
		     int64_t over_commit_timeout_ms, struct yarn_resize_result *res, struct err *e)
{
	cleanup_free char *seg = http_escape(id, 1);
	cleanup_free char *path = xasprintf(YARN_PATH_NODES "/%s/resource", seg);
	json_auto_t *body = yarn_resize_body(total, over_commit_timeout_ms);

	memset(res, 0, sizeof(*res));
	res->rm = -1;
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
		req.follow_redirects = 1;
		ret = http_perform(&c->http, &req, &resp, e);
		http_request_release(&req);
		if (ret < 0) {
			c->active = -1;
			continue;
		}
		snprintf(what, sizeof(what), "cluster %s: POST %s", c->id ? c->id : "?", path);
		answer = yarn_resize_classify(&resp, what, &res->reported_known, &res->reported, e);
		res->rm = rm_of_url(c, resp.url);
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
