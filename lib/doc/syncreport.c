// SPDX-License-Identifier: Apache-2.0
/* syncreport - the SyncReport document (see syncreport.h) */
#include "doc/syncreport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/docmeta.h"

static const char *const results[] = { "updated", "annotated", "recorded", "unchanged",
				       "skipped", "planned",   "failed" };
#define NRESULTS ((int)(sizeof(results) / sizeof(results[0])))

const char *syncreport_result_name(enum syncreport_result r)
{
	return r > SYNCREPORT_NOT_RUN && (int)r <= NRESULTS ? results[r - 1] : NULL;
}

/* The object of part p of it: the item's doc, or its annotation or
 * lifecycle object; NULL when it has none. */
static json_t *part_doc(const struct syncreport_item *it, enum syncreport_part p)
{
	json_t *d = it->plan.doc;

	if (p == SYNCREPORT_ITEM)
		return d;
	d = json_object_get(d, p == SYNCREPORT_ANNOTATION ? "annotation" : "lifecycle");
	return json_is_object(d) ? d : NULL;
}

/* ---- building ---- */

void syncreport_init(struct syncreport *r, const struct syncplan *p, int dry_run)
{
	*r = (struct syncreport){ .dry_run = dry_run,
				  .metadata = json_incref(p->metadata),
				  .clusters = json_incref(p->clusters),
				  .cap = p->n };
	r->items = p->n ? xmalloc(p->n * sizeof(*r->items)) : NULL;
	syncplan_clusters_view(r->clusters, &r->cl, &r->ncl);
}

/* A new zeroed item of r. */
static struct syncreport_item *append(struct syncreport *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->items = xrealloc(r->items, r->cap * sizeof(*r->items));
	}
	r->items[r->n] = (struct syncreport_item){ 0 };
	return &r->items[r->n++];
}

/* Remove what a pass writes from a copied plan item's doc and parts. */
static void forget_results(json_t *out)
{
	static const char *const keys[] = { "result", "error",    "errorCode",
					    "via",    "recorded", "decommissionResult" };
	json_t *ann = json_object_get(out, "annotation"), *lc = json_object_get(out, "lifecycle");

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_object_del(out, keys[k]);
		if (json_is_object(ann))
			json_object_del(ann, keys[k]);
		if (json_is_object(lc))
			json_object_del(lc, keys[k]);
	}
}

struct syncreport_item *syncreport_add(struct syncreport *r, const struct syncplan_item *src)
{
	struct syncreport_item *it = append(r);

	it->plan = *src;
	it->plan.doc = json_deep_copy(src->doc);
	it->plan.invalid = NULL;
	forget_results(it->plan.doc);
	syncplan_item_bind(&it->plan);
	return it;
}

void syncreport_of_plan(struct syncreport *r, const struct syncplan *p)
{
	syncreport_init(r, p, 0);
	for (size_t i = 0; i < p->n; i++) {
		struct syncreport_item *it = append(r);

		it->plan = p->items[i];
		json_incref(it->plan.doc);
		it->plan.invalid = NULL;
	}
}

void syncreport_set_result(struct syncreport_item *it, enum syncreport_part part,
			   enum syncreport_result res)
{
	json_t *d = part_doc(it, part);

	if (!d)
		return;
	it->part[part].result = res;
	json_object_set_new(d, "result", json_string(syncreport_result_name(res)));
}

void syncreport_set_failed(struct syncreport_item *it, enum syncreport_part part, const char *error,
			   enum sync_reason code)
{
	json_t *d = part_doc(it, part);

	if (!d)
		return;
	syncreport_set_result(it, part, SYNCREPORT_FAILED);
	json_object_set_new(d, "error", jsonio_string(error));
	json_object_set_new(d, "errorCode", json_string(sync_reason_code(code)));
	it->part[part].error = json_string_value(json_object_get(d, "error"));
	it->part[part].error_code = code;
}

void syncreport_set_member(struct syncreport_item *it, enum syncreport_part part, const char *key,
			   json_t *value)
{
	json_t *d = part_doc(it, part);

	if (!d)
		json_decref(value);
	else if (!value)
		json_object_del(d, key);
	else
		json_object_set_new(d, key, value);
	syncplan_item_bind(&it->plan);
}

void syncreport_set_recorded(struct syncreport_item *it, int recorded)
{
	if (!part_doc(it, SYNCREPORT_LIFECYCLE))
		return;
	it->recorded = recorded;
	syncreport_set_member(it, SYNCREPORT_LIFECYCLE, "recorded", recorded ? json_true() : NULL);
}

void syncreport_finish(struct syncreport *r)
{
	for (size_t i = 0; i < r->n; i++)
		for (int p = 0; p < SYNCREPORT_PARTS; p++) {
			json_t *d = part_doc(&r->items[i], (enum syncreport_part)p);

			if (d && !json_object_get(d, "error"))
				json_object_set_new(d, "error", json_null());
		}
}

void syncreport_bind(struct syncreport *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct syncreport_item *it = &r->items[i];

		syncplan_item_bind(&it->plan);
		for (int p = 0; p < SYNCREPORT_PARTS; p++)
			it->part[p].error = json_string_value(
				json_object_get(part_doc(it, (enum syncreport_part)p), "error"));
	}
}

/* ---- reading ---- */

/* The outcome members of part object d, by name (no check). */
static void view_outcome(const json_t *d, struct syncreport_outcome *o)
{
	const char *res = json_string_value(json_object_get(d, "result"));

	*o = (struct syncreport_outcome){ .error_code = sync_reason_parse(json_string_value(
						  json_object_get(d, "errorCode"))),
					  .error = json_string_value(json_object_get(d, "error")) };
	for (int k = 0; res && k < NRESULTS; k++)
		if (strcmp(res, results[k]) == 0)
			o->result = (enum syncreport_result)(k + 1);
}

void syncreport_item_view(const json_t *v, struct syncreport_item *it)
{
	*it = (struct syncreport_item){ 0 };
	it->plan.doc = json_is_object(v) ? json_incref((json_t *)v) : json_object();
	syncplan_item_view(&it->plan);
	for (int p = 0; p < SYNCREPORT_PARTS; p++)
		view_outcome(part_doc(it, (enum syncreport_part)p), &it->part[p]);
	it->recorded =
		json_is_true(json_object_get(part_doc(it, SYNCREPORT_LIFECYCLE), "recorded"));
}

/* The outcome of part object d (ctx names it): a result (unless
 * !required), an errorCode of the list when present, an error exactly
 * when failed.  0, or -1 with e set. */
static int read_outcome(const json_t *d, const char *ctx, int required,
			struct syncreport_outcome *o, struct err *e)
{
	const json_t *code = json_object_get(d, "errorCode");
	int r = -1;

	if (docmeta_get_name(d, ctx, "result", results, NRESULTS, required, &r, e) < 0)
		return -1;
	o->result = (enum syncreport_result)(r + 1);
	o->error_code = sync_reason_parse(json_string_value(code));
	if (code && o->error_code == SYNC_R_NONE)
		return jsonio_bad_value(e, ctx, "errorCode", "a reason code of doc/SCHEMAS.md",
					code);
	if (jsonio_get_str(d, ctx, "error", &o->error, e) < 0)
		return -1;
	return docmeta_check_error(d, ctx, "part", o->result == SYNCREPORT_FAILED, o->error, e);
}

/* Item v (ctx "SyncReport.items[3]") into it: 0, or -1 with e set. */
static int read_item(const json_t *v, const char *ctx, const struct sync_config *sc,
		     struct syncreport_item *it, struct err *e)
{
	static const char *const names[] = { NULL, "annotation", "lifecycle" };
	int invalid;

	syncreport_item_view(v, it);
	if (!json_is_object(v))
		return jsonio_bad_value(e, "SyncReport", "items[]", "an object", v);
	invalid = it->part[SYNCREPORT_ITEM].result == SYNCREPORT_FAILED &&
		  it->part[SYNCREPORT_ITEM].error_code == SYNC_R_INVALID_PLAN_ITEM;
	if (!invalid) {
		struct syncplan_item p;

		if (syncplan_item_from_json(v, ctx, sc, NULL, &p, e) < 0) {
			json_decref(p.doc);
			return -1;
		}
		json_decref(it->plan.doc);
		it->plan = p;
	}
	for (int k = 0; k < SYNCREPORT_PARTS; k++) {
		const json_t *d = part_doc(it, (enum syncreport_part)k);
		char sub[80];

		snprintf(sub, sizeof(sub), "%s%s%s", ctx, k ? "." : "", k ? names[k] : "");
		if (d &&
		    read_outcome(d, sub, k == SYNCREPORT_ITEM || !invalid, &it->part[k], e) < 0)
			return -1;
	}
	return 0;
}

int syncreport_from_json(const json_t *doc, const struct sync_config *sc, struct syncreport *out,
			 struct err *e)
{
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	json_t *items = NULL, *v;
	size_t i;

	*out = (struct syncreport){ 0 };
	if (!kind || strcmp(kind, "SyncReport") != 0)
		return err_set(e, ERR_INPUT, 0, "expected a SyncReport, got kind '%s'",
			       kind ? kind : "(none)");
	if (jsonio_get_bool(doc, "SyncReport", "dryRun", &out->dry_run, e) <= 0 ||
	    jsonio_get_arr(doc, "SyncReport", "items", &items, e) < 0)
		return e->kind != ERR_NONE
			       ? -1
			       : jsonio_bad_value(e, "SyncReport", "dryRun", "a boolean", NULL);
	if (!items)
		return jsonio_bad_value(e, "SyncReport", "items", "an array", NULL);
	out->metadata = json_incref(json_object_get(doc, "metadata"));
	if (json_is_array(json_object_get(doc, "clusters")))
		out->clusters = json_incref(json_object_get(doc, "clusters"));
	syncplan_clusters_view(out->clusters, &out->cl, &out->ncl);
	json_array_foreach(items, i, v)
	{
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "SyncReport.items[%zu]", i);
		if (read_item(v, ctx, sc, append(out), e) < 0) {
			syncreport_release(out);
			return -1;
		}
	}
	return 0;
}

/* ---- writing ---- */

json_t *syncreport_to_json(const struct syncreport *r)
{
	json_t *doc = jsonio_new_doc("SyncReport"), *items = json_array();

	json_object_set_new(doc, "dryRun", json_boolean(r->dry_run));
	if (r->metadata)
		json_object_set(doc, "metadata", r->metadata);
	if (r->clusters)
		json_object_set(doc, "clusters", r->clusters);
	for (size_t i = 0; i < r->n; i++)
		json_array_append(items, r->items[i].plan.doc);
	json_object_set_new(doc, "items", items);
	return doc;
}

void syncreport_release(struct syncreport *r)
{
	while (r->n > 0)
		json_decref(r->items[--r->n].plan.doc);
	free(r->items);
	free(r->cl);
	json_decref(r->metadata);
	json_decref(r->clusters);
	*r = (struct syncreport){ 0 };
}
