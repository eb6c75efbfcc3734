// SPDX-License-Identifier: Apache-2.0
/* nodeusage - the NodeUsage document (see nodeusage.h) */
#include "doc/nodeusage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "doc/cpuset.h"

#define U NODEUSAGE_UNKNOWN

static const char *const qos_names[NODEUSAGE_NQOS] = { "guaranteed", "burstable", "besteffort" };
static const char *const limit_names[2] = { "besteffort", "hadoopYarn" };
static const char *const scope_names[NODEUSAGE_NSCOPE] = {
	[NODEUSAGE_KUBEPODS] = "kubepods",
	[NODEUSAGE_BURSTABLE] = "burstable",
	[NODEUSAGE_BESTEFFORT] = "besteffort",
	[NODEUSAGE_HADOOP_YARN] = "hadoopYarn",
};

int64_t nodeusage_cpuset_count(const char *s)
{
	struct cpuset set;
	size_t len = strlen(s);

	if (len && (s[0] == ' ' || s[len - 1] == ' ' || s[len - 1] == '\n'))
		return -1;
	return cpuset_parse(s, &set, NULL) < 0 ? -1 : cpuset_count(&set);
}

void nodeusage_init(struct nodeusage *u)
{
	struct nodeusage_figures none = { U, U };

	memset(u, 0, sizeof(*u));
	u->window_ms = u->cgroup_version = U;
	u->capacity = u->node_used = u->system = u->hadoop_yarn = none;
	for (int i = 0; i < NODEUSAGE_NQOS; i++)
		u->qos[i] = none;
	for (int i = 0; i < 2; i++)
		u->limits[i].cpuset_cpus = u->limits[i].quota_us = u->limits[i].period_us = U;
}

void nodeusage_release(struct nodeusage *u)
{
	free(u->node);
	free(u->timestamp);
	free(u->driver);
	free(u->besteffort_path);
	free(u->hadoop_yarn_path);
	free(u->cpus_online);
	for (int i = 0; i < 2; i++)
		free(u->limits[i].cpuset);
	memset(u, 0, sizeof(*u));
}

/* ---- Reading ----------------------------------------------------------- */

static int get_int(const json_t *obj, const char *ctx, const char *key, int64_t min, int64_t *out,
		   struct err *e)
{
	return jsonio_get_int(obj, ctx, key, min, NODEUSAGE_FIGURE_MAX, out, e) < 0 ? -1 : 0;
}

/* obj.key: {"cpuMilli","memoryBytes"} into *f (ctx names obj). */
static int get_figures(const json_t *obj, const char *ctx, const char *key,
		       struct nodeusage_figures *f, struct err *e)
{
	json_t *o = NULL;
	char sub[64];

	snprintf(sub, sizeof(sub), "%s.%s", ctx, key);
	if (jsonio_get_obj(obj, ctx, key, &o, e) < 0 ||
	    get_int(o, sub, "cpuMilli", 0, &f->cpu_milli, e) < 0 ||
	    get_int(o, sub, "memoryBytes", 0, &f->memory_bytes, e) < 0)
		return -1;
	return 0;
}

static int get_limit(const json_t *limits, int i, struct nodeusage_limit *l, struct err *e)
{
	json_t *o = NULL;
	char ctx[64];

	snprintf(ctx, sizeof(ctx), "NodeUsage.limits.%s", limit_names[i]);
	if (jsonio_get_obj(limits, "NodeUsage.limits", limit_names[i], &o, e) < 0 ||
	    jsonio_get_strdup(o, ctx, "cpuset", &l->cpuset, e) < 0)
		return -1;
	if (l->cpuset && (l->cpuset_cpus = nodeusage_cpuset_count(l->cpuset)) < 0)
		return jsonio_bad_value(e, ctx, "cpuset", "a cpuset list such as \"0-3,8\"",
					json_object_get(o, "cpuset"));
	if (!l->cpuset)
		l->cpuset_cpus = U;
	return get_int(o, ctx, "cfsQuotaUs", -1, &l->quota_us, e) < 0 ||
			       get_int(o, ctx, "cfsPeriodUs", 1, &l->period_us, e) < 0
		       ? -1
		       : 0;
}

static int read_doc(const json_t *doc, struct nodeusage *u, struct err *e)
{
	static const char ctx[] = "NodeUsage";
	json_t *meta = NULL, *cg = NULL, *qos = NULL, *cpus = NULL, *limits = NULL;

	if (jsonio_get_obj(doc, ctx, "metadata", &meta, e) < 0 ||
	    jsonio_get_strdup(meta, "NodeUsage.metadata", "node", &u->node, e) < 0 ||
	    jsonio_get_strdup(meta, "NodeUsage.metadata", "timestamp", &u->timestamp, e) < 0 ||
	    get_int(doc, ctx, "windowMs", 0, &u->window_ms, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "cgroup", &cg, e) < 0 ||
	    jsonio_get_int(cg, "NodeUsage.cgroup", "version", 1, 2, &u->cgroup_version, e) < 0 ||
	    jsonio_get_strdup(cg, "NodeUsage.cgroup", "driver", &u->driver, e) < 0 ||
	    jsonio_get_strdup(cg, "NodeUsage.cgroup", "besteffort", &u->besteffort_path, e) < 0 ||
	    jsonio_get_strdup(cg, "NodeUsage.cgroup", "hadoopYarn", &u->hadoop_yarn_path, e) < 0 ||
	    get_figures(doc, ctx, "capacity", &u->capacity, e) < 0 ||
	    get_figures(doc, ctx, "node", &u->node_used, e) < 0 ||
	    get_figures(doc, ctx, "system", &u->system, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "qos", &qos, e) < 0)
		return -1;
	for (int i = 0; i < NODEUSAGE_NQOS; i++)
		if (get_figures(qos, "NodeUsage.qos", qos_names[i], &u->qos[i], e) < 0)
			return -1;
	if (get_figures(doc, ctx, "hadoopYarn", &u->hadoop_yarn, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "cpus", &cpus, e) < 0 ||
	    jsonio_get_strdup(cpus, "NodeUsage.cpus", "online", &u->cpus_online, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "limits", &limits, e) < 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if (get_limit(limits, i, &u->limits[i], e) < 0)
			return -1;
	return 0;
}

int nodeusage_from_json(const json_t *doc, struct nodeusage *out, struct err *e)
{
	nodeusage_init(out);
	if (read_doc(doc, out, e) < 0) {
		nodeusage_release(out);
		return -1;
	}
	return 0;
}

static const struct jsonio_filter metadata_fields[] = { { "node" }, { "timestamp" }, { NULL } };

const struct jsonio_filter nodeusage_fields[] = {
	{ "kind" },       { "apiVersion" }, { "metadata", metadata_fields },
	{ "windowMs" },   { "cgroup" },     { "capacity" },
	{ "node" },       { "system" },     { "qos" },
	{ "hadoopYarn" }, { "cpus" },       { "limits" },
	{ NULL },
};

/* ---- Writing ----------------------------------------------------------- */

static json_t *num(int64_t v)
{
	return jsonio_int_or_null(v != U, v);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *figures(const struct nodeusage_figures *f)
{
	return json_pack("{s:o,s:o}", "cpuMilli", num(f->cpu_milli), "memoryBytes",
			 num(f->memory_bytes));
}

static json_t *limit(const struct nodeusage_limit *l)
{
	return json_pack("{s:o,s:o,s:o}", "cpuset", str_or_null(l->cpuset), "cfsQuotaUs",
			 num(l->quota_us), "cfsPeriodUs", num(l->period_us));
}

json_t *nodeusage_to_json(const struct nodeusage *u)
{
	json_t *doc = jsonio_new_doc("NodeUsage");
	json_t *meta = json_object(), *qos = json_object();

	if (u->node)
		json_object_set_new(meta, "node", json_string(u->node));
	if (u->timestamp)
		json_object_set_new(meta, "timestamp", json_string(u->timestamp));
	json_object_set_new(doc, "metadata", meta);
	json_object_set_new(doc, "windowMs", num(u->window_ms));
	json_object_set_new(doc, "cgroup",
			    json_pack("{s:o,s:o,s:o,s:o}", "version", num(u->cgroup_version),
				      "driver", str_or_null(u->driver), "besteffort",
				      str_or_null(u->besteffort_path), "hadoopYarn",
				      str_or_null(u->hadoop_yarn_path)));
	json_object_set_new(doc, "capacity", figures(&u->capacity));
	json_object_set_new(doc, "node", figures(&u->node_used));
	json_object_set_new(doc, "system", figures(&u->system));
	for (int i = 0; i < NODEUSAGE_NQOS; i++)
		json_object_set_new(qos, qos_names[i], figures(&u->qos[i]));
	json_object_set_new(doc, "qos", qos);
	json_object_set_new(doc, "hadoopYarn", figures(&u->hadoop_yarn));
	json_object_set_new(doc, "cpus", json_pack("{s:o}", "online", str_or_null(u->cpus_online)));
	json_object_set_new(doc, "limits",
			    json_pack("{s:o,s:o}", limit_names[0], limit(&u->limits[0]),
				      limit_names[1], limit(&u->limits[1])));
	return doc;
}

/* ---- NodeUsageState ---------------------------------------------------- */

static void state_init(struct nodeusage_state *st)
{
	memset(st, 0, sizeof(*st));
	st->timestamp_ms = st->cgroup_version = st->node_cpu_ns = U;
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++)
		st->cpu_ns[i] = U;
}

void nodeusage_state_release(struct nodeusage_state *st)
{
	for (int i = 0; i < NODEUSAGE_NSCOPE; i++)
		free(st->path[i]);
	state_init(st);
}

static int read_state(const json_t *doc, struct nodeusage_state *st, struct err *e)
{
	static const char ctx[] = "NodeUsageState";
	json_t *scopes = NULL;

	if (jsonio_get_int(doc, ctx, "timestampMs", 0, INT64_MAX, &st->timestamp_ms, e) < 0 ||
	    jsonio_get_int(doc, ctx, "cgroupVersion", 1, 2, &st->cgroup_version, e) < 0 ||
	    jsonio_get_int(doc, ctx, "nodeCpuNanos", 0, INT64_MAX, &st->node_cpu_ns, e) < 0 ||
	    jsonio_get_obj(doc, ctx, "scopes", &scopes, e) < 0)
		return -1;
	for (int i = 0; scopes && i < NODEUSAGE_NSCOPE; i++) {
		char sctx[64];
		json_t *sc = NULL;

		if (jsonio_get_obj(scopes, "NodeUsageState.scopes", scope_names[i], &sc, e) < 0)
			return -1;
		if (!sc)
			continue;
		snprintf(sctx, sizeof(sctx), "%s.scopes.%s", ctx, scope_names[i]);
		if (jsonio_get_strdup(sc, sctx, "path", &st->path[i], e) < 0 ||
		    jsonio_get_int(sc, sctx, "cpuNanos", 0, INT64_MAX, &st->cpu_ns[i], e) < 0)
			return -1;
	}
	return 0;
}

int nodeusage_state_from_json(const json_t *doc, struct nodeusage_state *out, struct err *e)
{
	state_init(out);
	if (read_state(doc, out, e) < 0) {
		nodeusage_state_release(out);
		return -1;
	}
	return 0;
}

json_t *nodeusage_state_to_json(const struct nodeusage_state *st)
{
	json_t *doc = jsonio_new_doc("NodeUsageState");
	json_t *scopes = json_object();

	for (int i = 0; i < NODEUSAGE_NSCOPE; i++)
		json_object_set_new(scopes, scope_names[i],
				    json_pack("{s:o,s:o}", "path", str_or_null(st->path[i]),
					      "cpuNanos", num(st->cpu_ns[i])));
	json_object_set_new(doc, "timestampMs", num(st->timestamp_ms));
	json_object_set_new(doc, "cgroupVersion", num(st->cgroup_version));
	json_object_set_new(doc, "nodeCpuNanos", num(st->node_cpu_ns));
	json_object_set_new(doc, "scopes", scopes);
	return doc;
}
