/* SPDX-License-Identifier: Apache-2.0 */
/* syncitem - what the syncrun modules share (internal to them; callers use
 * run/syncrun.h): reading a SyncPlan item's fields and finding a cluster's
 * RM client.  syncgather.c gathers the inputs, synccheck.c checks a plan,
 * syncrun.c applies it, syncstate.c reports it.
 */
#ifndef KILO_SYNCITEM_H
#define KILO_SYNCITEM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "decide/syncplanner.h"
#include "doc/syncconfig.h"
#include "run/syncrun.h"

/* item.key when it is a string, else NULL (item may be NULL). */
const char *sync_item_str(const json_t *item, const char *key);

/* 1 when s (may be NULL) is one of set (NULL-terminated). */
int sync_one_of(const char *s, const char *const *set);

/* The hadoop-yarn quantities of an item's annotation part ann, in
 * milli-CPU and bytes, under o's batch resource names: 0, or -1 with e
 * set (ERR_INPUT naming ctx.annotation.hadoopYarn and the value) when they
 * are absent, not quantities or negative. */
int sync_item_allocation(const json_t *ann, const char *ctx, const struct sync_options *o,
			 int64_t *cpu, int64_t *mem, struct err *e);

/* Check item i of a SyncPlan against sc, as sync_plan_check() says, except
 * that no other item is looked at: 0, or -1 with e set (ERR_INPUT naming
 * SyncPlan.items[i], the field and the value). */
int sync_item_check(const json_t *it, size_t i, const struct sync_config *sc, struct err *e);

/* The RM client of cluster id in r, or NULL. */
struct yarn_cluster *sync_rms_find(struct sync_rms *r, const char *id);

/* The reasonCode of an RM call of cluster c that failed with e before any
 * answer could be used: what the RMs answered (c->error_status: 401/403
 * rm-refused, 5xx/429 rm-error) first, then e's kind (ERR_TEMP
 * rm-unreachable, ERR_REMOTE rm-refused, else rm-answer-invalid). */
enum sync_reason sync_rm_down_code(const struct yarn_cluster *c, const struct err *e);

#endif
