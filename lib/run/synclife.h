/* SPDX-License-Identifier: Apache-2.0 */
/* synclife - the lifecycle part of a SyncPlan item (decide/lifecycle.h,
 * doc/SCHEMAS.md "Lifecycle"): its check before anything is sent, and its
 * write onto the Node (the record annotation and lifecycle.nodeLabel in one
 * merge patch).  syncrun.h's sync_apply() calls both.
 */
#ifndef KILO_SYNCLIFE_H
#define KILO_SYNCLIFE_H

#include <jansson.h>

#include "core/err.h"
#include "decide/syncplanner.h"
#include "doc/syncconfig.h"
#include "remote/k8s.h"
#include "remote/yarn.h"

/* Check item's lifecycle part (absent: fine).  ERR_INPUT naming the field
 * (ctx "SyncPlan.items[3]"): a part while l is not enabled, an action other
 * than record/none, a label other than set/remove/none, a label action
 * without lifecycle.nodeLabel or without record, a record that
 * lc_record_from_json() refuses, and an update of a node whose state is
 * draining, stuck or offline that is not 0/0 with overCommitTimeoutMs -1
 * (the lifecycle never sends room to a draining node, nor a kill); a
 * decommission action (exclude, include) while lifecycle.drain is not
 * decommission, without a basis (a string or null), or whose
 * decommissionHost {cluster, host} names no cluster of sc. */
int sync_lifecycle_check(const json_t *item, const char *ctx, const struct sync_config *sc,
			 struct err *e);

/* Before item's resize (an update that is not 0/0 with overCommitTimeoutMs
 * -1; others return 0 at once): 0 when the fresh Node's record does not
 * hold the node, -1 with e set and *code when it does (draining, stuck,
 * offline, or a record that cannot be read: annotation-conflict; another
 * pass or an operator moved it since the plan read it) or the Node cannot
 * be read.  The resize would open a held node, and kill with a timeout >= 0. */
int sync_lifecycle_resize_ok(struct k8s_client *kc, const json_t *item,
			     const struct sync_lifecycle *l, enum sync_reason *code, struct err *e);

/* Write the part's record and label action on the fresh Node: one merge
 * patch with its resourceVersion, the Node read again once on a 409.
 * Returns 1 written (the answer carries both), 0 when the Node already
 * held them, -1 with e set and *code (annotation-conflict, node-not-found,
 * kubernetes-unreachable, annotation-refused). */
int sync_lifecycle_write(struct k8s_client *kc, const char *node, const json_t *part,
			 const struct sync_lifecycle *l, enum sync_reason *code, struct err *e);

/* Before a decommission action not preceded by the record's write (an
 * include, an exclude asked again): 0 when the fresh Node's record is the
 * part's basis (both absent counts), -1 with e set and *code
 * (annotation-conflict: another pass or an operator moved it since the plan
 * read it; node-not-found, kubernetes-unreachable). */
int sync_lifecycle_basis_ok(struct k8s_client *kc, const char *node, const json_t *part,
			    enum sync_reason *code, struct err *e);

/* 1 when host is on cfg's exclude list already, 0 when not, -1 with e set
 * (the list cannot be read: exclude-list-failed).  A host listed before kilo
 * drains it is the operator's: the record claims no exclusion of kilo's,
 * so the return never takes it off. */
int sync_exclude_listed(const struct sync_cluster *cfg, struct k8s_client *kc, const char *host,
			struct err *e);

/* 1 when the record the part was planned over (its basis) already says
 * kilo put host on the list (excluded.host; a retry of kilo's own), else 0. */
int sync_lifecycle_claims(const json_t *part, const char *host);

/* The decommission action of a lifecycle part (lifecycle.drain
 * decommission): put host on cluster's exclude list (add) or take it off,
 * keeping every other line (doc/yarnhosts.h); the list is cfg's exclude.file
 * (written atomically, 0644) or the data key of its exclude.configMap
 * (merge patch with the ConfigMap's resourceVersion); then `rmadmin
 * -refreshNodes -g graceful_s -server` (remote/yarn.h).  On add, node_id
 * must then be listed DECOMMISSIONING (or already gone) within
 * cfg->confirm_timeout_ms.  Returns 0, or -1 with e set and *code
 * (exclude-list-failed, decommission-failed, decommission-not-confirmed). */
int sync_decommission(const struct sync_cluster *cfg, struct yarn_cluster *y, struct k8s_client *kc,
		      const char *host, int add, int64_t graceful_s, const char *node_id,
		      enum sync_reason *code, struct err *e);

#endif
