// SPDX-License-Identifier: Apache-2.0
/* syncconfig - kilo-sync's --config file (see syncconfig.h) */
#include "doc/syncconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"

static const char *const default_nm_namespaces[] = { "hadoop-yarn", NULL };

void sync_options_defaults(struct sync_options *o)
{
	memset(o, 0, sizeof(*o));
	o->batch_cpu = "kubernetes.io/batch-cpu";
	o->batch_memory = "kubernetes.io/batch-memory";
	o->nm_label_key = "app.kubernetes.io/component";
	o->nm_label_value = "node-manager";
	o->nm_namespaces = default_nm_namespaces;
	o->over_commit_timeout_ms = -1;
}

static int dns_label(const char *s);

/* 1 for a Kerberos principal name as kilo takes it: non-empty, no blank or
 * control character, neither an empty name ("@R") nor an empty realm
 * ("kilo/sync@") (MIT's krb5_parse_name rules the rest). */
static int principal_name(const char *s)
{
	size_t n = strlen(s);

	if (!*s || *s == '@' || (s[n - 1] == '@' && (n < 2 || s[n - 2] != '\\')))
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/* 1 for a path without a control character. */
static int plain_path(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/* auth: kerberos and its keytab and principal (remote/http_auth.h): a
 * userName is pseudo authentication, which a secure RM ignores; a keytab
 * names the identity its principal picks; the Kerberos environment is the
 * process's, so every cluster with a keytab names the same one. */
static int load_kerberos(struct sync_config *sc, const json_t *obj, size_t i, const char *ctx,
			 struct err *e)
{
	const struct config *c = &sc->file;
	const struct sync_cluster *y = &sc->clusters[i];

	if (!y->kerberos && (y->keytab || y->principal))
		return config_reject(c, obj, ctx, y->keytab ? "keytab" : "principal",
				     "no keytab or principal with auth simple (set auth: kerberos)",
				     e);
	if (y->kerberos && y->user_name)
		return config_reject(c, obj, ctx, "userName",
				     "no userName with auth: kerberos (the ticket names the user)",
				     e);
	if (y->keytab && (y->keytab[0] != '/' || !plain_path(y->keytab)))
		return config_reject(c, obj, ctx, "keytab", "an absolute path", e);
	if (!y->keytab != !y->principal)
		return config_reject(c, obj, ctx, y->keytab ? "principal" : "keytab",
				     y->keytab ? "the principal whose key the keytab holds"
					       : "a keytab with the principal (without both, the "
						 "operator's credential cache is used)",
				     e);
	if (y->principal && !principal_name(y->principal))
		return config_reject(c, obj, ctx, "principal", "a Kerberos principal name", e);
	for (size_t k = 0; y->kerberos && k < i; k++) {
		const struct sync_cluster *o = &sc->clusters[k];

		if (!o->kerberos)
			continue;
		if ((o->keytab || y->keytab) &&
		    (!o->keytab || !y->keytab || strcmp(o->keytab, y->keytab) != 0 ||
		     strcmp(o->principal, y->principal) != 0))
			return config_reject(c, obj, ctx, y->keytab ? "keytab" : "auth",
					     "the keytab and principal of every other kerberos "
					     "cluster (one Kerberos identity per process)",
					     e);
	}
	return 0;
}

static int load_cluster(struct sync_config *sc, const json_t *obj, size_t i, struct err *e)
{
	static const char *const known[] = { "id",     "rmUrls",    "userName",  "auth",
					     "keytab", "principal", "timeoutMs", "confirmTimeoutMs",
					     "tls",    "rmadmin",   "exclude",   NULL };
	static const char *const auth_choices[] = { "simple", "kerberos", NULL };
	static const char *const exclude_known[] = { "file", "configMap", NULL };
	static const char *const cm_known[] = { "namespace", "name", "key", NULL };
	static const char *const tls_known[] = { "caFile", "certFile", "keyFile",
						 "insecureSkipVerify", NULL };
	static const char *const rmadmin_known[] = { "command", "timeoutMs", NULL };
	const struct config *c = &sc->file;
	struct sync_cluster *y = &sc->clusters[i];
	json_t *urls = NULL, *tls = NULL, *rmadmin = NULL, *exclude = NULL, *cm = NULL, *u;
	const char **list;
	char ctx[64], sub[96];
	size_t j;

	snprintf(ctx, sizeof(ctx), "clusters[%zu]", i);
	if (!json_is_object(obj))
		return config_reject(c, json_object_get(c->root, "clusters"), "", "clusters",
				     "a list of mappings", e);
	if (config_fields(c, obj, ctx, known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_str(c, obj, ctx, "id", NULL, &y->id, e) < 0 ||
	    config_str(c, obj, ctx, "userName", NULL, &y->user_name, e) < 0 ||
	    config_enum(c, obj, ctx, "auth", auth_choices, 0, &y->kerberos, e) < 0 ||
	    config_str(c, obj, ctx, "keytab", NULL, &y->keytab, e) < 0 ||
	    config_str(c, obj, ctx, "principal", NULL, &y->principal, e) < 0 ||
	    config_int(c, obj, ctx, "timeoutMs", 10000, 1, 3600000, &y->timeout_ms, e) < 0 ||
	    config_int(c, obj, ctx, "confirmTimeoutMs", 10000, 0, 3600000, &y->confirm_timeout_ms,
		       e) < 0 ||
	    config_obj(c, obj, ctx, "tls", &tls, e) < 0 ||
	    config_obj(c, obj, ctx, "rmadmin", &rmadmin, e) < 0 ||
	    config_obj(c, obj, ctx, "exclude", &exclude, e) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.tls", ctx);
	if (config_fields(c, tls, sub, tls_known, NULL, CONFIG_STRICT, NULL, e) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.rmadmin", ctx);
	if (config_fields(c, rmadmin, sub, rmadmin_known, NULL, CONFIG_STRICT, NULL, e) < 0)
		return -1;
	if (!y->id || !*y->id)
		return config_reject(c, obj, ctx, "id", "a cluster id", e);
	for (size_t k = 0; k < i; k++)
		if (strcmp(sc->clusters[k].id, y->id) == 0)
			return config_reject(c, obj, ctx, "id",
					     "an id not used by an earlier cluster", e);
	if (load_kerberos(sc, obj, i, ctx, e) < 0)
		return -1;
	urls = json_object_get(obj, "rmUrls");
	if (!json_is_array(urls) || json_array_size(urls) == 0)
		return config_reject(c, obj, ctx, "rmUrls", "a list of RM web addresses", e);
	list = xcalloc(json_array_size(urls), sizeof(*list));
	y->rm_urls = list;
	y->n_rm = json_array_size(urls);
	json_array_foreach(urls, j, u)
	{
		const char *s = json_string_value(u);

		/* a query or fragment would end up inside every REST path
		 * (rm_url + "/ws/v1/..."): a 404 that names no URL */
		int query = s && strpbrk(s, "?#");

		if (!s || query ||
		    (strncmp(s, "http://", 7) != 0 && strncmp(s, "https://", 8) != 0)) {
			const char *what = query ? "an http:// or https:// URL without a query or "
						   "fragment (the user goes in userName)"
						 : "an http:// or https:// URL";

			snprintf(sub, sizeof(sub), "%s.rmUrls", ctx);
			if (s && strchr(s, '@')) /* userinfo: a password is never shown */
				err_set(e, ERR_INPUT, 0,
					"%s: expected %s (value not shown: it holds an '@', "
					"perhaps a password)",
					sub, what);
			else
				jsonio_bad_value(e, sub, NULL, what, u);
			long line, col;

			if (config_where(c, u, &line, &col) == 0)
				return err_wrap(e, "%s:%ld:%ld", c->name, line, col);
			return -1;
		}
		list[j] = s;
	}
	snprintf(sub, sizeof(sub), "%s.tls", ctx);
	if (config_str(c, tls, sub, "caFile", NULL, &y->ca_file, e) < 0 ||
	    config_str(c, tls, sub, "certFile", NULL, &y->cert_file, e) < 0 ||
	    config_str(c, tls, sub, "keyFile", NULL, &y->key_file, e) < 0 ||
	    config_bool(c, tls, sub, "insecureSkipVerify", 0, &y->insecure_skip_verify, e) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.rmadmin", ctx);
	if (config_str(c, rmadmin, sub, "command", NULL, &y->rmadmin, e) < 0 ||
	    config_int(c, rmadmin, sub, "timeoutMs", 60000, 1, 3600000, &y->rmadmin_timeout_ms, e) <
		    0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.exclude", ctx);
	if (config_fields(c, exclude, sub, exclude_known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_str(c, exclude, sub, "file", NULL, &y->exclude_file, e) < 0 ||
	    config_obj(c, exclude, sub, "configMap", &cm, e) < 0)
		return -1;
	if (exclude && !y->exclude_file == !cm)
		return config_reject(
			c, obj, ctx, "exclude",
			"either file (the RM's yarn.resourcemanager.nodes.exclude-path) "
			"or configMap",
			e);
	if (y->exclude_file && (!*y->exclude_file || y->exclude_file[0] != '/'))
		return config_reject(c, exclude, sub, "file", "an absolute path", e);
	if (y->exclude_file && strlen(y->exclude_file) > 4 &&
	    strcmp(y->exclude_file + strlen(y->exclude_file) - 4, ".xml") == 0)
		return config_reject(c, exclude, sub, "file",
				     "the plain host list (the RM reads a name ending in .xml as "
				     "its XML form, which kilo does not edit)",
				     e);
	snprintf(sub, sizeof(sub), "%s.exclude.configMap", ctx);
	if (config_fields(c, cm, sub, cm_known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_str(c, cm, sub, "namespace", NULL, &y->exclude_cm_namespace, e) < 0 ||
	    config_str(c, cm, sub, "name", NULL, &y->exclude_cm_name, e) < 0 ||
	    config_str(c, cm, sub, "key", "yarn.exclude", &y->exclude_cm_key, e) < 0)
		return -1;
	if (cm && (!y->exclude_cm_namespace || !dns_label(y->exclude_cm_namespace)))
		return config_reject(c, cm, sub, "namespace", "a namespace name", e);
	if (cm && (!y->exclude_cm_name || !*y->exclude_cm_name || strchr(y->exclude_cm_name, '/')))
		return config_reject(c, cm, sub, "name", "a ConfigMap name", e);
	if (cm && (!*y->exclude_cm_key || strchr(y->exclude_cm_key, '/') ||
		   (strlen(y->exclude_cm_key) > 4 &&
		    strcmp(y->exclude_cm_key + strlen(y->exclude_cm_key) - 4, ".xml") == 0)))
		return config_reject(c, cm, sub, "key",
				     "a key of the ConfigMap's data naming a plain host list", e);
	return 0;
}

/* 1 for a Kubernetes namespace name: a DNS-1123 label (RFC 1123: lower-case
 * letters, digits and '-', at most 63, alphanumeric at both ends). */
static int dns_label(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

/* nodeManagerNamespaces: a non-empty list of namespace names. */
static int load_nm_namespaces(struct sync_config *sc, struct err *e)
{
	const struct config *c = &sc->file;
	json_t *list = json_object_get(c->root, "nodeManagerNamespaces"), *v;
	size_t i;

	if (!list)
		return 0;
	if (!json_is_array(list) || json_array_size(list) == 0)
		return config_reject(c, c->root, "", "nodeManagerNamespaces",
				     "a non-empty list of namespaces", e);
	sc->nm_ns = xcalloc(json_array_size(list) + 1, sizeof(*sc->nm_ns));
	json_array_foreach(list, i, v)
	{
		const char *s = json_string_value(v);

		if (!s || !dns_label(s)) {
			long line, col;

			jsonio_bad_value(e, "nodeManagerNamespaces", NULL, "a namespace name", v);
			if (config_where(c, v, &line, &col) == 0)
				return err_wrap(e, "%s:%ld:%ld", c->name, line, col);
			return -1;
		}
		sc->nm_ns[i] = s;
	}
	sc->options.nm_namespaces = sc->nm_ns;
	return 0;
}

/* damping: {enabled, maxIncrease: {vCores, memoryMB, percent}, deadband:
 * {vCores, memoryMB}}; present means on (unless enabled: false), every
 * figure defaulting to the recommended one (issue "NodeManager
 * lifecycle": 4 vCores / 8 GiB or 25%, deadband 1 vCore / 1 GiB). */
static int load_damping(struct sync_config *sc, struct err *e)
{
	static const char *const known[] = { "enabled", "maxIncrease", "deadband", NULL };
	static const char *const inc_known[] = { "vCores", "memoryMB", "percent", NULL };
	static const char *const band_known[] = { "vCores", "memoryMB", NULL };
	const struct config *c = &sc->file;
	struct sync_damping *d = &sc->options.damping;
	json_t *damp = NULL, *inc = NULL, *band = NULL;
	int on = 0;

	if (config_obj(c, c->root, "", "damping", &damp, e) < 0)
		return -1;
	if (!damp)
		return 0;
	if (config_fields(c, damp, "damping", known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_bool(c, damp, "damping", "enabled", 1, &on, e) < 0 ||
	    config_obj(c, damp, "damping", "maxIncrease", &inc, e) < 0 ||
	    config_obj(c, damp, "damping", "deadband", &band, e) < 0 ||
	    config_fields(c, inc, "damping.maxIncrease", inc_known, NULL, CONFIG_STRICT, NULL, e) <
		    0 ||
	    config_fields(c, band, "damping.deadband", band_known, NULL, CONFIG_STRICT, NULL, e) <
		    0 ||
	    config_int(c, inc, "damping.maxIncrease", "vCores", 4, 1, INT32_MAX,
		       &d->max_increase_vcores, e) < 0 ||
	    config_int(c, inc, "damping.maxIncrease", "memoryMB", 8192, 1, INT64_C(1) << 40,
		       &d->max_increase_memory_mb, e) < 0 ||
	    config_int(c, inc, "damping.maxIncrease", "percent", 25, 0, 1000,
		       &d->max_increase_percent, e) < 0 ||
	    config_int(c, band, "damping.deadband", "vCores", 1, 0, INT32_MAX, &d->deadband_vcores,
		       e) < 0 ||
	    config_int(c, band, "damping.deadband", "memoryMB", 1024, 0, INT64_C(1) << 40,
		       &d->deadband_memory_mb, e) < 0)
		return -1;
	d->enabled = on;
	return 0;
}

/* 1 when [s, end) has only the characters of a Kubernetes label key
 * (key: letters, digits, '.', '_', '-', one '/' after a DNS prefix) or
 * value (no '/', at most 63); empty only for a value. */
static int label_chars(const char *s, const char *end, int key)
{
	size_t n = (size_t)(end - s), slashes = 0;

	if ((key && n == 0) || (!key && n > 63))
		return 0;
	for (const char *p = s; p < end; p++) {
		if (*p == '/' && key && ++slashes == 1 && p > s && p + 1 < end)
			continue;
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			return 0;
	}
	return 1;
}

/* lifecycle: {enabled, min: {vCores, memoryMB}, returnMargin: {vCores,
 * memoryMB}, holdDownMs, holdUpMs, drainTimeoutMs, nodeLabel}; present
 * means on (unless enabled: false).  min defaults to one container of
 * YARN's default minimum allocation (yarn.scheduler.minimum-allocation-mb
 * 1024, -vcores 1). */
static int load_lifecycle(struct sync_config *sc, struct err *e)
{
	static const char *const known[] = { "enabled",    "min",      "returnMargin",
					     "holdDownMs", "holdUpMs", "drainTimeoutMs",
					     "nodeLabel",  "drain",    "decommissionTimeoutSeconds",
					     NULL };
	static const char *const drains[] = { "resize", "decommission", NULL };
	static const char *const res_known[] = { "vCores", "memoryMB", NULL };
	const struct config *c = &sc->file;
	struct sync_lifecycle *l = &sc->options.lifecycle;
	json_t *lc = NULL, *min = NULL, *margin = NULL;
	const char *label = NULL, *eq;
	int on = 0;

	if (config_obj(c, c->root, "", "lifecycle", &lc, e) < 0)
		return -1;
	if (!lc)
		return 0;
	if (config_fields(c, lc, "lifecycle", known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_bool(c, lc, "lifecycle", "enabled", 1, &on, e) < 0 ||
	    config_obj(c, lc, "lifecycle", "min", &min, e) < 0 ||
	    config_obj(c, lc, "lifecycle", "returnMargin", &margin, e) < 0 ||
	    config_fields(c, min, "lifecycle.min", res_known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_fields(c, margin, "lifecycle.returnMargin", res_known, NULL, CONFIG_STRICT, NULL,
			  e) < 0 ||
	    config_int(c, min, "lifecycle.min", "vCores", 1, 0, INT32_MAX, &l->min_vcores, e) < 0 ||
	    config_int(c, min, "lifecycle.min", "memoryMB", 1024, 0, INT64_C(1) << 40,
		       &l->min_memory_mb, e) < 0 ||
	    config_int(c, margin, "lifecycle.returnMargin", "vCores", 1, 0, INT32_MAX,
		       &l->margin_vcores, e) < 0 ||
	    config_int(c, margin, "lifecycle.returnMargin", "memoryMB", 1024, 0, INT64_C(1) << 40,
		       &l->margin_memory_mb, e) < 0 ||
	    config_int(c, lc, "lifecycle", "holdDownMs", 300000, 0, INT64_C(1) << 40,
		       &l->hold_down_ms, e) < 0 ||
	    config_int(c, lc, "lifecycle", "holdUpMs", 600000, 0, INT64_C(1) << 40, &l->hold_up_ms,
		       e) < 0 ||
	    config_int(c, lc, "lifecycle", "drainTimeoutMs", 3600000, 1000, INT64_C(1) << 40,
		       &l->drain_timeout_ms, e) < 0 ||
	    config_str(c, lc, "lifecycle", "nodeLabel", NULL, &label, e) < 0 ||
	    config_enum(c, lc, "lifecycle", "drain", drains, 0, &l->decommission, e) < 0 ||
	    config_int(c, lc, "lifecycle", "decommissionTimeoutSeconds", 3600, 1, INT32_MAX,
		       &l->decommission_timeout_s, e) < 0)
		return -1;
	if (l->min_vcores == 0 && l->min_memory_mb == 0)
		return config_reject(c, lc, "lifecycle", "min",
				     "at least 1 vCore or 1 MB (a pool of 0/0 never drains)", e);
	if (l->margin_vcores == 0 && l->margin_memory_mb == 0)
		return config_reject(c, lc, "lifecycle", "returnMargin",
				     "at least 1 vCore or 1 MB (else a node flaps at min)", e);
	if (label && *label) {
		eq = strchr(label, '=');
		if (!eq || eq == label || strchr(eq + 1, '=') || !label_chars(label, eq, 1) ||
		    !label_chars(eq + 1, eq + strlen(eq), 0))
			return config_reject(c, lc, "lifecycle", "nodeLabel",
					     "one label as key=value (the NodeManager DaemonSet's "
					     "nodeSelector)",
					     e);
		sc->lc_label = xstrdup(label);
		sc->lc_label[eq - label] = '\0';
		l->label_key = sc->lc_label;
		l->label_value = sc->lc_label + (eq - label) + 1;
	}
	/* The RM never disarms an overcommit timeout once a resize carried one
	 * (3.4.2's SchedulerNode.setOvercommitTimeOut ignores a negative one and
	 * nothing else resets it until the NodeManager registers again): after
	 * any resize with a timeout >= 0, the drain's 0/0 with -1 preempts the
	 * running containers at the next heartbeat (test/hadoop/tests/lifecycle.sh). */
	if (on && sc->options.over_commit_timeout_ms >= 0)
		return config_reject(c, c->root, "", "overCommitTimeoutMs",
				     "-1 with lifecycle on (the RM never disarms a timeout once a "
				     "resize carried one: a later -1 is ignored, so a drain at 0/0 "
				     "would preempt the running containers; after setting -1, "
				     "restart the NodeManagers that got a timeout once)",
				     e);
	l->enabled = on;
	return 0;
}

/* lifecycle.drain decommission needs the label (a DECOMMISSIONED
 * NodeManager exits; a DaemonSet would restart it into SHUTDOWN forever)
 * and, per cluster, the exclude list and the rmadmin command that refreshes
 * it. */
static int check_decommission(const struct sync_config *sc, struct err *e)
{
	const struct config *c = &sc->file;
	const struct sync_lifecycle *l = &sc->options.lifecycle;
	json_t *lc = json_object_get(c->root, "lifecycle");
	char ctx[64];

	if (!l->enabled || !l->decommission)
		return 0;
	if (!l->label_key)
		return config_reject(c, lc, "lifecycle", "drain",
				     "resize, or decommission with lifecycle.nodeLabel (a "
				     "decommissioned NodeManager exits; its DaemonSet must not "
				     "restart it)",
				     e);
	for (size_t i = 0; i < sc->nclusters; i++) {
		const struct sync_cluster *y = &sc->clusters[i];
		json_t *obj = json_array_get(json_object_get(c->root, "clusters"), i);

		snprintf(ctx, sizeof(ctx), "clusters[%zu]", i);
		if (!y->exclude_file && !y->exclude_cm_name)
			return config_reject(c, obj, ctx, "exclude",
					     "the RM's exclude list, exclude: {file: PATH} or "
					     "exclude: {configMap: {namespace: NS, name: NAME}} "
					     "(lifecycle.drain is decommission)",
					     e);
		if (!y->rmadmin)
			return config_reject(
				c, obj, ctx, "rmadmin",
				"rmadmin: {command: /opt/hadoop/bin/yarn}, the yarn "
				"command that runs rmadmin -refreshNodes (lifecycle.drain "
				"is decommission)",
				e);
	}
	return 0;
}

int sync_config_load(struct sync_config *sc, const char *path, struct err *e)
{
	static const char *const known[] = {
		"clusters",         "batchResources",      "nodeManagerSelector",
		"podLabelSelector", "overCommitTimeoutMs", "reservation",
		"kubernetes",       "passTimeoutMs",       "nodeManagerNamespaces",
		"damping",          "lifecycle",           NULL
	};
	static const char *const res_known[] = { "cpu", "memory", NULL };
	static const char *const rsv_known[] = { "cpuMilli", "memoryBytes", "percent", NULL };
	static const char *const kube_known[] = { "kubeconfig", "context",  "pageSize",
						  "timeoutMs",  "maxPages", NULL };
	struct config *c = &sc->file;
	struct sync_options *o = &sc->options;
	json_t *res = NULL, *rsv = NULL, *kube = NULL, *clusters, *cl;
	const char *sel = NULL, *eq;
	int64_t pct = 0;
	size_t i;

	memset(sc, 0, sizeof(*sc));
	sync_options_defaults(o);
	sc->page_size = 500;
	sc->kube_timeout_ms = 30000;
	sc->max_pages = 2000;
	sc->pass_timeout_ms = 120000;
	if (path) {
		if (config_load(c, path, e) < 0)
			return -1;
	} else if (config_load_string(c, "{}", "(defaults)", e) < 0) {
		return -1;
	}
	/* the manifest, not the file it carries: every field would be unknown
	 * and no cluster named */
	if (path && json_is_string(json_object_get(c->root, "kind")) &&
	    strcmp(json_string_value(json_object_get(c->root, "kind")), "ConfigMap") == 0)
		return err_set(
			e, ERR_INPUT, 0,
			"%s: kind: a ConfigMap, not kilo-sync's config: give the file in its "
			"data (key sync.yaml, which the kilo-sync pod mounts as "
			"/etc/kilo/sync.yaml); e.g. kubectl -n kilo-system get configmap "
			"kilo-sync -o jsonpath='{.data.sync\\.yaml}' >sync.yaml",
			path);
	/* another Kubernetes object: every field would be unknown */
	if (path && json_is_string(json_object_get(c->root, "apiVersion")) &&
	    json_is_string(json_object_get(c->root, "kind")))
		return config_reject(c, c->root, "", "kind",
				     "kilo-sync's config (clusters:, batchResources:, ...), not a "
				     "Kubernetes object: that is the sync.yaml in the data of the "
				     "ConfigMap kilo-sync (manifests/kilo/kilo-sync-config.yaml)",
				     e);
	if (config_fields(c, c->root, "", known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_obj(c, c->root, "", "batchResources", &res, e) < 0 ||
	    config_obj(c, c->root, "", "reservation", &rsv, e) < 0 ||
	    config_obj(c, c->root, "", "kubernetes", &kube, e) < 0 ||
	    config_fields(c, res, "batchResources", res_known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_fields(c, rsv, "reservation", rsv_known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_fields(c, kube, "kubernetes", kube_known, NULL, CONFIG_STRICT, NULL, e) < 0 ||
	    config_str(c, res, "batchResources", "cpu", o->batch_cpu, &o->batch_cpu, e) < 0 ||
	    config_str(c, res, "batchResources", "memory", o->batch_memory, &o->batch_memory, e) <
		    0 ||
	    config_str(c, c->root, "", "nodeManagerSelector", NULL, &sel, e) < 0 ||
	    config_str(c, c->root, "", "podLabelSelector", NULL, &sc->pod_label_selector, e) < 0 ||
	    config_int(c, c->root, "", "overCommitTimeoutMs", -1, -1, INT32_MAX,
		       &o->over_commit_timeout_ms, e) < 0 ||
	    config_int(c, rsv, "reservation", "cpuMilli", 0, 0, INT64_C(1) << 40,
		       &o->reserve_cpu_milli, e) < 0 ||
	    config_int(c, rsv, "reservation", "memoryBytes", 0, 0, INT64_C(1) << 56,
		       &o->reserve_memory_bytes, e) < 0 ||
	    config_int(c, rsv, "reservation", "percent", 0, 0, 100, &pct, e) < 0 ||
	    config_str(c, kube, "kubernetes", "kubeconfig", NULL, &sc->kubeconfig, e) < 0 ||
	    config_str(c, kube, "kubernetes", "context", NULL, &sc->context, e) < 0 ||
	    config_int(c, kube, "kubernetes", "pageSize", 500, 1, 100000, &sc->page_size, e) < 0 ||
	    config_int(c, kube, "kubernetes", "timeoutMs", 30000, 1, 3600000, &sc->kube_timeout_ms,
		       e) < 0 ||
	    config_int(c, kube, "kubernetes", "maxPages", 2000, 1, 1000000, &sc->max_pages, e) <
		    0 ||
	    config_int(c, c->root, "", "passTimeoutMs", 120000, 1000, 86400000,
		       &sc->pass_timeout_ms, e) < 0)
		return -1;
	o->reserve_percent = (int)pct;
	if (sel) {
		eq = strchr(sel, '=');
		if (!eq || eq == sel || !eq[1] || strchr(eq + 1, '=') || strchr(sel, ','))
			return config_reject(c, c->root, "", "nodeManagerSelector",
					     "one label as key=value", e);
		sc->nm_selector = xstrdup(sel);
		sc->nm_selector[eq - sel] = '\0';
		o->nm_label_key = sc->nm_selector;
		o->nm_label_value = sc->nm_selector + (eq - sel) + 1;
	}
	if (load_nm_namespaces(sc, e) < 0 || load_damping(sc, e) < 0 || load_lifecycle(sc, e) < 0)
		return -1;
	clusters = json_object_get(c->root, "clusters");
	if (clusters && !json_is_array(clusters))
		return config_reject(c, c->root, "", "clusters", "a list of clusters", e);
	sc->clusters = xcalloc(json_array_size(clusters) + 1, sizeof(*sc->clusters));
	json_array_foreach(clusters, i, cl)
	{
		sc->nclusters = i + 1;
		if (load_cluster(sc, cl, i, e) < 0)
			return -1;
	}
	return check_decommission(sc, e);
}

void sync_config_release(struct sync_config *sc)
{
	for (size_t i = 0; i < sc->nclusters; i++)
		free((void *)sc->clusters[i].rm_urls);
	free(sc->clusters);
	free(sc->nm_selector);
	free(sc->lc_label);
	free(sc->nm_ns);
	config_release(&sc->file);
	memset(sc, 0, sizeof(*sc));
}

const struct sync_cluster *sync_config_cluster(const struct sync_config *sc, const char *id)
{
	for (size_t i = 0; i < sc->nclusters; i++)
		if (strcmp(sc->clusters[i].id, id) == 0)
			return &sc->clusters[i];
	return NULL;
}
