// SPDX-License-Identifier: Apache-2.0
/* fuzz_sync - kilo-sync's planner over a stream as `kilo-sync plan --from -`
 * reads it: Node, NodeList, Pod, PodList, List and RM nodes payloads into
 * sync_input_add_document, then sync_plan (the SyncPlan must be built from
 * whatever was accepted).  An input whose size is odd is read as a live
 * API's (sync_input_set_remote: bad pods and nameless Nodes cost a node). */
#include <stdio.h>

#include "decide/syncplanner.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct sync_options o;
	struct sync_input *in;
	struct jsonio_reader *r;
	json_t *doc = NULL;
	FILE *f;
	int rc;

	f = fuzz_file(data, size);
	if (!f)
		return 0;
	sync_options_defaults(&o);
	in = sync_input_new(&o);
	if (size % 2)
		sync_input_set_remote(in);
	r = jsonio_reader_new(f, "stdin");
	while ((rc = jsonio_read(r, &doc, &e)) == 1) {
		rc = sync_input_add_document(in, doc, &e);
		json_decref(doc);
		if (rc < 0)
			break;
	}
	if (rc < 0)
		fuzz_check_err(&e);
	else
		json_decref(sync_plan(in, 1795968000000LL, NULL));
	jsonio_reader_free(r);
	sync_input_free(in);
	fclose(f);
	return 0;
}
