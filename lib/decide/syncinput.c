// SPDX-License-Identifier: Apache-2.0
/* syncinput - the planner's readers of Nodes, Pods and RM node lists (see syncinput.h, syncplanner.h) */
#include "decide/syncinput.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/num.h"
#include "core/quantity.h"
#include "core/xalloc.h"
#include "decide/podreq.h"
#include "decide/rmmatch.h"

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
		json_decref(in->clusters[i].ids);
		json_decref(in->clusters[i].twice);
		json_decref(in->clusters[i].busy);
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

/* Forget what the pods bound to n gave it. */
static void forget_pods(struct sync_node *n)
{
	n->req_cpu = n->req_mem = 0;
	n->nm_req_cpu = n->nm_req_mem = 0;
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

void sync_input_discard_pods(struct sync_input *in)
{
	for (size_t i = 0; i < in->n; i++)
		forget_pods(&in->nodes[i]);
	in->pods = 0;
}

/* The node's entry, or NULL when nothing was given for it. */
static struct sync_node *node_find(struct sync_input *in, const char *name)
{
	json_t *idx = json_object_get(in->index, name);

	return idx ? &in->nodes[json_integer_value(idx)] : NULL;
}

void sync_input_node_forget_pods(struct sync_input *in, const char *name)
{
	struct sync_node *n = node_find(in, name);

	if (n)
		forget_pods(n);
}

void sync_input_node_forget(struct sync_input *in, const char *name)
{
	struct sync_node *n = node_find(in, name);

	if (!n)
		return;
	n->seen = 0;
	n->origin_cpu = n->origin_mem = 0;
	n->origin_source = NULL;
	set_str(&n->origin_error, NULL);
	n->has_alloc = 0;
	n->alloc_cpu = n->alloc_mem = 0;
	set_str(&n->alloc_error, NULL);
	json_decref(n->addresses);
	n->addresses = NULL;
	n->lc_has = n->label_present = n->label_other = 0;
	memset(&n->lc, 0, sizeof(n->lc));
	set_str(&n->lc_error, NULL);
	set_str(&n->lc_value, NULL);
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

struct in_cluster *syncinput_cluster(struct sync_input *in, const char *id, int create)
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

const char *syncinput_str_at(const json_t *obj, const char *a, const char *b)
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
		    strcmp(syncinput_str_at(a, "name", NULL) ?: "", SYNC_ALLOCATION_NAME))
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
		const char *type = syncinput_str_at(a, "type", NULL),
			   *addr = syncinput_str_at(a, "address", NULL);

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
	const char *name = syncinput_str_at(node, "metadata", "name");
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
	const char *v[] = { syncinput_str_at(pod, "metadata", "name"),
			    syncinput_str_at(pod, "spec", "hostname"),
			    syncinput_str_at(status, "podIP", NULL) };
	json_t *names = json_array();
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] && *v[i])
			json_array_append_new(names, json_string(v[i]));
	json_array_foreach(json_object_get(status, "podIPs"), i, ip)
	{
		const char *s = syncinput_str_at(ip, "ip", NULL);

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

	if (!nm_namespace(&in->o, syncinput_str_at(meta, "namespace", NULL))) {
		if (!n->nm_foreign) /* claims nothing, keeps nothing */
			set_str(&n->nm_foreign, who);
		return;
	}
	if (!n->claims)
		n->claims = json_array();
	if (rmmatch_valid_node_id(id)) { /* a copy of this id on another node is a duplicate */
		cleanup_free char *key =
			rmmatch_claim_key(cluster && *cluster ? cluster : SYNC_DEFAULT_CLUSTER, id);

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

/* What one pod gives its node, read by pod_read(). */
struct pod_facts {
	const char *node; /* borrowed; NULL: unbound or ended, gives nothing */
	char who[300];    /* "<namespace>/<name>" */
	int64_t cpu, mem; /* its effective Batch requests (when ret is 0) */
	int ret;          /* 0, or -1: its figures cannot be summed (why in err) */
	struct err err;
	int nm; /* it carries the NodeManager label */
};

/* Read pod into *f.  Returns 0, or -1 with e set when the pod cannot be
 * told apart or placed (from an API: the listing is malformed, not
 * complete), or (an operator's document) when its figures are bad. */
static int pod_read(const struct sync_input *in, const json_t *pod, struct pod_facts *f,
		    struct err *e)
{
	const json_t *meta = json_object_get(pod, "metadata");
	const json_t *nn = json_object_get(json_object_get(pod, "spec"), "nodeName");
	const char *phase = syncinput_str_at(pod, "status", "phase");
	const char *ns = syncinput_str_at(meta, "namespace", NULL),
		   *name = syncinput_str_at(meta, "name", NULL);
	const char *label =
		syncinput_str_at(json_object_get(meta, "labels"), in->o.nm_label_key, NULL);

	memset(f, 0, sizeof(*f));
	f->node = syncinput_str_at(pod, "spec", "nodeName");
	if (!json_is_object(pod) || !name || !*name ||
	    !json_is_object(json_object_get(pod, "spec")) ||
	    (nn && !json_is_null(nn) && !f->node)) {
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
	snprintf(f->who, sizeof(f->who), "%s/%s", ns ? ns : "", name);
	if (!f->node || !*f->node ||
	    (phase && (strcmp(phase, "Succeeded") == 0 || strcmp(phase, "Failed") == 0))) {
		f->node = NULL; /* not bound, or ended: uses nothing on any node */
		return 0;
	}
	f->ret = podreq_effective(pod, f->who, in->o.batch_cpu, &f->cpu, &f->err);
	if (f->ret == 0)
		f->ret = podreq_effective(pod, f->who, in->o.batch_memory, &f->mem, &f->err);
	if (f->ret < 0 && !in->remote) {
		*e = f->err;
		return -1; /* an operator's document: refused whole */
	}
	f->nm = label && strcmp(label, in->o.nm_label_value) == 0;
	return 0;
}

int sync_input_add_pod(struct sync_input *in, const json_t *pod, struct err *e)
{
	struct pod_facts f;
	struct sync_node *n;

	in->pods++;
	if (pod_read(in, pod, &f, e) < 0)
		return -1;
	if (!f.node)
		return 0;
	n = node_entry(in, f.node);
	/* A request the API server accepts (each up to 2^63-1) can still wrap a
	 * sum: the node is skipped, never offered what the wrap gives. */
	if (f.ret == 0 && num_add(n->req_cpu, f.cpu, &n->req_cpu) < 0)
		f.ret = err_set(&f.err, ERR_INPUT, 0, "Pod %s: the %s requests on node %s overflow",
				f.who, in->o.batch_cpu, f.node);
	if (f.ret == 0 && num_add(n->req_mem, f.mem, &n->req_mem) < 0)
		f.ret = err_set(&f.err, ERR_INPUT, 0, "Pod %s: the %s requests on node %s overflow",
				f.who, in->o.batch_memory, f.node);
	if (f.ret != 0 && !n->pod_error)
		n->pod_error = xstrdup(f.err.msg);
	if (f.nm) {
		add_nm_pod(in, n, pod, f.who);
		if (n->nm_pod && strcmp(n->nm_pod, f.who) == 0 && f.ret == 0) {
			n->nm_req_cpu = f.cpu; /* the lifecycle keeps it while the pod is gone */
			n->nm_req_mem = f.mem;
		}
	}
	return 0;
}

int sync_input_pod_node(const struct sync_input *in, const json_t *pod, const char **node,
			struct err *e)
{
	struct pod_facts f;

	*node = NULL;
	if (pod_read(in, pod, &f, e) < 0)
		return -1;
	if (f.node && (f.nm || f.ret != 0 || f.cpu != 0 || f.mem != 0))
		*node = f.node;
	return 0;
}

int sync_input_add_rm_nodes(struct sync_input *in, const char *cluster,
			    const struct yarn_nodes *nodes, struct err *e)
{
	struct in_cluster *c = syncinput_cluster(in, cluster, 1);

	if (c->has_nodes)
		return err_set(e, ERR_INPUT, 0, "RM node list of cluster '%s' given twice",
			       cluster);
	c->has_nodes = 1;
	yarn_nodes_copy(&c->nodes, nodes);
	c->busy = rmmatch_busy_index(&c->nodes);
	c->ids = json_object();
	for (size_t i = 0; i < c->nodes.n; i++) {
		const char *id = c->nodes.items[i].id;

		if (!*id) /* no id: found by none */
			continue;
		if (!json_object_get(c->ids, id)) {
			json_object_set_new_nocheck(c->ids, id, json_integer((json_int_t)i));
			continue;
		}
		if (!c->twice)
			c->twice = json_object();
		json_object_set_new_nocheck(c->twice, id, json_true());
	}
	return 0;
}

const struct yarn_node *syncinput_rm_node(const struct in_cluster *c, const char *id, int *twice)
{
	const json_t *at = id ? json_object_get(c->ids, id) : NULL;

	if (twice)
		*twice = at && json_object_get(c->twice, id) != NULL;
	return at ? &c->nodes.items[json_integer_value(at)] : NULL;
}

void sync_input_cluster_rm(struct sync_input *in, const char *cluster, int index,
			   int64_t started_on)
{
	struct in_cluster *c = syncinput_cluster(in, cluster, 1);

	c->rm_known = index >= 0 && started_on > 0;
	c->rm_index = index;
	c->rm_started_on = started_on;
}

void sync_input_cluster_expect(struct sync_input *in, const char *cluster)
{
	struct in_cluster *c = syncinput_cluster(in, cluster, 1);

	if (!c->has_nodes && !c->unreachable)
		c->expected = 1;
}

void sync_input_cluster_unreachable(struct sync_input *in, const char *cluster,
				    enum sync_reason code, const char *why)
{
	struct in_cluster *c = syncinput_cluster(in, cluster, 1);

	set_str(&c->unreachable, why ? why : "unreachable");
	c->down_code = code;
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
		const char *kind = syncinput_str_at(it, "kind", NULL);
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
	const char *kind = syncinput_str_at(doc, "kind", NULL);
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
		cluster = syncinput_str_at(doc, "cluster", NULL);
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
