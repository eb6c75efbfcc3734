// SPDX-License-Identifier: Apache-2.0
/* syncplan - kilo-sync's pure planner (see syncplan.h) */
#include "decide/syncplan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/num.h"
#include "core/quantity.h"
#include "core/xalloc.h"
#include "decide/lifecycle.h"
#include "decide/podreq.h"

struct sync_node {
	char *name;
	int seen; /* the Node object itself was given */
	int64_t origin_cpu, origin_mem;
	const char *origin_source;
	char *origin_error;
	int64_t req_cpu, req_mem;
	int nm_pods;
	char *nm_pod, *nm_node_id, *nm_cluster;
	json_t *nm_names;     /* the claiming pod's name, spec.hostname and IPs */
	char *nm_terminating; /* a NodeManager pod being deleted, or NULL */
	json_t *gone_ids;     /* node ids that terminating NodeManager pods name */
	json_t *claims;       /* claim_key()s of every NodeManager pod on it, terminating too */
	char *nm_foreign;     /* a pod labelled as NodeManager outside the namespaces */
	int has_alloc;
	int64_t alloc_cpu, alloc_mem;
	char *alloc_error;
	char *pod_error;   /* the first pod whose figures cannot be summed: skips the node */
	json_t *addresses; /* status.addresses[].address of the Node (strings), or NULL */
	int lc_has;        /* lifecycle enabled and LC_ANNOTATION read into lc */
	struct lc_record lc;
	char *lc_error;                 /* LC_ANNOTATION present but unreadable */
	char *lc_value;                 /* LC_ANNOTATION as read, or NULL */
	int label_present;              /* the Node carries lifecycle.nodeLabel */
	int label_other;                /* ... its key, with another value */
	int64_t nm_req_cpu, nm_req_mem; /* the (last) NodeManager pod's own Batch request */
};

struct in_cluster {
	char *id;
	char *unreachable;          /* why, or NULL */
	enum sync_reason down_code; /* its code, when unreachable */
	int expected;               /* sync_input_cluster_expect(): unreachable unless given */
	const struct yarn_node *unclaimed; /* sync_plan(): the first RM node that may be
					    * busy and that no NodeManager pod claims */
	int has_nodes;
	struct yarn_nodes nodes;
	int rm_known, rm_index; /* sync_input_cluster_rm() */
	int64_t rm_started_on;
};

struct sync_input {
	struct sync_options o;
	struct sync_node *nodes;
	size_t n, cap;
	json_t *index; /* node name -> index into nodes */
	struct in_cluster *clusters;
	size_t nclusters;
	size_t pods;
	int remote; /* a live API's objects: a bad one costs its node only */
};

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

struct sync_input *sync_input_new(const struct sync_options *o)
{
	struct sync_input *in = xcalloc(1, sizeof(*in));

	in->o = *o;
	in->index = json_object();
	return in;
}

static void yarn_nodes_copy(struct yarn_nodes *dst, const struct yarn_nodes *src)
{
	dst->n = src->n;
	dst->items = xcalloc(src->n, sizeof(*dst->items));
	for (size_t i = 0; i < src->n; i++) {
		dst->items[i] = src->items[i];
		dst->items[i].id = xstrdup(src->items[i].id ? src->items[i].id : "");
		dst->items[i].state = xstrdup(src->items[i].state ? src->items[i].state : "");
		dst->items[i].host = xstrdup(src->items[i].host ? src->items[i].host : "");
		dst->items[i].bad = src->items[i].bad ? xstrdup(src->items[i].bad) : NULL;
	}
}

void sync_input_free(struct sync_input *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->n; i++) {
		struct sync_node *n = &in->nodes[i];

		free(n->name);
		free(n->origin_error);
		free(n->nm_pod);
		free(n->nm_node_id);
		free(n->nm_cluster);
		json_decref(n->nm_names);
		free(n->nm_terminating);
		json_decref(n->gone_ids);
		json_decref(n->claims);
		free(n->nm_foreign);
		free(n->alloc_error);
		free(n->lc_error);
		free(n->lc_value);
		free(n->pod_error);
		json_decref(n->addresses);
	}
	for (size_t i = 0; i < in->nclusters; i++) {
		free(in->clusters[i].id);
		free(in->clusters[i].unreachable);
		yarn_nodes_release(&in->clusters[i].nodes);
	}
	free(in->clusters);
	free(in->nodes);
	json_decref(in->index);
	free(in);
}

size_t sync_input_nodes(const struct sync_input *in)
{
	size_t seen = 0;

	for (size_t i = 0; i < in->n; i++)
		seen += in->nodes[i].seen;
	return seen;
}

void sync_input_discard_pods(struct sync_input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		struct sync_node *n = &in->nodes[i];

		n->req_cpu = n->req_mem = 0;
		n->nm_pods = 0;
		set_str(&n->nm_pod, NULL);
		set_str(&n->nm_node_id, NULL);
		set_str(&n->nm_cluster, NULL);
		set_str(&n->nm_terminating, NULL);
		set_str(&n->nm_foreign, NULL);
		set_str(&n->pod_error, NULL);
		json_decref(n->nm_names);
		json_decref(n->gone_ids);
		json_decref(n->claims);
		n->nm_names = n->gone_ids = n->claims = NULL;
	}
	in->pods = 0;
}

void sync_input_set_remote(struct sync_input *in)
{
	in->remote = 1;
}

size_t sync_input_pods(const struct sync_input *in)
{
	return in->pods;
}

static struct sync_node *node_entry(struct sync_input *in, const char *name)
{
	json_t *idx = json_object_get(in->index, name);

	if (idx)
		return &in->nodes[json_integer_value(idx)];
	if (in->n == in->cap) {
		in->cap = in->cap ? in->cap * 2 : 64;
		in->nodes = xrealloc(in->nodes, in->cap * sizeof(*in->nodes));
	}
	memset(&in->nodes[in->n], 0, sizeof(in->nodes[in->n]));
	in->nodes[in->n].name = xstrdup(name);
	json_object_set_new(in->index, name, json_integer((json_int_t)in->n));
	return &in->nodes[in->n++];
}

static struct in_cluster *cluster_entry(struct sync_input *in, const char *id, int create)
{
	for (size_t i = 0; i < in->nclusters; i++)
		if (strcmp(in->clusters[i].id, id) == 0)
			return &in->clusters[i];
	if (!create)
		return NULL;
	in->clusters = xrealloc(in->clusters, (in->nclusters + 1) * sizeof(*in->clusters));
	memset(&in->clusters[in->nclusters], 0, sizeof(*in->clusters));
	in->clusters[in->nclusters].id = xstrdup(id);
	return &in->clusters[in->nclusters++];
}

static const char *str_at(const json_t *obj, const char *a, const char *b)
{
	const json_t *v = json_object_get(obj, a);

	return json_string_value(b ? json_object_get(v, b) : v);
}

static const char *annotation(const json_t *obj, const char *name)
{
	return json_string_value(json_object_get(
		json_object_get(json_object_get(obj, "metadata"), "annotations"), name));
}

/* Read the hadoop-yarn entry of thirdPartyAllocations. */
static void read_allocation(struct sync_input *in, struct sync_node *n, const char *value)
{
	struct err e = { 0 };
	json_auto_t *doc = NULL;
	json_t *allocs, *a;
	size_t i;

	n->has_alloc = 0;
	n->alloc_cpu = n->alloc_mem = 0;
	set_str(&n->alloc_error, NULL);
	if (!value)
		return;
	doc = jsonio_parse(value, SYNC_ANN_THIRD_PARTY, &e);
	allocs = doc ? json_object_get(doc, "allocations") : NULL;
	if (doc && allocs && !json_is_array(allocs))
		jsonio_bad_value(&e, SYNC_ANN_THIRD_PARTY, "allocations", "an array", allocs);
	json_array_foreach(allocs, i, a)
	{
		const json_t *res = json_object_get(a, "resources");

		if (e.kind != ERR_NONE)
			break;
		if (!json_is_object(a) ||
		    strcmp(str_at(a, "name", NULL) ?: "", SYNC_ALLOCATION_NAME))
			continue;
		n->has_alloc = 1;
		if (quantity_get_value(res, SYNC_ANN_THIRD_PARTY, in->o.batch_cpu, 1, &n->alloc_cpu,
				       &e) < 0 ||
		    quantity_get_value(res, SYNC_ANN_THIRD_PARTY, in->o.batch_memory, 1,
				       &n->alloc_mem, &e) < 0)
			break;
	}
	if (e.kind != ERR_NONE)
		n->alloc_error = xstrdup(e.msg);
}

/* The origin pool from the originExtendedAllocatable annotation; a bad
 * annotation is kept as the node's skip reason, never an error of the run. */
static void read_origin(struct sync_input *in, struct sync_node *n, const char *value)
{
	struct err e = { 0 };
	json_auto_t *doc = jsonio_parse(value, SYNC_ANN_ORIGIN, &e);
	const json_t *res = doc ? json_object_get(doc, "resources") : NULL;
	char ctx[300];

	snprintf(ctx, sizeof(ctx), "annotation %s.resources", SYNC_ANN_ORIGIN);
	/* {} or a misspelt member is no pool: never taken as a pool of 0 */
	if (doc && !json_is_object(res))
		jsonio_bad_value(&e, ctx, NULL, "an object", res);
	if (e.kind == ERR_NONE &&
	    quantity_get_value(res, ctx, in->o.batch_cpu, 0, &n->origin_cpu, &e) == 0)
		quantity_get_value(res, ctx, in->o.batch_memory, 0, &n->origin_mem, &e);
	if (e.kind != ERR_NONE)
		n->origin_error = xstrdup(e.msg);
}

/* The Node's Hostname, InternalIP and ExternalIP addresses: the names a
 * NodeManager on it may be registered under. */
static void read_addresses(struct sync_node *n, const json_t *node)
{
	const json_t *a;
	size_t i;

	json_decref(n->addresses);
	n->addresses = json_array();
	json_array_foreach(json_object_get(json_object_get(node, "status"), "addresses"), i, a)
	{
		const char *type = str_at(a, "type", NULL), *addr = str_at(a, "address", NULL);

		if (type && addr && *addr &&
		    (strcmp(type, "Hostname") == 0 || strcmp(type, "InternalIP") == 0 ||
		     strcmp(type, "ExternalIP") == 0))
			json_array_append_new(n->addresses, json_string(addr));
	}
}

/* With lifecycle enabled: the node's record (LC_ANNOTATION) and whether it
 * carries lifecycle.nodeLabel.  An unreadable record skips the node. */
static void read_lifecycle(const struct sync_input *in, struct sync_node *n, const json_t *node)
{
	const struct sync_lifecycle *l = &in->o.lifecycle;
	const json_t *v = json_object_get(
		json_object_get(json_object_get(node, "metadata"), "annotations"), LC_ANNOTATION);
	struct err e = { 0 };

	n->lc_has = 0;
	n->label_present = 0;
	n->label_other = 0;
	set_str(&n->lc_error, NULL);
	set_str(&n->lc_value, NULL);
	if (!l->enabled)
		return;
	if (l->label_key) {
		const json_t *labels = json_object_get(json_object_get(node, "metadata"), "labels");
		const json_t *v = json_object_get(labels, l->label_key);
		const char *have = json_string_value(v);

		n->label_present = have && strcmp(have, l->label_value) == 0;
		n->label_other = v && !json_is_null(v) && !n->label_present;
	}
	if (!v || json_is_null(v))
		return;
	if (!json_is_string(v)) {
		jsonio_bad_value(&e, "Node metadata", "annotations." LC_ANNOTATION, "a string", v);
	} else if (lc_record_parse(json_string_value(v), LC_ANNOTATION, &n->lc, &e) == 0) {
		n->lc_has = 1;
		set_str(&n->lc_value, json_string_value(v));
		return;
	}
	n->lc_error = xstrdup(e.msg);
}

int sync_input_add_node(struct sync_input *in, const json_t *node, struct err *e)
{
	const char *name = str_at(node, "metadata", "name");
	const json_t *anns;
	const char *origin;
	struct sync_node *n;
	char ctx[300];

	if (!name || !*name) { /* from an API: a malformed listing, not complete */
		jsonio_bad_value(e, "Node", "metadata.name", "a name",
				 json_object_get(json_object_get(node, "metadata"), "name"));
		e->kind = in->remote ? ERR_TEMP : ERR_INPUT;
		return -1;
	}
	n = node_entry(in, name);
	n->seen = 1;
	set_str(&n->origin_error, NULL);
	origin = annotation(node, SYNC_ANN_ORIGIN);
	anns = json_object_get(json_object_get(node, "metadata"), "annotations");
	snprintf(ctx, sizeof(ctx), "Node %s metadata", name);
	/* annotations of another shape are never "no annotation": that would
	 * fall back to status.allocatable and offer YARN its share again */
	if (anns && !json_is_null(anns) && !json_is_object(anns)) {
		jsonio_bad_value(e, ctx, "annotations", "an object", anns);
		n->origin_error = xstrdup(e->msg);
		err_clear(e);
	} else if (json_object_get(anns, SYNC_ANN_ORIGIN) && !origin) {
		jsonio_bad_value(e, ctx, "annotations." SYNC_ANN_ORIGIN, "a string",
				 json_object_get(anns, SYNC_ANN_ORIGIN));
		n->origin_error = xstrdup(e->msg);
		err_clear(e);
	} else if (origin) {
		n->origin_source = "annotation";
		read_origin(in, n, origin);
	} else {
		const json_t *alloc =
			json_object_get(json_object_get(node, "status"), "allocatable");

		n->origin_source = "allocatable";
		snprintf(ctx, sizeof(ctx), "Node %s status.allocatable", name);
		/* a bad figure from the API costs this node only */
		if (!json_is_object(alloc)) {
			jsonio_bad_value(e, ctx, NULL, "an object", alloc);
			n->origin_error = xstrdup(e->msg);
			err_clear(e);
		} else if (quantity_get_value(alloc, ctx, in->o.batch_cpu, 0, &n->origin_cpu, e) <
				   0 ||
			   quantity_get_value(alloc, ctx, in->o.batch_memory, 0, &n->origin_mem,
					      e) < 0) {
			n->origin_error = xstrdup(e->msg);
			err_clear(e);
		}
	}
	if (n->origin_cpu < 0)
		n->origin_cpu = 0;
	if (n->origin_mem < 0)
		n->origin_mem = 0;
	read_allocation(in, n, annotation(node, SYNC_ANN_THIRD_PARTY));
	snprintf(ctx, sizeof(ctx), "Node %s metadata", name);
	if (json_is_object(anns) && json_object_get(anns, SYNC_ANN_THIRD_PARTY) &&
	    !json_is_string(json_object_get(anns, SYNC_ANN_THIRD_PARTY))) {
		jsonio_bad_value(e, ctx, "annotations." SYNC_ANN_THIRD_PARTY, "a string",
				 json_object_get(anns, SYNC_ANN_THIRD_PARTY));
		n->has_alloc = 1; /* kept as it is: never rewritten from a wrong shape */
		set_str(&n->alloc_error, e->msg);
		err_clear(e);
	}
	read_addresses(n, node);
	read_lifecycle(in, n, node);
	return 0;
}

static int valid_node_id(const char *id);
static char *claim_key(const char *cluster, const char *id);

static int nm_namespace(const struct sync_options *o, const char *ns)
{
	for (size_t i = 0; ns && o->nm_namespaces && o->nm_namespaces[i]; i++)
		if (strcmp(o->nm_namespaces[i], ns) == 0)
			return 1;
	return 0;
}

/* The names a NodeManager in this pod may be registered under: the pod's
 * name, spec.hostname, status.podIP and status.podIPs[].ip. */
static json_t *pod_names(const json_t *pod)
{
	const json_t *status = json_object_get(pod, "status"), *ip;
	const char *v[] = { str_at(pod, "metadata", "name"), str_at(pod, "spec", "hostname"),
			    str_at(status, "podIP", NULL) };
	json_t *names = json_array();
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] && *v[i])
			json_array_append_new(names, json_string(v[i]));
	json_array_foreach(json_object_get(status, "podIPs"), i, ip)
	{
		const char *s = str_at(ip, "ip", NULL);

		if (s && *s)
			json_array_append_new(names, json_string(s));
	}
	return names;
}

/* A pod with the NodeManager label: the node's NodeManager only from
 * nodeManagerNamespaces and while not being deleted. */
static void add_nm_pod(struct sync_input *in, struct sync_node *n, const json_t *pod,
		       const char *who)
{
	const char *cluster = annotation(pod, SYNC_ANN_CLUSTER_ID);
	const char *id = annotation(pod, SYNC_ANN_NODE_ID);
	const json_t *meta = json_object_get(pod, "metadata");

	if (!nm_namespace(&in->o, str_at(meta, "namespace", NULL))) {
		if (!n->nm_foreign) /* claims nothing, keeps nothing */
			set_str(&n->nm_foreign, who);
		return;
	}
	if (!n->claims)
		n->claims = json_array();
	if (valid_node_id(id)) { /* a copy of this id on another node is a duplicate */
		cleanup_free char *key =
			claim_key(cluster && *cluster ? cluster : SYNC_DEFAULT_CLUSTER, id);

		json_array_append_new(n->claims, json_string(key));
	}
	if (json_object_get(meta, "deletionTimestamp") &&
	    !json_is_null(json_object_get(meta, "deletionTimestamp"))) {
		/* claims no total; the id it names may only keep YARN's share */
		set_str(&n->nm_terminating, who);
		if (!n->gone_ids)
			n->gone_ids = json_array();
		if (id && *id)
			json_array_append_new(n->gone_ids, json_string(id));
		return;
	}
	n->nm_pods++;
	set_str(&n->nm_pod, who);
	set_str(&n->nm_node_id, id);
	set_str(&n->nm_cluster, cluster && *cluster ? cluster : SYNC_DEFAULT_CLUSTER);
	json_decref(n->nm_names);
	n->nm_names = pod_names(pod);
}

int sync_input_add_pod(struct sync_input *in, const json_t *pod, struct err *e)
{
	const json_t *meta = json_object_get(pod, "metadata");
	const char *node = str_at(pod, "spec", "nodeName");
	const char *phase = str_at(pod, "status", "phase");
	const char *ns = str_at(meta, "namespace", NULL), *name = str_at(meta, "name", NULL);
	const char *label = str_at(json_object_get(meta, "labels"), in->o.nm_label_key, NULL);
	int64_t cpu = 0, mem = 0;
	struct sync_node *n;
	char who[300];
	int ret;

	in->pods++;
	/* a pod that cannot be told apart or placed would make some node's sum
	 * short: from an API the listing is malformed, not complete */
	const json_t *nn = json_object_get(json_object_get(pod, "spec"), "nodeName");

	if (!json_is_object(pod) || !name || !*name ||
	    !json_is_object(json_object_get(pod, "spec")) || (nn && !json_is_null(nn) && !node)) {
		if (!json_is_object(pod))
			jsonio_bad_value(e, "Pod", NULL, "an object", pod);
		else if (!name || !*name)
			jsonio_bad_value(e, "Pod", "metadata.name", "a name",
					 json_object_get(meta, "name"));
		else if (!json_is_object(json_object_get(pod, "spec")))
			jsonio_bad_value(e, "Pod", "spec", "an object",
					 json_object_get(pod, "spec"));
		else
			jsonio_bad_value(e, "Pod", "spec.nodeName", "a node name",
					 json_object_get(json_object_get(pod, "spec"), "nodeName"));
		e->kind = in->remote ? ERR_TEMP : ERR_INPUT;
		return -1;
	}
	if (!node || !*node)
		return 0; /* not bound: uses nothing on any node */
	if (phase && (strcmp(phase, "Succeeded") == 0 || strcmp(phase, "Failed") == 0))
		return 0;
	snprintf(who, sizeof(who), "%s/%s", ns ? ns : "", name ? name : "?");
	n = node_entry(in, node);
	ret = podreq_effective(pod, who, in->o.batch_cpu, &cpu, e);
	if (ret == 0)
		ret = podreq_effective(pod, who, in->o.batch_memory, &mem, e);
	if (ret < 0 && !in->remote)
		return -1; /* an operator's document: refused whole */
	/* A request the API server accepts (each up to 2^63-1) can still wrap a
	 * sum: the node is skipped, never offered what the wrap gives. */
	if (ret == 0 && num_add(n->req_cpu, cpu, &n->req_cpu) < 0)
		ret = err_set(e, ERR_INPUT, 0, "Pod %s: the %s requests on node %s overflow", who,
			      in->o.batch_cpu, node);
	if (ret == 0 && num_add(n->req_mem, mem, &n->req_mem) < 0)
		ret = err_set(e, ERR_INPUT, 0, "Pod %s: the %s requests on node %s overflow", who,
			      in->o.batch_memory, node);
	if (ret != 0) {
		if (!n->pod_error)
			n->pod_error = xstrdup(e->msg);
		err_clear(e);
	}
	if (label && strcmp(label, in->o.nm_label_value) == 0) {
		add_nm_pod(in, n, pod, who);
		if (n->nm_pod && strcmp(n->nm_pod, who) == 0 && ret == 0) {
			n->nm_req_cpu = cpu; /* the lifecycle keeps it while the pod is gone */
			n->nm_req_mem = mem;
		}
	}
	return 0;
}

int sync_input_add_rm_nodes(struct sync_input *in, const char *cluster,
			    const struct yarn_nodes *nodes, struct err *e)
{
	struct in_cluster *c = cluster_entry(in, cluster, 1);

	if (c->has_nodes)
		return err_set(e, ERR_INPUT, 0, "RM node list of cluster '%s' given twice",
			       cluster);
	c->has_nodes = 1;
	yarn_nodes_copy(&c->nodes, nodes);
	return 0;
}

void sync_input_cluster_rm(struct sync_input *in, const char *cluster, int index,
			   int64_t started_on)
{
	struct in_cluster *c = cluster_entry(in, cluster, 1);

	c->rm_known = index >= 0 && started_on > 0;
	c->rm_index = index;
	c->rm_started_on = started_on;
}

void sync_input_cluster_expect(struct sync_input *in, const char *cluster)
{
	struct in_cluster *c = cluster_entry(in, cluster, 1);

	if (!c->has_nodes && !c->unreachable)
		c->expected = 1;
}

void sync_input_cluster_unreachable(struct sync_input *in, const char *cluster,
				    enum sync_reason code, const char *why)
{
	struct in_cluster *c = cluster_entry(in, cluster, 1);

	set_str(&c->unreachable, why ? why : "unreachable");
	c->down_code = code;
}

static const char *const reason_codes[SYNC_R_COUNT] = {
#define SYNC_R_NAME(name, code) [SYNC_R_##name] = code,
	SYNC_PLAN_REASONS(SYNC_R_NAME) SYNC_APPLY_REASONS(SYNC_R_NAME)
#undef SYNC_R_NAME
};

const char *sync_reason_code(enum sync_reason r)
{
	return r > SYNC_R_NONE && r < SYNC_R_COUNT ? reason_codes[r] : NULL;
}

enum sync_reason sync_reason_parse(const char *s)
{
	for (int r = SYNC_R_NONE + 1; s && r < SYNC_R_COUNT; r++)
		if (strcmp(reason_codes[r], s) == 0)
			return (enum sync_reason)r;
	return SYNC_R_NONE;
}

int sync_reason_fits(const char *action, enum sync_reason r, int annotation)
{
	if (annotation)
		return r == SYNC_R_INVALID_ALLOCATION;
	if (!action)
		return 0;
	if (strcmp(action, "update") == 0)
		return r == SYNC_R_TOTAL_DIFFERS || r == SYNC_R_TOTAL_DAMPED ||
		       r == SYNC_R_LIFECYCLE_HOLD;
	if (strcmp(action, "none") == 0)
		return r == SYNC_R_TOTAL_MATCHES || r == SYNC_R_TOTAL_WITHIN_DEADBAND ||
		       r == SYNC_R_LIFECYCLE_HOLD;
	return strcmp(action, "skip") == 0 && r > SYNC_R_NONE && r < SYNC_R_TOTAL_DIFFERS;
}

/* Set item's reasonCode. */
static void set_code(json_t *item, enum sync_reason r)
{
	json_object_set_new(item, "reasonCode", json_string(sync_reason_code(r)));
}

static int add_items(struct sync_input *in, const json_t *items, const char *what, int list,
		     struct err *e)
{
	const json_t *it;
	size_t i;

	if (!json_is_array(items))
		return jsonio_bad_value(e, what, "items", "an array", items);
	json_array_foreach(items, i, it)
	{
		const char *kind = str_at(it, "kind", NULL);
		int ret;

		if (list && !kind)
			return err_set(e, ERR_INPUT, 0, "%s.items[%zu]: item without a kind", what,
				       i);
		if (!kind)
			kind = strcmp(what, "NodeList") == 0 ? "Node" : "Pod";
		if (strcmp(kind, "Node") == 0)
			ret = sync_input_add_node(in, it, e);
		else if (strcmp(kind, "Pod") == 0)
			ret = sync_input_add_pod(in, it, e);
		else
			ret = 0; /* a List may hold other kinds: ignored */
		if (ret < 0)
			return -1;
	}
	return 0;
}

static int add_rm_payload(struct sync_input *in, const char *cluster, const json_t *doc,
			  struct err *e)
{
	struct yarn_nodes nodes = { 0 };
	int ret;

	if (yarn_nodes_parse(doc, YARN_NODES_STRICT, &nodes, e) < 0)
		return err_wrap(e, "RM nodes of cluster '%s'", cluster);
	ret = sync_input_add_rm_nodes(in, cluster, &nodes, e);
	yarn_nodes_release(&nodes);
	return ret;
}

int sync_input_add_document(struct sync_input *in, const json_t *doc, struct err *e)
{
	const char *kind = str_at(doc, "kind", NULL);
	const char *cluster;

	if (!kind && json_object_get(doc, "nodes"))
		return add_rm_payload(in, SYNC_DEFAULT_CLUSTER, doc, e);
	if (!kind)
		return err_set(
			e, ERR_INPUT, 0,
			"document without a kind (expected Node, NodeList, Pod, PodList, List, "
			"YarnNodes or an RM nodes payload)");
	if (strcmp(kind, "Node") == 0)
		return sync_input_add_node(in, doc, e);
	if (strcmp(kind, "Pod") == 0)
		return sync_input_add_pod(in, doc, e);
	if (strcmp(kind, "NodeList") == 0 || strcmp(kind, "PodList") == 0)
		return add_items(in, json_object_get(doc, "items"), kind, 0, e);
	if (strcmp(kind, "List") == 0)
		return add_items(in, json_object_get(doc, "items"), kind, 1, e);
	if (strcmp(kind, "YarnNodes") == 0) {
		cluster = str_at(doc, "cluster", NULL);
		if (!cluster || !*cluster)
			return jsonio_bad_value(e, "YarnNodes", "cluster", "a cluster id",
						json_object_get(doc, "cluster"));
		return add_rm_payload(in, cluster, doc, e);
	}
	return err_set(e, ERR_INPUT, 0, "unexpected document of kind '%s'", kind);
}

static const struct jsonio_filter meta_fields[] = {
	{ "name" },        { "namespace" },         { "labels" },
	{ "annotations" }, { "deletionTimestamp" }, { NULL },
};
static const struct jsonio_filter container_fields[] = {
	{ "resources" },
	{ "restartPolicy" },
	{ NULL },
};
static const struct jsonio_filter spec_fields[] = {
	{ "nodeName" },
	{ "hostname" },
	{ "overhead" },
	{ "containers", container_fields },
	{ "initContainers", container_fields },
	{ NULL },
};
static const struct jsonio_filter status_fields[] = {
	{ "phase" }, { "allocatable" }, { "addresses" }, { "podIP" }, { "podIPs" }, { NULL },
};
/* What sync_input_add_node/_pod, podreq_effective, add_items and
 * yarn_nodes_parse read; a new field read there must be added here
 * (test_syncplan plans every fixture with and without this filter). */
const struct jsonio_filter sync_input_fields[] = {
	{ "kind" },
	{ "apiVersion" },
	{ "cluster" },
	{ "nodes" },
	{ "metadata", meta_fields },
	{ "spec", spec_fields },
	{ "status", status_fields },
	{ "items", sync_input_fields },
	{ NULL },
};

/* ---- the plan ---- */

static json_t *cpu_mem(int64_t cpu_milli, int64_t mem_bytes)
{
	return json_pack("{s:I,s:I}", "cpuMilli", (json_int_t)cpu_milli, "memoryBytes",
			 (json_int_t)mem_bytes);
}

static json_t *yarn_res(struct yarn_resource r)
{
	return json_pack("{s:I,s:I}", "vCores", (json_int_t)r.vcores, "memoryMB",
			 (json_int_t)r.memory_mb);
}

static json_t *allocation_quantities(const struct sync_options *o, int64_t cpu, int64_t mem)
{
	char qc[QUANTITY_STR_MAX], qm[QUANTITY_STR_MAX];
	struct quantity c = quantity_from_int(cpu, QUANTITY_DECIMAL_SI);
	struct quantity m = quantity_from_int(mem, QUANTITY_BINARY_SI);

	return json_pack("{s:s,s:s}", o->batch_cpu, quantity_format(&c, qc), o->batch_memory,
			 quantity_format(&m, qm));
}

/* The annotation part of an item, from the YARN used figures. */
static json_t *annotation_part(const struct sync_options *o, const struct sync_node *n, int64_t cpu,
			       int64_t mem)
{
	int same = n->has_alloc && n->alloc_cpu == cpu && n->alloc_mem == mem;
	json_t *a;

	if (n->alloc_error)
		return json_pack("{s:s,s:s+,s:s}", "action", "skip", "reason",
				 "cannot rewrite the annotation: ", n->alloc_error, "reasonCode",
				 sync_reason_code(SYNC_R_INVALID_ALLOCATION));
	a = json_pack("{s:s,s:o}", "action",
		      same || (!n->has_alloc && !cpu && !mem) ? "none" : "annotate", "hadoopYarn",
		      allocation_quantities(o, cpu, mem));
	return a;
}

static int listed(const char *name, const char *const *only)
{
	if (!only)
		return 1;
	for (size_t i = 0; only[i]; i++)
		if (strcmp(only[i], name) == 0)
			return 1;
	return 0;
}

/* A valid YARN NodeId "host:port" (port 1..65535). */
static int valid_node_id(const char *id)
{
	const char *colon = id ? strrchr(id, ':') : NULL;
	char *end = NULL;
	long port;

	if (!colon || colon == id)
		return 0;
	port = strtol(colon + 1, &end, 10);
	return colon[1] && *end == '\0' && port > 0 && port <= 65535;
}

/* The length of a node id's host part ("host:port" -> host). */
static size_t id_host_len(const char *id)
{
	const char *colon = strrchr(id, ':');

	return colon ? (size_t)(colon - id) : strlen(id);
}

/* The length of the first DNS label of host (len bytes). */
static size_t first_label(const char *host, size_t len)
{
	const char *dot = memchr(host, '.', len);

	return dot ? (size_t)(dot - host) : len;
}

/* 1 when name is the host (len bytes) or the host's first DNS label,
 * compared as DNS names are (case-insensitive). */
static int host_is(const char *host, size_t len, const char *name)
{
	size_t nl = name ? strlen(name) : 0, label = first_label(host, len);

	return nl && ((nl == len && strncasecmp(host, name, len) == 0) ||
		      (nl == label && strncasecmp(host, name, label) == 0));
}

/* host_is() for any string of names (a JSON array, may be NULL). */
static int host_in(const char *host, size_t len, const json_t *names)
{
	const json_t *v;
	size_t i;

	json_array_foreach(names, i, v)
	{
		if (host_is(host, len, json_string_value(v)))
			return 1;
	}
	return 0;
}

/* 1 when the host names node n: its name or one of its Hostname,
 * InternalIP and ExternalIP addresses. */
static int host_names_node(const char *host, size_t len, const struct sync_node *n)
{
	return host_is(host, len, n->name) || host_in(host, len, n->addresses);
}

/* RM ids an operator may have meant by node_id: the same host with another
 * port, a node whose nodeHostName is that host, and hosts with the same
 * first DNS label (a short name against its FQDN). */
static json_t *candidates(const struct in_cluster *c, const char *node_id)
{
	size_t hl = id_host_len(node_id), label = first_label(node_id, hl);
	json_t *arr = json_array();

	for (size_t i = 0; i < c->nodes.n; i++) {
		const struct yarn_node *y = &c->nodes.items[i];
		size_t yl = id_host_len(y->id), ylabel = first_label(y->id, yl);

		if (!*y->id)
			continue;
		if ((yl == hl && strncasecmp(y->id, node_id, hl) == 0) ||
		    (strlen(y->host) == hl && strncasecmp(y->host, node_id, hl) == 0) ||
		    (ylabel == label && strncasecmp(y->id, node_id, label) == 0))
			json_array_append_new(arr, json_string(y->id));
	}
	return arr;
}

/* Whether RM node y may hold YARN containers on node n: 1 when it is on n's
 * host, 2 when a terminating NodeManager pod on n names it, 0 otherwise. */
static int rm_node_on(const struct yarn_node *y, const struct sync_node *n)
{
	const json_t *v;
	size_t i;

	if (*y->id && host_names_node(y->id, id_host_len(y->id), n))
		return 1;
	if (*y->host && host_names_node(y->host, strlen(y->host), n))
		return 1;
	json_array_foreach(n->gone_ids, i, v)
	{
		if (*y->id && strcasecmp(y->id, json_string_value(v)) == 0)
			return 2;
	}
	return 0;
}

/* A used figure the RM cannot have (negative, or past SYNC_RM_MAX_*). */
static int impossible(const struct yarn_node *y)
{
	return y->used.vcores < 0 || y->used.memory_mb < 0 || y->used.vcores > SYNC_RM_MAX_VCORES ||
	       y->used.memory_mb > SYNC_RM_MAX_MB;
}

/* The live RM nodes on node n's host other than y (an array of ids, NULL
 * when there is none or their figures overflow), with the sum of their
 * used figures in *cpu (milli) and *mem (bytes): a NodeManager that
 * re-registered under another port while its old id y stays LOST.  On the
 * host means exactly the host of the pod's node id (the RM node's id host
 * or its nodeHostName): a share is raised on no weaker evidence; an id
 * another node's NodeManager pod claims is that node's, never this one's. */
static json_t *moved_to(const struct in_cluster *c, const struct yarn_node *y,
			const struct sync_node *n, const json_t *claims, int64_t *cpu, int64_t *mem)
{
	const char *id = n->nm_node_id;
	size_t hl = id_host_len(id);
	json_t *live = json_array();
	int64_t sc = 0, sm = 0;

	for (size_t i = 0; i < c->nodes.n; i++) {
		const struct yarn_node *z = &c->nodes.items[i];
		cleanup_free char *key = NULL;
		const json_t *who;
		int64_t zc, zm;

		if (z == y || !*z->id || strcmp(z->id, y->id) == 0 || z->inactive || z->bad ||
		    impossible(z))
			continue;
		if (!((id_host_len(z->id) == hl && strncasecmp(z->id, id, hl) == 0) ||
		      (strlen(z->host) == hl && strncasecmp(z->host, id, hl) == 0)))
			continue; /* another host (a first DNS label is not enough here) */
		key = claim_key(c->id, z->id);
		who = json_object_get(claims, key);
		if (who && (json_array_size(who) != 1 ||
			    strcmp(json_string_value(json_array_get(who, 0)), n->name) != 0))
			continue; /* another node's NodeManager claims it */
		if (num_mul(z->used.vcores, 1000, &zc) < 0 ||
		    num_mul(z->used.memory_mb, (int64_t)1 << 20, &zm) < 0 ||
		    num_add(sc, zc, &sc) < 0 || num_add(sm, zm, &sm) < 0) {
			json_decref(live); /* figures past 64 bits: no evidence at all */
			return NULL;
		}
		json_array_append_new(live, json_string(z->id));
	}
	if (!json_array_size(live)) {
		json_decref(live);
		return NULL;
	}
	*cpu = sc;
	*mem = sm;
	return live;
}

/* 1 when RM node y may hold YARN containers: it cannot be read, its
 * figures are impossible, or it is active and uses something. */
static int may_be_busy(const struct yarn_node *y)
{
	return y->bad || impossible(y) ||
	       (!y->inactive && (y->used.vcores > 0 || y->used.memory_mb > 0));
}

/* What RM node y of cluster c shows, for a reason: a new string. */
static char *rm_shows(const struct in_cluster *c, const struct yarn_node *y, const char *where)
{
	const char *id = *y->id ? y->id : *y->host ? y->host : "(no id)";

	if (y->bad)
		return xasprintf("RM node %s of cluster '%s'%s cannot be read (%s)", id, c->id,
				 where, y->bad);
	if (impossible(y))
		return xasprintf("RM node %s of cluster '%s'%s reports impossible used figures", id,
				 c->id, where);
	return xasprintf("RM node %s of cluster '%s'%s uses %lld vCores, %lld MB", id, c->id, where,
			 (long long)y->used.vcores, (long long)y->used.memory_mb);
}

/* The number of RM node lists given (clusters read in this pass). */
static size_t rm_lists(const struct sync_input *in)
{
	size_t n = 0;

	for (size_t i = 0; i < in->nclusters; i++)
		n += in->clusters[i].has_nodes;
	return n;
}

/* Why YARN's share on node n must not be zeroed now (a new string), or
 * NULL when this pass's RM evidence says YARN uses nothing there: every
 * cluster answered a list that names nodes, no RM node on n's host (or named
 * by its terminating NodeManager pod, or like its NodeManager pod) may be
 * busy, and every RM node that may be busy is claimed by a NodeManager pod
 * (one claimed by none may run on n: a pod gone without a trace, its id the
 * pod's FQDN or IP).  With skip (the node's own RM node, whose figures lower
 * the share), that one is left out and the clusters need not all answer. */
static char *zero_blocked(const struct sync_input *in, const struct sync_node *n,
			  const struct yarn_node *skip)
{
	if (!rm_lists(in))
		return xstrdup("no RM node list was read in this pass");
	/* lowering a share on its own NodeManager's figures (skip: that RM
	 * node) needs the lists read to agree, not every cluster to answer */
	for (size_t i = 0; !skip && i < in->nclusters; i++) {
		const struct in_cluster *c = &in->clusters[i];

		if (c->unreachable)
			return xasprintf("cluster '%s' is unreachable", c->id);
		if (c->expected && !c->has_nodes)
			return xasprintf("cluster '%s' is configured and its RM node list was not "
					 "given",
					 c->id);
		if (c->has_nodes && c->nodes.n == 0)
			return xasprintf("cluster '%s' lists no node (an RM that just restarted or "
					 "failed over)",
					 c->id);
	}
	for (size_t i = 0; i < in->nclusters; i++) {
		const struct in_cluster *c = &in->clusters[i];

		for (size_t k = 0; c->has_nodes && k < c->nodes.n; k++) {
			const struct yarn_node *y = &c->nodes.items[k];
			int on;

			if (y == skip || !may_be_busy(y))
				continue;
			on = rm_node_on(y, n);
			if (!on && ((*y->id && host_in(y->id, id_host_len(y->id), n->nm_names)) ||
				    (*y->host && host_in(y->host, strlen(y->host), n->nm_names))))
				on = 1; /* named like the node's NodeManager pod */
			if (on)
				return rm_shows(c, y,
						on == 1 ? " on its host" : " named by a pod on it");
		}
		/* found once a plan (sync_plan), not once a node */
		if (c->unclaimed && c->unclaimed != skip) {
			cleanup_free char *shows = rm_shows(c, c->unclaimed, "");

			return xasprintf("%s and no NodeManager pod claims it (it may run here)",
					 shows);
		}
	}
	return NULL;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b;
}

/* One dimension of sync_damp(). */
static int64_t damp1(int64_t cur, int64_t target, int64_t max_fixed, int64_t pct, int64_t deadband)
{
	int64_t rise, step;

	cur = cur > 0 ? cur : 0;
	target = target > 0 ? target : 0;
	if (target <= cur)
		return target; /* a decrease: at once, in full */
	rise = target - cur;
	if (rise <= deadband)
		return cur;
	/* floor(cur x pct / 100) without the product: cur < 2^53, pct <= 1000 */
	step = cur / 100 * pct + cur % 100 * pct / 100;
	if (step < max_fixed)
		step = max_fixed;
	return rise <= step ? target : cur + step;
}

struct yarn_resource sync_damp(const struct sync_damping *d, struct yarn_resource current,
			       struct yarn_resource target)
{
	if (!d || !d->enabled)
		return target;
	return (struct yarn_resource){
		.vcores = damp1(current.vcores, target.vcores, d->max_increase_vcores,
				d->max_increase_percent, d->deadband_vcores),
		.memory_mb = damp1(current.memory_mb, target.memory_mb, d->max_increase_memory_mb,
				   d->max_increase_percent, d->deadband_memory_mb),
	};
}

/* Make item a skip with code and the reason fmt gives (severity error
 * when error). */
enum batch_result { BATCH_OK, BATCH_RESERVE_OVERFLOW, BATCH_OVERFLOW, BATCH_TOO_MANY_VCORES };

/* The node's YARN total: max(0, origin - requested - reserved) in whole
 * vCores and MB (rounded down), the reservation in *res_cpu and *res_mem. */
static enum batch_result node_batch(const struct sync_options *o, const struct sync_node *n,
				    int64_t *res_cpu, int64_t *res_mem, struct yarn_resource *total)
{
	int64_t free_cpu, free_mem;

	*res_cpu = *res_mem = 0;
	total->vcores = total->memory_mb = 0;
	/* ceil(origin x percent / 100) without the product: origin >= 0 and
	 * percent <= 100, so only the sums can overflow, and those are checked */
	if (num_add(o->reserve_cpu_milli,
		    n->origin_cpu / 100 * o->reserve_percent +
			    (n->origin_cpu % 100 * o->reserve_percent + 99) / 100,
		    res_cpu) < 0 ||
	    num_add(o->reserve_memory_bytes,
		    n->origin_mem / 100 * o->reserve_percent +
			    (n->origin_mem % 100 * o->reserve_percent + 99) / 100,
		    res_mem) < 0)
		return BATCH_RESERVE_OVERFLOW;
	if (num_sub(n->origin_cpu, n->req_cpu, &free_cpu) < 0 ||
	    num_sub(free_cpu, *res_cpu, &free_cpu) < 0 ||
	    num_sub(n->origin_mem, n->req_mem, &free_mem) < 0 ||
	    num_sub(free_mem, *res_mem, &free_mem) < 0)
		return BATCH_OVERFLOW;
	total->vcores = free_cpu > 0 ? floor_div(free_cpu, 1000) : 0;
	total->memory_mb = free_mem > 0 ? floor_div(free_mem, 1 << 20) : 0;
	return total->vcores > INT32_MAX ? BATCH_TOO_MANY_VCORES : BATCH_OK;
}

static json_t *skipf(json_t *item, enum sync_reason code, int error, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static json_t *skipf(json_t *item, enum sync_reason code, int error, const char *fmt, ...)
{
	cleanup_free char *reason = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&reason, fmt, ap) < 0)
		reason = NULL;
	va_end(ap);
	json_object_set_new(item, "action", json_string("skip"));
	json_object_set_new(item, "reason", json_string(reason ? reason : "(no memory)"));
	set_code(item, code);
	if (error)
		json_object_set_new(item, "severity", json_string("error"));
	json_object_set_new(item, "annotation", json_pack("{s:s}", "action", "none"));
	return item;
}

/* The lifecycle part of an item (lifecycle.h lc_part_json). */
static json_t *lifecycle_part(const struct sync_node *n, const struct lc_step *st,
			      const struct lc_facts *f)
{
	return lc_part_json(st, n->lc_has ? &n->lc : NULL, n->lc_value,
			    f->seen != LC_SEEN_NOTHING ? &f->batch : NULL);
}

/* The facts of a node with its NodeManager pod whose cluster was read:
 * its Batch total, cluster, the RM that answered, its label (the RM node's
 * own figures are the caller's). */
static struct lc_facts cluster_facts(const struct sync_node *n, const struct in_cluster *c,
				     enum lc_seen seen, struct yarn_resource total)
{
	return (struct lc_facts){ .seen = seen,
				  .batch = total,
				  .cluster = n->nm_cluster,
				  .rm_known = c->rm_known,
				  .rm_index = c->rm_index,
				  .rm_started_on = c->rm_started_on,
				  .label_present = n->label_present,
				  .label_other = n->label_other };
}

/* The step of a node on this pass's facts. */
static void lifecycle_step(const struct sync_input *in, const struct sync_node *n,
			   const struct lc_facts *f, int64_t now_ms, struct lc_step *st)
{
	lc_next(&in->o.lifecycle, n->lc_has ? &n->lc : NULL, f, now_ms, st);
	if (!n->nm_pods || f->seen == LC_SEEN_NOTHING)
		return; /* no pod here, or held: its request stays what the record says */
	if (st->record && st->next.state != LC_ACTIVE) { /* the pod's request, for the
							  * return once it is gone */
		st->next.nm_known = 1;
		st->next.nm_cpu_milli = n->nm_req_cpu;
		st->next.nm_memory_bytes = n->nm_req_mem;
	} else if (f->seen == LC_SEEN_RM && st->next.state == LC_ACTIVE && st->next.nm_known) {
		st->next.nm_known = 0; /* back: no longer needed */
		st->record = 1;
	}
}

static json_t *no_nm_lifecycle(const struct sync_input *in, const struct sync_node *n, json_t *item,
			       int64_t now_ms);

/* The item of a node without a NodeManager pod: its hadoop-yarn entry is
 * zeroed only on this pass's RM evidence that YARN uses nothing there. */
static json_t *no_nm_item(const struct sync_input *in, const struct sync_node *n, json_t *item,
			  int64_t now_ms)
{
	cleanup_free char *note = NULL, *why = NULL, *reason = NULL;
	int has_share = n->has_alloc && (n->alloc_cpu || n->alloc_mem);

	if (n->nm_foreign) /* main warns: NodeManagers may run in a namespace not configured */
		json_object_set_new(item, "ignoredPod", json_string(n->nm_foreign));
	note = n->nm_terminating
		       ? xasprintf(" (NodeManager pod %s is terminating)", n->nm_terminating)
	       : n->nm_foreign ? xasprintf(" (pod %s has the NodeManager label outside "
					   "nodeManagerNamespaces: ignored)",
					   n->nm_foreign)
			       : xstrdup("");
	if (has_share && !n->alloc_error && (why = zero_blocked(in, n, NULL)))
		return no_nm_lifecycle(
			in, n,
			skipf(item, SYNC_R_SHARE_NOT_ZEROED, 0,
			      "no NodeManager pod seen on the node%s, but %s: its share is not "
			      "zeroed",
			      note, why),
			now_ms);
	reason = n->alloc_error ? xasprintf("no NodeManager pod on the node%s, and its share "
					    "cannot be zeroed: %s",
					    note, n->alloc_error)
				: xasprintf("no NodeManager pod on the node%s", note);
	json_object_set_new(item, "action", json_string("skip"));
	json_object_set_new(item, "reason", json_string(reason));
	/* the error, when there is one, is what the operator must see */
	set_code(item, n->alloc_error      ? SYNC_R_INVALID_ALLOCATION
		       : n->nm_terminating ? SYNC_R_NODEMANAGER_TERMINATING
		       : n->nm_foreign     ? SYNC_R_NODEMANAGER_OUTSIDE_NAMESPACES
					   : SYNC_R_NO_NODEMANAGER);
	json_object_set_new(item, "annotation", annotation_part(&in->o, n, 0, 0));
	if (n->alloc_error)
		json_object_set_new(item, "severity", json_string("error"));
	return no_nm_lifecycle(in, n, item, now_ms);
}

/* The lifecycle of a node without a NodeManager pod, whether or not its
 * share can be zeroed this pass: a return (the label set again) needs no
 * RM evidence, and an RM that lists no node at all (one that failed over
 * while every NodeManager was away) must not keep them all away.  A
 * NodeManager-labelled pod outside the namespaces may be a NodeManager of a
 * namespace not configured: it holds a drain; it never keeps an offline
 * node from returning (a tenant could freeze it). */
static json_t *no_nm_lifecycle(const struct sync_input *in, const struct sync_node *n, json_t *item,
			       int64_t now_ms)
{
	if (in->o.lifecycle.enabled && !n->nm_terminating &&
	    (!n->nm_foreign ||
	     (n->lc_has && (n->lc.state == LC_OFFLINE || n->lc.state == LC_RETURNING))) &&
	    n->seen && !n->origin_error && !n->pod_error) {
		struct lc_facts f = { .seen = LC_SEEN_NO_NM,
				      .label_present = n->label_present,
				      .label_other = n->label_other };
		struct sync_node with = *n; /* as if its NodeManager pod ran (lifecycle.h) */
		int64_t rc, rm;
		struct lc_step st;

		if (n->lc_has && n->lc.nm_known &&
		    (num_add(with.req_cpu, n->lc.nm_cpu_milli, &with.req_cpu) < 0 ||
		     num_add(with.req_mem, n->lc.nm_memory_bytes, &with.req_mem) < 0))
			return item; /* held: the record's figures cannot be used */
		if (node_batch(&in->o, &with, &rc, &rm, &f.batch) == BATCH_OK) {
			lifecycle_step(in, n, &f, now_ms, &st);
			json_object_set_new(item, "lifecycle", lifecycle_part(n, &st, &f));
		}
	}
	return item;
}

/* The key of a claim in the claims index: cluster, then the id with its
 * host lower-cased (DNS names compare without case). */
static char *claim_key(const char *cluster, const char *id)
{
	char *key = xasprintf("%s\n%s", cluster, id);

	for (char *p = key + strlen(cluster) + 1;
	     *p && p < key + strlen(cluster) + 1 + id_host_len(id); p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	return key;
}

/* "a, b, c" of a JSON array of names: a new string. */
static char *join_names(const json_t *names)
{
	char *out = xstrdup("");
	const json_t *v;
	size_t i;

	json_array_foreach(names, i, v)
	{
		char *next = xasprintf("%s%s%s", out, i ? ", " : "", json_string_value(v));

		free(out);
		out = next;
	}
	return out;
}

static json_t *plan_item(const struct sync_input *in, const struct sync_node *n,
			 const json_t *claims, int64_t now_ms)
{
	const struct sync_options *o = &in->o;
	json_t *item = json_object();
	const struct in_cluster *c;
	const struct yarn_node *y;
	int64_t res_cpu, res_mem, used_cpu, used_mem;
	struct yarn_resource total, send;
	const json_t *claimants;
	cleanup_free char *reason = NULL, *why = NULL;
	json_t *ann;
	enum sync_reason code;
	json_t *moved = NULL;
	int draining, lc_on = 0;
	int64_t oct = o->over_commit_timeout_ms;
	struct lc_facts lcf = { 0 };
	struct lc_step lc = { 0 };

	json_object_set_new(item, "node", json_string(n->name));
	json_object_set_new(item, "cluster", n->nm_pods ? json_string(n->nm_cluster) : json_null());
	json_object_set_new(item, "yarnNodeId",
			    n->nm_node_id ? json_string(n->nm_node_id) : json_null());
	if (o->lifecycle.enabled && n->lc_error)
		return skipf(item, SYNC_R_INVALID_LIFECYCLE_RECORD, 1,
			     "invalid lifecycle record: %s (delete it to start over: kubectl "
			     "annotate node %s " LC_ANNOTATION "-; with drain: decommission, "
			     "take a host kilo excluded off the exclude list first)",
			     n->lc_error, n->name);
	if (!n->nm_pods)
		return no_nm_item(in, n, item, now_ms);
#define SKIP(code, error, ...) return skipf(item, SYNC_R_##code, error, __VA_ARGS__)
	if (!n->seen)
		SKIP(NODE_NOT_FOUND, 0, "Node object not found (NodeManager pod %s)", n->nm_pod);
	json_object_set_new(item, "origin", cpu_mem(n->origin_cpu, n->origin_mem));
	json_object_set_new(json_object_get(item, "origin"), "source",
			    json_string(n->origin_source));
	json_object_set_new(item, "requested", cpu_mem(n->req_cpu, n->req_mem));
	if (n->origin_error)
		SKIP(INVALID_ANNOTATION, 1, "invalid annotation: %s", n->origin_error);
	if (n->pod_error)
		SKIP(INVALID_POD, 1, "%s", n->pod_error);
	if (n->nm_pods > 1)
		SKIP(MULTIPLE_NODEMANAGERS, 1, "%d NodeManager pods on the node", n->nm_pods);
	if (!valid_node_id(n->nm_node_id))
		SKIP(INVALID_NODE_ID, 1,
		     "NodeManager pod %s has no valid %s annotation (host:port)%s%s%s", n->nm_pod,
		     SYNC_ANN_NODE_ID, n->nm_node_id ? ": got '" : "",
		     n->nm_node_id ? n->nm_node_id : "", n->nm_node_id ? "'" : "");
	/* a node id is taken only when it names this node or its pod */
	if (!host_names_node(n->nm_node_id, id_host_len(n->nm_node_id), n) &&
	    !host_in(n->nm_node_id, id_host_len(n->nm_node_id), n->nm_names))
		SKIP(NODE_ID_MISMATCH, 1,
		     "NodeManager pod %s names node id %s, whose host is neither node %s (its name "
		     "or addresses) nor the pod (its name, hostname or IP)",
		     n->nm_pod, n->nm_node_id, n->name);
	{
		cleanup_free char *key = claim_key(n->nm_cluster, n->nm_node_id);

		claimants = json_object_get(claims, key);
	}
	if (json_array_size(claimants) > 1) {
		cleanup_free char *names = join_names(claimants);

		SKIP(NODE_ID_CONFLICT, 1,
		     "node id %s of cluster '%s' is claimed on %zu nodes (%s): every claimant "
		     "is skipped",
		     n->nm_node_id, n->nm_cluster, json_array_size(claimants), names);
	}
	switch (node_batch(o, n, &res_cpu, &res_mem, &total)) {
	case BATCH_RESERVE_OVERFLOW:
		SKIP(OVERFLOW, 1, "the reservation overflows on this node's origin pool");
	case BATCH_OVERFLOW:
		json_object_set_new(item, "reserved", cpu_mem(res_cpu, res_mem));
		SKIP(OVERFLOW, 1, "origin - requested - reserved overflows");
	case BATCH_TOO_MANY_VCORES:
		json_object_set_new(item, "reserved", cpu_mem(res_cpu, res_mem));
		SKIP(OVERFLOW, 1, "%lld vCores exceed what the RM takes (2^31-1)",
		     (long long)total.vcores);
	case BATCH_OK:
		break;
	}
	json_object_set_new(item, "reserved", cpu_mem(res_cpu, res_mem));
	json_object_set_new(item, "yarnTotal", yarn_res(total));
	c = cluster_entry((struct sync_input *)in, n->nm_cluster, 0);
	if (!c) /* the same words live and offline: the plans must be equal */
		SKIP(CLUSTER_NOT_CONFIGURED, 0,
		     "no RM node list for cluster '%s' (live: not in clusters; --from: not given)",
		     n->nm_cluster);
	if (c->unreachable)
		return skipf(item, c->down_code ? c->down_code : SYNC_R_RM_UNREACHABLE, 0,
			     "cluster '%s' unreachable: %s", n->nm_cluster, c->unreachable);
	if (!c->has_nodes)
		SKIP(RM_NODES_NOT_GIVEN, 0, "no RM node list for cluster '%s'", n->nm_cluster);
	y = yarn_nodes_find(&c->nodes, n->nm_node_id);
	if (!y) {
		json_object_set_new(item, "candidates", candidates(c, n->nm_node_id));
		skipf(item, SYNC_R_UNKNOWN_NODE_ID, 0,
		      "node id %s unknown to the RM of cluster '%s'", n->nm_node_id, n->nm_cluster);
		if (o->lifecycle.enabled) { /* a decommission another RM took over? */
			struct lc_facts none = { .seen = LC_SEEN_NOTHING };

			lcf = cluster_facts(n, c, LC_SEEN_RM_ABSENT, total);
			lifecycle_step(in, n, &lcf, now_ms, &lc);
			/* held (no evidence): the part of a node nothing is known of */
			json_object_set_new(item, "lifecycle",
					    lifecycle_part(n, &lc, lc.changed ? &lcf : &none));
		}
		return item;
	}
	if (y->bad)
		SKIP(RM_NODE_INVALID, 1, "RM node %s of cluster '%s' cannot be read: %s", y->id,
		     n->nm_cluster, y->bad);
	for (size_t k = 0; k < c->nodes.n; k++)
		if (&c->nodes.items[k] != y && strcmp(c->nodes.items[k].id, y->id) == 0)
			SKIP(RM_NODE_INVALID, 1, "RM of cluster '%s' lists node id %s twice",
			     n->nm_cluster, y->id);
	json_object_set_new(item, "rmState", json_string(y->state));
	json_object_set_new(item, "rmTotal", yarn_res(y->total));
	json_object_set_new(item, "rmUsed", yarn_res(y->used));
	if (!yarn_node_state_known(y->state))
		SKIP(RM_NODE_STATE_UNKNOWN, 1,
		     "RM node %s reports state '%s', not one of YARN's NodeStates: not resized",
		     n->nm_node_id, y->state);
	/* bad figures from the RM cost this node only (threat-model.md) */
	if (impossible(y) || num_mul(y->used.vcores, 1000, &used_cpu) < 0 ||
	    num_mul(y->used.memory_mb, (int64_t)1 << 20, &used_mem) < 0)
		SKIP(RM_NODE_INVALID, 1,
		     "RM node %s reports impossible used figures (%lld vCores, %lld MB)",
		     n->nm_node_id, (long long)y->used.vcores, (long long)y->used.memory_mb);
#undef SKIP
	/* DECOMMISSIONING: the RM sets the total to the use on each heartbeat
	 * (AbstractYarnScheduler.nodeUpdate) so nothing new lands there; a resize
	 * to the plan would open room on a draining node until the next one. */
	draining = strcmp(y->state, "DECOMMISSIONING") == 0;
	send = sync_damp(&o->damping, y->total, total);
	/* decommission: a DECOMMISSIONING or DECOMMISSIONED node is the drain's */
	if (o->lifecycle.enabled && ((!y->inactive && !draining) || o->lifecycle.decommission)) {
		char host[256];

		snprintf(host, sizeof(host), "%.*s", (int)id_host_len(n->nm_node_id),
			 n->nm_node_id);
		lcf = cluster_facts(n, c, LC_SEEN_RM, total);
		lcf.rm_total = y->total;
		lcf.rm_used = y->used;
		lcf.rm_containers = y->containers;
		lcf.rm_counted = y->counted;
		lcf.rm_state = y->state;
		lcf.host = host;
		lifecycle_step(in, n, &lcf, now_ms, &lc);
		lc_on = 1;
		if (lc.zero && !y->inactive && !draining) { /* nothing lands, nothing is killed */
			send = (struct yarn_resource){ 0 };
			oct = -1;
		}
		lcf.host = lcf.cluster = NULL; /* host is this block's */
	}
	json_object_set_new(item, "overCommitTimeoutMs", json_integer(oct));
	if (!y->inactive && !draining &&
	    (send.vcores != total.vcores || send.memory_mb != total.memory_mb)) {
		json_object_set_new(item, "yarnTotal", yarn_res(send));
		json_object_set_new(item, "yarnTarget", yarn_res(total));
	}
	if (y->inactive && (moved = moved_to(c, y, n, claims, &used_cpu, &used_mem))) {
		/* the NodeManager came back under another id (a new port): that
		 * one's use is YARN's on this node, or Kubernetes double-spends it */
		reason = xasprintf("RM node state %s, but the RM lists %s on the same host: the "
				   "NodeManager re-registered under another id and the pod's %s is "
				   "stale; not resized, its share follows that id's use",
				   y->state, json_string_value(json_array_get(moved, 0)),
				   SYNC_ANN_NODE_ID);
		code = SYNC_R_NODE_ID_MOVED;
		json_object_set_new(item, "candidates", moved);
		json_object_set_new(item, "action", json_string("skip"));
	} else if (y->inactive) {
		reason = xasprintf("RM node state %s", y->state);
		code = SYNC_R_RM_NODE_INACTIVE;
		json_object_set_new(item, "action", json_string("skip"));
	} else if (draining) {
		reason = xstrdup("RM node state DECOMMISSIONING: the RM holds its total at its use "
				 "while it drains; not resized");
		code = SYNC_R_RM_NODE_DECOMMISSIONING;
		json_object_set_new(item, "action", json_string("skip"));
	} else if (lc_on && lc.zero) {
		reason = xasprintf("lifecycle %s: held at 0/0 with overCommitTimeoutMs -1 (Batch "
				   "%lld vCores/%lld MB; %lld containers running)%s%s",
				   lc_state_name(lc.next.state), (long long)total.vcores,
				   (long long)total.memory_mb, (long long)y->containers,
				   lc.next.reason[0] ? ": " : "", lc.next.reason);
		code = SYNC_R_LIFECYCLE_HOLD;
		json_object_set_new(item, "action",
				    json_string(y->total.vcores || y->total.memory_mb ? "update"
										      : "none"));
	} else if (y->total.vcores != send.vcores || y->total.memory_mb != send.memory_mb) {
		int damped = send.vcores != total.vcores || send.memory_mb != total.memory_mb;

		reason = damped ? xasprintf("RM total %lld vCores/%lld MB differs; damped: %lld "
					    "vCores/%lld MB this pass, toward %lld vCores/%lld MB "
					    "(damping.maxIncrease)",
					    (long long)y->total.vcores,
					    (long long)y->total.memory_mb, (long long)send.vcores,
					    (long long)send.memory_mb, (long long)total.vcores,
					    (long long)total.memory_mb)
				: xasprintf("RM total %lld vCores/%lld MB differs",
					    (long long)y->total.vcores,
					    (long long)y->total.memory_mb);
		code = damped ? SYNC_R_TOTAL_DAMPED : SYNC_R_TOTAL_DIFFERS;
		json_object_set_new(item, "action", json_string("update"));
	} else if (send.vcores != total.vcores || send.memory_mb != total.memory_mb) {
		reason =
			xasprintf("RM total %lld vCores/%lld MB kept: the rise to %lld vCores/%lld "
				  "MB is within damping.deadband",
				  (long long)y->total.vcores, (long long)y->total.memory_mb,
				  (long long)total.vcores, (long long)total.memory_mb);
		code = SYNC_R_TOTAL_WITHIN_DEADBAND;
		json_object_set_new(item, "action", json_string("none"));
	} else {
		reason = xstrdup("RM total matches");
		code = SYNC_R_TOTAL_MATCHES;
		json_object_set_new(item, "action", json_string("none"));
	}
	if (strcmp(y->state, "UNHEALTHY") == 0) {
		char *more = xasprintf("%s; RM node state UNHEALTHY: resized all the same (the RM "
				       "places no container there while it is unhealthy)",
				       reason);

		free(reason);
		reason = more;
	}
	if (!y->inactive && !draining &&
	    (send.vcores < y->used.vcores || send.memory_mb < y->used.memory_mb)) {
		struct yarn_resource back = {
			.vcores = y->used.vcores > send.vcores ? y->used.vcores - send.vcores : 0,
			.memory_mb = y->used.memory_mb > send.memory_mb
					     ? y->used.memory_mb - send.memory_mb
					     : 0,
		};
		char *more = xasprintf(
			oct >= 0
				? "%s; YARN uses more than the new total: the RM preempts after %lld ms"
				: "%s; YARN uses more than the new total; overCommitTimeoutMs %lld: "
				  "containers are not preempted",
			reason, (long long)oct);

		json_object_set_new(item, "reclaim", yarn_res(back));
		free(reason);
		reason = more;
	}
	ann = annotation_part(o, n, used_cpu, used_mem);
	/* a share lowered on this id's figures only on the same evidence as a
	 * share zeroed: while another RM node of the node or its pod may be busy
	 * (the NodeManager back under another port, the old id not yet expired),
	 * one no pod claims, or a cluster is not read, they are not all of YARN.
	 * An inactive id's zeros are no evidence at all that YARN left the node,
	 * so there every cluster must have answered too (no skip). */
	if (!n->alloc_error && strcmp(str_at(ann, "action", NULL), "annotate") == 0 &&
	    (used_cpu < n->alloc_cpu || used_mem < n->alloc_mem) &&
	    (why = zero_blocked(in, n, y->inactive ? NULL : y))) {
		char *more = xasprintf("%s; %s: its share is not %s", reason, why,
				       y->inactive ? "zeroed" : "lowered");

		json_decref(ann);
		ann = json_pack("{s:s}", "action", "none");
		free(reason);
		reason = more;
	}
	json_object_set_new(item, "reason", json_string(reason));
	set_code(item, code);
	json_object_set_new(item, "annotation", ann);
	if (n->alloc_error)
		json_object_set_new(item, "severity", json_string("error"));
	if (lc_on)
		json_object_set_new(item, "lifecycle", lifecycle_part(n, &lc, &lcf));
	return item;
}

static int by_name(const void *a, const void *b)
{
	const struct sync_node *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* Every node's NodeManager claim, by claim_key(): an array of node names
 * (sorted, as order is): a node id claimed on two nodes is no one's. */
static json_t *claims_index(const struct sync_node *const *order, size_t m)
{
	json_t *claims = json_object();

	for (size_t i = 0; i < m; i++) {
		const struct sync_node *n = order[i];
		const json_t *v;
		size_t k;

		json_array_foreach(n->claims, k, v)
		{
			const char *key = json_string_value(v);
			json_t *arr;

			if (!(arr = json_object_get(claims, key))) {
				arr = json_array();
				json_object_set_new(claims, key, arr);
			}
			if (!json_array_size(arr) ||
			    strcmp(json_string_value(json_array_get(arr, json_array_size(arr) - 1)),
				   n->name) != 0)
				json_array_append_new(arr, json_string(n->name));
		}
	}
	return claims;
}

json_t *sync_plan(const struct sync_input *in, int64_t now_ms, const char *const *only_nodes)
{
	json_t *plan = jsonio_new_doc("SyncPlan");
	json_t *items = json_array(), *clusters = json_array();
	json_auto_t *claims = NULL;
	cleanup_free const struct sync_node **order = xcalloc(in->n + 1, sizeof(*order));

	for (size_t i = 0; i < in->n; i++)
		order[i] = &in->nodes[i];
	qsort(order, in->n, sizeof(*order), by_name);
	claims = claims_index(order, in->n);
	for (size_t i = 0; i < in->nclusters; i++) { /* the plan's own, not the input's */
		struct in_cluster *c = (struct in_cluster *)&in->clusters[i];
		const char *first = NULL;
		size_t active = 0, unclaimed = 0;

		c->unclaimed = NULL;
		for (size_t k = 0; c->has_nodes && k < c->nodes.n; k++) {
			const struct yarn_node *y = &c->nodes.items[k];
			cleanup_free char *key = *y->id ? claim_key(c->id, y->id) : NULL;
			int mine = key && json_object_get(claims, key);

			if (may_be_busy(y) && !mine && !c->unclaimed)
				c->unclaimed = y;
			if (y->inactive || y->bad)
				continue;
			active++;
			if (!mine && !unclaimed++)
				first = *y->id ? y->id : NULL;
		}
		if (c->has_nodes)
			json_array_append_new(clusters,
					      json_pack("{s:s,s:I,s:I,s:s?}", "cluster", c->id,
							"rmNodes", (json_int_t)active, "unclaimed",
							(json_int_t)unclaimed, "firstUnclaimed",
							first));
	}
	for (size_t i = 0; i < in->n; i++) {
		const struct sync_node *n = order[i];
		json_t *item;

		if (!listed(n->name, only_nodes))
			continue;
		if (!n->nm_pods && !(n->has_alloc && (n->alloc_cpu || n->alloc_mem)) &&
		    !n->alloc_error && !n->nm_terminating && !n->nm_foreign &&
		    !(in->o.lifecycle.enabled && (n->lc_has || n->lc_error)))
			continue; /* never had YARN: not touched */
		item = plan_item(in, n, claims, now_ms);
		if (in->o.lifecycle.enabled && !n->lc_error &&
		    !json_object_get(item, "lifecycle")) {
			struct lc_facts f = { .seen = LC_SEEN_NOTHING };
			struct lc_step st;

			lifecycle_step(in, n, &f, now_ms, &st); /* held: the record as it is */
			json_object_set_new(item, "lifecycle", lifecycle_part(n, &st, &f));
		}
		json_array_append_new(items, item);
	}
	json_object_set_new(plan, "metadata", jsonio_metadata(NULL, now_ms));
	json_object_set_new(plan, "clusters", clusters);
	json_object_set_new(plan, "items", items);
	return plan;
}

char *sync_third_party_value(const char *current, const struct sync_options *o, int64_t cpu_milli,
			     int64_t memory_bytes, struct err *e)
{
	json_auto_t *doc = NULL;
	json_t *allocs, *a, *entry;
	size_t i;
	int found = 0;

	doc = current ? jsonio_parse(current, SYNC_ANN_THIRD_PARTY, e) : json_object();
	if (!doc)
		return NULL;
	allocs = json_object_get(doc, "allocations");
	if (!allocs) {
		allocs = json_array();
		json_object_set_new(doc, "allocations", allocs);
	}
	if (!json_is_array(allocs)) {
		jsonio_bad_value(e, SYNC_ANN_THIRD_PARTY, "allocations", "an array", allocs);
		return NULL;
	}
	entry = json_pack("{s:s,s:s,s:o}", "name", SYNC_ALLOCATION_NAME, "priority",
			  SYNC_ALLOCATION_PRIORITY, "resources",
			  allocation_quantities(o, cpu_milli, memory_bytes));
	json_array_foreach(allocs, i, a)
	{
		if (json_is_object(a) &&
		    strcmp(str_at(a, "name", NULL) ?: "", SYNC_ALLOCATION_NAME) == 0) {
			json_array_set(allocs, i, entry);
			found = 1;
			break;
		}
	}
	if (!found)
		json_array_append(allocs, entry);
	json_decref(entry);
	return json_dumps(doc, JSON_COMPACT);
}
