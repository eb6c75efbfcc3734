// SPDX-License-Identifier: Apache-2.0
/* fuzz_syncplan - a SyncPlan as `kilo-sync apply --dry-run` reads it:
 * sync_plan_read, then sync_apply with the default configuration and no
 * API client (dry run: nothing is sent).  A plan that was read must give a
 * report in which no item failed; a refused plan, read per item, must be
 * read (its bad items failed in the report) as long as it is a SyncPlan
 * with an items array. */
#include "doc/syncconfig.h"
#include "doc/syncplan.h"
#include "fuzz.h"
#include "run/syncrun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sync_config sc;
	static int loaded;
	struct err e = { 0 };
	struct sync_stats st = { 0 };
	struct syncplan plan;
	json_t *doc = fuzz_json(data, size), *report;

	if (!loaded) {
		if (sync_config_load(&sc, NULL, &e) < 0)
			abort();
		loaded = 1;
	}
	if (!doc)
		return 0;
	if (sync_plan_read(doc, &sc, 0, &plan, &e) < 0) {
		int shape_ok =
			json_is_array(json_object_get(doc, "items")) &&
			json_is_string(json_object_get(doc, "kind")) &&
			strcmp(json_string_value(json_object_get(doc, "kind")), "SyncPlan") == 0;

		fuzz_check_err(&e);
		err_clear(&e);
		if ((sync_plan_read(doc, &sc, 1, &plan, &e) == 0) != shape_ok)
			abort();
		if (shape_ok) {
			report = sync_apply(&plan, &sc, &(struct sync_rms){ 0 }, NULL, 1, &st);
			json_decref(report);
			syncplan_release(&plan);
		}
		json_decref(doc);
		return 0;
	}
	report = sync_apply(&plan, &sc, &(struct sync_rms){ 0 }, NULL, 1, &st);
	if (!report || st.failed)
		abort();
	json_decref(report);
	syncplan_release(&plan);
	json_decref(doc);
	return 0;
}
