// SPDX-License-Identifier: Apache-2.0
/* syncview - a watch's planner input across batches (see syncview.h) */
#include "decide/syncview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "decide/syncinput.h"

struct syncview {
	struct sync_input *in;
	json_t *pod_node;   /* "<namespace>/<name>" of each kept pod -> its node's name */
	json_t *by_node;    /* node name -> {"<namespace>/<name>": the pod} of its kept pods */
	json_t *touched;    /* node name -> true, since the last flush */
	const char **names; /* the last flush's, pointing into touched_keys */
	char **touched_keys;
	size_t nnames;
};

struct syncview *syncview_new(const struct sync_options *o)
{
	struct syncview *v = xcalloc(1, sizeof(*v));

	v->in = sync_input_new(o);
	sync_input_set_remote(v->in);
	v->pod_node = json_object();
	v->by_node = json_object();
	v->touched = json_object();
	return v;
}

static void drop_names(struct syncview *v)
{
	for (size_t i = 0; i < v->nnames; i++)
		free(v->touched_keys[i]);
	free(v->touched_keys);
	free(v->names);
	v->touched_keys = NULL;
	v->names = NULL;
	v->nnames = 0;
}

void syncview_free(struct syncview *v)
{
	if (!v)
		return;
	drop_names(v);
	sync_input_free(v->in);
	json_decref(v->pod_node);
	json_decref(v->by_node);
	json_decref(v->touched);
	free(v);
}

struct sync_input *syncview_input(struct syncview *v)
{
	return v->in;
}

static void touch(struct syncview *v, const char *node)
{
	json_object_set_new(v->touched, node, json_true());
}

int syncview_node(struct syncview *v, enum syncview_event t, const json_t *node, struct err *e)
{
	const char *name = syncinput_str_at(node, "metadata", "name");

	if (!name || !*name) /* the pass's message and kind */
		return sync_input_add_node(v->in, node, e);
	sync_input_node_forget(v->in, name);
	touch(v, name);
	return t == SYNCVIEW_DELETED ? 0 : sync_input_add_node(v->in, node, e);
}

/* Forget pod who from the pods its node keeps (nothing when not kept). */
static void unkeep(struct syncview *v, const char *who)
{
	const char *node = json_string_value(json_object_get(v->pod_node, who));
	json_t *pods;

	if (!node)
		return;
	touch(v, node);
	pods = json_object_get(v->by_node, node);
	json_object_del(pods, who);
	if (json_object_size(pods) == 0)
		json_object_del(v->by_node, node);
	json_object_del(v->pod_node, who);
}

int syncview_pod(struct syncview *v, enum syncview_event t, const json_t *pod, struct err *e)
{
	const json_t *meta = json_object_get(pod, "metadata");
	const char *ns = syncinput_str_at(meta, "namespace", NULL), *node = NULL;
	json_t *pods;
	char who[300];

	if (sync_input_pod_node(v->in, pod, &node, e) < 0)
		return -1;
	snprintf(who, sizeof(who), "%s/%s", ns ? ns : "", syncinput_str_at(meta, "name", NULL));
	unkeep(v, who);
	if (t == SYNCVIEW_DELETED || !node)
		return 0;
	if (!(pods = json_object_get(v->by_node, node))) {
		pods = json_object();
		json_object_set_new(v->by_node, node, pods);
	}
	json_object_set(pods, who, (json_t *)pod);
	json_object_set_new(v->pod_node, who, json_string(node));
	touch(v, node);
	return 0;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The keys of obj, sorted (owned copies, NULL-terminated). */
static char **sorted_keys(const json_t *obj, size_t *n)
{
	char **keys = xcalloc(json_object_size(obj) + 1, sizeof(*keys));
	const char *k;
	json_t *val;

	*n = 0;
	json_object_foreach((json_t *)obj, k, val) keys[(*n)++] = xstrdup(k);
	qsort(keys, *n, sizeof(*keys), by_string);
	return keys;
}

size_t syncview_flush(struct syncview *v, const char *const **names)
{
	drop_names(v);
	v->touched_keys = sorted_keys(v->touched, &v->nnames);
	json_object_clear(v->touched);
	v->names = xcalloc(v->nnames + 1, sizeof(*v->names));
	for (size_t i = 0; i < v->nnames; i++) {
		const json_t *pods = json_object_get(v->by_node, v->touched_keys[i]);
		size_t np;
		char **who = sorted_keys(pods, &np);

		v->names[i] = v->touched_keys[i];
		sync_input_node_forget_pods(v->in, v->touched_keys[i]);
		for (size_t k = 0; k < np; k++) {
			struct err e = { 0 }; /* cannot fail: read when it came */

			sync_input_add_pod(v->in, json_object_get(pods, who[k]), &e);
			free(who[k]);
		}
		free(who);
	}
	*names = v->names;
	return v->nnames;
}

size_t syncview_pods(const struct syncview *v)
{
	return json_object_size(v->pod_node);
}

size_t syncview_nodes(const struct syncview *v)
{
	return sync_input_nodes(v->in);
}
