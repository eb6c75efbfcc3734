// SPDX-License-Identifier: Apache-2.0
/* syncgather - kilo-sync's live inputs: Kubernetes pages and RM node lists (see syncrun.h) */
#include "run/syncitem.h"

#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/xalloc.h"

struct page_ctx {
	struct sync_input *in;
	struct sync_stats *st;
	int nodes; /* 1: a node listing, 0: pods */
};

static int on_page(void *arg, json_t *page, struct err *e)
{
	struct page_ctx *pc = arg;
	json_t *it;
	size_t i;

	if (!page) {
		/* The continue token expired (410): lib/remote/k8s lists again from a
		 * fresh snapshot, so the sums of the earlier pages go, and the
		 * pass goes on with complete sums (client-go's pager does the
		 * same).  Nodes are simply given again. */
		if (!pc->nodes) {
			sync_input_discard_pods(pc->in);
			pc->st->pods = 0;
		}
		pc->st->restarts++;
		return 0;
	}
	pc->st->pages++;
	json_array_foreach(json_object_get(page, "items"), i, it)
	{
		if ((pc->nodes ? sync_input_add_node(pc->in, it, e)
			       : sync_input_add_pod(pc->in, it, e)) < 0)
			return -1;
		if (!pc->nodes)
			pc->st->pods++;
	}
	return 0;
}

void sync_rms_init(struct sync_rms *r, const struct sync_config *sc, http_trace_fn *trace)
{
	r->n = sc->nclusters;
	r->c = xcalloc(r->n + 1, sizeof(*r->c));
	r->down = xcalloc(r->n + 1, sizeof(*r->down));
	r->down_code = xcalloc(r->n + 1, sizeof(*r->down_code));
	for (size_t i = 0; i < r->n; i++) {
		const struct sync_cluster *s = &sc->clusters[i];
		struct yarn_cluster *y = &r->c[i];

		yarn_cluster_init(y);
		y->id = s->id;
		y->rm_urls = s->rm_urls;
		y->n_rm = s->n_rm;
		y->user_name = s->user_name;
		y->http.timeout_ms = s->timeout_ms;
		y->http.tls.ca_file = s->ca_file;
		y->http.tls.cert_file = s->cert_file;
		y->http.tls.key_file = s->key_file;
		y->http.tls.insecure_skip_verify = s->insecure_skip_verify;
		y->http.trace = trace;
		y->rmadmin = s->rmadmin;
		y->rmadmin_timeout_ms = s->rmadmin_timeout_ms;
		if (s->kerberos) /* SPNEGO (remote/http_auth.h) */
			y->http.negotiate = http_negotiate_new(s->keytab, s->principal);
		for (size_t k = 0; k < s->n_rm; k++)
			http_url_secrets_add(s->rm_urls[k]);
	}
}

void sync_rms_release(struct sync_rms *r)
{
	for (size_t i = 0; r->c && i < r->n; i++)
		http_negotiate_free(r->c[i].http.negotiate);
	free(r->c);
	free(r->down);
	free(r->down_code);
	r->down_code = NULL;
	r->c = NULL;
	r->down = NULL;
	r->n = 0;
}

struct yarn_cluster *sync_rms_find(struct sync_rms *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->c[i].id, id) == 0)
			return &r->c[i];
	return NULL;
}

enum sync_reason sync_rm_down_code(const struct yarn_cluster *c, const struct err *e)
{
	if (c->error_status == 401 || c->error_status == 403)
		return SYNC_R_RM_REFUSED;
	if (c->error_status >= 500 || c->error_status == 429)
		return SYNC_R_RM_ERROR;
	if (e->kind == ERR_TEMP)
		return SYNC_R_RM_UNREACHABLE;
	return e->kind == ERR_REMOTE ? SYNC_R_RM_REFUSED : SYNC_R_RM_ANSWER_INVALID;
}

static void gather_rm(struct sync_input *in, struct sync_rms *rms, struct sync_stats *st)
{
	for (size_t i = 0; i < rms->n; i++) {
		struct yarn_cluster *c = &rms->c[i];
		struct yarn_nodes nodes = { 0 };
		struct err e = { 0 };

		st->clusters++;
		err_clear(&rms->down[i]);
		rms->down_code[i] = SYNC_R_NONE;
		if (yarn_nodes_list(c, &nodes, &e) < 0) {
			st->clusters_down++;
			rms->down_code[i] = sync_rm_down_code(c, &e);
			sync_input_cluster_unreachable(in, c->id, rms->down_code[i], e.msg);
			rms->down[i] = e;
			continue;
		}
		sync_input_cluster_rm(in, c->id, c->active, c->active_started_on);
		if (sync_input_add_rm_nodes(in, c->id, &nodes, &e) < 0) {
			rms->down_code[i] = SYNC_R_RM_ANSWER_INVALID;
			sync_input_cluster_unreachable(in, c->id, rms->down_code[i], e.msg);
			rms->down[i] = e;
		}
		yarn_nodes_release(&nodes);
	}
}

/* A listing that failed is a temporary failure of the pass when the
 * server may answer next time: a snapshot that kept expiring (410 after
 * K8S_LIST_RESTARTS restarts) like 429, 5xx and connection errors. */
static int list_failed(const struct k8s_client *kc, struct err *e, const char *what)
{
	if (kc->last_status == 410)
		e->kind = ERR_TEMP;
	return err_wrap(e, "%s", what);
}

int sync_gather(struct sync_input *in, const struct sync_config *sc, struct sync_rms *rms,
		struct k8s_client *kc, const char *const *only_nodes, struct sync_stats *st,
		struct err *e)
{
	int64_t deadline = clock_mono_ms() + sc->pass_timeout_ms;
	struct k8s_list_options pods = {
		.field_selector = "status.phase!=Succeeded,status.phase!=Failed",
		.label_selector = sc->pod_label_selector,
		.limit = sc->page_size,
		.max_pages = sc->max_pages,
		.deadline_ms = deadline,
		.item_fields = sync_input_fields, /* pages parsed as `plan --from` reads */
	};
	struct k8s_list_options nodes = { .limit = sc->page_size,
					  .max_pages = sc->max_pages,
					  .deadline_ms = deadline,
					  .item_fields = sync_input_fields };
	struct page_ctx pc = { .in = in, .st = st };

	sync_input_set_remote(in);
	if (only_nodes) {
		for (size_t i = 0; only_nodes[i]; i++) {
			json_t *node = k8s_node_get(kc, only_nodes[i], e);
			int ret;

			if (!node)
				return -1;
			ret = sync_input_add_node(in, node, e);
			json_decref(node);
			if (ret < 0)
				return -1;
			if (k8s_pods_list(kc, NULL, only_nodes[i], &pods, on_page, &pc, e) < 0)
				return list_failed(kc, e, "list pods");
		}
	} else {
		pc.nodes = 1;
		if (k8s_nodes_list(kc, &nodes, on_page, &pc, e) < 0)
			return list_failed(kc, e, "list nodes");
		pc.nodes = 0;
		if (k8s_pods_list(kc, NULL, NULL, &pods, on_page, &pc, e) < 0)
			return list_failed(kc, e, "list pods");
	}
	st->nodes = sync_input_nodes(in);
	/* a listing that gave nodes but not one pod (a proxy's empty answer, a
	 * podLabelSelector that selects nothing) would zero every node */
	if (!only_nodes && st->nodes > 0 && sync_input_pods(in) == 0)
		return err_set(e, ERR_TEMP, 0,
			       "listed %zu nodes but no pod: every node would lose its NodeManager "
			       "and YARN's share; nothing applied (check podLabelSelector)",
			       st->nodes);
	gather_rm(in, rms, st);
	if (clock_mono_ms() > deadline) /* the figures may be stale: write nothing */
		return err_set(e, ERR_TEMP, 0,
			       "gathering took longer than passTimeoutMs %lld: nothing applied",
			       (long long)sc->pass_timeout_ms);
	return 0;
}
