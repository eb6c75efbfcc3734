// SPDX-License-Identifier: Apache-2.0
/* fuzz_qos - qos-cgset's inputs: NodeUsage and ContainerList collected from a
 * stream into qosapply_inputs, then the suppress and shares arithmetic on
 * what was accepted. */
#include <stdio.h>

#include "doc/containerlist.h"
#include "doc/nodeusage.h"
#include "fuzz.h"
#include "run/qosapply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const kinds[] = { "NodeUsage", "ContainerList" };
	struct err e = { 0 };
	struct qosapply_inputs in = { 0 };
	json_t *docs[2] = { 0 };
	struct containerlist list = { 0 };
	struct nodeusage usage = { 0 };
	FILE *f;

	f = fuzz_file(data, size);
	if (!f)
		return 0;
	if (jsonio_collect(f, "stdin", kinds, 2, docs, qosapply_input_fields, &e) < 0) {
		fuzz_check_err(&e);
	} else if ((docs[1] && containerlist_from_json(docs[1], &list, &e) < 0) ||
		   (docs[0] && nodeusage_from_json(docs[0], &usage, &e) < 0) ||
		   qosapply_inputs(docs[0] ? &usage : NULL, docs[1] ? &list : NULL, &in, &e) < 0) {
		fuzz_check_err(&e);
	} else {
		if (in.cpu_milli_sum < 0)
			abort();
		(void)qos_shares(in.cpu_milli_sum);
		if (in.usage_known)
			(void)qos_suppress_milli(&in.usage, 65, -1);
	}
	qosapply_inputs_release(&in);
	containerlist_release(&list);
	nodeusage_release(&usage);
	json_decref(docs[0]);
	json_decref(docs[1]);
	fclose(f);
	return 0;
}
