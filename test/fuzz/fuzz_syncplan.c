// SPDX-License-Identifier: Apache-2.0
/* fuzz_syncplan - a SyncPlan as `kilo-sync apply --dry-run` reads it:
 * sync_plan_read, then sync_apply with the default configuration and no
 * API client (dry run: nothing is sent).  A plan that was read must give a
 * report in which no item failed; a refused plan, read per item, must be
 * read (its bad items failed in the report) as long as it is a SyncPlan
 * with an items array.  The report of a plan that was read reads back
 * (syncreport_from_json). */
#include "doc/syncconfig.h"
#include "doc/syncplan.h"
#include "doc/syncreport.h"
#include "fuzz.h"
#include "run/syncrun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sync_config sc;
	static int loaded;
	struct err e = { 0 };
	struct sync_stats st = { 0 };
	struct syncplan plan;
	struct syncreport report, back;
	json_t *doc = fuzz_json(data, size), *out;

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
			sync_apply(&plan, &sc, &(struct sync_rms){ 0 }, NULL, 1, &report, &st);
			syncreport_release(&report);
			syncplan_release(&plan);
		}
		json_decref(doc);
		return 0;
	}
	sync_apply(&plan, &sc, &(struct sync_rms){ 0 }, NULL, 1, &report, &st);
	if (st.failed)
		abort();
	out = syncreport_to_json(&report);
	if (syncreport_from_json(out, &sc, &back, &e) < 0)
		abort();
	syncreport_release(&back);
	json_decref(out);
	syncreport_release(&report);
	syncplan_release(&plan);
	json_decref(doc);
	return 0;
}
