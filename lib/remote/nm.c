// SPDX-License-Identifier: Apache-2.0
/* nm - the YARN NodeManager REST API, read side (see nm.h) */
#include "remote/nm.h"

#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "remote/http.h"

size_t nm_containers_live(const struct nm_containers *c)
{
	size_t live = 0;

	for (size_t i = 0; i < c->n; i++) {
		enum nm_phase p = nm_state_phase(c->items[i].state);

		live += p == NM_PHASE_RUNNING || p == NM_PHASE_KILLING;
	}
	return live;
}

void nm_containers_release(struct nm_containers *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].id);
		free(c->items[i].state);
		free(c->items[i].user);
	}
	free(c->items);
	free(c->first_problem);
	memset(c, 0, sizeof(*c));
}

/* Count a problem of what c is being filled from; the first one's message
 * is kept. */
static void problem(struct nm_containers *c, size_t *count, const struct err *e)
{
	(*count)++;
	if (!c->first_problem)
		c->first_problem = xstrdup(e->msg);
}

static int cmp_container(const void *a, const void *b)
{
	return strcmp(((const struct nm_container *)a)->id, ((const struct nm_container *)b)->id);
}

const struct nm_container *nm_containers_find(const struct nm_containers *c, const char *id)
{
	struct nm_container key = { .id = (char *)id };

	if (!c->n)
		return NULL;
	return bsearch(&key, c->items, c->n, sizeof(key), cmp_container);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A new item at the end of c (capacity doubles: tens of thousands may come). */
static struct nm_container *push(struct nm_containers *c)
{
	if ((c->n & (c->n - 1)) == 0) /* 0, 1, 2, 4, ...: full */
		c->items = xrealloc(c->items, (c->n ? c->n * 2 : 1) * sizeof(*c->items));
	return &c->items[c->n++];
}

/* One ContainerInfo object into c: 1 when added, 0 when skipped (no
 * object, a bad id).  A field of the wrong type is counted and taken as
 * absent: it costs that field of that container only. */
static int parse_one(const json_t *obj, const char *ctx, struct nm_containers *c)
{
	const char *id = NULL, *state = NULL, *user = NULL;
	int64_t mb = -1, vcores = -1, exit_code = -1000;
	struct nm_container *it;
	struct err e = { 0 };

	if (!json_is_object(obj) || jsonio_get_str(obj, ctx, "id", &id, &e) < 0) {
		if (!json_is_object(obj))
			jsonio_bad_value(&e, ctx, NULL, "an object", obj);
		problem(c, &c->ignored, &e);
		return 0;
	}
	if (!id || !containerid_valid(id)) {
		err_set(&e, ERR_INPUT, 0, "%s.id: not a YARN container id", ctx);
		problem(c, &c->ignored, &e);
		return 0;
	}
	if (jsonio_get_str(obj, ctx, "state", &state, &e) < 0)
		problem(c, &c->bad_fields, &e);
	if (jsonio_get_str(obj, ctx, "user", &user, &e) < 0)
		problem(c, &c->bad_fields, &e);
	if (jsonio_get_int(obj, ctx, "totalMemoryNeededMB", 0, NM_MEMORY_MB_MAX, &mb, &e) < 0) {
		mb = -1;
		problem(c, &c->bad_fields, &e);
	}
	if (jsonio_get_int(obj, ctx, "totalVCoresNeeded", 0, NM_VCORES_MAX, &vcores, &e) < 0) {
		vcores = -1;
		problem(c, &c->bad_fields, &e);
	}
	if (jsonio_get_int(obj, ctx, "exitCode", INT32_MIN, INT32_MAX, &exit_code, &e) < 0) {
		exit_code = -1000;
		problem(c, &c->bad_fields, &e);
	}
	it = push(c);
	it->id = xstrdup(id);
	it->state = dup_or_null(state);
	it->user = dup_or_null(user);
	it->memory_mb = mb;
	it->vcores = vcores;
	it->exit_code = exit_code;
	return 1;
}

/* The members of the containers object other than "container": none in
 * any form Hadoop sends ({"containerz":[...]} is no list of none). */
static int only_container(const json_t *wrap, struct err *e)
{
	const char *key;
	json_t *v;

	json_object_foreach(
		(json_t *)wrap, key,
		v) if (strcmp(key, "container") !=
		       0) return err_set(e, ERR_INPUT, 0,
					 "NM answer.containers: not a containers document "
					 "(member \"%.64s\")",
					 key);
	return 0;
}

static int parse_list(const json_t *doc, struct nm_containers *out, struct err *e)
{
	json_t *wrap = NULL, *list, *one = NULL;
	char ctx[64];
	size_t i;

	if (jsonio_get_obj(doc, "NM answer", "container", &one, e) < 0)
		return -1;
	if (one && json_object_get(doc, "containers"))
		return err_set(e, ERR_INPUT, 0,
			       "NM answer: not one containers document (both \"container\" and "
			       "\"containers\")");
	if (one) /* GET /ws/v1/node/containers/{id} */
		return parse_one(one, "NM answer.container", out), 0;
	if (!json_object_get(doc, "containers")) /* {} is no answer, never "none" */
		return err_set(e, ERR_INPUT, 0,
			       "NM answer: not a containers document (no \"containers\" member)");
	if (jsonio_get_obj(doc, "NM answer", "containers", &wrap, e) < 0)
		return -1;
	if (!wrap)
		return 0; /* {"containers":null}: Hadoop's answer for none */
	if (only_container(wrap, e) < 0)
		return -1;
	list = json_object_get(wrap, "container");
	if (!list || json_is_null(list))
		return 0;
	if (json_is_object(list))
		return parse_one(list, "NM answer.containers.container", out), 0;
	if (!json_is_array(list))
		return jsonio_bad_value(e, "NM answer.containers", "container",
					"an array or an object", list);
	for (i = 0; i < json_array_size(list); i++) {
		snprintf(ctx, sizeof(ctx), "NM answer.containers.container[%zu]", i);
		parse_one(json_array_get(list, i), ctx, out);
	}
	return 0;
}

/* Sort c by id and keep each id once: of repeats the entry not finished
 * (the NM still holds that container), else the first. */
static void settle(struct nm_containers *c)
{
	size_t w = 0;

	if (c->n > 1)
		qsort(c->items, c->n, sizeof(*c->items), cmp_container);
	for (size_t i = 0; i < c->n; i++) {
		struct nm_container *it = &c->items[i];

		if (w && strcmp(c->items[w - 1].id, it->id) == 0) {
			struct nm_container *kept = &c->items[w - 1], drop;
			struct err e = { 0 };

			if (nm_state_phase(kept->state) == NM_PHASE_FINISHED &&
			    nm_state_phase(it->state) != NM_PHASE_FINISHED) {
				drop = *kept;
				*kept = *it;
			} else {
				drop = *it;
			}
			err_set(&e, ERR_INPUT, 0, "NM answer: container %s listed again (state %s)",
				kept->id, drop.state ? drop.state : "null");
			problem(c, &c->duplicates, &e);
			free(drop.id);
			free(drop.state);
			free(drop.user);
			continue;
		}
		c->items[w++] = *it;
	}
	c->n = w;
}

int nm_parse_containers(const json_t *doc, struct nm_containers *out, struct err *e)
{
	memset(out, 0, sizeof(*out));
	if (!json_is_object(doc))
		return jsonio_bad_value(e, "NM containers", NULL, "an object", doc);
	if (parse_list(doc, out, e) < 0) {
		nm_containers_release(out);
		return -1;
	}
	settle(out);
	return 0;
}

/* The containers array, streamed: each element goes into the list as the
 * parser builds it, so a huge answer never exists as a JSON tree. */
struct stream {
	struct nm_containers *out;
	struct err err; /* the first bad element */
	int failed;
};

static int each_container(const json_t *elem, size_t index, void *arg)
{
	struct stream *st = arg;
	char ctx[64];

	if (st->failed)
		return 0;
	if (index >= NM_MAX_CONTAINERS) {
		err_set(&st->err, ERR_INPUT, 0, "NM answer: more than %d containers listed",
			NM_MAX_CONTAINERS);
		st->failed = 1;
		return 0;
	}
	snprintf(ctx, sizeof(ctx), "NM answer.containers.container[%zu]", index);
	parse_one(elem, ctx, st->out);
	return 0;
}

static const struct jsonio_filter container_fields[] = {
	{ "id" },       { "state" }, { "user" }, { "totalMemoryNeededMB" }, { "totalVCoresNeeded" },
	{ "exitCode" }, { NULL },
};
static const struct jsonio_filter wrap_fields[] = {
	{ "container", container_fields, each_container },
	{ "*" }, /* any other member, as null: only_container() refuses it */
	{ NULL },
};
/* What nm_parse_containers() reads, and nm_fetch_info(). */
static const struct jsonio_filter containers_answer[] = {
	{ "containers", wrap_fields },
	{ "container", container_fields },
	{ NULL },
};
static const struct jsonio_filter info_answer[] = {
	{ "nodeInfo", (const struct jsonio_filter[]){ { "id" }, { NULL } } },
	{ NULL },
};

/* GET url + path; the parsed JSON object (new reference) or NULL with e set. */
static json_t *nm_get(const char *url, const char *path, long timeout_ms, int64_t max_bytes,
		      const struct jsonio_filter *keep, void *arg, struct err *e)
{
	struct http_client client = { .timeout_ms = timeout_ms,
				      .connect_timeout_ms = timeout_ms,
				      .max_body = max_bytes > 0 ? max_bytes : NM_MAX_BYTES };
	struct http_request req;
	struct http_response resp = { 0 };
	json_t *doc = NULL;

	http_request_init(&req, HTTP_GET, url, path);
	if (http_perform(&client, &req, &resp, e) == 0 &&
	    http_status_err(&resp, "NodeManager", e) == 0) {
		doc = http_response_json_filtered(&resp, keep, arg, e);
		if (!doc)
			e->kind = ERR_INPUT;
	}
	if (!doc && e->kind == ERR_NOTFOUND)
		e->kind = ERR_REMOTE;
	http_response_release(&resp);
	http_request_release(&req);
	return doc;
}

int nm_fetch_containers(const char *url, long timeout_ms, int64_t max_bytes,
			struct nm_containers *out, struct err *e)
{
	struct stream st = { .out = out };
	struct nm_containers rest = { 0 };
	json_auto_t *doc = NULL;

	memset(out, 0, sizeof(*out));
	doc = nm_get(url, "/ws/v1/node/containers", timeout_ms, max_bytes, containers_answer, &st,
		     e);
	if (doc && st.failed)
		*e = st.err;
	/* the shape rules and the one-object forms, on what the stream left */
	if (!doc || st.failed || nm_parse_containers(doc, &rest, e) < 0) {
		nm_containers_release(out);
		return -1;
	}
	for (size_t i = 0; i < rest.n; i++)
		*push(out) = rest.items[i];
	out->ignored += rest.ignored;
	out->bad_fields += rest.bad_fields;
	out->duplicates += rest.duplicates;
	if (!out->first_problem)
		out->first_problem = rest.first_problem;
	else
		free(rest.first_problem);
	free(rest.items);
	settle(out);
	return 0;
}

int nm_fetch_info(const char *url, long timeout_ms, char **id, struct err *e)
{
	json_auto_t *doc =
		nm_get(url, "/ws/v1/node/info", timeout_ms, 1 << 20, info_answer, NULL, e);
	json_t *info = NULL;
	const char *s = NULL;

	*id = NULL;
	if (!doc)
		return -1;
	if (jsonio_get_obj(doc, "NM info", "nodeInfo", &info, e) < 0)
		return -1;
	if (!info)
		return err_set(e, ERR_INPUT, 0, "NM info: no nodeInfo object");
	if (jsonio_get_str(info, "NM info.nodeInfo", "id", &s, e) < 0)
		return -1;
	*id = dup_or_null(s);
	return 0;
}
