/* SPDX-License-Identifier: Apache-2.0 */
/* http - the one seam between kilo and remote APIs (Kubernetes, YARN).
 *
 * Every call is split in three (style-anchors 4.6):
 *   build    pure: http_request_init/_add_query/_set_body/_set_json and
 *            http_request_headers() make the method, URL, headers and body;
 *   perform  http_perform(), the only code that talks libcurl;
 *   parse    pure: http_response_header() (one header line at a time),
 *            http_response_json(), http_status_err().
 * so request building and response parsing are unit-tested without a socket.
 *
 * Redirects are followed only when the request asks (follow_redirects), and
 * only 307/308: the method and body are re-sent to the Location (the YARN
 * standby RM answers 307 to the active one).  The bearer token is sent to
 * the origin of the first URL only.  No token, password or URL userinfo ever
 * appears in an error message or a trace line.  With http_client.negotiate
 * the request authenticates with SPNEGO (remote/http_auth.h).
 */
#ifndef KILO_HTTP_H
#define KILO_HTTP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/jsonio.h"
#include "remote/http_auth.h"

#define HTTP_USER_AGENT "kilo/" KILO_VERSION
#define HTTP_CONNECT_TIMEOUT_MS 5000 /* when http_client.connect_timeout_ms is 0 */
#define HTTP_TIMEOUT_MS 30000        /* when neither request nor client set one */
#define HTTP_MAX_REDIRECTS 5         /* when http_request.max_redirects is 0 */
#define HTTP_MAX_BODY (256L << 20)   /* larger response bodies fail (ERR_REMOTE) */

enum http_method {
	HTTP_GET,
	HTTP_POST,
	HTTP_PUT,
	HTTP_PATCH,
	HTTP_DELETE,
};

/* TLS settings.  All strings are borrowed and must outlive http_perform().
 * A *_data member is PEM text in memory (e.g. a kubeconfig's base64-decoded
 * certificate-authority-data); when both file and data are set, data wins.
 * Without a CA the system store is used.  Peer and host verification are
 * off only when insecure_skip_verify is set. */
struct http_tls {
	const char *ca_file;
	const char *ca_data;
	const char *cert_file;
	const char *cert_data;
	const char *key_file;
	const char *key_data;
	int insecure_skip_verify;
};

/* One line per HTTP exchange, for --verbose/KILO_DEBUG logs:
 * "POST http://h:8088/ws/v1/cluster/nodes/n1:8041/resource -> 307 (3 ms)"
 * or "... -> error: <reason>".  The URL has its userinfo removed; headers
 * and bodies are never traced. */
typedef void http_trace_fn(void *arg, const char *line);

/* A reusable libcurl handle: requests made with the same pool keep their
 * connections (and TLS sessions) open between calls.  Single-threaded. */
struct http_pool;

/* Settings shared by the requests to one server.  Strings borrowed.  A
 * zeroed struct is valid: no TLS material, no token, default timeouts, a
 * fresh connection per http_perform(). */
struct http_client {
	struct http_tls tls;
	const char *bearer_token;   /* "Authorization: Bearer <token>", or NULL */
	int64_t connect_timeout_ms; /* 0: HTTP_CONNECT_TIMEOUT_MS */
	int64_t timeout_ms;         /* whole exchange; 0: HTTP_TIMEOUT_MS */
	http_trace_fn *trace;       /* optional */
	void *trace_arg;
	struct http_pool *pool; /* optional: keep connections between calls */
	int64_t max_body;       /* larger bodies fail, read no further; 0: HTTP_MAX_BODY */
	struct http_negotiate *negotiate; /* SPNEGO (Kerberos, remote/http_auth.h), or NULL */
};

/* A request, built by the functions below.  Owned strings are freed by
 * http_request_release().  Members may be changed directly after init. */
struct http_request {
	enum http_method method;
	char *url;  /* owned: base + path + "?" + query */
	char *body; /* owned, or NULL: no body */
	size_t body_len;
	char *content_type;   /* owned, set with the body */
	const char *accept;   /* borrowed; NULL: "application/json" */
	int64_t timeout_ms;   /* 0: the client's */
	int follow_redirects; /* follow 307/308, re-sending method and body */
	int max_redirects;    /* 0: HTTP_MAX_REDIRECTS */
};

/* The answer to one request (after any redirects followed). */
struct http_response {
	long status;        /* HTTP status code */
	char *content_type; /* owned: media type, lower case, no parameters
				 * ("application/json"), or NULL when absent */
	char *body;         /* owned, NUL-terminated (may hold NULs), never NULL
				 * after http_perform() succeeded */
	size_t body_len;
	char *location;         /* owned: Location header value, or NULL */
	int64_t retry_after_ms; /* Retry-After as a delay in ms, -1 when absent */
	char *url;              /* owned: URL that gave this answer */
	int redirects;          /* redirects followed */
	char *auth_error;       /* owned: with SPNEGO on, a 4xx's Kerberos reason
				 * (http_negotiate_why), or NULL */
};

/* ---- build (pure) ---- */

/* Start a request: url = base without trailing '/' + path (a '/' is put
 * between them when path lacks one).  base may carry a path prefix
 * ("https://h/k8s/clusters/c1").  path must already be escaped (see
 * http_escape).  Never fails (aborts on out of memory). */
void http_request_init(struct http_request *r, enum http_method method, const char *base,
		       const char *path);

/* Append "key=value" to the query string ('?' or '&' first), both
 * percent-encoded (RFC 3986 unreserved characters are kept). */
void http_request_add_query(struct http_request *r, const char *key, const char *value);

/* Set the body (copied, len bytes) and its Content-Type (copied), replacing
 * any earlier body.  content_type e.g. "application/merge-patch+json". */
void http_request_set_body(struct http_request *r, const char *content_type, const char *body,
			   size_t len);

/* Set the body to the compact JSON text of doc (keys in insertion order);
 * content_type NULL means "application/json". */
void http_request_set_json(struct http_request *r, const char *content_type, const json_t *doc);

/* Free what the request owns; the struct may be reused after init. */
void http_request_release(struct http_request *r);

/* Percent-encode s for a URL.  path_segment: also keep ':' and '@' (legal
 * in a path segment, e.g. YARN node ids "host:8041"); '/' is always
 * encoded.  Returns a new string. */
char *http_escape(const char *s, int path_segment);

/* The request header lines, in order: User-Agent (HTTP_USER_AGENT), Accept,
 * Authorization (when c has a token and with_token), Content-Type (with a
 * body), and "Expect:" (no 100-continue).  A new NULL-terminated array of
 * new strings; free with http_headers_free(). */
char **http_request_headers(const struct http_client *c, const struct http_request *r,
			    int with_token);

/* Free an array from http_request_headers() (NULL is allowed). */
void http_headers_free(char **headers);

/* url without "user:password@" (a new string), for messages and traces. */
char *http_redact_url(const char *url);

/* The userinfo of url ("user:password", the part http_redact_url() drops),
 * a new string, or NULL when it has none: a secret to keep out of messages. */
char *http_url_userinfo(const char *url);

/* Register the userinfo of url as secrets (err_secret_add): "user:password"
 * and the password alone, as written and %-decoded, and the base64 of
 * "user:password" that an Authorization: Basic header carries (a server
 * may echo any of them).  Nothing for a URL without userinfo. */
void http_url_secrets_add(const char *url);

/* 1 when a and b have the same scheme, host and port (case-insensitive). */
int http_same_origin(const char *a, const char *b);

/* "GET", "POST", ... */
const char *http_method_name(enum http_method m);

/* ---- perform (libcurl) ---- */

/* Once, from main() (and test setup).  libcurl itself is loaded (dlopen
 * libcurl.so.4) and curl_global_init'ed by the first http_perform(), so a
 * run that makes no request does not pay for loading it and its libraries.
 * Returns 0, or -1 with e set (ERR_SYSTEM). */
int http_global_init(struct err *e);

/* curl_global_cleanup when libcurl was loaded, at the end of main() (and
 * test teardown). */
void http_global_cleanup(void);

/* A new, empty pool for http_client.pool.  Never NULL (aborts on out of
 * memory); the caller frees it with http_pool_free(). */
struct http_pool *http_pool_new(void);

/* Close the pool's connections and free it; NULL is allowed. */
void http_pool_free(struct http_pool *pool);

/* Send req with client c and fill *resp (released first, so a response
 * struct can be reused; zero it before the first use).  Returns 0 when an
 * HTTP answer arrived, whatever its status: the caller decides with
 * http_status_err() or its own rules.  Returns -1 with e set when there is
 * no answer: ERR_TEMP (connect failure, timeout, reset, too many
 * redirects), ERR_INPUT (malformed URL, unreadable CA/cert/key), ERR_REMOTE
 * (TLS verification failed, body over HTTP_MAX_BODY).  Messages are
 * "<METHOD> <redacted url>: <reason>". */
int http_perform(const struct http_client *c, const struct http_request *req,
		 struct http_response *resp, struct err *e);

/* ---- parse (pure) ---- */

/* Feed one raw header line (with or without CRLF) of a response.  A status
 * line ("HTTP/1.1 307 ...") resets the header-derived members and sets
 * status; Content-Type, Location and Retry-After are recorded (now_ms is
 * the wall clock, for an HTTP-date Retry-After).  Other lines are ignored. */
void http_response_header(struct http_response *r, const char *line, size_t len, int64_t now_ms);

/* Retry-After value: delta-seconds or an IMF-fixdate (RFC 9110 10.2.3)
 * relative to now_ms; a date in the past gives 0.  Returns 0 and *ms, or -1
 * when v is neither. */
int http_parse_retry_after(const char *v, int64_t now_ms, int64_t *ms);

/* 1 when the content type is JSON: application/json or any "+json" type. */
int http_response_is_json(const struct http_response *r);

/* Parse the body as a JSON object.  Returns a new reference, or NULL with e
 * set (ERR_REMOTE) when the content type is not JSON or the body is not a
 * JSON object; the message quotes the start of the body. */
json_t *http_response_json(const struct http_response *r, struct err *e);

/* http_response_json() building only what keep names (jsonio_filter: a
 * large answer costs the fields read, not all of it), calling its each
 * hooks with arg (jsonio_parse_filtered_each).  Same errors. */
json_t *http_response_json_filtered(const struct http_response *r, const struct jsonio_filter *keep,
				    void *arg, struct err *e);

/* The start of the body on one line, for messages: HTML tags dropped,
 * control characters and blanks collapsed to one space, at most 160 bytes
 * (and size - 1).  out is always NUL-terminated. */
void http_response_snippet(const struct http_response *r, char *out, size_t size);

/* The error kind for a non-2xx status (style-anchors 4.6): 404 ERR_NOTFOUND;
 * 429, 5xx ERR_TEMP; other 4xx and 3xx ERR_REMOTE; ERR_NONE for 2xx. */
enum err_kind http_status_kind(long status);

/* For a non-2xx response, set e to "<what>: HTTP <status>[: <detail>]" with
 * http_status_kind(), where detail is r->auth_error when set, else the
 * start of the body on one line, and
 * return -1; return 0 for 2xx.  Callers that understand the error body
 * (Kubernetes Status, YARN RemoteException) build their own message. */
int http_status_err(const struct http_response *r, const char *what, struct err *e);

/* Free what the response owns and zero it. */
void http_response_release(struct http_response *r);

#endif
