/* SPDX-License-Identifier: Apache-2.0 */
/* containerscan - the ContainerList document of yarn-copilot list
 * (SCHEMAS.md): the container_* dirs of the hadoop-yarn cgroup, their
 * processes and usage, joined with what the NodeManager says about them.
 *
 * The cgroup dirs are the truth about what runs on the node: the NM's list
 * also holds finished containers (for duration-to-track-stopped-containers)
 * and may be unavailable exactly when eviction is needed.  So items come
 * from cgroups (containerscan_collect, I/O through lib/kernel/cgroup and
 * lib/kernel/procfs) and the NM only adds state, user and requests
 * (containerscan_list, pure, building the doc/containerlist value).
 */
#ifndef KILO_CONTAINERSCAN_H
#define KILO_CONTAINERSCAN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "doc/containerlist.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"
#include "remote/nm.h"

/* One container dir; -1 in a number means unknown (null in the document). */
struct containerscan_item {
	char id[CONTAINERID_MAX + 1];
	char *cg;          /* cgroup path "<hadoop-yarn>/<id>" */
	unsigned ctrls;    /* controllers holding the dir (1u << enum cgroup_ctrl) */
	int64_t processes; /* member processes (kernel/members.h) and those that exited
				 * while read (a fork chain), -1 unknown */
	pid_t *pids;       /* the members' pids, ascending (NULL when none or unknown) */
	size_t npids;
	int64_t start_ms;       /* oldest process start, ms since the epoch */
	int64_t cpu_ns;         /* cumulative CPU time (cpuacct.usage / cpu.stat usage_usec) */
	int64_t memory_bytes;   /* anon + unevictable, without page cache */
	int64_t memory_current; /* the whole charge (usage_in_bytes / memory.current) */
};

struct containerscan {
	struct containerscan_item *items; /* sorted by id */
	size_t n;
	size_t failed_reads;  /* reads that failed other than by absence (values left unknown) */
	int yarn_found;       /* the hadoop-yarn dir exists in some controller */
	struct err first_err; /* the first of them */
};

/* Walk the container dirs of l in s and read, for each: its member
 * processes (members_read), the start time of each (proc/<pid>/stat,
 * proc/stat btime once), the CPU time and the memory figures.  A dir that
 * vanishes meanwhile, or is in none of the NodeManager's hierarchies (only
 * in kilo's mirrors), drops the container; another failed read leaves that value unknown and is counted
 * in failed_reads.  Returns 0, or -1 with e set when the walk itself fails.
 * Release with containerscan_release(). */
int containerscan_collect(const struct cgroup_layout *l, const struct sysroot *s,
			  struct containerscan *out, struct err *e);

/* Free what cl holds and zero it. */
void containerscan_release(struct containerscan *cl);

/* What the NM said: url, reachable (a usable containers payload came back),
 * error (the reason it did not; NULL otherwise), and the containers. */
struct containerscan_nm {
	const char *url;
	int reachable;
	const char *error;
	const struct nm_containers *containers; /* NULL when not reachable */
};

/* The ContainerList (doc/containerlist) of the scan cs and the NM's view
 * (pure); release *out with containerlist_release().  prev is the state
 * of the previous call (containerscan_state(); NULL for none):
 * with it, usage.cpuMilli = delta cpuNanos / delta ms / 1000, rounded,
 * else unknown.  The flags are containerlist_item_flags()'.  node may be
 * NULL; metadata.timestamp is now_ms. */
void containerscan_list(const struct containerscan *cs, const struct cgroup_layout *l,
			const struct containerscan_nm *nm, const struct containerlist_state *prev,
			int64_t now_ms, const char *node, struct containerlist *out);

/* The state to keep for the next call's rates (doc/containerlist's
 * ContainerListState): now_ms and the cpu_ns of every container whose CPU
 * time was read.  Release with containerlist_state_release(). */
void containerscan_state(const struct containerscan *cs, int64_t now_ms,
			 struct containerlist_state *out);

#endif
