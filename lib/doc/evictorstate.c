// SPDX-License-Identifier: Apache-2.0
/* evictorstate - the evictor's state document (see evictorstate.h) */
#include "doc/evictorstate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/containerid.h"
#include "doc/docmeta.h"

static int get_figure(const json_t *obj, const char *ctx, const char *key, int64_t *out,
		      struct err *e)
{
	return docmeta_get_figure(obj, ctx, key, 0, out, e);
}

static int get_required(const json_t *obj, const char *ctx, const char *key, int64_t *out,
			struct err *e)
{
	return docmeta_get_figure(obj, ctx, key, 1, out, e);
}

void evictorstate_init(struct evictorstate *st)
{
	memset(st, 0, sizeof(*st));
	st->last_memory_ms = st->last_cpu_ms = EVICTORSTATE_UNKNOWN;
}

void evictorstate_release(struct evictorstate *st)
{
	for (size_t i = 0; i < st->nvictims; i++)
		free(st->victims[i].id);
	free(st->victims);
	free(st->samples);
	evictorstate_init(st);
}

static int parse(const json_t *doc, struct evictorstate *st, struct err *e)
{
	json_t *victims = NULL, *last = NULL, *samples = NULL;
	const char *kind = NULL;
	char ctx[48];

	if (jsonio_get_str(doc, "", "kind", &kind, e) < 0)
		return -1;
	if (kind && strcmp(kind, "EvictorState") != 0)
		return jsonio_bad_value(e, "", "kind", "\"EvictorState\"",
					json_object_get(doc, "kind"));
	if (jsonio_get_arr(doc, "", "victims", &victims, e) < 0 ||
	    jsonio_get_obj(doc, "", "lastEviction", &last, e) < 0 ||
	    get_figure(last, "lastEviction", "memoryMs", &st->last_memory_ms, e) < 0 ||
	    get_figure(last, "lastEviction", "cpuMs", &st->last_cpu_ms, e) < 0 ||
	    jsonio_get_arr(doc, "", "cpuSamples", &samples, e) < 0)
		return -1;
	st->victims = xcalloc(json_array_size(victims) + 1, sizeof(*st->victims));
	for (size_t i = 0; i < json_array_size(victims); i++) {
		json_t *v = json_array_get(victims, i);
		struct evictorstate_victim *vi = &st->victims[st->nvictims];
		const char *id = NULL;

		snprintf(ctx, sizeof(ctx), "victims[%zu]", i);
		if (jsonio_get_str(v, ctx, "id", &id, e) < 0 ||
		    get_required(v, ctx, "atMs", &vi->at_ms, e) < 0)
			return -1;
		if (!id || !containerid_valid(id))
			return jsonio_bad_value(e, ctx, "id", "a YARN container id",
						json_object_get(v, "id"));
		vi->id = xstrdup(id);
		st->nvictims++;
	}
	st->samples = xcalloc(json_array_size(samples) + 1, sizeof(*st->samples));
	for (size_t i = 0; i < json_array_size(samples); i++) {
		json_t *v = json_array_get(samples, i);
		struct evictorstate_sample *s = &st->samples[i];

		snprintf(ctx, sizeof(ctx), "cpuSamples[%zu]", i);
		if (get_required(v, ctx, "atMs", &s->at_ms, e) < 0 ||
		    get_figure(v, ctx, "windowMs", &s->window_ms, e) < 0 ||
		    get_required(v, ctx, "usageCpuMilli", &s->usage_cpu_milli, e) < 0 ||
		    get_required(v, ctx, "limitCpuMilli", &s->limit_cpu_milli, e) < 0 ||
		    get_required(v, ctx, "requestCpuMilli", &s->request_cpu_milli, e) < 0)
			return -1;
		st->nsamples++;
	}
	return 0;
}

int evictorstate_from_json(const json_t *doc, struct evictorstate *st, struct err *e)
{
	evictorstate_init(st);
	if (parse(doc, st, e) < 0) {
		evictorstate_release(st);
		return -1;
	}
	return 0;
}

json_t *evictorstate_to_json(const struct evictorstate *st)
{
	json_t *doc = jsonio_new_doc("EvictorState");
	json_t *victims = json_array(), *samples = json_array();

	for (size_t i = 0; i < st->nvictims; i++)
		json_array_append_new(victims, json_pack("{s:s,s:I}", "id", st->victims[i].id,
							 "atMs", (json_int_t)st->victims[i].at_ms));
	json_object_set_new(doc, "victims", victims);
	json_object_set_new(
		doc, "lastEviction",
		json_pack("{s:o,s:o}", "memoryMs",
			  jsonio_int_or_null(st->last_memory_ms >= 0, st->last_memory_ms), "cpuMs",
			  jsonio_int_or_null(st->last_cpu_ms >= 0, st->last_cpu_ms)));
	for (size_t i = 0; i < st->nsamples; i++) {
		const struct evictorstate_sample *s = &st->samples[i];

		json_array_append_new(
			samples,
			json_pack("{s:I,s:o,s:I,s:I,s:I}", "atMs", (json_int_t)s->at_ms, "windowMs",
				  jsonio_int_or_null(s->window_ms >= 0, s->window_ms),
				  "usageCpuMilli", (json_int_t)s->usage_cpu_milli, "limitCpuMilli",
				  (json_int_t)s->limit_cpu_milli, "requestCpuMilli",
				  (json_int_t)s->request_cpu_milli));
	}
	json_object_set_new(doc, "cpuSamples", samples);
	return doc;
}
