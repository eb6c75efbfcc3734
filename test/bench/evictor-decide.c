// SPDX-License-Identifier: Apache-2.0
/* evictor-decide - CPU time of one evictor decision in-process: read the
 * documents from memory, parse them, decide, build and print the KillPlan
 * (what cmd/evictor does between exec and exit).  With "decode" as the
 * mode, only the reading of the documents (lib/core/jsonio over jansson) is timed.
 * Usage: evictor-decide decide|decode POLICY INPUT RUNS; prints the mean CPU
 * ms (user + system, getrusage) per run. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "core/jsonio.h"
#include "decide/evict.h"
#include "doc/policy.h"

static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int decide_once(const struct policy *p, const char *buf, size_t len, int64_t now, FILE *out,
		       int decode_only)
{
	static const char *const want[] = { "NodeUsage", "ContainerList" };
	FILE *in = fmemopen((void *)buf, len, "r");
	json_t *docs[2] = { NULL, NULL }, *plan_doc;
	struct evict_input ev = { 0 };
	struct containerlist list = { 0 };
	struct nodeusage usage = { 0 };
	struct evictorstate st;
	struct evict_plan plan;
	struct err e = { 0 };
	int ret = 0;

	evictorstate_init(&st);
	if (!in || jsonio_collect(in, "input", want, 2, docs, NULL, &e) < 0)
		ret = -1;
	if (in)
		fclose(in);
	if (ret == 0 && !decode_only) {
		if (nodeusage_from_json(docs[0], &usage, &e) < 0 ||
		    evict_input_usage(&ev, &usage, &e) < 0 ||
		    containerlist_from_json(docs[1], &list, &e) < 0) {
			ret = -1;
		} else {
			evict_input_containers(&ev, &list);
			evict_decide(p, &ev, &st, now, &plan);
			plan_doc = evict_plan_json(&plan, &ev, p, now);
			jsonio_write(out, plan_doc, 0, &e);
			json_decref(plan_doc);
			evict_plan_release(&plan);
		}
	}
	if (ret < 0)
		fprintf(stderr, "evictor-decide: %s\n", e.msg);
	evictorstate_release(&st);
	evict_input_release(&ev);
	containerlist_release(&list);
	nodeusage_release(&usage);
	json_decref(docs[0]);
	json_decref(docs[1]);
	return ret;
}

int main(int argc, char **argv)
{
	FILE *f, *out = fopen("/dev/null", "w");
	struct policy p;
	struct err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	int runs;
	double t0;

	if (argc != 5 || !(f = fopen(argv[3], "r")) || !out) {
		fprintf(stderr, "usage: evictor-decide decide|decode POLICY INPUT RUNS\n");
		return 2;
	}
	if (policy_load(&p, argv[2], NULL, &e) < 0) {
		fprintf(stderr, "evictor-decide: %s\n", e.msg);
		return 2;
	}
	buf = malloc(1 << 24);
	len = fread(buf, 1, 1 << 24, f);
	fclose(f);
	runs = atoi(argv[4]);
	t0 = cpu_ms();
	for (int i = 0; i < runs; i++)
		if (decide_once(&p, buf, len, INT64_C(1795968000000) + i * 1000, out,
				argv[1][2] == 'c') < 0)
			return 1;
	printf("%.3f\n", (cpu_ms() - t0) / runs);
	free(buf);
	fclose(out);
	return 0;
}
