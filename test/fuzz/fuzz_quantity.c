// SPDX-License-Identifier: Apache-2.0
/* fuzz_quantity - quantity_parse (Kubernetes resource.Quantity): a value
 * that parses must print and re-parse to the same value. */
#include "core/quantity.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	struct quantity q, again;
	char buf[QUANTITY_STR_MAX];
	char *s = fuzz_str(data, size);
	int64_t v;

	if (quantity_parse(s, &q, &e) < 0) {
		fuzz_check_err(&e);
		free(s);
		return 0;
	}
	quantity_format(&q, buf);
	if (quantity_parse(buf, &again, &e) < 0 || quantity_cmp(&q, &again) != 0)
		abort();
	(void)quantity_milli_ceil(&q, &v, &e);
	(void)quantity_milli_floor(&q, &v, &e);
	(void)quantity_value_ceil(&q, &v, &e);
	(void)quantity_value_floor(&q, &v, &e);
	free(s);
	return 0;
}
