// SPDX-License-Identifier: Apache-2.0
/* test_syncplan - kilo-sync's planner from literal and fixture documents */
#include <string.h>
#include <strings.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "decide/lifecycle.h"
#include "decide/rmmatch.h"
#include "decide/syncinput.h"
#include "decide/syncplanner.h"
#include "doc/syncplan.h"
#include "run/syncrun.h"
#include "testlib.h"

static struct sync_options opts;
static struct sync_input *in;

static void setup(void)
{
	sync_options_defaults(&opts);
	in = sync_input_new(&opts);
}

static void teardown(void)
{
	sync_input_free(in);
}

static void add_text_to(struct sync_input *to, const char *text)
{
	struct err e = { 0 };
	json_t *doc = jsonio_parse(text, "test", &e);

	ck_assert_msg(doc != NULL, "%s", e.msg);
	ck_assert_msg(sync_input_add_document(to, doc, &e) == 0, "%s", e.msg);
	json_decref(doc);
}

static void add_text(const char *text)
{
	add_text_to(in, text);
}

static void add_fixture(const char *rel)
{
	char *path = testlib_fixture(rel);
	char *text = testlib_read(NULL, path);

	ck_assert_ptr_nonnull(text);
	add_text(text);
	free(text);
	free(path);
}

/* An RM node list for cluster `cluster` with one node, into `to`. */
static void add_rm_to(struct sync_input *to, const char *cluster, const char *id, const char *state,
		      int total_vc, int total_mb, int used_vc, int used_mb)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"apiVersion\":\"kilo/v1\",\"kind\":\"YarnNodes\",\"cluster\":\"%s\","
		 "\"nodes\":{\"node\":[{\"id\":\"%s\",\"state\":\"%s\",\"nodeHostName\":\"%.*s\","
		 "\"usedMemoryMB\":%d,\"usedVirtualCores\":%d,"
		 "\"totalResource\":{\"memory\":%d,\"vCores\":%d}}]}}",
		 cluster, id, state, (int)(strchr(id, ':') - id), id, used_mb, used_vc, total_mb,
		 total_vc);
	add_text_to(to, buf);
}

#define add_rm(...) add_rm_to(in, __VA_ARGS__)

static json_t *plan_of(const char *node)
{
	json_t *plan = sync_plan(in, 1796054400000LL, NULL);
	json_t *it;
	size_t i;

	json_array_foreach(json_object_get(plan, "items"), i, it)
	{
		if (strcmp(json_string_value(json_object_get(it, "node")), node) == 0) {
			json_incref(it);
			json_decref(plan);
			return it;
		}
	}
	json_decref(plan);
	return NULL;
}

static int64_t geti(json_t *item, const char *a, const char *b)
{
	return json_integer_value(json_object_get(json_object_get(item, a), b));
}

static const char *gets_(json_t *item, const char *a)
{
	return json_string_value(json_object_get(item, a));
}

#define NM_ID "yarn-nm-0.node-manager.hadoop-yarn.svc.cluster.local:8041"

START_TEST(test_syncplan_fixture_worker1)
{
	json_t *it;

	add_fixture("k8s/node-batch.json");
	add_fixture("k8s/podlist-mixed.json");
	add_rm("yarn-cluster-1", NM_ID, "RUNNING", 20, 40960, 2, 4096);
	it = plan_of("worker-1");
	ck_assert_ptr_nonnull(it);
	ck_assert_str_eq(gets_(it, "cluster"), "yarn-cluster-1");
	ck_assert_str_eq(gets_(it, "yarnNodeId"), NM_ID);
	ck_assert_int_eq(geti(it, "origin", "cpuMilli"), 37480);
	ck_assert_int_eq(geti(it, "origin", "memoryBytes"), 112431567289LL);
	ck_assert_str_eq(
		json_string_value(json_object_get(json_object_get(it, "origin"), "source")),
		"annotation");
	/* NM pod 2000m/2Gi + Spark executor 2000m/4505Mi; Succeeded and unbound pods excluded */
	ck_assert_int_eq(geti(it, "requested", "cpuMilli"), 4000);
	ck_assert_int_eq(geti(it, "requested", "memoryBytes"), 6871318528LL);
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 33);
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 100670);
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_str_eq(gets_(it, "reason"), "RM total 20 vCores/40960 MB differs");
	ck_assert_int_eq(json_integer_value(json_object_get(it, "overCommitTimeoutMs")), -1);
	/* annotation: YARN used 2 vCores / 4096 MB; current entry 12k / 24Gi differs */
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "annotate");
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(json_object_get(it, "annotation"), "hadoopYarn"),
				 "kubernetes.io/batch-cpu")),
			 "2k");
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(json_object_get(it, "annotation"), "hadoopYarn"),
				 "kubernetes.io/batch-memory")),
			 "4Gi");
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_legacy_allocatable_and_none)
{
	json_t *it;

	add_fixture("k8s/node-batch-legacy.json");
	add_fixture("k8s/podlist-mixed.json");
	/* 37480 - 4000 = 33480 -> 33; 112431567289 - 6871318528 -> 100670 MiB */
	add_rm("yarn-cluster-1", NM_ID, "RUNNING", 33, 100670, 0, 0);
	it = plan_of("worker-1");
	ck_assert_str_eq(
		json_string_value(json_object_get(json_object_get(it, "origin"), "source")),
		"allocatable");
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 33);
	ck_assert_str_eq(gets_(it, "action"), "none");
	/* no annotation yet and YARN uses nothing: nothing to write */
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);
}
END_TEST

static const char *node_doc(const char *name, const char *origin_annotation, const char *alloc_cpu,
			    const char *alloc_mem, const char *third_party)
{
	static char buf[2048];
	char ann[1024] = "";
	size_t n = 0;

	if (origin_annotation)
		n += (size_t)snprintf(ann + n, sizeof(ann) - n, "\"%s\":%s", SYNC_ANN_ORIGIN,
				      origin_annotation);
	if (third_party)
		n += (size_t)snprintf(ann + n, sizeof(ann) - n, "%s\"%s\":%s", n ? "," : "",
				      SYNC_ANN_THIRD_PARTY, third_party);
	snprintf(buf, sizeof(buf),
		 "{\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\",\"annotations\":{%s}},"
		 "\"status\":{\"allocatable\":{\"kubernetes.io/batch-cpu\":\"%s\","
		 "\"kubernetes.io/batch-memory\":\"%s\"}}}",
		 name, ann, alloc_cpu, alloc_mem);
	return buf;
}

static const char *pod_doc(const char *name, const char *node, const char *phase, const char *nm_id,
			   const char *cluster, const char *spec_extra)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf),
		 "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"%s\",\"name\":\"%s\","
		 "\"labels\":{%s},\"annotations\":{%s%s%s%s%s%s%s}},"
		 "\"spec\":{\"nodeName\":\"%s\",%s},\"status\":{\"phase\":\"%s\"}}",
		 nm_id ? "hadoop-yarn" : "ns", name,
		 nm_id ? "\"app.kubernetes.io/component\":\"node-manager\"" : "",
		 nm_id ? "\"" SYNC_ANN_NODE_ID "\":\"" : "", nm_id ? nm_id : "", nm_id ? "\"" : "",
		 cluster ? ",\"" SYNC_ANN_CLUSTER_ID "\":\"" : "", cluster ? cluster : "",
		 cluster ? "\"" : "", "", node, spec_extra, phase);
	return buf;
}

#define REQ(cpu, mem)                                                                              \
	"{\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"" cpu                         \
	"\",\"kubernetes.io/batch-memory\":\"" mem "\"}}}"
#define LIM(cpu, mem)                                                                              \
	"{\"resources\":{\"limits\":{\"kubernetes.io/batch-cpu\":\"" cpu                           \
	"\",\"kubernetes.io/batch-memory\":\"" mem "\"}}}"

START_TEST(test_syncplan_init_limit_terminating_overhead)
{
	json_t *it;

	add_text(node_doc("n1", NULL, "100k", "100Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL,
			 "\"containers\":[" REQ("1k", "1Gi") "]"));
	/* init container larger than the containers: max wins */
	add_text(pod_doc("a", "n1", "Pending", NULL, NULL,
			 "\"containers\":[" REQ("1k", "1Gi") "," REQ(
				 "1k", "1Gi") "],"
					      "\"initContainers\":[" REQ("5k", "1Gi") "]"));
	/* limit alone counts as the request; overhead is added */
	add_text(
		pod_doc("b", "n1", "Running", NULL, NULL,
			"\"containers\":[" LIM(
				"3k", "2Gi") "],"
					     "\"overhead\":{\"kubernetes.io/batch-cpu\":\"250\"}"));
	/* a native sidecar (restartPolicy Always) adds to the containers */
	add_text(pod_doc(
		"c", "n1", "Running", NULL, NULL,
		"\"containers\":[" REQ(
			"1k",
			"0") "],"
			     "\"initContainers\":[{\"restartPolicy\":\"Always\",\"resources\":{\"requests\":"
			     "{\"kubernetes.io/batch-cpu\":\"500\"}}}]"));
	/* Succeeded and Failed do not count; unbound does not count */
	add_text(pod_doc("d", "n1", "Succeeded", NULL, NULL,
			 "\"containers\":[" REQ("50k", "50Gi") "]"));
	add_text(pod_doc("e", "n1", "Failed", NULL, NULL,
			 "\"containers\":[" REQ("50k", "50Gi") "]"));
	add_text(
		pod_doc("f", "", "Pending", NULL, NULL, "\"containers\":[" REQ("50k", "50Gi") "]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 1, 1, 0, 0);
	it = plan_of("n1");
	/* 1000 + 5000 + 3250 + 1500 */
	ck_assert_int_eq(geti(it, "requested", "cpuMilli"), 10750);
	ck_assert_int_eq(geti(it, "requested", "memoryBytes"), (1LL + 2 + 2) << 30);
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 89); /* floor(89250 / 1000) */
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 95 * 1024);
	ck_assert_str_eq(gets_(it, "cluster"), "default");
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_floor_at_zero_and_mib_floor)
{
	json_t *it;

	add_text(node_doc("n1", NULL, "2500", "3145727", NULL)); /* 3 MiB - 1 byte */
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL,
			 "\"containers\":[" REQ("3k", "0") "]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 0, 2, 0, 0);
	it = plan_of("n1");
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 0);
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 2);
	ck_assert_str_eq(gets_(it, "action"), "none");
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_invalid_annotation_skips_without_fallback)
{
	json_t *it;

	add_text(node_doc("n1", "\"{not json\"", "100k", "100Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 1, 1, 0, 0);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_msg(strncmp(gets_(it, "reason"), "invalid annotation: " SYNC_ANN_ORIGIN,
			      20 + 45) == 0,
		      "%s", gets_(it, "reason"));
	ck_assert_ptr_null(json_object_get(it, "yarnTotal"));
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_unknown_id_candidates_and_inactive)
{
	json_t *it;

	add_text(node_doc("n1", NULL, "10k", "10Gi", NULL));
	add_text(node_doc("n2", NULL, "10k", "10Gi", NULL));
	add_text(node_doc("n3", NULL, "10k", "10Gi", NULL));
	add_text(pod_doc("nm1", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text(pod_doc("nm2", "n2", "Running", "n2:8041", NULL, "\"containers\":[]"));
	add_text(pod_doc("nm3", "n3", "Running", "n3", NULL, "\"containers\":[]"));
	add_text("{\"nodes\":{\"node\":["
		 "{\"id\":\"n1:45454\",\"state\":\"RUNNING\",\"nodeHostName\":\"n1\","
		 "\"totalResource\":{\"memory\":1,\"vCores\":1}},"
		 "{\"id\":\"n2:8041\",\"state\":\"LOST\",\"nodeHostName\":\"n2\","
		 "\"totalResource\":{\"memory\":1,\"vCores\":1}}]}}");
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"),
			 "node id n1:8041 unknown to the RM of cluster 'default'");
	ck_assert_int_eq(json_array_size(json_object_get(it, "candidates")), 1);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(it, "candidates"), 0)),
			 "n1:45454");
	json_decref(it);
	it = plan_of("n2");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"), "RM node state LOST");
	json_decref(it);
	it = plan_of("n3");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_ptr_nonnull(strstr(gets_(it, "reason"), "no valid " SYNC_ANN_NODE_ID));
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_two_clusters_one_down)
{
	json_t *it;

	add_text(node_doc("a", NULL, "10k", "10Gi", NULL));
	add_text(node_doc(
		"b", NULL, "10k", "10Gi",
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":{\\\"kubernetes.io/batch-cpu\\\":\\\"1k\\\"}}]}\""));
	add_text(pod_doc("nma", "a", "Running", "a:8041", "c1", "\"containers\":[]"));
	add_text(pod_doc("nmb", "b", "Running", "b:8041", "c2", "\"containers\":[]"));
	add_rm("c1", "a:8041", "RUNNING", 10, 10240, 0, 0);
	sync_input_cluster_unreachable(in, "c2", SYNC_R_RM_UNREACHABLE,
				       "every RM refused the connection");
	it = plan_of("a");
	ck_assert_str_eq(gets_(it, "action"), "none");
	json_decref(it);
	it = plan_of("b");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"),
			 "cluster 'c2' unreachable: every RM refused the connection");
	/* no annotation change for a node of an unreachable cluster */
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_graceful_reclaim)
{
	json_t *it;

	sync_input_free(in);
	opts.over_commit_timeout_ms = 60000;
	in = sync_input_new(&opts);
	add_text(node_doc("n1", NULL, "4k", "8Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 10, 20480, 6, 10240);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_int_eq(geti(it, "reclaim", "vCores"), 2);
	ck_assert_int_eq(geti(it, "reclaim", "memoryMB"), 2048);
	ck_assert_int_eq(json_integer_value(json_object_get(it, "overCommitTimeoutMs")), 60000);
	ck_assert_ptr_nonnull(strstr(gets_(it, "reason"), "the RM preempts after 60000 ms"));
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_reservation)
{
	json_t *it;

	sync_input_free(in);
	opts.reserve_cpu_milli = 1000;
	opts.reserve_memory_bytes = 1LL << 30;
	opts.reserve_percent = 10;
	in = sync_input_new(&opts);
	add_text(node_doc("n1", NULL, "20k", "20Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 0, 0, 0, 0);
	it = plan_of("n1");
	ck_assert_int_eq(geti(it, "reserved", "cpuMilli"), 3000);
	ck_assert_int_eq(geti(it, "reserved", "memoryBytes"), (1LL << 30) + (2LL << 30));
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 17);
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 17 * 1024);
	json_decref(it);
}
END_TEST

/* Two pods each requesting 2^63-1 milli-cores (the API server accepts each)
 * wrapped the node's sum negative and offered the whole pool: now the node
 * is skipped, naming the pod and the resource, and nothing is annotated. */
START_TEST(test_syncplan_request_sum_overflow_skips_node)
{
	json_t *it;

	add_text(node_doc("n1", NULL, "100k", "100Gi", NULL));
	add_text(node_doc("n2", NULL, "100k", "100Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text(pod_doc("nm2", "n2", "Running", "n2:8041", NULL, "\"containers\":[]"));
	add_text(pod_doc("big-1", "n1", "Running", NULL, NULL,
			 "\"containers\":[" REQ("9223372036854775807", "1") "]"));
	add_text(pod_doc("big-2", "n1", "Running", NULL, NULL,
			 "\"containers\":[" REQ("9223372036854775807", "1") "]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 0, 0, 1, 1024);
	add_rm_to(in, "other", "n2:8041", "RUNNING", 0, 0, 0, 0);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"),
			 "Pod ns/big-2: the kubernetes.io/batch-cpu requests on node n1 overflow");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	ck_assert_ptr_null(json_object_get(it, "yarnTotal"));
	json_decref(it);
}
END_TEST

/* Within one pod: containers, sidecars and overhead are summed checked too. */
START_TEST(test_syncplan_pod_sum_overflow_skips_node)
{
	json_t *it;

	add_text(node_doc("n1", NULL, "100k", "100Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text(pod_doc("wide", "n1", "Running", NULL, NULL,
			 "\"containers\":[" REQ("1", "4Ei") "," REQ("1", "4Ei") "]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 0, 0, 0, 0);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"Pod ns/wide.spec.containers: the sum of kubernetes.io/batch-memory overflows");
	json_decref(it);
}
END_TEST

/* origin x reservation.percent wrapped for an origin near 2^63; the pool
 * minus the reservation and requests is checked as well. */
START_TEST(test_syncplan_reservation_at_int64_edge)
{
	json_t *it;

	sync_input_free(in);
	opts.reserve_percent = 100;
	opts.reserve_cpu_milli = 1;
	in = sync_input_new(&opts);
	add_text(node_doc("n1", NULL, "9223372036854775807", "100Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 0, 0, 0, 0);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"),
			 "the reservation overflows on this node's origin pool");
	json_decref(it);

	/* 100 % of a pool near 2^63 without the fixed part: exact, 0 left */
	sync_input_free(in);
	opts.reserve_cpu_milli = 0;
	in = sync_input_new(&opts);
	add_text(node_doc("n1", NULL, "9223372036854775807", "100Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 0, 0, 0, 0);
	it = plan_of("n1");
	ck_assert_int_eq(geti(it, "reserved", "cpuMilli"), INT64_MAX);
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 0);
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 0);
	json_decref(it);
}
END_TEST

/* An RM node whose used figures are impossible (negative; beyond 2^53
 * bytes, where used x 2^20 wrapped) costs that node only: skipped, not
 * annotated, and the plan of another node is unaffected. */
START_TEST(test_syncplan_impossible_rm_figures_skip_node)
{
	static const struct {
		int vc;
		long long mb;
	} bad[] = { { -1, 0 }, { 0, -5 }, { 0, (1LL << 33) + 1 }, { 0, 1LL << 44 } };
	char buf[1024];
	json_t *it;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sync_input_free(in);
		in = sync_input_new(&opts);
		add_text(node_doc("n1", NULL, "100k", "100Gi", NULL));
		add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
		snprintf(buf, sizeof(buf),
			 "{\"nodes\":{\"node\":[{\"id\":\"n1:8041\",\"state\":\"RUNNING\","
			 "\"usedMemoryMB\":%lld,\"usedVirtualCores\":%d,"
			 "\"totalResource\":{\"memory\":1,\"vCores\":1}}]}}",
			 bad[i].mb, bad[i].vc);
		add_text(buf);
		it = plan_of("n1");
		ck_assert_str_eq(gets_(it, "action"), "skip");
		ck_assert_msg(strstr(gets_(it, "reason"),
				     "RM node n1:8041 reports impossible used figures"),
			      "case %zu: %s", i, gets_(it, "reason"));
		ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
		json_decref(it);
	}
}
END_TEST

START_TEST(test_syncplan_node_without_nm_is_zeroed_once)
{
	json_t *plan, *it;

	add_text(node_doc(
		"old", NULL, "10k", "10Gi",
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"other\\\",\\\"resources\\\":{}},"
		"{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":{\\\"kubernetes.io/batch-cpu\\\":\\\"2k\\\"}}]}\""));
	add_text(node_doc("never", NULL, "10k", "10Gi", NULL));
	add_text(node_doc(
		"zeroed", NULL, "10k", "10Gi",
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":{\\\"kubernetes.io/batch-cpu\\\":\\\"0\\\",\\\"kubernetes.io/batch-memory\\\":\\\"0\\\"}}]}\""));
	plan = sync_plan(in, 0, NULL);
	ck_assert_int_eq(json_array_size(json_object_get(plan, "items")), 1);
	json_decref(plan);
	/* no RM node list at all: no evidence that YARN's share is free */
	it = plan_of("old");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"no NodeManager pod seen on the node, but no RM node list was read in this "
		"pass: its share is not zeroed");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);
	/* an RM that lists no node at all (just restarted): still no evidence */
	add_text("{\"nodes\":{\"node\":[]}}");
	it = plan_of("old");
	ck_assert_str_eq(gets_(it, "reason"),
			 "no NodeManager pod seen on the node, but cluster 'default' lists no node "
			 "(an RM that just restarted or failed over): its share is not zeroed");
	json_decref(it);
	/* an RM that lists nodes, none of them on this node or busy: zeroed */
	sync_input_free(in);
	in = sync_input_new(&opts);
	add_text(node_doc(
		"old", NULL, "10k", "10Gi",
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":{\\\"kubernetes.io/batch-cpu\\\":\\\"2k\\\"}}]}\""));
	add_rm(SYNC_DEFAULT_CLUSTER, "elsewhere:8041", "RUNNING", 8, 8192, 0, 0);
	it = plan_of("old");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"), "no NodeManager pod on the node");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "annotate");
	json_decref(it);
}
END_TEST

/* A NodeManager pod lost from the listing (or never given) turned the
 * node's YARN share into 0/0 while YARN still ran containers there.  Now,
 * while the RM lists an active NodeManager using resources on that host
 * (by the node's name, the id's first DNS label or one of the Node's
 * addresses), the node is skipped and its annotation left; an idle one is
 * still zeroed. */
START_TEST(test_syncplan_never_zero_while_rm_says_busy)
{
	static const char *const alloc =
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":"
		"{\\\"kubernetes.io/batch-cpu\\\":\\\"2k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"2Gi\\\"}}]}\"";
	char node[2048];
	const char *base;
	json_t *it;

	add_text(node_doc("n1", NULL, "10k", "10Gi", alloc));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1.example.com:8041", "RUNNING", 8, 8192, 2, 2048);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"no NodeManager pod seen on the node, but RM node n1.example.com:8041 of "
		"cluster 'default' on its host uses 2 vCores, 2048 MB: its share is not zeroed");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);

	/* the same NodeManager idle: zeroed as before */
	sync_input_free(in);
	in = sync_input_new(&opts);
	add_text(node_doc("n1", NULL, "10k", "10Gi", alloc));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1.example.com:8041", "RUNNING", 8, 8192, 0, 0);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "reason"), "no NodeManager pod on the node");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "annotate");
	json_decref(it);

	/* registered under the Node's InternalIP; a busy node elsewhere does not count */
	sync_input_free(in);
	in = sync_input_new(&opts);
	base = node_doc("ip-10-0-0-7", NULL, "10k", "10Gi", alloc);
	/* status.addresses beside status.allocatable */
	snprintf(node, sizeof(node),
		 "%.*s,\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"10.0.0.7\"}]}}",
		 (int)strlen(base) - 2, base);
	add_text(node);
	add_rm(SYNC_DEFAULT_CLUSTER, "10.0.0.7:8041", "RUNNING", 8, 8192, 1, 0);
	add_rm_to(in, "other", "10.0.0.70:8041", "RUNNING", 8, 8192, 1, 1);
	it = plan_of("ip-10-0-0-7");
	ck_assert_msg(strstr(gets_(it, "reason"), "RM node 10.0.0.7:8041 of cluster 'default'"),
		      "%s", gets_(it, "reason"));
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);

	/* a LOST NodeManager uses nothing any more: zeroed */
	sync_input_free(in);
	in = sync_input_new(&opts);
	add_text(node_doc("n1", NULL, "10k", "10Gi", alloc));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "LOST", 0, 0, 2, 2048);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "annotate");
	json_decref(it);
}
END_TEST

/* A plan read per item: an item the plan check refuses costs that item
 * only; a SyncPlan from stdin (per_item 0) is still refused whole. */
START_TEST(test_syncapply_per_item_in_a_live_pass)
{
	static const char *const text =
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"SyncPlan\",\"items\":["
		"{\"node\":\"bad\",\"action\":\"update\",\"cluster\":\"c\",\"yarnNodeId\":\"bad:1\","
		"\"yarnTotal\":{\"vCores\":-1,\"memoryMB\":1},\"overCommitTimeoutMs\":-1},"
		"{\"node\":\"good\",\"action\":\"skip\",\"annotation\":{\"action\":\"annotate\","
		"\"hadoopYarn\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":\"1Gi\"}}}]}";
	struct sync_config sc;
	struct syncplan sp;
	struct syncreport rep;
	struct sync_stats st = { 0 };
	struct err e = { 0 };
	json_t *plan = jsonio_parse(text, "test", &e), *report, *items;

	ck_assert_ptr_nonnull(plan);
	ck_assert_int_eq(sync_config_load(&sc, NULL, &e), 0);
	ck_assert_int_eq(sync_plan_read(plan, &sc, 0, &sp, &e), -1);
	ck_assert_msg(strstr(e.msg, "SyncPlan.items[0].yarnTotal.vCores"), "%s", e.msg);
	ck_assert_int_eq(sync_plan_read(plan, &sc, 1, &sp, &e), 0);
	sync_apply(&sp, &sc, &(struct sync_rms){ 0 }, NULL, 1, &rep, &st);
	syncplan_release(&sp);
	report = syncreport_to_json(&rep);
	syncreport_release(&rep);
	ck_assert_ptr_nonnull(report);
	items = json_object_get(report, "items");
	ck_assert_uint_eq(json_array_size(items), 2);
	ck_assert_str_eq(gets_(json_array_get(items, 0), "result"), "failed");
	ck_assert_msg(strstr(gets_(json_array_get(items, 0), "error"), "yarnTotal.vCores"), "%s",
		      gets_(json_array_get(items, 0), "error"));
	ck_assert_str_eq(gets_(json_object_get(json_array_get(items, 1), "annotation"), "result"),
			 "planned");
	ck_assert_uint_eq(st.failed, 1);
	json_decref(report);
	json_decref(plan);
	sync_config_release(&sc);
}
END_TEST

/* From a breaker's review: a negative overhead inflated a YARN total; a
 * Node whose allocatable cannot be read failed the whole pass; a node
 * without its NodeManager pod was zeroed while a cluster was unreachable;
 * a huge pool planned vCores the RM cannot take.  Each costs its node only. */
/* A NodeManager being decommissioned gracefully: the RM holds its total at
 * its use on every heartbeat (AbstractYarnScheduler.nodeUpdate), so a
 * resize to the plan would open room on a draining node until the next
 * heartbeat.  Never resized; YARN's use is still written back. */
START_TEST(test_syncplan_decommissioning_not_resized)
{
	json_t *it;

	add_text(node_doc("n1", NULL, "10k", "10Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "DECOMMISSIONING", 1, 1024, 1, 1024);
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"), "RM node state DECOMMISSIONING: the RM holds its "
					      "total at its use while it drains; not resized");
	ck_assert_ptr_null(json_object_get(it, "reclaim"));
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "annotate");
	json_decref(it);
}
END_TEST

START_TEST(test_syncplan_review_cases_cost_the_node_only)
{
	static const char *const alloc =
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":"
		"{\\\"kubernetes.io/batch-cpu\\\":\\\"2k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"2Gi\\\"}}]}\"";
	json_t *it;

	add_text(node_doc("n1", NULL, "10k", "10Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text(pod_doc("neg", "n1", "Running", NULL, NULL,
			 "\"containers\":[],\"overhead\":{\"kubernetes.io/batch-cpu\":\"-1000000\","
			 "\"kubernetes.io/batch-memory\":\"-1Ti\"}"));
	add_text(node_doc("odd", NULL, "10E", "1Gi", NULL)); /* beyond int64 milli-cores */
	add_text(node_doc("lost", NULL, "10k", "10Gi", alloc));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 0, 0, 0, 0);
	sync_input_cluster_unreachable(in, "c2", SYNC_R_RM_UNREACHABLE, "down");
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"),
			 "Pod ns/neg.spec.overhead: kubernetes.io/batch-cpu is negative");
	json_decref(it);
	it = plan_of("lost");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	ck_assert_msg(strstr(gets_(it, "reason"), "cluster 'c2' is unreachable"), "%s",
		      gets_(it, "reason"));
	json_decref(it);

	sync_input_free(in);
	in = sync_input_new(&opts);
	add_text(node_doc("big", NULL, "9223372036854775807", "1Gi", NULL));
	add_text(pod_doc("nm", "big", "Running", "big:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "big:8041", "RUNNING", 0, 0, 0, 0);
	it = plan_of("big");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_msg(strstr(gets_(it, "reason"), "exceed what the RM takes"), "%s",
		      gets_(it, "reason"));
	json_decref(it);
}
END_TEST

/* A NodeManager pod as JSON: ns/name on node, node id `id`, and extra
 * members of metadata, spec and status (each "" or `"k":v,`). */
static const char *nm_doc(const char *ns, const char *name, const char *node, const char *id,
			  const char *meta_extra, const char *spec_extra, const char *status_extra)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf),
		 "{\"kind\":\"Pod\",\"metadata\":{%s\"namespace\":\"%s\",\"name\":\"%s\","
		 "\"labels\":{\"app.kubernetes.io/component\":\"node-manager\"},"
		 "\"annotations\":{\"" SYNC_ANN_NODE_ID "\":\"%s\"}},"
		 "\"spec\":{%s\"nodeName\":\"%s\",\"containers\":[]},"
		 "\"status\":{%s\"phase\":\"Running\"}}",
		 meta_extra, ns, name, id, spec_extra, node, status_extra);
	return buf;
}

static const char *severity(json_t *it)
{
	const char *s = gets_(it, "severity");

	return s ? s : "";
}

/* The breaker's case: a tenant pod on a big node that copies a small
 * node's node id sent the big node's whole Batch pool to YARN for the
 * small node.  A pod outside nodeManagerNamespaces claims nothing. */
START_TEST(test_syncplan_tenant_pod_claims_nothing)
{
	json_t *plan, *it;
	size_t i;

	add_text(node_doc("big", NULL, "64k", "64Gi", NULL));
	add_text(node_doc("small", NULL, "4k", "4Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-small", "small", "small:8041", "", "", ""));
	add_text(nm_doc("tenant", "evil", "big", "small:8041", "", "", ""));
	add_rm(SYNC_DEFAULT_CLUSTER, "small:8041", "RUNNING", 4, 4096, 0, 0);
	plan = sync_plan(in, 0, NULL);
	json_array_foreach(json_object_get(plan, "items"), i, it)
		ck_assert_msg(geti(it, "yarnTotal", "vCores") <= 4, "%s offers %lld vCores",
			      gets_(it, "node"), (long long)geti(it, "yarnTotal", "vCores"));
	json_decref(plan);
	it = plan_of("small");
	ck_assert_str_eq(gets_(it, "action"), "none");
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 4);
	json_decref(it);
	it = plan_of("big");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"no NodeManager pod on the node (pod tenant/evil has the NodeManager label "
		"outside nodeManagerNamespaces: ignored)");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);

	/* a namespace of the configuration is taken */
	sync_input_free(in);
	opts.nm_namespaces = (const char *const[]){ "yarn", "tenant", NULL };
	in = sync_input_new(&opts);
	add_text(node_doc("big", NULL, "64k", "64Gi", NULL));
	add_text(nm_doc("tenant", "nm", "big", "big:8041", "", "", ""));
	add_rm(SYNC_DEFAULT_CLUSTER, "big:8041", "RUNNING", 1, 1, 0, 0);
	it = plan_of("big");
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 64);
	json_decref(it);
}
END_TEST

/* Inside the namespace too, a node id whose host names neither the node
 * nor the pod is refused, naming both. */
START_TEST(test_syncplan_node_id_bound_to_node_or_pod)
{
	static const struct {
		const char *node, *id, *spec, *status, *addresses;
	} ok[] = {
		{ "w1", "w1:8041", "", "", "" },
		{ "w2", "W2.Example.COM:8041", "", "", "" }, /* first label, any case */
		{ "ip-10-0-0-9", "10.0.0.9:8041", "", "",
		  "\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"10.0.0.9\"}]," },
		{ "w4", "w4-host.corp:8041", "", "",
		  "\"addresses\":[{\"type\":\"Hostname\",\"address\":\"w4-host\"}]," },
		{ "w5", "10.244.3.4:8041", "", "\"podIP\":\"10.244.3.4\",", "" },
		{ "w6", "fd00::5:8041", "",
		  "\"podIPs\":[{\"ip\":\"10.244.6.6\"},{\"ip\":\"fd00::5\"}],", "" },
		{ "w7", "nm-x.node-manager.hadoop-yarn.svc.cluster.local:8041",
		  "\"hostname\":\"nm-x\",\"subdomain\":\"node-manager\",", "", "" },
		{ "w8", "nm-w8:8041", "", "", "" }, /* the pod's name */
	};
	char node[2048], name[32];
	json_t *it;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		sync_input_free(in);
		in = sync_input_new(&opts);
		snprintf(node, sizeof(node),
			 "{\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\"},\"status\":{%s"
			 "\"allocatable\":{\"kubernetes.io/batch-cpu\":\"8k\","
			 "\"kubernetes.io/batch-memory\":\"8Gi\"}}}",
			 ok[i].node, ok[i].addresses);
		add_text(node);
		snprintf(name, sizeof(name), "nm-%s", ok[i].node);
		add_text(nm_doc("hadoop-yarn", name, ok[i].node, ok[i].id, "", ok[i].spec,
				ok[i].status));
		add_rm(SYNC_DEFAULT_CLUSTER, ok[i].id, "RUNNING", 8, 8192, 0, 0);
		it = plan_of(ok[i].node);
		ck_assert_msg(strcmp(gets_(it, "action"), "none") == 0, "case %zu: %s", i,
			      gets_(it, "reason"));
		json_decref(it);
	}

	sync_input_free(in);
	in = sync_input_new(&opts);
	add_text(node_doc("big", NULL, "64k", "64Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-big", "big", "small.example.com:8041", "",
			"\"hostname\":\"nm-big\",", "\"podIP\":\"10.244.1.1\","));
	add_rm(SYNC_DEFAULT_CLUSTER, "small.example.com:8041", "RUNNING", 4, 4096, 0, 0);
	it = plan_of("big");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(severity(it), "error");
	ck_assert_str_eq(gets_(it, "reason"),
			 "NodeManager pod hadoop-yarn/nm-big names node id small.example.com:8041, "
			 "whose host is neither node big (its name or addresses) nor the pod (its "
			 "name, hostname or IP)");
	ck_assert_ptr_null(json_object_get(it, "yarnTotal"));
	json_decref(it);
}
END_TEST

/* A node id claimed on two nodes is no one's: each claimant is skipped
 * with the one error naming all (ids compare as DNS names do). */
START_TEST(test_syncplan_duplicate_claims_skip_all)
{
	json_t *it;

	add_text(node_doc("d1", NULL, "8k", "8Gi", NULL));
	add_text(node_doc("d2", NULL, "8k", "8Gi", NULL));
	add_text(node_doc("d3", NULL, "8k", "8Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-1", "d1", "nm:8041", "", "\"hostname\":\"nm\",", ""));
	add_text(nm_doc("hadoop-yarn", "nm-2", "d2", "NM:8041", "", "\"hostname\":\"nm\",", ""));
	add_text(nm_doc("hadoop-yarn", "nm-3", "d3", "d3:8041", "", "", ""));
	add_rm(SYNC_DEFAULT_CLUSTER, "nm:8041", "RUNNING", 4, 4096, 0, 0);
	for (int i = 1; i <= 2; i++) {
		it = plan_of(i == 1 ? "d1" : "d2");
		ck_assert_str_eq(gets_(it, "action"), "skip");
		ck_assert_str_eq(severity(it), "error");
		ck_assert_str_eq(gets_(it, "reason"),
				 i == 1 ? "node id nm:8041 of cluster 'default' is claimed on 2 "
					  "nodes (d1, d2): every claimant is skipped"
					: "node id NM:8041 of cluster 'default' is claimed on 2 "
					  "nodes (d1, d2): every claimant is skipped");
		json_decref(it);
	}
	it = plan_of("d3"); /* unknown to the RM, but not a duplicate */
	ck_assert_str_eq(gets_(it, "reason"),
			 "node id d3:8041 unknown to the RM of cluster 'default'");
	ck_assert_str_eq(severity(it), "");
	json_decref(it);
}
END_TEST

/* A NodeManager pod being deleted is not the node's NodeManager; the id it
 * names (a pod DNS name the node's host does not match) still keeps the
 * share while the RM says YARN uses something there. */
START_TEST(test_syncplan_terminating_nm_pod)
{
	static const char *const alloc =
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":"
		"{\\\"kubernetes.io/batch-cpu\\\":\\\"2k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"2Gi\\\"}}]}\"";
	static const char *const id = "nm-t.node-manager.hadoop-yarn.svc.cluster.local:8041";
	json_t *it;

	for (int busy = 1; busy >= 0; busy--) {
		sync_input_free(in);
		in = sync_input_new(&opts);
		add_text(node_doc("t1", NULL, "8k", "8Gi", alloc));
		add_text(nm_doc("hadoop-yarn", "nm-t", "t1", id,
				"\"deletionTimestamp\":\"2026-12-02T00:00:00Z\",",
				"\"hostname\":\"nm-t\",", ""));
		add_rm(SYNC_DEFAULT_CLUSTER, id, "RUNNING", 8, 8192, busy, busy * 1024);
		it = plan_of("t1");
		ck_assert_str_eq(gets_(it, "action"), "skip");
		ck_assert_ptr_eq(json_object_get(it, "yarnTotal"), NULL);
		if (busy) {
			ck_assert_str_eq(
				gets_(it, "reason"),
				"no NodeManager pod seen on the node (NodeManager pod "
				"hadoop-yarn/nm-t is terminating), but RM node "
				"nm-t.node-manager.hadoop-yarn.svc.cluster.local:8041 of "
				"cluster 'default' named by a pod on it uses 1 vCores, 1024 MB: its "
				"share is not zeroed");
			ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"),
					 "none");
		} else {
			ck_assert_str_eq(gets_(it, "reason"),
					 "no NodeManager pod on the node (NodeManager pod "
					 "hadoop-yarn/nm-t is terminating)");
			ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"),
					 "annotate");
		}
		json_decref(it);
	}
}
END_TEST

/* One RM node that cannot be read costs its node only; one that names no
 * host keeps every share that would be zeroed. */
START_TEST(test_syncplan_unreadable_rm_node_costs_its_node)
{
	static const char *const alloc =
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":"
		"{\\\"kubernetes.io/batch-cpu\\\":\\\"2k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"2Gi\\\"}}]}\"";
	struct yarn_nodes nodes = { 0 };
	struct err e = { 0 };
	json_t *doc, *it;

	doc = jsonio_parse("{\"nodes\":{\"node\":["
			   "{\"id\":\"k1:8041\",\"state\":\"RUNNING\",\"usedMemoryMB\":\"lots\","
			   "\"totalResource\":{\"memory\":1,\"vCores\":1}},"
			   "{\"id\":\"k2:8041\",\"state\":\"RUNNING\",\"nodeHostName\":\"k2\","
			   "\"totalResource\":{\"memory\":8192,\"vCores\":8}},"
			   "[\"not a node\"]]}}",
			   "test", &e);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(yarn_nodes_parse(doc, YARN_NODES_STRICT, &nodes, &e), -1);
	ck_assert_int_eq(yarn_nodes_parse(doc, YARN_NODES_KEEP_BAD, &nodes, &e), 0);
	ck_assert_int_eq(nodes.n, 3);
	ck_assert_str_eq(nodes.items[0].bad,
			 "nodes.node[0].usedMemoryMB: expected an integer "
			 "-9223372036854775808..9223372036854775807, got \"lots\"");
	ck_assert_ptr_null(nodes.items[1].bad);
	ck_assert_str_eq(nodes.items[2].id, "");
	ck_assert_int_eq(sync_input_add_rm_nodes(in, SYNC_DEFAULT_CLUSTER, &nodes, &e), 0);
	yarn_nodes_release(&nodes);
	json_decref(doc);
	add_text(node_doc("k1", NULL, "8k", "8Gi", NULL));
	add_text(node_doc("k2", NULL, "8k", "8Gi", NULL));
	add_text(node_doc("z", NULL, "8k", "8Gi", alloc));
	add_text(nm_doc("hadoop-yarn", "nm-k1", "k1", "k1:8041", "", "", ""));
	add_text(nm_doc("hadoop-yarn", "nm-k2", "k2", "k2:8041", "", "", ""));
	it = plan_of("k1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(severity(it), "error");
	ck_assert_str_eq(gets_(it, "reason"),
			 "RM node k1:8041 of cluster 'default' cannot be read: "
			 "nodes.node[0].usedMemoryMB: expected an integer "
			 "-9223372036854775808..9223372036854775807, got \"lots\"");
	json_decref(it);
	it = plan_of("k2");
	ck_assert_str_eq(gets_(it, "action"), "none");
	json_decref(it);
	it = plan_of("z");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reason"),
			 "no NodeManager pod seen on the node, but RM node (no id) of cluster "
			 "'default' cannot be read (nodes.node[2]: expected an object) and no "
			 "NodeManager pod claims it (it may run here): its share is not zeroed");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);
}
END_TEST

/* A pod quantity that is not a string: a live API's pod skips its node, an
 * operator's document is refused. */
START_TEST(test_syncplan_bad_pod_quantity_live_costs_node)
{
	static const char *const bad =
		"{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"ns\",\"name\":\"p\"},"
		"\"spec\":{\"nodeName\":\"q1\",\"containers\":[{\"resources\":{\"requests\":"
		"{\"kubernetes.io/batch-cpu\":[5]}}}]},\"status\":{\"phase\":\"Running\"}}";
	struct err e = { 0 };
	json_t *doc = jsonio_parse(bad, "test", &e), *it;

	ck_assert_int_eq(sync_input_add_document(in, doc, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	err_clear(&e);
	sync_input_set_remote(in);
	ck_assert_int_eq(sync_input_add_pod(in, doc, &e), 0);
	json_decref(doc);
	/* what cannot be placed makes some sum short: from an API, the listing
	 * is not complete (75); from stdin, refused (2) */
	doc = jsonio_parse("{\"kind\":\"Node\",\"metadata\":{}}", "test", &e);
	ck_assert_int_eq(sync_input_add_node(in, doc, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	json_decref(doc);
	err_clear(&e);
	for (size_t i = 0; i < 3; i++) {
		static const char *const odd[] = {
			"\"a string\"",
			"{\"metadata\":{\"namespace\":\"n\"},\"spec\":{\"nodeName\":\"q1\"}}",
			"{\"metadata\":{\"name\":\"p\"},\"spec\":{\"nodeName\":7,"
			"\"containers\":[]}}",
		};
		json_t *pod = jsonio_parse(odd[i], "test", &e);

		ck_assert_int_eq(sync_input_add_pod(in, pod, &e), -1);
		ck_assert_int_eq(e.kind, ERR_TEMP);
		err_clear(&e);
		json_decref(pod);
	}
	add_text(node_doc("q1", NULL, "8k", "8Gi", NULL));
	add_text(node_doc("q2", NULL, "8k", "8Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-q1", "q1", "q1:8041", "", "", ""));
	add_text(nm_doc("hadoop-yarn", "nm-q2", "q2", "q2:8041", "", "", ""));
	add_text(
		"{\"nodes\":{\"node\":["
		"{\"id\":\"q1:8041\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":1,\"vCores\":1}},"
		"{\"id\":\"q2:8041\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":1,\"vCores\":1}}]}}");
	it = plan_of("q1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(severity(it), "error");
	ck_assert_ptr_nonnull(strstr(gets_(it, "reason"), "ns/p"));
	json_decref(it);
	it = plan_of("q2");
	ck_assert_str_eq(gets_(it, "action"), "update");
	json_decref(it);
}
END_TEST

/* Candidates for an unknown id: another port on the host, a node whose
 * nodeHostName is the host, and the short name against its FQDN. */
START_TEST(test_syncplan_candidates_by_host_and_label)
{
	json_t *it, *c;

	add_text(node_doc("c1", NULL, "8k", "8Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-c1", "c1", "c1:8041", "", "", ""));
	add_text(
		"{\"nodes\":{\"node\":["
		"{\"id\":\"c1.example.com:8041\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":1,\"vCores\":1}},"
		"{\"id\":\"c1:45454\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":1,\"vCores\":1}},"
		"{\"id\":\"10.1.1.1:8041\",\"state\":\"RUNNING\",\"nodeHostName\":\"c1\",\"totalResource\":{\"memory\":1,\"vCores\":1}},"
		"{\"id\":\"c10:8041\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":1,\"vCores\":1}},"
		"{\"id\":\"other.example.com:8041\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":1,\"vCores\":1}}]}}");
	it = plan_of("c1");
	c = json_object_get(it, "candidates");
	ck_assert_int_eq(json_array_size(c), 3);
	ck_assert_str_eq(json_string_value(json_array_get(c, 0)), "c1.example.com:8041");
	ck_assert_str_eq(json_string_value(json_array_get(c, 1)), "c1:45454");
	ck_assert_str_eq(json_string_value(json_array_get(c, 2)), "10.1.1.1:8041");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	json_decref(it);
}
END_TEST

/* A breaker's findings: wrong shapes counted as no request (YARN offered
 * what pods hold), a pool of {} taken as 0 (YARN resized to 0). */
START_TEST(test_syncplan_shapes_are_never_zero)
{
	static const char *const specs[] = {
		"\"containers\":{}",
		"\"containers\":[{\"resources\":{\"requests\":\"2k\"}}]",
		"\"containers\":[{\"resources\":[]}]",
		"\"containers\":[\"c\"]",
		"\"containers\":[],\"initContainers\":{}",
		"\"containers\":[],\"overhead\":[]",
	};
	char pod[1024];
	struct err e = { 0 };
	json_t *doc, *it;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		snprintf(pod, sizeof(pod),
			 "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"ns\",\"name\":\"p%zu\"},"
			 "\"spec\":{\"nodeName\":\"s1\",%s},\"status\":{\"phase\":\"Running\"}}",
			 i, specs[i]);
		doc = jsonio_parse(pod, "test", &e);
		ck_assert_ptr_nonnull(doc);
		sync_input_free(in);
		in = sync_input_new(&opts);
		ck_assert_msg(sync_input_add_document(in, doc, &e) == -1, "case %zu offline", i);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		err_clear(&e);
		sync_input_set_remote(in);
		ck_assert_int_eq(sync_input_add_pod(in, doc, &e), 0);
		json_decref(doc);
		add_text(node_doc("s1", NULL, "8k", "8Gi", NULL));
		add_text(nm_doc("hadoop-yarn", "nm-s1", "s1", "s1:8041", "", "", ""));
		add_rm(SYNC_DEFAULT_CLUSTER, "s1:8041", "RUNNING", 8, 8192, 0, 0);
		it = plan_of("s1");
		ck_assert_msg(strcmp(gets_(it, "action"), "skip") == 0, "case %zu: %s", i,
			      gets_(it, "action"));
		ck_assert_str_eq(severity(it), "error");
		ck_assert_ptr_nonnull(strstr(gets_(it, "reason"), "ns/p"));
		json_decref(it);
	}

	/* an origin without resources, an allocatable that is no object */
	for (int i = 0; i < 3; i++) {
		char node[1024];

		sync_input_free(in);
		in = sync_input_new(&opts);
		snprintf(node, sizeof(node),
			 "{\"kind\":\"Node\",\"metadata\":{\"name\":\"o1\"%s},\"status\":{%s}}",
			 i == 0   ? ",\"annotations\":{\"" SYNC_ANN_ORIGIN "\":\"{}\"}"
			 : i == 1 ? ",\"annotations\":{\"" SYNC_ANN_ORIGIN
				    "\":\"{\\\"Resources\\\":{}}\"}"
				  : "",
			 i == 2 ? "\"allocatable\":\"64\"" : "");
		add_text(node);
		add_text(nm_doc("hadoop-yarn", "nm-o1", "o1", "o1:8041", "", "", ""));
		add_rm(SYNC_DEFAULT_CLUSTER, "o1:8041", "RUNNING", 10, 10240, 0, 0);
		it = plan_of("o1");
		ck_assert_msg(strcmp(gets_(it, "action"), "skip") == 0, "origin case %d: %s", i,
			      gets_(it, "reason"));
		ck_assert_str_eq(severity(it), "error");
		ck_assert_ptr_null(json_object_get(it, "yarnTotal"));
		json_decref(it);
	}
}
END_TEST

/* The duplicate check saw only nodes with exactly one live NodeManager pod:
 * a copy of an id whose owner rolls (two pods) or terminates went through
 * and sent the copy's node's pool for the owner's id. */
START_TEST(test_syncplan_duplicate_claims_see_every_pod)
{
	json_t *it;

	for (int terminating = 0; terminating <= 1; terminating++) {
		sync_input_free(in);
		in = sync_input_new(&opts);
		add_text(node_doc("small", NULL, "4k", "4Gi", NULL));
		add_text(node_doc("big2", NULL, "64k", "64Gi", NULL));
		add_text(
			nm_doc("hadoop-yarn", "nm-small-a", "small", "small:8041",
			       terminating ? "\"deletionTimestamp\":\"2026-12-02T00:00:00Z\"," : "",
			       "", ""));
		if (!terminating)
			add_text(nm_doc("hadoop-yarn", "nm-small-b", "small", "small:8041", "", "",
					""));
		add_text(nm_doc("hadoop-yarn", "copy", "big2", "small:8041", "",
				"\"hostname\":\"small\",", ""));
		add_rm(SYNC_DEFAULT_CLUSTER, "small:8041", "RUNNING", 4, 4096, 0, 0);
		it = plan_of("big2");
		ck_assert_str_eq(gets_(it, "action"), "skip");
		ck_assert_str_eq(gets_(it, "reason"),
				 "node id small:8041 of cluster 'default' is claimed on 2 nodes "
				 "(big2, small): every claimant is skipped");
		ck_assert_ptr_null(json_object_get(it, "yarnTotal"));
		json_decref(it);
	}
}
END_TEST

/* A NodeManager pod gone without a trace, its id the pod's FQDN (no name
 * of the node): while the RM shows that id busy and no pod claims it, no
 * node's share is zeroed; once a pod on another node claims it, it is. */
START_TEST(test_syncplan_unclaimed_busy_rm_node_keeps_shares)
{
	static const char *const alloc =
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":"
		"{\\\"kubernetes.io/batch-cpu\\\":\\\"2k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"2Gi\\\"}}]}\"";
	static const char *const fqdn = "nm-0.node-manager.hadoop-yarn.svc.cluster.local:8041";
	json_t *it;

	add_text(node_doc("w1", NULL, "8k", "8Gi", alloc));
	add_rm(SYNC_DEFAULT_CLUSTER, fqdn, "RUNNING", 8, 8192, 2, 2048);
	it = plan_of("w1");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"no NodeManager pod seen on the node, but RM node "
		"nm-0.node-manager.hadoop-yarn.svc.cluster.local:8041 of cluster 'default' "
		"uses 2 vCores, 2048 MB and no NodeManager pod claims it (it may run here): "
		"its share is not zeroed");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	json_decref(it);
	add_text(node_doc("w2", NULL, "8k", "8Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-0", "w2", fqdn, "", "\"hostname\":\"nm-0\",", ""));
	it = plan_of("w1");
	ck_assert_str_eq(gets_(it, "reason"), "no NodeManager pod on the node");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "annotate");
	json_decref(it);
}
END_TEST

/* An RM that lists one id twice (two figures for one node): skipped. */
START_TEST(test_syncplan_rm_lists_an_id_twice)
{
	json_t *it;

	add_text(node_doc("r1", NULL, "8k", "8Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-r1", "r1", "r1:8041", "", "", ""));
	add_text("{\"nodes\":{\"node\":["
		 "{\"id\":\"r1:8041\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":1,"
		 "\"vCores\":1}},"
		 "{\"id\":\"r1:8041\",\"state\":\"RUNNING\",\"usedVirtualCores\":50,"
		 "\"totalResource\":{\"memory\":1,\"vCores\":1}}]}}");
	it = plan_of("r1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(severity(it), "error");
	ck_assert_str_eq(gets_(it, "reason"),
			 "RM of cluster 'default' lists node id r1:8041 twice");
	json_decref(it);
}
END_TEST

/* The RM node index (syncinput_rm_node) finds what a search of the list
 * (yarn_nodes_find) finds: the first of equal ids, a bad one too; ids byte
 * for byte (another case is another id, unknown to the RM); never an item
 * without an id; an id listed twice is known as such in its own cluster
 * only. */
START_TEST(test_syncplan_rm_index_as_search)
{
	static const char *const ids[] = { "a:1", "A:1", "b:1", "",    "a:1",
					   "c:1", "b:1", "b:1", "d:1", "" };
	static const char *const asked[] = { "a:1", "A:1", "a:2", "b:1",  "B:1", "c:1",
					     "d:1", "",    "e:1", "a:1 ", "a",   NULL };
	struct yarn_node items[10];
	struct yarn_nodes list = { items, 10 }, other = { &items[8], 1 };
	const struct in_cluster *c;
	struct err e = { 0 };
	int twice = -1;

	memset(items, 0, sizeof(items));
	for (size_t i = 0; i < 10; i++) {
		items[i].id = (char *)ids[i];
		items[i].state = (char *)"RUNNING";
		items[i].host = (char *)"";
	}
	items[0].bad = items[3].bad = (char *)"unreadable";
	ck_assert_int_eq(sync_input_add_rm_nodes(in, "k", &list, &e), 0);
	ck_assert_int_eq(sync_input_add_rm_nodes(in, "o", &other, &e), 0);
	c = syncinput_cluster(in, "k", 0);
	for (size_t q = 0; q < sizeof(asked) / sizeof(asked[0]); q++) {
		const struct yarn_node *want = asked[q] ? yarn_nodes_find(&c->nodes, asked[q])
							: NULL;
		int copies = 0;

		for (size_t i = 0; asked[q] && i < c->nodes.n; i++)
			copies += *c->nodes.items[i].id && !strcmp(c->nodes.items[i].id, asked[q]);
		ck_assert_ptr_eq(syncinput_rm_node(c, asked[q], &twice), want);
		ck_assert_int_eq(twice, copies > 1);
	}
	ck_assert_ptr_eq(syncinput_rm_node(c, "a:1", &twice), &c->nodes.items[0]);
	ck_assert_str_eq(c->nodes.items[0].bad, "unreadable");
	ck_assert_int_eq(twice, 1);
	ck_assert_ptr_eq(syncinput_rm_node(c, "b:1", &twice), &c->nodes.items[2]);
	ck_assert_int_eq(twice, 1);
	ck_assert_ptr_eq(syncinput_rm_node(c, "A:1", &twice), &c->nodes.items[1]);
	ck_assert_int_eq(twice, 0);
	ck_assert_ptr_null(syncinput_rm_node(c, "", &twice));
	ck_assert_ptr_null(syncinput_rm_node(c, "B:1", NULL));
	c = syncinput_cluster(in, "o", 0);
	ck_assert_ptr_eq(syncinput_rm_node(c, "d:1", &twice), &c->nodes.items[0]);
	ck_assert_int_eq(twice, 0);
	ck_assert_ptr_null(syncinput_rm_node(c, "a:1", &twice));
}
END_TEST

/* The first busy RM node of c that is on n, by a search of the whole list
 * (what rmmatch_zero_blocked did before it had an index), *where set to the
 * words of its reason; NULL when none is. */
static const struct yarn_node *search_blocking(const struct in_cluster *c,
					       const struct sync_node *n, const char **where)
{
	for (size_t k = 0; k < c->nodes.n; k++) {
		const struct yarn_node *y = &c->nodes.items[k];
		size_t il = *y->id ? rmmatch_id_host_len(y->id) : 0, hl = strlen(y->host);
		const json_t *g;
		size_t i;

		if (!rmmatch_may_be_busy(y))
			continue;
		*where = " on its host";
		if ((il && (rmmatch_host_names_node(y->id, il, n))) ||
		    (hl && rmmatch_host_names_node(y->host, hl, n)))
			return y;
		json_array_foreach(n->gone_ids, i, g)
		{
			*where = " named by a pod on it";
			if (*y->id && strcasecmp(y->id, json_string_value(g)) == 0)
				return y;
		}
		*where = " on its host";
		if ((il && rmmatch_host_in(y->id, il, n->nm_names)) ||
		    (hl && rmmatch_host_in(y->host, hl, n->nm_names)))
			return y;
	}
	return NULL;
}

/* rmmatch_zero_blocked finds the RM nodes on a node through an index of the
 * busy ones by host (not a search of the list per node): on random lists of
 * hosts that differ in case, first DNS label and domain, ids of other
 * ports, empty ids and hosts, idle and inactive nodes, it blocks on the same
 * RM node as a search of the whole list, for the same reason. */
START_TEST(test_syncplan_zero_blocked_index_as_search)
{
	static const char *const hosts[] = {
		"w1", "W1",  "w1.example.com", "W1.Example.COM", "w1.other",   "10.0.0.1",
		"w2", "w10", "nm-pod-1",       "NM-POD-1.svc",   "10.244.0.9", ""
	};
	static const char *const ports[] = { ":8041", ":9", "" };
	struct sync_node n = { .name = (char *)"w1" };
	unsigned seed = 7;
	int found = 0;

	n.addresses = json_pack("[s,s]", "10.0.0.1", "w1.example.com");
	n.nm_names = json_pack("[s,s]", "nm-pod-1", "10.244.0.9");
	n.gone_ids = json_pack("[s]", "W2:9");
	for (int round = 0; round < 400; round++) {
		struct sync_input *ri = sync_input_new(&opts);
		struct yarn_node items[24];
		char ids[24][64];
		struct yarn_nodes list = { items, 1 + round % 24 };
		const struct yarn_node *want;
		const char *where = "";
		struct err e = { 0 };
		char *got, expect[256];

		memset(items, 0, sizeof(items));
		for (size_t i = 0; i < list.n; i++) {
			seed = seed * 1103515245u + 12345u;
			snprintf(ids[i], sizeof(ids[i]), "%s%s", hosts[(seed >> 8) % 12],
				 *hosts[(seed >> 8) % 12] ? ports[(seed >> 16) % 3] : "");
			items[i].id = ids[i];
			items[i].host = (char *)hosts[(seed >> 20) % 12];
			items[i].state = (char *)((seed >> 24) % 5 == 0 ? "LOST" : "RUNNING");
			items[i].inactive = (seed >> 24) % 5 == 0;
			items[i].used.vcores = (seed >> 27) % 3 ? (int64_t)i + 1 : 0;
			items[i].used.memory_mb = items[i].used.vcores;
		}
		ck_assert_int_eq(sync_input_add_rm_nodes(ri, "k", &list, &e), 0);
		want = search_blocking(syncinput_cluster(ri, "k", 0), &n, &where);
		got = rmmatch_zero_blocked(ri, &n, NULL);
		if (want) {
			found++;
			snprintf(expect, sizeof(expect),
				 "RM node %s of cluster 'k'%s uses %lld vCores, %lld MB",
				 *want->id ? want->id : want->host, where,
				 (long long)want->used.vcores, (long long)want->used.memory_mb);
			ck_assert_msg(got && strcmp(got, expect) == 0, "round %d: got %s, want %s",
				      round, got ? got : "NULL", expect);
		} else {
			ck_assert_msg(!got, "round %d: got %s, want NULL", round, got);
		}
		free(got);
		sync_input_free(ri);
	}
	ck_assert_int_gt(found, 100); /* most rounds block, some do not */
	ck_assert_int_lt(found, 400);
	json_decref(n.addresses);
	json_decref(n.nm_names);
	json_decref(n.gone_ids);
}
END_TEST

/* From a review and the real RM's two NodeManagers on 127.0.0.1 and
 * 127.0.0.2: ids that share a first DNS label (an IP's first octet, a
 * short name in another domain) are other hosts, never this node's moved
 * NodeManager; nor is an id another node's pod claims (w2's, here). */
START_TEST(test_syncplan_node_id_moved_same_host_only)
{
	json_t *it;

	add_text(node_doc("w1", NULL, "32k", "64Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-1", "w1", "w1:8041", "", "", ""));
	add_text(node_doc("w2", NULL, "32k", "64Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-2", "w2", "w1:9041", "", "", ""));
	add_text("{\"nodes\":{\"node\":["
		 "{\"id\":\"w1:8041\",\"state\":\"LOST\",\"totalResource\":{\"memory\":0,"
		 "\"vCores\":0}},"
		 "{\"id\":\"w1.other.example:8041\",\"state\":\"RUNNING\",\"usedVirtualCores\":20,"
		 "\"usedMemoryMB\":40960,\"totalResource\":{\"memory\":65536,\"vCores\":32}},"
		 "{\"id\":\"w1:9041\",\"state\":\"RUNNING\",\"usedVirtualCores\":2,"
		 "\"usedMemoryMB\":2048,\"totalResource\":{\"memory\":65536,\"vCores\":32}}]}}");
	it = plan_of("w1");
	ck_assert_str_eq(gets_(it, "reasonCode"), "rm-node-inactive");
	ck_assert_ptr_null(json_object_get(it, "candidates"));
	json_decref(it);
}
END_TEST

/* From a new operator's run: the NodeManager came back on another port,
 * its old id LOST; YARN uses 1 vCore / 2 GiB there under the new id.  The
 * share (0 so far) follows that use, or Kubernetes double-spends it; the
 * new id is not resized (a candidate is never trusted with a total). */
START_TEST(test_syncplan_node_id_moved_share_follows)
{
	json_t *it, *ann;

	add_text(node_doc("worker-1", NULL, "32k", "64Gi", NULL));
	add_text(nm_doc("hadoop-yarn", "nm-1", "worker-1", "worker-1:8041", "", "", ""));
	add_text("{\"nodes\":{\"node\":["
		 "{\"id\":\"worker-1:8041\",\"state\":\"LOST\",\"totalResource\":{\"memory\":0,"
		 "\"vCores\":0}},"
		 "{\"id\":\"worker-1:45454\",\"state\":\"RUNNING\",\"usedVirtualCores\":1,"
		 "\"usedMemoryMB\":2048,\"totalResource\":{\"memory\":8192,\"vCores\":8}},"
		 "{\"id\":\"worker-1:45455\",\"state\":\"DECOMMISSIONED\",\"usedVirtualCores\":0,"
		 "\"usedMemoryMB\":0,\"totalResource\":{\"memory\":8192,\"vCores\":8}}]}}");
	it = plan_of("worker-1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reasonCode"), "node-id-moved");
	ck_assert_uint_eq(json_array_size(json_object_get(it, "candidates")), 1);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(it, "candidates"), 0)),
			 "worker-1:45454");
	ann = json_object_get(it, "annotation");
	ck_assert_str_eq(gets_(ann, "action"), "annotate");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(ann, "hadoopYarn"),
							   "kubernetes.io/batch-cpu")),
			 "1k");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(ann, "hadoopYarn"),
							   "kubernetes.io/batch-memory")),
			 "2Gi");
	json_decref(it);
}
END_TEST

/* A breaker's third round: zeros that are no evidence.  An inactive id's
 * zeros while the NodeManager came back under another port; an RM list
 * that is empty in any of its forms (an RM just restarted); an unreadable
 * item that names only a host; impossible figures on the node's host. */
START_TEST(test_syncplan_zeros_that_are_no_evidence)
{
	static const char *const alloc =
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":"
		"{\\\"kubernetes.io/batch-cpu\\\":\\\"8k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"16Gi\\\"}}]}\"";
	static const char *const lists[] = {
		"{\"nodes\":null}",
		"{\"nodes\":{}}",
		"{\"nodes\":{\"node\":null}}",
		"{\"nodes\":{\"Node\":[{\"id\":\"w9:8041\"}]}}",
	};
	json_t *it;

	/* the pod names worker-1:8041, SHUTDOWN; worker-1:45454 RUNNING and busy */
	add_text(node_doc("worker-1", NULL, "32k", "64Gi", alloc));
	add_text(nm_doc("hadoop-yarn", "nm-1", "worker-1", "worker-1:8041", "", "", ""));
	add_text("{\"nodes\":{\"node\":["
		 "{\"id\":\"worker-1:8041\",\"state\":\"SHUTDOWN\",\"totalResource\":{\"memory\":0,"
		 "\"vCores\":0}},"
		 "{\"id\":\"worker-1:45454\",\"state\":\"RUNNING\",\"usedVirtualCores\":8,"
		 "\"usedMemoryMB\":16384,\"totalResource\":{\"memory\":65536,\"vCores\":32}}]}}");
	it = plan_of("worker-1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	ck_assert_str_eq(gets_(it, "reasonCode"), "node-id-moved");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"RM node state SHUTDOWN, but the RM lists worker-1:45454 on the same host: "
		"the NodeManager re-registered under another id and the pod's "
		"yarn.hadoop.apache.org/node-id is stale; not resized, its share follows "
		"that id's use");
	json_decref(it);

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		sync_input_free(in);
		in = sync_input_new(&opts);
		add_text(node_doc("w1", NULL, "8k", "8Gi", alloc));
		add_text(lists[i]);
		it = plan_of("w1");
		ck_assert_msg(strcmp(gets_(json_object_get(it, "annotation"), "action"), "none") ==
				      0,
			      "list %zu: %s", i, gets_(it, "reason"));
		ck_assert_ptr_nonnull(strstr(gets_(it, "reason"), "lists no node"));
		json_decref(it);
	}

	/* an item without an id but with a host, and impossible figures on the host */
	for (int i = 0; i < 2; i++) {
		struct yarn_nodes nodes = { 0 };
		struct err e = { 0 };
		json_t *doc = jsonio_parse(
			i == 0 ? "{\"nodes\":{\"node\":[{\"nodeHostName\":\"nm-0.nm.hadoop-yarn.svc\","
				 "\"state\":\"RUNNING\",\"usedMemoryMB\":4096}]}}"
			       : "{\"nodes\":{\"node\":[{\"id\":\"w1:8041\",\"state\":\"RUNNING\","
				 "\"usedMemoryMB\":-1,\"usedVirtualCores\":-1,"
				 "\"totalResource\":{\"memory\":1,\"vCores\":1}}]}}",
			"test", &e);

		sync_input_free(in);
		in = sync_input_new(&opts);
		ck_assert_int_eq(yarn_nodes_parse(doc, YARN_NODES_KEEP_BAD, &nodes, &e), 0);
		ck_assert_int_eq(sync_input_add_rm_nodes(in, SYNC_DEFAULT_CLUSTER, &nodes, &e), 0);
		yarn_nodes_release(&nodes);
		json_decref(doc);
		add_text(node_doc("w1", NULL, "8k", "8Gi", alloc));
		it = plan_of("w1");
		ck_assert_msg(strcmp(gets_(json_object_get(it, "annotation"), "action"), "none") ==
				      0,
			      "case %d: %s", i, gets_(it, "reason"));
		json_decref(it);
	}
}
END_TEST

/* Node annotations of the wrong shape never fall back to
 * status.allocatable (YARN would be offered its own share again), and a
 * pod whose spec is no object is no pod. */
START_TEST(test_syncplan_annotation_shapes)
{
	static const char *const nodes[] = {
		"{\"kind\":\"Node\",\"metadata\":{\"name\":\"a1\",\"annotations\":[]},"
		"\"status\":{\"allocatable\":{\"kubernetes.io/batch-cpu\":\"32k\"}}}",
		"{\"kind\":\"Node\",\"metadata\":{\"name\":\"a1\",\"annotations\":{\"" SYNC_ANN_ORIGIN
		"\":{\"resources\":{}}}},"
		"\"status\":{\"allocatable\":{\"kubernetes.io/batch-cpu\":\"32k\"}}}",
	};
	struct err e = { 0 };
	json_t *it, *doc;

	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		sync_input_free(in);
		in = sync_input_new(&opts);
		add_text(nodes[i]);
		add_text(nm_doc("hadoop-yarn", "nm-a1", "a1", "a1:8041", "", "", ""));
		add_rm(SYNC_DEFAULT_CLUSTER, "a1:8041", "RUNNING", 2, 2048, 0, 0);
		it = plan_of("a1");
		ck_assert_msg(strcmp(gets_(it, "action"), "skip") == 0, "node %zu: %s", i,
			      gets_(it, "reason"));
		ck_assert_str_eq(severity(it), "error");
		json_decref(it);
	}
	doc = jsonio_parse("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"n\"},"
			   "\"spec\":\"oops\"}",
			   "test", &e);
	ck_assert_int_eq(sync_input_add_document(in, doc, &e), -1);
	ck_assert_str_eq(e.msg, "Pod.spec: expected an object, got \"oops\"");
	json_decref(doc);
}
END_TEST

/* Only free text is redacted: an id that holds a secret's letters by chance
 * (a password "hadoop" in "hadoop-yarn") must stay what it is. */
START_TEST(test_sync_redact_free_text_only)
{
	json_t *doc = json_pack("{s:[{s:s,s:s,s:{s:s}}]}", "items", "yarnNodeId",
				"nm-0.nm.hadoop-yarn.svc:8041", "reason", "user hadoop refused",
				"annotation", "error", "hadoop!");
	json_t *it;

	err_secret_add("hadoop");
	sync_redact(doc);
	it = json_array_get(json_object_get(doc, "items"), 0);
	ck_assert_str_eq(gets_(it, "yarnNodeId"), "nm-0.nm.hadoop-yarn.svc:8041");
	ck_assert_str_eq(gets_(it, "reason"), "user [redacted] refused");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "error"), "[redacted]!");
	json_decref(doc);
	err_secret_clear();
}
END_TEST

/* The NodeManager back under another port while its old id is still
 * RUNNING and idle: the claimed id's zeros do not lower the share while the
 * other id on the host is busy.  And plan --from with a config naming a
 * cluster whose list is not given: no share is zeroed on its absence. */
START_TEST(test_syncplan_share_not_lowered_on_one_id)
{
	static const char *const alloc =
		"\"{\\\"allocations\\\":[{\\\"name\\\":\\\"hadoop-yarn\\\",\\\"resources\\\":"
		"{\\\"kubernetes.io/batch-cpu\\\":\\\"4k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"8Gi\\\"}}]}\"";
	json_t *it;

	add_text(node_doc("h1", NULL, "32k", "64Gi", alloc));
	add_text(nm_doc("hadoop-yarn", "nm-h1", "h1", "h1:8041", "", "", ""));
	add_text("{\"nodes\":{\"node\":["
		 "{\"id\":\"h1:8041\",\"state\":\"RUNNING\",\"totalResource\":{\"memory\":65536,"
		 "\"vCores\":32}},"
		 "{\"id\":\"h1:45454\",\"state\":\"RUNNING\",\"usedVirtualCores\":4,"
		 "\"usedMemoryMB\":8192,\"totalResource\":{\"memory\":65536,\"vCores\":32}}]}}");
	it = plan_of("h1");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"RM total matches; RM node h1:45454 of cluster 'default' on its host uses 4 "
		"vCores, 8192 MB: its share is not lowered");
	json_decref(it);

	sync_input_free(in);
	in = sync_input_new(&opts);
	sync_input_cluster_expect(in, "b");
	add_text(node_doc("h1", NULL, "32k", "64Gi", alloc));
	add_rm(SYNC_DEFAULT_CLUSTER, "elsewhere:8041", "RUNNING", 1, 1, 0, 0);
	it = plan_of("h1");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	ck_assert_str_eq(
		gets_(it, "reason"),
		"no NodeManager pod seen on the node, but cluster 'b' is configured and its RM "
		"node list was not given: its share is not zeroed");
	json_decref(it);
}
END_TEST

/* kilo-sync's configuration: nodeManagerNamespaces taken as given, its
 * default, an unknown field refused (the nearest known one named), bad
 * values refused naming the field, the value and the position. */
START_TEST(test_syncconfig_namespaces_and_unknown)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/sync.yaml", dir);
	struct sync_config sc;
	struct err e = { 0 };

	ck_assert_int_eq(sync_config_load(&sc, NULL, &e), 0);
	ck_assert_str_eq(sc.options.nm_namespaces[0], "hadoop-yarn");
	ck_assert_ptr_null(sc.options.nm_namespaces[1]);
	sync_config_release(&sc);

	testlib_write(dir, "sync.yaml",
		      "clusters: [{id: a, rmUrls: ['http://rm:8088']}]\n"
		      "nodeManagerNamespaces: [yarn, hadoop-yarn]\n");
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(sc.options.nm_namespaces[0], "yarn");
	ck_assert_str_eq(sc.options.nm_namespaces[1], "hadoop-yarn");
	ck_assert_ptr_null(sc.options.nm_namespaces[2]);
	sync_config_release(&sc);
	testlib_write(dir, "sync.yaml",
		      "clusters: [{id: a, rmUrls: ['http://rm:8088']}]\n"
		      "nodeManagerNamespaces: [yarn, hadoop-yarn]\nnodeManagerNamespace: x\n");
	ck_assert_int_eq(sync_config_load(&sc, path, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(strstr(e.msg, "sync.yaml:"),
			 "sync.yaml:3:1: nodeManagerNamespace: unknown field "
			 "(did you mean nodeManagerNamespaces?)");
	sync_config_release(&sc);

	testlib_write(dir, "sync.yaml", "nodeManagerNamespaces: [ok, -bad]\n");
	ck_assert_int_eq(sync_config_load(&sc, path, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(strstr(e.msg, "sync.yaml:"), "sync.yaml:1:29: nodeManagerNamespaces: "
						      "expected a namespace name, got \"-bad\"");
	sync_config_release(&sc);
	testlib_write(dir, "sync.yaml", "nodeManagerNamespaces: hadoop-yarn\n");
	ck_assert_int_eq(sync_config_load(&sc, path, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "nodeManagerNamespaces: expected a non-empty list"));
	sync_config_release(&sc);
	testlib_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

/* An unknown field anywhere in kilo-sync's config is refused at its key
 * (the first in file order), with the nearest known field when one is
 * close; a key that is not a plain name is quoted, a long one cut. */
START_TEST(test_syncconfig_unknown_fields_refused)
{
	static const char cl[] = "clusters:\n  - id: a\n    rmUrls: ['http://rm:8088']\n";
	char k200[201];
	char *long_key = NULL;
	static const struct {
		const char *extra, *want;
	} cases[] = {
		{ "clusterz: []\n",
		  "sync.yaml:4:1: clusterz: unknown field (did you mean clusters?)" },
		{ "    rmUrl: x\n",
		  "sync.yaml:4:5: clusters[0].rmUrl: unknown field (did you mean rmUrls?)" },
		{ "    userNmae:\n",
		  "sync.yaml:4:5: clusters[0].userNmae: unknown field (did you mean userName?)" },
		{ "    tls: {caFile: /ca, insecure: true}\n",
		  "sync.yaml:4:24: clusters[0].tls.insecure: unknown field" },
		{ "    rmadmin: {comand: yarn}\n",
		  "sync.yaml:4:15: clusters[0].rmadmin.comand: unknown field (did you mean command?)" },
		{ "batchResources: {CPU: x}\n",
		  "sync.yaml:4:18: batchResources.CPU: unknown field (did you mean cpu?)" },
		{ "reservation:\n  percnet: 5\n",
		  "sync.yaml:5:3: reservation.percnet: unknown field (did you mean percent?)" },
		{ "kubernetes: {pagesize: 10}\n",
		  "sync.yaml:4:14: kubernetes.pagesize: unknown field (did you mean pageSize?)" },
		{ "zzz: 1\naaa: 2\n", "sync.yaml:4:1: zzz: unknown field" },
		{ "\"a\\x01b\": 1\n", "sync.yaml:4:1: \"a\\u0001b\": unknown field" },
		{ "cl\xc3\xbcsters: 1\n",
		  "sync.yaml:4:1: \"cl\\u00FCsters\": unknown field (did you mean clusters?)" },
		{ "apiVersion: apps/v1\nkind: Deployment\n",
		  "sync.yaml:5:7: kind: expected kilo-sync's config (clusters:, batchResources:, "
		  "...), not a Kubernetes object: that is the sync.yaml in the data of the "
		  "ConfigMap kilo-sync (manifests/kilo/kilo-sync-config.yaml), got \"Deployment\"" },
	};
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/sync.yaml", dir);
	struct sync_config sc;
	struct err e = { 0 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xasprintf("%s%s", cl, cases[i].extra);

		testlib_write(dir, "sync.yaml", text);
		ck_assert_msg(sync_config_load(&sc, path, &e) == -1, "case %zu loaded", i);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_str_eq(strstr(e.msg, "sync.yaml:"), cases[i].want);
		sync_config_release(&sc);
		free(text);
	}
	/* a key of 200 bytes: shown cut at 64, never compared */
	memset(k200, 'k', 200);
	k200[200] = '\0';
	long_key = xasprintf("%s%s: 1\n", cl, k200);
	testlib_write(dir, "sync.yaml", long_key);
	ck_assert_int_eq(sync_config_load(&sc, path, &e), -1);
	ck_assert_str_eq(
		strstr(e.msg, "sync.yaml:"),
		"sync.yaml:4:1: \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\"...: "
		"unknown field");
	sync_config_release(&sc);
	/* every field known: loads */
	testlib_write(
		dir, "sync.yaml",
		"clusters:\n  - id: a\n    rmUrls: ['https://rm:8090']\n    userName: yarn\n"
		"    timeoutMs: 5000\n    confirmTimeoutMs: 0\n"
		"    tls: {caFile: /ca, certFile: /c, keyFile: /k, insecureSkipVerify: false}\n"
		"    rmadmin: {command: /opt/hadoop/bin/yarn, timeoutMs: 1000}\n"
		"batchResources: {cpu: a, memory: b}\nnodeManagerSelector: a=b\n"
		"podLabelSelector: x\noverCommitTimeoutMs: 5\n"
		"reservation: {cpuMilli: 1, memoryBytes: 2, percent: 3}\n"
		"kubernetes: {kubeconfig: /k, context: c, pageSize: 9, timeoutMs: 8, maxPages: 7}\n"
		"passTimeoutMs: 5000\nnodeManagerNamespaces: [a]\n");
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.clusters[0].rmadmin_timeout_ms, 1000);
	ck_assert_int_eq(sc.max_pages, 7);
	sync_config_release(&sc);
	free(long_key);
	testlib_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

/* lifecycle on needs overCommitTimeoutMs -1: the real RM never disarms a
 * timeout a resize carried (a later -1 is ignored), so the drain's 0/0 would
 * preempt what runs (test/hadoop/tests/lifecycle.sh).  Off, any timeout. */
START_TEST(test_syncconfig_lifecycle_needs_no_timeout)
{
	static const char cl[] = "clusters: [{id: a, rmUrls: ['http://rm:8088']}]\n";
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/sync.yaml", dir), *text;
	struct sync_config sc;
	struct err e = { 0 };

	text = xasprintf("%soverCommitTimeoutMs: 30000\nlifecycle: {holdDownMs: 0}\n", cl);
	testlib_write(dir, "sync.yaml", text);
	free(text);
	ck_assert_int_eq(sync_config_load(&sc, path, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(
		strstr(e.msg, "sync.yaml:"),
		"sync.yaml:2:22: overCommitTimeoutMs: expected -1 with lifecycle on (the "
		"RM never disarms a timeout once a resize carried one: a later -1 is "
		"ignored, so a drain at 0/0 would preempt the running containers; after "
		"setting -1, restart the NodeManagers that got a timeout once), got 30000");
	sync_config_release(&sc);
	text = xasprintf("%soverCommitTimeoutMs: 0\nlifecycle: {}\n", cl);
	testlib_write(dir, "sync.yaml", text);
	free(text);
	ck_assert_int_eq(sync_config_load(&sc, path, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "overCommitTimeoutMs: expected -1 with lifecycle on"));
	sync_config_release(&sc);
	/* off: any timeout; on with the default -1: loads */
	text = xasprintf("%soverCommitTimeoutMs: 30000\nlifecycle: {enabled: false}\n", cl);
	testlib_write(dir, "sync.yaml", text);
	free(text);
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.options.over_commit_timeout_ms, 30000);
	ck_assert_int_eq(sc.options.lifecycle.enabled, 0);
	sync_config_release(&sc);
	text = xasprintf("%slifecycle: {}\n", cl);
	testlib_write(dir, "sync.yaml", text);
	free(text);
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.options.lifecycle.enabled, 1);
	ck_assert_int_eq(sc.options.over_commit_timeout_ms, -1);
	sync_config_release(&sc);
	testlib_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_syncplan_third_party_value_keeps_other_entries)
{
	struct err e = { 0 };
	char *v = sync_third_party_value(
		"{\"allocations\":[{\"name\":\"other\",\"priority\":\"koord-batch\",\"resources\":{}},"
		"{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\",\"resources\":{}}]}",
		&opts, 12000, 24LL << 30, &e);

	ck_assert_str_eq(v,
			 "{\"allocations\":[{\"name\":\"other\",\"priority\":\"koord-batch\","
			 "\"resources\":{}},{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\","
			 "\"resources\":{\"kubernetes.io/batch-cpu\":\"12k\","
			 "\"kubernetes.io/batch-memory\":\"24Gi\"}}]}");
	free(v);
	v = sync_third_party_value(NULL, &opts, 0, 0, &e);
	ck_assert_str_eq(v,
			 "{\"allocations\":[{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\","
			 "\"resources\":{\"kubernetes.io/batch-cpu\":\"0\","
			 "\"kubernetes.io/batch-memory\":\"0\"}}]}");
	free(v);
	ck_assert_ptr_null(sync_third_party_value("{\"allocations\":3}", &opts, 0, 0, &e));
	ck_assert_ptr_null(sync_third_party_value("{", &opts, 0, 0, &e));
}
END_TEST

START_TEST(test_syncplan_bad_input_names_field)
{
	struct err e = { 0 };
	json_t *doc = jsonio_parse(
		"{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"ns\",\"name\":\"p\"},"
		"\"spec\":{\"nodeName\":\"n1\",\"containers\":[" REQ("1K", "1Gi") "]}}",
		"t", &e);

	ck_assert_int_eq(sync_input_add_document(in, doc, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strstr(e.msg, "Pod ns/p.spec.containers[0].resources.requests") == e.msg,
		      "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "1K") != NULL, "%s", e.msg);
	json_decref(doc);
	doc = jsonio_parse("{\"kind\":\"ConfigMap\"}", "t", &e);
	ck_assert_int_eq(sync_input_add_document(in, doc, &e), -1);
	ck_assert_str_eq(e.msg, "unexpected document of kind 'ConfigMap'");
	json_decref(doc);
}
END_TEST

START_TEST(test_syncplan_kubectl_list_and_only_nodes)
{
	json_t *plan;
	const char *const only[] = { "nope", NULL };

	add_fixture("k8s/node-batch.json");
	add_fixture("k8s/list-kubectl.json");
	ck_assert_int_eq(sync_input_pods(in), 2);
	plan = sync_plan(in, 0, NULL);
	ck_assert_int_eq(json_array_size(json_object_get(plan, "items")), 1);
	json_decref(plan);
	plan = sync_plan(in, 0, only);
	ck_assert_int_eq(json_array_size(json_object_get(plan, "items")), 0);
	json_decref(plan);
}
END_TEST

START_TEST(test_syncplan_filtered_reading_same_plan)
{
	static const char *const fixtures[] = {
		"k8s/node-batch.json",
		"k8s/podlist-mixed.json",
		"yarn/rm-nodes.json",
	};
	struct sync_input *filtered = sync_input_new(&opts);
	struct err e = { 0 };
	json_t *a, *b;

	/* and what the fixtures lack: sidecars, overhead, limits alone */
	const char *sidecar = pod_doc(
		"c", "worker-1", "Running", NULL, NULL,
		"\"containers\":[" LIM(
			"1k",
			"1Gi") "],\"overhead\":{\"kubernetes.io/batch-cpu\":\"250\"},"
			       "\"initContainers\":[{\"restartPolicy\":\"Always\",\"resources\":{\"requests\":"
			       "{\"kubernetes.io/batch-cpu\":\"500\"}}}," REQ("9k", "0") "]");

	for (size_t i = 0; i <= sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		char *path = i < sizeof(fixtures) / sizeof(fixtures[0])
				     ? testlib_fixture(fixtures[i])
				     : NULL;
		char *text = path ? testlib_read(NULL, path) : xstrdup(sidecar);
		json_t *doc = jsonio_parse_filtered(text, strlen(text), sync_input_fields);

		ck_assert_ptr_nonnull(doc);
		ck_assert_msg(sync_input_add_document(filtered, doc, &e) == 0, "%s", e.msg);
		json_decref(doc);
		add_text(text);
		free(text);
		free(path);
	}
	add_rm("yarn-cluster-1", NM_ID, "RUNNING", 20, 40960, 2, 4096);
	add_rm_to(filtered, "yarn-cluster-1", NM_ID, "RUNNING", 20, 40960, 2, 4096);
	a = sync_plan(in, 0, NULL);
	b = sync_plan(filtered, 0, NULL);
	/* 4000 + max(1000 + 500 sidecar, 9000 + 500) + 250 */
	ck_assert_int_eq(json_integer_value(json_object_get(
				 json_object_get(json_array_get(json_object_get(a, "items"), 0),
						 "requested"),
				 "cpuMilli")),
			 13750);
	ck_assert_msg(json_equal(a, b), "plans differ");
	json_decref(a);
	json_decref(b);
	sync_input_free(filtered);
}
END_TEST

/* The reason codes are a closed list, and doc/SCHEMAS.md lists exactly
 * them, in the same order. */
START_TEST(test_syncplan_reason_codes_documented)
{
	char *path = testlib_fixture("../../doc/SCHEMAS.md");
	char *text = testlib_read(NULL, path);
	const char *p, *stop;
	int r = SYNC_R_NONE + 1;

	ck_assert_ptr_nonnull(text);
	p = strstr(text, "### Reason codes");
	ck_assert_ptr_nonnull(p);
	stop = strstr(p + 1, "\n#"); /* the section's end */
	ck_assert_ptr_nonnull(stop);
	while ((p = strstr(p, "\n| `")) && p < stop) {
		const char *code = p + 4, *end = strchr(code, '`');
		char buf[64];

		ck_assert_ptr_nonnull(end);
		ck_assert_uint_lt((size_t)(end - code), sizeof(buf));
		memcpy(buf, code, (size_t)(end - code));
		buf[end - code] = '\0';
		ck_assert_msg(r < SYNC_R_COUNT, "SCHEMAS.md lists %s beyond the code's list", buf);
		ck_assert_str_eq(buf, sync_reason_code((enum sync_reason)r));
		ck_assert_int_eq(sync_reason_parse(buf), r);
		r++;
		p = end;
	}
	ck_assert_int_eq(r, SYNC_R_COUNT);
	ck_assert_ptr_null(sync_reason_code(SYNC_R_NONE));
	ck_assert_ptr_null(sync_reason_code(SYNC_R_COUNT));
	ck_assert_int_eq(sync_reason_parse("Unknown-Node-Id"), SYNC_R_NONE);
	ck_assert_int_eq(sync_reason_parse(NULL), SYNC_R_NONE);
	free(text);
	free(path);
}
END_TEST

/* Every item says why in a code: one node per cause (fixture). */
START_TEST(test_syncplan_reason_code_per_cause)
{
	static const char *const want[][4] = {
		{ "worker-a", "skip", "unknown-node-id", "skipped" },
		{ "worker-b", "skip", "invalid-node-id", "skipped" },
		{ "worker-c", "skip", "no-nodemanager", "planned" }, /* its share zeroed */
		{ "worker-d", "update", "total-differs", "planned" },
		{ "worker-e", "skip", "rm-node-decommissioning", "skipped" },
		{ "worker-f", "skip", "invalid-annotation", "skipped" },
		{ "worker-g", "skip", "invalid-allocation",
		  "skipped" }, /* no NodeManager: the error */
	};
	char *path = testlib_fixture("k8s/reasons.jsonl");
	char *text = testlib_read(NULL, path);
	json_auto_t *plan = NULL;
	const json_t *items;
	struct syncplan sp;
	struct syncreport view;
	char *line, *save = NULL;

	ck_assert_ptr_nonnull(text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		add_text(line);
	plan = sync_plan(in, 0, NULL);
	sync_plan_build(in, 0, NULL, &sp);
	syncreport_of_plan(&view, &sp);
	items = json_object_get(plan, "items");
	ck_assert_uint_eq(json_array_size(items), 7);
	for (size_t i = 0; i < 7; i++) {
		const json_t *it = json_array_get(items, i);
		struct sync_node_state ns;

		ck_assert_str_eq(json_string_value(json_object_get(it, "node")), want[i][0]);
		ck_assert_str_eq(json_string_value(json_object_get(it, "action")), want[i][1]);
		ck_assert_str_eq(json_string_value(json_object_get(it, "reasonCode")), want[i][2]);
		sync_item_state(&view.items[i], &ns);
		ck_assert_str_eq(ns.state, want[i][3]);
		ck_assert_str_eq(ns.code, want[i][2]);
	}
	syncreport_release(&view);
	syncplan_release(&sp);
	free(text);
	free(path);
}
END_TEST

/* What became of a report item's node: failures first, then skips. */
START_TEST(test_sync_item_state_of_report_items)
{
	static const struct {
		const char *item, *state, *code, *part;
	} cases[] = {
		{ "{\"action\":\"update\",\"reasonCode\":\"total-differs\",\"result\":\"failed\","
		  "\"errorCode\":\"resize-not-confirmed\",\"error\":\"e\",\"annotation\":{"
		  "\"action\":\"annotate\",\"result\":\"failed\",\"errorCode\":\"annotation-refused\"}}",
		  "failed", "resize-not-confirmed", NULL },
		{ "{\"action\":\"none\",\"reasonCode\":\"total-matches\",\"result\":\"unchanged\","
		  "\"annotation\":{\"action\":\"annotate\",\"result\":\"failed\","
		  "\"errorCode\":\"annotation-conflict\",\"error\":\"409\"}}",
		  "failed", "annotation-conflict", "annotation" },
		{ "{\"action\":\"update\",\"reasonCode\":\"total-differs\",\"result\":\"updated\","
		  "\"annotation\":{\"action\":\"skip\",\"reasonCode\":\"invalid-allocation\","
		  "\"result\":\"unchanged\"}}",
		  "skipped", "invalid-allocation", "annotation" },
		{ "{\"action\":\"none\",\"reasonCode\":\"total-matches\",\"result\":\"unchanged\","
		  "\"annotation\":{\"action\":\"annotate\",\"result\":\"annotated\"}}",
		  "updated", "total-matches", NULL },
		{ "{\"action\":\"update\",\"reasonCode\":\"total-differs\",\"result\":\"planned\","
		  "\"annotation\":{\"action\":\"none\",\"result\":\"unchanged\"}}",
		  "planned", "total-differs", NULL },
		{ "{\"action\":\"none\",\"result\":\"unchanged\",\"annotation\":{\"action\":\"none\"}}",
		  "unchanged", NULL, NULL },
		/* a share zeroed for a node without a NodeManager: an update */
		{ "{\"action\":\"skip\",\"reasonCode\":\"no-nodemanager\",\"result\":\"skipped\","
		  "\"annotation\":{\"action\":\"annotate\",\"result\":\"annotated\"}}",
		  "updated", "no-nodemanager", NULL },
		{ "{\"action\":\"skip\",\"reasonCode\":\"no-nodemanager\","
		  "\"annotation\":{\"action\":\"annotate\"}}",
		  "planned", "no-nodemanager", NULL },
		/* ... but not a draining node's share written back */
		{ "{\"action\":\"skip\",\"reasonCode\":\"rm-node-decommissioning\",\"result\":\"skipped\","
		  "\"annotation\":{\"action\":\"annotate\",\"result\":\"annotated\"}}",
		  "skipped", "rm-node-decommissioning", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct err e = { 0 };
		json_auto_t *item = jsonio_parse(cases[i].item, "case", &e);
		struct syncreport_item ri;
		struct sync_node_state ns;

		ck_assert_msg(item != NULL, "%s", e.msg);
		syncreport_item_view(item, &ri); /* no node: read leniently */
		sync_item_state(&ri, &ns);
		ck_assert_str_eq(ns.state, cases[i].state);
		if (cases[i].code)
			ck_assert_str_eq(ns.code, cases[i].code);
		else
			ck_assert_ptr_null(ns.code);
		if (cases[i].part)
			ck_assert_str_eq(ns.part, cases[i].part);
		else
			ck_assert_ptr_null(ns.part);
		json_decref(ri.plan.doc);
	}
}
END_TEST

/* sync_damp: rises ramp and the deadband holds, decreases at once
 * (issue "NodeManager lifecycle" slice a), per dimension. */
START_TEST(test_sync_damp_table)
{
	static const struct sync_damping rec = { 1, 4, 8192, 25, 1, 1024 };
	static const struct {
		int64_t cv, cm, tv, tm, wv, wm;
	} cases[] = {
		{ 0, 0, 10, 10240, 4, 8192 },              /* from 0: the fixed step */
		{ 4, 8192, 10, 10240, 8, 10240 },          /* the rest of memory in one step */
		{ 8, 10240, 10, 10240, 10, 10240 },        /* a rise of 2 > deadband 1 */
		{ 10, 10240, 11, 11264, 10, 10240 },       /* both within the deadband */
		{ 100, 409600, 200, 819200, 125, 512000 }, /* 25% beats the fixed step */
		{ 100, 409600, 3, 1000, 3, 1000 },         /* decreases in full */
		{ 10, 1000, 2, 5000, 2, 5000 },            /* one down at once, one up in a step */
		{ -5, -5, 10, 10240, 4, 8192 },            /* a negative current counts as 0 */
		{ 7, 7, 7, 7, 7, 7 },                      /* equal */
		{ 0, (int64_t)1 << 40, 0, ((int64_t)1 << 41), 0,
		  ((int64_t)1 << 40) + ((int64_t)1 << 38) },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct yarn_resource got = sync_damp(
			&rec,
			(struct yarn_resource){ .vcores = cases[i].cv, .memory_mb = cases[i].cm },
			(struct yarn_resource){ .vcores = cases[i].tv, .memory_mb = cases[i].tm });

		ck_assert_msg(got.vcores == cases[i].wv && got.memory_mb == cases[i].wm,
			      "case %zu: got %lld/%lld, want %lld/%lld", i, (long long)got.vcores,
			      (long long)got.memory_mb, (long long)cases[i].wv,
			      (long long)cases[i].wm);
	}
	{
		struct sync_damping off = rec;
		struct yarn_resource got;

		off.enabled = 0;
		got = sync_damp(&off, (struct yarn_resource){ 0, 0 },
				(struct yarn_resource){ .vcores = 10, .memory_mb = 10240 });
		ck_assert_int_eq(got.vcores, 10);
		ck_assert_int_eq(got.memory_mb, 10240);
		got = sync_damp(NULL, (struct yarn_resource){ 0, 0 },
				(struct yarn_resource){ .vcores = 3, .memory_mb = 3 });
		ck_assert_int_eq(got.vcores, 3);
	}
}
END_TEST

/* Nodes n1..n3 (10 cores, 10 GiB of Batch), each with a NodeManager pod
 * n<i>:8041 requesting nothing, and one RM list of the default cluster
 * with those ids in states[i] and totals {vCores, MB} (nothing used). */
static void add_three_nm_nodes(const char *const states[3], const int64_t totals[3][2])
{
	char rm[1024];
	size_t len = 0;

	for (int i = 0; i < 3; i++) {
		char name[8], pod[8], id[16];

		snprintf(name, sizeof(name), "n%d", i + 1);
		snprintf(pod, sizeof(pod), "nm%d", i + 1);
		snprintf(id, sizeof(id), "n%d:8041", i + 1);
		add_text(node_doc(name, NULL, "10k", "10Gi", NULL));
		add_text(pod_doc(pod, name, "Running", id, NULL, "\"containers\":[]"));
		len += (size_t)snprintf(rm + len, sizeof(rm) - len,
					"%s{\"id\":\"%s\",\"state\":\"%s\",\"totalResource\":{"
					"\"vCores\":%lld,\"memory\":%lld},\"usedResource\":{"
					"\"vCores\":0,\"memory\":0}}",
					i ? "," : "{\"nodes\":{\"node\":[", id, states[i],
					(long long)totals[i][0], (long long)totals[i][1]);
	}
	snprintf(rm + len, sizeof(rm) - len, "]}}");
	add_text(rm);
}

/* Damping in the plan: yarnTotal is the step, yarnTarget the plan's. */
START_TEST(test_syncplan_damping_ramps_and_holds)
{
	json_t *it;

	opts.damping = (struct sync_damping){ 1, 4, 8192, 25, 1, 1024 };
	sync_input_free(in);
	in = sync_input_new(&opts);
	add_three_nm_nodes((const char *const[]){ "RUNNING", "RUNNING", "RUNNING" },
			   (const int64_t[][2]){ { 0, 0 }, { 10, 9728 }, { 64, 262144 } });
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_str_eq(gets_(it, "reasonCode"), "total-damped");
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 4);
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 8192);
	ck_assert_int_eq(geti(it, "yarnTarget", "vCores"), 10);
	ck_assert_int_eq(geti(it, "yarnTarget", "memoryMB"), 10240);
	ck_assert_str_eq(gets_(it, "reason"),
			 "RM total 0 vCores/0 MB differs; damped: 4 vCores/8192 MB this pass, "
			 "toward 10 vCores/10240 MB (damping.maxIncrease)");
	json_decref(it);
	it = plan_of("n2"); /* 512 MB more: within the deadband, not sent */
	ck_assert_str_eq(gets_(it, "action"), "none");
	ck_assert_str_eq(gets_(it, "reasonCode"), "total-within-deadband");
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 9728);
	ck_assert_int_eq(geti(it, "yarnTarget", "memoryMB"), 10240);
	json_decref(it);
	it = plan_of("n3"); /* a decrease: at once, in full, no yarnTarget */
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_str_eq(gets_(it, "reasonCode"), "total-differs");
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 10);
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 10240);
	ck_assert_ptr_null(json_object_get(it, "yarnTarget"));
	json_decref(it);
}
END_TEST

/* YARN's NodeStates: NEW and UNHEALTHY are resized (the latter said so),
 * a state YARN does not have is skipped as bad data. */
START_TEST(test_syncplan_rm_states)
{
	json_t *it;

	add_three_nm_nodes((const char *const[]){ "UNHEALTHY", "NEW", "FROZEN" },
			   (const int64_t[][2]){ { 1, 1 }, { 1, 1 }, { 1, 1 } });
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_str_eq(gets_(it, "rmState"), "UNHEALTHY");
	ck_assert_str_eq(gets_(it, "reason"),
			 "RM total 1 vCores/1 MB differs; RM node state UNHEALTHY: resized all the "
			 "same (the RM places no container there while it is unhealthy)");
	json_decref(it);
	it = plan_of("n2");
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_str_eq(gets_(it, "rmState"), "NEW");
	json_decref(it);
	it = plan_of("n3");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reasonCode"), "rm-node-state-unknown");
	ck_assert_str_eq(gets_(it, "severity"), "error");
	json_decref(it);
}
END_TEST

/* The lifecycle in the plan (issue "NodeManager lifecycle", slice b): a
 * draining node is held at 0/0 with -1 whatever overCommitTimeoutMs says,
 * an offline one without its NodeManager pod returns with its label, a bad
 * record skips the node, and with lifecycle off the record is not read. */
#define LC_NODE(name, record, labels)                                                              \
	"{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{" labels               \
	"},\"annotations\":{\"kilo.sh/yarn-lifecycle\":" record "}},\"status\":{\"allocatable\":{" \
	"\"kubernetes.io/batch-cpu\":\"10k\",\"kubernetes.io/batch-memory\":\"10Gi\"}}}"

static void lifecycle_on(void)
{
	opts.lifecycle = (struct sync_lifecycle){ .enabled = 1,
						  .min_vcores = 1,
						  .min_memory_mb = 1024,
						  .margin_vcores = 1,
						  .margin_memory_mb = 1024,
						  .hold_down_ms = 300000,
						  .hold_up_ms = 600000,
						  .drain_timeout_ms = 3600000,
						  .label_key = "kilo.sh/yarn-nodemanager",
						  .label_value = "true" };
	opts.over_commit_timeout_ms = 5000;
	sync_input_free(in);
	in = sync_input_new(&opts);
}

START_TEST(test_syncplan_lifecycle_holds_and_returns)
{
	json_t *it, *lc;

	lifecycle_on();
	add_text(LC_NODE(
		"n1",
		"\"{\\\"state\\\":\\\"draining\\\",\\\"since\\\":\\\"2026-11-30T16:00:00Z\\\"}\"",
		"\"kilo.sh/yarn-nodemanager\":\"true\""));
	add_text(pod_doc("nm1", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text(
		"{\"nodes\":{\"node\":[{\"id\":\"n1:8041\",\"state\":\"RUNNING\",\"numContainers\":2,"
		"\"totalResource\":{\"vCores\":10,\"memory\":10240},\"usedMemoryMB\":2048,"
		"\"usedVirtualCores\":2}]}}");
	/* offline since yesterday, its Batch back for over holdUpMs, no pod */
	add_text(LC_NODE(
		"n2",
		"\"{\\\"state\\\":\\\"offline\\\",\\\"since\\\":\\\"2026-11-29T10:00:00Z\\\","
		"\\\"pendingSince\\\":\\\"2026-11-29T12:00:00Z\\\",\\\"labelRemoved\\\":true}\"",
		""));
	add_text(LC_NODE("n3", "\"{\\\"state\\\":\\\"asleep\\\"}\"", ""));
	/* offline as n2, but its NodeManager pod requested 9.5 CPUs: not back */
	add_text(LC_NODE(
		"n4",
		"\"{\\\"state\\\":\\\"offline\\\",\\\"since\\\":\\\"2026-11-29T10:00:00Z\\\","
		"\\\"pendingSince\\\":\\\"2026-11-29T12:00:00Z\\\",\\\"labelRemoved\\\":true,"
		"\\\"nodeManagerRequest\\\":{\\\"cpuMilli\\\":9500,\\\"memoryBytes\\\":0}}\"",
		""));
	add_text(pod_doc("p", "n1", "Running", NULL, NULL, "\"containers\":[]"));
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_str_eq(gets_(it, "reasonCode"), "lifecycle-hold");
	ck_assert_int_eq(geti(it, "yarnTotal", "vCores"), 0);
	ck_assert_int_eq(geti(it, "yarnTotal", "memoryMB"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(it, "overCommitTimeoutMs")), -1);
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "draining");
	/* its Batch is back: the hold-up starts, the node stays held */
	ck_assert_str_eq(gets_(lc, "action"), "record");
	ck_assert_str_eq(gets_(lc, "pendingSince"), "2026-11-30T16:00:00Z");
	ck_assert_str_eq(gets_(lc, "label"), "none");
	ck_assert_int_eq(geti(lc, "batch", "vCores"), 10);
	ck_assert_str_eq(gets_(it, "reason"),
			 "lifecycle draining: held at 0/0 with overCommitTimeoutMs -1 (Batch 10 "
			 "vCores/10240 MB; 2 containers running): Batch 10 vCores/10240 MB back at "
			 "lifecycle.min + returnMargin: the drain ends once it stays so for 600000 "
			 "ms; YARN uses more than the new "
			 "total; overCommitTimeoutMs -1: containers are not preempted");
	json_decref(it);
	it = plan_of("n2");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reasonCode"), "no-nodemanager");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "returning");
	ck_assert_str_eq(gets_(lc, "previous"), "offline");
	ck_assert_str_eq(gets_(lc, "action"), "record");
	ck_assert_str_eq(gets_(lc, "label"), "set");
	ck_assert_str_eq(gets_(lc, "since"), "2026-11-30T16:00:00Z");
	ck_assert_ptr_null(json_object_get(lc, "labelRemoved"));
	json_decref(it);
	it = plan_of("n4");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "offline");
	ck_assert_str_eq(gets_(lc, "label"), "none");
	ck_assert_int_eq(geti(lc, "batch", "vCores"), 0);
	ck_assert_ptr_null(json_object_get(lc, "pendingSince"));
	ck_assert_int_eq(geti(lc, "nodeManagerRequest", "cpuMilli"), 9500);
	json_decref(it);
	it = plan_of("n3");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reasonCode"), "invalid-lifecycle-record");
	ck_assert_str_eq(gets_(it, "severity"), "error");
	ck_assert_ptr_null(json_object_get(it, "lifecycle"));
	json_decref(it);
	/* lifecycle off: the record is not read, n2 and n3 have nothing */
	opts.lifecycle.enabled = 0;
	sync_input_free(in);
	in = sync_input_new(&opts);
	add_text(LC_NODE("n3", "\"{\\\"state\\\":\\\"asleep\\\"}\"", ""));
	ck_assert_ptr_null(plan_of("n3"));
}
END_TEST

/* A node that drained goes offline with its label; an active node whose
 * Batch went below min starts the hold-down in its record. */
START_TEST(test_syncplan_lifecycle_offline_and_hold_down)
{
	json_t *it, *lc;

	lifecycle_on();
	add_text(LC_NODE(
		"n1",
		"\"{\\\"state\\\":\\\"draining\\\",\\\"since\\\":\\\"2026-11-30T16:00:00Z\\\"}\"",
		"\"kilo.sh/yarn-nodemanager\":\"true\""));
	add_text(pod_doc("nm1", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text("{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},\"status\":{\"allocatable\":{"
		 "\"kubernetes.io/batch-cpu\":\"500\",\"kubernetes.io/batch-memory\":\"10Gi\"}}}");
	add_text(pod_doc("nm2", "n2", "Running", "n2:8041", NULL, "\"containers\":[]"));
	add_text(
		"{\"nodes\":{\"node\":[{\"id\":\"n1:8041\",\"state\":\"RUNNING\",\"numContainers\":0,"
		"\"totalResource\":{\"vCores\":0,\"memory\":0},\"usedMemoryMB\":0,"
		"\"usedVirtualCores\":0},{\"id\":\"n2:8041\",\"state\":\"RUNNING\","
		"\"totalResource\":{\"vCores\":4,\"memory\":4096},\"usedMemoryMB\":0,"
		"\"usedVirtualCores\":0}]}}");
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "none");
	ck_assert_str_eq(gets_(it, "reasonCode"), "lifecycle-hold");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "offline");
	ck_assert_str_eq(gets_(lc, "label"), "remove");
	ck_assert_int_eq(json_is_true(json_object_get(lc, "labelRemoved")), 1);
	{ /* the part carries the whole record apply writes */
		struct lc_record r;
		struct err e = { 0 };
		char *v;

		ck_assert_int_eq(lc_record_from_json(lc, "part", &r, &e), 0);
		v = lc_record_format(&r);
		ck_assert_str_eq(
			v, "{\"state\":\"offline\",\"since\":\"2026-11-30T16:00:00Z\","
			   "\"reason\":\"no YARN container left on the node (the RM lists "
			   "0/0 in use): label removed, the NodeManager DaemonSet stops its "
			   "pod\",\"labelRemoved\":true,\"nodeManagerRequest\":{\"cpuMilli\":0,"
			   "\"memoryBytes\":0}}");
		free(v);
	}
	json_decref(it);
	it = plan_of("n2"); /* 0.5 CPU: 0 vCores, below min; resized as usual meanwhile */
	ck_assert_str_eq(gets_(it, "action"), "update");
	ck_assert_str_eq(gets_(it, "reasonCode"), "total-differs");
	ck_assert_int_eq(json_integer_value(json_object_get(it, "overCommitTimeoutMs")), 5000);
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "active");
	ck_assert_str_eq(gets_(lc, "action"), "record");
	ck_assert_str_eq(gets_(lc, "pendingSince"), "2026-11-30T16:00:00Z");
	ck_assert_ptr_null(json_object_get(lc, "previous"));
	json_decref(it);
}
END_TEST

/* lifecycle and its decommission mode: what the config refuses, one line
 * naming the field and the value */
START_TEST(test_syncconfig_lifecycle)
{
	static const char cl[] = "clusters:\n  - id: a\n    rmUrls: ['http://rm:8088']\n";
	static const struct {
		const char *extra, *want;
	} cases[] = {
		{ "lifecycle: {nodeLable: a=b}\n",
		  "sync.yaml:4:13: lifecycle.nodeLable: unknown field (did you mean nodeLabel?)" },
		{ "lifecycle: {nodeLabel: a}\n",
		  "sync.yaml:4:24: lifecycle.nodeLabel: expected one label as key=value (the "
		  "NodeManager DaemonSet's nodeSelector), got \"a\"" },
		{ "lifecycle: {min: {vCores: 0, memoryMB: 0}}\n",
		  "sync.yaml:4:18: lifecycle.min: expected at least 1 vCore or 1 MB (a pool of 0/0 "
		  "never drains)" },
		{ "lifecycle: {drain: drop}\n",
		  "sync.yaml:4:20: lifecycle.drain: expected one of" },
		{ "lifecycle: {drain: decommission}\n",
		  "sync.yaml:4:20: lifecycle.drain: expected resize, or decommission with "
		  "lifecycle.nodeLabel" },
		{ "lifecycle: {drain: decommission, nodeLabel: a=b}\n",
		  "sync.yaml: clusters[0].exclude: expected the RM's exclude list, exclude: "
		  "{file: PATH} or exclude: {configMap: {namespace: NS, name: NAME}}" },
		{ "    exclude: {file: /x}\nlifecycle: {drain: decommission, nodeLabel: a=b}\n",
		  "sync.yaml: clusters[0].rmadmin: expected rmadmin: {command: "
		  "/opt/hadoop/bin/yarn}" },
		{ "lifecycle: {nodeLabel: \"Kilo Sh/x=true\"}\n",
		  "sync.yaml:4:24: lifecycle.nodeLabel: expected one label as key=value" },
		{ "lifecycle: {nodeLabel: \"a/b/c=true\"}\n",
		  "sync.yaml:4:24: lifecycle.nodeLabel: expected one label as key=value" },
		{ "    exclude: {file: relative}\n",
		  "sync.yaml:4:21: clusters[0].exclude.file: expected an absolute path, got \"relative\"" },
		{ "    exclude: {file: /etc/hadoop/exclude.xml}\n",
		  "sync.yaml:4:21: clusters[0].exclude.file: expected the plain host list" },
		{ "    exclude: {file: /x, configMap: {namespace: y, name: e}}\n",
		  "sync.yaml:4:14: clusters[0].exclude: expected either file" },
		{ "    exclude: {configMap: {namespace: Bad_NS, name: e}}\n",
		  "sync.yaml:4:38: clusters[0].exclude.configMap.namespace: expected a namespace "
		  "name" },
	};
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/sync.yaml", dir);
	struct sync_config sc;
	struct err e = { 0 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xasprintf("%s%s", cl, cases[i].extra);

		testlib_write(dir, "sync.yaml", text);
		ck_assert_msg(sync_config_load(&sc, path, &e) == -1, "case %zu loaded", i);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_msg(strncmp(strstr(e.msg, "sync.yaml:"), cases[i].want,
				      strlen(cases[i].want)) == 0,
			      "case %zu: %s", i, e.msg);
		sync_config_release(&sc);
		free(text);
	}
	testlib_write(dir, "sync.yaml",
		      "clusters:\n  - id: a\n    rmUrls: ['http://rm:8088']\n"
		      "    rmadmin: {command: yarn}\n"
		      "    exclude: {configMap: {namespace: hadoop-yarn, name: rm-exclude}}\n"
		      "lifecycle: {drain: decommission, nodeLabel: k/l=, holdDownMs: 0,\n"
		      "            decommissionTimeoutSeconds: 600}\n");
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.options.lifecycle.enabled, 1);
	ck_assert_int_eq(sc.options.lifecycle.decommission, 1);
	ck_assert_int_eq(sc.options.lifecycle.decommission_timeout_s, 600);
	ck_assert_int_eq(sc.options.lifecycle.hold_down_ms, 0);
	ck_assert_int_eq(sc.options.lifecycle.hold_up_ms, 600000);
	ck_assert_str_eq(sc.options.lifecycle.label_key, "k/l");
	ck_assert_str_eq(sc.options.lifecycle.label_value, ""); /* an empty value is one */
	ck_assert_str_eq(sc.clusters[0].exclude_cm_key, "yarn.exclude");
	sync_config_release(&sc);
	testlib_rmtree(dir);
	free(dir);
	free(path);
}
END_TEST

/* An RM answer that does not say what runs on a draining node (no
 * numContainers, no used figures) is no evidence that nothing does: the
 * node stays draining, its label stays. */
START_TEST(test_syncplan_lifecycle_offline_needs_rm_counts)
{
	json_t *it, *lc;

	lifecycle_on();
	add_text(LC_NODE(
		"n1",
		"\"{\\\"state\\\":\\\"draining\\\",\\\"since\\\":\\\"2026-11-30T16:00:00Z\\\"}\"",
		"\"kilo.sh/yarn-nodemanager\":\"true\""));
	add_text(pod_doc("nm1", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text(LC_NODE(
		"n2",
		"\"{\\\"state\\\":\\\"draining\\\",\\\"since\\\":\\\"2026-11-30T16:00:00Z\\\"}\"",
		"\"kilo.sh/yarn-nodemanager\":\"true\""));
	add_text(pod_doc("nm2", "n2", "Running", "n2:8041", NULL, "\"containers\":[]"));
	add_text("{\"nodes\":{\"node\":[{\"id\":\"n1:8041\",\"state\":\"RUNNING\","
		 "\"totalResource\":{\"vCores\":0,\"memory\":0}},{\"id\":\"n2:8041\","
		 "\"state\":\"RUNNING\",\"totalResource\":{\"vCores\":0,\"memory\":0},"
		 "\"usedMemoryMB\":0,\"usedVirtualCores\":0}]}}");
	for (int i = 0; i < 2; i++) {
		it = plan_of(i ? "n2" : "n1");
		ck_assert_str_eq(gets_(it, "reasonCode"), "lifecycle-hold");
		lc = json_object_get(it, "lifecycle");
		ck_assert_str_eq(gets_(lc, "state"), "draining");
		ck_assert_str_eq(gets_(lc, "label"), "none");
		json_decref(it);
	}
}
END_TEST

/* An offline node whose label key an operator has set to another value
 * (kilo.sh/yarn-nodemanager=false: keep it out) returns without kilo
 * setting the label over theirs. */
START_TEST(test_syncplan_lifecycle_return_keeps_another_label_value)
{
	json_t *it, *lc;

	lifecycle_on();
	add_text(LC_NODE(
		"n2",
		"\"{\\\"state\\\":\\\"offline\\\",\\\"since\\\":\\\"2026-11-29T10:00:00Z\\\","
		"\\\"pendingSince\\\":\\\"2026-11-29T12:00:00Z\\\",\\\"labelRemoved\\\":true}\"",
		"\"kilo.sh/yarn-nodemanager\":\"false\""));
	it = plan_of("n2");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "returning");
	ck_assert_str_eq(gets_(lc, "label"), "none");
	json_decref(it);
}
END_TEST

/* A tenant's pod with the NodeManager label (outside nodeManagerNamespaces)
 * holds a drain (a NodeManager may run in a namespace not configured) but
 * never keeps an offline node from returning (from a review). */
START_TEST(test_syncplan_lifecycle_foreign_pod_no_freeze)
{
	json_t *it, *lc;
	char pod[2048];

	lifecycle_on();
	add_text(LC_NODE(
		"n2",
		"\"{\\\"state\\\":\\\"offline\\\",\\\"since\\\":\\\"2026-11-29T10:00:00Z\\\","
		"\\\"pendingSince\\\":\\\"2026-11-29T12:00:00Z\\\",\\\"labelRemoved\\\":true}\"",
		""));
	snprintf(pod, sizeof(pod),
		 "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"tenant\",\"name\":\"fake-nm\","
		 "\"labels\":{\"app.kubernetes.io/component\":\"node-manager\"}},"
		 "\"spec\":{\"nodeName\":\"n2\",\"containers\":[]},\"status\":{\"phase\":"
		 "\"Running\"}}");
	add_text(pod);
	add_text(LC_NODE(
		"n5",
		"\"{\\\"state\\\":\\\"draining\\\",\\\"since\\\":\\\"2026-11-29T10:00:00Z\\\"}\"",
		""));
	snprintf(pod, sizeof(pod),
		 "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"tenant\",\"name\":\"fake-nm-5\","
		 "\"labels\":{\"app.kubernetes.io/component\":\"node-manager\"}},"
		 "\"spec\":{\"nodeName\":\"n5\",\"containers\":[]},\"status\":{\"phase\":"
		 "\"Running\"}}");
	add_text(pod);
	it = plan_of("n2");
	ck_assert_str_eq(gets_(it, "reasonCode"), "nodemanager-outside-namespaces");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "returning");
	ck_assert_str_eq(gets_(lc, "label"), "set");
	json_decref(it);
	it = plan_of("n5"); /* draining: held, not taken offline on a tenant's pod */
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "draining");
	ck_assert_str_eq(gets_(lc, "action"), "none");
	json_decref(it);
}
END_TEST

/* A failover during a graceful decommission, as the real RM does it
 * (test/hadoop/tests/decommission.sh, Hadoop 3.4.2): the new active RM
 * refuses the excluded host ("Disallowed NodeManager": SHUTDOWN, its
 * containers killed) and lists no node for it at all.  The node is
 * offline, rmChanged, its label removed: not held as draining forever (its
 * DaemonSet restarting the NodeManager into SHUTDOWN).  The same RM not
 * listing it is no such evidence: held. */
#define DC_RECORD(host, rm)                                                                        \
	"\"{\\\"state\\\":\\\"draining\\\",\\\"since\\\":\\\"2026-11-30T15:59:00Z\\\","            \
	"\\\"excluded\\\":{\\\"cluster\\\":\\\"default\\\",\\\"host\\\":\\\"" host "\\\"},"        \
	"\\\"rm\\\":" rm "}\""
START_TEST(test_syncplan_decommission_failover_node_not_listed)
{
	json_t *it, *lc;

	lifecycle_on();
	opts.lifecycle.decommission = 1;
	sync_input_free(in);
	in = sync_input_new(&opts);
	add_text(LC_NODE("n1", DC_RECORD("n1", "{\\\"index\\\":0,\\\"startedOn\\\":1000}"),
			 "\"kilo.sh/yarn-nodemanager\":\"true\""));
	add_text(pod_doc("nm1", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_text(LC_NODE("n2", DC_RECORD("n2", "{\\\"index\\\":1,\\\"startedOn\\\":2000}"),
			 "\"kilo.sh/yarn-nodemanager\":\"true\""));
	add_text(pod_doc("nm2", "n2", "Running", "n2:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "other:8041", "RUNNING", 8, 8192, 0, 0);
	sync_input_cluster_rm(in, SYNC_DEFAULT_CLUSTER, 1, 2000); /* rm2 answers now */
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reasonCode"), "unknown-node-id");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "previous"), "draining");
	ck_assert_str_eq(gets_(lc, "state"), "offline");
	ck_assert_str_eq(gets_(lc, "action"), "record");
	ck_assert_str_eq(gets_(lc, "label"), "remove");
	ck_assert(json_is_true(json_object_get(lc, "rmChanged")));
	ck_assert_int_eq(geti(lc, "rm", "index"), 0); /* the RM it began under */
	ck_assert_str_eq(gets_(json_object_get(lc, "excluded"), "host"), "n1");
	ck_assert_ptr_null(json_object_get(lc, "decommission"));
	ck_assert_str_eq(gets_(lc, "reason"),
			 "decommissioned at once: another RM took over during the graceful "
			 "decommission (a failover or a restart) and does not keep its timeout "
			 "(YARN-5464): refused the host; containers killed: label removed, the "
			 "NodeManager DaemonSet stops its pod");
	json_decref(it);
	/* under the RM that answers: not listed is no evidence, held */
	it = plan_of("n2");
	ck_assert_str_eq(gets_(it, "reasonCode"), "unknown-node-id");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "state"), "draining");
	ck_assert_str_eq(gets_(lc, "action"), "none");
	ck_assert_str_eq(gets_(lc, "label"), "none");
	ck_assert_ptr_null(json_object_get(lc, "rmChanged"));
	ck_assert_ptr_null(json_object_get(lc, "batch"));
	json_decref(it);
}
END_TEST

/* An offline node whose share still shows YARN's last use returns all the
 * same when the RM lists no node at all: after a failover during a
 * decommission on a one-NodeManager cluster (test/hadoop/tests/
 * decommission.sh) the new RM knows no node, and only the label brings the
 * NodeManager back.  The share stays as it is. */
START_TEST(test_syncplan_lifecycle_returns_while_share_not_zeroed)
{
	json_t *it, *lc;

	lifecycle_on();
	add_text(LC_NODE(
		"n1",
		"\"{\\\"state\\\":\\\"offline\\\",\\\"since\\\":\\\"2026-11-29T10:00:00Z\\\","
		"\\\"pendingSince\\\":\\\"2026-11-29T12:00:00Z\\\",\\\"labelRemoved\\\":true}\","
		"\"" SYNC_ANN_THIRD_PARTY "\":\"{\\\"allocations\\\":[{\\\"name\\\":"
		"\\\"hadoop-yarn\\\",\\\"resources\\\":{\\\"kubernetes.io/batch-cpu\\\":"
		"\\\"1k\\\",\\\"kubernetes.io/batch-memory\\\":\\\"1Gi\\\"}}]}\"",
		""));
	add_text(
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"YarnNodes\",\"cluster\":\"" SYNC_DEFAULT_CLUSTER
		"\",\"nodes\":{\"node\":[]}}");
	it = plan_of("n1");
	ck_assert_str_eq(gets_(it, "action"), "skip");
	ck_assert_str_eq(gets_(it, "reasonCode"), "share-not-zeroed");
	ck_assert_str_eq(gets_(json_object_get(it, "annotation"), "action"), "none");
	lc = json_object_get(it, "lifecycle");
	ck_assert_str_eq(gets_(lc, "previous"), "offline");
	ck_assert_str_eq(gets_(lc, "state"), "returning");
	ck_assert_str_eq(gets_(lc, "action"), "record");
	ck_assert_str_eq(gets_(lc, "label"), "set");
	json_decref(it);
}
END_TEST

/* A YARN NodeId "host:port": the port is 1..65535 in plain digits. */
START_TEST(test_rmmatch_valid_node_id)
{
	ck_assert_int_eq(rmmatch_valid_node_id("w1.example:8041"), 1);
	ck_assert_int_eq(rmmatch_valid_node_id("[::1]:65535"), 1);
	ck_assert_int_eq(rmmatch_valid_node_id("w1:0"), 0);
	ck_assert_int_eq(rmmatch_valid_node_id("w1:65536"), 0);
	ck_assert_int_eq(rmmatch_valid_node_id("w1:+8041"), 0); /* strtol took these */
	ck_assert_int_eq(rmmatch_valid_node_id("w1: 8041"), 0);
	ck_assert_int_eq(rmmatch_valid_node_id("w1:8041 "), 0);
	ck_assert_int_eq(rmmatch_valid_node_id(":8041"), 0);
	ck_assert_int_eq(rmmatch_valid_node_id("w1"), 0);
	ck_assert_int_eq(rmmatch_valid_node_id(NULL), 0);
}
END_TEST

/* doc/syncplan: a config whose one cluster is "default". */
static void load_default_cluster(struct sync_config *sc)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/sync.yaml", dir);
	struct err e = { 0 };

	testlib_write(dir, "sync.yaml", "clusters: [{id: default, rmUrls: ['http://rm:8088']}]\n");
	ck_assert_msg(sync_config_load(sc, path, &e) == 0, "%s", e.msg);
	free(path);
	free(dir);
}

static char *dump(const json_t *doc)
{
	return json_dumps(doc, JSON_COMPACT);
}

/* The planner's struct, its document and that document read back: the same
 * bytes and the same typed values (annotation figures as integers). */
START_TEST(test_syncplan_doc_round_trip)
{
	struct syncplan built, back;
	struct sync_config sc;
	struct err e = { 0 };
	json_t *doc, *again;
	char *a, *b;

	load_default_cluster(&sc);
	add_text(node_doc("n1", NULL, "10k", "10Gi", NULL));
	add_text(pod_doc("nm", "n1", "Running", "n1:8041", NULL, "\"containers\":[]"));
	add_rm(SYNC_DEFAULT_CLUSTER, "n1:8041", "RUNNING", 1, 1024, 2, 2048);
	add_text(node_doc("n2", NULL, "10k", "10Gi", NULL));
	add_text(pod_doc("nm2", "n2", "Running", "n2:8041", NULL, "\"containers\":[]"));
	sync_plan_build(in, 1796054400000LL, NULL, &built);
	ck_assert_uint_eq(built.n, 2);
	ck_assert_int_eq(built.items[0].action, SYNCPLAN_UPDATE);
	ck_assert_int_eq(built.items[0].reason_code, SYNC_R_TOTAL_DIFFERS);
	ck_assert_int_eq(built.items[0].yarn_total.vcores, 10);
	ck_assert_int_eq(built.items[0].ann, SYNCPLAN_ANN_ANNOTATE);
	ck_assert_int_eq(built.items[0].ann_cpu_milli, 2000);
	ck_assert_int_eq(built.items[0].ann_memory_bytes, (int64_t)2048 << 20);
	ck_assert_int_eq(built.items[1].action, SYNCPLAN_SKIP);
	ck_assert_int_eq(built.items[1].reason_code, SYNC_R_UNKNOWN_NODE_ID);
	doc = syncplan_to_json(&built);
	ck_assert_msg(syncplan_from_json(doc, &sc, NULL, 0, &back, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(back.n, built.n);
	for (size_t i = 0; i < built.n; i++) {
		const struct syncplan_item *x = &built.items[i], *y = &back.items[i];

		ck_assert_str_eq(x->node, y->node);
		ck_assert_str_eq(x->cluster, y->cluster);
		ck_assert_str_eq(x->yarn_node_id, y->yarn_node_id);
		ck_assert_int_eq(x->action, y->action);
		ck_assert_int_eq(x->reason_code, y->reason_code);
		ck_assert_int_eq(x->bad, y->bad);
		ck_assert_int_eq(x->ann, y->ann);
		ck_assert_int_eq(x->ann_cpu_milli, y->ann_cpu_milli);
		ck_assert_int_eq(x->ann_memory_bytes, y->ann_memory_bytes);
		if (x->action == SYNCPLAN_UPDATE) {
			ck_assert_int_eq(x->yarn_total.vcores, y->yarn_total.vcores);
			ck_assert_int_eq(x->yarn_total.memory_mb, y->yarn_total.memory_mb);
			ck_assert_int_eq(x->over_commit_timeout_ms, y->over_commit_timeout_ms);
		}
	}
	again = syncplan_to_json(&back);
	a = dump(doc);
	b = dump(again);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	json_decref(again);
	json_decref(doc);
	syncplan_release(&back);
	syncplan_release(&built);
	sync_config_release(&sc);
}
END_TEST

/* Every refusal of syncplan_from_json() names its path and value. */
START_TEST(test_syncplan_doc_refusals_name_the_field)
{
	static const struct {
		const char *items, *want;
	} cases[] = {
		{ "[{\"action\":\"none\"}]", "SyncPlan.items[0].node" },
		{ "[{\"node\":\"a\",\"action\":\"grow\"}]",
		  "SyncPlan.items[0].action: expected update, none or skip, got \"grow\"" },
		{ "[{\"node\":\"a\",\"action\":\"none\"},{\"node\":\"a\",\"action\":\"none\"}]",
		  "SyncPlan.items[1].node: expected a node no earlier item names" },
		{ "[{\"node\":\"a\",\"action\":\"update\",\"cluster\":\"x\",\"yarnNodeId\":\"a:1\",\"yarnTotal\":{\"vCores\":1,\"memoryMB\":1},\"overCommitTimeoutMs\":-1}]",
		  "SyncPlan.items[0].cluster: expected a cluster of the configuration, got \"x\"" },
		{ "[{\"node\":\"a\",\"action\":\"update\",\"cluster\":\"default\",\"yarnNodeId\":\"a:1\",\"yarnTotal\":{\"vCores\":1,\"memoryMB\":1}}]",
		  "SyncPlan.items[0].overCommitTimeoutMs" },
		{ "[{\"node\":\"a\",\"action\":\"none\",\"reasonCode\":\"total-differs\"}]",
		  "SyncPlan.items[0].reasonCode" },
		{ "[{\"node\":\"a\",\"action\":\"none\",\"annotation\":{\"action\":\"annotate\",\"hadoopYarn\":{\"kubernetes.io/batch-cpu\":\"-1\",\"kubernetes.io/batch-memory\":\"1Gi\"}}}]",
		  "SyncPlan.items[0].annotation.hadoopYarn.kubernetes.io/batch-cpu" },
		{ "[{\"node\":\"a\",\"action\":\"none\",\"annotation\":{\"action\":\"skip\",\"reasonCode\":\"rm-error\"}}]",
		  "SyncPlan.items[0].annotation.reasonCode" },
		{ "[7]", "SyncPlan.items[]: expected an object, got 7" },
	};
	struct sync_config sc;
	struct syncplan p;

	load_default_cluster(&sc);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xasprintf("{\"kind\":\"SyncPlan\",\"items\":%s}", cases[i].items);
		struct err e = { 0 };
		json_t *doc = jsonio_parse(text, "test", &e);

		ck_assert_ptr_nonnull(doc);
		ck_assert_int_eq(syncplan_from_json(doc, &sc, NULL, 0, &p, &e), -1);
		ck_assert_int_eq(e.kind, ERR_INPUT);
		ck_assert_msg(strstr(e.msg, cases[i].want), "case %zu: %s", i, e.msg);
		ck_assert_uint_eq(p.n, 0);
		json_decref(doc);
		free(text);
	}
	{
		struct err e = { 0 };
		json_t *doc = json_pack("{s:s}", "kind", "SyncReport");

		ck_assert_int_eq(syncplan_from_json(doc, &sc, NULL, 0, &p, &e), -1);
		ck_assert_str_eq(e.msg, "expected a SyncPlan, got kind 'SyncReport'");
		json_decref(doc);
	}
	sync_config_release(&sc);
}
END_TEST

static Suite *syncplan_suite(void)
{
	Suite *s = suite_create("syncplan");
	TCase *tc = tcase_create("plan");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_syncplan_fixture_worker1);
	tcase_add_test(tc, test_syncplan_legacy_allocatable_and_none);
	tcase_add_test(tc, test_syncplan_init_limit_terminating_overhead);
	tcase_add_test(tc, test_syncplan_floor_at_zero_and_mib_floor);
	tcase_add_test(tc, test_syncplan_invalid_annotation_skips_without_fallback);
	tcase_add_test(tc, test_syncplan_unknown_id_candidates_and_inactive);
	tcase_add_test(tc, test_syncplan_two_clusters_one_down);
	tcase_add_test(tc, test_syncplan_graceful_reclaim);
	tcase_add_test(tc, test_syncplan_reservation);
	tcase_add_test(tc, test_syncplan_request_sum_overflow_skips_node);
	tcase_add_test(tc, test_syncplan_pod_sum_overflow_skips_node);
	tcase_add_test(tc, test_syncplan_reservation_at_int64_edge);
	tcase_add_test(tc, test_syncplan_impossible_rm_figures_skip_node);
	tcase_add_test(tc, test_syncplan_node_without_nm_is_zeroed_once);
	tcase_add_test(tc, test_syncplan_never_zero_while_rm_says_busy);
	tcase_add_test(tc, test_syncapply_per_item_in_a_live_pass);
	tcase_add_test(tc, test_syncplan_review_cases_cost_the_node_only);
	tcase_add_test(tc, test_syncplan_decommissioning_not_resized);
	tcase_add_test(tc, test_syncplan_decommission_failover_node_not_listed);
	tcase_add_test(tc, test_syncplan_lifecycle_returns_while_share_not_zeroed);
	tcase_add_test(tc, test_syncplan_tenant_pod_claims_nothing);
	tcase_add_test(tc, test_syncplan_node_id_bound_to_node_or_pod);
	tcase_add_test(tc, test_syncplan_duplicate_claims_skip_all);
	tcase_add_test(tc, test_syncplan_terminating_nm_pod);
	tcase_add_test(tc, test_syncplan_unreadable_rm_node_costs_its_node);
	tcase_add_test(tc, test_syncplan_bad_pod_quantity_live_costs_node);
	tcase_add_test(tc, test_syncplan_candidates_by_host_and_label);
	tcase_add_test(tc, test_syncplan_shapes_are_never_zero);
	tcase_add_test(tc, test_syncplan_duplicate_claims_see_every_pod);
	tcase_add_test(tc, test_syncplan_unclaimed_busy_rm_node_keeps_shares);
	tcase_add_test(tc, test_syncplan_rm_lists_an_id_twice);
	tcase_add_test(tc, test_syncplan_rm_index_as_search);
	tcase_add_test(tc, test_syncplan_zero_blocked_index_as_search);
	tcase_add_test(tc, test_syncplan_zeros_that_are_no_evidence);
	tcase_add_test(tc, test_syncplan_annotation_shapes);
	tcase_add_test(tc, test_sync_redact_free_text_only);
	tcase_add_test(tc, test_syncplan_share_not_lowered_on_one_id);
	tcase_add_test(tc, test_syncconfig_namespaces_and_unknown);
	tcase_add_test(tc, test_syncconfig_unknown_fields_refused);
	tcase_add_test(tc, test_syncconfig_lifecycle_needs_no_timeout);
	tcase_add_test(tc, test_syncplan_third_party_value_keeps_other_entries);
	tcase_add_test(tc, test_syncplan_bad_input_names_field);
	tcase_add_test(tc, test_syncplan_kubectl_list_and_only_nodes);
	tcase_add_test(tc, test_syncplan_filtered_reading_same_plan);
	tcase_add_test(tc, test_syncplan_reason_codes_documented);
	tcase_add_test(tc, test_syncplan_reason_code_per_cause);
	tcase_add_test(tc, test_sync_item_state_of_report_items);
	tcase_add_test(tc, test_sync_damp_table);
	tcase_add_test(tc, test_syncplan_damping_ramps_and_holds);
	tcase_add_test(tc, test_syncplan_rm_states);
	tcase_add_test(tc, test_syncplan_node_id_moved_share_follows);
	tcase_add_test(tc, test_syncplan_node_id_moved_same_host_only);
	tcase_add_test(tc, test_syncplan_lifecycle_holds_and_returns);
	tcase_add_test(tc, test_syncconfig_lifecycle);
	tcase_add_test(tc, test_syncplan_lifecycle_foreign_pod_no_freeze);
	tcase_add_test(tc, test_syncplan_lifecycle_offline_and_hold_down);
	tcase_add_test(tc, test_syncplan_lifecycle_offline_needs_rm_counts);
	tcase_add_test(tc, test_rmmatch_valid_node_id);
	tcase_add_test(tc, test_syncplan_lifecycle_return_keeps_another_label_value);
	tcase_add_test(tc, test_syncplan_doc_round_trip);
	tcase_add_test(tc, test_syncplan_doc_refusals_name_the_field);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(syncplan_suite)
