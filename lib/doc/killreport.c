// SPDX-License-Identifier: Apache-2.0
/* killreport - the KillReport document (see killreport.h) */
#include "doc/killreport.h"

#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
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
		json_t *sigs = json_array();

		for (unsigned k = 0; k < 2; k++)
			if (it->signalled & (1u << k))
				json_array_append_new(sigs, json_string(signal_names[k]));
		json_array_append_new(
			arr,
			json_pack("{s:s, s:s, s:I, s:o, s:o, s:I, s:o}", "id", it->id, "result",
				  killreport_result_name(it->result), "processes",
				  (json_int_t)it->processes, "signalled", sigs, "foreign",
				  docmeta_ids_json(it->foreign, it->nforeign), "elapsedMs",
				  (json_int_t)it->elapsed_ms, "error", jsonio_string(it->error)));
	}
	json_object_set_new(doc, "items", arr);
	return doc;
}

/* signalled: SIGTERM, then SIGKILL, each at most once. */
static int signalled_from_json(const json_t *obj, const char *ctx, unsigned *out, struct err *e)
{
	json_t *arr = NULL, *v;
	size_t i;
	char at[96];

	if (jsonio_get_arr(obj, ctx, "signalled", &arr, e) < 0)
		return -1;
	json_array_foreach(arr, i, v)
	{
		const char *s = json_string_value(v);
		int k = s && strcmp(s, "SIGTERM") == 0   ? 0
			: s && strcmp(s, "SIGKILL") == 0 ? 1
							 : -1;

		snprintf(at, sizeof(at), "%s.signalled[%zu]", ctx, i);
		if (k < 0 || (*out >> k) != 0)
			return jsonio_bad_value(e, at, NULL, "SIGTERM, then SIGKILL, each once", v);
		*out |= 1u << k;
	}
	return 0;
}

static int item_from_json(const json_t *v, const char *ctx, void *item, struct err *e)
{
	struct killreport_item *it = item;
	const char *id = NULL, *error = NULL;
	int r = -1;

	if (docmeta_get_container_id(v, ctx, &id, e) < 0)
		return -1;
	it->id = xstrdup(id);
	if (docmeta_get_name(v, ctx, "result", result_names, 4, 1, &r, e) < 0)
		return -1;
	it->result = (enum killreport_result)r;
	if (jsonio_get_int(v, ctx, "processes", 0, INT64_MAX, &it->processes, e) < 0 ||
	    signalled_from_json(v, ctx, &it->signalled, e) < 0 ||
	    docmeta_ids_from_json(v, ctx, "foreign", &it->foreign, &it->nforeign, e) < 0 ||
	    jsonio_get_int(v, ctx, "elapsedMs", 0, INT64_MAX, &it->elapsed_ms, e) < 0 ||
	    jsonio_get_str(v, ctx, "error", &error, e) < 0)
		return -1;
	if (docmeta_check_error(v, ctx, "item", it->result == KILLREPORT_FAILED, error, e) < 0)
		return -1;
	it->error = error ? xstrdup(error) : NULL;
	return 0;
}

int killreport_from_json(const json_t *doc, struct killreport *out, struct err *e)
{
	memset(out, 0, sizeof(*out));
	if (docmeta_from_json(doc, "KillReport", &out->node, &out->timestamp_ms, e) < 0 ||
	    docmeta_items_from_json(doc, "KillReport", "items", sizeof(*out->items),
				    (void **)&out->items, &out->nitems, item_from_json, e) < 0) {
		killreport_release(out);
		return -1;
	}
	return 0;
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
