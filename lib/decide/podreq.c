// SPDX-License-Identifier: Apache-2.0
/* podreq - effective Pod requests (see podreq.h) */
#include "decide/podreq.h"

#include <stdio.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/num.h"
#include "core/quantity.h"

/* 0 when v is absent (NULL or JSON null) or of type t, else -1 with e set
 * naming ctx.field: a wrong shape is an error, never "no request". */
static int shape(const json_t *v, json_type t, const char *ctx, const char *field, const char *what,
		 struct err *e)
{
	if (!v || json_is_null(v) || json_typeof(v) == t)
		return 0;
	return jsonio_bad_value(e, ctx, field, what, v);
}

/* The request of one container for resource res: requests[res], else
 * limits[res] (a limit alone is the request of an extended resource). */
static int container_request(const json_t *c, const char *ctx, const char *res, int64_t *out,
			     struct err *e)
{
	const json_t *r = json_object_get(c, "resources");
	const json_t *req = json_object_get(r, "requests");
	char sub[400];

	*out = 0;
	if (!json_is_object(c))
		return jsonio_bad_value(e, ctx, NULL, "a container object", c);
	if (shape(r, JSON_OBJECT, ctx, "resources", "an object", e) < 0 ||
	    shape(req, JSON_OBJECT, ctx, "resources.requests", "an object", e) < 0 ||
	    shape(json_object_get(r, "limits"), JSON_OBJECT, ctx, "resources.limits", "an object",
		  e) < 0)
		return -1;

	snprintf(sub, sizeof(sub), "%s.resources.requests", ctx);
	if (json_object_get(req, res))
		return quantity_get_value(req, sub, res, 1, out, e);
	snprintf(sub, sizeof(sub), "%s.resources.limits", ctx);
	return quantity_get_value(json_object_get(r, "limits"), sub, res, 1, out, e);
}

/* Effective pod request (kubernetes resourcehelper.PodRequests): max(sum
 * of containers + restartable init containers, each regular init
 * container + the restartable ones started before it) + overhead. */
static int negative(const char *ctx, const char *res, struct err *e)
{
	err_set(e, ERR_INPUT, 0, "%s: %s is negative", ctx, res);
	return PODREQ_OVERFLOW;
}

static int overflow(const char *who, const char *where, const char *res, struct err *e)
{
	err_set(e, ERR_INPUT, 0, "Pod %s.spec.%s: the sum of %s overflows", who, where, res);
	return PODREQ_OVERFLOW;
}

int podreq_effective(const json_t *pod, const char *who, const char *res, int64_t *out,
		     struct err *e)
{
	const json_t *spec = json_object_get(pod, "spec");
	int64_t sum = 0, sidecars = 0, init_max = 0, v, w;
	char ctx[400];
	json_t *c;
	size_t i;

	snprintf(ctx, sizeof(ctx), "Pod %s", who);
	if (!json_is_object(spec))
		return jsonio_bad_value(e, ctx, "spec", "an object", spec);
	snprintf(ctx, sizeof(ctx), "Pod %s.spec", who);
	if (shape(json_object_get(spec, "containers"), JSON_ARRAY, ctx, "containers", "an array",
		  e) < 0 ||
	    shape(json_object_get(spec, "initContainers"), JSON_ARRAY, ctx, "initContainers",
		  "an array", e) < 0 ||
	    shape(json_object_get(spec, "overhead"), JSON_OBJECT, ctx, "overhead", "an object", e) <
		    0)
		return -1;
	json_array_foreach(json_object_get(spec, "containers"), i, c)
	{
		snprintf(ctx, sizeof(ctx), "Pod %s.spec.containers[%zu]", who, i);
		if (container_request(c, ctx, res, &v, e) < 0)
			return -1;
		if (v < 0)
			return negative(ctx, res, e);
		if (num_add(sum, v, &sum) < 0)
			return overflow(who, "containers", res, e);
	}
	json_array_foreach(json_object_get(spec, "initContainers"), i, c)
	{
		const char *restart = json_string_value(json_object_get(c, "restartPolicy"));

		snprintf(ctx, sizeof(ctx), "Pod %s.spec.initContainers[%zu]", who, i);
		if (container_request(c, ctx, res, &v, e) < 0)
			return -1;
		if (v < 0)
			return negative(ctx, res, e);
		if (restart && strcmp(restart, "Always") == 0) {
			if (num_add(sidecars, v, &sidecars) < 0)
				return overflow(who, "initContainers", res, e);
		} else {
			if (num_add(v, sidecars, &w) < 0)
				return overflow(who, "initContainers", res, e);
			if (w > init_max)
				init_max = w;
		}
	}
	if (num_add(sum, sidecars, &sum) < 0)
		return overflow(who, "initContainers", res, e);
	snprintf(ctx, sizeof(ctx), "Pod %s.spec", who);
	if (quantity_get_value(json_object_get(spec, "overhead"), ctx, res, 1, &v, e) < 0)
		return -1;
	if (v < 0) {
		snprintf(ctx, sizeof(ctx), "Pod %s.spec.overhead", who);
		return negative(ctx, res, e);
	}
	if (num_add(sum > init_max ? sum : init_max, v, out) < 0)
		return overflow(who, "overhead", res, e);
	return 0;
}
