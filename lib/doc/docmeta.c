// SPDX-License-Identifier: Apache-2.0
/* docmeta - a kilo document's metadata (see docmeta.h) */
#include "doc/docmeta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/containerid.h"

int docmeta_from_json(const json_t *doc, const char *kind, char **node, int64_t *timestamp_ms,
		      struct err *e)
{
	json_t *meta = NULL;
	const char *name = NULL, *ts = NULL;
	char ctx[64];

	*node = NULL;
	*timestamp_ms = -1;
	snprintf(ctx, sizeof(ctx), "%s.metadata", kind);
	if (jsonio_get_obj(doc, kind, "metadata", &meta, e) < 0)
		return -1;
	if (!meta)
		return 0;
	if (jsonio_get_str(meta, ctx, "node", &name, e) < 0 ||
	    jsonio_get_str(meta, ctx, "timestamp", &ts, e) < 0)
		return -1;
	if (ts && clock_parse_rfc3339(ts, timestamp_ms) < 0)
		return jsonio_bad_value(e, ctx, "timestamp", "an RFC 3339 time",
					json_object_get(meta, "timestamp"));
	*node = name ? xstrdup(name) : NULL;
	return 0;
}

static int id_from_json(const json_t *v, const char *ctx, void *item, struct err *e)
{
	if (!json_is_integer(v) || json_integer_value(v) <= 0 || json_integer_value(v) > INT32_MAX)
		return jsonio_bad_value(e, ctx, NULL, "a process id", v);
	*(int64_t *)item = json_integer_value(v);
	return 0;
}

int docmeta_ids_from_json(const json_t *obj, const char *ctx, const char *key, int64_t **ids,
			  size_t *n, struct err *e)
{
	if (docmeta_items_from_json(obj, ctx, key, sizeof(**ids), (void **)ids, n, id_from_json,
				    e) == 0)
		return 0;
	free(*ids);
	*ids = NULL;
	*n = 0;
	return -1;
}

json_t *docmeta_ids_json(const int64_t *ids, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(ids[i]));
	return arr;
}

static int string_from_json(const json_t *v, const char *ctx, void *item, struct err *e)
{
	if (!json_is_string(v))
		return jsonio_bad_value(e, ctx, NULL, "a string", v);
	*(char **)item = xstrdup(json_string_value(v));
	return 0;
}

int docmeta_strings_from_json(const json_t *obj, const char *ctx, const char *key, char ***strs,
			      size_t *n, struct err *e)
{
	if (docmeta_items_from_json(obj, ctx, key, sizeof(**strs), (void **)strs, n,
				    string_from_json, e) == 0)
		return 0;
	docmeta_strings_free(*strs, *n);
	*strs = NULL;
	*n = 0;
	return -1;
}

void docmeta_strings_free(char **strs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(strs[i]);
	free(strs);
}

int docmeta_get_name(const json_t *obj, const char *ctx, const char *key, const char *const *names,
		     int n, int required, int *index, struct err *e)
{
	const char *s = NULL;
	char what[160];
	size_t len;

	if (jsonio_get_str(obj, ctx, key, &s, e) < 0)
		return -1;
	if (!s && !required)
		return 0;
	for (int i = 0; s && i < n; i++)
		if (strcmp(s, names[i]) == 0) {
			*index = i;
			return 0;
		}
	len = (size_t)snprintf(what, sizeof(what), "one of");
	for (int i = 0; i < n && len < sizeof(what); i++)
		len += (size_t)snprintf(what + len, sizeof(what) - len, "%s %s", i ? "," : "",
					names[i]);
	return jsonio_bad_value(e, ctx, key, what, json_object_get(obj, key));
}

int docmeta_get_figure(const json_t *obj, const char *ctx, const char *key, int required,
		       int64_t *out, struct err *e)
{
	int r;

	*out = -1;
	r = jsonio_get_int(obj, ctx, key, 0, DOCMETA_FIGURE_MAX, out, e);
	if (r == 0 && required)
		return jsonio_bad_value(e, ctx, key, "an integer 0..9007199254740992", NULL);
	return r < 0 ? -1 : 0;
}

int docmeta_items_from_json(
	const json_t *obj, const char *ctx, const char *key, size_t size, void **items, size_t *n,
	int (*read)(const json_t *v, const char *ctx, void *item, struct err *e), struct err *e)
{
	json_t *arr = NULL, *v;
	size_t i;
	char at[128];

	*items = NULL;
	*n = 0;
	if (jsonio_get_arr(obj, ctx, key, &arr, e) < 0)
		return -1;
	if (json_array_size(arr))
		*items = xcalloc(json_array_size(arr), size);
	json_array_foreach(arr, i, v)
	{
		snprintf(at, sizeof(at), "%s.%s[%zu]", ctx, key, i);
		(*n)++;
		if (read(v, at, (char *)*items + i * size, e) < 0)
			return -1;
	}
	return 0;
}

int docmeta_check_error(const json_t *obj, const char *ctx, const char *what, int failed,
			const char *error, struct err *e)
{
	char want[96];

	if (!error == !failed)
		return 0;
	if (failed)
		snprintf(want, sizeof(want), "a string (the %s failed)", what);
	else
		snprintf(want, sizeof(want), "null (the %s did not fail)", what);
	return jsonio_bad_value(e, ctx, "error", want, json_object_get(obj, "error"));
}

int docmeta_get_container_id(const json_t *v, const char *ctx, const char **id, struct err *e)
{
	*id = NULL;
	if (!json_is_object(v))
		return jsonio_bad_value(e, ctx, NULL, "an object", v);
	if (jsonio_get_str(v, ctx, "id", id, e) < 0)
		return -1;
	if (!*id || !containerid_valid(*id))
		return jsonio_bad_value(e, ctx, "id", "a YARN container id",
					json_object_get(v, "id"));
	return 0;
}
