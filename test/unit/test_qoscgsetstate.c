// SPDX-License-Identifier: Apache-2.0
/* test_qoscgsetstate - qos-cgset's state document: the bytes written (those
 * of the writer before the module), the round trip, the lenient rule for
 * entries, every refusal naming its path, the index, and an entry carried
 * from one state to another */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/qoscgsetstate.h"
#include "testlib.h"

#define Y "/kubepods/besteffort/hadoop-yarn"
#define ID1 "container_e17_1410901177871_0001_01_000001"
#define ID2 "container_e17_1410901177871_0001_01_000002"
#define HEAD "{\"apiVersion\":\"kilo/v1\",\"kind\":\"QosCgsetState\","

/* The document text of st, compact. */
static char *dump(const struct qoscgsetstate *st)
{
	json_auto_t *doc = qoscgsetstate_to_json(st);
	char *text = json_dumps(doc, JSON_COMPACT);

	ck_assert_ptr_nonnull(text);
	return text;
}

/* text read, checked to succeed; st released by the caller. */
static void load(const char *text, struct qoscgsetstate *st)
{
	json_error_t je;
	json_auto_t *doc = json_loads(text, 0, &je);
	struct err e = { 0 };

	ck_assert_msg(doc != NULL, "%s", je.text);
	ck_assert_msg(qoscgsetstate_from_json(doc, st, &e) == 0, "%s", e.msg);
}

/* A state qos-cgset wrote before this module (a pass over two containers
 * with --state; the fuzz corpus holds it too): read and written again,
 * byte for byte. */
static const char before[] =
	"{\"apiVersion\":\"kilo/v1\",\"kind\":\"QosCgsetState\",\"hadoopYarn\":\"/y\","
	"\"containers\":{\"container_e17_1410901177871_0001_01_000001\":{\"ino\":{\"cpu\":11150744,"
	"\"cpuset\":11191537,\"memory\":11191390},\"readAtMs\":1000000,"
	"\"files\":{\"cpuset/cgroup.procs\":\"4242\\n4250\","
	"\"memory/cgroup.procs\":\"4242\\n4250\",\"cpuset/cpuset.cpus\":\"0-3\","
	"\"memory/memory.oom.group\":\"1\"}},"
	"\"container_e17_1410901177871_0001_01_000002\":{\"ino\":{\"cpu\":11158940,"
	"\"cpuset\":11191558,\"memory\":11191397},\"readAtMs\":1000000,"
	"\"files\":{\"cpuset/cgroup.procs\":\"4300\",\"memory/cgroup.procs\":\"4300\","
	"\"cpuset/cpuset.cpus\":\"0-3\",\"memory/memory.oom.group\":\"1\"}}},"
	"\"memo\":{\"cpus online=0-7 candidates=0-7 count=4\":{\"value\":\"0-3\","
	"\"atMs\":990000}}}";

START_TEST(test_qoscgsetstate_same_bytes_as_before)
{
	struct qoscgsetstate st;
	char *again;

	load(before, &st);
	ck_assert_int_eq(st.ncontainers, 2);
	ck_assert_int_eq(st.ndropped, 0);
	ck_assert_str_eq(st.hadoop_yarn, "/y");
	ck_assert_int_eq(st.containers[0].inos, 7);
	ck_assert_uint_eq(st.containers[0].ino[QOSCGSETSTATE_CPUSET], 11191537);
	ck_assert_int_eq(st.containers[0].read_at_ms, 1000000);
	ck_assert_int_eq(st.containers[0].nfiles, 4);
	ck_assert_str_eq(st.containers[0].files[0].name, "cpuset/cgroup.procs");
	ck_assert_str_eq(st.containers[0].files[0].value, "4242\n4250");
	ck_assert_int_eq(st.nmemos, 1);
	ck_assert_int_eq(st.memos[0].at_ms, 990000);
	again = dump(&st);
	ck_assert_str_eq(again, before);
	qoscgsetstate_release(&st);
	free(again);
}
END_TEST

/* A state built through the setters: the bytes (member order, a null
 * file, an inode number past INT64_MAX written as its int64 bits, a
 * container without files left out), and from_json(to_json(x)) == x. */
START_TEST(test_qoscgsetstate_round_trip)
{
	struct qoscgsetstate st, back;
	struct qoscgsetstate_container *ct;
	char *text, *again;

	qoscgsetstate_init(&st, Y);
	ct = qoscgsetstate_add(&st, ID2);
	ct->inos = 1u << QOSCGSETSTATE_CPU | 1u << QOSCGSETSTATE_MEMORY;
	ct->ino[QOSCGSETSTATE_CPU] = UINT64_MAX;
	ct->ino[QOSCGSETSTATE_MEMORY] = 31;
	ct->read_at_ms = 1764432000123;
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "memory/memory.oom.group", NULL), 1);
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "cpu/cgroup.procs", "10\n11"), 1);
	ck_assert_ptr_eq(qoscgsetstate_add(&st, ID2), ct); /* there already */
	qoscgsetstate_add(&st, ID1)->read_at_ms = 5;       /* no files: not written */
	ck_assert_int_eq(qoscgsetstate_memo_set(&st, "cpus k", "0-3", 7), 0);
	text = dump(&st);
	ck_assert_str_eq(text, HEAD
			 "\"hadoopYarn\":\"" Y "\",\"containers\":{\"" ID2
			 "\":{\"ino\":{\"cpu\":-1,\"memory\":31},\"readAtMs\":1764432000123,"
			 "\"files\":{\"memory/memory.oom.group\":null,\"cpu/cgroup.procs\":"
			 "\"10\\n11\"}}},\"memo\":{\"cpus k\":{\"value\":\"0-3\",\"atMs\":7}}}");
	load(text, &back);
	ck_assert_int_eq(back.ncontainers, 1);
	ck_assert_uint_eq(back.containers[0].ino[QOSCGSETSTATE_CPU], UINT64_MAX);
	ck_assert_int_eq(back.containers[0].inos, qoscgsetstate_find(&st, ID2)->inos);
	ck_assert_ptr_null(back.containers[0].files[0].value);
	again = dump(&back);
	ck_assert_str_eq(again, text);
	qoscgsetstate_release(&back);
	qoscgsetstate_release(&st);
	ck_assert_ptr_null(st.containers);
	free(again);
	free(text);
}
END_TEST

/* The setters' answers: unchanged, changed, a value JSON cannot hold. */
START_TEST(test_qoscgsetstate_setters)
{
	struct qoscgsetstate st;
	struct qoscgsetstate_container *ct;

	qoscgsetstate_init(&st, Y);
	ct = qoscgsetstate_add(&st, ID1);
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "cpuset/cpuset.cpus", "0-3"), 1);
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "cpuset/cpuset.cpus", "0-3"), 0);
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "cpuset/cpuset.cpus", NULL), 1);
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "cpuset/cpuset.cpus", NULL), 0);
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "cpuset/cpuset.cpus", "\xff"), -1);
	ck_assert_ptr_null(qoscgsetstate_file_find(ct, "cpuset/cpuset.cpus")->value);
	ck_assert_int_eq(qoscgsetstate_file_set(ct, "memory/cgroup.procs", "1"), 1);
	ck_assert_int_eq(qoscgsetstate_file_remove(ct, "cpuset/cpuset.cpus"), 1);
	ck_assert_int_eq(qoscgsetstate_file_remove(ct, "cpuset/cpuset.cpus"), 0);
	ck_assert_int_eq(ct->nfiles, 1);
	ck_assert_str_eq(ct->files[0].name, "memory/cgroup.procs");
	ck_assert_int_eq(qoscgsetstate_memo_set(&st, "k", "a", 1), 0);
	ck_assert_int_eq(qoscgsetstate_memo_set(&st, "j", "b", 2), 0);
	ck_assert_int_eq(qoscgsetstate_memo_set(&st, "k", "c", 3), 0); /* in place */
	ck_assert_int_eq(qoscgsetstate_memo_set(&st, "k", "\xc3", 4), -1);
	ck_assert_int_eq(qoscgsetstate_memo_set(&st, "\xc3", "d", 4), -1);
	ck_assert_int_eq(st.nmemos, 2);
	ck_assert_str_eq(st.memos[0].key, "k");
	ck_assert_str_eq(qoscgsetstate_memo_find(&st, "k")->value, "c");
	ck_assert_int_eq(qoscgsetstate_memo_find(&st, "k")->at_ms, 3);
	ck_assert_ptr_null(qoscgsetstate_memo_find(&st, "x"));
	qoscgsetstate_release(&st);
}
END_TEST

/* The lenient rule: each entry of a wrong shape is dropped and counted, the
 * others kept; a file of a wrong type goes alone; other members are
 * ignored. */
static const struct {
	const char *what, *entry; /* the entry of ID2, beside a good one of ID1 */
	size_t kept;              /* entries read (ID1's and maybe ID2's) */
	size_t dropped;
} entry_cases[] = {
	{ "not an object", "5", 1, 1 },
	{ "ino not an object", "{\"ino\":100,\"readAtMs\":1,\"files\":{}}", 1, 1 },
	{ "ino of another controller", "{\"ino\":{\"blkio\":1},\"readAtMs\":1,\"files\":{}}", 1,
	  1 },
	{ "ino not an integer", "{\"ino\":{\"cpu\":\"1\"},\"readAtMs\":1,\"files\":{}}", 1, 1 },
	{ "no ino", "{\"readAtMs\":1,\"files\":{}}", 1, 1 },
	{ "readAtMs a string", "{\"ino\":{},\"readAtMs\":\"x\",\"files\":{}}", 1, 1 },
	{ "readAtMs a real", "{\"ino\":{},\"readAtMs\":1.5,\"files\":{}}", 1, 1 },
	{ "files an array", "{\"ino\":{},\"readAtMs\":1,\"files\":[]}", 1, 1 },
	{ "no files", "{\"ino\":{},\"readAtMs\":1}", 1, 1 },
	{ "a file of a wrong type",
	  "{\"ino\":{\"cpu\":1},\"readAtMs\":-9223372036854775808,\"files\":{\"cpu/a\":5,"
	  "\"cpu/b\":\"x\",\"cpu/c\":[]},\"extra\":1}",
	  2, 0 },
};

START_TEST(test_qoscgsetstate_lenient_entries)
{
	char *text = xasprintf(
		HEAD "\"hadoopYarn\":\"" Y "\",\"containers\":{\"" ID1
		     "\":{\"ino\":{\"cpuset\":3},\"readAtMs\":1,\"files\":{\"cpuset/x\":\"1\"}},"
		     "\"" ID2 "\":%s},\"memo\":{}}",
		entry_cases[_i].entry);
	struct qoscgsetstate st;

	load(text, &st);
	ck_assert_msg(st.ncontainers == entry_cases[_i].kept, "%s", entry_cases[_i].what);
	ck_assert_msg(st.ndropped == entry_cases[_i].dropped, "%s", entry_cases[_i].what);
	ck_assert_ptr_nonnull(qoscgsetstate_find(&st, ID1));
	if (entry_cases[_i].kept == 2) {
		const struct qoscgsetstate_container *ct = qoscgsetstate_find(&st, ID2);

		ck_assert_int_eq(ct->nfiles, 1);
		ck_assert_str_eq(ct->files[0].name, "cpu/b");
		ck_assert_int_eq(ct->read_at_ms, INT64_MIN);
	}
	qoscgsetstate_release(&st);
	free(text);
}
END_TEST

/* Keys that are no container id, and memos of a wrong shape, go too. */
START_TEST(test_qoscgsetstate_lenient_ids_and_memos)
{
	struct qoscgsetstate st;

	load(HEAD "\"hadoopYarn\":\"" Y "\",\"containers\":{\"container_x\":{\"ino\":{},"
		  "\"readAtMs\":1,\"files\":{}},\"" ID1 "\":{\"ino\":{},\"readAtMs\":1,"
		  "\"files\":{}}},\"memo\":{\"a\":{\"value\":3,\"atMs\":1},\"b\":5,"
		  "\"c\":{\"value\":\"0\",\"atMs\":\"1\"},\"d\":{\"value\":\"0-1\",\"atMs\":2}}}",
	     &st);
	ck_assert_int_eq(st.ncontainers, 1);
	ck_assert_int_eq(st.nmemos, 1);
	ck_assert_str_eq(st.memos[0].key, "d");
	ck_assert_int_eq(st.ndropped, 4);
	qoscgsetstate_release(&st);
	/* every member may be absent */
	load("{\"kind\":\"QosCgsetState\"}", &st);
	ck_assert_ptr_null(st.hadoop_yarn);
	ck_assert_int_eq(st.ncontainers + st.nmemos + st.ndropped, 0);
	qoscgsetstate_release(&st);
}
END_TEST

/* Only the kind and the top-level shape are refused, each naming its path. */
static const struct {
	const char *text, *msg;
} refusals[] = {
	{ "{\"kind\":\"EvictorState\"}",
	  "QosCgsetState.kind: expected \"QosCgsetState\", got \"EvictorState\"" },
	{ "{\"kind\":7}", "QosCgsetState.kind: expected a string, got 7" },
	{ HEAD "\"hadoopYarn\":5}", "QosCgsetState.hadoopYarn: expected a string, got 5" },
	{ HEAD "\"hadoopYarn\":\"" Y "\",\"containers\":[]}",
	  "QosCgsetState.containers: expected an object, got []" },
	{ HEAD "\"hadoopYarn\":\"" Y "\",\"containers\":{},\"memo\":\"x\"}",
	  "QosCgsetState.memo: expected an object, got \"x\"" },
};

START_TEST(test_qoscgsetstate_refusals_name_their_path)
{
	json_auto_t *doc = json_loads(refusals[_i].text, 0, NULL);
	struct qoscgsetstate st;
	struct err e = { 0 };

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(qoscgsetstate_from_json(doc, &st, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, refusals[_i].msg);
	ck_assert_ptr_null(st.containers);
	ck_assert_ptr_null(st.hadoop_yarn);
}
END_TEST

/* An entry carried from a state read into the pass's: its strings (in the
 * document read) stay valid after that state is released, as the pass's
 * state keeps the document; those of a second document are copied; a file
 * set afterwards is the pass's own. */
START_TEST(test_qoscgsetstate_carry)
{
	struct qoscgsetstate a, b, next;
	struct qoscgsetstate_container *to;
	char *text;

	load(before, &a);
	load(before, &b);
	qoscgsetstate_init(&next, "/y");
	to = qoscgsetstate_add(&next, ID1);
	qoscgsetstate_carry(&next, to, &a, qoscgsetstate_find(&a, ID1));
	ck_assert_int_eq(qoscgsetstate_find(&a, ID1)->nfiles, 0);
	ck_assert_int_eq(to->read_at_ms, 1000000);
	to = qoscgsetstate_add(&next, ID2);
	qoscgsetstate_carry(&next, to, &b, qoscgsetstate_find(&b, ID2));
	ck_assert_ptr_eq(next.doc, a.doc);
	qoscgsetstate_release(&a);
	qoscgsetstate_release(&b);
	to = qoscgsetstate_find(&next, ID1);
	ck_assert_int_eq(to->inos, 7);
	ck_assert_str_eq(to->files[0].value, "4242\n4250");
	ck_assert_int_eq(qoscgsetstate_file_set(to, "cpuset/cpuset.cpus", "0-1"), 1);
	ck_assert_int_eq(qoscgsetstate_file_set(to, "cpuset/cpuset.cpus", "0-1"), 0);
	to = qoscgsetstate_find(&next, ID2);
	ck_assert_int_eq(qoscgsetstate_file_set(to, "cpuset/cpuset.cpus", "0-3"), 0);
	ck_assert_int_eq(qoscgsetstate_file_remove(to, "cpuset/cgroup.procs"), 1);
	text = dump(&next);
	ck_assert_str_eq(text, HEAD
			 "\"hadoopYarn\":\"/y\",\"containers\":{\"" ID1 "\":{\"ino\":{\"cpu\":"
			 "11150744,\"cpuset\":11191537,\"memory\":11191390},\"readAtMs\":1000000,"
			 "\"files\":{\"cpuset/cgroup.procs\":\"4242\\n4250\","
			 "\"memory/cgroup.procs\":\"4242\\n4250\",\"cpuset/cpuset.cpus\":\"0-1\","
			 "\"memory/memory.oom.group\":\"1\"}},\"" ID2 "\":{\"ino\":{\"cpu\":"
			 "11158940,\"cpuset\":11191558,\"memory\":11191397},\"readAtMs\":1000000,"
			 "\"files\":{\"memory/cgroup.procs\":\"4300\",\"cpuset/cpuset.cpus\":"
			 "\"0-3\",\"memory/memory.oom.group\":\"1\"}}},\"memo\":{}}");
	free(text);
	qoscgsetstate_release(&next);
}
END_TEST

/* The index: ids added in any order are found; a removal keeps the
 * others' order and the index. */
START_TEST(test_qoscgsetstate_index)
{
	enum { N = 300 };
	struct qoscgsetstate st;
	char id[64];
	char *text;

	qoscgsetstate_init(&st, Y);
	for (int i = 0; i < N; i++) {
		snprintf(id, sizeof(id), "container_e17_1410901177871_0001_01_%06d",
			 (i * 7919) % N + 1);
		qoscgsetstate_file_set(qoscgsetstate_add(&st, id), "cpu/f", id);
	}
	ck_assert_int_eq(st.ncontainers, N);
	for (int i = 1; i <= N; i++) {
		snprintf(id, sizeof(id), "container_e17_1410901177871_0001_01_%06d", i);
		ck_assert_str_eq(qoscgsetstate_find(&st, id)->files[0].value, id);
	}
	ck_assert_ptr_null(qoscgsetstate_find(&st, ID2 "0"));
	ck_assert_ptr_null(qoscgsetstate_find(&st, "container_"));
	ck_assert_int_eq(qoscgsetstate_remove(&st, st.containers[5].id), 1);
	ck_assert_int_eq(qoscgsetstate_remove(&st, ID2 "0"), 0);
	ck_assert_int_eq(st.ncontainers, N - 1);
	for (size_t i = 0; i < st.ncontainers; i++) {
		ck_assert_ptr_eq(qoscgsetstate_find(&st, st.containers[i].id), &st.containers[i]);
		if (i + 1 < st.ncontainers)
			ck_assert(strcmp(st.containers[st.by_id[i]].id,
					 st.containers[st.by_id[i + 1]].id) < 0);
	}
	snprintf(id, sizeof(id), "container_e17_1410901177871_0001_01_%06d", (5 * 7919) % N + 1);
	ck_assert_ptr_null(qoscgsetstate_find(&st, id));
	/* the document keeps the order of addition, not of the index */
	text = dump(&st);
	ck_assert_ptr_nonnull(strstr(text, "\"containers\":{\"container_e17_1410901177871_0001_01_"
					   "000001\":"));
	ck_assert_ptr_nonnull(strstr(text, "}},\"container_e17_1410901177871_0001_01_000120\":"));
	free(text);
	qoscgsetstate_release(&st);
}
END_TEST

static Suite *qoscgsetstate_suite(void)
{
	Suite *s = suite_create("qoscgsetstate");
	TCase *tc = tcase_create("document");

	tcase_add_test(tc, test_qoscgsetstate_same_bytes_as_before);
	tcase_add_test(tc, test_qoscgsetstate_round_trip);
	tcase_add_test(tc, test_qoscgsetstate_setters);
	tcase_add_loop_test(tc, test_qoscgsetstate_lenient_entries, 0,
			    sizeof(entry_cases) / sizeof(entry_cases[0]));
	tcase_add_test(tc, test_qoscgsetstate_lenient_ids_and_memos);
	tcase_add_loop_test(tc, test_qoscgsetstate_refusals_name_their_path, 0,
			    sizeof(refusals) / sizeof(refusals[0]));
	tcase_add_test(tc, test_qoscgsetstate_index);
	tcase_add_test(tc, test_qoscgsetstate_carry);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(qoscgsetstate_suite)
