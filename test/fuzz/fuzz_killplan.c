// SPDX-License-Identifier: Apache-2.0
/* fuzz_killplan - a KillPlan document into killplan_from_json, then the
 * KillReport of its items. */
#include "fuzz.h"
#include "kernel/killer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct killer_item *items = NULL;
	struct killplan kp;
	size_t n = 0;
	json_t *doc = fuzz_json(data, size);

	if (!doc)
		return 0;
	if (killplan_from_json(doc, &kp, &e) == 0) {
		killer_plan_items(&kp, &items, &n);
		killplan_release(&kp);
		for (size_t i = 0; i < n; i++)
			if (strchr(items[i].id, '/') || strstr(items[i].id, ".."))
				abort();
		json_decref(killer_report(items, n, "node", 0));
	} else {
		fuzz_check_err(&e);
	}
	killer_items_release(items, n);
	free(items);
	json_decref(doc);
	return 0;
}
