// SPDX-License-Identifier: Apache-2.0
/* fuzz_nodeusage - node-usage's state document (nodeusage_state_from_json), then
 * a NodeUsage document against the sample it gives. */
#include "decide/usagerates.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct nodeusage_state prev = { 0 };
	json_t *doc = fuzz_json(data, size);

	if (!doc)
		return 0;
	if (nodeusage_state_from_json(doc, &prev, &e) < 0)
		fuzz_check_err(&e);
	else
		json_decref(nodeusage_state_to_json(&prev));
	nodeusage_state_release(&prev);
	json_decref(doc);
	return 0;
}
