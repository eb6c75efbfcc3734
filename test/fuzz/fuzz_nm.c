// SPDX-License-Identifier: Apache-2.0
/* fuzz_nm - NodeManager /ws/v1/node/containers payloads (nm_parse_containers):
 * every kept id is a valid container id, the items are sorted and findable. */
#include "doc/containerid.h"
#include "fuzz.h"
#include "remote/nm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct nm_containers c = { 0 };
	json_t *doc = fuzz_json(data, size);

	if (!doc)
		return 0;
	if (nm_parse_containers(doc, &c, &e) == 0) {
		for (size_t i = 0; i < c.n; i++) {
			if (!containerid_valid(c.items[i].id))
				abort();
			if (i && strcmp(c.items[i - 1].id, c.items[i].id) > 0)
				abort();
			if (strcmp(nm_containers_find(&c, c.items[i].id)->id, c.items[i].id) != 0)
				abort();
			(void)nm_state_phase(c.items[i].state);
		}
	} else {
		fuzz_check_err(&e);
	}
	nm_containers_release(&c);
	json_decref(doc);
	return 0;
}
