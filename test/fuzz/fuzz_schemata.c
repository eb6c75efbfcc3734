// SPDX-License-Identifier: Apache-2.0
/* fuzz_schemata - resctrl text: selector 0 a schemata file (schemata_parse,
 * then every line formatted and parsed back equal), 1 /proc/cpuinfo
 * (schemata_vendor_parse), 2 a CBM from the first 10 bytes (cbm_mask,
 * min_cbm_bits, start and end percent). */
#include "decide/resctrlqos.h"
#include "doc/schemata.h"
#include "fuzz.h"

static void roundtrip(const char *s)
{
	struct err e = { 0 };
	struct schemata sc, again;

	if (schemata_parse(s, &sc, &e) < 0) {
		fuzz_check_err(&e);
	} else {
		for (size_t i = 0; i < sc.n; i++) {
			char *line = schemata_format_line(&sc.line[i]);

			if (schemata_parse(line, &again, &e) < 0 ||
			    !schemata_line_equal(&sc.line[i], &again))
				abort();
			schemata_release(&again);
			free(line);
		}
	}
	schemata_release(&sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	unsigned sel = fuzz_select(&data, &size, 3);
	char *s = fuzz_str(data, size);

	if (sel == 0) {
		roundtrip(s);
	} else if (sel == 1) {
		(void)schemata_vendor_name(schemata_vendor_parse(s));
	} else if (size >= 10) {
		uint64_t mask, cbm;

		memcpy(&mask, data, 8);
		if (resctrlqos_cbm(mask, (int8_t)data[8] % 70, (int8_t)data[9],
				   (int8_t)data[9] + 30, &cbm, &e) < 0)
			fuzz_check_err(&e);
		else if ((cbm & ~mask) != 0)
			abort();
	}
	free(s);
	return 0;
}
