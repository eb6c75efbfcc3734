/* SPDX-License-Identifier: Apache-2.0 */
/* syncconfig - kilo-sync's configuration (`--config FILE`, YAML or JSON).
 *
 *   clusters:                    # YARN clusters (the NodeManager pod's
 *     - id: default              # yarn.hadoop.apache.org/cluster-id picks one;
 *       rmUrls: [http://rm-0:8088, http://rm-1:8088]   # absent -> "default")
 *       userName: yarn           # ?user.name= (simple auth), optional
 *       auth: simple             # or kerberos: SPNEGO to the RMs, the rmadmin
 *                                # fallback with the same ticket (no userName)
 *       keytab: /etc/kilo/krb5.keytab    # kerberos: tickets from this keytab
 *       principal: kilo/host@REALM       # (both or neither: without them the
 *                                # operator's cache, KRB5CCNAME, is used; one
 *                                # keytab and principal for every cluster)
 *       timeoutMs: 10000         # per request, default 10000
 *       confirmTimeoutMs: 10000  # how long after a resize the RM must list
 *                                # the new total for it to count as updated
 *       tls: {caFile: F, certFile: F, keyFile: F, insecureSkipVerify: false}
 *       rmadmin: {command: /opt/hadoop/bin/yarn, timeoutMs: 60000}
 *                                # fallback when the RM lacks the REST resize
 *       exclude: {file: /etc/hadoop/yarn.exclude}  # lifecycle.drain decommission:
 *                                # the RM's exclude list, or {configMap: {namespace,
 *                                # name, key: yarn.exclude}} mounted into the RM pod
 *   batchResources: {cpu: kubernetes.io/batch-cpu, memory: kubernetes.io/batch-memory}
 *   nodeManagerSelector: app.kubernetes.io/component=node-manager
 *   nodeManagerNamespaces: [hadoop-yarn]  # NodeManager pods only from these
 *   podLabelSelector: ""         # list only these pods (fewer pods listed
 *                                # means a smaller request sum: use with care)
 *   overCommitTimeoutMs: -1      # sent with every resize; >= 0 lets the RM
 *                                # preempt containers after that many ms
 *                                # (must stay -1 with lifecycle on: the RM
 *                                # never disarms a timeout once sent)
 *   reservation: {cpuMilli: 0, memoryBytes: 0, percent: 0}
 *   kubernetes: {kubeconfig: "", context: "", pageSize: 500, timeoutMs: 30000,
 *                maxPages: 2000}  # a listing with more pages is not complete
 *   passTimeoutMs: 120000        # gathering past this writes nothing (exit 75)
 *   damping:                     # off when absent; present: on (enabled: true)
 *     maxIncrease: {vCores: 4, memoryMB: 8192, percent: 25}
 *                                # a rise per pass of at most the larger of
 *                                # these (percent of the RM's current total)
 *     deadband: {vCores: 1, memoryMB: 1024}   # a rise of at most this: not sent
 *   lifecycle:                   # off when absent; present: on (enabled: true)
 *     min: {vCores: 1, memoryMB: 1024}          # Batch below this: drain
 *     returnMargin: {vCores: 1, memoryMB: 1024} # back at min + this
 *     holdDownMs: 300000         # below min this long before draining
 *     holdUpMs: 600000           # above min + margin this long before returning
 *     drainTimeoutMs: 3600000    # containers still running after this: stuck
 *     nodeLabel: ""              # "key=value" the NodeManager DaemonSet selects
 *                                # on: removed once offline, set on return
 *     drain: resize              # or decommission: YARN's graceful decommission
 *                                # (clusters[].exclude, rmadmin; nodeLabel needed)
 *     decommissionTimeoutSeconds: 3600   # rmadmin -refreshNodes -g T -server
 *
 * Every field is optional; the defaults are shown.  An unknown field, at
 * any level, is an error (config_fields() CONFIG_STRICT: the file is kilo's
 * own, a misspelt field would silently be its default), naming the nearest
 * known field; so is a Kubernetes object (apiVersion and kind) in place of
 * the file, the ConfigMap that carries it included.
 */
#ifndef KILO_SYNCCONFIG_H
#define KILO_SYNCCONFIG_H

#include <jansson.h>

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/err.h"

/* damping: increases of a node's total ramp (decide/syncplanner.h); off
 * unless enabled.  Decreases always apply at once, in full. */
struct sync_damping {
	int enabled;
	int64_t max_increase_vcores;    /* maxIncrease.vCores: a rise per pass of at most */
	int64_t max_increase_memory_mb; /* maxIncrease.memoryMB */
	int64_t max_increase_percent;   /* maxIncrease.percent of the current total, if larger */
	int64_t deadband_vcores;        /* deadband.vCores: a rise of at most this is not sent */
	int64_t deadband_memory_mb;     /* deadband.memoryMB */
};

/* lifecycle: a node's NodeManager leaves YARN when its Batch pool is gone
 * and comes back when it returns (decide/lifecycle.h; issue "NodeManager
 * lifecycle", slice b).  Off unless enabled. */
struct sync_lifecycle {
	int enabled;
	int64_t min_vcores;       /* min.vCores: below this the node drains, default 1 */
	int64_t min_memory_mb;    /* min.memoryMB, default 1024 (YARN's minimum allocation) */
	int64_t margin_vcores;    /* returnMargin.vCores: back at min + this, default 1 */
	int64_t margin_memory_mb; /* returnMargin.memoryMB, default 1024 */
	int64_t hold_down_ms;     /* holdDownMs: below min this long to drain, default 300000 */
	int64_t hold_up_ms;       /* holdUpMs: above min + margin this long to return, 600000 */
	int64_t drain_timeout_ms; /* drainTimeoutMs: containers left after it: stuck, 3600000 */
	const char *label_key;    /* nodeLabel "key=value": removed offline, set on return; */
	const char *label_value;  /* NULL key: no label is touched */
	int decommission;         /* drain: decommission (1) or resize (0, the default) */
	int64_t decommission_timeout_s; /* decommissionTimeoutSeconds: rmadmin -refreshNodes -g */
};

/* The planner's options (decide/syncplanner.h reads them). */
struct sync_options {
	const char *batch_cpu;    /* resource name, default kubernetes.io/batch-cpu (milli-cores) */
	const char *batch_memory; /* default kubernetes.io/batch-memory (bytes) */
	const char *nm_label_key; /* default app.kubernetes.io/component */
	const char *nm_label_value;       /* default node-manager */
	const char *const *nm_namespaces; /* NULL-terminated; default {hadoop-yarn} */
	int64_t over_commit_timeout_ms;   /* sent with every resize; default -1 (never kill) */
	int64_t reserve_cpu_milli;        /* fixed reservation off the pool, default 0 */
	int64_t reserve_memory_bytes;     /* default 0 */
	int reserve_percent;              /* percent of the origin pool, 0..100, default 0 */
	struct sync_damping damping;      /* default off */
	struct sync_lifecycle lifecycle;  /* default off */
};

/* Fill *o with the defaults above. */
void sync_options_defaults(struct sync_options *o);

/* One YARN cluster as configured (clusters[]).  Strings borrow from the
 * loaded document; rm_urls is owned by the sync_config.  The RM client
 * (remote/yarn.h) is made from it by run/syncrun.h's sync_rms_init(). */
struct sync_cluster {
	const char *id;
	const char *const *rm_urls; /* rmUrls, n_rm >= 1 */
	size_t n_rm;
	const char *user_name;      /* userName, or NULL */
	int kerberos;               /* auth: kerberos (1) or simple (0, the default) */
	const char *keytab;         /* keytab: absolute path, or NULL (the operator's cache) */
	const char *principal;      /* principal: with keytab, NULL without */
	int64_t timeout_ms;         /* timeoutMs */
	int64_t confirm_timeout_ms; /* confirmTimeoutMs */
	const char *ca_file;        /* tls.caFile, or NULL */
	const char *cert_file;      /* tls.certFile, or NULL */
	const char *key_file;       /* tls.keyFile, or NULL */
	int insecure_skip_verify;   /* tls.insecureSkipVerify */
	const char *rmadmin;        /* rmadmin.command, or NULL */
	int64_t rmadmin_timeout_ms; /* rmadmin.timeoutMs */
	const char *exclude_file;   /* exclude.file: the RM's exclude list, or NULL */
	const char *exclude_cm_namespace, *exclude_cm_name; /* exclude.configMap, or NULL */
	const char *exclude_cm_key;                         /* its data key (yarn.exclude) */
};

struct sync_config {
	struct config file;          /* the loaded document; strings below borrow from it */
	struct sync_options options; /* the planner's options */
	struct sync_cluster *clusters;
	size_t nclusters;
	const char *pod_label_selector; /* NULL: every pod */
	const char *kubeconfig;         /* NULL: in-cluster, KUBECONFIG, ~/.kube/config */
	const char *context;            /* NULL: current-context */
	int64_t page_size;              /* pods per list page, default 500 */
	int64_t kube_timeout_ms;        /* default 30000 */
	int64_t max_pages;       /* kubernetes.maxPages: pages of one listing, default 2000 */
	int64_t pass_timeout_ms; /* passTimeoutMs: the whole gathering, default 120000 */
	char *nm_selector;       /* "key=value", owned */
	char *lc_label;          /* lifecycle.nodeLabel "key=value", owned */
	const char **nm_ns;      /* nodeManagerNamespaces, owned array (strings borrowed) */
};

/* Load path (NULL: defaults only) into *c.  Returns 0, or -1 with e set:
 * ERR_INPUT "<file>:<line>:<col>: <field>: ..." (a bad value, an unknown
 * field: "clusters[0].rmUrl: unknown field (did you mean rmUrls?)", a
 * Kubernetes object) or a read error.  No cluster is not an error here: an
 * offline plan needs none (kilo-sync refuses a live pass without one).
 * Release with sync_config_release() in every case. */
int sync_config_load(struct sync_config *c, const char *path, struct err *e);

/* Free what *c holds (safe on a zeroed or failed struct). */
void sync_config_release(struct sync_config *c);

/* The configured cluster with this id, or NULL (borrowed). */
const struct sync_cluster *sync_config_cluster(const struct sync_config *c, const char *id);

#endif
