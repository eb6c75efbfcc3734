/* SPDX-License-Identifier: Apache-2.0 */
/* evictorstate - the evictor's memory between runs (evictor --state FILE),
 * an EvictorState document:
 *
 *   {"apiVersion":"kilo/v1","kind":"EvictorState",
 *    "victims":[{"id","atMs"}],"lastEviction":{"memoryMs","cpuMs"},
 *    "cpuSamples":[{"atMs","windowMs","usageCpuMilli","limitCpuMilli",
 *                   "requestCpuMilli"}]}
 *
 * The victims planned (not planned again while the kill runs, and credited
 * as leaving), when the last plans of each resource were made (the
 * cool-downs) and the BE CPU samples of the window (koordlet cpuevict's
 * time window; decide/evict.h).  Times are ms since the epoch, figures
 * 0..2^53.  Pure: core/statefile reads and writes the file.
 */
#ifndef KILO_EVICTORSTATE_H
#define KILO_EVICTORSTATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* A time or figure not known (JSON null). */
#define EVICTORSTATE_UNKNOWN (-1)

/* One victim of an earlier plan. */
struct evictorstate_victim {
	char *id;      /* a valid YARN container id, owned */
	int64_t at_ms; /* when it was planned */
};

/* One BE CPU sample, for the window averages. */
struct evictorstate_sample {
	int64_t at_ms;     /* when it was taken */
	int64_t window_ms; /* how long the rate covers, or EVICTORSTATE_UNKNOWN */
	int64_t usage_cpu_milli;
	int64_t limit_cpu_milli;
	int64_t request_cpu_milli;
};

struct evictorstate {
	struct evictorstate_victim *victims; /* owned */
	size_t nvictims;
	int64_t last_memory_ms; /* last plan with memory victims, or EVICTORSTATE_UNKNOWN */
	int64_t last_cpu_ms;    /* last plan with CPU victims, or EVICTORSTATE_UNKNOWN */
	struct evictorstate_sample *samples; /* owned */
	size_t nsamples;
};

/* An empty state. */
void evictorstate_init(struct evictorstate *st);

/* Read an EvictorState document (kind absent or "EvictorState"; every
 * member may be absent: empty) into *st.  Returns 0, or -1 with e set
 * (ERR_INPUT, "victims[0].atMs: expected an integer 0..9007199254740992,
 * got ...": paths inside the document, the caller names the file) and *st
 * empty. */
int evictorstate_from_json(const json_t *doc, struct evictorstate *st, struct err *e);

/* The document of st.  New reference. */
json_t *evictorstate_to_json(const struct evictorstate *st);

/* Free the state's arrays; it is empty afterwards. */
void evictorstate_release(struct evictorstate *st);

#endif
