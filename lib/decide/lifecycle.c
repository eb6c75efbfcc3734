/* SPDX-License-Identifier: Apache-2.0 */
#include "decide/lifecycle.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/num.h"

static const char *const state_names[LC_STATE_COUNT] = {
	[LC_ACTIVE] = "active",   [LC_DRAINING] = "draining",   [LC_STUCK] = "stuck",
	[LC_OFFLINE] = "offline", [LC_RETURNING] = "returning",
};

const char *lc_state_name(enum lc_state s)
{
	return (unsigned)s < LC_STATE_COUNT ? state_names[s] : NULL;
}

int lc_state_parse(const char *s)
{
	for (int i = 0; s && i < LC_STATE_COUNT; i++)
		if (strcmp(s, state_names[i]) == 0)
			return i;
	return -1;
}

static int get_time(const json_t *doc, const char *ctx, const char *key, int64_t *ms, struct err *e)
{
	const char *s = NULL;
	int r = jsonio_get_str(doc, ctx, key, &s, e);

	if (r <= 0)
		return r;
	if (clock_parse_rfc3339(s, ms) < 0)
		return jsonio_bad_value(e, ctx, key, "an RFC 3339 time", json_object_get(doc, key));
	return 1;
}

int lc_record_parse(const char *value, const char *ctx, struct lc_record *r, struct err *e)
{
	json_auto_t *doc = jsonio_parse(value, ctx, e);

	memset(r, 0, sizeof(*r));
	r->pending_ms = -1;
	return doc ? lc_record_from_json(doc, ctx, r, e) : -1;
}

int lc_record_from_json(const json_t *doc, const char *ctx, struct lc_record *r, struct err *e)
{
	const char *state = NULL, *reason = NULL;
	int st, removed = 0;

	memset(r, 0, sizeof(*r));
	r->pending_ms = -1;
	if (!json_is_object(doc))
		return jsonio_bad_value(e, ctx, NULL, "an object", doc);
	if (jsonio_get_str(doc, ctx, "state", &state, e) < 0)
		return -1;
	if ((st = lc_state_parse(state)) < 0)
		return jsonio_bad_value(e, ctx, "state",
					"active, draining, stuck, offline or returning",
					json_object_get(doc, "state"));
	r->state = (enum lc_state)st;
	if (get_time(doc, ctx, "since", &r->since_ms, e) <= 0)
		return e->kind != ERR_NONE
			       ? -1
			       : jsonio_bad_value(e, ctx, "since", "an RFC 3339 time", NULL);
	if (get_time(doc, ctx, "pendingSince", &r->pending_ms, e) < 0 ||
	    jsonio_get_str(doc, ctx, "reason", &reason, e) < 0 ||
	    jsonio_get_bool(doc, ctx, "labelRemoved", &removed, e) < 0)
		return -1;
	{
		json_t *nm = NULL;
		char sub[120];

		snprintf(sub, sizeof(sub), "%s.nodeManagerRequest", ctx);
		if (jsonio_get_obj(doc, ctx, "nodeManagerRequest", &nm, e) < 0 ||
		    (nm && (jsonio_get_int(nm, sub, "cpuMilli", 0, INT64_C(1) << 53,
					   &r->nm_cpu_milli, e) <= 0 ||
			    jsonio_get_int(nm, sub, "memoryBytes", 0, INT64_C(1) << 53,
					   &r->nm_memory_bytes, e) <= 0)))
			return e->kind != ERR_NONE
				       ? -1
				       : jsonio_bad_value(e, sub, NULL,
							  "{cpuMilli, memoryBytes} integers", nm);
		r->nm_known = nm != NULL;
	}
	{
		json_t *ex = NULL;
		const char *host = NULL, *cluster = NULL;
		char sub[120];

		snprintf(sub, sizeof(sub), "%s.excluded", ctx);
		if (jsonio_get_obj(doc, ctx, "excluded", &ex, e) < 0 ||
		    (ex && (jsonio_get_str(ex, sub, "host", &host, e) < 0 ||
			    jsonio_get_str(ex, sub, "cluster", &cluster, e) < 0)))
			return -1;
		if (ex && (!host || !*host || strlen(host) >= sizeof(r->excluded_host)))
			return jsonio_bad_value(e, sub, "host", "a host name",
						json_object_get(ex, "host"));
		if (ex && (!cluster || !*cluster || strlen(cluster) >= sizeof(r->excluded_cluster)))
			return jsonio_bad_value(e, sub, "cluster", "a cluster id",
						json_object_get(ex, "cluster"));
		snprintf(r->excluded_host, sizeof(r->excluded_host), "%s", host ? host : "");
		snprintf(r->excluded_cluster, sizeof(r->excluded_cluster), "%s",
			 cluster ? cluster : "");
	}
	{
		json_t *rm = NULL;
		char sub[120];
		int64_t idx = 0;

		snprintf(sub, sizeof(sub), "%s.rm", ctx);
		if (jsonio_get_obj(doc, ctx, "rm", &rm, e) < 0 ||
		    (rm && (jsonio_get_int(rm, sub, "index", 0, 1000, &idx, e) <= 0 ||
			    jsonio_get_int(rm, sub, "startedOn", 1, INT64_C(1) << 53,
					   &r->rm_started_on, e) <= 0)) ||
		    jsonio_get_bool(doc, ctx, "rmChanged", &r->rm_changed, e) < 0)
			return e->kind != ERR_NONE
				       ? -1
				       : jsonio_bad_value(e, sub, NULL,
							  "{index, startedOn} integers", rm);
		r->rm_known = rm != NULL;
		r->rm_index = (int)idx;
	}
	if (reason && strlen(reason) >= sizeof(r->reason))
		return jsonio_bad_value(e, ctx, "reason", "a reason of at most 239 bytes",
					json_object_get(doc, "reason"));
	snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "");
	r->label_removed = removed;
	return 0;
}

json_t *lc_record_json(const struct lc_record *r)
{
	char since[32], pending[32];
	json_t *doc = json_pack("{s:s,s:s,s:s}", "state", lc_state_name(r->state), "since",
				clock_format_rfc3339(r->since_ms, since, sizeof(since)), "reason",
				r->reason);

	if (r->pending_ms >= 0)
		json_object_set_new(
			doc, "pendingSince",
			json_string(clock_format_rfc3339(r->pending_ms, pending, sizeof(pending))));
	if (r->label_removed)
		json_object_set_new(doc, "labelRemoved", json_true());
	if (r->excluded_host[0])
		json_object_set_new(doc, "excluded",
				    json_pack("{s:s,s:s}", "cluster", r->excluded_cluster, "host",
					      r->excluded_host));
	if (r->rm_known)
		json_object_set_new(doc, "rm",
				    json_pack("{s:i,s:I}", "index", r->rm_index, "startedOn",
					      (json_int_t)r->rm_started_on));
	if (r->rm_changed)
		json_object_set_new(doc, "rmChanged", json_true());
	if (r->nm_known)
		json_object_set_new(doc, "nodeManagerRequest",
				    json_pack("{s:I,s:I}", "cpuMilli", (json_int_t)r->nm_cpu_milli,
					      "memoryBytes", (json_int_t)r->nm_memory_bytes));
	return doc;
}

char *lc_record_format(const struct lc_record *r)
{
	json_auto_t *doc = lc_record_json(r);

	return json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

json_t *lc_part_json(const struct lc_step *st, const struct lc_record *cur, const char *basis,
		     const struct yarn_resource *batch)
{
	json_t *p = lc_record_json(&st->next);

	if (!cur && !st->record) /* no record: "since" would say only "now" */
		json_object_del(p, "since");
	if (st->changed)
		json_object_set_new(p, "previous",
				    json_string(lc_state_name(cur ? cur->state : LC_ACTIVE)));
	json_object_set_new(p, "action", json_string(st->record ? "record" : "none"));
	if (st->record || st->decommission) /* apply writes, excludes or includes only
					     * over the record this was decided on */
		json_object_set_new(p, "basis", basis ? json_string(basis) : json_null());
	json_object_set_new(p, "label",
			    json_string(st->label > 0   ? "set"
					: st->label < 0 ? "remove"
							: "none"));
	if (st->decommission) {
		json_object_set_new(p, "decommission",
				    json_string(st->decommission > 0 ? "exclude" : "include"));
		json_object_set_new(p, "decommissionHost",
				    json_pack("{s:s,s:s}", "cluster", st->decommission_cluster,
					      "host", st->decommission_host));
	}
	if (batch)
		json_object_set_new(p, "batch",
				    json_pack("{s:I,s:I}", "vCores", (json_int_t)batch->vcores,
					      "memoryMB", (json_int_t)batch->memory_mb));
	return p;
}

/* ---- the step ---- */

static int below_min(const struct sync_lifecycle *c, struct yarn_resource b)
{
	return b.vcores < c->min_vcores || b.memory_mb < c->min_memory_mb;
}

static int back_above(const struct sync_lifecycle *c, struct yarn_resource b)
{
	int64_t v, m;

	if (num_add(c->min_vcores, c->margin_vcores, &v) < 0 ||
	    num_add(c->min_memory_mb, c->margin_memory_mb, &m) < 0)
		return 0; /* unreachable: the config bounds both */
	return b.vcores >= v && b.memory_mb >= m;
}

/* The condition for the next state holds: has it held for hold ms?  Keeps
 * (or starts) pendingSince. */
static int held_for(struct lc_record *next, int64_t now, int64_t hold, const char *what,
		    struct yarn_resource b)
{
	if (next->pending_ms < 0 || next->pending_ms > now) {
		next->pending_ms = now;
		snprintf(next->reason, sizeof(next->reason),
			 "Batch %lld vCores/%lld MB %s once it stays so for %lld ms",
			 (long long)b.vcores, (long long)b.memory_mb, what, (long long)hold);
	}
	return now - next->pending_ms >= hold;
}

/* No YARN container left: the pod gone; decommissioning, the RM done with
 * it (DECOMMISSIONED, or gone since); resizing, 0/0 in use and no container
 * at a total of 0/0 (so none can have landed since). */
static int empty_at_rm(const struct sync_lifecycle *cfg, const struct lc_facts *f)
{
	if (f->seen == LC_SEEN_NO_NM)
		return 1;
	if (cfg->decommission)
		return yarn_node_state_inactive(f->rm_state);
	return f->rm_counted && f->rm_total.vcores == 0 && f->rm_total.memory_mb == 0 &&
	       f->rm_used.vcores == 0 && f->rm_used.memory_mb == 0 && f->rm_containers == 0;
}

static void go(struct lc_record *next, enum lc_state s, int64_t now, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void go(struct lc_record *next, enum lc_state s, int64_t now, const char *fmt, ...)
{
	va_list ap;

	next->state = s;
	next->since_ms = now;
	next->pending_ms = -1;
	va_start(ap, fmt);
	vsnprintf(next->reason, sizeof(next->reason), fmt, ap);
	va_end(ap);
}

#define RES(r) (long long)(r).vcores, (long long)(r).memory_mb

/* How long a drain may take before it is stuck: drainTimeoutMs; for a
 * graceful decommission at least the RM's own timeout and 5 minutes more
 * (the RM decommissions the node then, killing what still runs: not stuck
 * before it had its chance). */
static int64_t stuck_after(const struct sync_lifecycle *cfg, const struct lc_record *n)
{
	int64_t rm = cfg->decommission_timeout_s * 1000 + 300000; /* bounded by the config */

	return n->excluded_host[0] && rm > cfg->drain_timeout_ms ? rm : cfg->drain_timeout_ms;
}

/* decommission: put the node id's host on the exclude list */
static void exclude(const struct sync_lifecycle *cfg, struct lc_record *n, const struct lc_facts *f,
		    struct lc_step *out)
{
	if (!cfg->decommission || !f->host || !*f->host || !f->cluster ||
	    strlen(f->host) >= sizeof(n->excluded_host) ||
	    strlen(f->cluster) >= sizeof(n->excluded_cluster))
		return; /* held at 0/0 instead (lc_step.zero) */
	snprintf(n->excluded_host, sizeof(n->excluded_host), "%s", f->host);
	snprintf(n->excluded_cluster, sizeof(n->excluded_cluster), "%s", f->cluster);
	snprintf(out->decommission_host, sizeof(out->decommission_host), "%s", f->host);
	snprintf(out->decommission_cluster, sizeof(out->decommission_cluster), "%s", f->cluster);
	out->decommission = 1;
	if (!n->rm_known && f->rm_known) { /* the RM it begins under */
		n->rm_known = 1;
		n->rm_index = f->rm_index;
		n->rm_started_on = f->rm_started_on;
	}
}

/* take the host kilo excluded off the list again */
static void include(struct lc_record *n, struct lc_step *out)
{
	if (!n->excluded_host[0])
		return;
	out->decommission = -1;
	snprintf(out->decommission_host, sizeof(out->decommission_host), "%s", n->excluded_host);
	snprintf(out->decommission_cluster, sizeof(out->decommission_cluster), "%s",
		 n->excluded_cluster);
	n->excluded_host[0] = n->excluded_cluster[0] = '\0';
	n->rm_known = n->rm_changed = 0;
}

static const struct lc_facts no_facts = { .seen = LC_SEEN_NOTHING };

/* A decommission that began under another RM than the one answering now
 * (by the record's rm and this pass's), on the cluster whose list holds the
 * host kilo excluded. */
static int taken_over(const struct sync_lifecycle *cfg, const struct lc_record *n,
		      const struct lc_facts *f)
{
	return cfg->decommission && (n->state == LC_DRAINING || n->state == LC_STUCK) &&
	       n->excluded_host[0] && f->cluster && strcmp(n->excluded_cluster, f->cluster) == 0 &&
	       (n->rm_changed ||
		(n->rm_known && f->rm_known &&
		 (f->rm_index != n->rm_index || f->rm_started_on != n->rm_started_on)));
}

void lc_next(const struct sync_lifecycle *cfg, const struct lc_record *cur,
	     const struct lc_facts *f, int64_t now, struct lc_step *out)
{
	struct lc_record *n = &out->next;
	int labelled = cfg->label_key != NULL;

	memset(out, 0, sizeof(*out));
	if (cur) {
		*n = *cur;
		if (n->since_ms > now)
			n->since_ms = now;
	} else {
		*n = (struct lc_record){ .state = LC_ACTIVE, .since_ms = now, .pending_ms = -1 };
	}
	if (f->seen == LC_SEEN_RM_ABSENT && !taken_over(cfg, n, f))
		f = &no_facts;            /* no evidence of anything */
	if (f->seen == LC_SEEN_NOTHING) { /* no facts: the record stays as it is */
		out->zero = n->state == LC_DRAINING || n->state == LC_STUCK ||
			    n->state == LC_OFFLINE;
		return;
	}
	switch (n->state) {
	case LC_ACTIVE:
	case LC_RETURNING:
		if (!below_min(cfg, f->batch)) {
			n->pending_ms = -1;
			if (n->state == LC_RETURNING && f->seen == LC_SEEN_RM &&
			    !yarn_node_state_inactive(f->rm_state) &&
			    strcmp(f->rm_state ? f->rm_state : "", "DECOMMISSIONING") != 0)
				go(n, LC_ACTIVE, now,
				   "the NodeManager is back at the RM: its total follows "
				   "Batch again (%lld vCores/%lld MB)",
				   RES(f->batch));
			break;
		}
		if (n->state == LC_ACTIVE && f->seen == LC_SEEN_NO_NM) {
			n->pending_ms = -1; /* no NodeManager to drain: not kilo's to move */
			break;
		}
		if (!held_for(n, now, cfg->hold_down_ms, "below lifecycle.min: draining", f->batch))
			break;
		if (f->seen == LC_SEEN_RM) {
			go(n, LC_DRAINING, now,
			   "Batch %lld vCores/%lld MB below lifecycle.min %lld vCores/%lld MB for "
			   "%lld ms: %s, running containers finish",
			   RES(f->batch), (long long)cfg->min_vcores, (long long)cfg->min_memory_mb,
			   (long long)cfg->hold_down_ms,
			   cfg->decommission ? "decommissioning gracefully (the exclude "
					       "list, rmadmin -refreshNodes -g)"
					     : "held at 0/0");
			exclude(cfg, n, f, out);
		} else {
			int removed = labelled && f->label_present;

			go(n, LC_OFFLINE, now,
			   "Batch %lld vCores/%lld MB below lifecycle.min before the NodeManager "
			   "came back%s",
			   RES(f->batch), removed ? ": its label removed again" : "");
			n->label_removed = n->label_removed || removed;
			out->label = removed ? -1 : 0;
		}
		break;
	case LC_DRAINING:
	case LC_STUCK:
		if (cfg->decommission && n->excluded_host[0] && n->rm_known &&
		    (f->seen == LC_SEEN_RM || f->seen == LC_SEEN_RM_ABSENT) && f->rm_known &&
		    !n->rm_changed &&
		    (f->rm_index != n->rm_index || f->rm_started_on != n->rm_started_on)) {
			n->rm_changed = out->rm_changed = 1; /* YARN-5464 */
		}
		if (f->seen == LC_SEEN_RM_ABSENT) { /* taken_over(): refused, not listed */
			int removed = labelled && f->label_present;

			go(n, LC_OFFLINE, now,
			   "decommissioned at once: another RM took over during the graceful "
			   "decommission (a failover or a restart) and does not keep its timeout "
			   "(YARN-5464): refused the host; containers killed%s",
			   removed ? ": label removed, the NodeManager DaemonSet stops its pod"
				   : "");
			n->label_removed = removed;
			out->label = removed ? -1 : 0;
			break;
		}
		if (back_above(cfg, f->batch) && f->seen == LC_SEEN_RM) {
			if (held_for(n, now, cfg->hold_up_ms,
				     "back at lifecycle.min + returnMargin: the drain ends",
				     f->batch)) {
				go(n, LC_ACTIVE, now,
				   "Batch back at %lld vCores/%lld MB for %lld ms before the "
				   "node drained: drain cancelled",
				   RES(f->batch), (long long)cfg->hold_up_ms);
				include(n, out);
				break;
			}
		} else {
			n->pending_ms = -1;
		}
		if (empty_at_rm(cfg, f)) {
			int removed = labelled && f->label_present;

			go(n, LC_OFFLINE, now, "%s%s",
			   f->seen == LC_SEEN_NO_NM ? "the NodeManager pod is gone"
			   : n->rm_changed
				   ? "decommissioned at once: another RM took over during the "
				     "graceful decommission (a failover or a restart) and does not "
				     "keep its timeout (YARN-5464): containers still running were "
				     "killed"
			   : cfg->decommission ? "the RM decommissioned it"
					       : "no YARN container left on the node (the RM lists "
						 "0/0 in use)",
			   removed ? ": label removed, the NodeManager DaemonSet stops its pod"
				   : "");
			n->label_removed = removed;
			out->label = removed ? -1 : 0;
		} else if (cfg->decommission && f->seen == LC_SEEN_RM &&
			   !yarn_node_state_inactive(f->rm_state) &&
			   strcmp(f->rm_state ? f->rm_state : "", "DECOMMISSIONING") != 0) {
			exclude(cfg, n, f, out); /* not decommissioning yet: ask again */
		} else if (n->state == LC_DRAINING && now - n->since_ms >= stuck_after(cfg, n)) {
			if (n->excluded_host[0])
				go(n, LC_STUCK, now,
				   "still DECOMMISSIONING %lld ms after the drain began, past the RM's "
				   "own timeout (decommissionTimeoutSeconds %lld): the RM did not end "
				   "it (its log, yarn node -status)",
				   (long long)stuck_after(cfg, n),
				   (long long)cfg->decommission_timeout_s);
			else if (f->rm_counted)
				go(n, LC_STUCK, now,
				   "%lld containers (%lld vCores/%lld MB) still running %lld ms after "
				   "the drain began: not killed (local eviction still guards the node)",
				   (long long)f->rm_containers, RES(f->rm_used),
				   (long long)cfg->drain_timeout_ms);
			else
				go(n, LC_STUCK, now,
				   "the RM does not list what still runs there %lld ms after the drain "
				   "began (no numContainers or used figures): not killed",
				   (long long)cfg->drain_timeout_ms);
		}
		break;
	case LC_OFFLINE:
		if (!back_above(cfg, f->batch)) {
			n->pending_ms = -1;
			break;
		}
		if (!held_for(n, now, cfg->hold_up_ms,
			      "back at lifecycle.min + returnMargin: returning", f->batch))
			break;
		/* set again only where kilo removed it and no one has set the key
		 * since (another value is an operator's: it stands) */
		out->label = labelled && cur && cur->label_removed && !f->label_present &&
					     !f->label_other
				     ? 1
				     : 0;
		go(n, LC_RETURNING, now, "Batch back at %lld vCores/%lld MB for %lld ms%s",
		   RES(f->batch), (long long)cfg->hold_up_ms,
		   out->label > 0 ? ": label set again, the NodeManager returns"
		   : labelled && n->label_removed && f->label_other
			   ? ": the label's key has another value now (not kilo's): not set"
			   : "");
		n->label_removed = 0;
		include(n, out);
		break;
	default:
		break;
	}
	out->zero = n->state == LC_DRAINING || n->state == LC_STUCK || n->state == LC_OFFLINE;
	if (cfg->decommission && f->seen == LC_SEEN_RM &&
	    (yarn_node_state_inactive(f->rm_state) ||
	     strcmp(f->rm_state ? f->rm_state : "", "DECOMMISSIONING") == 0))
		out->zero = 0; /* the RM holds its total itself, or it is gone */
	out->changed = !cur ? n->state != LC_ACTIVE : n->state != cur->state;
	out->record = !cur ? (n->state != LC_ACTIVE || n->pending_ms >= 0)
			   : (out->changed || n->pending_ms != cur->pending_ms ||
			      n->label_removed != cur->label_removed ||
			      n->since_ms != cur->since_ms ||
			      strcmp(n->excluded_host, cur->excluded_host) != 0 ||
			      n->rm_changed != cur->rm_changed || n->rm_known != cur->rm_known);
}
