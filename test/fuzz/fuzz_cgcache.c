// SPDX-License-Identifier: Apache-2.0
/* fuzz_cgcache - qos-cgset's --state document (cgcache_use), then every
 * container it names entered with the inode numbers it gives (so entries
 * of any shape are looked at), their files read, changed and forgotten,
 * and its memos read. */
#include "fuzz.h"
#include "run/cgcache.h"

static const char *const files[] = { "cpuset.cpus", "cgroup.procs", "memory.oom.group",
				     "cpu.cfs_quota_us" };

static uint64_t ino_of(const json_t *entry, enum cgroup_ctrl c)
{
	return (uint64_t)json_integer_value(
		json_object_get(json_object_get(entry, "ino"), cgroup_ctrl_name(c)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = fuzz_json(data, size), *entry;
	struct cgcache *c;
	struct err e = { 0 };
	const char *key, *v;

	if (!doc)
		return 0;
	c = cgcache_new("/y", 1000000, 60000);
	if (cgcache_use(c, doc, "fuzz", &e) < 0) {
		fuzz_check_err(&e);
	} else {
		json_object_foreach(json_object_get(doc, "containers"), key, entry)
		{
			struct cgroup_container ct = { .ctrls = 1u << CGROUP_CPU |
								1u << CGROUP_CPUSET |
								1u << CGROUP_MEMORY };
			char cg[128];
			int64_t age;

			snprintf(ct.id, sizeof(ct.id), "%s", key);
			for (int i = 0; i < CGROUP_NCTRL; i++)
				ct.ino[i] = ino_of(entry, (enum cgroup_ctrl)i);
			cgcache_enter(c, &ct);
			snprintf(cg, sizeof(cg), "/y/%s", ct.id);
			for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++)
				for (int i = CGROUP_CPU; i <= CGROUP_MEMORY; i++)
					if (cgcache_get(c, (enum cgroup_ctrl)i, cg, files[f], &v,
							&age) &&
					    v && age < 0)
						abort(); /* fresh entries are never from the future */
			cgcache_put(c, CGROUP_CPUSET, cg, "cpuset.cpus", "0-3");
			cgcache_forget(c, CGROUP_MEMORY, cg, "cgroup.procs");
		}
		json_object_foreach(json_object_get(doc, "memo"), key, entry)
		{
			(void)cgcache_memo_get(c, key, &v);
		}
	}
	cgcache_free(c);
	json_decref(doc);
	return 0;
}
