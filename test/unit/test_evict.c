// SPDX-License-Identifier: Apache-2.0
/* test_evict - eviction decisions from literal documents, one table row per rule */
#include <string.h>

#include "core/jsonio.h"
#include "decide/evict.h"
#include "testlib.h"

#define NOW INT64_C(1795968000000) /* 2026-11-29T16:00:00Z */

/* A container item: number n, then more fields. */
#define C(n, more)                                                                                 \
	"{\"id\":\"container_1410901177871_0001_01_00000" #n "\",\"processes\":1," more "}"
#define LIST(items)                                                                                \
	"{\"kind\":\"ContainerList\",\"nodeManager\":{\"reachable\":true},\"items\":[" items "]}"
#define LIST_NO_NM(items)                                                                          \
	"{\"kind\":\"ContainerList\",\"nodeManager\":{\"reachable\":false},\"items\":[" items "]}"
/* Node memory usage out of a 100 GB capacity. */
#define MEM(used)                                                                                              \
	"{\"kind\":\"NodeUsage\",\"capacity\":{\"memoryBytes\":100000000000},\"node\":{\"memoryBytes\":" #used \
	"}}"
#define GB "000000000"

struct run {
	json_t *docs[4];
	struct nodeusage usage;
	struct containerlist list;
	struct evict_input in;
	struct evictorstate st;
	struct evict_plan plan;
	struct policy p;
	char items[256], skipped[256], notes[1024];
};

static json_t *parse(const char *text)
{
	struct err e = { 0 };
	json_t *doc = text ? jsonio_parse(text, "test", &e) : NULL;

	ck_assert_msg(!text || doc, "%s", e.msg);
	return doc;
}

static void policy_from(struct policy *p, const char *yaml)
{
	struct config c;
	struct err e = { 0 };

	policy_defaults(p);
	if (!yaml)
		return;
	ck_assert_msg(config_load_string(&c, yaml, "p.yaml", &e) == 0, "%s", e.msg);
	ck_assert_msg(policy_from_config(p, &c, NULL, &e) == 0, "%s", e.msg);
	config_release(&c);
}

/* The container number of an id (its last digits). */
static long number(const char *id)
{
	return strtol(strrchr(id, '_') + 1, NULL, 10);
}

static void run_case(struct run *r, const char *policy, const char *nu, const char *cl,
		     const char *pods, const char *state, int64_t now)
{
	struct err e = { 0 };
	size_t off = 0;

	memset(r, 0, sizeof(*r));
	policy_from(&r->p, policy);
	r->docs[0] = parse(nu);
	r->docs[1] = parse(cl);
	r->docs[2] = parse(pods);
	r->docs[3] = parse(state);
	ck_assert_msg(nodeusage_from_json(r->docs[0], &r->usage, &e) == 0, "%s", e.msg);
	ck_assert_msg(evict_input_usage(&r->in, &r->usage, &e) == 0, "%s", e.msg);
	ck_assert_msg(containerlist_from_json(r->docs[1], &r->list, &e) == 0, "%s", e.msg);
	evict_input_containers(&r->in, &r->list);
	ck_assert_msg(!pods || evict_parse_pods(r->docs[2], &r->in, &e) == 0, "%s", e.msg);
	ck_assert_msg(evict_state_parse(r->docs[3], "state", &r->st, &e) == 0, "%s", e.msg);
	evict_decide(&r->p, &r->in, &r->st, now, &r->plan);
	for (size_t i = 0; i < r->plan.nitems; i++)
		off += (size_t)snprintf(r->items + off, sizeof(r->items) - off, "%s%ld",
					i ? "," : "",
					number(r->in.containers[r->plan.items[i].index].id));
	off = 0;
	for (size_t i = 0; i < r->plan.nskipped; i++)
		off += (size_t)snprintf(r->skipped + off, sizeof(r->skipped) - off, "%s%ld:%s",
					i ? "," : "",
					number(r->in.containers[r->plan.skipped[i].index].id),
					r->plan.skipped[i].reason);
	off = 0;
	for (size_t i = 0; i < r->plan.nnotes; i++)
		off += (size_t)snprintf(r->notes + off, sizeof(r->notes) - off, "%s|",
					r->plan.notes[i]);
}

static void run_free(struct run *r)
{
	evict_plan_release(&r->plan);
	evictorstate_release(&r->st);
	evict_input_release(&r->in);
	containerlist_release(&r->list);
	nodeusage_release(&r->usage);
	for (size_t i = 0; i < 4; i++)
		json_decref(r->docs[i]);
}

/* ---- memory ---- */

struct mem_case {
	const char *name;
	const char *policy;
	const char *node_usage;
	const char *list;
	const char *state;
	const char *items;   /* victims by container number, in order */
	const char *skipped; /* number:reason */
	int64_t need, credit;
	int pressure;
	const char *note; /* substring of the notes, or NULL */
};

static const struct mem_case mem_cases[] = {
	{ "no pressure below the threshold", NULL, MEM(69999999999),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":4" GB "}")), NULL, "", "", 0, 0, 0, NULL },
	{ "need exactly met stops there", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":4" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":3" GB
				  "}") "," C(4, "\"usage\":{\"memoryBytes\":1" GB "}")),
	  NULL, "2,3", "", 7000000000, 0, 0, NULL },
	{ "trigger exactly at the threshold", NULL, MEM(70000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":1" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":3" GB "}")),
	  NULL, "3", "", 2000000000, 0, 0, NULL },
	{ "lower percent from the policy",
	  "resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 80, memoryEvictLowerPercent: 50}",
	  MEM(80000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":20" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":10" GB
				  "}") "," C(4, "\"usage\":{\"memoryBytes\":1" GB "}")),
	  NULL, "2,3", "", 30000000000, 0, 0, NULL },
	{ "only AMs left without allowAM", NULL, MEM(75000000000),
	  LIST(C(1, "\"usage\":{\"memoryBytes\":8" GB
		    "}") "," C(2, "\"usage\":{\"memoryBytes\":2" GB "}")),
	  NULL, "2", "1:am", 7000000000, 0, 1, NULL },
	{ "only AMs left with allowAM", "kilo: {allowAM: true}", MEM(75000000000),
	  LIST(C(1, "\"usage\":{\"memoryBytes\":8" GB
		    "}") "," C(2, "\"usage\":{\"memoryBytes\":2" GB "}")),
	  NULL, "2,1", "", 7000000000, 0, 0, NULL },
	{ "explicit am field wins over the id guess", NULL, MEM(75000000000),
	  LIST(C(1, "\"am\":false,\"usage\":{\"memoryBytes\":8" GB
		    "}") "," C(2, "\"am\":true,\"usage\":{\"memoryBytes\":9" GB "}")),
	  NULL, "1", "", 7000000000, 0, 0, NULL },
	{ "terminating credit", NULL, MEM(75000000000),
	  LIST(C(2, "\"terminating\":true,\"usage\":{\"memoryBytes\":5" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":3" GB
				  "}") "," C(4, "\"usage\":{\"memoryBytes\":1" GB "}")),
	  NULL, "3", "2:terminating", 7000000000, 5000000000, 0, NULL },
	{ "terminating credit covers the need", NULL, MEM(75000000000),
	  LIST(C(2, "\"terminating\":true,\"usage\":{\"memoryBytes\":8" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":3" GB "}")),
	  NULL, "", "2:terminating", 7000000000, 8000000000, 0, NULL },
	{ "own-plan credit for a victim still listed", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":5" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":3" GB "}")),
	  "{\"victims\":[{\"id\":\"container_1410901177871_0001_01_000002\",\"atMs\":1795967998000}]}",
	  "3", "2:recentlyPlanned", 7000000000, 5000000000, 0, NULL },
	{ "own-plan credit expires after terminatingTimeoutMs", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":5" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":3" GB "}")),
	  "{\"victims\":[{\"id\":\"container_1410901177871_0001_01_000002\",\"atMs\":1795967990000}]}",
	  "2,3", "", 7000000000, 0, 0, NULL },
	{ "cool-down after the last eviction", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":9" GB "}")),
	  "{\"lastEviction\":{\"memoryMs\":1795967998000}}", "", "", 7000000000, 0, 1,
	  "memory: cool-down: no new victims for 2000 ms" },
	{ "cool-down over", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":9" GB "}")),
	  "{\"lastEviction\":{\"memoryMs\":1795967996000}}", "2", "", 7000000000, 0, 0, NULL },
	{ "larger usage first, then the youngest", NULL, MEM(71000000000),
	  LIST(C(2,
		 "\"startTime\":\"2026-11-29T15:00:00Z\",\"usage\":{\"memoryBytes\":3" GB
		 "}") "," C(3,
			    "\"startTime\":\"2026-11-29T15:30:00Z\",\"usage\":{\"memoryBytes\":3" GB
			    "}") "," C(4, "\"usage\":{\"memoryBytes\":3" GB
					  "}") "," C(5, "\"usage\":{\"memoryBytes\":1" GB "}")),
	  NULL, "3", "", 3000000000, 0, 0, NULL },
	{ "no samples: unknown usage sorts last, its request estimates it", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":null},\"requests\":{\"memoryBytes\":6" GB
		    "}") "," C(3, "\"usage\":{\"memoryBytes\":3" GB "}") "," C(4, "\"usage\":null")),
	  NULL, "3,2", "", 7000000000, 0, 0, NULL },
	{ "no samples and no request: skipped, never a crash", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":null") "," C(3, "\"usage\":{\"memoryBytes\":null}")), NULL, "",
	  "2:noUsage,3:noUsage", 7000000000, 0, 1, NULL },
	{ "NM unreachable: by usage alone", NULL, MEM(75000000000),
	  LIST_NO_NM(C(2, "\"requests\":null,\"usage\":{\"memoryBytes\":null}") "," C(
		  3, "\"requests\":null,\"usage\":{\"memoryBytes\":4" GB
		     "}") "," C(4, "\"requests\":null,\"usage\":{\"memoryBytes\":2" GB "}")),
	  NULL, "3,4", "2:noUsage", 7000000000, 0, 1,
	  "NodeManager unreachable: planning by usage alone" },
	{ "a container releasing nothing is passed over", NULL, MEM(75000000000),
	  LIST(C(2, "\"usage\":{\"memoryBytes\":0}") "," C(3,
							   "\"usage\":{\"memoryBytes\":2" GB "}")),
	  NULL, "3", "2:nothingToRelease", 7000000000, 0, 1, NULL },
	{ "a container without processes is passed over", NULL, MEM(75000000000),
	  LIST("{\"id\":\"container_1410901177871_0001_01_000002\",\"processes\":0,"
	       "\"usage\":{\"memoryBytes\":9" GB "}}," C(3, "\"usage\":{\"memoryBytes\":8" GB "}")),
	  NULL, "3", "2:noProcesses", 7000000000, 0, 0, NULL },
	{ "memory usage unknown: not evaluated", NULL,
	  "{\"capacity\":{\"memoryBytes\":100},\"node\":{\"memoryBytes\":null}}",
	  LIST(C(2, "\"usage\":{\"memoryBytes\":9" GB "}")), NULL, "", "", 0, 0, 0,
	  "memory: not evaluated: NodeUsage node.memoryBytes is null" },
	{ "eviction off by enable: false", "resourceUsedThresholdWithBE: {enable: false}",
	  MEM(99000000000), LIST(C(2, "\"usage\":{\"memoryBytes\":9" GB "}")), NULL, "", "", 0, 0,
	  0, "eviction off: resourceUsedThresholdWithBE.enable is false" },
};

START_TEST(test_evict_memory_rules)
{
	const struct mem_case *t = &mem_cases[_i];
	struct run r;

	run_case(&r, t->policy, t->node_usage, t->list, NULL, t->state, NOW);
	ck_assert_msg(strcmp(r.items, t->items) == 0, "%s: items '%s', want '%s'", t->name, r.items,
		      t->items);
	ck_assert_msg(strcmp(r.skipped, t->skipped) == 0, "%s: skipped '%s', want '%s'", t->name,
		      r.skipped, t->skipped);
	ck_assert_msg(r.plan.need == t->need, "%s: need %lld", t->name, (long long)r.plan.need);
	ck_assert_msg(r.plan.credit == t->credit, "%s: credit %lld", t->name,
		      (long long)r.plan.credit);
	ck_assert_msg(r.plan.pressure_remains == t->pressure, "%s: pressureRemains %d", t->name,
		      r.plan.pressure_remains);
	ck_assert_msg(r.plan.resource == (t->need ? EVICT_MEMORY : EVICT_NONE), "%s: resource %d",
		      t->name, r.plan.resource);
	ck_assert_msg(!t->note || strstr(r.notes, t->note), "%s: notes '%s'", t->name, r.notes);
	run_free(&r);
}
END_TEST

START_TEST(test_evict_memory_records_victims_and_time)
{
	struct run r;
	json_t *st;

	run_case(
		&r, NULL, MEM(75000000000),
		LIST(C(2, "\"usage\":{\"memoryBytes\":9" GB
			  "}") "," C(3, "\"usage\":{\"memoryBytes\":1" GB "}")),
		NULL,
		"{\"victims\":[{\"id\":\"container_1410901177871_0001_01_000009\",\"atMs\":1795967999000}],"
		"\"lastEviction\":{\"cpuMs\":5}}",
		NOW);
	ck_assert_str_eq(r.items, "2");
	st = evictorstate_to_json(&r.st);
	/* the unlisted old victim is dropped, the new one kept with now */
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(json_object_get(st, "victims"), 0), "id")),
			 "container_1410901177871_0001_01_000002");
	ck_assert_int_eq(json_array_size(json_object_get(st, "victims")), 1);
	ck_assert_int_eq(json_integer_value(
				 json_object_get(json_object_get(st, "lastEviction"), "memoryMs")),
			 NOW);
	ck_assert_int_eq(
		json_integer_value(json_object_get(json_object_get(st, "lastEviction"), "cpuMs")),
		5);
	json_decref(st);
	run_free(&r);
}
END_TEST

START_TEST(test_evict_plan_json_shape)
{
	struct run r;
	json_t *plan, *item, *t;

	run_case(&r, "kilo: {gracePeriodMs: 900}", MEM(75200000000),
		 LIST(C(2, "\"startTime\":\"2026-11-29T15:40:00Z\",\"usage\":{\"memoryBytes\":8" GB
			   "}") "," C(1, "\"usage\":{\"memoryBytes\":1" GB "}")),
		 NULL, NULL, NOW);
	plan = evict_plan_json(&r.plan, &r.in, &r.p, NOW);
	ck_assert_str_eq(json_string_value(json_object_get(plan, "kind")), "KillPlan");
	ck_assert_int_eq(json_integer_value(json_object_get(plan, "gracePeriodMs")), 900);
	t = json_object_get(plan, "trigger");
	ck_assert_str_eq(json_string_value(json_object_get(t, "resource")), "memory");
	ck_assert(json_real_value(json_object_get(t, "usagePercent")) == 75.2);
	ck_assert_int_eq(json_integer_value(json_object_get(t, "needBytes")), 7200000000);
	item = json_array_get(json_object_get(plan, "items"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(item, "reason")), "memory");
	ck_assert_int_eq(json_integer_value(json_object_get(
				 json_object_get(item, "expectedRelease"), "memoryBytes")),
			 8000000000);
	ck_assert(json_is_null(
		json_object_get(json_object_get(item, "expectedRelease"), "cpuMilli")));
	ck_assert_int_eq(
		json_integer_value(json_object_get(json_object_get(item, "sortKeys"), "startedMs")),
		1795966800000);
	ck_assert(json_is_false(json_object_get(plan, "pressureRemains")));
	json_decref(plan);
	run_free(&r);

	run_case(&r, NULL, MEM(10), LIST(""), NULL, NULL, NOW);
	plan = evict_plan_json(&r.plan, &r.in, &r.p, NOW);
	ck_assert(json_is_null(json_object_get(plan, "trigger")));
	ck_assert_int_eq(json_array_size(json_object_get(plan, "items")), 0);
	ck_assert_int_eq(json_array_size(json_object_get(plan, "skipped")), 0);
	json_decref(plan);
	run_free(&r);
}
END_TEST

/* ---- CPU ---- */

#define CPU_POLICY                                                                                 \
	"resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 60, "                   \
	"cpuEvictBESatisfactionUpperPercent: 80"
#define CPU_POLICY_99                                                                              \
	"resourceUsedThresholdWithBE: {cpuEvictBESatisfactionLowerPercent: 60, "                   \
	"cpuEvictBESatisfactionUpperPercent: 99}"
/* BE usage and the two dirs' limits (cpuset, quota, period). */
#define CPU_NU(usage, becpus, bequota, yarncpus, yarnquota)                                        \
	"{\"kind\":\"NodeUsage\",\"metadata\":{\"node\":\"n1\"},\"windowMs\":1000,"                \
	"\"capacity\":{\"memoryBytes\":100" GB "},"                                                \
	"\"node\":{\"memoryBytes\":1" GB "},\"qos\":{\"besteffort\":{\"cpuMilli\":" #usage "}},"   \
	"\"limits\":{\"besteffort\":{\"cpuset\":\"" becpus "\",\"cfsQuotaUs\":" #bequota           \
	",\"cfsPeriodUs\":100000},\"hadoopYarn\":{\"cpuset\":\"" yarncpus                          \
	"\",\"cfsQuotaUs\":" #yarnquota ",\"cfsPeriodUs\":100000}}}"
#define CPU_ITEM(n, cpu, req)                                                                      \
	C(n, "\"usage\":{\"cpuMilli\":" #cpu "},\"requests\":{\"cpuMilli\":" #req "}")
/* 10000 milli requested by YARN: two 4000 containers and a 2000 AM. */
#define CPU_LIST                                                                                   \
	LIST(CPU_ITEM(2, 1000, 4000) "," CPU_ITEM(3, 2000, 4000) "," CPU_ITEM(1, 1900, 2000))

struct cpu_case {
	const char *name;
	const char *policy;
	const char *node_usage;
	const char *pods;
	const char *state;
	int64_t limit;
	const char *items;
	const char *skipped;
	int64_t need;
	const char *note;
};

static const struct cpu_case cpu_cases[] = {
	{ "limit from the cpuset with quota -1", CPU_POLICY "}", CPU_NU(3900, "0-3", -1, "0-7", -1),
	  NULL, NULL, 4000, "3", "", 4000, "cpu: no PodList given" },
	{ "limit from the quota with a wide cpuset", CPU_POLICY "}",
	  CPU_NU(3900, "0-63", 400000, "0-63", -1), NULL, NULL, 4000, "3", "", 4000, NULL },
	{ "limit from the hadoop-yarn dir, narrower than BE", CPU_POLICY "}",
	  CPU_NU(3900, "0-15", -1, "0-1,3,7", -1), NULL, NULL, 4000, "3", "", 4000, NULL },
	{ "hadoop-yarn quota below BE", CPU_POLICY "}", CPU_NU(2900, "0-15", -1, "0-15", 300000),
	  NULL, NULL, 3000, "3,2", "", 5000, NULL },
	{ "usage below the threshold: no trigger", CPU_POLICY "}",
	  CPU_NU(3500, "0-3", -1, "0-7", -1), NULL, NULL, 4000, "", "", 0, NULL },
	{ "satisfaction above lower: no trigger", CPU_POLICY "}",
	  CPU_NU(6900, "0-6", -1, "0-7", -1), NULL, NULL, 7000, "", "", 0, NULL },
	{ "off unless lower and upper are set", NULL, CPU_NU(3900, "0-3", -1, "0-7", -1), NULL,
	  NULL, 4000, "", "", 0, "cpu: off" },
	{ "BE pods' batch-cpu requests count", CPU_POLICY "}", CPU_NU(3900, "0-3", -1, "0-7", -1),
	  "{\"kind\":\"PodList\",\"items\":["
	  "{\"metadata\":{\"labels\":{\"koordinator.sh/qosClass\":\"BE\"}},\"spec\":{\"nodeName\":\"n1\","
	  "\"containers\":[{\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"1k\"}}},"
	  "{\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":1000}}}],"
	  "\"initContainers\":[{\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"3\"}}}]},"
	  "\"status\":{\"phase\":\"Running\",\"qosClass\":\"BestEffort\"}},"
	  "{\"spec\":{\"nodeName\":\"n1\",\"initContainers\":[{\"resources\":{\"requests\":"
	  "{\"kubernetes.io/batch-cpu\":\"3.0005k\"}}}]},"
	  "\"status\":{\"phase\":\"Pending\",\"qosClass\":\"BestEffort\"}},"
	  "{\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"resources\":{\"requests\":"
	  "{\"kubernetes.io/batch-cpu\":\"4k\"}}}]},\"status\":{\"phase\":\"Succeeded\",\"qosClass\":\"BestEffort\"}},"
	  "{\"spec\":{\"nodeName\":\"n2\",\"containers\":[{\"resources\":{\"requests\":"
	  "{\"kubernetes.io/batch-cpu\":\"4k\"}}}]},\"status\":{\"phase\":\"Running\",\"qosClass\":\"BestEffort\"}},"
	  "{\"metadata\":{\"labels\":{\"koordinator.sh/qosClass\":\"LS\"}},\"spec\":{\"nodeName\":\"n1\","
	  "\"containers\":[{\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"4k\"}}}]},"
	  "\"status\":{\"phase\":\"Running\",\"qosClass\":\"BestEffort\"}}]}",
	  NULL, 4000, "3,2", "", (10000 + 2000 + 3001) * 80 / 100 - 4000, NULL },
	{ "window with too few samples", CPU_POLICY ", cpuEvictTimeWindowSeconds: 60}",
	  CPU_NU(3900, "0-3", -1, "0-7", -1), NULL,
	  "{\"cpuSamples\":[{\"atMs\":1795967990000,\"windowMs\":1000,\"usageCpuMilli\":3900,"
	  "\"limitCpuMilli\":4000,\"requestCpuMilli\":10000}]}",
	  4000, "", "", 0, "cpu: samples cover 2000 ms of the 60000 ms window, 20000 ms needed" },
	{ "window average with enough samples: min of window and current",
	  CPU_POLICY ", cpuEvictTimeWindowSeconds: 3}", CPU_NU(3900, "0-3", -1, "0-7", -1), NULL,
	  "{\"cpuSamples\":[{\"atMs\":1795967998000,\"windowMs\":1000,\"usageCpuMilli\":3900,"
	  "\"limitCpuMilli\":4000,\"requestCpuMilli\":8500},"
	  "{\"atMs\":1795967990000,\"windowMs\":1000,\"usageCpuMilli\":1,\"limitCpuMilli\":1,"
	  "\"requestCpuMilli\":1}]}",
	  4000, "3", "", (8500 + 10000) / 2 * 80 / 100 - 4000, NULL },
	{ "CPU cool-down", CPU_POLICY "}", CPU_NU(3900, "0-3", -1, "0-7", -1), NULL,
	  "{\"lastEviction\":{\"cpuMs\":1795967990000}}", 4000, "", "", 4000, "cpu: cool-down" },
};

START_TEST(test_evict_cpu_rules)
{
	const struct cpu_case *t = &cpu_cases[_i];
	struct run r;

	run_case(&r, t->policy, t->node_usage, CPU_LIST, t->pods, t->state, NOW);
	ck_assert_msg(evict_be_limit_milli(&r.in) == t->limit, "%s: limit %lld", t->name,
		      (long long)evict_be_limit_milli(&r.in));
	ck_assert_msg(strcmp(r.items, t->items) == 0, "%s: items '%s', want '%s'", t->name, r.items,
		      t->items);
	ck_assert_msg(strcmp(r.skipped, t->skipped) == 0, "%s: skipped '%s', want '%s'", t->name,
		      r.skipped, t->skipped);
	ck_assert_msg(r.plan.need == t->need, "%s: need %lld, want %lld", t->name,
		      (long long)r.plan.need, (long long)t->need);
	ck_assert_msg(r.plan.resource == (t->need ? EVICT_CPU : EVICT_NONE), "%s: resource %d",
		      t->name, r.plan.resource);
	ck_assert_msg(!t->note || strstr(r.notes, t->note), "%s: notes '%s'", t->name, r.notes);
	run_free(&r);
}
END_TEST

START_TEST(test_evict_cpu_victims_and_am)
{
	struct run r;

	/* limit 1000, request 10000: release 9900 - 1000 = 8900 needs every container */
	run_case(&r, CPU_POLICY_99, CPU_NU(1000, "0", -1, "0-7", -1), CPU_LIST, NULL, NULL, NOW);
	ck_assert_str_eq(r.items, "3,2");
	ck_assert_str_eq(r.skipped, "1:am");
	ck_assert_int_eq(r.plan.need, 8900);
	ck_assert_int_eq(r.plan.pressure_remains, 1);
	ck_assert_int_eq(r.plan.items[0].release, 4000);
	run_free(&r);

	run_case(&r, CPU_POLICY_99 "\nkilo: {allowAM: true}", CPU_NU(1000, "0", -1, "0-7", -1),
		 CPU_LIST, NULL, NULL, NOW);
	ck_assert_str_eq(r.items, "3,2,1");
	ck_assert_int_eq(r.plan.pressure_remains, 0);
	ck_assert_int_eq(r.st.last_cpu_ms, NOW);
	ck_assert_int_eq(r.st.nvictims, 3);
	run_free(&r);
}
END_TEST

START_TEST(test_evict_cpu_nm_unreachable)
{
	struct run r;

	run_case(&r, CPU_POLICY "}", CPU_NU(3900, "0-3", -1, "0-7", -1),
		 LIST_NO_NM(C(2, "\"requests\":null")), NULL, NULL, NOW);
	ck_assert_int_eq(r.plan.resource, EVICT_NONE);
	ck_assert_ptr_nonnull(
		strstr(r.notes, "cpu: no sample: YARN requests (NodeManager unreachable)"));
	ck_assert_int_eq(r.st.nsamples, 0);
	run_free(&r);
}
END_TEST

/* A ContainerList without nodeManager (or without its reachable) says
 * nothing about the NodeManager: its requests are unknown, as qos-cgset
 * reads it; the evictor took it for reachable and planned CPU eviction by
 * requests nobody had asked for. */
START_TEST(test_evict_cpu_nm_missing_is_unreachable)
{
	static const char *const lists[] = {
		"{\"kind\":\"ContainerList\",\"items\":[" C(2, "\"requests\":null") "]}",
		"{\"kind\":\"ContainerList\",\"nodeManager\":{},\"items\":[" C(
			2, "\"requests\":null") "]}",
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct run r;

		run_case(&r, CPU_POLICY "}", CPU_NU(3900, "0-3", -1, "0-7", -1), lists[i], NULL,
			 NULL, NOW);
		ck_assert_int_eq(r.in.nm_reachable, 0);
		ck_assert_int_eq(r.plan.resource, EVICT_NONE);
		ck_assert_ptr_nonnull(
			strstr(r.notes, "cpu: no sample: YARN requests (NodeManager unreachable)"));
		run_free(&r);
	}
}
END_TEST

START_TEST(test_evict_cpu_samples_kept_in_state)
{
	struct run r;

	run_case(&r, CPU_POLICY ", cpuEvictTimeWindowSeconds: 10}",
		 CPU_NU(100, "0-3", -1, "0-7", -1), CPU_LIST, NULL,
		 "{\"cpuSamples\":[{\"atMs\":1795967995000,\"windowMs\":null,\"usageCpuMilli\":1,"
		 "\"limitCpuMilli\":2,\"requestCpuMilli\":3},"
		 "{\"atMs\":1795967980000,\"windowMs\":1000,\"usageCpuMilli\":1,"
		 "\"limitCpuMilli\":2,\"requestCpuMilli\":3}]}",
		 NOW);
	/* the sample older than the window is dropped, the current one added */
	ck_assert_int_eq(r.st.nsamples, 2);
	ck_assert_int_eq(r.st.samples[0].at_ms, NOW - 5000);
	ck_assert_int_eq(r.st.samples[1].at_ms, NOW);
	ck_assert_int_eq(r.st.samples[1].usage_cpu_milli, 100);
	ck_assert_int_eq(r.st.samples[1].limit_cpu_milli, 4000);
	ck_assert_int_eq(r.st.samples[1].request_cpu_milli, 10000);
	/* the first kept sample has no windowMs: it covers nothing; the current one 1000 ms */
	ck_assert_ptr_nonnull(strstr(r.notes, "cpu: samples cover 1000 ms of the 10000 ms window"));
	run_free(&r);
}
END_TEST

START_TEST(test_evict_memory_before_cpu)
{
	struct run r;

	run_case(
		&r, CPU_POLICY "}",
		"{\"windowMs\":1000,\"capacity\":{\"memoryBytes\":100" GB
		"},\"node\":{\"memoryBytes\":90" GB
		"},\"qos\":{\"besteffort\":{\"cpuMilli\":3900}},\"limits\":{\"besteffort\":{\"cpuset\":\"0-3\"}}}",
		LIST(C(2, "\"usage\":{\"memoryBytes\":30" GB
			  ",\"cpuMilli\":1},\"requests\":{\"cpuMilli\":10000}")),
		NULL, NULL, NOW);
	ck_assert_int_eq(r.plan.resource, EVICT_MEMORY);
	ck_assert_str_eq(r.items, "2");
	ck_assert_ptr_nonnull(
		strstr(r.notes, "cpu: 4000 milli-cores also over, planned after memory"));
	run_free(&r);
}
END_TEST

/* ---- parsing ---- */

struct bad_case {
	int doc; /* 0 NodeUsage, 1 ContainerList, 2 PodList, 3 state */
	const char *text;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{ 0, "{\"capacity\":{\"memoryBytes\":-5}}",
	  "NodeUsage.capacity.memoryBytes: expected an integer 0..9007199254740992, got -5" },
	{ 0, "{\"capacity\":{\"memoryBytes\":0}}",
	  "NodeUsage.capacity.memoryBytes: expected a positive integer, got 0" },
	{ 0, "{\"limits\":{\"hadoopYarn\":{\"cpuset\":\"0-x\"}}}",
	  "NodeUsage.limits.hadoopYarn.cpuset: expected a cpuset list such as \"0-3,8\", got \"0-x\"" },
	{ 0, "{\"limits\":{\"besteffort\":{\"cfsPeriodUs\":0}}}",
	  "NodeUsage.limits.besteffort.cfsPeriodUs: expected an integer 1..9007199254740992, got 0" },
	{ 0, "{\"qos\":{\"besteffort\":{\"cpuMilli\":\"12\"}}}",
	  "NodeUsage.qos.besteffort.cpuMilli: expected an integer 0..9007199254740992, got \"12\"" },
	{ 1, LIST(C(2, "\"usage\":{\"memoryBytes\":-1}")),
	  "ContainerList.items[0].usage.memoryBytes: expected an integer 0..9007199254740992, got -1" },
	{ 1, LIST("{\"id\":\"container_1_../x\"}"),
	  "ContainerList.items[0].id: expected a YARN container id, got \"container_1_../x\"" },
	{ 1, LIST("{\"processes\":1}"),
	  "ContainerList.items[0].id: expected a YARN container id, got nothing" },
	{ 1, LIST(C(2, "\"startTime\":\"yesterday\"")),
	  "ContainerList.items[0].startTime: expected an RFC 3339 time, got \"yesterday\"" },
	{ 1, LIST(C(2, "\"terminating\":1")),
	  "ContainerList.items[0].terminating: expected true or false, got 1" },
	{ 1, LIST("7"), "ContainerList.items[0]: expected an object, got 7" },
	/* one container listed twice would have its memory credited twice */
	{ 1, LIST(C(2, "\"am\":false") "," C(2, "\"am\":false")),
	  "ContainerList.items[1].id: container 'container_1410901177871_0001_01_000002' is listed "
	  "twice" },
	{ 2, "{\"kind\":\"PodList\",\"items\":{}}", "PodList.items: expected an array" },
	{ 3, "{\"kind\":\"NodeUsage\"}",
	  "state: kind: expected \"EvictorState\", got \"NodeUsage\"" },
	{ 3, "{\"victims\":[{\"id\":\"container_1410901177871_0001_01_000002\",\"atMs\":\"now\"}]}",
	  "state: victims[0].atMs: expected an integer 0..9007199254740992, got \"now\"" },
	{ 3, "{\"cpuSamples\":[{\"atMs\":1}]}",
	  "state: cpuSamples[0].usageCpuMilli: expected an integer" },
};

/* A pod whose request cannot be read (any tenant writes pod specs) costs
 * the BE request only: it made the evictor exit 2, so no plan and no
 * memory eviction at all.  The message names the pod. */
START_TEST(test_evict_pod_bad_request_costs_the_request)
{
	struct evict_input in = { 0 };
	struct err e = { 0 };
	json_t *doc = parse("{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"namespace\":\"t1\","
			    "\"name\":\"web\"},\"spec\":{\"nodeName\":\"n1\",\"containers\":[{"
			    "\"resources\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"1K\"}}}]},"
			    "\"status\":{\"phase\":\"Running\",\"qosClass\":\"BestEffort\"}}]}");

	in.node = "n1";
	ck_assert_int_eq(evict_parse_pods(doc, &in, &e), 0);
	ck_assert_uint_eq(in.pods_bad, 1);
	ck_assert_int_eq(in.pods_batch_cpu_milli, EVICT_UNKNOWN);
	ck_assert_str_eq(in.pods_problem,
			 "Pod PodList.items[0] (t1/web).spec.containers[0].resources.requests."
			 "kubernetes.io/batch-cpu: invalid quantity '1K': unknown suffix 'K'");
	evict_input_release(&in);
	json_decref(doc);
}
END_TEST

START_TEST(test_evict_parse_errors)
{
	const struct bad_case *t = &bad_cases[_i];
	struct evict_input in = { 0 };
	struct evictorstate st;
	struct containerlist list;
	struct nodeusage usage;
	struct err e = { 0 };
	json_t *doc = parse(t->text);
	int ret;

	in.node = "n1";
	switch (t->doc) {
	case 0:
		ret = nodeusage_from_json(doc, &usage, &e) < 0 ? -1
							       : evict_input_usage(&in, &usage, &e);
		nodeusage_release(&usage);
		break;
	case 1:
		ret = containerlist_from_json(doc, &list, &e);
		break;
	case 2:
		ret = evict_parse_pods(doc, &in, &e);
		break;
	default:
		ret = evict_state_parse(doc, "state", &st, &e);
		break;
	}
	ck_assert_int_eq(ret, -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strncmp(e.msg, t->msg, strlen(t->msg)) == 0, "got '%s'", e.msg);
	evict_input_release(&in);
	json_decref(doc);
}
END_TEST

START_TEST(test_evict_cpuset_count)
{
	ck_assert_int_eq(nodeusage_cpuset_count("0-63"), 64);
	ck_assert_int_eq(nodeusage_cpuset_count("0-1,3,8-9"), 5);
	ck_assert_int_eq(nodeusage_cpuset_count(""), 0);
	ck_assert_int_eq(nodeusage_cpuset_count("3-1"), -1);
	ck_assert_int_eq(nodeusage_cpuset_count("1,"), -1);
	ck_assert_int_eq(nodeusage_cpuset_count("1-"), -1);
	ck_assert_int_eq(nodeusage_cpuset_count(" 1"), -1);
	/* the kernel's grammar (doc/cpuset): a CPU listed twice counts once */
	ck_assert_int_eq(nodeusage_cpuset_count("0-3,2-3"), 4);
	ck_assert_int_eq(nodeusage_cpuset_count("1-+3"), -1);
	ck_assert_int_eq(nodeusage_cpuset_count("99999999999999999999"), -1);
}
END_TEST

START_TEST(test_evict_state_round_trip)
{
	struct evictorstate st, back;
	struct err e = { 0 };
	json_t *doc;

	evictorstate_init(&st);
	st.victims = calloc(1, sizeof(*st.victims));
	st.victims[0].id = strdup("container_e17_1410901177871_0001_01_000002");
	st.victims[0].at_ms = 42;
	st.nvictims = 1;
	st.last_cpu_ms = 7;
	st.samples = calloc(1, sizeof(*st.samples));
	st.samples[0] = (struct evictorstate_sample){ 1, EVICT_UNKNOWN, 2, 3, 4 };
	st.nsamples = 1;
	doc = evictorstate_to_json(&st);
	ck_assert_msg(evict_state_parse(doc, "s", &back, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(back.victims[0].id, st.victims[0].id);
	ck_assert_int_eq(back.victims[0].at_ms, 42);
	ck_assert_int_eq(back.last_memory_ms, EVICT_UNKNOWN);
	ck_assert_int_eq(back.last_cpu_ms, 7);
	ck_assert_int_eq(back.samples[0].window_ms, EVICT_UNKNOWN);
	ck_assert_int_eq(back.samples[0].request_cpu_milli, 4);
	evictorstate_release(&back);
	evictorstate_release(&st);
	json_decref(doc);
}
END_TEST

static Suite *evict_suite(void)
{
	Suite *s = suite_create("evict");
	TCase *tc = tcase_create("memory");

	tcase_add_loop_test(tc, test_evict_memory_rules, 0,
			    sizeof(mem_cases) / sizeof(mem_cases[0]));
	tcase_add_test(tc, test_evict_memory_records_victims_and_time);
	tcase_add_test(tc, test_evict_plan_json_shape);
	suite_add_tcase(s, tc);
	tc = tcase_create("cpu");
	tcase_add_loop_test(tc, test_evict_cpu_rules, 0, sizeof(cpu_cases) / sizeof(cpu_cases[0]));
	tcase_add_test(tc, test_evict_cpu_victims_and_am);
	tcase_add_test(tc, test_evict_cpu_nm_unreachable);
	tcase_add_test(tc, test_evict_cpu_nm_missing_is_unreachable);
	tcase_add_test(tc, test_evict_cpu_samples_kept_in_state);
	tcase_add_test(tc, test_evict_memory_before_cpu);
	suite_add_tcase(s, tc);
	tc = tcase_create("parse");
	tcase_add_test(tc, test_evict_pod_bad_request_costs_the_request);
	tcase_add_loop_test(tc, test_evict_parse_errors, 0,
			    sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_evict_cpuset_count);
	tcase_add_test(tc, test_evict_state_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(evict_suite)
