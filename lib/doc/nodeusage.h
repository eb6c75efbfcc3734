/* SPDX-License-Identifier: Apache-2.0 */
/* nodeusage - the NodeUsage document (SCHEMAS.md "NodeUsage"): what
 * node-usage writes and qos-cgset and the evictor read, as typed values.
 * decide/usagerates computes it from two samples; nodeusage_to_json()
 * writes it; nodeusage_from_json() reads it back, strictly, for every
 * consumer.  Pure.
 *
 * Figures are int64 with NODEUSAGE_UNKNOWN (INT64_MIN) for null or absent
 * (not -1: cfsQuotaUs -1 is "unlimited", v2's max), each
 * 0..NODEUSAGE_FIGURE_MAX (2^53: exact in a double, and guaranteed +
 * burstable stays far from overflow).  Units are in the names: _milli
 * milli-cores (a rate over windowMs), _bytes bytes, _us microseconds.
 */
#ifndef KILO_DOC_NODEUSAGE_H
#define KILO_DOC_NODEUSAGE_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"
#include "core/jsonio.h"

/* A value not known (null in the document). */
#define NODEUSAGE_UNKNOWN INT64_MIN
#define NODEUSAGE_FIGURE_MAX (INT64_C(1) << 53)

struct nodeusage_figures {
	int64_t cpu_milli;
	int64_t memory_bytes;
};

/* The CFS and cpuset limits of a cgroup (limits.besteffort, .hadoopYarn). */
struct nodeusage_limit {
	char *cpuset;        /* the kernel's CPU list without blanks, NULL: null */
	int64_t cpuset_cpus; /* derived: the CPUs cpuset lists (doc/cpuset) */
	int64_t quota_us;    /* cfsQuotaUs, -1 unlimited */
	int64_t period_us;   /* cfsPeriodUs, 1.. */
};

enum nodeusage_qos {
	NODEUSAGE_QOS_GUARANTEED,
	NODEUSAGE_QOS_BURSTABLE,
	NODEUSAGE_QOS_BESTEFFORT,
	NODEUSAGE_NQOS
};

struct nodeusage {
	char *node;             /* metadata.node, NULL when absent */
	char *timestamp;        /* metadata.timestamp (RFC 3339), NULL when absent */
	int64_t window_ms;      /* what the rates cover; UNKNOWN: no rates yet */
	int64_t cgroup_version; /* cgroup.version, 1 or 2 */
	char *driver;           /* cgroup.driver */
	char *besteffort_path;  /* cgroup.besteffort */
	char *hadoop_yarn_path; /* cgroup.hadoopYarn */
	struct nodeusage_figures capacity, node_used, system, qos[NODEUSAGE_NQOS], hadoop_yarn;
	char *cpus_online;                /* cpus.online */
	struct nodeusage_limit limits[2]; /* [0] besteffort, [1] hadoopYarn */
};

/* The CPUs of a cpuset as kilo writes it (the kernel's list, no blank or
 * newline at either end; doc/cpuset's grammar), or -1 for another text. */
int64_t nodeusage_cpuset_count(const char *s);

/* Every figure NODEUSAGE_UNKNOWN, every string NULL (the start of a
 * producer's document). */
void nodeusage_init(struct nodeusage *u);

/* Read a NodeUsage (borrowed doc) into *out.  Every member is optional
 * (absent is null), a member of the wrong type or range is an error:
 * ERR_INPUT, one line naming its path and value ("NodeUsage.capacity.cpuMilli:
 * expected an integer 0..9007199254740992, got \"8\"";
 * "NodeUsage.limits.hadoopYarn.cpuset: expected a cpuset list such as
 * \"0-3,8\", got \"3-0\"").  Returns 0, or -1 with *out released.  Reads
 * only the members nodeusage_fields names. */
int nodeusage_from_json(const json_t *doc, struct nodeusage *out, struct err *e);

/* The document, byte for byte what node-usage writes.  New reference. */
json_t *nodeusage_to_json(const struct nodeusage *u);

/* Free what u holds and zero it (a zeroed struct is fine). */
void nodeusage_release(struct nodeusage *u);

/* ---- NodeUsageState: node-usage --state --------------------------------
 * {"apiVersion":"kilo/v1","kind":"NodeUsageState","timestampMs":..,
 *  "cgroupVersion":..,"nodeCpuNanos":..,"scopes":{"kubepods":{"path":..,
 *  "cpuNanos":..},"burstable":..,"besteffort":..,"hadoopYarn":..}}: the
 * previous sample's cumulative CPU times, for the next call's rates.  A
 * section of this module (the NodeUsage's companion, read and written by
 * node-usage alone), as ContainerListState is of doc/containerlist. */
enum nodeusage_scope {
	NODEUSAGE_KUBEPODS,
	NODEUSAGE_BURSTABLE,
	NODEUSAGE_BESTEFFORT,
	NODEUSAGE_HADOOP_YARN,
	NODEUSAGE_NSCOPE
};

struct nodeusage_state {
	int64_t timestamp_ms;             /* NODEUSAGE_UNKNOWN when absent */
	int64_t cgroup_version;           /* 1 or 2; NODEUSAGE_UNKNOWN */
	int64_t node_cpu_ns;              /* cumulative busy CPU time of the node */
	char *path[NODEUSAGE_NSCOPE];     /* each scope's cgroup path, NULL: null */
	int64_t cpu_ns[NODEUSAGE_NSCOPE]; /* each scope's cumulative CPU time */
};

/* Read a state (borrowed doc; its kind is checked by core/statefile):
 * integers >= 0 (cgroupVersion 1..2), paths strings, every member optional.
 * Returns 0, or -1 with e set (ERR_INPUT "NodeUsageState.scopes.besteffort.
 * cpuNanos: expected an integer 0..9223372036854775807, got \"12\"") and
 * *out released. */
int nodeusage_state_from_json(const json_t *doc, struct nodeusage_state *out, struct err *e);

/* The document, byte for byte what node-usage writes.  New reference. */
json_t *nodeusage_state_to_json(const struct nodeusage_state *st);

/* Free what st holds; every figure unknown (a zeroed struct is fine). */
void nodeusage_state_release(struct nodeusage_state *st);

/* What nodeusage_from_json() reads, for the filtered reader. */
extern const struct jsonio_filter nodeusage_fields[];

#endif
