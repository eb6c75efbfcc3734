// SPDX-License-Identifier: Apache-2.0
/* killreport - the KillReport document (see killreport.h) */
#include "doc/killreport.h"

#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "doc/docmeta.h"

static const char *const result_names[] = { "terminated", "killed", "gone", "failed" };
static const char *const signal_names[] = { "SIGTERM", "SIGKILL" };

const char *killreport_result_name(enum killreport_result r)
{
	return result_names[r];
}

json_t *killreport_to_json(const struct killreport *r)
{
	json_t *doc = jsonio_new_doc("KillReport");
	json_t *arr = json_array();

	json_object_set_new(doc, "metadata", jsonio_metadata(r->node, r->timestamp_ms));
	for (size_t i = 0; i < r->nitems; i++) {
		const struct killreport_item *it = &r->items[i];
		json_t *sigs = json_array(), *foreign = json_array();

		for (unsigned k = 0; k < 2; k++)
			if (it->signalled & (1u << k))
				json_array_append_new(sigs, json_string(signal_names[k]));
		for (size_t k = 0; k < it->nforeign; k++)
			json_array_append_new(foreign, json_integer(it->foreign[k]));
		json_array_append_new(
			arr, json_pack("{s:s, s:s, s:I, s:o, s:o, s:I, s:o}", "id", it->id,
				       "result", killreport_result_name(it->result), "processes",
				       (json_int_t)it->processes, "signalled", sigs, "foreign",
				       foreign, "elapsedMs", (json_int_t)it->elapsed_ms, "error",
				       jsonio_string(it->error)));
	}
	json_object_set_new(doc, "items", arr);
	return doc;
}

/* The index of s in names[0..n), or -1. */
static int name_index(const char *s, const char *const *names, int n)
{
	for (int i = 0; s && i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static int signalled_from_json(const json_t *arr, const char *ctx, unsigned *out, struct err *e)
{
	json_t *v;
	size_t i;
	char at[96];

	json_array_foreach(arr, i, v)
	{
		int k = name_index(json_string_value(v), signal_names, 2);

		snprintf(at, sizeof(at), "%s.signalled[%zu]", ctx, i);
		if (k < 0 || (*out & (1u << k)) || *out >> k > 1)
			return jsonio_bad_value(e, at, NULL, "SIGTERM, then SIGKILL, each once", v);
		*out |= 1u << k;
	}
	return 0;
}

static int foreign_from_json(const json_t *arr, const char *ctx, struct killreport_item *it,
			     struct err *e)
{
	json_t *v;
	size_t i;
	char at[96];

	it->foreign = json_array_size(arr) ? xcalloc(json_array_size(arr), sizeof(int64_t)) : NULL;
	json_array_foreach(arr, i, v)
	{
		snprintf(at, sizeof(at), "%s.foreign[%zu]", ctx, i);
		if (!json_is_integer(v) || json_integer_value(v) <= 0 ||
		    json_integer_value(v) > INT32_MAX)
			return jsonio_bad_value(e, at, NULL, "a process id", v);
		it->foreign[it->nforeign++] = json_integer_value(v);
	}
	return 0;
}

static int item_from_json(const json_t *v, const char *ctx, struct killreport_item *it,
			  struct err *e)
{
	const char *id = NULL, *result = NULL, *error = NULL;
	json_t *sigs = NULL, *foreign = NULL;
	int r;

	if (!json_is_object(v))
		return jsonio_bad_value(e, ctx, NULL, "an object", v);
	if (jsonio_get_str(v, ctx, "id", &id, e) < 0)
		return -1;
	if (!id || !containerid_valid(id))
		return jsonio_bad_value(e, ctx, "id", "a YARN container id",
					json_object_get(v, "id"));
	it->id = xstrdup(id);
	if (jsonio_get_str(v, ctx, "result", &result, e) < 0)
		return -1;
	if ((r = name_index(result, result_names, 4)) < 0)
		return jsonio_bad_value(e, ctx, "result", "one of terminated, killed, gone, failed",
					json_object_get(v, "result"));
	it->result = (enum killreport_result)r;
	if (jsonio_get_int(v, ctx, "processes", 0, INT64_MAX, &it->processes, e) < 0 ||
	    jsonio_get_arr(v, ctx, "signalled", &sigs, e) < 0 ||
	    signalled_from_json(sigs, ctx, &it->signalled, e) < 0 ||
	    jsonio_get_arr(v, ctx, "foreign", &foreign, e) < 0 ||
	    foreign_from_json(foreign, ctx, it, e) < 0 ||
	    jsonio_get_int(v, ctx, "elapsedMs", 0, INT64_MAX, &it->elapsed_ms, e) < 0 ||
	    jsonio_get_str(v, ctx, "error", &error, e) < 0)
		return -1;
	if (!error != (it->result != KILLREPORT_FAILED))
		return jsonio_bad_value(e, ctx, "error",
					it->result == KILLREPORT_FAILED
						? "a string (the item failed)"
						: "null (the item did not fail)",
					json_object_get(v, "error"));
	it->error = error ? xstrdup(error) : NULL;
	return 0;
}

int killreport_from_json(const json_t *doc, struct killreport *out, struct err *e)
{
	json_t *list = NULL, *v;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (docmeta_from_json(doc, "KillReport", &out->node, &out->timestamp_ms, e) < 0 ||
	    jsonio_get_arr(doc, "KillReport", "items", &list, e) < 0)
		goto fail;
	if (json_array_size(list))
		out->items = xcalloc(json_array_size(list), sizeof(*out->items));
	json_array_foreach(list, i, v)
	{
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "KillReport.items[%zu]", i);
		out->nitems++;
		if (item_from_json(v, ctx, &out->items[i], e) < 0)
			goto fail;
	}
	return 0;
fail:
	killreport_release(out);
	return -1;
}

void killreport_release(struct killreport *r)
{
	free(r->node);
	for (size_t i = 0; i < r->nitems; i++) {
		free(r->items[i].id);
		free(r->items[i].foreign);
		free(r->items[i].error);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}
