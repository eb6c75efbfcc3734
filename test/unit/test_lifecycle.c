/* SPDX-License-Identifier: Apache-2.0 */
/* The NodeManager lifecycle step (decide/lifecycle.h), every transition
 * from literals, and its record's parse and format. */
#include <check.h>
#include <string.h>

#include "core/jsonio.h"
#include "decide/lifecycle.h"
#include "doc/yarnhosts.h"
#include "testlib.h"

#define T INT64_C(1800000000000)
#define NONE (-1)

static const struct sync_lifecycle cfg = {
	.enabled = 1,
	.min_vcores = 1,
	.min_memory_mb = 1024,
	.margin_vcores = 1,
	.margin_memory_mb = 1024,
	.hold_down_ms = 300000,
	.hold_up_ms = 600000,
	.drain_timeout_ms = 3600000,
	.label_key = "kilo.sh/yarn-nodemanager",
	.label_value = "true",
};

enum { A = LC_ACTIVE, D = LC_DRAINING, S = LC_STUCK, O = LC_OFFLINE, R = LC_RETURNING, X = -1 };
enum { NOTHING = LC_SEEN_NOTHING, NO_NM = LC_SEEN_NO_NM, RM = LC_SEEN_RM };

/* One case: the record (state X: none), the facts, what must follow. */
struct lc_case {
	int line;
	int state;
	int64_t since, pending;
	int removed;
	int seen;
	int64_t bv, bm;         /* Batch */
	int64_t tv, tm, uv, um; /* RM total and used */
	int64_t containers;
	int label_present;
	/* want */
	int w_state;
	int64_t w_since, w_pending;
	int w_zero, w_label, w_record, w_removed;
};

#define C(...)                                                                                     \
	{                                                                                          \
		__LINE__, __VA_ARGS__                                                              \
	}

static const struct lc_case cases[] = {
	/* no record: a node with Batch is active, nothing written */
	C(X, 0, NONE, 0, RM, 10, 10240, 10, 10240, 0, 0, 0, 1, A, T, NONE, 0, 0, 0, 0),
	/* no record, Batch below min: the hold-down starts (recorded) */
	C(X, 0, NONE, 0, RM, 0, 512, 10, 10240, 0, 0, 0, 1, A, T, T, 0, 0, 1, 0),
	/* the hold-down not yet over: nothing changes */
	C(A, T - 900000, T - 299999, 0, RM, 0, 512, 10, 10240, 1, 1024, 1, 1, A, T - 900000,
	  T - 299999, 0, 0, 0, 0),
	/* over: draining, held at 0/0 */
	C(A, T - 900000, T - 300000, 0, RM, 0, 512, 10, 10240, 1, 1024, 1, 1, D, T, NONE, 1, 0, 1,
	  0),
	/* one dimension below is enough (vCores) */
	C(A, T - 900000, T - 300000, 0, RM, 0, 99999, 10, 10240, 1, 1024, 1, 1, D, T, NONE, 1, 0, 1,
	  0),
	/* exactly min is not below: the hold-down is forgotten */
	C(A, T - 900000, T - 100, 0, RM, 1, 1024, 1, 1024, 0, 0, 0, 1, A, T - 900000, NONE, 0, 0, 1,
	  0),
	/* active without a NodeManager pod: nothing of kilo's to drain */
	C(A, T - 900000, T - 400000, 0, NO_NM, 0, 0, 0, 0, 0, 0, 0, 1, A, T - 900000, NONE, 0, 0, 1,
	  0),
	/* a pendingSince in the future counts as now: no early drain */
	C(A, T - 900000, T + 5000000, 0, RM, 0, 0, 10, 10240, 0, 0, 0, 1, A, T - 900000, T, 0, 0, 1,
	  0),
	/* a since in the future counts as now */
	C(A, T + 1000, NONE, 0, RM, 10, 10240, 10, 10240, 0, 0, 0, 1, A, T, NONE, 0, 0, 1, 0),
	/* draining, containers still running: held */
	C(D, T - 1000, NONE, 0, RM, 0, 0, 0, 0, 2, 2048, 2, 1, D, T - 1000, NONE, 1, 0, 0, 0),
	/* the RM still lists the old total (the resize not yet applied): not empty */
	C(D, T - 1000, NONE, 0, RM, 0, 0, 4, 4096, 0, 0, 0, 1, D, T - 1000, NONE, 1, 0, 0, 0),
	/* a container the RM lists with no figures: not empty */
	C(D, T - 1000, NONE, 0, RM, 0, 0, 0, 0, 0, 0, 1, 1, D, T - 1000, NONE, 1, 0, 0, 0),
	/* past drainTimeoutMs: stuck, still held, nothing killed */
	C(D, T - 3600000, NONE, 0, RM, 0, 0, 0, 0, 2, 2048, 2, 1, S, T, NONE, 1, 0, 1, 0),
	/* stuck stays stuck while containers run */
	C(S, T - 99999999, NONE, 0, RM, 0, 0, 0, 0, 1, 1024, 1, 1, S, T - 99999999, NONE, 1, 0, 0,
	  0),
	/* drained: offline, the label removed */
	C(D, T - 1000, NONE, 0, RM, 0, 0, 0, 0, 0, 0, 0, 1, O, T, NONE, 1, -1, 1, 1),
	/* drained, the label already gone (an operator's): not kilo's to set again */
	C(D, T - 1000, NONE, 0, RM, 0, 0, 0, 0, 0, 0, 0, 0, O, T, NONE, 1, 0, 1, 0),
	/* stuck, then drained */
	C(S, T - 1000, NONE, 0, RM, 0, 0, 0, 0, 0, 0, 0, 1, O, T, NONE, 1, -1, 1, 1),
	/* draining and the NodeManager pod gone: offline */
	C(D, T - 1000, NONE, 0, NO_NM, 0, 0, 0, 0, 0, 0, 0, 1, O, T, NONE, 1, -1, 1, 1),
	/* Batch back while draining: the hold-up starts, still held */
	C(D, T - 1000, NONE, 0, RM, 2, 2048, 0, 0, 1, 1024, 1, 1, D, T - 1000, T, 1, 0, 1, 0),
	/* back long enough: the drain is cancelled */
	C(D, T - 9000000, T - 600000, 0, RM, 2, 2048, 0, 0, 1, 1024, 1, 1, A, T, NONE, 0, 0, 1, 0),
	/* back above min but not min + margin: the hold-up is forgotten */
	C(D, T - 1000, T - 10, 0, RM, 1, 2048, 0, 0, 1, 1024, 1, 1, D, T - 1000, NONE, 1, 0, 1, 0),
	/* offline, still no Batch: held at 0/0 */
	C(O, T - 1000, NONE, 1, NO_NM, 0, 0, 0, 0, 0, 0, 0, 0, O, T - 1000, NONE, 1, 0, 0, 1),
	/* offline, Batch back: the hold-up starts */
	C(O, T - 1000, NONE, 1, NO_NM, 2, 2048, 0, 0, 0, 0, 0, 0, O, T - 1000, T, 1, 0, 1, 1),
	/* ... and is over: returning, the label set again */
	C(O, T - 9000000, T - 600000, 1, NO_NM, 2, 2048, 0, 0, 0, 0, 0, 0, R, T, NONE, 0, 1, 1, 0),
	/* returning a node whose label kilo did not remove: the label stays as it is */
	C(O, T - 9000000, T - 600000, 0, NO_NM, 2, 2048, 0, 0, 0, 0, 0, 0, R, T, NONE, 0, 0, 1, 0),
	/* offline with the NodeManager still registered (no label): returning */
	C(O, T - 9000000, T - 600000, 0, RM, 8, 8192, 0, 0, 0, 0, 0, 1, R, T, NONE, 0, 0, 1, 0),
	/* returning, no NodeManager pod yet: waiting */
	C(R, T - 1000, NONE, 0, NO_NM, 8, 8192, 0, 0, 0, 0, 0, 1, R, T - 1000, NONE, 0, 0, 0, 0),
	/* returning, the NodeManager is back at the RM: active */
	C(R, T - 1000, NONE, 0, RM, 8, 8192, 8, 8192, 0, 0, 0, 1, A, T, NONE, 0, 0, 1, 0),
	/* returning, Batch gone again before the NodeManager came: offline, label off */
	C(R, T - 9000000, T - 300000, 0, NO_NM, 0, 0, 0, 0, 0, 0, 0, 1, O, T, NONE, 1, -1, 1, 1),
	/* returning, Batch gone again with the NodeManager up: draining */
	C(R, T - 9000000, T - 300000, 0, RM, 0, 0, 8, 8192, 0, 0, 0, 1, D, T, NONE, 1, 0, 1, 0),
	/* nothing known of the node this pass: the record stays, holds stay */
	C(O, T - 1000, T - 500, 1, NOTHING, 99, 99999, 0, 0, 0, 0, 0, 0, O, T - 1000, T - 500, 1, 0,
	  0, 1),
	C(D, T - 99999999, NONE, 0, NOTHING, 0, 0, 0, 0, 5, 5, 5, 1, D, T - 99999999, NONE, 1, 0, 0,
	  0),
	C(A, T - 1000, T - 99999999, 0, NOTHING, 0, 0, 0, 0, 0, 0, 0, 1, A, T - 1000, T - 99999999,
	  0, 0, 0, 0),
};

START_TEST(test_lifecycle_transitions)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct lc_case *c = &cases[i];
		struct lc_record cur = { .state = (enum lc_state)(c->state < 0 ? 0 : c->state),
					 .since_ms = c->since,
					 .pending_ms = c->pending,
					 .label_removed = c->removed };
		struct lc_facts f = {
			.seen = (enum lc_seen)c->seen,
			.batch = { .vcores = c->bv, .memory_mb = c->bm },
			.rm_total = { .vcores = c->tv, .memory_mb = c->tm },
			.rm_used = { .vcores = c->uv, .memory_mb = c->um },
			.rm_containers = c->containers,
			.rm_counted = c->seen == RM,
			.label_present = c->label_present,
		};
		struct lc_step st;

		lc_next(&cfg, c->state < 0 ? NULL : &cur, &f, T, &st);
		ck_assert_msg(st.next.state == (enum lc_state)c->w_state &&
				      st.next.since_ms == c->w_since &&
				      st.next.pending_ms == c->w_pending && st.zero == c->w_zero &&
				      st.label == c->w_label && st.record == c->w_record &&
				      st.next.label_removed == c->w_removed,
			      "line %d: got %s since %lld pending %lld zero %d label %d record %d "
			      "removed %d (%s)",
			      c->line, lc_state_name(st.next.state),
			      (long long)(st.next.since_ms - T),
			      (long long)(st.next.pending_ms < 0 ? -1 : st.next.pending_ms - T),
			      st.zero, st.label, st.record, st.next.label_removed, st.next.reason);
		ck_assert_int_eq(st.changed,
				 c->state < 0 ? c->w_state != A : c->w_state != c->state);
	}
}
END_TEST

/* Without lifecycle.nodeLabel no label is ever touched. */
START_TEST(test_lifecycle_without_label)
{
	struct sync_lifecycle nolabel = cfg;
	struct lc_record d = { .state = LC_DRAINING, .since_ms = T - 1000, .pending_ms = -1 };
	struct lc_facts f = { .seen = LC_SEEN_RM, .rm_counted = 1, .label_present = 1 };
	struct lc_step st;

	nolabel.label_key = nolabel.label_value = NULL;
	lc_next(&nolabel, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_OFFLINE);
	ck_assert_int_eq(st.label, 0);
	ck_assert_int_eq(st.next.label_removed, 0);
	ck_assert_str_eq(st.next.reason,
			 "no YARN container left on the node (the RM lists 0/0 in use)");
}
END_TEST

/* The reasons an operator reads, with their figures. */
START_TEST(test_lifecycle_reasons)
{
	struct lc_record a = { .state = LC_ACTIVE, .since_ms = T - 1, .pending_ms = T - 300000 };
	struct lc_record d = { .state = LC_DRAINING, .since_ms = T - 3600000, .pending_ms = -1 };
	struct lc_facts f = { .seen = LC_SEEN_RM,
			      .batch = { .vcores = 0, .memory_mb = 512 },
			      .rm_used = { .vcores = 3, .memory_mb = 3072 },
			      .rm_containers = 3,
			      .rm_counted = 1,
			      .label_present = 1 };
	struct lc_step st;

	lc_next(&cfg, &a, &f, T, &st);
	ck_assert_str_eq(st.next.reason,
			 "Batch 0 vCores/512 MB below lifecycle.min 1 vCores/1024 MB for 300000 "
			 "ms: held at 0/0, running containers finish");
	lc_next(&cfg, &d, &f, T, &st);
	ck_assert_str_eq(st.next.reason,
			 "3 containers (3 vCores/3072 MB) still running 3600000 ms after the drain "
			 "began: not killed (local eviction still guards the node)");
}
END_TEST

START_TEST(test_lifecycle_record_round_trip)
{
	struct lc_record r = { .state = LC_OFFLINE,
			       .since_ms = T,
			       .pending_ms = T + 1000,
			       .label_removed = 1 },
			 back;
	struct err e = { 0 };
	char *s;

	snprintf(r.reason, sizeof(r.reason), "drained \"quoted\"");
	s = lc_record_format(&r);
	ck_assert_str_eq(s, "{\"state\":\"offline\",\"since\":\"2027-01-15T08:00:00Z\",\"reason\":"
			    "\"drained \\\"quoted\\\"\",\"pendingSince\":\"2027-01-15T08:00:01Z\","
			    "\"labelRemoved\":true}");
	ck_assert_int_eq(lc_record_parse(s, "r", &back, &e), 0);
	ck_assert_int_eq(back.state, LC_OFFLINE);
	ck_assert_int_eq(back.since_ms, T);
	ck_assert_int_eq(back.pending_ms, T + 1000);
	ck_assert_int_eq(back.label_removed, 1);
	ck_assert_str_eq(back.reason, r.reason);
	free(s);
	/* the minimal record, and a later kilo's extra field */
	ck_assert_int_eq(lc_record_parse("{\"state\":\"stuck\",\"since\":\"2027-01-15T08:00:00Z\","
					 "\"newer\":[1]}",
					 "r", &back, &e),
			 0);
	ck_assert_int_eq(back.state, LC_STUCK);
	ck_assert_int_eq(back.pending_ms, -1);
	ck_assert_int_eq(back.label_removed, 0);
}
END_TEST

START_TEST(test_lifecycle_record_refused)
{
	static const struct {
		const char *value, *msg;
	} bad[] = {
		{ "not json", NULL },
		{ "[1]", NULL },
		{ "{\"since\":\"2027-01-15T08:00:00Z\"}",
		  "r.state: expected active, draining, stuck, offline or returning, got nothing" },
		{ "{\"state\":\"gone\",\"since\":\"2027-01-15T08:00:00Z\"}",
		  "r.state: expected active, draining, stuck, offline or returning, got \"gone\"" },
		{ "{\"state\":\"offline\"}", "r.since: expected an RFC 3339 time, got nothing" },
		{ "{\"state\":\"offline\",\"since\":\"yesterday\"}",
		  "r.since: expected an RFC 3339 time, got \"yesterday\"" },
		{ "{\"state\":\"offline\",\"since\":7}", NULL },
		{ "{\"state\":\"offline\",\"since\":\"2027-01-15T08:00:00Z\",\"labelRemoved\":\"yes\"}",
		  NULL },
		{ "{\"state\":\"offline\",\"since\":\"2027-01-15T08:00:00Z\",\"pendingSince\":\"x\"}",
		  "r.pendingSince: expected an RFC 3339 time, got \"x\"" },
	};
	char longer[400];
	struct lc_record r;
	struct err e = { 0 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err_clear(&e);
		ck_assert_msg(lc_record_parse(bad[i].value, "r", &r, &e) == -1, "%s", bad[i].value);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		if (bad[i].msg)
			ck_assert_str_eq(e.msg, bad[i].msg);
	}
	snprintf(longer, sizeof(longer),
		 "{\"state\":\"offline\",\"since\":\"2027-01-15T08:00:00Z\",\"reason\":\"%0300d\"}",
		 0);
	err_clear(&e);
	ck_assert_int_eq(lc_record_parse(longer, "r", &r, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "r.reason: expected a reason of at most 239 bytes"));
}
END_TEST

/* lifecycle.drain decommission: the exclude list instead of 0/0 */
START_TEST(test_lifecycle_decommission)
{
	struct sync_lifecycle dc = cfg;
	struct lc_record a = { .state = LC_ACTIVE, .since_ms = T - 1, .pending_ms = T - 300000 };
	struct lc_facts f = { .seen = LC_SEEN_RM,
			      .batch = { .vcores = 0, .memory_mb = 512 },
			      .rm_total = { .vcores = 8, .memory_mb = 8192 },
			      .rm_used = { .vcores = 2, .memory_mb = 2048 },
			      .rm_containers = 2,
			      .rm_state = "RUNNING",
			      .host = "w1.example.com",
			      .cluster = "c1",
			      .label_present = 1 };
	struct lc_step st;
	struct lc_record d;

	dc.decommission = 1;
	dc.decommission_timeout_s = 3600;
	/* active -> draining: exclude, and 0/0 until the RM says DECOMMISSIONING */
	lc_next(&dc, &a, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_DRAINING);
	ck_assert_int_eq(st.decommission, 1);
	ck_assert_str_eq(st.decommission_host, "w1.example.com");
	ck_assert_str_eq(st.decommission_cluster, "c1");
	ck_assert_str_eq(st.next.excluded_host, "w1.example.com");
	ck_assert_int_eq(st.zero, 1);
	ck_assert_ptr_nonnull(strstr(st.next.reason, "decommissioning gracefully"));
	d = st.next;
	/* the RM shows it DECOMMISSIONING: nothing to send, nothing to ask */
	f.rm_state = "DECOMMISSIONING";
	lc_next(&dc, &d, &f, T + 1000, &st);
	ck_assert_int_eq(st.next.state, LC_DRAINING);
	ck_assert_int_eq(st.decommission, 0);
	ck_assert_int_eq(st.zero, 0);
	ck_assert_int_eq(st.record, 0);
	/* still RUNNING a pass later (the refresh did not take): asked again */
	f.rm_state = "RUNNING";
	lc_next(&dc, &d, &f, T + 1000, &st);
	ck_assert_int_eq(st.decommission, 1);
	ck_assert_int_eq(st.zero, 1);
	ck_assert_int_eq(st.record, 0);
	/* 0/0 in use is not the end in this mode: the RM decides */
	f.rm_state = "DECOMMISSIONING";
	f.rm_used = (struct yarn_resource){ 0 };
	f.rm_total = (struct yarn_resource){ 0 };
	f.rm_containers = 0;
	lc_next(&dc, &d, &f, T + 2000, &st);
	ck_assert_int_eq(st.next.state, LC_DRAINING);
	/* DECOMMISSIONED: offline, the label goes (its NodeManager exits) */
	f.rm_state = "DECOMMISSIONED";
	lc_next(&dc, &d, &f, T + 3000, &st);
	ck_assert_int_eq(st.next.state, LC_OFFLINE);
	ck_assert_int_eq(st.label, -1);
	ck_assert_int_eq(st.zero, 0);
	ck_assert_str_eq(st.next.excluded_host, "w1.example.com");
	/* offline -> returning: off the exclude list first, the label back */
	d = st.next;
	f = (struct lc_facts){ .seen = LC_SEEN_NO_NM, .batch = { .vcores = 8, .memory_mb = 8192 } };
	d.pending_ms = T - 600000;
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_RETURNING);
	ck_assert_int_eq(st.decommission, -1);
	ck_assert_str_eq(st.decommission_host, "w1.example.com");
	ck_assert_str_eq(st.decommission_cluster, "c1");
	ck_assert_str_eq(st.next.excluded_host, "");
	ck_assert_int_eq(st.label, 1);
	/* the RM's old DECOMMISSIONED entry is no NodeManager back (from a
	 * review): returning until it registers RUNNING */
	d = st.next;
	f = (struct lc_facts){ .seen = LC_SEEN_RM,
			       .batch = { .vcores = 8, .memory_mb = 8192 },
			       .rm_state = "DECOMMISSIONED",
			       .host = "w1.example.com",
			       .cluster = "c1" };
	lc_next(&dc, &d, &f, T + 10, &st);
	ck_assert_int_eq(st.next.state, LC_RETURNING);
	f.rm_state = "RUNNING";
	lc_next(&dc, &d, &f, T + 20, &st);
	ck_assert_int_eq(st.next.state, LC_ACTIVE);
}
END_TEST

/* A drain cancelled before DECOMMISSIONED takes the host off the list */
START_TEST(test_lifecycle_decommission_cancelled)
{
	struct sync_lifecycle dc = cfg;
	struct lc_record d = { .state = LC_DRAINING,
			       .since_ms = T - 9000,
			       .pending_ms = T - 600000 };
	struct lc_facts f = { .seen = LC_SEEN_RM,
			      .batch = { .vcores = 8, .memory_mb = 8192 },
			      .rm_state = "DECOMMISSIONING",
			      .rm_containers = 1,
			      .host = "w1",
			      .cluster = "c1" };
	struct lc_step st;

	dc.decommission = 1;
	snprintf(d.excluded_host, sizeof(d.excluded_host), "w1");
	snprintf(d.excluded_cluster, sizeof(d.excluded_cluster), "c1");
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_ACTIVE);
	ck_assert_int_eq(st.decommission, -1);
	ck_assert_str_eq(st.decommission_host, "w1");
}
END_TEST

START_TEST(test_yarn_hosts_edit)
{
	static const struct {
		const char *in, *host;
		int add;
		const char *out;
		int changed;
	} cases[] = {
		{ NULL, "w1", 1, "w1\n", 1 },
		{ "", "w1", 1, "w1\n", 1 },
		{ "# the operator's\nold-1\n", "w1", 1, "# the operator's\nold-1\nw1\n", 1 },
		{ "old-1", "w1", 1, "old-1\nw1\n", 1 },
		{ "old-1 W1 old-2\n", "w1", 1, "old-1 W1 old-2\n", 0 }, /* listed: case aside */
		{ "# w1 in a comment\n", "w1", 1, "# w1 in a comment\nw1\n", 1 },
		{ "old-1\nw1\nold-2\n", "w1", 0, "old-1\nold-2\n", 1 },
		{ "old-1 w1 old-2\n", "w1", 0, "old-1  old-2\n", 1 },
		{ "w1 # kilo\nold\n", "w1", 0, " # kilo\nold\n", 1 },
		{ "w1\n  w1\t\nw10\n", "w1", 0, "w10\n", 1 }, /* w10 is another host */
		{ "old-1\n", "w1", 0, "old-1\n", 0 },
		{ "# w1\n", "w1", 0, "# w1\n", 0 },
	};
	struct err e = { 0 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int changed = -1;
		char *out = yarn_hosts_edit(cases[i].in, cases[i].host, cases[i].add, &changed, &e);

		ck_assert_msg(out != NULL, "case %zu: %s", i, e.msg);
		ck_assert_msg(strcmp(out, cases[i].out) == 0 && changed == cases[i].changed,
			      "case %zu: got '%s' changed %d", i, out, changed);
		free(out);
	}
	ck_assert_int_eq(yarn_hosts_has("a b\n# w1\nc", "w1"), 0);
	ck_assert_int_eq(yarn_hosts_has("a b\nW1# x\nc", "w1"), 1);
	{
		int changed;

		ck_assert_ptr_null(yarn_hosts_edit("", "bad host", 1, &changed, &e));
		ck_assert_str_eq(e.msg, "'bad host' is not a host name for the exclude list");
		ck_assert_ptr_null(yarn_hosts_edit("", "h#x", 1, &changed, &e));
		ck_assert_ptr_null(yarn_hosts_edit("", "", 0, &changed, &e));
	}
}
END_TEST

/* Another RM process during a decommission (a restart: same index, a new
 * startedOn) is found once and kept in the record; unknown identities are
 * no evidence */
START_TEST(test_lifecycle_decommission_rm_changed)
{
	struct sync_lifecycle dc = cfg;
	struct lc_record d = { .state = LC_DRAINING,
			       .since_ms = T - 9000,
			       .pending_ms = -1,
			       .rm_known = 1,
			       .rm_index = 0,
			       .rm_started_on = 1000 };
	struct lc_facts f = { .seen = LC_SEEN_RM,
			      .rm_state = "DECOMMISSIONING",
			      .rm_containers = 1,
			      .host = "w1",
			      .cluster = "c1",
			      .rm_known = 1,
			      .rm_index = 0,
			      .rm_started_on = 1000 };
	struct lc_step st;

	dc.decommission = 1;
	snprintf(d.excluded_host, sizeof(d.excluded_host), "w1");
	snprintf(d.excluded_cluster, sizeof(d.excluded_cluster), "c1");
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.rm_changed, 0);
	ck_assert_int_eq(st.record, 0);
	f.rm_known = 0; /* plan --from: not known */
	f.rm_started_on = 0;
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.rm_changed, 0);
	f.rm_known = 1;
	f.rm_started_on = 2000; /* the same RM restarted */
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.rm_changed, 1);
	ck_assert_int_eq(st.next.rm_changed, 1);
	ck_assert_int_eq(st.record, 1);
	ck_assert_int_eq(st.next.state, LC_DRAINING);
	d = st.next;
	f.rm_state = "DECOMMISSIONED";
	lc_next(&dc, &d, &f, T + 1, &st);
	ck_assert_int_eq(st.rm_changed, 0); /* said once */
	ck_assert_int_eq(st.next.state, LC_OFFLINE);
	ck_assert_ptr_nonnull(strstr(st.next.reason, "YARN-5464"));
	{
		char *s = lc_record_format(&st.next);
		struct lc_record back;
		struct err e = { 0 };

		ck_assert_ptr_nonnull(
			strstr(s, "\"rm\":{\"index\":0,\"startedOn\":1000},\"rmChanged\":true"));
		ck_assert_int_eq(lc_record_parse(s, "r", &back, &e), 0);
		ck_assert_int_eq(back.rm_changed, 1);
		ck_assert_int_eq(back.rm_started_on, 1000);
		ck_assert_str_eq(back.excluded_host, "w1");
		free(s);
	}
}
END_TEST

/* The real RM after a failover (or a restart) during a graceful
 * decommission refuses the excluded host and lists no node for it
 * (Hadoop 3.4.2, test/hadoop/tests/decommission.sh): offline at once,
 * rmChanged, the label removed.  Absent from the RM the drain began under,
 * without the RMs' identities, on another cluster, in resize mode or in
 * another state, it is no evidence: the record is held. */
START_TEST(test_lifecycle_decommission_rm_absent)
{
	struct sync_lifecycle dc = cfg;
	struct lc_record d = { .state = LC_DRAINING,
			       .since_ms = T - 9000,
			       .pending_ms = -1,
			       .rm_known = 1,
			       .rm_index = 0,
			       .rm_started_on = 1000 };
	struct lc_facts f = { .seen = LC_SEEN_RM_ABSENT,
			      .batch = { .vcores = 8, .memory_mb = 8192 }, /* back, even */
			      .cluster = "c1",
			      .rm_known = 1,
			      .rm_index = 1,
			      .rm_started_on = 2000,
			      .label_present = 1 };
	struct lc_step st;

	dc.decommission = 1;
	snprintf(d.excluded_host, sizeof(d.excluded_host), "w1");
	snprintf(d.excluded_cluster, sizeof(d.excluded_cluster), "c1");
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_OFFLINE);
	ck_assert_int_eq(st.changed, 1);
	ck_assert_int_eq(st.record, 1);
	ck_assert_int_eq(st.rm_changed, 1);
	ck_assert_int_eq(st.next.rm_changed, 1);
	ck_assert_int_eq(st.label, -1);
	ck_assert_int_eq(st.next.label_removed, 1);
	ck_assert_int_eq(st.decommission, 0); /* the host stays listed until the return */
	ck_assert_str_eq(st.next.excluded_host, "w1");
	ck_assert_int_eq(st.next.rm_index, 0);
	ck_assert_str_eq(st.next.reason,
			 "decommissioned at once: another RM took over during the graceful "
			 "decommission (a failover or a restart) and does not keep its timeout "
			 "(YARN-5464): refused the host; containers killed: label removed, the "
			 "NodeManager DaemonSet stops its pod");
	d.state = LC_STUCK; /* stuck the same */
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_OFFLINE);
	d.state = LC_DRAINING;
	d.rm_changed = 1; /* found before (the new RM listed it first): no second word */
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_OFFLINE);
	ck_assert_int_eq(st.rm_changed, 0);
	d.rm_changed = 0;
	{
		struct lc_facts same = f, unknown = f, other = f;
		struct lc_record active = d, norm = d;
		struct sync_lifecycle resize = cfg;

		same.rm_index = 0;
		same.rm_started_on = 1000;
		unknown.rm_known = 0;
		other.cluster = "c2";
		active.state = LC_ACTIVE;
		norm.rm_known = 0;
		const struct {
			const struct sync_lifecycle *c;
			const struct lc_record *r;
			const struct lc_facts *f;
		} held[] = {
			{ &dc, &d, &same },  { &dc, &d, &unknown }, { &dc, &d, &other },
			{ &resize, &d, &f }, { &dc, &active, &f },  { &dc, &norm, &f },
		};

		for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++) {
			lc_next(held[i].c, held[i].r, held[i].f, T, &st);
			ck_assert_msg(st.next.state == held[i].r->state && !st.record &&
					      !st.label && !st.rm_changed && !st.decommission,
				      "case %zu: state %d record %d label %d", i, st.next.state,
				      st.record, st.label);
		}
	}
}
END_TEST

/* A record from before the year 1000 (a valid RFC 3339 time) is written
 * back as one: kilo never writes a record it cannot read. */
START_TEST(test_lifecycle_record_old_times)
{
	struct lc_record r, back;
	struct lc_facts f = { .seen = LC_SEEN_NO_NM, .batch = { .vcores = 8, .memory_mb = 8192 } };
	struct lc_step st;
	struct err e = { 0 };
	char *s;

	ck_assert_int_eq(
		lc_record_parse("{\"state\":\"offline\",\"since\":\"0999-01-01T00:00:00Z\","
				"\"labelRemoved\":true}",
				"r", &r, &e),
		0);
	lc_next(&cfg, &r, &f, T, &st); /* the hold-up starts: the record is written */
	ck_assert_int_eq(st.record, 1);
	s = lc_record_format(&st.next);
	ck_assert_msg(lc_record_parse(s, "r", &back, &e) == 0, "%s: %s", s, e.msg);
	ck_assert_int_eq(back.since_ms, r.since_ms);
	ck_assert_int_eq(back.pending_ms, T);
	free(s);
}
END_TEST

/* An RM entry without numContainers or the used figures says nothing of
 * what runs there: 0/0 of it is no drain, and the stuck reason says why. */
START_TEST(test_lifecycle_uncounted_is_not_empty)
{
	struct lc_record d = { .state = LC_DRAINING, .since_ms = T - 1000, .pending_ms = -1 };
	struct lc_facts f = { .seen = LC_SEEN_RM, .label_present = 1 };
	struct lc_step st;

	lc_next(&cfg, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_DRAINING);
	ck_assert_int_eq(st.label, 0);
	ck_assert_int_eq(st.zero, 1);
	d.since_ms = T - 3600000;
	lc_next(&cfg, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_STUCK);
	ck_assert_str_eq(st.next.reason,
			 "the RM does not list what still runs there 3600000 ms after the drain "
			 "began (no numContainers or used figures): not killed");
}
END_TEST

/* kilo sets its label again only where the key is gone: another value is
 * someone else's (an operator keeping the node out). */
START_TEST(test_lifecycle_return_keeps_another_value)
{
	struct lc_record o = { .state = LC_OFFLINE,
			       .since_ms = T - 9000000,
			       .pending_ms = T - 600000,
			       .label_removed = 1 };
	struct lc_facts f = { .seen = LC_SEEN_NO_NM,
			      .batch = { .vcores = 2, .memory_mb = 2048 },
			      .label_other = 1 };
	struct lc_step st;

	lc_next(&cfg, &o, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_RETURNING);
	ck_assert_int_eq(st.label, 0);
	ck_assert_int_eq(st.next.label_removed, 0);
	ck_assert_str_eq(st.next.reason,
			 "Batch back at 2 vCores/2048 MB for 600000 ms: the label's "
			 "key has another value now (not kilo's): not set");
}
END_TEST

/* A graceful decommission is not stuck before the RM's own timeout had its
 * chance (from an operator's trial: the defaults made both an hour) */
START_TEST(test_lifecycle_decommission_stuck_after_rm_timeout)
{
	struct sync_lifecycle dc = cfg;
	struct lc_record d = { .state = LC_DRAINING, .since_ms = T - 3600000, .pending_ms = -1 };
	struct lc_facts f = { .seen = LC_SEEN_RM,
			      .rm_state = "DECOMMISSIONING",
			      .rm_containers = 1,
			      .rm_counted = 1,
			      .host = "w1",
			      .cluster = "c1" };
	struct lc_step st;

	dc.decommission = 1;
	dc.decommission_timeout_s = 3600;
	snprintf(d.excluded_host, sizeof(d.excluded_host), "w1");
	snprintf(d.excluded_cluster, sizeof(d.excluded_cluster), "c1");
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_DRAINING);
	d.since_ms = T - 3900000;
	lc_next(&dc, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_STUCK);
	ck_assert_str_eq(
		st.next.reason,
		"still DECOMMISSIONING 3900000 ms after the drain began, past the RM's own "
		"timeout (decommissionTimeoutSeconds 3600): the RM did not end it (its "
		"log, yarn node -status)");
	/* resize mode: drainTimeoutMs alone */
	d.excluded_host[0] = '\0';
	d.since_ms = T - 3600000;
	f.rm_state = "RUNNING";
	lc_next(&cfg, &d, &f, T, &st);
	ck_assert_int_eq(st.next.state, LC_STUCK);
}
END_TEST

static Suite *lifecycle_suite(void)
{
	Suite *s = suite_create("lifecycle");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lifecycle_transitions);
	tcase_add_test(tc, test_lifecycle_without_label);
	tcase_add_test(tc, test_lifecycle_reasons);
	tcase_add_test(tc, test_lifecycle_record_round_trip);
	tcase_add_test(tc, test_lifecycle_record_refused);
	tcase_add_test(tc, test_lifecycle_decommission);
	tcase_add_test(tc, test_lifecycle_decommission_cancelled);
	tcase_add_test(tc, test_yarn_hosts_edit);
	tcase_add_test(tc, test_lifecycle_decommission_stuck_after_rm_timeout);
	tcase_add_test(tc, test_lifecycle_decommission_rm_changed);
	tcase_add_test(tc, test_lifecycle_decommission_rm_absent);
	tcase_add_test(tc, test_lifecycle_record_old_times);
	tcase_add_test(tc, test_lifecycle_uncounted_is_not_empty);
	tcase_add_test(tc, test_lifecycle_return_keeps_another_value);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(lifecycle_suite)
