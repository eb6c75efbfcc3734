/* SPDX-License-Identifier: Apache-2.0 */
/* syncconfig - kilo-sync's configuration (`--config FILE`, YAML or JSON).
 *
 *   clusters:                    # YARN clusters (the NodeManager pod's
 *     - id: default              # yarn.hadoop.apache.org/cluster-id picks one;
 *       rmUrls: [http://rm-0:8088, http://rm-1:8088]   # absent -> "default")
 *       userName: yarn           # ?user.name= (simple auth), optional
 *       timeoutMs: 10000         # per request, default 10000
 *       tls: {caFile: F, certFile: F, keyFile: F, insecureSkipVerify: false}
 *       rmadmin: {command: /opt/hadoop/bin/yarn, timeoutMs: 60000}
 *                                # fallback when the RM lacks the REST resize
 *   batchResources: {cpu: kubernetes.io/batch-cpu, memory: kubernetes.io/batch-memory}
 *   nodeManagerSelector: app.kubernetes.io/component=node-manager
 *   podLabelSelector: ""         # list only these pods (fewer pods listed
 *                                # means a smaller request sum: use with care)
 *   overCommitTimeoutMs: -1      # sent with every resize; >= 0 lets the RM
 *                                # preempt containers after that many ms
 *   reservation: {cpuMilli: 0, memoryBytes: 0, percent: 0}
 *   kubernetes: {kubeconfig: "", context: "", pageSize: 500, timeoutMs: 30000}
 *
 * Every field is optional; the defaults are shown.  Unknown fields are
 * returned as warnings.
 */
#ifndef KILO_SYNCCONFIG_H
#define KILO_SYNCCONFIG_H

#include <jansson.h>

#include "config.h"
#include "err.h"
#include "syncplan.h"
#include "yarn.h"

struct sync_config {
	struct config file;          /* the loaded document; strings below borrow from it */
	struct sync_options options; /* the planner's options */
	struct yarn_cluster *clusters;
	size_t nclusters;
	const char *pod_label_selector; /* NULL: every pod */
	const char *kubeconfig;         /* NULL: in-cluster, KUBECONFIG, ~/.kube/config */
	const char *context;            /* NULL: current-context */
	int64_t page_size;              /* pods per list page, default 500 */
	int64_t kube_timeout_ms;        /* default 30000 */
	char *nm_selector;              /* "key=value", owned */
};

/* Load path (NULL: defaults only) into *c.  Unknown fields are appended to
 * warnings (array of strings) when not NULL.  Returns 0, or -1 with e set
 * (ERR_INPUT "<file>:<line>:<col>: <field>: ..." or a read error).  Release
 * with sync_config_release() in every case. */
int sync_config_load(struct sync_config *c, const char *path, json_t *warnings, struct err *e);

/* Free what *c holds (safe on a zeroed or failed struct). */
void sync_config_release(struct sync_config *c);

/* The configured cluster with this id, or NULL (borrowed). */
struct yarn_cluster *sync_config_cluster(struct sync_config *c, const char *id);

#endif
