// SPDX-License-Identifier: Apache-2.0
/* containerlist - the ContainerList document (see containerlist.h) */
#include "doc/containerlist.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/xalloc.h"

void containerlist_item_derive(struct containerlist_item *it)
{
	it->phase = nm_state_phase(it->state);
	it->held = it->state && it->phase != NM_PHASE_FINISHED;
	it->live = it->held && it->phase != NM_PHASE_KILLING;
}

void containerlist_item_flags(struct containerlist_item *it, int reachable)
{
	enum nm_phase p;

	containerlist_item_derive(it);
	p = it->listed ? it->phase : NM_PHASE_UNKNOWN;
	it->stale = reachable ? !it->listed || p == NM_PHASE_FINISHED : CONTAINERLIST_UNKNOWN;
	it->starting =
		it->processes == 0 &&
		(reachable ? it->listed && p != NM_PHASE_FINISHED && p != NM_PHASE_KILLING : 1);
	it->terminating = p == NM_PHASE_KILLING && it->processes > 0;
}

static void item_release(struct containerlist_item *it)
{
	free(it->state);
	free(it->user);
	free(it->cgroup);
	free(it->pids);
}

void containerlist_release(struct containerlist *cl)
{
	for (size_t i = 0; i < cl->n; i++)
		item_release(&cl->items[i]);
	free(cl->items);
	free(cl->node);
	free(cl->timestamp);
	free(cl->nm_url);
	free(cl->nm_error);
	free(cl->driver);
	free(cl->yarn_path);
	memset(cl, 0, sizeof(*cl));
}

/* ---- Reading ----------------------------------------------------------- */

/* An optional figure 0..CONTAINERLIST_FIGURE_MAX, the counter cpuNanos
 * 0..INT64_MAX (containerlist.h): UNKNOWN when absent or null. */
static int get_figure(const json_t *obj, const char *ctx, const char *key, int64_t *out,
		      struct err *e)
{
	int64_t max = strcmp(key, "cpuNanos") == 0 ? INT64_MAX : CONTAINERLIST_FIGURE_MAX;

	*out = CONTAINERLIST_UNKNOWN;
	return jsonio_get_int(obj, ctx, key, 0, max, out, e) < 0 ? -1 : 0;
}

/* An optional flag: dflt when absent or null. */
static int get_flag(const json_t *obj, const char *ctx, const char *key, int dflt, int *out,
		    struct err *e)
{
	*out = dflt;
	return jsonio_get_bool(obj, ctx, key, out, e) < 0 ? -1 : 0;
}

/* obj.key, an object of figures named keys[i] into *outs[i].  The path
 * "ctx.key" is formatted only for a figure outside 0..2^53, which
 * get_figure() then reads or refuses (the common case, every figure in
 * that range, costs no formatting per item). */
static int get_figures(const json_t *obj, const char *ctx, const char *key, const char *const *keys,
		       int64_t *const *outs, size_t n, struct err *e)
{
	json_t *o = NULL, *v;
	char sub[112];

	for (size_t i = 0; i < n; i++)
		*outs[i] = CONTAINERLIST_UNKNOWN;
	if (jsonio_get_obj(obj, ctx, key, &o, e) < 0)
		return -1;
	for (size_t i = 0; o && i < n; i++) {
		v = json_object_get(o, keys[i]);
		if (!v || json_is_null(v))
			continue;
		if (json_is_integer(v) && json_integer_value(v) >= 0 &&
		    json_integer_value(v) <= CONTAINERLIST_FIGURE_MAX) {
			*outs[i] = json_integer_value(v);
			continue;
		}
		snprintf(sub, sizeof(sub), "%s.%s", ctx, key);
		if (get_figure(o, sub, keys[i], outs[i], e) < 0)
			return -1;
	}
	return 0;
}

static int read_pids(const json_t *it, const char *ctx, struct containerlist_item *c, struct err *e)
{
	json_t *a = NULL, *v;
	size_t i;
	int r = jsonio_get_arr(it, ctx, "pids", &a, e);

	if (r <= 0)
		return r;
	json_array_foreach(a, i, v)
	{
		char ectx[112];

		if (json_is_integer(v) && json_integer_value(v) >= 1 &&
		    json_integer_value(v) <= INT_MAX)
			continue;
		snprintf(ectx, sizeof(ectx), "%s.pids[%zu]", ctx, i);
		return jsonio_bad_value(e, ectx, NULL, "a process id 1..2147483647", v);
	}
	c->pids_known = 1;
	c->npids = json_array_size(a);
	c->pids = c->npids ? xcalloc(c->npids, sizeof(*c->pids)) : NULL;
	json_array_foreach(a, i, v)
	{
		c->pids[i] = (pid_t)json_integer_value(v);
	}
	return 0;
}

static int read_item(const json_t *it, const char *ctx, json_t *seen, struct containerlist_item *c,
		     struct err *e)
{
	static const char *const req_keys[] = { "cpuMilli", "memoryBytes" };
	static const char *const usage_keys[] = { "cpuNanos", "cpuMilli", "memoryBytes",
						  "memoryCurrentBytes" };
	int64_t *const req[] = { &c->request_cpu_milli, &c->request_memory_bytes };
	int64_t *const usage[] = { &c->cpu_ns, &c->cpu_milli, &c->memory_bytes, &c->memory_charge };
	const char *id = NULL, *start = NULL, *phase = NULL;

	if (!json_is_object(it))
		return jsonio_bad_value(e, ctx, NULL, "an object", it);
	if (containerid_get_unique(it, ctx, seen, &id, &c->cid, e) < 0)
		return -1;
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->start_ms = CONTAINERLIST_UNKNOWN;
	if (get_flag(it, ctx, "am", containerid_is_am(&c->cid), &c->am, e) < 0 ||
	    jsonio_get_strdup(it, ctx, "state", &c->state, e) < 0 ||
	    jsonio_get_str(it, ctx, "phase", &phase, e) < 0 ||
	    jsonio_get_strdup(it, ctx, "user", &c->user, e) < 0 ||
	    get_figures(it, ctx, "requests", req_keys, req, 2, e) < 0 ||
	    jsonio_get_strdup(it, ctx, "cgroup", &c->cgroup, e) < 0 ||
	    get_figure(it, ctx, "processes", &c->processes, e) < 0 ||
	    read_pids(it, ctx, c, e) < 0 || jsonio_get_str(it, ctx, "startTime", &start, e) < 0 ||
	    get_figures(it, ctx, "usage", usage_keys, usage, 4, e) < 0 ||
	    get_flag(it, ctx, "starting", 0, &c->starting, e) < 0 ||
	    get_flag(it, ctx, "stale", CONTAINERLIST_UNKNOWN, &c->stale, e) < 0 ||
	    get_flag(it, ctx, "terminating", 0, &c->terminating, e) < 0)
		return -1;
	if (phase && nm_phase_from_name(phase) < 0)
		return jsonio_bad_value(e, ctx, "phase",
					"one of unknown, starting, running, killing, finished",
					json_object_get(it, "phase"));
	if (start && clock_parse_rfc3339(start, &c->start_ms) < 0)
		return jsonio_bad_value(e, ctx, "startTime", "an RFC 3339 time",
					json_object_get(it, "startTime"));
	c->listed = phase || c->state;
	containerlist_item_derive(c);
	return 0;
}

static int read_head(const json_t *doc, struct containerlist *out, struct err *e)
{
	json_t *meta = NULL, *nm = NULL, *y = NULL;

	out->cgroup_version = CONTAINERLIST_UNKNOWN;
	out->yarn_found = CONTAINERLIST_UNKNOWN;
	if (jsonio_get_obj(doc, "ContainerList", "metadata", &meta, e) < 0 ||
	    jsonio_get_strdup(meta, "ContainerList.metadata", "node", &out->node, e) < 0 ||
	    jsonio_get_strdup(meta, "ContainerList.metadata", "timestamp", &out->timestamp, e) <
		    0 ||
	    jsonio_get_obj(doc, "ContainerList", "nodeManager", &nm, e) < 0 ||
	    jsonio_get_strdup(nm, "ContainerList.nodeManager", "url", &out->nm_url, e) < 0 ||
	    get_flag(nm, "ContainerList.nodeManager", "reachable", 0, &out->nm_reachable, e) < 0 ||
	    jsonio_get_strdup(nm, "ContainerList.nodeManager", "error", &out->nm_error, e) < 0 ||
	    jsonio_get_obj(doc, "ContainerList", "hadoopYarn", &y, e) < 0 ||
	    jsonio_get_int(y, "ContainerList.hadoopYarn", "cgroupVersion", 1, 2,
			   &out->cgroup_version, e) < 0 ||
	    jsonio_get_strdup(y, "ContainerList.hadoopYarn", "driver", &out->driver, e) < 0 ||
	    jsonio_get_strdup(y, "ContainerList.hadoopYarn", "path", &out->yarn_path, e) < 0 ||
	    get_flag(y, "ContainerList.hadoopYarn", "found", CONTAINERLIST_UNKNOWN,
		     &out->yarn_found, e) < 0)
		return -1;
	return 0;
}

int containerlist_from_json(const json_t *doc, struct containerlist *out, struct err *e)
{
	json_auto_t *seen = json_object();
	json_t *items = NULL;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (read_head(doc, out, e) < 0 ||
	    jsonio_get_arr(doc, "ContainerList", "items", &items, e) < 0)
		goto fail;
	n = json_array_size(items);
	out->items = xcalloc(n ? n : 1, sizeof(*out->items));
	for (; out->n < n; out->n++) {
		char ctx[64];

		snprintf(ctx, sizeof(ctx), "ContainerList.items[%zu]", out->n);
		if (read_item(json_array_get(items, out->n), ctx, seen, &out->items[out->n], e) <
		    0) {
			out->n++; /* release what it holds */
			goto fail;
		}
	}
	return 0;
fail:
	containerlist_release(out);
	return -1;
}

static const struct jsonio_filter metadata_fields[] = { { "node" }, { "timestamp" }, { NULL } };

const struct jsonio_filter containerlist_item_fields[] = {
	{ "id" },       { "am" },       { "state" },     { "phase" },       { "user" },
	{ "requests" }, { "cgroup" },   { "processes" }, { "pids" },        { "startTime" },
	{ "usage" },    { "starting" }, { "stale" },     { "terminating" }, { NULL },
};

const struct jsonio_filter containerlist_item_nm_fields[] = {
	{ "id" }, { "state" }, { "phase" }, { "requests" }, { "pids" }, { "stale" }, { NULL },
};

const struct jsonio_filter containerlist_fields[] = {
	{ "kind" },        { "apiVersion" }, { "metadata", metadata_fields },
	{ "nodeManager" }, { "hadoopYarn" }, { "items", containerlist_item_fields },
	{ NULL },
};

/* ---- Writing ----------------------------------------------------------- */

static json_t *int_or_null(int64_t v)
{
	return jsonio_int_or_null(v >= 0, v);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *flag_or_null(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *item_json(const struct containerlist_item *it)
{
	char app[64], start[40];
	json_t *doc, *requests = json_null(), *pids = json_null();

	if (it->request_cpu_milli >= 0 || it->request_memory_bytes >= 0)
		requests = json_pack("{s:o, s:o}", "cpuMilli", int_or_null(it->request_cpu_milli),
				     "memoryBytes", int_or_null(it->request_memory_bytes));
	if (it->pids_known) {
		pids = json_array();
		for (size_t i = 0; i < it->npids; i++)
			json_array_append_new(pids, json_integer(it->pids[i]));
	}
	doc = json_pack("{s:s, s:s, s:I, s:I, s:I, s:b}", "id", it->id, "applicationId",
			containerid_application(&it->cid, app, sizeof(app)), "attempt",
			(json_int_t)it->cid.attempt, "number", (json_int_t)it->cid.number, "epoch",
			(json_int_t)it->cid.epoch, "am", it->am);
	json_object_set_new(doc, "state", str_or_null(it->state));
	json_object_set_new(doc, "phase",
			    it->listed ? json_string(nm_phase_name(it->phase)) : json_null());
	json_object_set_new(doc, "user", str_or_null(it->user));
	json_object_set_new(doc, "requests", requests);
	json_object_set_new(doc, "cgroup", str_or_null(it->cgroup));
	json_object_set_new(doc, "processes", int_or_null(it->processes));
	json_object_set_new(doc, "pids", pids);
	json_object_set_new(doc, "startTime",
			    it->start_ms >= 0 ? json_string(clock_format_rfc3339(
							it->start_ms, start, sizeof(start)))
					      : json_null());
	json_object_set_new(doc, "usage",
			    json_pack("{s:o, s:o, s:o, s:o}", "cpuNanos", int_or_null(it->cpu_ns),
				      "cpuMilli", int_or_null(it->cpu_milli), "memoryBytes",
				      int_or_null(it->memory_bytes), "memoryCurrentBytes",
				      int_or_null(it->memory_charge)));
	json_object_set_new(doc, "starting", json_boolean(it->starting));
	json_object_set_new(doc, "stale", flag_or_null(it->stale));
	json_object_set_new(doc, "terminating", json_boolean(it->terminating));
	return doc;
}

json_t *containerlist_to_json(const struct containerlist *cl)
{
	json_t *doc = jsonio_new_doc("ContainerList");
	json_t *meta = json_object(), *y = json_object(), *items = json_array();

	if (cl->node)
		json_object_set_new(meta, "node", json_string(cl->node));
	if (cl->timestamp)
		json_object_set_new(meta, "timestamp", json_string(cl->timestamp));
	json_object_set_new(doc, "metadata", meta);
	json_object_set_new(doc, "nodeManager",
			    json_pack("{s:o, s:b, s:o}", "url", str_or_null(cl->nm_url),
				      "reachable", cl->nm_reachable, "error",
				      str_or_null(cl->nm_error)));
	json_object_set_new(y, "cgroupVersion", int_or_null(cl->cgroup_version));
	json_object_set_new(y, "driver", str_or_null(cl->driver));
	json_object_set_new(y, "path", str_or_null(cl->yarn_path));
	json_object_set_new(y, "found", flag_or_null(cl->yarn_found));
	json_object_set_new(doc, "hadoopYarn", y);
	for (size_t i = 0; i < cl->n; i++)
		json_array_append_new(items, item_json(&cl->items[i]));
	json_object_set_new(doc, "items", items);
	return doc;
}

/* ---- ContainerListState ------------------------------------------------ */

static int sample_cmp(const void *a, const void *b)
{
	return strcmp(((const struct containerlist_sample *)a)->id,
		      ((const struct containerlist_sample *)b)->id);
}

static void state_init(struct containerlist_state *st)
{
	memset(st, 0, sizeof(*st));
	st->timestamp_ms = CONTAINERLIST_UNKNOWN;
}

void containerlist_state_release(struct containerlist_state *st)
{
	free(st->samples);
	state_init(st);
}

int containerlist_state_from_json(const json_t *doc, struct containerlist_state *out, struct err *e)
{
	static const char ctx[] = "ContainerListState";
	json_t *ns = NULL, *v;
	const char *id;

	state_init(out);
	if (jsonio_get_int(doc, ctx, "timestampMs", 0, INT64_MAX, &out->timestamp_ms, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "cpuNanos", &ns, e) < 0)
		goto fail;
	out->samples = xcalloc(json_object_size(ns) + 1, sizeof(*out->samples));
	json_object_foreach(ns, id, v)
	{
		struct containerlist_sample *s = &out->samples[out->n];

		if (!containerid_valid(id)) {
			json_auto_t *key = json_string(id);

			jsonio_bad_value(e, "ContainerListState.cpuNanos", NULL,
					 "YARN container ids", key);
			goto fail;
		}
		snprintf(s->id, sizeof(s->id), "%s", id);
		if (jsonio_get_int(ns, "ContainerListState.cpuNanos", id, 0, INT64_MAX, &s->cpu_ns,
				   e) < 0)
			goto fail;
		if (json_is_integer(v))
			out->n++;
	}
	qsort(out->samples, out->n, sizeof(*out->samples), sample_cmp);
	return 0;
fail:
	containerlist_state_release(out);
	return -1;
}

json_t *containerlist_state_to_json(const struct containerlist_state *st)
{
	json_t *doc = jsonio_new_doc("ContainerListState");
	json_t *ns = json_object();

	json_object_set_new(doc, "timestampMs", int_or_null(st->timestamp_ms));
	for (size_t i = 0; i < st->n; i++)
		json_object_set_new(ns, st->samples[i].id, json_integer(st->samples[i].cpu_ns));
	json_object_set_new(doc, "cpuNanos", ns);
	return doc;
}

const struct containerlist_sample *containerlist_state_find(const struct containerlist_state *st,
							    const char *id)
{
	struct containerlist_sample key;

	if (!st || !st->n)
		return NULL;
	snprintf(key.id, sizeof(key.id), "%s", id);
	return bsearch(&key, st->samples, st->n, sizeof(key), sample_cmp);
}
