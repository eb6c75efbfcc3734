/* SPDX-License-Identifier: Apache-2.0 */
/* http_curl - internal to the http seam (http.c, http_auth.c): the libcurl
 * functions, loaded by http.c on the first request (dlopen libcurl.so.4:
 * see there why), called under their libcurl names through this table.
 * Nothing outside lib/remote/http*.c includes it. */
#ifndef KILO_HTTP_CURL_H
#define KILO_HTTP_CURL_H

#include <curl/curl.h>

#include "core/err.h"
#include "remote/http_auth.h"

struct http_curl_lib {
	int state; /* 0: not loaded, 1: loaded and initialised, -1: failed (why) */
	char why[256];
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
	CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
	CURLcode (*easy_perform)(CURL *curl);
	void (*easy_reset)(CURL *curl);
	void (*easy_cleanup)(CURL *curl);
	const char *(*easy_strerror)(CURLcode rc);
	struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
	void (*slist_free_all)(struct curl_slist *list);
	CURLSH *(*share_init)(void);
	CURLSHcode (*share_setopt)(CURLSH *share, CURLSHoption option, ...);
	CURLSHcode (*share_cleanup)(CURLSH *share);
};
extern struct http_curl_lib http_lc;

#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_share_setopt
#define curl_easy_init http_lc.easy_init
#define curl_easy_setopt http_lc.easy_setopt
#define curl_easy_getinfo http_lc.easy_getinfo
#define curl_easy_perform http_lc.easy_perform
#define curl_easy_reset http_lc.easy_reset
#define curl_easy_cleanup http_lc.easy_cleanup
#define curl_easy_strerror http_lc.easy_strerror
#define curl_slist_append http_lc.slist_append
#define curl_slist_free_all http_lc.slist_free_all
#define curl_share_init http_lc.share_init
#define curl_share_setopt http_lc.share_setopt
#define curl_share_cleanup http_lc.share_cleanup

/* What one exchange's negotiation showed (the debug callback's view: no
 * header, token or body is ever kept, only whether an Authorization:
 * Negotiate line went out and the GSS-API failure text curl logged). */
struct http_negotiate_xfer {
	int token_sent; /* a request of this exchange carried a SPNEGO token */
	char gss[512];  /* "gss_init_sec_context() failed: <major>. <minor>." or "" */
};

/* Before curl_easy_perform() of url with n set: the process's Kerberos
 * environment (http_negotiate_env), CURLAUTH_NEGOTIATE with the empty
 * user ":", url's origin's cookie jar (its hadoop.auth cookie kept for the
 * client's life, in memory) and the debug callback filling *x (zeroed
 * here).  Returns 0, or -1 with e set (http_negotiate_env's errors). */
int http_negotiate_setup(struct http_negotiate *n, CURL *curl, const char *url,
			 struct http_negotiate_xfer *x, struct err *e);

#endif
