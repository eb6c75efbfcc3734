/* SPDX-License-Identifier: Apache-2.0 */
#include "run/synclife.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomicfile.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/xalloc.h"
#include "decide/lifecycle.h"
#include "doc/yarnhosts.h"
#include "remote/http.h"
#include "run/syncitem.h"

/* The part's decommission action: +1 exclude, -1 include, 0 none (absent). */
static int decommission_of(const json_t *part)
{
	const char *d = sync_item_str(part, "decommission");

	return !d ? 0 : strcmp(d, "exclude") == 0 ? 1 : strcmp(d, "include") == 0 ? -1 : 0;
}

static int check_decommission(const json_t *part, const char *sub, const struct sync_config *sc,
			      struct err *e)
{
	const json_t *d = json_object_get(part, "decommission"), *h;
	const struct sync_cluster *y;
	const char *host, *cluster;
	char hctx[120];

	if (!d)
		return 0;
	if (!sync_one_of(json_string_value(d),
			 (const char *const[]){ "exclude", "include", "none", NULL }))
		return jsonio_bad_value(e, sub, "decommission", "exclude, include or none", d);
	if (!decommission_of(part))
		return 0;
	if (!json_is_string(json_object_get(part, "basis")) &&
	    !json_is_null(json_object_get(part, "basis")))
		return jsonio_bad_value(e, sub, "basis",
					"the record the plan read (a string, or null) with a "
					"decommission action",
					json_object_get(part, "basis"));
	/* taking a host off the list is fine in any mode: kilo put it there
	 * while lifecycle.drain was decommission */
	if (!sc->options.lifecycle.decommission && decommission_of(part) > 0)
		return jsonio_bad_value(e, sub, "decommission",
					"none or include (lifecycle.drain is not decommission)", d);
	h = json_object_get(part, "decommissionHost");
	snprintf(hctx, sizeof(hctx), "%s.decommissionHost", sub);
	host = sync_item_str(h, "host");
	cluster = sync_item_str(h, "cluster");
	if (!json_is_object(h) || !host || !*host)
		return jsonio_bad_value(e, hctx, "host", "the host to exclude or include",
					json_object_get(h, "host"));
	y = cluster ? sync_config_cluster(sc, cluster) : NULL;
	if (!y || (!y->exclude_file && !y->exclude_cm_name) || !y->rmadmin)
		return jsonio_bad_value(
			e, hctx, "cluster",
			decommission_of(part) < 0
				? "a cluster with exclude and rmadmin configured (kilo put the host "
				  "on its exclude list in decommission mode: keep both configured "
				  "until it is off, or take it off by hand, run rmadmin "
				  "-refreshNodes and delete the node's kilo.sh/yarn-lifecycle)"
				: "a cluster of the configuration with exclude and rmadmin",
			json_object_get(h, "cluster"));
	return 0;
}

int sync_lifecycle_check(const json_t *item, const char *ctx, const struct sync_config *sc,
			 struct err *e)
{
	const struct sync_lifecycle *l = &sc->options.lifecycle;
	const json_t *part = json_object_get(item, "lifecycle");
	const char *action, *label, *item_action = sync_item_str(item, "action");
	struct lc_record r;
	char sub[80];
	int st;

	/* with lifecycle on, a resize says the node's state: one without it (a
	 * plan of a config without lifecycle, or edited) may open a held node */
	if (!part && l->enabled && item_action && strcmp(item_action, "update") == 0)
		return jsonio_bad_value(e, ctx, "lifecycle",
					"a lifecycle part (lifecycle is enabled in the config)",
					NULL);
	if (!part)
		return 0;
	snprintf(sub, sizeof(sub), "%s.lifecycle", ctx);
	if (!l->enabled)
		return jsonio_bad_value(
			e, ctx, "lifecycle",
			"no lifecycle part (lifecycle is not enabled in the config)", part);
	if (!json_is_object(part))
		return jsonio_bad_value(e, ctx, "lifecycle", "an object", part);
	action = sync_item_str(part, "action");
	label = sync_item_str(part, "label");
	if (!sync_one_of(action, (const char *const[]){ "record", "none", NULL }))
		return jsonio_bad_value(e, sub, "action", "record or none",
					json_object_get(part, "action"));
	if (!sync_one_of(label, (const char *const[]){ "set", "remove", "none", NULL }))
		return jsonio_bad_value(e, sub, "label", "set, remove or none",
					json_object_get(part, "label"));
	if (strcmp(label, "none") != 0 && !l->label_key)
		return jsonio_bad_value(e, sub, "label", "none (lifecycle.nodeLabel is not set)",
					json_object_get(part, "label"));
	if (strcmp(label, "none") != 0 && strcmp(action, "record") != 0)
		return jsonio_bad_value(e, sub, "label", "none when action is none",
					json_object_get(part, "label"));
	if (check_decommission(part, sub, sc, e) < 0)
		return -1;
	if (strcmp(action, "record") == 0) {
		const json_t *basis = json_object_get(part, "basis");

		if (lc_record_from_json(part, sub, &r, e) < 0)
			return -1;
		if (!json_is_string(basis) && !json_is_null(basis))
			return jsonio_bad_value(e, sub, "basis",
						"the record the plan read (a string, or null)",
						basis);
		st = (int)r.state;
	} else if ((st = lc_state_parse(sync_item_str(part, "state"))) < 0) {
		return jsonio_bad_value(e, sub, "state",
					"active, draining, stuck, offline or returning",
					json_object_get(part, "state"));
	}
	if ((st == LC_DRAINING || st == LC_STUCK || st == LC_OFFLINE) && item_action &&
	    strcmp(item_action, "update") == 0) {
		const json_t *t = json_object_get(item, "yarnTotal");
		const json_t *oct = json_object_get(item, "overCommitTimeoutMs");

		if (json_integer_value(json_object_get(t, "vCores")) != 0 ||
		    json_integer_value(json_object_get(t, "memoryMB")) != 0)
			return jsonio_bad_value(e, ctx, "yarnTotal",
						"0/0 for a node the lifecycle holds (draining, "
						"stuck, offline)",
						t);
		if (!json_is_integer(oct) || json_integer_value(oct) != -1)
			return jsonio_bad_value(e, ctx, "overCommitTimeoutMs",
						"-1 for a node the lifecycle holds (nothing is "
						"killed)",
						oct);
	}
	return 0;
}

int sync_lifecycle_resize_ok(struct k8s_client *kc, const json_t *item,
			     const struct sync_lifecycle *l, enum sync_reason *code, struct err *e)
{
	const json_t *t = json_object_get(item, "yarnTotal"),
		     *part = json_object_get(item, "lifecycle");
	const char *node = sync_item_str(item, "node"), *have,
		   *basis = sync_item_str(part, "basis");
	int record = sync_item_str(part, "action") &&
		     strcmp(sync_item_str(part, "action"), "record") == 0;
	json_auto_t *cur = NULL;
	struct lc_record r;
	struct err pe = { 0 };

	if (!l->enabled || !sync_item_str(item, "action") ||
	    strcmp(sync_item_str(item, "action"), "update") != 0 ||
	    (json_integer_value(json_object_get(t, "vCores")) == 0 &&
	     json_integer_value(json_object_get(t, "memoryMB")) == 0 &&
	     json_integer_value(json_object_get(item, "overCommitTimeoutMs")) == -1))
		return 0;
	if (!(cur = k8s_node_get(kc, node, e))) {
		*code = e->kind == ERR_NOTFOUND ? SYNC_R_NODE_NOT_FOUND
						: SYNC_R_KUBERNETES_UNREACHABLE;
		return -1;
	}
	have = sync_item_str(json_object_get(json_object_get(cur, "metadata"), "annotations"),
			     LC_ANNOTATION);
	if (!have || (record && basis && strcmp(have, basis) == 0))
		return 0; /* the record the plan decided on */
	if (lc_record_parse(have, LC_ANNOTATION, &r, &pe) < 0 ||
	    ((r.state == LC_DRAINING || r.state == LC_STUCK || r.state == LC_OFFLINE) &&
	     (record || lc_state_parse(sync_item_str(part, "state")) != (int)r.state))) {
		*code = SYNC_R_ANNOTATION_CONFLICT;
		return err_set(
			e, ERR_TEMP, 0,
			"node %s: its lifecycle record says %s now, not the plan's %s: not "
			"resized (the next pass decides from it)",
			node, pe.kind != ERR_NONE ? "something unreadable" : lc_state_name(r.state),
			sync_item_str(json_object_get(item, "lifecycle"), "state") ?: "state");
	}
	return 0;
}

int sync_lifecycle_basis_ok(struct k8s_client *kc, const char *node, const json_t *part,
			    enum sync_reason *code, struct err *e)
{
	json_auto_t *cur = NULL;
	const char *have, *basis = sync_item_str(part, "basis");

	if (!kc) {
		*code = SYNC_R_KUBERNETES_UNREACHABLE;
		return err_set(e, ERR_USAGE, 0, "no Kubernetes connection");
	}
	if (!(cur = k8s_node_get(kc, node, e))) {
		*code = e->kind == ERR_NOTFOUND ? SYNC_R_NODE_NOT_FOUND
						: SYNC_R_KUBERNETES_UNREACHABLE;
		return -1;
	}
	have = sync_item_str(json_object_get(json_object_get(cur, "metadata"), "annotations"),
			     LC_ANNOTATION);
	if (!have && !basis)
		return 0;
	if (have && basis && strcmp(have, basis) == 0)
		return 0;
	*code = SYNC_R_ANNOTATION_CONFLICT;
	return err_set(e, ERR_TEMP, 0,
		       "node %s: its lifecycle record changed since the plan read it: the "
		       "exclude list is not changed (the next pass decides from the new one)",
		       node);
}

/* 1 when node (a Node object) holds the record value and the label as the
 * action wants it. */
static int holds(const json_t *node, const char *value, const char *label,
		 const struct sync_lifecycle *l)
{
	const json_t *meta = json_object_get(node, "metadata");
	const char *have = sync_item_str(json_object_get(meta, "annotations"), LC_ANNOTATION);
	const char *lv = l->label_key ? sync_item_str(json_object_get(meta, "labels"), l->label_key)
				      : NULL;

	if (!have || strcmp(have, value) != 0)
		return 0;
	if (strcmp(label, "set") == 0)
		return lv && strcmp(lv, l->label_value) == 0;
	if (strcmp(label, "remove") == 0)
		return !lv;
	return 1;
}

static int write_once(struct k8s_client *kc, const char *node, const char *value, const char *basis,
		      const char *label, const struct sync_lifecycle *l, int *stale, struct err *e)
{
	json_auto_t *cur = k8s_node_get(kc, node, e);
	json_auto_t *patched = NULL, *ann = NULL, *labels = NULL;
	const char *rv, *have;

	if (!cur)
		return -1;
	if (holds(cur, value, label, l))
		return 0;
	have = sync_item_str(json_object_get(json_object_get(cur, "metadata"), "annotations"),
			     LC_ANNOTATION);
	if ((have || basis) && (!have || !basis || strcmp(have, basis) != 0)) {
		*stale = 1; /* someone else wrote (or deleted) it: theirs stands */
		return err_set(e, ERR_TEMP, 0,
			       "node %s: its lifecycle record changed since the plan read it: not "
			       "overwritten (the next pass decides from the new one)",
			       node);
	}
	if (strcmp(label, "none") != 0) {
		const json_t *lv = json_object_get(
			json_object_get(json_object_get(cur, "metadata"), "labels"), l->label_key);

		if (lv && !json_is_null(lv) &&
		    (!json_is_string(lv) || strcmp(json_string_value(lv), l->label_value) != 0)) {
			*stale = 1; /* another value is someone else's: it stands */
			return err_set(e, ERR_TEMP, 0,
				       "node %s: label %s has another value than %s: not %s", node,
				       l->label_key, l->label_value,
				       strcmp(label, "set") == 0 ? "overwritten" : "removed");
		}
	}
	rv = sync_item_str(json_object_get(cur, "metadata"), "resourceVersion");
	ann = json_pack("{s:s}", LC_ANNOTATION, value);
	if (strcmp(label, "set") == 0)
		labels = json_pack("{s:s}", l->label_key, l->label_value);
	else if (strcmp(label, "remove") == 0)
		labels = json_pack("{s:n}", l->label_key);
	if (!(patched = k8s_node_patch_metadata(kc, node, ann, labels, rv, e)))
		return -1;
	if (!holds(patched, value, label, l))
		return err_set(e, ERR_TEMP, 0,
			       "node %s: the API server's answer to the lifecycle patch does not "
			       "carry it (record or label %s)",
			       node, l->label_key ? l->label_key : "");
	return 1;
}

int sync_lifecycle_write(struct k8s_client *kc, const char *node, const json_t *part,
			 const struct sync_lifecycle *l, enum sync_reason *code, struct err *e)
{
	struct lc_record r;
	cleanup_free char *value = NULL;
	const char *label = sync_item_str(part, "label"), *basis = sync_item_str(part, "basis");
	int ret, stale = 0;

	if (lc_record_from_json(part, "lifecycle", &r, e) < 0) { /* checked already */
		*code = SYNC_R_INVALID_PLAN_ITEM;
		return -1;
	}
	value = lc_record_format(&r);
	ret = write_once(kc, node, value, basis, label, l, &stale, e);
	if (ret < 0 && !stale && kc->last_status == 409) {
		err_clear(e);
		ret = write_once(kc, node, value, basis, label, l, &stale, e);
	}
	if (ret < 0 && (stale || kc->last_status == 409)) {
		*code = SYNC_R_ANNOTATION_CONFLICT;
		return -1;
	}
	if (ret < 0)
		*code = e->kind == ERR_NOTFOUND ? SYNC_R_NODE_NOT_FOUND
			: e->kind == ERR_TEMP   ? SYNC_R_KUBERNETES_UNREACHABLE
						: SYNC_R_ANNOTATION_REFUSED;
	return ret;
}

/* The largest exclude list kilo edits. */
#define EXCLUDE_MAX (1 << 20)

/* The text of the exclude file at path ("" when it does not exist yet).
 * Opened without blocking and read only when it is a regular file: a FIFO
 * without a writer would block the pass for good, a device never ends. */
static char *read_exclude(const char *path, struct err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	char *buf;
	size_t n = 0;
	ssize_t r;

	if (fd < 0) {
		if (errno == ENOENT)
			return xstrdup("");
		err_set(e, ERR_SYSTEM, errno, "exclude list %s", path);
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		err_set(e, ERR_INPUT, 0, "exclude list %s: not a regular file", path);
		close(fd);
		return NULL;
	}
	buf = xmalloc(EXCLUDE_MAX + 1);
	while ((r = read(fd, buf + n, EXCLUDE_MAX + 1 - n)) > 0 && (n += (size_t)r) <= EXCLUDE_MAX)
		;
	close(fd);
	if (r < 0 || n > EXCLUDE_MAX) {
		free(buf);
		err_set(e, ERR_SYSTEM, r < 0 ? errno : 0, "exclude list %s%s", path,
			r < 0 ? "" : ": larger than 1 MiB");
		return NULL;
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		free(buf);
		err_set(e, ERR_INPUT, 0, "exclude list %s: holds a NUL byte", path);
		return NULL;
	}
	return buf;
}

static int edit_file(const char *path, const char *host, int add, struct err *e)
{
	cleanup_free char *cur = read_exclude(path, e), *next = NULL;
	int changed = 0;

	if (!cur)
		return -1;
	if (!(next = yarn_hosts_edit(cur, host, add, &changed, e)))
		return -1;
	return changed ? atomicfile_write(path, next, strlen(next), 0644, e) : 0;
}

/* The exclude.configMap (*cm, new reference) and its list (*cur, borrowed
 * from it; NULL when the key is absent); its API path in *path. */
static int configmap_get(const struct sync_cluster *cfg, struct k8s_client *kc, char **path,
			 json_t **cm, const char **cur, struct err *e)
{
	cleanup_free char *ns = http_escape(cfg->exclude_cm_namespace, 1);
	cleanup_free char *nm = http_escape(cfg->exclude_cm_name, 1);
	const json_t *data;

	*cm = NULL;
	*cur = NULL;
	*path = xasprintf("/api/v1/namespaces/%s/configmaps/%s", ns, nm);
	if (!kc)
		return err_set(e, ERR_USAGE, 0, "no Kubernetes connection");
	if (!(*cm = k8s_call(kc, HTTP_GET, *path, NULL, NULL, NULL, e)))
		return -1;
	data = json_object_get(*cm, "data");
	*cur = json_string_value(json_object_get(data, cfg->exclude_cm_key));
	if ((data && !json_is_object(data)) ||
	    (json_object_get(data, cfg->exclude_cm_key) && !*cur))
		return err_set(e, ERR_INPUT, 0, "ConfigMap %s/%s: data.%s is not a string",
			       cfg->exclude_cm_namespace, cfg->exclude_cm_name,
			       cfg->exclude_cm_key);
	if (*cur && strlen(*cur) > EXCLUDE_MAX)
		return err_set(e, ERR_INPUT, 0, "ConfigMap %s/%s: data.%s is larger than 1 MiB",
			       cfg->exclude_cm_namespace, cfg->exclude_cm_name,
			       cfg->exclude_cm_key);
	return 0;
}

int sync_lifecycle_claims(const json_t *part, const char *host)
{
	const char *basis = sync_item_str(part, "basis");
	struct lc_record r;
	struct err e = { 0 };

	return basis && host && lc_record_parse(basis, "basis", &r, &e) == 0 &&
	       strcasecmp(r.excluded_host, host) == 0;
}

int sync_exclude_listed(const struct sync_cluster *cfg, struct k8s_client *kc, const char *host,
			struct err *e)
{
	cleanup_free char *path = NULL, *text = NULL;
	json_auto_t *cm = NULL;
	const char *cur = NULL;

	if (cfg->exclude_file) {
		if (!(text = read_exclude(cfg->exclude_file, e)))
			return -1;
		cur = text;
	} else if (configmap_get(cfg, kc, &path, &cm, &cur, e) < 0) {
		return -1;
	}
	return yarn_hosts_has(cur, host);
}

static int edit_configmap(const struct sync_cluster *cfg, struct k8s_client *kc, const char *host,
			  int add, struct err *e)
{
	cleanup_free char *path = NULL;
	cleanup_free char *next = NULL;
	json_auto_t *cm = NULL, *patch = NULL, *done = NULL;
	const char *cur, *rv;
	int changed = 0;

	if (configmap_get(cfg, kc, &path, &cm, &cur, e) < 0)
		return -1;
	if (!(next = yarn_hosts_edit(cur, host, add, &changed, e)))
		return -1;
	if (!changed)
		return 0;
	rv = sync_item_str(json_object_get(cm, "metadata"), "resourceVersion");
	patch = json_pack("{s:{s:s},s:{}}", "data", cfg->exclude_cm_key, next, "metadata");
	if (rv)
		json_object_set_new(json_object_get(patch, "metadata"), "resourceVersion",
				    json_string(rv));
	done = k8s_call(kc, HTTP_PATCH, path, NULL, "application/merge-patch+json", patch, e);
	if (!done)
		return -1;
	cur = json_string_value(
		json_object_get(json_object_get(done, "data"), cfg->exclude_cm_key));
	if (!cur || strcmp(cur, next) != 0)
		return err_set(e, ERR_TEMP, 0,
			       "ConfigMap %s/%s: the API server's answer does not carry the new "
			       "data.%s",
			       cfg->exclude_cm_namespace, cfg->exclude_cm_name,
			       cfg->exclude_cm_key);
	return 0;
}

#define DECOMMISSION_POLL_MS 250

int sync_decommission(const struct sync_cluster *cfg, struct yarn_cluster *y, struct k8s_client *kc,
		      const char *host, int add, int64_t graceful_s, const char *node_id,
		      enum sync_reason *code, struct err *e)
{
	int64_t deadline;
	struct yarn_node n = { 0 };
	int ret;

	ret = cfg->exclude_file ? edit_file(cfg->exclude_file, host, add, e)
				: edit_configmap(cfg, kc, host, add, e);
	if (ret < 0) {
		*code = SYNC_R_EXCLUDE_LIST_FAILED;
		return -1;
	}
	if (yarn_refresh_nodes(y, graceful_s, e) < 0) {
		*code = SYNC_R_DECOMMISSION_FAILED;
		return -1;
	}
	if (!add || !node_id)
		return 0;
	deadline = clock_mono_ms() + cfg->confirm_timeout_ms;
	for (;;) {
		struct err re = { 0 };

		yarn_node_release(&n);
		if (yarn_node_get(y, node_id, &n, &re) == 0 &&
		    (strcmp(n.state, "DECOMMISSIONING") == 0 ||
		     yarn_node_state_inactive(n.state))) {
			yarn_node_release(&n);
			return 0;
		}
		if (clock_mono_ms() >= deadline) {
			*code = SYNC_R_DECOMMISSION_NOT_CONFIRMED;
			err_set(e, ERR_TEMP, 0,
				"rmadmin -refreshNodes exited 0, but the RM does not list %s "
				"DECOMMISSIONING after %lld ms (%s%s): is %s on its exclude list "
				"(yarn.resourcemanager.nodes.exclude-path)?",
				node_id, (long long)cfg->confirm_timeout_ms,
				re.kind != ERR_NONE ? "" : "state ",
				re.kind != ERR_NONE ? re.msg : (n.state ? n.state : "?"), host);
			yarn_node_release(&n);
			return -1;
		}
		clock_sleep_ms(DECOMMISSION_POLL_MS);
	}
}
