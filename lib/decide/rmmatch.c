// SPDX-License-Identifier: Apache-2.0
/* rmmatch - RM nodes against Nodes (see rmmatch.h) */
#include "decide/rmmatch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cleanup.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "decide/rmmatch.h"

int rmmatch_valid_node_id(const char *id)
{
	const char *colon = id ? strrchr(id, ':') : NULL, *p = colon ? colon + 1 : NULL;
	int64_t port;

	return colon && colon != id && num_scan_i64(&p, 1, 65535, &port) == 0 && !*p;
}

size_t rmmatch_id_host_len(const char *id)
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

int rmmatch_host_in(const char *host, size_t len, const json_t *names)
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

int rmmatch_host_names_node(const char *host, size_t len, const struct sync_node *n)
{
	return host_is(host, len, n->name) || rmmatch_host_in(host, len, n->addresses);
}

json_t *rmmatch_candidates(const struct in_cluster *c, const char *node_id)
{
	size_t hl = rmmatch_id_host_len(node_id), label = first_label(node_id, hl);
	json_t *arr = json_array();

	for (size_t i = 0; i < c->nodes.n; i++) {
		const struct yarn_node *y = &c->nodes.items[i];
		size_t yl = rmmatch_id_host_len(y->id), ylabel = first_label(y->id, yl);

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

	if (*y->id && rmmatch_host_names_node(y->id, rmmatch_id_host_len(y->id), n))
		return 1;
	if (*y->host && rmmatch_host_names_node(y->host, strlen(y->host), n))
		return 1;
	json_array_foreach(n->gone_ids, i, v)
	{
		if (*y->id && strcasecmp(y->id, json_string_value(v)) == 0)
			return 2;
	}
	return 0;
}

int rmmatch_impossible(const struct yarn_node *y)
{
	return y->used.vcores < 0 || y->used.memory_mb < 0 || y->used.vcores > SYNC_RM_MAX_VCORES ||
	       y->used.memory_mb > SYNC_RM_MAX_MB;
}

json_t *rmmatch_moved_to(const struct in_cluster *c, const struct yarn_node *y,
			 const struct sync_node *n, const json_t *claims, int64_t *cpu,
			 int64_t *mem)
{
	const char *id = n->nm_node_id;
	size_t hl = rmmatch_id_host_len(id);
	json_t *live = json_array();
	int64_t sc = 0, sm = 0;

	for (size_t i = 0; i < c->nodes.n; i++) {
		const struct yarn_node *z = &c->nodes.items[i];
		cleanup_free char *key = NULL;
		const json_t *who;
		int64_t zc, zm;

		if (z == y || !*z->id || strcmp(z->id, y->id) == 0 || z->inactive || z->bad ||
		    rmmatch_impossible(z))
			continue;
		if (!((rmmatch_id_host_len(z->id) == hl && strncasecmp(z->id, id, hl) == 0) ||
		      (strlen(z->host) == hl && strncasecmp(z->host, id, hl) == 0)))
			continue; /* another host (a first DNS label is not enough here) */
		key = rmmatch_claim_key(c->id, z->id);
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

int rmmatch_may_be_busy(const struct yarn_node *y)
{
	return y->bad || rmmatch_impossible(y) ||
	       (!y->inactive && (y->used.vcores > 0 || y->used.memory_mb > 0));
}

/* What RM node y of cluster c shows, for a reason: a new string. */
static char *rm_shows(const struct in_cluster *c, const struct yarn_node *y, const char *where)
{
	const char *id = *y->id ? y->id : *y->host ? y->host : "(no id)";

	if (y->bad)
		return xasprintf("RM node %s of cluster '%s'%s cannot be read (%s)", id, c->id,
				 where, y->bad);
	if (rmmatch_impossible(y))
		return xasprintf("RM node %s of cluster '%s'%s reports impossible used figures", id,
				 c->id, where);
	return xasprintf("RM node %s of cluster '%s'%s uses %lld vCores, %lld MB", id, c->id, where,
			 (long long)y->used.vcores, (long long)y->used.memory_mb);
}

/* s (len bytes) folded to lower case byte by byte as strncasecmp() folds
 * it (tolower, the same locale): a new string. */
static char *fold(const char *s, size_t len)
{
	char *k = xmalloc(len + 1);

	for (size_t i = 0; i < len; i++)
		k[i] = (char)tolower((unsigned char)s[i]);
	k[len] = '\0';
	return k;
}

static void index_add(json_t *idx, const char *s, size_t len, size_t item)
{
	cleanup_free char *k = NULL;
	json_t *arr;

	if (!len)
		return;
	k = fold(s, len);
	if (!(arr = json_object_get(idx, k))) {
		arr = json_array();
		json_object_set_new_nocheck(idx, k, arr);
	}
	if (!json_array_size(arr) ||
	    json_integer_value(json_array_get(arr, json_array_size(arr) - 1)) != (json_int_t)item)
		json_array_append_new(arr, json_integer((json_int_t)item));
}

json_t *rmmatch_busy_index(const struct yarn_nodes *nodes)
{
	json_t *idx = json_object();

	for (size_t i = 0; i < nodes->n; i++) {
		const struct yarn_node *y = &nodes->items[i];

		if (!rmmatch_may_be_busy(y))
			continue;
		if (*y->id) {
			size_t hl = rmmatch_id_host_len(y->id);

			index_add(idx, y->id, hl, i);
			index_add(idx, y->id, first_label(y->id, hl), i);
			index_add(idx, y->id, strlen(y->id), i); /* a terminating pod's id */
		}
		if (*y->host) {
			size_t hl = strlen(y->host);

			index_add(idx, y->host, hl, i);
			index_add(idx, y->host, first_label(y->host, hl), i);
		}
	}
	return idx;
}

/* Whether busy RM node y blocks zeroing on node n: 1 when it is on n's host
 * or named like n's NodeManager pod, 2 when a terminating NodeManager pod
 * on n names it, 0 otherwise. */
static int blocks(const struct yarn_node *y, const struct sync_node *n)
{
	int on = rm_node_on(y, n);

	if (!on && ((*y->id && rmmatch_host_in(y->id, rmmatch_id_host_len(y->id), n->nm_names)) ||
		    (*y->host && rmmatch_host_in(y->host, strlen(y->host), n->nm_names))))
		on = 1;
	return on;
}

/* The first item of c (below *best) that blocks n, among those indexed
 * under name: *best and *on set to it. */
static void first_blocking(const struct in_cluster *c, const char *name, const struct sync_node *n,
			   const struct yarn_node *skip, size_t *best, int *on)
{
	cleanup_free char *k = NULL;
	const json_t *v;
	size_t i;

	if (!name || !*name)
		return;
	k = fold(name, strlen(name));
	json_array_foreach(json_object_get(c->busy, k), i, v)
	{
		size_t at = (size_t)json_integer_value(v);
		int o;

		if (at >= *best) /* ascending */
			break;
		if (&c->nodes.items[at] == skip || !(o = blocks(&c->nodes.items[at], n)))
			continue;
		*best = at;
		*on = o;
		break;
	}
}

/* The number of RM node lists given (clusters read in this pass). */
static size_t rm_lists(const struct sync_input *in)
{
	size_t n = 0;

	for (size_t i = 0; i < in->nclusters; i++)
		n += in->clusters[i].has_nodes;
	return n;
}

char *rmmatch_zero_blocked(const struct sync_input *in, const struct sync_node *n,
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
		const json_t *lists[] = { n->addresses, n->nm_names, n->gone_ids };
		size_t best = c->nodes.n;
		int on = 0;

		/* the first busy RM node on n, as a search of the whole list
		 * finds it, from the items indexed under n's names (c->busy: an
		 * O(N) plan, not O(N^2)); each is judged by blocks() itself */
		first_blocking(c, n->name, n, skip, &best, &on);
		for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
			const json_t *v;
			size_t k;

			json_array_foreach(lists[l], k, v)
			{
				first_blocking(c, json_string_value(v), n, skip, &best, &on);
			}
		}
		if (c->has_nodes && best < c->nodes.n)
			return rm_shows(c, &c->nodes.items[best],
					on == 1 ? " on its host" : " named by a pod on it");
		/* found once a plan (sync_plan), not once a node */
		if (c->unclaimed && c->unclaimed != skip) {
			cleanup_free char *shows = rm_shows(c, c->unclaimed, "");

			return xasprintf("%s and no NodeManager pod claims it (it may run here)",
					 shows);
		}
	}
	return NULL;
}

char *rmmatch_claim_key(const char *cluster, const char *id)
{
	char *key = xasprintf("%s\n%s", cluster, id);

	for (char *p = key + strlen(cluster) + 1;
	     *p && p < key + strlen(cluster) + 1 + rmmatch_id_host_len(id); p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	return key;
}
