// SPDX-License-Identifier: Apache-2.0
/* fuzz_containerid - containerid_parse and containerid_valid agree; a valid
 * id never holds '/' or "..", and its application id fits. */
#include "doc/containerid.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct containerid id;
	char app[64];
	char *s = fuzz_str(data, size);
	int ok = containerid_parse(s, &id, &e) == 0;

	if (ok != containerid_valid(s))
		abort();
	if (ok) {
		if (strchr(s, '/') || strstr(s, "..") || strlen(s) > CONTAINERID_MAX)
			abort();
		if (!containerid_application(&id, app, sizeof(app)))
			abort();
		(void)containerid_is_am(&id);
	} else {
		fuzz_check_err(&e);
	}
	free(s);
	return 0;
}
