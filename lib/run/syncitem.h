/* SPDX-License-Identifier: Apache-2.0 */
/* syncitem - what the syncrun modules share (internal to them; callers use
 * run/syncrun.h): reading a SyncPlan item's fields and finding a cluster's
 * RM client.  syncgather.c gathers the inputs, synccheck.c reads a plan,
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

/* The RM client of cluster id in r, or NULL. */
struct yarn_cluster *sync_rms_find(struct sync_rms *r, const char *id);

/* The reasonCode of an RM call of cluster c that failed with e before any
 * answer could be used: what the RMs answered (c->error_status: 401/403
 * rm-refused, 5xx/429 rm-error) first, then e's kind (ERR_TEMP
 * rm-unreachable, ERR_REMOTE rm-refused, else rm-answer-invalid). */
enum sync_reason sync_rm_down_code(const struct yarn_cluster *c, const struct err *e);

#endif
