// SPDX-License-Identifier: Apache-2.0
/* test_config - YAML/JSON loading, core-schema scalars, positions, getters */
#include <string.h>

#include "core/config.h"
#include "testlib.h"

START_TEST(test_config_core_schema_scalars)
{
	struct config c;
	struct err e = { 0 };
	const char *y = "a: 70\n"
			"b: -3\n"
			"c: 0x1f\n"
			"d: 0o17\n"
			"e: 1.5\n"
			"f: 1e3\n"
			"g: true\n"
			"h: False\n"
			"i: ~\n"
			"j: null\n"
			"k: yes\n"
			"l: \"70\"\n"
			"m: '1.5'\n"
			"n: !!str 12\n"
			"o: 70%\n"
			"p: [1, two, {q: 3}]\n"
			"r:\n";
	json_t *r;

	ck_assert_int_eq(config_load_string(&c, y, "p.yaml", &e), 0);
	r = c.root;
	ck_assert_int_eq(json_integer_value(json_object_get(r, "a")), 70);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "b")), -3);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "c")), 31);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "d")), 15);
	ck_assert(json_real_value(json_object_get(r, "e")) == 1.5);
	ck_assert(json_real_value(json_object_get(r, "f")) == 1000.0);
	ck_assert(json_is_true(json_object_get(r, "g")));
	ck_assert(json_is_false(json_object_get(r, "h")));
	ck_assert(json_is_null(json_object_get(r, "i")));
	ck_assert(json_is_null(json_object_get(r, "j")));
	ck_assert_str_eq(json_string_value(json_object_get(r, "k")), "yes"); /* YAML 1.2 */
	ck_assert_str_eq(json_string_value(json_object_get(r, "l")), "70");
	ck_assert_str_eq(json_string_value(json_object_get(r, "m")), "1.5");
	ck_assert_str_eq(json_string_value(json_object_get(r, "n")), "12");
	ck_assert_str_eq(json_string_value(json_object_get(r, "o")), "70%");
	ck_assert_int_eq(json_array_size(json_object_get(r, "p")), 3);
	ck_assert(json_is_null(json_object_get(r, "r")));
	config_release(&c);
}
END_TEST

START_TEST(test_config_json_is_yaml)
{
	struct config c;
	struct err e = { 0 };

	ck_assert_int_eq(config_load_string(&c, "{\"spec\": {\"x\": [1, 2.5, \"s\", null]}}",
					    "p.json", &e),
			 0);
	ck_assert_int_eq(json_array_size(json_object_get(json_object_get(c.root, "spec"), "x")), 4);
	config_release(&c);
}
END_TEST

START_TEST(test_config_anchors_resolved)
{
	struct config c;
	struct err e = { 0 };
	const char *y = "base: &b {wmarkRatio: 95}\nbeClass: *b\n";

	ck_assert_int_eq(config_load_string(&c, y, "p.yaml", &e), 0);
	ck_assert_int_eq(json_integer_value(
				 json_object_get(json_object_get(c.root, "beClass"), "wmarkRatio")),
			 95);
	config_release(&c);
}
END_TEST

static const struct {
	const char *in;
	const char *msg;
} bad[] = {
	{ "a: 1\na: 2\n", "p.yaml:2:1: duplicate key 'a'" },
	{ "a: [1, 2\n",
	  "p.yaml:2:1: did not find expected ',' or ']' while parsing a flow sequence" },
	{ "base: &b {x: 1}\n<<: *b\n", "p.yaml:2:1: merge keys '<<' are not supported" },
	{ "a: *nope\n", "p.yaml:1:4: a: unknown alias '*nope'" },
	{ "a: 1\n---\nb: 2\n", "p.yaml:2:1: expected one YAML document, found several" },
	{ "- 1\n- 2\n", "p.yaml:1:1: expected a mapping at the top level" },
	{ "a: .inf\n", "p.yaml:1:4: a: .inf is not representable in JSON" },
	{ "a: 99999999999999999999\n",
	  "p.yaml:1:4: a: integer out of range: 99999999999999999999" },
	{ "a: !!binary aGk=\n", "p.yaml:1:4: a: unsupported tag 'tag:yaml.org,2002:binary'" },
	{ "? [1]\n: 2\n", "p.yaml:1:3: mapping keys must be plain scalars" },
	{ "a: \"x\n", "p.yaml:2:1: found unexpected end of stream while scanning a quoted scalar" },
	/* a small file must not build an unbounded tree: aliases and nesting */
	{ "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
	  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
	  "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
	  "p.yaml:6:8: f[0]: more than 200000 values (aliases included)" },
	{ "k: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]"
	  "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
	  "p.yaml:1:67: k[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
	  "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
	  "[0][0][0][0][0]: nested deeper than 64 levels" },
	{ "kilo:\n  margin: 1e400\n", "p.yaml:2:11: kilo.margin: number out of range: 1e400" },
};

START_TEST(test_config_errors_have_positions)
{
	struct config c;
	struct err e = { 0 };

	ck_assert_int_eq(config_load_string(&c, bad[_i].in, "p.yaml", &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, bad[_i].msg);
	config_release(&c);
}
END_TEST

START_TEST(test_config_getters_name_field_and_position)
{
	struct config c;
	struct err e = { 0 };
	const char *y = "resourceUsedThresholdWithBE:\n"
			"  memoryEvictThresholdPercent: \"70%\"\n"
			"  cpuSuppressThresholdPercent: 65\n"
			"  cpuSuppressPolicy: quota\n"
			"  enable: true\n";
	const char *const policies[] = { "cpuset", "cfsQuota", NULL };
	json_t *t = NULL;
	int64_t v = 0;
	int b = 0, p = -1;

	ck_assert_int_eq(config_load_string(&c, y, "slo.yaml", &e), 0);
	ck_assert_int_eq(config_obj(&c, c.root, "", "resourceUsedThresholdWithBE", &t, &e), 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(config_int(&c, t, "resourceUsedThresholdWithBE",
				    "memoryEvictThresholdPercent", 70, 0, 100, &v, &e),
			 -1);
	ck_assert_str_eq(e.msg,
			 "slo.yaml:2:32: resourceUsedThresholdWithBE."
			 "memoryEvictThresholdPercent: expected an integer 0..100, got \"70%\"");
	ck_assert_int_eq(config_int(&c, t, "resourceUsedThresholdWithBE",
				    "cpuSuppressThresholdPercent", 0, 0, 100, &v, &e),
			 0);
	ck_assert_int_eq(v, 65);
	ck_assert_int_eq(config_int(&c, t, "x", "missing", 42, 0, 100, &v, &e), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(config_int(&c, NULL, "x", "missing", 7, 0, 100, &v, &e), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(config_bool(&c, t, "r", "enable", 0, &b, &e), 0);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(config_enum(&c, t, "resourceUsedThresholdWithBE", "cpuSuppressPolicy",
				     policies, 0, &p, &e),
			 -1);
	ck_assert_str_eq(e.msg, "slo.yaml:4:22: resourceUsedThresholdWithBE.cpuSuppressPolicy: "
				"expected one of \"cpuset\", \"cfsQuota\", got \"quota\"");
	config_release(&c);
}
END_TEST

/* config_reject: at the key's position, the file alone when the key is absent */
START_TEST(test_config_reject_names_position)
{
	struct config c;
	struct err e = { 0 };
	const char *y = "clusters:\n"
			"  - id: a\n"
			"    timeoutMs: 5\n";
	json_t *cl;

	ck_assert_int_eq(config_load_string(&c, y, "sync.yaml", &e), 0);
	cl = json_array_get(json_object_get(c.root, "clusters"), 0);
	ck_assert_int_eq(config_reject(&c, cl, "clusters[0]", "timeoutMs", "at least 10", &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg,
			 "sync.yaml:3:16: clusters[0].timeoutMs: expected at least 10, got 5");
	ck_assert_int_eq(config_reject(&c, cl, "clusters[0]", "rmUrls", "a list", &e), -1);
	ck_assert_str_eq(e.msg, "sync.yaml: clusters[0].rmUrls: expected a list, got nothing");
	ck_assert_int_eq(config_reject(NULL, cl, "clusters[0]", "id", "b", &e), -1);
	ck_assert_str_eq(e.msg, "clusters[0].id: expected b, got \"a\"");
	config_release(&c);
}
END_TEST

START_TEST(test_config_distance)
{
	char k64[65], k65[66];

	ck_assert_int_eq(config_distance("", ""), 0);
	ck_assert_int_eq(config_distance("rmUrls", "rmUrls"), 0);
	ck_assert_int_eq(config_distance("rmurls", "rmUrls"), 0); /* case */
	ck_assert_int_eq(config_distance("RMURLS", "rmUrls"), 0);
	ck_assert_int_eq(config_distance("rmUrl", "rmUrls"), 1);   /* deletion */
	ck_assert_int_eq(config_distance("rmUrlss", "rmUrls"), 1); /* insertion */
	ck_assert_int_eq(config_distance("rmUris", "rmUrls"), 1);  /* substitution */
	ck_assert_int_eq(config_distance("rmUlrs", "rmUrls"), 1);  /* swap */
	ck_assert_int_eq(
		config_distance("memoryEvictThresholdPrecent", "memoryEvictThresholdPercent"), 1);
	ck_assert_int_eq(config_distance("ca", "abc"), 3); /* OSA, not Damerau's 2 */
	ck_assert_int_eq(config_distance("", "abc"), 3);
	ck_assert_int_eq(config_distance("abc", ""), 3);
	ck_assert_int_eq(config_distance("kitten", "sitting"), 3);
	ck_assert_int_eq(config_distance("cl\xc3\xbcsters", "clusters"), 2); /* bytes */
	memset(k64, 'k', 64);
	k64[64] = '\0';
	memset(k65, 'k', 65);
	k65[65] = '\0';
	ck_assert_int_eq(config_distance(k64, k64), 0);
	ck_assert_int_eq(config_distance(k64, ""), 64);
	ck_assert_int_eq(config_distance(k65, k65), -1);
	ck_assert_int_eq(config_distance("k", k65), -1);
}
END_TEST

/* Strict: the first unknown key in file order fails at the key's position
 * (also when its value is null, a value shared by every null); lenient:
 * near keys fail, the others are warnings, listed ones pass silently. */
START_TEST(test_config_fields)
{
	struct config c;
	struct err e = { 0 };
	const char *const known[] = { "enable", "cpuSuppressThresholdPercent", "id", NULL };
	const char *const ignored[] = { "cpuBurstStrategy", NULL };
	json_t *w = json_array();

	ck_assert_int_eq(config_load_string(&c,
					    "enable: true\ncpuBurstStrategy: {}\n"
					    "a: {x: 1}\nab: 1\ncpuSupressThreshold: 1\n",
					    "p.yaml", &e),
			 0);
	ck_assert_int_eq(config_fields(&c, c.root, "spec", known, ignored, CONFIG_LENIENT, w, &e),
			 0);
	ck_assert_int_eq(json_array_size(w), 3);
	ck_assert_str_eq(json_string_value(json_array_get(w, 0)), "spec.a");
	ck_assert_str_eq(json_string_value(json_array_get(w, 1)), "spec.ab"); /* not near "id" */
	ck_assert_str_eq(json_string_value(json_array_get(w, 2)), "spec.cpuSupressThreshold");
	ck_assert_int_eq(config_fields(&c, c.root, "spec", known, ignored, CONFIG_STRICT, NULL, &e),
			 -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_str_eq(e.msg, "p.yaml:3:1: spec.a: unknown field");
	/* not an object, or NULL: nothing to check */
	ck_assert_int_eq(config_fields(&c, NULL, "x", known, NULL, CONFIG_STRICT, NULL, &e), 0);
	config_release(&c);

	ck_assert_int_eq(config_load_string(&c,
					    "x:\n  enable: 1\n  cpuBurstStrategi:\n"
					    "  Enable:\n",
					    "p.yaml", &e),
			 0);
	/* a typo of an ignored field is a typo too */
	ck_assert_int_eq(config_fields(&c, json_object_get(c.root, "x"), "x", known, ignored,
				       CONFIG_LENIENT, NULL, &e),
			 -1);
	ck_assert_str_eq(e.msg, "p.yaml:3:3: x.cpuBurstStrategi: unknown field "
				"(did you mean cpuBurstStrategy?)");
	json_object_del(json_object_get(c.root, "x"), "cpuBurstStrategi");
	ck_assert_int_eq(config_fields(&c, json_object_get(c.root, "x"), "", known, ignored,
				       CONFIG_LENIENT, w, &e),
			 -1);
	ck_assert_str_eq(e.msg, "p.yaml:4:3: Enable: unknown field (did you mean enable?)");
	ck_assert_int_eq(json_array_size(w), 3);
	config_release(&c);

	/* two edits away is near, three is not (the bounded search stops early) */
	ck_assert_int_eq(config_load_string(&c, "xnablx: 1\nxxxble: 2\n", "p.yaml", &e), 0);
	ck_assert_int_eq(config_fields(&c, c.root, "", known, NULL, CONFIG_LENIENT, w, &e), -1);
	ck_assert_str_eq(e.msg, "p.yaml:1:1: xnablx: unknown field (did you mean enable?)");
	json_object_del(c.root, "xnablx");
	ck_assert_int_eq(config_fields(&c, c.root, "", known, NULL, CONFIG_LENIENT, w, &e), 0);
	ck_assert_str_eq(json_string_value(json_array_get(w, 3)), "xxxble");
	config_release(&c);
	json_decref(w);
}
END_TEST

START_TEST(test_config_where_key)
{
	struct config c;
	struct err e = { 0 };
	long line = 0, col = 0;

	ck_assert_int_eq(config_load_string(&c, "a: 1\nb:\n  c: ~\n  d: [x]\n", "p.yaml", &e), 0);
	ck_assert_int_eq(config_where_key(&c, c.root, "b", &line, &col), 0);
	ck_assert_int_eq(line, 2);
	ck_assert_int_eq(col, 1);
	ck_assert_int_eq(config_where_key(&c, json_object_get(c.root, "b"), "d", &line, &col), 0);
	ck_assert_int_eq(line, 4);
	ck_assert_int_eq(col, 3);
	ck_assert_int_eq(config_where_key(&c, c.root, "c", &line, &col), -1);
	ck_assert_int_eq(config_where_key(&c, c.root, "zz", &line, &col), -1);
	/* a value's position is still the value's, not its key's */
	ck_assert_int_eq(config_where(&c, json_object_get(c.root, "b"), &line, &col), 0);
	ck_assert_int_eq(line, 3);
	ck_assert_int_eq(col, 3);
	config_release(&c);
}
END_TEST

START_TEST(test_config_load_file)
{
	char *dir = testlib_tmpdir();
	char *path = NULL;
	struct config c;
	struct err e = { 0 };

	testlib_write(dir, "p.yaml", "kilo:\n  allowAM: false\n");
	ck_assert(asprintf(&path, "%s/p.yaml", dir) > 0);
	ck_assert_int_eq(config_load(&c, path, &e), 0);
	ck_assert(json_is_false(json_object_get(json_object_get(c.root, "kilo"), "allowAM")));
	config_release(&c);
	free(path);
	ck_assert(asprintf(&path, "%s/none.yaml", dir) > 0);
	ck_assert_int_eq(config_load(&c, path, &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE);
	config_release(&c);
	testlib_write(dir, "empty.yaml", "");
	free(path);
	ck_assert(asprintf(&path, "%s/empty.yaml", dir) > 0);
	ck_assert_int_eq(config_load(&c, path, &e), 0);
	ck_assert_int_eq(json_object_size(c.root), 0);
	config_release(&c);
	free(path);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("yaml");

	tcase_add_test(tc, test_config_core_schema_scalars);
	tcase_add_test(tc, test_config_json_is_yaml);
	tcase_add_test(tc, test_config_anchors_resolved);
	tcase_add_loop_test(tc, test_config_errors_have_positions, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_config_getters_name_field_and_position);
	tcase_add_test(tc, test_config_reject_names_position);
	tcase_add_test(tc, test_config_distance);
	tcase_add_test(tc, test_config_fields);
	tcase_add_test(tc, test_config_where_key);
	tcase_add_test(tc, test_config_load_file);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(config_suite)
