// SPDX-License-Identifier: Apache-2.0
/* fuzz_syncplan - a SyncPlan as `kilo-sync apply --dry-run` reads it:
 * sync_plan_check, then sync_apply with the default configuration and no
 * API client (dry run: nothing is sent).  A plan that passed the check
 * must give a report in which no item failed; a refused plan, applied per
 * item as a live pass does, must give a report (its bad items failed) as
 * long as it is a SyncPlan with an items array. */
#include "doc/syncconfig.h"
#include "fuzz.h"
#include "run/syncrun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sync_config sc;
	static int loaded;
	struct err e = { 0 };
	struct sync_stats st = { 0 };
	json_t *doc = fuzz_json(data, size), *report;

	if (!loaded) {
		if (sync_config_load(&sc, NULL, &e) < 0)
			abort();
		loaded = 1;
	}
	if (!doc)
		return 0;
	if (sync_plan_check(doc, &sc, &e) < 0) {
		int shape_ok =
			json_is_array(json_object_get(doc, "items")) &&
			json_is_string(json_object_get(doc, "kind")) &&
			strcmp(json_string_value(json_object_get(doc, "kind")), "SyncPlan") == 0;

		fuzz_check_err(&e);
		report = sync_apply(doc, &sc, &(struct sync_rms){ 0 }, NULL, 1, 1, &st, &e);
		if (!report != !shape_ok)
			abort();
		json_decref(report);
		json_decref(doc);
		return 0;
	}
	report = sync_apply(doc, &sc, &(struct sync_rms){ 0 }, NULL, 1, 0, &st, &e);
	if (!report || st.failed)
		abort();
	json_decref(report);
	json_decref(doc);
	return 0;
}
