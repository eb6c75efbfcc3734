// SPDX-License-Identifier: Apache-2.0
/* fuzz_policy - YAML config text (config_load_string) into policy_from_config:
 * a policy that loads keeps every percent in range (mbaPercent 0..100). */
#include "core/config.h"
#include "doc/policy.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct config c = { 0 };
	struct policy p;
	json_t *warnings = json_array();
	char *s = fuzz_str(data, size);

	policy_defaults(&p);
	if (config_load_string(&c, s, "policy.yaml", &e) < 0) {
		fuzz_check_err(&e);
	} else if (policy_from_config(&p, &c, warnings, &e) < 0) {
		fuzz_check_err(&e);
	} else {
		if (p.cpu_suppress_threshold_percent < 0 ||
		    p.cpu_suppress_threshold_percent > 100 ||
		    p.memory_evict_threshold_percent < 0 ||
		    p.memory_evict_threshold_percent > 100 ||
		    p.memory_evict_lower_percent > p.memory_evict_threshold_percent)
			abort();
		for (int k = 0; k < POLICY_NCLASSES; k++)
			if (p.resctrl[k].cat_start_percent < 0 ||
			    p.resctrl[k].cat_end_percent > 100 || p.resctrl[k].mba_percent < 0 ||
			    p.resctrl[k].mba_percent > 100)
				abort();
	}
	config_release(&c);
	json_decref(warnings);
	free(s);
	return 0;
}
