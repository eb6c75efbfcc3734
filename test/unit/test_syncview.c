// SPDX-License-Identifier: Apache-2.0
/* test_syncview - a watch's view gives the plan a pass gives: after random
 * Node and Pod events (seeded, so a failure repeats), the view's plan is
 * byte for byte the plan of a fresh input fed the objects as they now are,
 * in the API server's order; and it keeps only the pods that give a node
 * something. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "decide/syncplanner.h"
#include "decide/syncview.h"
#include "testlib.h"

#define NODES 12
#define PODS 60
#define NOW 1796054400000LL

/* The cluster as it now is: each slot's object, NULL when absent. */
struct model {
	json_t *node[NODES];
	json_t *pod[PODS];
};

static unsigned rnd(unsigned *seed, unsigned n)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) % n;
}

static json_t *parse(const char *text)
{
	struct err e = { 0 };
	json_t *doc = jsonio_parse(text, "t", &e);

	ck_assert_msg(doc != NULL, "%s: %s", e.msg, text);
	return doc;
}

static json_t *make_node(unsigned *seed, int i)
{
	char buf[1024];
	static const char *const third[] = {
		"",
		",\"node.koordinator.sh/thirdPartyAllocations\":\"{\\\"allocations\\\":[{\\\"name\\\":"
		"\\\"hadoop-yarn\\\",\\\"priority\\\":\\\"koord-batch\\\",\\\"resources\\\":{"
		"\\\"kubernetes.io/batch-cpu\\\":\\\"3k\\\",\\\"kubernetes.io/batch-memory\\\":"
		"\\\"3Gi\\\"}}]}\"",
		",\"node.koordinator.sh/thirdPartyAllocations\":\"not json\"",
	};

	snprintf(buf, sizeof(buf),
		 "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n%02d\",\"annotations\":{"
		 "\"node.koordinator.sh/originExtendedAllocatable\":\"{\\\"resources\\\":{"
		 "\\\"kubernetes.io/batch-cpu\\\":\\\"%u\\\",\\\"kubernetes.io/batch-memory\\\":"
		 "\\\"%uGi\\\"}}\"%s}},"
		 "\"status\":{\"addresses\":[{\"type\":\"Hostname\",\"address\":\"n%02d\"}]}}",
		 i, 10000 + 1000 * rnd(seed, 30), 20 + rnd(seed, 40),
		 third[rnd(seed, 6) % 3 == 0 ? rnd(seed, 3) : 0], i);
	return parse(buf);
}

static json_t *make_pod(unsigned *seed, int i)
{
	static const char *const phases[] = { "Running", "Pending", "Succeeded", "Failed" };
	static const char *const ns[] = { "hadoop-yarn", "a", "a-b", "z" };
	int node = (int)rnd(seed, NODES + 2); /* NODES, NODES+1: unbound */
	int kind = (int)rnd(seed, 10);        /* 0-1: NodeManager, 2: bad figure, 3: none */
	char buf[2048], spec[1024], id[128] = "", where[64];

	if (kind < 2)
		snprintf(id, sizeof(id),
			 ",\"annotations\":{\"yarn.hadoop.apache.org/node-id\":\"n%02d:8041\"}",
			 rnd(seed, 4) ? node : (int)rnd(seed, NODES));
	if (kind == 3)
		snprintf(spec, sizeof(spec), "\"containers\":[{\"name\":\"c\"}]");
	else
		snprintf(spec, sizeof(spec),
			 "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{"
			 "\"kubernetes.io/batch-cpu\":\"%s\",\"kubernetes.io/batch-memory\":"
			 "\"%uMi\"}}}]",
			 kind == 2 ? "lots" : (rnd(seed, 2) ? "500" : "2k"),
			 256 * (1 + rnd(seed, 8)));
	if (node < NODES)
		snprintf(where, sizeof(where), "\"nodeName\":\"n%02d\"", node);
	else
		snprintf(where, sizeof(where), "\"nodeName\":null");
	snprintf(buf, sizeof(buf),
		 "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"%s\",\"name\":\"p%03d\","
		 "\"labels\":{%s}%s%s},\"spec\":{%s,%s},\"status\":{\"phase\":\"%s\"}}",
		 ns[i % 4], i, kind < 2 ? "\"app.kubernetes.io/component\":\"node-manager\"" : "",
		 id, rnd(seed, 8) == 0 ? ",\"deletionTimestamp\":\"2026-11-29T15:00:00Z\"" : "",
		 where, spec, phases[rnd(seed, 4)]);
	return parse(buf);
}

/* The pass's plan of the model, every node: nodes first, then pods, each
 * in the API's order (by namespace/name), with the RM list. */
static char *pass_plan(const struct model *m, const char *rm)
{
	struct sync_options o;
	struct sync_input *in;
	json_t *pods[PODS], *plan;
	struct err e = { 0 };
	size_t n = 0;
	char *text;
	json_t *rmdoc = parse(rm);

	sync_options_defaults(&o);
	in = sync_input_new(&o);
	sync_input_set_remote(in);
	for (int i = 0; i < NODES; i++)
		if (m->node[i])
			ck_assert_int_eq(sync_input_add_node(in, m->node[i], &e), 0);
	for (int i = 0; i < PODS; i++)
		if (m->pod[i])
			pods[n++] = m->pod[i];
	/* namespace/name order: sort by the key the view sorts by */
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0; b--) {
			char ka[300], kb[300];
			const json_t *ma = json_object_get(pods[b - 1], "metadata"),
				     *mb = json_object_get(pods[b], "metadata");

			snprintf(ka, sizeof(ka), "%s/%s",
				 json_string_value(json_object_get(ma, "namespace")),
				 json_string_value(json_object_get(ma, "name")));
			snprintf(kb, sizeof(kb), "%s/%s",
				 json_string_value(json_object_get(mb, "namespace")),
				 json_string_value(json_object_get(mb, "name")));
			if (strcmp(ka, kb) <= 0)
				break;
			json_t *t = pods[b - 1];
			pods[b - 1] = pods[b];
			pods[b] = t;
		}
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(sync_input_add_pod(in, pods[i], &e), 0);
	ck_assert_int_eq(sync_input_add_document(in, rmdoc, &e), 0);
	plan = sync_plan(in, NOW, NULL);
	text = json_dumps(plan, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(plan);
	json_decref(rmdoc);
	sync_input_free(in);
	return text;
}

static char *view_plan(struct syncview *v, const char *const *only)
{
	json_t *plan = sync_plan(syncview_input(v), NOW, only);
	char *text = json_dumps(plan, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(plan);
	return text;
}

/* The RM lists every node's NodeManager, busy or not. */
static char *rm_doc(void)
{
	static char buf[8192];
	size_t n = (size_t)snprintf(buf, sizeof(buf),
				    "{\"kind\":\"YarnNodes\",\"cluster\":\"default\",\"nodes\":{"
				    "\"node\":[");

	for (int i = 0; i < NODES; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "%s{\"id\":\"n%02d:8041\",\"state\":\"%s\",\"nodeHostName\":"
				      "\"n%02d\",\"usedMemoryMB\":%d,\"usedVirtualCores\":%d,"
				      "\"totalResource\":{\"memory\":4096,\"vCores\":4}}",
				      i ? "," : "", i, i % 5 == 4 ? "DECOMMISSIONED" : "RUNNING", i,
				      i % 3 ? 0 : 1024, i % 3 ? 0 : 1);
	snprintf(buf + n, sizeof(buf) - n, "]}}");
	return buf;
}

/* Where two plans part: the first differing item of each (cut short). */
static const char *first_diff(const char *a, const char *b)
{
	static char buf[1800];
	json_t *pa = parse(a), *pb = parse(b);
	const json_t *ia = json_object_get(pa, "items"), *ib = json_object_get(pb, "items");
	size_t i = 0;
	char *ta = NULL, *tb = NULL;

	while (i < json_array_size(ia) || i < json_array_size(ib)) {
		free(ta);
		free(tb);
		ta = json_dumps(json_array_get(ia, i),
				JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		tb = json_dumps(json_array_get(ib, i),
				JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		if (!ta || !tb || strcmp(ta, tb) != 0)
			break;
		i++;
	}
	snprintf(buf, sizeof(buf), "item %zu:\n pass %.800s\n view %.800s", i, ta ? ta : "(none)",
		 tb ? tb : "(none)");
	free(ta);
	free(tb);
	json_decref(pa);
	json_decref(pb);
	return buf;
}

/* 1 when the items of plan part are exactly those of plan whole whose
 * node is one of names. */
static int part_of(const char *part, const char *whole, const char *const *names)
{
	json_t *p = parse(part), *w = parse(whole), *it;
	size_t i, k = 0;
	int ok = 1;

	json_array_foreach(json_object_get(w, "items"), i, it)
	{
		const char *node = json_string_value(json_object_get(it, "node"));
		int listed = 0;

		for (size_t j = 0; names[j]; j++)
			listed |= strcmp(names[j], node) == 0;
		if (listed)
			ok &= json_equal(it, json_array_get(json_object_get(p, "items"), k++));
	}
	ok &= k == json_array_size(json_object_get(p, "items"));
	json_decref(p);
	json_decref(w);
	return ok;
}

START_TEST(test_syncview_same_plan_as_a_pass)
{
	unsigned seed = 7919u * (unsigned)(_i + 1);
	struct sync_options o;
	struct syncview *v;
	struct model m = { 0 };
	struct err e = { 0 };
	const char *rm = rm_doc();
	json_t *rmdoc = parse(rm);

	sync_options_defaults(&o);
	v = syncview_new(&o);
	ck_assert_int_eq(sync_input_add_document(syncview_input(v), rmdoc, &e), 0);
	json_decref(rmdoc);
	for (int step = 0; step < 400; step++) {
		unsigned what = rnd(&seed, 10);

		if (what < 2) { /* a Node: set or deleted */
			int i = (int)rnd(&seed, NODES);

			json_decref(m.node[i]);
			m.node[i] = rnd(&seed, 5) ? make_node(&seed, i) : NULL;
			if (m.node[i]) {
				ck_assert_int_eq(syncview_node(v, SYNCVIEW_SET, m.node[i], &e), 0);
			} else {
				char name[16];
				json_t *gone;

				snprintf(name, sizeof(name), "n%02d", i);
				gone = json_pack("{s:s,s:{s:s}}", "kind", "Node", "metadata",
						 "name", name);
				ck_assert_int_eq(syncview_node(v, SYNCVIEW_DELETED, gone, &e), 0);
				json_decref(gone);
			}
		} else { /* a Pod: set, or deleted as its last state says */
			int i = (int)rnd(&seed, PODS);

			if (m.pod[i] && rnd(&seed, 4) == 0) {
				ck_assert_int_eq(syncview_pod(v, SYNCVIEW_DELETED, m.pod[i], &e),
						 0);
				json_decref(m.pod[i]);
				m.pod[i] = NULL;
			} else {
				json_decref(m.pod[i]);
				m.pod[i] = make_pod(&seed, i);
				ck_assert_int_eq(syncview_pod(v, SYNCVIEW_SET, m.pod[i], &e), 0);
			}
		}
		if (rnd(&seed, 15) == 0 || step == 399) { /* a batch ends */
			const char *const *names;
			size_t n = syncview_flush(v, &names);
			char *want = pass_plan(&m, rm), *got = view_plan(v, NULL);

			if (strcmp(want, got) != 0)
				ck_abort_msg("seed %d step %d: %s", _i, step,
					     first_diff(want, got));
			free(got);
			/* only the touched nodes: those items of the same plan */
			got = view_plan(v, names);
			ck_assert_ptr_null(names[n]);
			ck_assert_uint_eq(part_of(got, want, names), 1);
			free(got);
			free(want);
		}
	}
	/* kept: only the pods that give a node something */
	size_t keep = 0;
	for (int i = 0; i < PODS; i++) {
		const char *node = NULL;

		if (m.pod[i]) {
			ck_assert_int_eq(
				sync_input_pod_node(syncview_input(v), m.pod[i], &node, &e), 0);
			keep += node != NULL;
		}
	}
	ck_assert_uint_eq(syncview_pods(v), keep);
	for (int i = 0; i < NODES; i++)
		json_decref(m.node[i]);
	for (int i = 0; i < PODS; i++)
		json_decref(m.pod[i]);
	syncview_free(v);
}
END_TEST

/* A pod that gives nothing (no Batch request, ended, unbound) is not kept;
 * one that ends is dropped and its node planned again. */
START_TEST(test_syncview_keeps_only_what_counts)
{
	struct sync_options o;
	struct syncview *v;
	struct err e = { 0 };
	const char *const *names;
	json_t *plain = parse("{\"metadata\":{\"namespace\":\"a\",\"name\":\"web\"},"
			      "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\"}]},"
			      "\"status\":{\"phase\":\"Running\"}}");
	json_t *batch =
		parse("{\"metadata\":{\"namespace\":\"a\",\"name\":\"spark\"},"
		      "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\","
		      "\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"1k\"}}}]},"
		      "\"status\":{\"phase\":\"Running\"}}");
	json_t *done = parse("{\"metadata\":{\"namespace\":\"a\",\"name\":\"spark\"},"
			     "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\","
			     "\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"1k\"}}}]},"
			     "\"status\":{\"phase\":\"Succeeded\"}}");
	json_t *noname = parse("{\"metadata\":{\"namespace\":\"a\"},\"spec\":{}}");

	sync_options_defaults(&o);
	v = syncview_new(&o);
	ck_assert_int_eq(syncview_pod(v, SYNCVIEW_SET, plain, &e), 0);
	ck_assert_uint_eq(syncview_pods(v), 0);
	ck_assert_uint_eq(syncview_flush(v, &names), 0);
	ck_assert_int_eq(syncview_pod(v, SYNCVIEW_SET, batch, &e), 0);
	ck_assert_uint_eq(syncview_pods(v), 1);
	ck_assert_uint_eq(syncview_flush(v, &names), 1);
	ck_assert_str_eq(names[0], "n1");
	ck_assert_ptr_null(names[1]);
	ck_assert_int_eq(syncview_pod(v, SYNCVIEW_SET, done, &e), 0);
	ck_assert_uint_eq(syncview_pods(v), 0);
	ck_assert_uint_eq(syncview_flush(v, &names), 1);
	ck_assert_int_eq(syncview_pod(v, SYNCVIEW_DELETED, done, &e), 0); /* never kept */
	ck_assert_uint_eq(syncview_flush(v, &names), 0);
	ck_assert_int_eq(syncview_pod(v, SYNCVIEW_SET, noname, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_str_eq(e.msg, "Pod.metadata.name: expected a name, got nothing");
	json_decref(plain);
	json_decref(batch);
	json_decref(done);
	json_decref(noname);
	syncview_free(v);
}
END_TEST

static Suite *syncview_suite(void)
{
	Suite *s = suite_create("syncview");
	TCase *tc = tcase_create("view");

	tcase_add_loop_test(tc, test_syncview_same_plan_as_a_pass, 0, 12);
	tcase_add_test(tc, test_syncview_keeps_only_what_counts);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(syncview_suite)
