// SPDX-License-Identifier: Apache-2.0
/* fuzz_evict - the evictor's consumer of a kilo stream, as cmd/evictor
 * reads it: NodeUsage, ContainerList and a PodList or List collected by
 * jsonio_collect, parsed by evict_parse_*, then decided with the default
 * policy (the decision must not crash on whatever parsed) and printed as a
 * KillPlan.  A stream with an EvictorState also goes through
 * evict_state_parse (doc/evictorstate). */
#include <stdio.h>

#include "decide/evict.h"
#include "doc/policy.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const want[] = { "NodeUsage", "ContainerList", "PodList", "List",
					    "EvictorState" };
	struct err e = { 0 };
	json_t *docs[5] = { 0 };
	struct evict_input in = { 0 };
	struct containerlist list = { 0 };
	struct nodeusage usage = { 0 };
	struct evictorstate st;
	struct evict_plan plan = { 0 };
	struct policy p;
	FILE *f;
	int ok;

	f = fuzz_file(data, size);
	if (!f)
		return 0;
	evictorstate_init(&st);
	policy_defaults(&p);
	ok = jsonio_collect(f, "stdin", want, 5, docs, NULL, &e) >= 0 && docs[0] && docs[1] &&
	     nodeusage_from_json(docs[0], &usage, &e) == 0 &&
	     evict_input_usage(&in, &usage, &e) == 0 &&
	     containerlist_from_json(docs[1], &list, &e) == 0 &&
	     (evict_input_containers(&in, &list), 1) &&
	     (!(docs[2] || docs[3]) ||
	      evict_parse_pods(docs[2] ? docs[2] : docs[3], &in, &e) == 0) &&
	     evict_state_parse(docs[4], "state", &st, &e) == 0;
	if (ok) {
		json_t *out;

		evict_decide(&p, &in, &st, 1795968000000LL, &plan);
		json_decref(evict_plan_json(&plan, &in, &p, 1795968000000LL));
		out = evictorstate_to_json(&st);
		json_decref(out);
		evict_plan_release(&plan);
	} else if (e.kind != ERR_NONE) {
		fuzz_check_err(&e);
	}
	evictorstate_release(&st);
	evict_input_release(&in);
	containerlist_release(&list);
	nodeusage_release(&usage);
	for (int i = 0; i < 5; i++)
		json_decref(docs[i]);
	fclose(f);
	return 0;
}
