// SPDX-License-Identifier: Apache-2.0
/* fuzz_procfs - the /proc parsers.  Selector byte: 0 /proc/meminfo,
 * 1 /proc/stat cpu line, 2 /proc/stat btime, 3 /proc/<pid>/stat starttime. */
#include "fuzz.h"
#include "kernel/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	unsigned sel = fuzz_select(&data, &size, 4);
	char *s = fuzz_str(data, size);
	struct procfs_meminfo mi;
	int64_t v;
	uint64_t ticks;
	int rc = 0;

	switch (sel) {
	case 0:
		rc = procfs_parse_meminfo(s, &mi, &e);
		break;
	case 1:
		rc = procfs_parse_cpu_busy(s, 100, &v, &e);
		break;
	case 2:
		rc = procfs_parse_btime(s, &v, &e);
		break;
	default:
		rc = procfs_parse_starttime(s, &ticks, &e);
		if (rc == 0)
			(void)procfs_ticks_to_ms(1700000000, ticks, 100);
		break;
	}
	if (rc < 0)
		fuzz_check_err(&e);
	free(s);
	return 0;
}
