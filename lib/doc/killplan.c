// SPDX-License-Identifier: Apache-2.0
/* killplan - the KillPlan document (see killplan.h) */
#include "doc/killplan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/docmeta.h"

static json_t *percent(double v)
{
	return json_real(round(v * 100.0) / 100.0);
}

static json_t *figures_json(const struct killplan_cpu_figures *f)
{
	return json_pack("{s:I,s:I,s:I,s:I}", "usageCpuMilli", (json_int_t)f->usage_cpu_milli,
			 "limitCpuMilli", (json_int_t)f->limit_cpu_milli, "requestCpuMilli",
			 (json_int_t)f->request_cpu_milli, "needCpuMilli",
			 (json_int_t)f->need_cpu_milli);
}

static json_t *trigger_json(const struct killplan_trigger *t)
{
	json_t *doc;

	if (t->resource == KILLPLAN_MEMORY)
		return json_pack("{s:s,s:o,s:i,s:i,s:I,s:I,s:I,s:I,s:I}", "resource", "memory",
				 "usagePercent", percent(t->usage_percent), "thresholdPercent",
				 t->threshold_percent, "lowerPercent", t->lower_percent,
				 "needBytes", (json_int_t)t->need, "creditBytes",
				 (json_int_t)t->credit, "usageBytes", (json_int_t)t->usage_bytes,
				 "capacityBytes", (json_int_t)t->capacity_bytes,
				 "coolDownRemainingMs", (json_int_t)t->cool_down_remaining_ms);
	doc = json_pack("{s:s,s:o,s:i,s:o,s:i,s:i,s:I,s:I}", "resource", "cpu", "usagePercent",
			percent(t->usage_percent), "thresholdPercent", t->threshold_percent,
			"satisfactionPercent", percent(t->satisfaction_percent), "lowerPercent",
			t->lower_percent, "upperPercent", t->upper_percent, "needCpuMilli",
			(json_int_t)t->need, "creditCpuMilli", (json_int_t)t->credit);
	json_object_set_new(doc, "window", figures_json(&t->window));
	json_object_set_new(doc, "current", figures_json(&t->current));
	json_object_set_new(doc, "windowSeconds", json_integer(t->window_seconds));
	json_object_set_new(doc, "coverageMs", json_integer(t->coverage_ms));
	json_object_set_new(doc, "samples", json_integer(t->samples));
	json_object_set_new(doc, "requestFrom",
			    json_string(t->request_from_pods ? "yarn+pods" : "yarn"));
	json_object_set_new(doc, "coolDownRemainingMs", json_integer(t->cool_down_remaining_ms));
	return doc;
}

static json_t *item_json(const struct killplan_item *it)
{
	int memory = it->reason == KILLPLAN_MEMORY;
	json_t *keys;

	if (memory)
		keys = json_pack("{s:b,s:o,s:o}", "am", it->am, "memoryBytes",
				 jsonio_int_or_null(it->memory_bytes >= 0, it->memory_bytes),
				 "startedMs",
				 jsonio_int_or_null(it->started_ms >= 0, it->started_ms));
	else
		keys = json_pack("{s:b,s:o,s:I,s:o}", "am", it->am, "cpuMilli",
				 jsonio_int_or_null(it->cpu_milli >= 0, it->cpu_milli),
				 "requestCpuMilli", (json_int_t)it->request_cpu_milli, "startedMs",
				 jsonio_int_or_null(it->started_ms >= 0, it->started_ms));
	return json_pack("{s:s,s:s,s:{s:o,s:o,s:s},s:o}", "id", it->id, "reason",
			 memory ? "memory" : "cpu", "expectedRelease", "memoryBytes",
			 jsonio_int_or_null(memory, it->release), "cpuMilli",
			 jsonio_int_or_null(!memory, it->release), "from",
			 it->from_request ? "request" : "usage", "sortKeys", keys);
}

json_t *killplan_to_json(const struct killplan *kp)
{
	json_t *doc = jsonio_new_doc("KillPlan"), *items = json_array(), *skipped = json_array();
	json_t *notes = json_array();

	json_object_set_new(doc, "metadata", jsonio_metadata(kp->node, kp->timestamp_ms));
	json_object_set_new(doc, "gracePeriodMs", json_integer(kp->grace_period_ms));
	json_object_set_new(doc, "trigger",
			    kp->trigger.resource == KILLPLAN_NONE ? json_null()
								  : trigger_json(&kp->trigger));
	for (size_t i = 0; i < kp->nitems; i++)
		json_array_append_new(items, item_json(&kp->items[i]));
	for (size_t i = 0; i < kp->nskipped; i++)
		json_array_append_new(skipped, json_pack("{s:s,s:s}", "id", kp->skipped[i].id,
							 "reason", kp->skipped[i].reason));
	for (size_t i = 0; i < kp->nnotes; i++)
		json_array_append_new(notes, json_string(kp->notes[i]));
	json_object_set_new(doc, "items", items);
	json_object_set_new(doc, "skipped", skipped);
	json_object_set_new(doc, "pressureRemains", json_boolean(kp->pressure_remains));
	json_object_set_new(doc, "notes", notes);
	return doc;
}

struct id_at {
	const char *id;
	size_t at;
};

static int id_at_cmp(const void *a, const void *b)
{
	const struct id_at *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The index of the first item whose id repeats an earlier one, or n when
 * none does.  O(n log n): a plan may list thousands of items. */
static size_t first_repeat(const struct killplan_item *items, size_t n)
{
	cleanup_free struct id_at *s = n ? xcalloc(n, sizeof(*s)) : NULL;
	size_t first = n;

	for (size_t i = 0; i < n; i++)
		s[i] = (struct id_at){ items[i].id, i };
	if (n)
		qsort(s, n, sizeof(*s), id_at_cmp);
	for (size_t i = 1; i < n; i++)
		if (strcmp(s[i - 1].id, s[i].id) == 0 && s[i].at < first)
			first = s[i].at;
	return first;
}

static int item_from_json(const json_t *v, const char *ctx, void *item, struct err *e)
{
	struct killplan_item *it = item;
	const char *id = NULL;

	if (docmeta_get_container_id(v, ctx, &id, e) < 0)
		return -1;
	*it = (struct killplan_item){ .id = xstrdup(id),
				      .memory_bytes = KILLPLAN_UNKNOWN,
				      .cpu_milli = KILLPLAN_UNKNOWN,
				      .request_cpu_milli = KILLPLAN_UNKNOWN,
				      .started_ms = KILLPLAN_UNKNOWN,
				      .release = KILLPLAN_UNKNOWN };
	return 0;
}

int killplan_from_json(const json_t *doc, struct killplan *out, struct err *e)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->grace_period_ms = KILLPLAN_UNKNOWN;
	if (jsonio_get_int(doc, "KillPlan", "gracePeriodMs", 0, KILLPLAN_GRACE_MAX,
			   &out->grace_period_ms, e) < 0 ||
	    docmeta_items_from_json(doc, "KillPlan", "items", sizeof(*out->items),
				    (void **)&out->items, &out->nitems, item_from_json, e) < 0)
		goto fail;
	i = first_repeat(out->items, out->nitems);
	if (i < out->nitems) {
		err_set(e, ERR_INPUT, 0, "KillPlan.items[%zu].id: '%s' is listed twice", i,
			out->items[i].id);
		goto fail;
	}
	return 0;
fail:
	killplan_release(out);
	return -1;
}

void killplan_add_note(struct killplan *kp, const char *note)
{
	kp->notes = xrealloc(kp->notes, (kp->nnotes + 1) * sizeof(*kp->notes));
	kp->notes[kp->nnotes++] = xstrdup(note);
}

void killplan_release(struct killplan *kp)
{
	free(kp->node);
	for (size_t i = 0; i < kp->nitems; i++)
		free(kp->items[i].id);
	free(kp->items);
	for (size_t i = 0; i < kp->nskipped; i++) {
		free(kp->skipped[i].id);
		free(kp->skipped[i].reason);
	}
	free(kp->skipped);
	for (size_t i = 0; i < kp->nnotes; i++)
		free(kp->notes[i]);
	free(kp->notes);
	memset(kp, 0, sizeof(*kp));
}
