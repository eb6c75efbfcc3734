// SPDX-License-Identifier: Apache-2.0
/* cgroupchanges - the CgroupChanges document (see cgroupchanges.h) */
#include "doc/cgroupchanges.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "doc/docmeta.h"

static const char *const result_names[CGROUPCHANGES_NRESULTS] = {
	"written", "unchanged", "unsupported", "failed", "skipped", "planned", "deferred",
};

const char *cgroupchanges_result_name(enum cgroupchanges_result r)
{
	return r < CGROUPCHANGES_NRESULTS ? result_names[r] : "unknown";
}

/* The members of an item, in order, and their values for it. */
static const char *const item_keys[] = { "path", "controller", "file",   "old",
					 "new",  "result",     "reason", "error" };
#define ITEM_MEMBERS (sizeof(item_keys) / sizeof(item_keys[0]))

static void item_values(const struct cgroupchanges_item *it, const char *values[ITEM_MEMBERS])
{
	const char *v[ITEM_MEMBERS] = { it->path,   it->controller,
					it->file,   it->old,
					it->new,    cgroupchanges_result_name(it->result),
					it->reason, it->error };

	memcpy(values, v, sizeof(v));
}

json_t *cgroupchanges_item_json(const struct cgroupchanges_item *it)
{
	const char *values[ITEM_MEMBERS];
	json_t *o = json_object();

	item_values(it, values);
	for (size_t i = 0; i < ITEM_MEMBERS; i++)
		json_object_set_new_nocheck(o, item_keys[i], jsonio_string(values[i]));
	if (it->nforeign) {
		json_t *a = json_array();

		for (size_t i = 0; i < it->nforeign; i++)
			json_array_append_new(a, json_integer(it->foreign[i]));
		json_object_set_new_nocheck(o, "foreign", a);
	}
	return o;
}

int cgroupchanges_item_text(const struct cgroupchanges_item *it, struct jsonio_buf *b)
{
	const char *values[ITEM_MEMBERS];
	json_t *v;
	int r;

	item_values(it, values);
	if (!it->nforeign && jsonio_record(b, item_keys, values, ITEM_MEMBERS) == 0)
		return 0;
	v = cgroupchanges_item_json(it);
	r = v ? jsonio_buf_put_json(b, v) : -1;
	json_decref(v);
	return r;
}

json_t *cgroupchanges_summary_json(const int64_t summary[CGROUPCHANGES_NRESULTS])
{
	json_t *sum = json_object();

	for (int r = 0; r < CGROUPCHANGES_NRESULTS; r++)
		json_object_set_new_nocheck(sum, result_names[r], json_integer(summary[r]));
	return sum;
}

json_t *cgroupchanges_head_json(const struct cgroupchanges *c)
{
	json_t *doc = jsonio_new_doc("CgroupChanges");
	json_object_set_new(doc, "dryRun", json_boolean(c->dry_run));
	json_object_set_new(doc, "metadata", jsonio_metadata(c->node, c->timestamp_ms));
	json_object_set_new(doc, "summary", cgroupchanges_summary_json(c->summary));
	json_object_set_new(
		doc, "cache",
		c->has_cache ? json_pack("{s:o,s:I,s:I,s:b}", "file", jsonio_string(c->cache.file),
					 "items", (json_int_t)c->cache.items, "hits",
					 (json_int_t)c->cache.hits, "saved", c->cache.saved)
			     : json_null());
	return doc;
}

json_t *cgroupchanges_to_json(const struct cgroupchanges *c)
{
	json_t *doc = cgroupchanges_head_json(c), *items = json_array();

	for (size_t i = 0; i < c->nitems; i++)
		json_array_append_new(items, cgroupchanges_item_json(&c->items[i]));
	json_object_set_new(doc, "items", items);
	return doc;
}

static int summary_from_json(const json_t *doc, struct cgroupchanges *c, struct err *e)
{
	json_t *sum = NULL;

	if (jsonio_get_obj(doc, "CgroupChanges", "summary", &sum, e) < 0)
		return -1;
	for (int r = 0; sum && r < CGROUPCHANGES_NRESULTS; r++)
		if (jsonio_get_int(sum, "CgroupChanges.summary", result_names[r], 0, INT64_MAX,
				   &c->summary[r], e) < 0)
			return -1;
	return 0;
}

static int cache_from_json(const json_t *doc, struct cgroupchanges *c, struct err *e)
{
	static const char ctx[] = "CgroupChanges.cache";
	json_t *cache = NULL;
	const char *file = NULL;

	if (jsonio_get_obj(doc, "CgroupChanges", "cache", &cache, e) < 0)
		return -1;
	if (!cache)
		return 0;
	c->has_cache = 1;
	if (jsonio_get_str(cache, ctx, "file", &file, e) < 0 ||
	    jsonio_get_int(cache, ctx, "items", 0, INT64_MAX, &c->cache.items, e) < 0 ||
	    jsonio_get_int(cache, ctx, "hits", 0, INT64_MAX, &c->cache.hits, e) < 0 ||
	    jsonio_get_bool(cache, ctx, "saved", &c->cache.saved, e) < 0)
		return -1;
	c->cache.file = file ? xstrdup(file) : NULL;
	return 0;
}

static int item_from_json(const json_t *v, const char *ctx, void *item, struct err *e)
{
	struct cgroupchanges_item *it = item;
	const char **strs[] = { &it->path, &it->controller, &it->file, &it->old, &it->new,
				NULL,      &it->reason,     &it->error };
	int64_t *ids = NULL;
	size_t n = 0;
	int result = -1;

	if (!json_is_object(v))
		return jsonio_bad_value(e, ctx, NULL, "an object", v);
	for (size_t k = 0; k < ITEM_MEMBERS; k++)
		if (strs[k] && jsonio_get_str(v, ctx, item_keys[k], strs[k], e) < 0)
			return -1;
	if (!it->path || it->path[0] != '/')
		return jsonio_bad_value(e, ctx, "path", "a cgroup path",
					json_object_get(v, "path"));
	if (!it->controller || !*it->controller)
		return jsonio_bad_value(e, ctx, "controller", "a controller name",
					json_object_get(v, "controller"));
	if (docmeta_get_name(v, ctx, "result", result_names, CGROUPCHANGES_NRESULTS, 1, &result,
			     e) < 0 ||
	    docmeta_ids_from_json(v, ctx, "foreign", &ids, &n, e) < 0)
		return -1;
	it->result = (enum cgroupchanges_result)result;
	if (n) {
		pid_t *foreign = xcalloc(n, sizeof(*foreign));

		for (size_t k = 0; k < n; k++)
			foreign[k] = (pid_t)ids[k];
		it->foreign = foreign;
		it->nforeign = n;
	}
	free(ids);
	return 0;
}

int cgroupchanges_from_json(const json_t *doc, struct cgroupchanges *out, struct err *e)
{
	memset(out, 0, sizeof(*out));
	out->doc = json_incref((json_t *)doc);
	if (jsonio_get_bool(doc, "CgroupChanges", "dryRun", &out->dry_run, e) < 0 ||
	    docmeta_from_json(doc, "CgroupChanges", &out->node, &out->timestamp_ms, e) < 0 ||
	    summary_from_json(doc, out, e) < 0 || cache_from_json(doc, out, e) < 0 ||
	    docmeta_items_from_json(doc, "CgroupChanges", "items", sizeof(*out->items),
				    (void **)&out->items, &out->nitems, item_from_json, e) < 0) {
		cgroupchanges_release(out);
		return -1;
	}
	return 0;
}

void cgroupchanges_release(struct cgroupchanges *c)
{
	free(c->node);
	free(c->cache.file);
	for (size_t i = 0; i < c->nitems; i++)
		free((pid_t *)c->items[i].foreign);
	free(c->items);
	json_decref(c->doc);
	memset(c, 0, sizeof(*c));
}
