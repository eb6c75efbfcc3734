// SPDX-License-Identifier: Apache-2.0
/* fuzz_jsonio - the kilo/v1 document stream reader (jsonio_read) and
 * jsonio_collect over the same bytes; jsonio_parse of the whole. */
#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const want[] = { "NodeUsage", "ContainerList", "KillPlan", "PodList" };
	struct err e = { 0 };
	json_t *got[4] = { 0 };
	json_t *doc = NULL;
	struct jsonio_reader *r;
	FILE *f;
	int rc;

	f = fuzz_file(data, size);
	if (!f)
		return 0;
	r = jsonio_reader_new(f, "stdin");
	while ((rc = jsonio_read(r, &doc, &e)) == 1)
		json_decref(doc);
	if (rc < 0)
		fuzz_check_err(&e);
	jsonio_reader_free(r);
	rewind(f);
	err_clear(&e);
	if (jsonio_collect(f, "stdin", want, 4, got, NULL, &e) < 0)
		fuzz_check_err(&e);
	for (int i = 0; i < 4; i++)
		json_decref(got[i]);
	fclose(f);
	json_decref(fuzz_json(data, size));
	return 0;
}
