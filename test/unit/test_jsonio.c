// SPDX-License-Identifier: Apache-2.0
/* test_jsonio - document streams, errors with positions, typed getters */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "testlib.h"

static FILE *mem(const char *s)
{
	return fmemopen((void *)s, strlen(s), "r");
}

START_TEST(test_jsonio_stream_of_documents)
{
	const char *in = "{\"a\":1}\n  {\"b\":\"}{\\\"\"} {\"c\":[1,{\"d\":2}]}\n\n";
	FILE *f = mem(in);
	struct jsonio_reader *r = jsonio_reader_new(f, "stdin");
	struct err e = { 0 };
	json_t *doc = NULL;

	ck_assert_int_eq(jsonio_read(r, &doc, &e), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "a")), 1);
	json_decref(doc);
	ck_assert_int_eq(jsonio_read(r, &doc, &e), 1);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "b")), "}{\"");
	ck_assert_int_eq(jsonio_reader_line(r), 2);
	json_decref(doc);
	ck_assert_int_eq(jsonio_read(r, &doc, &e), 1);
	ck_assert_int_eq(json_array_size(json_object_get(doc, "c")), 2);
	json_decref(doc);
	ck_assert_int_eq(jsonio_read(r, &doc, &e), 0);
	jsonio_reader_free(r);
	fclose(f);
}
END_TEST

static const struct {
	const char *in;
	const char *msg;
} bad_streams[] = {
	{ "{\"a\":1}\n{\"a\":1,\"a\":2}", "stdin:2:" },
	{ "{\"a\":1}\n{\"a\":", "stdin:2:" },
	{ "{\"a\":NaN}", "stdin:1:" },
	{ "{\"a\":Infinity}", "stdin:1:" },
	{ "{\"a\":99999999999999999999}", "stdin:1:" },
	{ "{\"a\":\"\xff\"}", "stdin:1:" },
	{ "[1,2]", "stdin:1:1: expected a JSON object" },
	{ "42", "stdin:1:" },
	{ "{\"a\":1}}", "stdin:1:" },
	/* line and column of the error, after documents, blank lines, strings
	 * holding brackets and escaped quotes */
	{ "\n\n  {\"a\":\"}{\\\"\"}\n\t {\"b\":[1,{\"c\":2}]} x",
	  "stdin:4:21: '[' or '{' expected near 'x'" },
	{ "{\"a\":1}\n\n   {\"a\" 1}", "stdin:3:9: ':' expected near '1'" },
	{ "{\"a\":1}\n  tru{\"a\":1}", "stdin:2:5: '[' or '{' expected near 'tru'" },
	{ "{\"a\":1}\n {\"b\":\n\n  [1,2,}", "stdin:4:8: unexpected token near '}'" },
	{ "{}\n\n\n[]", "stdin:4:1: expected a JSON object" },
	{ "{\"a\":\"\\\\\"}\n{\"b\":\"\\\\\\\"}\"} \n{\"c\":1,}",
	  "stdin:3:8: string or '}' expected near '}'" },
};

START_TEST(test_jsonio_bad_streams)
{
	FILE *f = mem(bad_streams[_i].in);
	struct jsonio_reader *r = jsonio_reader_new(f, "stdin");
	struct err e = { 0 };
	json_t *doc = NULL;
	int ret;

	while ((ret = jsonio_read(r, &doc, &e)) == 1)
		json_decref(doc);
	ck_assert_int_eq(ret, -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strncmp(e.msg, bad_streams[_i].msg, strlen(bad_streams[_i].msg)) == 0,
		      "case %d: %s", _i, e.msg);
	jsonio_reader_free(r);
	fclose(f);
}
END_TEST

START_TEST(test_jsonio_error_position_after_first_line)
{
	FILE *f = mem("{\"a\":1}\n\n  {\"b\": tru}");
	struct jsonio_reader *r = jsonio_reader_new(f, "in.json");
	struct err e = { 0 };
	json_t *doc = NULL;

	ck_assert_int_eq(jsonio_read(r, &doc, &e), 1);
	json_decref(doc);
	ck_assert_int_eq(jsonio_read(r, &doc, &e), -1);
	ck_assert_msg(strncmp(e.msg, "in.json:3:", 10) == 0, "%s", e.msg);
	jsonio_reader_free(r);
	fclose(f);
}
END_TEST

START_TEST(test_jsonio_large_stream_crosses_chunks)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	FILE *f;
	struct jsonio_reader *r;
	struct err e = { 0 };
	json_t *doc = NULL;
	long n = 0, sum = 0;

	for (int i = 0; i < 20000; i++)
		fprintf(w, "{\"i\":%d,\"pad\":\"%s\"}\n", i, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	fclose(w);
	f = fmemopen(buf, len, "r");
	r = jsonio_reader_new(f, "stdin");
	while (jsonio_read(r, &doc, &e) == 1) {
		sum += json_integer_value(json_object_get(doc, "i"));
		n++;
		json_decref(doc);
	}
	ck_assert_int_eq(n, 20000);
	ck_assert_int_eq(sum, 20000L * 19999 / 2);
	ck_assert_int_eq(jsonio_reader_line(r), 20000);
	jsonio_reader_free(r);
	fclose(f);
	free(buf);
}
END_TEST

START_TEST(test_jsonio_collect_kinds)
{
	FILE *f = mem("{\"apiVersion\":\"kilo/v1\",\"kind\":\"NodeUsage\",\"n\":1}\n"
		      "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[]}\n"
		      "{\"apiVersion\":\"kilo/v1\",\"kind\":\"Other\"}\n"
		      "{\"apiVersion\":\"kilo/v1\",\"kind\":\"NodeUsage\",\"n\":2}\n");
	const char *const want[] = { "NodeUsage", "ContainerList", "PodList" };
	json_t *got[3];
	struct err e = { 0 };

	ck_assert_int_eq(jsonio_collect(f, "stdin", want, 3, got, NULL, &e), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(got[0], "n")), 2);
	ck_assert_ptr_null(got[1]);
	ck_assert_ptr_nonnull(got[2]);
	ck_assert_int_eq(jsonio_require(got[1], "ContainerList", "stdin", &e), -1);
	ck_assert_str_eq(e.msg, "missing required document of kind 'ContainerList' on stdin");
	json_decref(got[0]);
	json_decref(got[2]);
	fclose(f);
}
END_TEST

START_TEST(test_jsonio_collect_wrong_api_version)
{
	FILE *f = mem("{\"apiVersion\":\"kilo/v2\",\"kind\":\"NodeUsage\"}");
	const char *const want[] = { "NodeUsage" };
	json_t *got[1];
	struct err e = { 0 };

	ck_assert_int_eq(jsonio_collect(f, "stdin", want, 1, got, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "stdin:1: document of kind 'NodeUsage' has apiVersion 'kilo/v2', "
				"expected 'kilo/v1'");
	ck_assert_ptr_null(got[0]);
	fclose(f);
}
END_TEST

START_TEST(test_jsonio_getters)
{
	json_t *o = json_pack("{s:i,s:s,s:n,s:f,s:b,s:[],s:{}}", "pct", 70, "bad", "70%", "nul",
			      "real", 2.5, "flag", 1, "arr", "obj");
	struct err e = { 0 };
	int64_t i = -1;
	double d = 0;
	int b = 0;
	const char *s = NULL;
	json_t *j = NULL;

	ck_assert_int_eq(jsonio_get_int(o, "policy", "pct", 0, 100, &i, &e), 1);
	ck_assert_int_eq(i, 70);
	ck_assert_int_eq(jsonio_get_int(o, "policy", "missing", 0, 100, &i, &e), 0);
	ck_assert_int_eq(jsonio_get_int(o, "policy", "nul", 0, 100, &i, &e), 0);
	ck_assert_int_eq(i, 70);
	ck_assert_int_eq(jsonio_get_int(o, "policy", "bad", 0, 100, &i, &e), -1);
	ck_assert_str_eq(e.msg, "policy.bad: expected an integer 0..100, got \"70%\"");
	ck_assert_int_eq(jsonio_get_int(o, "policy", "pct", 0, 60, &i, &e), -1);
	ck_assert_str_eq(e.msg, "policy.pct: expected an integer 0..60, got 70");
	ck_assert_int_eq(jsonio_get_real(o, "p", "real", 0, 100, &d, &e), 1);
	ck_assert(d == 2.5);
	ck_assert_int_eq(jsonio_get_real(o, "p", "pct", 0, 100, &d, &e), 1);
	ck_assert(d == 70);
	ck_assert_int_eq(jsonio_get_bool(o, "p", "flag", &b, &e), 1);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(jsonio_get_bool(o, "p", "pct", &b, &e), -1);
	ck_assert_int_eq(jsonio_get_str(o, "p", "bad", &s, &e), 1);
	ck_assert_str_eq(s, "70%");
	ck_assert_int_eq(jsonio_get_arr(o, "p", "arr", &j, &e), 1);
	ck_assert_int_eq(jsonio_get_obj(o, "p", "arr", &j, &e), -1);
	ck_assert_str_eq(e.msg, "p.arr: expected an object, got []");
	json_decref(o);
}
END_TEST

START_TEST(test_jsonio_write_compact_and_pretty)
{
	json_t *doc = jsonio_new_doc("KillReport");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct err e = { 0 };

	json_object_set_new(doc, "metadata", jsonio_metadata("worker-1", 1795996800000LL));
	json_object_set_new(doc, "pct", json_real(75.2));
	json_object_set_new(doc, "x", jsonio_int_or_null(0, 5));
	ck_assert_int_eq(jsonio_write(f, doc, 0, &e), 0);
	fclose(f);
	ck_assert_str_eq(buf, "{\"apiVersion\":\"kilo/v1\",\"kind\":\"KillReport\",\"metadata\":{"
			      "\"node\":\"worker-1\",\"timestamp\":\"2026-11-30T00:00:00Z\"},"
			      "\"pct\":75.2,\"x\":null}\n");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(jsonio_write(f, json_object_get(doc, "metadata"), 1, &e), 0);
	fclose(f);
	ck_assert_str_eq(buf, "{\n  \"node\": \"worker-1\",\n  \"timestamp\": "
			      "\"2026-11-30T00:00:00Z\"\n}\n");
	free(buf);
	json_decref(doc);
}
END_TEST

/* Items for jsonio_write_items: index 1 is left out; one is non-ASCII
 * (jansson writes it) and one needs escapes. */
static const char *const item_names[] = { "a", "skipped", "caf\xc3\xa9", "tab\there \"q\"" };

static json_t *item_json(size_t i)
{
	return json_pack("{s:s,s:I}", "name", item_names[i], "i", (json_int_t)i);
}

static int some_item(size_t i, void *arg, struct jsonio_buf *b)
{
	json_t *v;
	int r;

	(void)arg;
	if (i == 1)
		return 0;
	v = item_json(i);
	r = jsonio_buf_put_json(b, v);
	json_decref(v);
	return r == 0 ? 1 : -1;
}

/* Streamed one item at a time, the report is byte for byte what the whole
 * document gives, compact and pretty, and the document is left as it was. */
START_TEST(test_jsonio_write_items)
{
	for (int pretty = 0; pretty < 2; pretty++) {
		json_t *doc = jsonio_new_doc("CgroupChanges"), *whole;
		char *a = NULL, *b = NULL;
		size_t alen = 0, blen = 0;
		FILE *f = open_memstream(&a, &alen);
		struct err e = { 0 };

		json_object_set_new(doc, "summary", json_pack("{s:i}", "written", 3));
		ck_assert_int_eq(
			jsonio_write_items(f, doc, "items", 4, some_item, NULL, pretty, &e), 0);
		fclose(f);
		ck_assert_ptr_null(json_object_get(doc, "items"));
		whole = json_deep_copy(doc);
		json_object_set_new(whole, "items", json_array());
		for (size_t i = 0; i < 4; i++)
			if (i != 1)
				json_array_append_new(json_object_get(whole, "items"),
						      item_json(i));
		f = open_memstream(&b, &blen);
		ck_assert_int_eq(jsonio_write(f, whole, pretty, &e), 0);
		fclose(f);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
		json_decref(whole);
		json_decref(doc);
	}
}
END_TEST

static int failing_item(size_t i, void *arg, struct jsonio_buf *b)
{
	(void)arg;
	(void)b;
	return i == 2 ? -1 : 0;
}

START_TEST(test_jsonio_write_items_none_and_failing)
{
	json_t *doc = jsonio_new_doc("CgroupChanges");
	char *a = NULL;
	size_t alen = 0;
	FILE *f = open_memstream(&a, &alen);
	struct err e = { 0 };

	ck_assert_int_eq(jsonio_write_items(f, doc, "items", 0, some_item, NULL, 0, &e), 0);
	fclose(f);
	ck_assert_str_eq(a,
			 "{\"apiVersion\":\"kilo/v1\",\"kind\":\"CgroupChanges\",\"items\":[]}\n");
	free(a);
	f = open_memstream(&a, &alen);
	ck_assert_int_eq(jsonio_write_items(f, doc, "items", 4, failing_item, NULL, 0, &e), -1);
	ck_assert_str_eq(e.msg, "write output: item 2 cannot be encoded: Invalid argument");
	fclose(f);
	free(a);
	json_decref(doc);
}
END_TEST

/* A string JSON cannot hold (not UTF-8) is shown, not dropped. */
START_TEST(test_jsonio_string)
{
	json_t *v = jsonio_string("caf\xc3\xa9");

	ck_assert_str_eq(json_string_value(v), "caf\xc3\xa9"); /* valid: as it is */
	json_decref(v);
	v = jsonio_string("bad\xff\xfe \xc3\xa9");
	ck_assert_str_eq(json_string_value(v), "bad?? ??");
	json_decref(v);
	v = jsonio_string(NULL);
	ck_assert(json_is_null(v));
	json_decref(v);
}
END_TEST

/* A record written text-first is what jansson writes for the same object,
 * escapes and nulls included; a non-ASCII string leaves it to jansson. */
START_TEST(test_jsonio_record)
{
	static const char *const keys[] = { "path", "file", "old", "reason" };
	static const char *const rows[][4] = {
		{ "/kubepods/besteffort/hadoop-yarn", "cpu.shares", "1024", "sum of 7 vCores" },
		{ "/a", NULL, NULL, "tab\tnewline\nquote\"back\\slash\x01\x1f" },
		{ "", "", "", "" },
	};
	struct jsonio_buf b = { 0 };

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		json_t *o = json_object();
		char *want;

		for (size_t k = 0; k < 4; k++)
			json_object_set_new(o, keys[k],
					    rows[r][k] ? json_string(rows[r][k]) : json_null());
		want = json_dumps(o, JSON_COMPACT);
		b.len = 0;
		ck_assert_int_eq(jsonio_record(&b, keys, rows[r], 4), 0);
		ck_assert_uint_eq(b.len, strlen(want));
		ck_assert(memcmp(b.p, want, b.len) == 0);
		free(want);
		json_decref(o);
	}
	{
		static const char *const v[] = { "/x", "caf\xc3\xa9", NULL, "r" };

		b.len = 3;
		ck_assert_int_eq(jsonio_record(&b, keys, v, 4), -1);
		ck_assert_uint_eq(b.len, 3); /* as it was */
	}
	jsonio_buf_release(&b);
	ck_assert_ptr_null(b.p);
}
END_TEST

/* jsonio_dump_fast against json_dumps: the same bytes, or NULL for what it
 * leaves to jansson. */
static int dump_agrees(const json_t *doc, int *fast)
{
	size_t len = 0;
	char *a = jsonio_dump_fast(doc, &len), *b = json_dumps(doc, JSON_COMPACT);
	int ret = a && (len != strlen(b) + 1 || memcmp(a, b, len - 1) != 0 || a[len - 1] != '\n')
			  ? -1
			  : 0;

	*fast = a != NULL;
	free(a);
	free(b);
	return ret;
}

START_TEST(test_jsonio_dump_fast)
{
	char all[128];
	json_t *doc = json_object(), *arr = json_array();
	int fast = 0;

	for (int c = 1; c < 128; c++)
		all[c - 1] = (char)c;
	all[127] = '\0';
	json_object_set_new(doc, "all", json_string(all));
	json_object_set_new(doc, "nul", json_stringn("a\0b", 3));
	json_object_set_new(doc, "key\n\"\\\x01", json_integer(INT64_MIN));
	json_object_set_new(doc, "max", json_integer(INT64_MAX));
	json_object_set_new(doc, "z", json_array());
	json_object_set_new(doc, "o", json_object());
	json_array_append_new(arr, json_true());
	json_array_append_new(arr, json_false());
	json_array_append_new(arr, json_null());
	json_array_append_new(arr, json_pack("{s:[i,s]}", "k", -1, "/"));
	json_object_set_new(doc, "a", arr);
	ck_assert_int_eq(dump_agrees(doc, &fast), 0);
	ck_assert_int_eq(fast, 1);
	json_object_set_new(doc, "real", json_real(0.5));
	ck_assert_int_eq(dump_agrees(doc, &fast), 0);
	ck_assert_int_eq(fast, 0);
	json_object_del(doc, "real");
	json_object_set_new(doc, "utf8", json_string("\xc3\xa9"));
	ck_assert_int_eq(dump_agrees(doc, &fast), 0);
	ck_assert_int_eq(fast, 0);
	json_decref(doc);
}
END_TEST

/* The fast path against jansson: what it accepts, jansson decodes to the
 * same values in the same key order; fast says whether it must accept. */
static const struct {
	const char *in;
	int fast;
} fast_cases[] = {
	{ "{\"a\":1,\"b\":-9223372036854775808,\"c\":9223372036854775807,\"d\":-0}", 1 },
	{ " \n{\"r\":1.5,\"e\":-2.5e-3,\"E\":1E+2,\"z\":0.0,\"t\":true,\"f\":false,\"n\":null}\t",
	  1 },
	{ "{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\",\"\":\"\",\"o\":{},\"l\":[]}", 1 },
	{ "[{\"z\":1,\"a\":2,\"m\":[1,[2,[3]],{\"k\":\"}{][\"}]}]", 1 },
	{ "{\"del\":\"\x7f\",\"k\" : [ 1 , 2 ] }", 1 },
	{ "{\"big\":9223372036854775808}", 0 },
	{ "{\"small\":-9223372036854775809}", 0 },
	{ "{\"a\":1,\"a\":2}", 0 },
	{ "{\"a\":01}", 0 },
	{ "{\"a\":1.}", 0 },
	{ "{\"a\":.5}", 0 },
	{ "{\"a\":1e}", 0 },
	{ "{\"a\":-}", 0 },
	{ "{\"a\":+1}", 0 },
	{ "{\"a\":1e999}", 0 },
	{ "{\"a\":[1,]}", 0 },
	{ "{\"a\":1,}", 0 },
	{ "{\"a\":truex}", 0 },
	{ "{\"a\":nul}", 0 },
	{ "{\"a\":\"\\u00e9\"}", 0 },
	{ "{\"a\":\"\\u0000\"}", 0 },
	{ "{\"a\":\"\xc3\xa9\"}", 0 },
	{ "{\"a\":\"\xff\"}", 0 },
	{ "{\"a\":\"tab\there\"}", 0 },
	{ "{\"a\":\"\\x\"}", 0 },
	{ "{\"a\":\"open}", 0 },
	{ "{\"a\":1} x", 0 },
	{ "{\"a\":1}{}", 0 },
	{ "{\"a\" 1}", 0 },
	{ "{1:2}", 0 },
	{ "42", 0 },
	{ "", 0 },
	{ "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]"
	  "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
	  0 },
};

/* Returns 0 when fast and jansson agree on in[0, n) (fast declines, or both
 * decode the same); sets *accepted when fast decoded it. */
static int fast_agrees(const char *in, size_t n, int *accepted)
{
	json_error_t jerr;
	json_t *fast = jsonio_decode_fast(in, n);
	json_t *ref = json_loadb(in, n, JSON_REJECT_DUPLICATES, &jerr);
	size_t flags = JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17);
	char *a = fast ? json_dumps(fast, flags) : NULL, *b = ref ? json_dumps(ref, flags) : NULL;
	int ret = fast && (!ref || strcmp(a, b) != 0) ? -1 : 0;

	*accepted = fast != NULL;
	free(a);
	free(b);
	json_decref(fast);
	json_decref(ref);
	return ret;
}

START_TEST(test_jsonio_fast_path_cases)
{
	int accepted = 0;

	ck_assert_msg(fast_agrees(fast_cases[_i].in, strlen(fast_cases[_i].in), &accepted) == 0,
		      "case %d: differs from jansson", _i);
	ck_assert_msg(accepted == fast_cases[_i].fast, "case %d: fast path %s", _i,
		      accepted ? "accepted" : "declined");
}
END_TEST

/* Thousands of one-byte edits of a document with every kind of value: the
 * fast path never accepts what jansson refuses nor decodes it otherwise. */
START_TEST(test_jsonio_fast_path_mutations)
{
	static const char base[] =
		"{\"id\":\"container_e17_1_0001_01_000002\",\"n\":-12,\"r\":0.25e1,\"ok\":true,"
		"\"no\":false,\"x\":null,\"s\":\"q\\\"\\\\\\n\",\"a\":[1,{\"b\":[]},{}],\"u\":{\"c\":7}}";
	static const char alphabet[] = "{}[]\":,\\-+.0129eEtfnul \n\x7f\x80\xff";
	char buf[sizeof(base)];
	uint32_t seed = 12345;
	int accepted = 0, nfast = 0, dumped = 0;
	json_error_t jerr;
	json_t *doc;

	for (int i = 0; i < 20000; i++) {
		size_t n = sizeof(base) - 1, at;

		memcpy(buf, base, sizeof(base));
		for (int k = 0; k < 1 + i % 3; k++) {
			seed = seed * 1103515245u + 12345u;
			at = (seed >> 8) % n;
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 20) % 4 == 0) { /* delete */
				memmove(buf + at, buf + at + 1, n - at);
				n--;
			} else {
				buf[at] = alphabet[(seed >> 8) % (sizeof(alphabet) - 1)];
			}
		}
		ck_assert_msg(fast_agrees(buf, n, &accepted) == 0, "differs from jansson: %.*s",
			      (int)n, buf);
		nfast += accepted;
		if ((doc = json_loadb(buf, n, 0, &jerr))) {
			ck_assert_msg(dump_agrees(doc, &dumped) == 0, "dump differs: %.*s", (int)n,
				      buf);
			json_decref(doc);
		}
	}
	ck_assert_int_gt(nfast, 1000); /* the edits that keep the text valid */
}
END_TEST

START_TEST(test_jsonio_parse_string)
{
	struct err e = { 0 };
	json_t *v = jsonio_parse("{\"cpu\":\"2k\"}", "annotation", &e);

	ck_assert_ptr_nonnull(v);
	json_decref(v);
	ck_assert_ptr_null(jsonio_parse("{\"cpu\":", "annotation", &e));
	ck_assert_msg(strncmp(e.msg, "annotation:1:", 13) == 0, "%s", e.msg);
	ck_assert_ptr_null(jsonio_parse("{} {}", "annotation", &e));
}
END_TEST

/* Texts jansson refuses: the filtered parser refuses them too, whether the
 * bad value is kept ("k") or skipped ("s"). */
static const char *const filter_bad[] = {
	"1,}",
	"",
	"01",
	"1.",
	"1e",
	"-",
	"tru",
	"nul",
	"[1 2]",
	"[1,]",
	"{\"a\" 1}",
	"{\"a\":1,}",
	"\"\x01\"",
	"\"\xff\"",
	"\"\xc0\xaf\"",
	"\"\xed\xa0\x80\"",
	"\"\\ud800\"",
	"\"\\udc00\"",
	"\"\\u0000\"",
	"\"\\x\"",
	"\"\\u12g4\"",
	"9223372036854775808",
	"-9223372036854775809",
	"1e999",
	"\"abc",
	"{\"x\":1,\"x\":2}",
};

START_TEST(test_jsonio_filter_refuses_what_jansson_refuses)
{
	static const struct jsonio_filter keep[] = { { "k" }, { NULL } };
	char text[256];
	json_error_t jerr;

	for (int k = 0; k < 2; k++) {
		int n = snprintf(text, sizeof(text), "{\"%s\":%s}", k ? "k" : "s", filter_bad[_i]);
		json_t *v = json_loadb(text, (size_t)n, JSON_REJECT_DUPLICATES, &jerr);

		/* a duplicate key under a skipped key is not looked for */
		if (k == 0 && _i == (int)(sizeof(filter_bad) / sizeof(filter_bad[0])) - 1)
			continue;
		ck_assert_msg(v == NULL, "jansson took %s", text);
		ck_assert_msg(jsonio_parse_filtered(text, (size_t)n, keep) == NULL, "took %s",
			      text);
	}
}
END_TEST

START_TEST(test_jsonio_filter_builds_what_jansson_builds)
{
	static const char *const good[] = {
		"{\"a\":[1,-0,1.5e3,-2.25E-2,123456789012345678,-9223372036854775808,"
		"9223372036854775807,0.1,1e-400],\"b\":{\"c\":null,\"d\":true,\"e\":false},"
		"\"s\":\"t\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/x\xc3\xa9\xf0\x9f\x98\x80\"}",
		" { } ",
		"{\"\\u0041\":\"key with an escape\",\"k\":[]}",
		"{\"deep\":[[[[{\"x\":[{},[]]}]]]]}",
	};
	static const char *const fixtures[] = { "k8s/node-batch.json", "k8s/podlist-mixed.json",
						"k8s/list-kubectl.json", "yarn/rm-nodes.json" };
	json_error_t jerr;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]) + 4; i++) {
		char *path = i >= 4 ? testlib_fixture(fixtures[i - 4]) : NULL;
		char *text = path ? testlib_read(NULL, path) : xstrdup(good[i]);
		json_t *want = json_loadb(text, strlen(text), JSON_REJECT_DUPLICATES, &jerr);
		json_t *got = jsonio_parse_filtered(text, strlen(text), NULL);

		ck_assert_msg(want != NULL, "%s: %s", text, jerr.text);
		ck_assert_msg(json_equal(want, got), "differs: %s", text);
		json_decref(want);
		json_decref(got);
		free(text);
		free(path);
	}
}
END_TEST

START_TEST(test_jsonio_filter_keeps_named_keys)
{
	static const struct jsonio_filter c[] = { { "resources" }, { NULL } };
	static const struct jsonio_filter spec[] = { { "containers", c }, { NULL } };
	static const struct jsonio_filter doc[] = {
		{ "kind" }, { "spec", spec }, { "items", doc }, { NULL }
	};
	const char *text = "{\"kind\":\"List\",\"x\":{\"y\":[1,{\"z\":\"\\u00e9\"}]},\"items\":["
			   "{\"kind\":\"Pod\",\"spec\":{\"containers\":[{\"name\":\"a\","
			   "\"resources\":{\"r\":\"1\"},\"env\":[]}],\"volumes\":[]}},3]}";
	json_t *got = jsonio_parse_filtered(text, strlen(text), doc);
	char *s = json_dumps(got, JSON_COMPACT);

	ck_assert_str_eq(s, "{\"kind\":\"List\",\"items\":[{\"kind\":\"Pod\",\"spec\":"
			    "{\"containers\":[{\"resources\":{\"r\":\"1\"}}]}},3]}");
	free(s);
	json_decref(got);
}
END_TEST

/* The each hook: a long array's elements one at a time, never the array. */
static int each_seen(const json_t *elem, size_t index, void *arg)
{
	char *seen = arg, *s = json_dumps(elem, JSON_COMPACT | JSON_ENCODE_ANY);

	snprintf(seen + strlen(seen), 256 - strlen(seen), "%zu=%s;", index, s);
	free(s);
	return 0;
}

START_TEST(test_jsonio_filter_each_streams_an_array)
{
	static const struct jsonio_filter item[] = { { "id" }, { NULL } };
	static const struct jsonio_filter wrap[] = { { "c", item, each_seen }, { NULL } };
	static const struct jsonio_filter doc[] = { { "w", wrap }, { NULL } };
	const char *text = "{\"w\":{\"c\":[{\"id\":1,\"x\":2},7,{\"id\":\"z\"}],\"d\":0}}";
	char seen[256] = "";
	json_t *got = jsonio_parse_filtered_each(text, strlen(text), doc, seen);
	char *s = json_dumps(got, JSON_COMPACT);

	ck_assert_str_eq(seen, "0={\"id\":1};1=7;2={\"id\":\"z\"};");
	ck_assert_str_eq(s, "{\"w\":{\"c\":[]}}");
	free(s);
	json_decref(got);
	/* an object where the array was: built as usual, no hook */
	seen[0] = '\0';
	got = jsonio_parse_filtered_each("{\"w\":{\"c\":{\"id\":3}}}", 20, doc, seen);
	s = json_dumps(got, JSON_COMPACT);
	ck_assert_str_eq(seen, "");
	ck_assert_str_eq(s, "{\"w\":{\"c\":{\"id\":3}}}");
	free(s);
	json_decref(got);
	/* an element that is an array: checked, handed over as null, never
	 * built ([[0,0,...]] was built whole) */
	seen[0] = '\0';
	text = "{\"w\":{\"c\":[[0,[1,2],3],{\"id\":4}]}}";
	got = jsonio_parse_filtered_each(text, strlen(text), doc, seen);
	ck_assert_str_eq(seen, "0=null;1={\"id\":4};");
	json_decref(got);
	/* invalid after the hook ran: no document */
	ck_assert_ptr_null(jsonio_parse_filtered_each("{\"w\":{\"c\":[1,2,}}", 17, doc, seen));
}
END_TEST

/* "*" keeps the other members' keys with null values, never building
 * them (a caller refuses members it does not know). */
START_TEST(test_jsonio_filter_star_keeps_other_keys_as_null)
{
	static const struct jsonio_filter wrap[] = { { "c" }, { "*" }, { NULL } };
	static const struct jsonio_filter doc[] = { { "w", wrap }, { NULL } };
	const char *text = "{\"w\":{\"c\":[1],\"cz\":[{\"big\":\"xxxx\"}],\"d\":{}},\"z\":1}";
	json_t *got = jsonio_parse_filtered(text, strlen(text), doc);
	char *s = json_dumps(got, JSON_COMPACT);

	ck_assert_str_eq(s, "{\"w\":{\"c\":[1],\"cz\":null}}"); /* the first only */
	free(s);
	json_decref(got);
	/* a key "*" in the text is one more unnamed key, its value not built */
	text = "{\"w\":{\"*\":[0,0,0],\"c\":2}}";
	got = jsonio_parse_filtered(text, strlen(text), doc);
	s = json_dumps(got, JSON_COMPACT);
	ck_assert_str_eq(s, "{\"w\":{\"*\":null,\"c\":2}}");
	free(s);
	json_decref(got);
	/* a duplicate of a kept key is still refused */
	ck_assert_ptr_null(jsonio_parse_filtered("{\"w\":{\"c\":1,\"c\":2}}", 21, doc));
}
END_TEST

START_TEST(test_jsonio_filter_errors_as_jansson)
{
	static const struct jsonio_filter keep[] = { { "kind" }, { NULL } };
	const char *text = "{\"kind\":\"Pod\"}\n{\"kind\":\"Pod\",\n \"x\": [1,}\n";
	FILE *f = mem(text);
	struct jsonio_reader *r = jsonio_reader_new(f, "stdin");
	struct err e = { 0 }, e2 = { 0 };
	json_t *doc = NULL;

	jsonio_reader_filter(r, keep);
	ck_assert_int_eq(jsonio_read(r, &doc, &e), 1);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "kind")), "Pod");
	ck_assert_int_eq(json_object_size(doc), 1);
	json_decref(doc);
	ck_assert_int_eq(jsonio_read(r, &doc, &e), -1);
	jsonio_reader_free(r);
	fclose(f);
	f = mem(text);
	r = jsonio_reader_new(f, "stdin");
	ck_assert_int_eq(jsonio_read(r, &doc, &e2), 1);
	json_decref(doc);
	ck_assert_int_eq(jsonio_read(r, &doc, &e2), -1);
	ck_assert_str_eq(e.msg, e2.msg);
	ck_assert_msg(strncmp(e.msg, "stdin:3:", 8) == 0, "%s", e.msg);
	jsonio_reader_free(r);
	fclose(f);
}
END_TEST

static Suite *jsonio_suite(void)
{
	Suite *s = suite_create("jsonio");
	TCase *tc = tcase_create("stream");

	tcase_add_test(tc, test_jsonio_stream_of_documents);
	tcase_add_loop_test(tc, test_jsonio_bad_streams, 0,
			    sizeof(bad_streams) / sizeof(bad_streams[0]));
	tcase_add_test(tc, test_jsonio_error_position_after_first_line);
	tcase_add_test(tc, test_jsonio_large_stream_crosses_chunks);
	tcase_add_test(tc, test_jsonio_collect_kinds);
	tcase_add_test(tc, test_jsonio_collect_wrong_api_version);
	tcase_add_test(tc, test_jsonio_getters);
	tcase_add_test(tc, test_jsonio_write_compact_and_pretty);
	tcase_add_test(tc, test_jsonio_write_items);
	tcase_add_test(tc, test_jsonio_write_items_none_and_failing);
	tcase_add_test(tc, test_jsonio_record);
	tcase_add_test(tc, test_jsonio_string);
	tcase_add_test(tc, test_jsonio_parse_string);
	tcase_add_loop_test(tc, test_jsonio_filter_refuses_what_jansson_refuses, 0,
			    sizeof(filter_bad) / sizeof(filter_bad[0]));
	tcase_add_test(tc, test_jsonio_filter_builds_what_jansson_builds);
	tcase_add_test(tc, test_jsonio_filter_keeps_named_keys);
	tcase_add_test(tc, test_jsonio_filter_errors_as_jansson);
	tcase_add_test(tc, test_jsonio_filter_each_streams_an_array);
	tcase_add_test(tc, test_jsonio_filter_star_keeps_other_keys_as_null);
	tcase_add_loop_test(tc, test_jsonio_fast_path_cases, 0,
			    (int)(sizeof(fast_cases) / sizeof(fast_cases[0])));
	tcase_add_test(tc, test_jsonio_fast_path_mutations);
	tcase_add_test(tc, test_jsonio_dump_fast);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(jsonio_suite)
