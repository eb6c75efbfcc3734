// SPDX-License-Identifier: Apache-2.0
/* http - request building, libcurl transfer, response parsing (see http.h) */
#include "remote/http.h"

#include <ctype.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/num.h"
#include "core/xalloc.h"
#include "remote/http_curl.h"

/* ---- build ---- */

const char *http_method_name(enum http_method m)
{
	switch (m) {
	case HTTP_GET:
		return "GET";
	case HTTP_POST:
		return "POST";
	case HTTP_PUT:
		return "PUT";
	case HTTP_PATCH:
		return "PATCH";
	case HTTP_DELETE:
		return "DELETE";
	}
	return "GET";
}

void http_request_init(struct http_request *r, enum http_method method, const char *base,
		       const char *path)
{
	size_t n = strlen(base);

	memset(r, 0, sizeof(*r));
	r->method = method;
	while (n > 0 && base[n - 1] == '/')
		n--;
	r->url = xasprintf("%.*s%s%s", (int)n, base, path[0] == '/' ? "" : "/", path);
}

char *http_escape(const char *s, int path_segment)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = xmalloc(3 * strlen(s) + 1), *p = out;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || strchr("-._~", c) || (path_segment && (c == ':' || c == '@'))) {
			*p++ = (char)c;
		} else {
			*p++ = '%';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
		}
	}
	*p = '\0';
	return out;
}

void http_request_add_query(struct http_request *r, const char *key, const char *value)
{
	cleanup_free char *k = http_escape(key, 0);
	cleanup_free char *v = http_escape(value, 0);
	char *url = xasprintf("%s%c%s=%s", r->url, strchr(r->url, '?') ? '&' : '?', k, v);

	free(r->url);
	r->url = url;
}

void http_request_set_body(struct http_request *r, const char *content_type, const char *body,
			   size_t len)
{
	free(r->body);
	free(r->content_type);
	r->body = xmalloc(len + 1);
	memcpy(r->body, body, len);
	r->body[len] = '\0';
	r->body_len = len;
	r->content_type = xstrdup(content_type);
}

void http_request_set_json(struct http_request *r, const char *content_type, const json_t *doc)
{
	cleanup_free char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);

	if (!text)
		text = xstrdup("null"); /* only on out of memory inside jansson */
	http_request_set_body(r, content_type ? content_type : "application/json", text,
			      strlen(text));
}

void http_request_release(struct http_request *r)
{
	free(r->url);
	free(r->body);
	free(r->content_type);
	memset(r, 0, sizeof(*r));
}

char **http_request_headers(const struct http_client *c, const struct http_request *r,
			    int with_token)
{
	char **h = xcalloc(6, sizeof(*h));
	size_t n = 0;

	h[n++] = xstrdup("User-Agent: " HTTP_USER_AGENT);
	h[n++] = xasprintf("Accept: %s", r->accept ? r->accept : "application/json");
	if (with_token && c->bearer_token && *c->bearer_token)
		h[n++] = xasprintf("Authorization: Bearer %s", c->bearer_token);
	if (r->body)
		h[n++] = xasprintf("Content-Type: %s", r->content_type);
	/* A body over 1 KiB would otherwise wait for "100 Continue". */
	h[n++] = xstrdup("Expect:");
	return h;
}

void http_headers_free(char **headers)
{
	if (!headers)
		return;
	for (char **p = headers; *p; p++)
		free(*p);
	free(headers);
}

/* The "scheme://" end and the authority [start, end) of url. */
static void url_authority(const char *url, const char **start, const char **end)
{
	const char *p = strstr(url, "://");

	*start = p ? p + 3 : url;
	*end = *start + strcspn(*start, "/?#");
}

/* The '@' that ends url's userinfo (its authority starts at *a), or NULL. */
static const char *userinfo_end(const char *url, const char **a)
{
	const char *z, *at = NULL;

	url_authority(url, a, &z);
	for (const char *p = *a; p < z; p++)
		if (*p == '@')
			at = p;
	if (!at && **a != '[') {
		/* "user:pa/ss@host": a password with '/' (or '?', '#') in it ends
		 * the authority early.  What precedes that '/' is then no
		 * host:port (a port is digits), so the userinfo runs to the next
		 * '@': redacting too much of a message is the safe side. */
		const char *colon = memchr(*a, ':', (size_t)(z - *a));
		int port = colon != NULL;

		for (const char *p = colon ? colon + 1 : z; p < z; p++)
			port = port && *p >= '0' && *p <= '9';
		if (colon && !port)
			for (const char *p = z; *p && *p != '#'; p++)
				if (*p == '@')
					at = p;
	}
	return at;
}

char *http_redact_url(const char *url)
{
	const char *a, *at = userinfo_end(url, &a);

	if (!at)
		return xstrdup(url);
	return xasprintf("%.*s%s", (int)(a - url), url, at + 1);
}

char *http_url_userinfo(const char *url)
{
	const char *a, *at = userinfo_end(url, &a);

	return at && at > a ? xasprintf("%.*s", (int)(at - a), a) : NULL;
}

/* A URL's %XX escapes decoded (curl sends the decoded userinfo): a new
 * string. */
static char *percent_decode(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++, o++) {
		unsigned v;

		if (*s == '%' && isxdigit((unsigned char)s[1]) && isxdigit((unsigned char)s[2]) &&
		    sscanf(s + 1, "%2x", &v) == 1) {
			*o = (char)v;
			s += 2;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
	return out;
}

/* RFC 4648 base64 of s: a new string. */
static char *base64(const char *s)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(s), k = 0;
	char *out = xmalloc((n + 2) / 3 * 4 + 1);

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)s[i] << 16;

		v |= i + 1 < n ? (unsigned)(unsigned char)s[i + 1] << 8 : 0;
		v |= i + 2 < n ? (unsigned char)s[i + 2] : 0;
		out[k++] = abc[v >> 18 & 63];
		out[k++] = abc[v >> 12 & 63];
		out[k++] = i + 1 < n ? abc[v >> 6 & 63] : '=';
		out[k++] = i + 2 < n ? abc[v & 63] : '=';
	}
	out[k] = '\0';
	return out;
}

void http_url_secrets_add(const char *url)
{
	cleanup_free char *ui = url ? http_url_userinfo(url) : NULL;

	if (!ui)
		return;
	for (int decoded = 0; decoded <= 1; decoded++) {
		cleanup_free char *d = decoded ? percent_decode(ui) : xstrdup(ui);
		const char *p = strchr(d, ':');
		cleanup_free char *pair = p ? xstrdup(d) : xasprintf("%s:", d);
		cleanup_free char *basic = base64(pair);

		err_secret_add(d);
		err_secret_add(basic);
		if (p)
			err_secret_add(p + 1);
	}
	/* the Authorization: Basic header as curl makes it: the raw userinfo
	 * split at its first ':' (none: an empty password), then each part
	 * decoded ("a%3Ab" is the user "a:b" with no password) */
	{
		const char *colon = strchr(ui, ':');
		cleanup_free char *user_raw = colon ? xasprintf("%.*s", (int)(colon - ui), ui)
						    : xstrdup(ui);
		cleanup_free char *user = percent_decode(user_raw);
		cleanup_free char *pass = percent_decode(colon ? colon + 1 : "");
		cleanup_free char *pair = xasprintf("%s:%s", user, pass);
		cleanup_free char *basic = base64(pair);

		err_secret_add(basic);
	}
}

int http_same_origin(const char *a, const char *b)
{
	const char *a0, *a1, *b0, *b1;

	url_authority(a, &a0, &a1);
	url_authority(b, &b0, &b1);
	return a0 - a == b0 - b && strncasecmp(a, b, (size_t)(a0 - a)) == 0 && a1 - a0 == b1 - b0 &&
	       strncasecmp(a0, b0, (size_t)(a1 - a0)) == 0;
}

/* ---- parse ---- */

void http_response_release(struct http_response *r)
{
	free(r->content_type);
	free(r->body);
	free(r->location);
	free(r->url);
	free(r->auth_error);
	memset(r, 0, sizeof(*r));
	r->retry_after_ms = -1;
}

int http_parse_retry_after(const char *v, int64_t now_ms, int64_t *ms)
{
	struct tm tm = { 0 };
	const char *end;
	int64_t secs;

	while (*v == ' ' || *v == '\t')
		v++;
	if (isdigit((unsigned char)*v)) {
		end = v;
		if (num_scan_i64(&end, 0, INT64_MAX / 1000, &secs) < 0 || *end)
			return -1;
		*ms = secs * 1000;
		return 0;
	}
	end = strptime(v, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (!end || *end != '\0')
		return -1;
	*ms = (int64_t)timegm(&tm) * 1000 - now_ms;
	if (*ms < 0)
		*ms = 0;
	return 0;
}

/* A header value trimmed of blanks and CRLF, new string. */
static char *header_value(const char *v, const char *end)
{
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	while (end > v && strchr(" \t\r\n", end[-1]))
		end--;
	return xasprintf("%.*s", (int)(end - v), v);
}

void http_response_header(struct http_response *r, const char *line, size_t len, int64_t now_ms)
{
	const char *end = line + len, *colon = memchr(line, ':', len);
	cleanup_free char *v = NULL;
	size_t name_len;

	if (len > 5 && strncmp(line, "HTTP/", 5) == 0) {
		const char *sp = memchr(line, ' ', len);

		free(r->content_type);
		free(r->location);
		r->content_type = r->location = NULL;
		r->retry_after_ms = -1;
		r->status = 0;
		for (const char *d = sp ? sp + 1 : end;
		     d < end && d < sp + 4 && isdigit((unsigned char)*d); d++)
			r->status = r->status * 10 + (*d - '0');
		return;
	}
	if (!colon)
		return;
	name_len = (size_t)(colon - line);
	v = header_value(colon + 1, end);
	if (name_len == 12 && strncasecmp(line, "Content-Type", 12) == 0) {
		free(r->content_type);
		v[strcspn(v, "; \t")] = '\0';
		for (char *p = v; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		r->content_type = steal_ptr(&v);
	} else if (name_len == 8 && strncasecmp(line, "Location", 8) == 0) {
		free(r->location);
		r->location = steal_ptr(&v);
	} else if (name_len == 11 && strncasecmp(line, "Retry-After", 11) == 0) {
		if (http_parse_retry_after(v, now_ms, &r->retry_after_ms) < 0)
			r->retry_after_ms = -1;
	}
}

int http_response_is_json(const struct http_response *r)
{
	const char *ct = r->content_type;
	size_t n;

	if (!ct)
		return 0;
	n = strlen(ct);
	return strcmp(ct, "application/json") == 0 || (n > 5 && strcmp(ct + n - 5, "+json") == 0);
}

void http_response_snippet(const struct http_response *r, char *out, size_t size)
{
	size_t n = 0;
	int in_tag = 0, blank = 1;

	for (size_t i = 0; r->body && i < r->body_len && n + 4 < size && n < 160; i++) {
		unsigned char c = (unsigned char)r->body[i];

		if (c == '<') {
			in_tag = 1;
		} else if (c == '>' && in_tag) {
			in_tag = 0;
			c = ' ';
		}
		if (in_tag)
			continue;
		if (c < 0x20 || c == ' ') {
			if (!blank)
				out[n++] = ' ';
			blank = 1;
			continue;
		}
		out[n++] = (char)c;
		blank = 0;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

json_t *http_response_json_filtered(const struct http_response *r, const struct jsonio_filter *keep,
				    void *arg, struct err *e)
{
	json_t *doc = http_response_is_json(r) ? jsonio_parse_filtered_each(r->body ? r->body : "",
									    r->body_len, keep, arg)
					       : NULL;

	if (json_is_object(doc))
		return doc;
	json_decref(doc);
	return http_response_json(r, e); /* its message, and the same verdict */
}

json_t *http_response_json(const struct http_response *r, struct err *e)
{
	char snippet[200];
	json_error_t je;
	json_t *doc;

	http_response_snippet(r, snippet, sizeof(snippet));
	if (!http_response_is_json(r)) {
		err_set(e, ERR_REMOTE, 0, "expected a JSON answer, got %s: '%s'",
			r->content_type ? r->content_type : "no content type", snippet);
		return NULL;
	}
	doc = json_loadb(r->body ? r->body : "", r->body_len, JSON_REJECT_DUPLICATES, &je);
	if (!doc || !json_is_object(doc)) {
		err_set(e, ERR_REMOTE, 0, "invalid JSON answer (%s): '%s'",
			doc ? "not an object" : je.text, snippet);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

enum err_kind http_status_kind(long status)
{
	if (status >= 200 && status < 300)
		return ERR_NONE;
	if (status == 404)
		return ERR_NOTFOUND;
	if (status == 429 || status >= 500)
		return ERR_TEMP;
	return ERR_REMOTE;
}

int http_status_err(const struct http_response *r, const char *what, struct err *e)
{
	enum err_kind kind = http_status_kind(r->status);
	char snippet[200];

	if (kind == ERR_NONE)
		return 0;
	http_response_snippet(r, snippet, sizeof(snippet));
	return err_set(e, kind, 0, "%s: HTTP %ld%s%s", what, r->status,
		       r->auth_error || *snippet ? ": " : "",
		       r->auth_error ? r->auth_error : snippet);
}

/* ---- perform ---- */

/* libcurl and the libraries it pulls in (TLS, LDAP, SSH...; ~30, all linked
 * with -z now) cost ~5 ms of relocations at every start, so libcurl is not
 * linked: it is opened when the first request is made, and a run that asks
 * no server (yarn-copilot --no-nm) never loads it.  The calls below go
 * through this table under their libcurl names. */
struct http_curl_lib http_lc;

/* dlopen libcurl and curl_global_init it, once.  Returns 0, or -1 with e
 * set (ERR_SYSTEM). */
static int curl_load(struct err *e)
{
	void *h;
	CURLcode rc;

	if (http_lc.state == 0) {
		http_lc.state = -1;
		h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
		if (h) {
			http_lc.global_init = dlsym(h, "curl_global_init");
			http_lc.global_cleanup = dlsym(h, "curl_global_cleanup");
			http_lc.easy_init = dlsym(h, "curl_easy_init");
			http_lc.easy_setopt = dlsym(h, "curl_easy_setopt");
			http_lc.easy_getinfo = dlsym(h, "curl_easy_getinfo");
			http_lc.easy_perform = dlsym(h, "curl_easy_perform");
			http_lc.easy_reset = dlsym(h, "curl_easy_reset");
			http_lc.easy_cleanup = dlsym(h, "curl_easy_cleanup");
			http_lc.easy_strerror = dlsym(h, "curl_easy_strerror");
			http_lc.slist_append = dlsym(h, "curl_slist_append");
			http_lc.slist_free_all = dlsym(h, "curl_slist_free_all");
			http_lc.share_init = dlsym(h, "curl_share_init");
			http_lc.share_setopt = dlsym(h, "curl_share_setopt");
			http_lc.share_cleanup = dlsym(h, "curl_share_cleanup");
		}
		if (!h || !http_lc.global_init || !http_lc.global_cleanup || !http_lc.easy_init ||
		    !http_lc.easy_setopt || !http_lc.easy_getinfo || !http_lc.easy_perform ||
		    !http_lc.easy_reset || !http_lc.easy_cleanup || !http_lc.easy_strerror ||
		    !http_lc.slist_append || !http_lc.slist_free_all || !http_lc.share_init ||
		    !http_lc.share_setopt || !http_lc.share_cleanup)
			snprintf(http_lc.why, sizeof(http_lc.why), "load libcurl.so.4: %s",
				 dlerror());
		else if ((rc = http_lc.global_init(CURL_GLOBAL_DEFAULT)) != CURLE_OK)
			snprintf(http_lc.why, sizeof(http_lc.why), "curl_global_init: %s",
				 http_lc.easy_strerror(rc));
		else
			http_lc.state = 1;
	}
	if (http_lc.state < 0)
		return err_set(e, ERR_SYSTEM, 0, "%s", http_lc.why);
	return 0;
}

int http_global_init(struct err *e)
{
	(void)e; /* libcurl is loaded and initialised by the first request */
	return 0;
}

void http_global_cleanup(void)
{
	if (http_lc.state > 0)
		http_lc.global_cleanup();
	http_lc.state = 0;
}

struct transfer {
	struct http_response *resp;
	CURL *curl; /* for the Content-Length, to size the body once */
	size_t cap;
	size_t max; /* the client's max_body */
	int too_big;
};

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct transfer *t = arg;
	struct http_response *r = t->resp;
	size_t n = size * nmemb;

	if (r->body_len + n > t->max) {
		t->too_big = 1;
		return 0;
	}
	if (t->cap == 0) { /* the announced length, when it is within the cap */
		curl_off_t cl = -1;

		if (curl_easy_getinfo(t->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl) ==
			    CURLE_OK &&
		    cl > 0 && (size_t)cl <= t->max && (size_t)cl >= n) {
			t->cap = (size_t)cl + 1;
			r->body = xrealloc(r->body, t->cap);
		}
	}
	if (r->body_len + n + 1 > t->cap) { /* 1.5x: a body at the cap costs little more */
		t->cap = r->body_len + n + 1 + (r->body_len + n + 1) / 2;
		r->body = xrealloc(r->body, t->cap);
	}
	memcpy(r->body + r->body_len, data, n);
	r->body_len += n;
	r->body[r->body_len] = '\0';
	return n;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *arg)
{
	struct transfer *t = arg;

	http_response_header(t->resp, data, size * nmemb, clock_now_ms());
	return size * nmemb;
}

static enum err_kind curl_kind(CURLcode rc)
{
	switch (rc) {
	case CURLE_URL_MALFORMAT:
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_ENGINE_NOTFOUND:
		return ERR_INPUT;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_WRITE_ERROR:
		return ERR_REMOTE;
	default:
		return ERR_TEMP;
	}
}

static void set_blob(CURL *curl, CURLoption opt, const char *pem)
{
	struct curl_blob blob = { .data = (void *)pem,
				  .len = strlen(pem),
				  .flags = CURL_BLOB_COPY };

	curl_easy_setopt(curl, opt, &blob);
}

static void set_tls(CURL *curl, const struct http_tls *tls)
{
	if (tls->ca_data)
		set_blob(curl, CURLOPT_CAINFO_BLOB, tls->ca_data);
	else if (tls->ca_file)
		curl_easy_setopt(curl, CURLOPT_CAINFO, tls->ca_file);
	if (tls->cert_data)
		set_blob(curl, CURLOPT_SSLCERT_BLOB, tls->cert_data);
	else if (tls->cert_file)
		curl_easy_setopt(curl, CURLOPT_SSLCERT, tls->cert_file);
	if (tls->key_data)
		set_blob(curl, CURLOPT_SSLKEY_BLOB, tls->key_data);
	else if (tls->key_file)
		curl_easy_setopt(curl, CURLOPT_SSLKEY, tls->key_file);
	if (tls->cert_data || tls->cert_file) {
		curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
		curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
	}
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, tls->insecure_skip_verify ? 0L : 1L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, tls->insecure_skip_verify ? 0L : 2L);
}

static void trace(const struct http_client *c, const char *method, const char *url,
		  const char *outcome, int64_t t0)
{
	cleanup_free char *safe = NULL;
	cleanup_free char *line = NULL;

	if (!c->trace)
		return;
	safe = http_redact_url(url);
	line = xasprintf("%s %s -> %s (%" PRId64 " ms)", method, safe, outcome,
			 clock_mono_ms() - t0);
	c->trace(c->trace_arg, line);
}

/* One exchange with url, no redirect followed.  Returns 0 or -1 with e set. */
static int exchange(CURL *curl, const struct http_client *c, const struct http_request *req,
		    const char *url, int with_token, struct http_response *resp, struct err *e)
{
	const char *method = http_method_name(req->method);
	struct transfer t = { .resp = resp,
			      .curl = curl,
			      .max = (size_t)(c->max_body > 0 ? c->max_body : HTTP_MAX_BODY) };
	char errbuf[CURL_ERROR_SIZE] = "";
	struct http_negotiate_xfer nx;
	struct curl_slist *list = NULL;
	char **headers = http_request_headers(c, req, with_token);
	int64_t timeout = req->timeout_ms ? req->timeout_ms
			  : c->timeout_ms ? c->timeout_ms
					  : HTTP_TIMEOUT_MS;
	int64_t t0 = clock_mono_ms();
	CURLcode rc;

	for (char **h = headers; *h; h++)
		list = curl_slist_append(list, *h);
	http_headers_free(headers);

	curl_easy_reset(curl);
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
			 (long)(c->connect_timeout_ms ? c->connect_timeout_ms
						      : HTTP_CONNECT_TIMEOUT_MS));
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)timeout);
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
	/* A body would turn a plain GET into a POST. */
	if (req->method != HTTP_POST && (req->method != HTTP_GET || req->body))
		curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
	if (req->body) {
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req->body);
	} else if (req->method == HTTP_POST) {
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
	}
	set_tls(curl, &c->tls);
	if (c->negotiate && http_negotiate_setup(c->negotiate, curl, url, &nx, e) < 0) {
		cleanup_free char *safe = http_redact_url(url);

		curl_slist_free_all(list);
		return err_wrap(e, "%s %s", method, safe);
	}

	rc = curl_easy_perform(curl);
	if (c->negotiate)
		http_negotiate_note(nx.gss);
	curl_slist_free_all(list);
	if (rc != CURLE_OK) {
		cleanup_free char *safe = http_redact_url(url);
		const char *why = *errbuf ? errbuf : curl_easy_strerror(rc);
		char krb[640];

		if (c->negotiate &&
		    http_negotiate_why(nx.gss, nx.token_sent, 401, NULL, NULL, krb, sizeof(krb)) &&
		    *nx.gss)
			why = krb; /* the GSS-API failure, not curl's summary of it */

		trace(c, method, url, "error", t0);
		if (t.too_big) /* read no further: a body at the cap is all it costs */
			return err_set(e, ERR_REMOTE, 0, "%s %s: response body over %zu bytes",
				       method, safe, t.max);
		return err_set(e, curl_kind(rc), 0, "%s %s: %s", method, safe, why);
	}
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp->status);
	if (c->negotiate && resp->status >= 400) {
		char why[640];

		if (http_negotiate_why(nx.gss, nx.token_sent, resp->status,
				       http_negotiate_keytab(c->negotiate),
				       http_negotiate_principal(c->negotiate), why, sizeof(why)))
			resp->auth_error = xstrdup(why);
	}
	if (!resp->body)
		resp->body = xstrdup("");
	free(resp->url);
	resp->url = xstrdup(url);
	if (c->trace) {
		char status[16];

		snprintf(status, sizeof(status), "%ld", resp->status);
		trace(c, method, url, status, t0);
	}
	return 0;
}

struct http_pool {
	CURL *curl;
};

struct http_pool *http_pool_new(void)
{
	return xcalloc(1, sizeof(struct http_pool));
}

void http_pool_free(struct http_pool *pool)
{
	if (!pool)
		return;
	if (pool->curl)
		curl_easy_cleanup(pool->curl);
	free(pool);
}

int http_perform(const struct http_client *c, const struct http_request *req,
		 struct http_response *resp, struct err *e)
{
	int max = req->max_redirects ? req->max_redirects : HTTP_MAX_REDIRECTS;
	cleanup_free char *url = xstrdup(req->url);
	struct http_pool *pool = c->pool;
	CURL *curl;
	int redirects = 0, ret;

	if (curl_load(e) < 0) {
		http_response_release(resp);
		return -1;
	}
	if (pool && !pool->curl)
		pool->curl = curl_easy_init();
	curl = pool ? pool->curl : curl_easy_init();

	http_response_release(resp);
	if (!curl)
		return err_set(e, ERR_SYSTEM, 0, "curl_easy_init failed");
	for (;;) {
		char *next = NULL;

		http_response_release(resp);
		ret = exchange(curl, c, req, url, http_same_origin(req->url, url), resp, e);
		if (ret < 0 || !req->follow_redirects ||
		    (resp->status != 307 && resp->status != 308))
			break;
		/* Without a Location (a standby RM that knows no active one) the
		 * 307 itself is the answer. */
		curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &next);
		if (!next || !resp->location)
			break;
		if (++redirects > max) {
			cleanup_free char *safe = http_redact_url(req->url);

			ret = err_set(e, ERR_TEMP, 0, "%s %s: more than %d redirects",
				      http_method_name(req->method), safe, max);
			break;
		}
		free(url);
		url = xstrdup(next);
	}
	resp->redirects = redirects;
	if (!pool)
		curl_easy_cleanup(curl);
	if (ret < 0)
		http_response_release(resp);
	return ret;
}
