// SPDX-License-Identifier: Apache-2.0
/* fuzz_cgroup - the cgroup file parsers.  Selector byte: 0 mountinfo,
 * 1 memory.stat v1, 2 memory.stat v2, 3 cpu.stat usage_usec, 4 cpu.max,
 * 5 cgroup.procs, 6 cpuset list (format and re-parse must agree),
 * 7 a flat-keyed file (cgroup_parse_kv), 8 --hierarchy path. */
#include "fuzz.h"
#include "kernel/cgroup.h"

static void cpuset_roundtrip(const char *s)
{
	struct err e = { 0 };
	struct cpuset set, again;
	char *text;

	if (cpuset_parse(s, &set, &e) < 0) {
		fuzz_check_err(&e);
		return;
	}
	text = cpuset_format(&set);
	if (cpuset_parse(text, &again, &e) < 0 || !cpuset_equal(&set, &again))
		abort();
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { 0 };
	unsigned sel = fuzz_select(&data, &size, 9);
	char *s = fuzz_str(data, size);
	struct cgroup_layout l = { 0 };
	struct cgroup_memory_stat ms;
	int64_t a, b;
	pid_t *pids = NULL;
	size_t n = 0;
	int rc = 0;

	switch (sel) {
	case 0:
		rc = cgroup_mounts_parse(s, &l, &e);
		break;
	case 1:
	case 2:
		rc = cgroup_parse_memory_stat(s, (int)sel, &ms, &e);
		if (rc == 0)
			(void)cgroup_memory_stat_used(&ms);
		break;
	case 3:
		rc = cgroup_parse_cpu_stat_usage(s, &a, &e);
		break;
	case 4:
		rc = cgroup_parse_cpu_max(s, &a, &b, &e);
		break;
	case 5:
		rc = cgroup_parse_pids(s, &pids, &n, &e);
		for (size_t i = 0; rc == 0 && i < n; i++)
			if (pids[i] <= 0)
				abort();
		break;
	case 6:
		cpuset_roundtrip(s);
		break;
	case 7:
		rc = cgroup_parse_kv(s, "usage_usec", &a, &e);
		break;
	default:
		l.version = 1;
		rc = cgroup_layout_set_kube(&l, CGROUP_DRIVER_CGROUPFS, s, &e);
		if (rc == 0) {
			size_t hl = strlen(l.hadoop_yarn);

			if (strstr(l.hadoop_yarn, "/../") || strstr(l.hadoop_yarn, "//") ||
			    (hl >= 3 && strcmp(l.hadoop_yarn + hl - 3, "/..") == 0))
				abort();
		}
		break;
	}
	if (rc < 0)
		fuzz_check_err(&e);
	free(pids);
	cgroup_layout_release(&l);
	free(s);
	return 0;
}
