// SPDX-License-Identifier: Apache-2.0
/* docmeta - a kilo document's metadata (see docmeta.h) */
#include "doc/docmeta.h"

#include <stdio.h>

#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"

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
