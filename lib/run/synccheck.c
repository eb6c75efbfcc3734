// SPDX-License-Identifier: Apache-2.0
/* synccheck - a SyncPlan read and checked before anything is sent (see syncrun.h) */
#include "run/syncitem.h"

#include <stdio.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "run/synclife.h"

const char *sync_item_str(const json_t *item, const char *key)
{
	return json_string_value(json_object_get(item, key));
}

void sync_redact(json_t *doc)
{
	static const char *const free_text[] = { "reason", "error", NULL };

	jsonio_redact_keys(doc, free_text);
}

int sync_one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

int sync_plan_read(const json_t *doc, const struct sync_config *sc, int per_item,
		   struct syncplan *out, struct err *e)
{
	return syncplan_from_json(doc, sc, sync_lifecycle_check, per_item, out, e);
}
