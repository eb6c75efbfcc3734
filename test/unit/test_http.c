// SPDX-License-Identifier: Apache-2.0
/* test_http - request building and response parsing, without a socket */
#include <stdlib.h>
#include <string.h>

#include "remote/http.h"
#include "testlib.h"

START_TEST(test_http_url_join)
{
	static const struct {
		const char *base, *path, *url;
	} cases[] = {
		{ "http://rm1:8088", "/ws/v1/cluster/info", "http://rm1:8088/ws/v1/cluster/info" },
		{ "http://rm1:8088/", "/ws/v1/cluster/info", "http://rm1:8088/ws/v1/cluster/info" },
		{ "http://rm1:8088//", "ws/v1", "http://rm1:8088/ws/v1" },
		{ "https://h/k8s/clusters/c1", "/api/v1/nodes",
		  "https://h/k8s/clusters/c1/api/v1/nodes" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct http_request r;

		http_request_init(&r, HTTP_GET, cases[i].base, cases[i].path);
		ck_assert_str_eq(r.url, cases[i].url);
		ck_assert_ptr_null(r.body);
		http_request_release(&r);
	}
}
END_TEST

START_TEST(test_http_query_and_escape)
{
	struct http_request r;
	char *seg = http_escape("h2:1235/x y@z", 1);
	char *q = http_escape("a:b/c d&e=f~", 0);

	ck_assert_str_eq(seg, "h2:1235%2Fx%20y@z");
	ck_assert_str_eq(q, "a%3Ab%2Fc%20d%26e%3Df~");
	http_request_init(&r, HTTP_GET, "http://k:6443", "/api/v1/pods");
	http_request_add_query(&r, "fieldSelector", "spec.nodeName=n1");
	http_request_add_query(&r, "limit", "500");
	http_request_add_query(&r, "user.name", "yarn");
	ck_assert_str_eq(r.url, "http://k:6443/api/v1/pods?fieldSelector=spec.nodeName%3Dn1"
				"&limit=500&user.name=yarn");
	http_request_release(&r);
	free(seg);
	free(q);
}
END_TEST

START_TEST(test_http_json_body)
{
	json_t *doc = json_pack("{s:{s:I,s:i},s:i}", "resource", "memory", (json_int_t)2048,
				"vCores", 3, "overCommitTimeout", -1);
	struct http_request r;

	http_request_init(&r, HTTP_POST, "http://rm", "/x");
	http_request_set_json(&r, NULL, doc);
	ck_assert_str_eq(r.body,
			 "{\"resource\":{\"memory\":2048,\"vCores\":3},\"overCommitTimeout\":-1}");
	ck_assert_uint_eq(r.body_len, strlen(r.body));
	ck_assert_str_eq(r.content_type, "application/json");
	http_request_set_json(&r, "application/merge-patch+json", doc);
	ck_assert_str_eq(r.content_type, "application/merge-patch+json");
	http_request_release(&r);
	json_decref(doc);
}
END_TEST

/* Join the header lines with '|' for one comparison. */
static char *joined(char **h)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	for (char **p = h; *p; p++)
		fprintf(m, "%s%s", p == h ? "" : "|", *p);
	fclose(m);
	return out;
}

START_TEST(test_http_headers)
{
	struct http_client c = { .bearer_token = "s3cr3t-token" };
	struct http_request r;
	char **h;
	char *s;

	http_request_init(&r, HTTP_PATCH, "https://k", "/api/v1/nodes/n1");
	http_request_set_body(&r, "application/merge-patch+json", "{}", 2);
	h = http_request_headers(&c, &r, 1);
	s = joined(h);
	ck_assert_str_eq(s, "User-Agent: kilo/" KILO_VERSION "|Accept: application/json"
			    "|Authorization: Bearer s3cr3t-token"
			    "|Content-Type: application/merge-patch+json|Expect:");
	free(s);
	http_headers_free(h);

	/* A redirect to another origin: no token. */
	h = http_request_headers(&c, &r, 0);
	s = joined(h);
	ck_assert_ptr_null(strstr(s, "s3cr3t"));
	free(s);
	http_headers_free(h);
	http_request_release(&r);

	/* No token configured, no body, a chosen Accept. */
	c.bearer_token = NULL;
	http_request_init(&r, HTTP_GET, "http://rm", "/");
	r.accept = "text/plain";
	h = http_request_headers(&c, &r, 1);
	s = joined(h);
	ck_assert_str_eq(s, "User-Agent: kilo/" KILO_VERSION "|Accept: text/plain|Expect:");
	free(s);
	http_headers_free(h);
	http_request_release(&r);
}
END_TEST

START_TEST(test_http_redact_and_origin)
{
	char *u = http_redact_url("https://admin:pw@rm1:8090/ws/v1?user.name=a@b");

	ck_assert_str_eq(u, "https://rm1:8090/ws/v1?user.name=a@b");
	free(u);
	u = http_redact_url("http://rm1:8088/x@y");
	ck_assert_str_eq(u, "http://rm1:8088/x@y");
	free(u);
	/* a password with '/', '?' or '#' in it (not URL-escaped) is still redacted */
	u = http_redact_url("http://kilo:MARK/ER@127.0.0.1:8088/ws");
	ck_assert_str_eq(u, "http://127.0.0.1:8088/ws");
	free(u);
	u = http_redact_url("http://kilo:a?b@rm1:8088");
	ck_assert_str_eq(u, "http://rm1:8088");
	free(u);
	ck_assert_int_eq(http_same_origin("http://RM1:8088/a", "http://rm1:8088/b?c"), 1);
	ck_assert_int_eq(http_same_origin("http://rm1:8088/a", "http://rm2:8088/a"), 0);
	ck_assert_int_eq(http_same_origin("http://rm1:8088/a", "https://rm1:8088/a"), 0);
	ck_assert_int_eq(http_same_origin("http://rm1:8088", "http://rm1:80880"), 0);
}
END_TEST

static void feed(struct http_response *r, const char *line)
{
	/* 2026-11-29T16:00:00Z */
	http_response_header(r, line, strlen(line), 1795968000000LL);
}

START_TEST(test_http_response_headers)
{
	struct http_response r = { 0 };

	http_response_release(&r);
	feed(&r, "HTTP/1.1 307 Temporary Redirect\r\n");
	feed(&r, "Location: http://rm2:8088/ws/v1/cluster/nodes\r\n");
	feed(&r, "Content-Type: text/plain;charset=utf-8\r\n");
	feed(&r, "Retry-After: 120\r\n");
	ck_assert_int_eq(r.status, 307);
	ck_assert_str_eq(r.location, "http://rm2:8088/ws/v1/cluster/nodes");
	ck_assert_str_eq(r.content_type, "text/plain");
	ck_assert_int_eq(r.retry_after_ms, 120000);
	ck_assert_int_eq(http_response_is_json(&r), 0);

	/* A second response (after a redirect) starts afresh. */
	feed(&r, "HTTP/1.1 200 OK\r\n");
	ck_assert_ptr_null(r.location);
	ck_assert_ptr_null(r.content_type);
	ck_assert_int_eq(r.retry_after_ms, -1);
	feed(&r, "content-type:  Application/JSON ; charset=UTF-8\r\n");
	feed(&r, "X-Other: 1\r\n");
	feed(&r, "\r\n");
	ck_assert_int_eq(r.status, 200);
	ck_assert_str_eq(r.content_type, "application/json");
	ck_assert_int_eq(http_response_is_json(&r), 1);
	feed(&r, "HTTP/2 429\r\n");
	feed(&r, "Retry-After: Sun, 29 Nov 2026 16:00:30 GMT\r\n");
	ck_assert_int_eq(r.status, 429);
	ck_assert_int_eq(r.retry_after_ms, 30000);
	feed(&r, "Content-Type: application/merge-patch+json\r\n");
	ck_assert_int_eq(http_response_is_json(&r), 1);
	/* Found by fuzz_http: the status line was read past len (curl's buffer
	 * is not NUL-terminated). */
	http_response_header(&r, "HTTP/1.1 2009999", 12, 0);
	ck_assert_int_eq(r.status, 200);
	http_response_header(&r, "HTTP/1.1 ", 9, 0);
	ck_assert_int_eq(r.status, 0);
	http_response_release(&r);
}
END_TEST

static const struct {
	const char *value;
	int ret;
	int64_t ms;
} retry_cases[] = {
	{ "0", 0, 0 },
	{ " 5", 0, 5000 },
	{ "Sun, 29 Nov 2026 16:01:00 GMT", 0, 60000 },
	{ "Sun, 29 Nov 2026 15:00:00 GMT", 0, 0 },
	{ "5s", -1, 0 },
	{ "-1", -1, 0 },
	{ "tomorrow", -1, 0 },
	{ "99999999999999999999", -1, 0 },
};

START_TEST(test_http_retry_after)
{
	int64_t ms = 0;

	ck_assert_int_eq(http_parse_retry_after(retry_cases[_i].value, 1795968000000LL, &ms),
			 retry_cases[_i].ret);
	if (retry_cases[_i].ret == 0)
		ck_assert_int_eq(ms, retry_cases[_i].ms);
}
END_TEST

static const struct {
	long status;
	enum err_kind kind;
} status_cases[] = {
	{ 200, ERR_NONE },   { 201, ERR_NONE },   { 204, ERR_NONE },   { 307, ERR_REMOTE },
	{ 400, ERR_REMOTE }, { 401, ERR_REMOTE }, { 403, ERR_REMOTE }, { 404, ERR_NOTFOUND },
	{ 405, ERR_REMOTE }, { 409, ERR_REMOTE }, { 429, ERR_TEMP },   { 500, ERR_TEMP },
	{ 503, ERR_TEMP },
};

START_TEST(test_http_status_kind)
{
	ck_assert_int_eq(http_status_kind(status_cases[_i].status), status_cases[_i].kind);
}
END_TEST

static void set_body(struct http_response *r, const char *ct, const char *body)
{
	http_response_release(r);
	r->content_type = ct ? strdup(ct) : NULL;
	r->body = strdup(body);
	r->body_len = strlen(body);
}

START_TEST(test_http_response_json)
{
	struct http_response r = { 0 };
	struct err e = { 0 };
	char *path = testlib_fixture("yarn");
	char *text = testlib_read(path, "rm-cluster-info.json");
	json_t *doc;

	set_body(&r, "application/json", text);
	doc = http_response_json(&r, &e);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(
		json_string_value(json_object_get(json_object_get(doc, "clusterInfo"), "haState")),
		"ACTIVE");
	json_decref(doc);

	set_body(&r, "text/plain", "There is no active RM right now.\n");
	ck_assert_ptr_null(http_response_json(&r, &e));
	ck_assert_int_eq(e.kind, ERR_REMOTE);
	ck_assert_str_eq(e.msg, "expected a JSON answer, got text/plain: "
				"'There is no active RM right now.'");

	set_body(&r, "application/json", "[1]");
	ck_assert_ptr_null(http_response_json(&r, &e));
	ck_assert_str_eq(e.msg, "invalid JSON answer (not an object): '[1]'");

	set_body(&r, "application/json", "{\"a\":");
	ck_assert_ptr_null(http_response_json(&r, &e));
	ck_assert_int_eq(e.kind, ERR_REMOTE);

	set_body(&r, "text/html",
		 "<html>\n<head><title>Error 404 Not Found</title></head>\n<body><h2>HTTP ERROR "
		 "404</h2></body></html>");
	r.status = 404;
	ck_assert_int_eq(http_status_err(&r, "POST /ws/v1/cluster/nodes/n1:1/resource", &e), -1);
	ck_assert_int_eq(e.kind, ERR_NOTFOUND);
	ck_assert_str_eq(e.msg, "POST /ws/v1/cluster/nodes/n1:1/resource: HTTP 404: "
				"Error 404 Not Found HTTP ERROR 404");
	r.status = 204;
	ck_assert_int_eq(http_status_err(&r, "x", &e), 0);
	http_response_release(&r);
	free(path);
	free(text);
}
END_TEST

START_TEST(test_http_perform_transport_error)
{
	struct http_client c = { .connect_timeout_ms = 2000, .bearer_token = "tok-do-not-show" };
	struct http_response resp = { 0 };
	struct http_request r;
	struct err e = { 0 };

	ck_assert_int_eq(http_global_init(&e), 0);
	/* Port 1 on loopback: nothing listens there. */
	http_request_init(&r, HTTP_GET, "http://user:pw@127.0.0.1:1", "/ws/v1/cluster/info");
	ck_assert_int_eq(http_perform(&c, &r, &resp, &e), -1);
	ck_assert_int_eq(e.kind, ERR_TEMP);
	ck_assert_msg(strncmp(e.msg, "GET http://127.0.0.1:1/ws/v1/cluster/info: ", 43) == 0, "%s",
		      e.msg);
	ck_assert_ptr_null(strstr(e.msg, "pw"));
	ck_assert_ptr_null(strstr(e.msg, "tok-do-not-show"));
	http_request_release(&r);

	http_request_init(&r, HTTP_GET, "ftp://127.0.0.1:1", "/");
	ck_assert_int_eq(http_perform(&c, &r, &resp, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	http_request_release(&r);
	http_global_cleanup();
}
END_TEST

/* The userinfo of a URL in every form a server may echo: as written,
 * decoded, the password alone, and the Basic header's base64 (RFC 7617's
 * example: Aladdin:open sesame). */
START_TEST(test_http_url_secrets_add_basic)
{
	static const char *const msgs[] = {
		"Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== refused",
		"user Aladdin:open%20sesame",
		"user Aladdin:open sesame",
		"password open sesame",
		"Basic QWxhZGRpbjpvcGVuJTIwc2VzYW1l refused",
	};

	err_secret_clear();
	http_url_secrets_add("http://Aladdin:open%20sesame@rm:8088/");
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		char *r = err_redact_all(msgs[i]);

		ck_assert_msg(r && strstr(r, "[redacted]") && !strstr(r, "sesame") &&
				      !strstr(r, "QWxh"),
			      "%s -> %s", msgs[i], r ? r : "(not redacted)");
		free(r);
	}
	/* a token as the userinfo: curl sends Basic base64("MARKERTOK01:") */
	http_url_secrets_add("http://MARKERTOK01@rm:8088/");
	{
		char *r = err_redact_all("Basic TUFSS0VSVE9LMDE6 refused");

		ck_assert_msg(r && !strstr(r, "TUFS"), "%s", r ? r : "(not redacted)");
		free(r);
	}
	/* a ':' only once decoded: curl splits first, so the user is "abcd:efghi"
	 * and the password empty: Basic base64("abcd:efghi:") */
	http_url_secrets_add("http://abcd%3Aefghi@rm:8088/");
	{
		char *r = err_redact_all("Basic YWJjZDplZmdoaTo= refused");

		ck_assert_msg(r && !strstr(r, "YWJj"), "%s", r ? r : "(not redacted)");
		free(r);
	}
	http_url_secrets_add("http://rm:8088/"); /* no userinfo: nothing */
	http_url_secrets_add(NULL);
	err_secret_clear();
}
END_TEST

static Suite *http_suite(void)
{
	Suite *s = suite_create("http");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc, test_http_url_join);
	tcase_add_test(tc, test_http_query_and_escape);
	tcase_add_test(tc, test_http_json_body);
	tcase_add_test(tc, test_http_headers);
	tcase_add_test(tc, test_http_redact_and_origin);
	suite_add_tcase(s, tc);
	tc = tcase_create("parse");
	tcase_add_test(tc, test_http_response_headers);
	tcase_add_loop_test(tc, test_http_retry_after, 0,
			    sizeof(retry_cases) / sizeof(retry_cases[0]));
	tcase_add_loop_test(tc, test_http_status_kind, 0,
			    sizeof(status_cases) / sizeof(status_cases[0]));
	tcase_add_test(tc, test_http_response_json);
	suite_add_tcase(s, tc);
	tc = tcase_create("perform");
	tcase_add_test(tc, test_http_perform_transport_error);
	tcase_add_test(tc, test_http_url_secrets_add_basic);
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(http_suite)
