// SPDX-License-Identifier: Apache-2.0
/* fuzz_docs - the document readers of doc/ that no other target covers
 * (selector byte: 0 KillReport, 1 CgroupChanges, 2 ResctrlReport,
 * 3 EvictorState, 4 ContainerListState, 5 ContainerList; KillPlan has
 * fuzz_killplan, and its reader takes only what a kill needs): a
 * refused document leaves a one-line message; a read one, written and read
 * again, writes the same document (the writer gives what the reader takes). */
#include "doc/cgroupchanges.h"
#include "doc/containerlist.h"
#include "doc/evictorstate.h"
#include "doc/killreport.h"
#include "doc/resctrlreport.h"
#include "fuzz.h"

#define ROUND_TRIP(type, from, to, release)                                                        \
	static json_t *rt_##type(const json_t *doc, struct err *e)                                 \
	{                                                                                          \
		struct type v = { 0 };                                                             \
		json_t *out;                                                                       \
                                                                                                   \
		if (from(doc, &v, e) < 0)                                                          \
			return NULL;                                                               \
		out = to(&v);                                                                      \
		release(&v);                                                                       \
		return out;                                                                        \
	}
ROUND_TRIP(killreport, killreport_from_json, killreport_to_json, killreport_release)
ROUND_TRIP(cgroupchanges, cgroupchanges_from_json, cgroupchanges_to_json, cgroupchanges_release)
ROUND_TRIP(resctrlreport, resctrlreport_from_json, resctrlreport_to_json, resctrlreport_release)
ROUND_TRIP(evictorstate, evictorstate_from_json, evictorstate_to_json, evictorstate_release)
ROUND_TRIP(containerlist_state, containerlist_state_from_json, containerlist_state_to_json,
	   containerlist_state_release)
ROUND_TRIP(containerlist, containerlist_from_json, containerlist_to_json, containerlist_release)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static json_t *(*const rt[])(const json_t *, struct err *) = {
		rt_killreport,   rt_cgroupchanges,       rt_resctrlreport,
		rt_evictorstate, rt_containerlist_state, rt_containerlist,
	};
	unsigned sel = fuzz_select(&data, &size, sizeof(rt) / sizeof(rt[0]));
	struct err e = { 0 };
	json_t *doc = fuzz_json(data, size), *once, *twice;

	if (!doc)
		return 0;
	once = rt[sel](doc, &e);
	if (!once) {
		fuzz_check_err(&e);
	} else {
		twice = rt[sel](once, &e);
		if (!twice || !json_equal(once, twice))
			abort();
		json_decref(twice);
	}
	json_decref(once);
	json_decref(doc);
	return 0;
}
