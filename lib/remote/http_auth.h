/* SPDX-License-Identifier: Apache-2.0 */
/* http_auth - SPNEGO (Kerberos) for the http seam: the ResourceManager's
 * web services on a secure cluster answer 401 "WWW-Authenticate: Negotiate"
 * to a request without a token (Hadoop's AuthenticationFilter with
 * hadoop.http.authentication.type kerberos).
 *
 * A client with http_client.negotiate set has libcurl negotiate with
 * CURLAUTH_NEGOTIATE (GSS-API, MIT krb5): the service principal is
 * HTTP/<host> of the URL as written (MIT canonicalises it as krb5.conf says:
 * operators write FQDNs and set dns_canonicalize_hostname and rdns false
 * where DNS does not match).  The RM's hadoop.auth cookie is kept per origin
 * (scheme, host, port) for the negotiate object's life, in memory: one
 * negotiation per RM a pass.  No redirect rule changes (http.h).
 * One way only: libcurl checks no mutual-authentication token on a 2xx
 * (it reads WWW-Authenticate on a 401 only), so an RM that answers 200
 * without one, or with a forged one, is believed; the RM's identity is the
 * transport's (https with a CA), as without Kerberos.
 *
 * Credentials (the process's environment, set once, before the first
 * token is made; MIT's GSS library then gets and renews tickets itself):
 *  - keytab and principal: KRB5_CLIENT_KTNAME=FILE:<keytab> and a private
 *    credential cache KRB5CCNAME=FILE:<dir>/ccache (dir made by mkdtemp
 *    under TMPDIR, mode 0700; the cache initialised for principal, so the
 *    TGT is for it, not the keytab's first entry); removed at exit;
 *  - neither: the operator's cache (KRB5CCNAME or krb5.conf's default) as
 *    it is.
 * In both, HADOOP_OPTS gains -Djava.security.krb5.conf=<KRB5_CONFIG's first
 * file, or /etc/krb5.conf> (the JDK ignores KRB5_CONFIG), so the rmadmin
 * child (`yarn`) inherits the realm and the same cache.  One identity per
 * process: a second keytab or principal is refused.
 *
 * Secrets: no token, cookie, key or ticket is read into kilo; the debug
 * callback keeps only the GSS-API failure text and whether a token went
 * out (threat-model.md: keytabs appear in no message).
 */
#ifndef KILO_HTTP_AUTH_H
#define KILO_HTTP_AUTH_H

#include <stddef.h>

#include "core/err.h"

struct http_negotiate;

/* A SPNEGO setting for http_client.negotiate.  keytab (a path) and
 * principal ("kilo/host@REALM") both set, or both NULL (the operator's
 * cache); borrowed, they must outlive it.  Never NULL (aborts on out of
 * memory). */
struct http_negotiate *http_negotiate_new(const char *keytab, const char *principal);

/* Its keytab and principal (NULL for the operator's cache). */
const char *http_negotiate_keytab(const struct http_negotiate *n);
const char *http_negotiate_principal(const struct http_negotiate *n);

/* Free it and its cookie jars; NULL allowed.  After every pool that used it. */
void http_negotiate_free(struct http_negotiate *n);

/* Set the process's Kerberos environment for n, once (later calls: 0).
 * Returns 0, or -1 with e set: ERR_INPUT another keytab or principal was set
 * up before in this process; ERR_SYSTEM the keytab is no readable, non-empty
 * regular file (checked first: MIT would block on a FIFO for ever), or the
 * private cache could not be made (libkrb5.so.3 not loadable, mkdtemp);
 * ERR_REMOTE the principal is no
 * Kerberos name.  Called by http_perform() before the first token, and by
 * the rmadmin fallback before it starts `yarn`. */
int http_negotiate_env(struct http_negotiate *n, struct err *e);

/* After a KDC of the realm did not answer (MIT's "Cannot contact any KDC",
 * some 27 s per try whatever the timeouts: its retry schedule is fixed), no
 * token is asked for HTTP_KDC_DOWN_MS: http_negotiate_setup() fails at once
 * (ERR_TEMP), so an HA pair or a second cluster does not wait again. */
#define HTTP_KDC_DOWN_MS 60000

/* Note the GSS-API failure text of an exchange (http_negotiate_xfer.gss,
 * may be NULL or ""): a KDC that did not answer starts the HTTP_KDC_DOWN_MS
 * window. */
void http_negotiate_note(const char *gss);

/* For a child that is not the rmadmin fallback (a kubeconfig exec
 * plugin): what to pass for entry ("NAME=value" of environ): entry itself,
 * or for a variable http_negotiate_env set (KRB5CCNAME, KRB5_CLIENT_KTNAME,
 * HADOOP_OPTS) the operator's own entry from before, NULL when it had none
 * (drop it).  kilo's private cache and keytab are its own business. */
const char *http_negotiate_env_outside(const char *entry);

/* Remove the private credential cache now (nothing when none); safe in a
 * signal handler: the rmadmin fallback's, which ends kilo-sync by the
 * signal's default action, calls it first.  At exit and on SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT left at their default, http_negotiate_env's own handlers
 * do it. */
void http_negotiate_env_drop(void);

/* ---- pure ---- */

/* The one-line reason an operator can act on, into out (size bytes), for
 * an exchange that ended in HTTP status with SPNEGO on: gss is the GSS-API
 * failure text curl logged ("gss_init_sec_context() failed: ..." or "");
 * token_sent whether a token went out; keytab and principal as configured
 * (NULL: the operator's cache), for the hint.  GSS-API's generic major
 * texts are dropped, MIT's minor text kept.  Returns 1 and the line ("Kerberos:
 * clock skew too great ...: sync ..."), or 0 (out "") for a status below
 * 400 or a 4xx that is no authentication failure (a 403 without a token
 * or a GSS failure: the RM's own refusal of a request with its cookie).  Mapped from MIT's
 * message texts (krb5 error table: KRB5KRB_AP_ERR_SKEW "Clock skew too
 * great", KRB5KDC_ERR_C_PRINCIPAL_UNKNOWN "Client '...' not found in
 * Kerberos database", KRB5_KDC_UNREACH "Cannot contact any KDC for realm",
 * KRB5_CC_NOTFOUND / KRB5_FCC_NOFILE "No credentials cache found", KG_EMPTY_CCACHE,
 * KRB5_KT_NOTFOUND "...not found in keytab"/"Keytab contains no suitable keys");
 * a 401 or 403 after a token went out without a GSS failure is the RM's
 * own refusal. */
int http_negotiate_why(const char *gss, int token_sent, long status, const char *keytab,
		       const char *principal, char *out, size_t size);

#endif
