/* SPDX-License-Identifier: Apache-2.0 */
/* testlib - shared pieces of the Check unit-test programs. */
#ifndef KILO_TESTLIB_H
#define KILO_TESTLIB_H

#include <check.h>
#include <stdlib.h>

/* main() for a test program with one suite built by fn(). */
#define KILO_TEST_MAIN(fn)                                                                         \
	int main(void)                                                                             \
	{                                                                                          \
		SRunner *sr = srunner_create(fn());                                                \
		int failed;                                                                        \
		srunner_run_all(sr, CK_NORMAL);                                                    \
		failed = srunner_ntests_failed(sr);                                                \
		srunner_free(sr);                                                                  \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;                                       \
	}

/* A document reader's refusal, the shape of the document modules' refusal
 * tables: text parses, call (the reader on doc, &out and &e, as in
 * containerlist_from_json(doc, &cl, &e)) returns -1 with an ERR_INPUT whose
 * message is exactly msg.  The caller then checks that out was released. */
#define TESTLIB_REFUSES(text_, msg_, call_)                                                        \
	do {                                                                                       \
		struct err e = { 0 };                                                              \
		json_auto_t *doc = jsonio_parse((text_), "t", &e);                                 \
		ck_assert_msg(doc != NULL, "%s", e.msg);                                           \
		ck_assert_int_eq((call_), -1);                                                     \
		ck_assert_int_eq(e.kind, ERR_INPUT);                                               \
		ck_assert_str_eq(e.msg, (msg_));                                                   \
	} while (0)

/* A fresh temporary directory (mkdtemp under $TMPDIR or /tmp); caller frees. */
char *testlib_tmpdir(void);

/* rm -rf dir (fake trees only). */
void testlib_rmtree(const char *dir);

/* Create dir/rel (parents too) holding content; aborts the test on error. */
void testlib_write(const char *dir, const char *rel, const char *content);

/* The content of dir/rel (dir NULL: the path rel), or NULL if missing;
 * caller frees. */
char *testlib_read(const char *dir, const char *rel);

/* Path of a file under test/fixtures (from KILO_FIXTURES or the source
 * tree); caller frees. */
char *testlib_fixture(const char *rel);

/* qosapply_inputs() of the documents usage and list (either NULL), read
 * into *nu and *cl first (containerlist_from_json, then nodeusage_from_json;
 * the caller releases both, which *in borrows from); *in is zeroed first. */
struct nodeusage;
struct containerlist;
struct qosapply_inputs;
struct err;
typedef struct json_t json_t;
int testlib_qos_inputs(const json_t *usage, const json_t *list, struct nodeusage *nu,
		       struct containerlist *cl, struct qosapply_inputs *in, struct err *e);

#endif
