// SPDX-License-Identifier: Apache-2.0
/* http_auth - SPNEGO for the http seam (see http_auth.h) */
#include "remote/http_auth.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "remote/http_curl.h"

/* One cookie jar per origin: Hadoop's hadoop.auth cookie is signed by each
 * RM's own secret, and curl's cookie engine matches host, not port (two
 * RMs on one host would be sent each other's). */
struct jar {
	char *origin; /* "http://rm-0.example.com:8088", lower case */
	CURLSH *share;
};

struct http_negotiate {
	const char *keytab;
	const char *principal;
	struct jar *jars;
	size_t njars;
};

struct http_negotiate *http_negotiate_new(const char *keytab, const char *principal)
{
	struct http_negotiate *n = xcalloc(1, sizeof(*n));

	n->keytab = keytab;
	n->principal = principal;
	return n;
}

const char *http_negotiate_keytab(const struct http_negotiate *n)
{
	return n->keytab;
}

const char *http_negotiate_principal(const struct http_negotiate *n)
{
	return n->principal;
}

/* When (clock_mono_ms) a KDC of the realm last failed to answer, 0: never.
 * Process-wide, as the identity is (one realm per process). */
static int64_t kdc_down_at;

void http_negotiate_note(const char *gss)
{
	if (gss && strstr(gss, "Cannot contact any KDC"))
		kdc_down_at = clock_mono_ms();
}

void http_negotiate_free(struct http_negotiate *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->njars; i++) {
		if (n->jars[i].share)
			curl_share_cleanup(n->jars[i].share);
		free(n->jars[i].origin);
	}
	free(n->jars);
	free(n);
}

/* ---- the process's Kerberos environment ---- */

/* libkrb5 (MIT, libkrb5.so.3: what libcurl's GSS-API library is built on),
 * loaded only to initialise the private cache for the principal.  Its
 * handles are opaque pointers; krb5_error_code is a 32-bit int. */
typedef int32_t krb5_code;
static struct {
	krb5_code (*init_context)(void **ctx);
	void (*free_context)(void *ctx);
	krb5_code (*parse_name)(void *ctx, const char *name, void **princ);
	void (*free_principal)(void *ctx, void *princ);
	krb5_code (*cc_resolve)(void *ctx, const char *name, void **cc);
	krb5_code (*cc_initialize)(void *ctx, void *cc, void *princ);
	krb5_code (*cc_close)(void *ctx, void *cc);
	const char *(*get_error_message)(void *ctx, krb5_code code);
	void (*free_error_message)(void *ctx, const char *msg);
} k5;

static int k5_load(struct err *e)
{
	void *h;

	if (k5.init_context)
		return 0;
	h = dlopen("libkrb5.so.3", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return err_set(e, ERR_SYSTEM, 0, "Kerberos: load libkrb5.so.3: %s", dlerror());
	k5.free_context = dlsym(h, "krb5_free_context");
	k5.parse_name = dlsym(h, "krb5_parse_name");
	k5.free_principal = dlsym(h, "krb5_free_principal");
	k5.cc_resolve = dlsym(h, "krb5_cc_resolve");
	k5.cc_initialize = dlsym(h, "krb5_cc_initialize");
	k5.cc_close = dlsym(h, "krb5_cc_close");
	k5.get_error_message = dlsym(h, "krb5_get_error_message");
	k5.free_error_message = dlsym(h, "krb5_free_error_message");
	if (!k5.free_context || !k5.parse_name || !k5.free_principal || !k5.cc_resolve ||
	    !k5.cc_initialize || !k5.cc_close || !k5.get_error_message || !k5.free_error_message)
		return err_set(e, ERR_SYSTEM, 0, "Kerberos: libkrb5.so.3 lacks a function");
	k5.init_context = dlsym(h, "krb5_init_context");
	if (!k5.init_context)
		return err_set(e, ERR_SYSTEM, 0, "Kerberos: libkrb5.so.3 lacks krb5_init_context");
	return 0;
}

static struct {
	int done;
	int at_exit;              /* env_cleanup registered, at exit and the signals */
	char *keytab, *principal; /* the identity set up (NULL: the operator's cache) */
	char dir[4096];           /* the private cache's dir, "" when none */
	char cache[4200];         /* its file */
} env;

static void env_cleanup(void)
{
	if (!*env.dir)
		return;
	unlink(env.cache);
	rmdir(env.dir);
	*env.dir = '\0';
}

void http_negotiate_env_drop(void)
{
	env_cleanup(); /* unlink and rmdir of static paths: async-signal-safe */
}

/* The signals that end kilo-sync by default: the private cache (a ticket
 * anyone who reads it can use) goes with it, as at exit, before the
 * signal's own action.  Only those still at SIG_DFL are caught (a nohup'd
 * SIGHUP stays ignored, a caller's own handler stays). */
static const int env_fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void env_on_signal(int sig)
{
	env_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void env_catch(void)
{
	for (size_t i = 0; i < sizeof(env_fatal) / sizeof(env_fatal[0]); i++) {
		struct sigaction old, sa = { .sa_handler = env_on_signal };

		sigemptyset(&sa.sa_mask);
		if (sigaction(env_fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(env_fatal[i], &sa, NULL);
	}
}

/* A cache at env.cache initialised for principal (no ticket yet). */
static int init_cache(const char *principal, struct err *e)
{
	void *ctx = NULL, *princ = NULL, *cc = NULL;
	cleanup_free char *name = xasprintf("FILE:%s", env.cache);
	krb5_code rc;
	const char *step = "krb5_init_context";

	if (k5_load(e) < 0)
		return -1;
	rc = k5.init_context(&ctx);
	if (rc == 0 && (step = "principal", rc = k5.parse_name(ctx, principal, &princ)) == 0 &&
	    (step = "cache", rc = k5.cc_resolve(ctx, name, &cc)) == 0)
		rc = k5.cc_initialize(ctx, cc, princ);
	if (rc != 0) {
		const char *m = ctx ? k5.get_error_message(ctx, rc) : NULL;

		err_set(e, strcmp(step, "principal") == 0 ? ERR_REMOTE : ERR_SYSTEM, 0,
			"Kerberos: %s %s: %s", step,
			strcmp(step, "principal") == 0 ? principal : "", m ? m : "failed");
		if (m)
			k5.free_error_message(ctx, m);
	}
	if (cc)
		k5.cc_close(ctx, cc);
	if (princ)
		k5.free_principal(ctx, princ);
	if (ctx)
		k5.free_context(ctx);
	return rc ? -1 : 0;
}

/* The keytab a readable, non-empty regular file (a symlink to one, as a
 * Secret's volume has, is fine).  Checked before the environment names it:
 * MIT reads it inside gss_init_sec_context, where curl's time limit does
 * not reach, so a FIFO there would block every pass for ever, and a
 * directory or an empty file would only read as "Credential cache is
 * empty".  Only a regular file is opened (never a FIFO or a device). */
static int check_keytab(const char *path, struct err *e)
{
	struct stat st;
	const char *kind;
	int fd;

	if (stat(path, &st) < 0)
		return err_set(e, ERR_SYSTEM, errno, "Kerberos: keytab %s", path);
	if (!S_ISREG(st.st_mode)) {
		kind = S_ISDIR(st.st_mode)                          ? "a directory"
		       : S_ISFIFO(st.st_mode)                       ? "a FIFO"
		       : S_ISSOCK(st.st_mode)                       ? "a socket"
		       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
								    : "an unknown type";
		return err_set(e, ERR_SYSTEM, 0, "Kerberos: keytab %s: not a regular file (%s)",
			       path, kind);
	}
	if (st.st_size == 0)
		return err_set(e, ERR_SYSTEM, 0, "Kerberos: keytab %s: empty", path);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, ERR_SYSTEM, errno, "Kerberos: keytab %s", path);
	close(fd);
	return 0;
}

/* The variables http_negotiate_env sets, and the operator's own entry of
 * each ("NAME=value", or NULL: unset) from before, for the children that
 * are not the rmadmin fallback (http_negotiate_env_outside). */
static struct {
	const char *name;
	int changed;
	char *orig;
} env_saved[] = { { "KRB5_CLIENT_KTNAME", 0, NULL },
		  { "KRB5CCNAME", 0, NULL },
		  { "HADOOP_OPTS", 0, NULL } };

static void env_set(const char *name, const char *value)
{
	for (size_t i = 0; i < sizeof(env_saved) / sizeof(env_saved[0]); i++)
		if (strcmp(env_saved[i].name, name) == 0 && !env_saved[i].changed) {
			const char *v = getenv(name);

			env_saved[i].orig = v ? xasprintf("%s=%s", name, v) : NULL;
			env_saved[i].changed = 1;
		}
	setenv(name, value, 1);
}

const char *http_negotiate_env_outside(const char *entry)
{
	for (size_t i = 0; i < sizeof(env_saved) / sizeof(env_saved[0]); i++) {
		size_t n = strlen(env_saved[i].name);

		if (env_saved[i].changed && strncmp(entry, env_saved[i].name, n) == 0 &&
		    entry[n] == '=')
			return env_saved[i].orig;
	}
	return entry;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int http_negotiate_env(struct http_negotiate *n, struct err *e)
{
	const char *conf = getenv("KRB5_CONFIG"), *opts = getenv("HADOOP_OPTS");
	cleanup_free char *krb5conf = NULL, *kt = NULL;
	const char *tmp = getenv("TMPDIR");
	char dir[sizeof(env.dir)];
	sigset_t fatal, held;

	if (env.done) {
		if (same(env.keytab, n->keytab) && same(env.principal, n->principal))
			return 0;
		return err_set(e, ERR_INPUT, 0,
			       "Kerberos: one identity per process: keytab %s, principal %s was "
			       "set up already",
			       env.keytab ? env.keytab : "(the operator's cache)",
			       env.principal ? env.principal : "(its own)");
	}
	if (n->keytab) {
		if (!n->principal)
			return err_set(e, ERR_INPUT, 0, "Kerberos: keytab %s without a principal",
				       n->keytab);
		if (check_keytab(n->keytab, e) < 0)
			return -1;
		if (!env.at_exit) {
			atexit(env_cleanup);
			env_catch();
			env.at_exit = 1;
		}
		/* made and named with those signals held: the handler sees no
		 * half-written name, and no dir is made it does not know of */
		sigemptyset(&fatal);
		for (size_t i = 0; i < sizeof(env_fatal) / sizeof(env_fatal[0]); i++)
			sigaddset(&fatal, env_fatal[i]);
		sigprocmask(SIG_BLOCK, &fatal, &held);
		if (snprintf(dir, sizeof(dir), "%s/kilo-krb5-XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
			    (int)sizeof(dir) ||
		    !mkdtemp(dir)) {
			int errnum = errno;

			sigprocmask(SIG_SETMASK, &held, NULL);
			return err_set(e, ERR_SYSTEM, errnum,
				       "Kerberos: private credential cache dir in %s (TMPDIR)",
				       tmp && *tmp ? tmp : "/tmp");
		}
		memcpy(env.dir, dir, sizeof(env.dir));
		snprintf(env.cache, sizeof(env.cache), "%s/ccache", env.dir);
		sigprocmask(SIG_SETMASK, &held, NULL);
		if (init_cache(n->principal, e) < 0) {
			env_cleanup();
			return -1;
		}
		kt = xasprintf("FILE:%s", n->keytab);
		cleanup_free char *cc = xasprintf("FILE:%s", env.cache);
		env_set("KRB5_CLIENT_KTNAME", kt);
		env_set("KRB5CCNAME", cc);
	}
	/* the JDK of the rmadmin child reads krb5.conf only from this property */
	if (!opts || !strstr(opts, "-Djava.security.krb5.conf=")) {
		cleanup_free char *o = NULL;

		/* KRB5_CONFIG's first file: empty entries ("::/etc/kilo/krb5.conf")
		 * name none */
		while (conf && *conf == ':')
			conf++;
		krb5conf = xstrdup(conf && *conf ? conf : "/etc/krb5.conf");
		krb5conf[strcspn(krb5conf, ":")] = '\0';
		o = xasprintf("%s%s-Djava.security.krb5.conf=%s", opts ? opts : "",
			      opts && *opts ? " " : "", krb5conf);
		env_set("HADOOP_OPTS", o);
	}
	env.keytab = n->keytab ? xstrdup(n->keytab) : NULL;
	env.principal = n->principal ? xstrdup(n->principal) : NULL;
	env.done = 1;
	return 0;
}

/* ---- per exchange ---- */

static const char GSS_FAILED[] = "gss_init_sec_context() failed: ";

/* curl's verbose lines: only a GSS-API failure's text is kept, and of the
 * request headers only whether one is "Authorization: Negotiate". */
static int on_debug(CURL *curl, curl_infotype type, char *data, size_t size, void *arg)
{
	struct http_negotiate_xfer *x = arg;
	static const char auth[] = "authorization: negotiate ";

	(void)curl;
	if (type == CURLINFO_TEXT && size > sizeof(GSS_FAILED) - 1 &&
	    memcmp(data, GSS_FAILED, sizeof(GSS_FAILED) - 1) == 0 && !*x->gss) {
		size_t n = size < sizeof(x->gss) - 1 ? size : sizeof(x->gss) - 1;

		for (size_t i = 0; i < n; i++)
			x->gss[i] = (unsigned char)data[i] < 0x20 ? ' ' : data[i];
		x->gss[n] = '\0';
	} else if (type == CURLINFO_HEADER_OUT) {
		for (size_t i = 0; i + sizeof(auth) - 1 <= size; i++)
			if ((i == 0 || data[i - 1] == '\n') &&
			    strncasecmp(data + i, auth, sizeof(auth) - 1) == 0)
				x->token_sent = 1;
	}
	return 0;
}

/* The jar of url's origin, made on first use. */
static CURLSH *jar_of(struct http_negotiate *n, const char *url)
{
	const char *p = strstr(url, "://"), *a = p ? p + 3 : url;
	size_t len = (size_t)(a - url) + strcspn(a, "/?#");
	char *origin = xasprintf("%.*s", (int)len, url);

	for (char *c = origin; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	for (size_t i = 0; i < n->njars; i++)
		if (strcmp(n->jars[i].origin, origin) == 0) {
			free(origin);
			return n->jars[i].share;
		}
	n->jars = xrealloc(n->jars, (n->njars + 1) * sizeof(*n->jars));
	n->jars[n->njars].origin = origin;
	n->jars[n->njars].share = curl_share_init();
	if (n->jars[n->njars].share)
		curl_share_setopt(n->jars[n->njars].share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
	return n->jars[n->njars++].share;
}

int http_negotiate_setup(struct http_negotiate *n, CURL *curl, const char *url,
			 struct http_negotiate_xfer *x, struct err *e)
{
	CURLSH *share;

	memset(x, 0, sizeof(*x));
	if (kdc_down_at && clock_mono_ms() - kdc_down_at < HTTP_KDC_DOWN_MS)
		return err_set(e, ERR_TEMP, 0,
			       "Kerberos: no KDC answered %" PRId64
			       " s ago: not asked again for %d s (each try waits some 27 s)",
			       (clock_mono_ms() - kdc_down_at) / 1000, HTTP_KDC_DOWN_MS / 1000);
	if (http_negotiate_env(n, e) < 0)
		return -1;
	/* probe first: a request with the cookie needs no token (CURLAUTH_ONLY) */
	curl_easy_setopt(curl, CURLOPT_HTTPAUTH, (long)(CURLAUTH_NEGOTIATE | CURLAUTH_ONLY));
	curl_easy_setopt(curl, CURLOPT_USERPWD, ":");
	share = jar_of(n, url);
	if (share)
		curl_easy_setopt(curl, CURLOPT_SHARE, share);
	curl_easy_setopt(curl, CURLOPT_COOKIEFILE, ""); /* the cookie engine, in memory */
	curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, on_debug);
	curl_easy_setopt(curl, CURLOPT_DEBUGDATA, x);
	curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L); /* the GSS-API text comes as verbose lines */
	return 0;
}

/* ---- pure ---- */

/* The GSS-API major status texts (RFC 2744) curl puts before the minor
 * one: the minor (MIT's krb5 message) is what an operator acts on. */
static const char *const majors[] = {
	"Unspecified GSS failure.  Minor code may provide more information",
	"No credentials were supplied, or the credentials were unavailable or inaccessible",
	"An invalid name was supplied",
	"The operation or option is unavailable",
	NULL,
};

int http_negotiate_why(const char *gss, int token_sent, long status, const char *keytab,
		       const char *principal, char *out, size_t size)
{
	const char *t = gss && *gss ? gss : NULL, *hint = NULL;
	char text[512], kt[320] = "";
	size_t n;

	*out = '\0';
	if (status < 400 || (status != 401 && status != 403 && !t))
		return 0;
	/* a 403 without a token or a GSS-API failure: the request rode the
	 * hadoop.auth cookie, and the RM refused it for its own reason (its
	 * body says which), not Kerberos */
	if (status == 403 && !t && !token_sent)
		return 0;
	if (!t) {
		if (token_sent)
			snprintf(
				out, size,
				"Kerberos: the RM refused the ticket (HTTP %ld after SPNEGO): its "
				"HTTP/<host> keytab lacks the KDC's current key, or its clock is off",
				status);
		else
			snprintf(
				out, size,
				"Kerberos: HTTP %ld without SPNEGO (the RM did not ask for Negotiate)",
				status);
		return 1;
	}
	if (strncmp(t, GSS_FAILED, sizeof(GSS_FAILED) - 1) == 0)
		t += sizeof(GSS_FAILED) - 1;
	for (int again = 1; again;) {
		again = 0;
		while (*t == '.' || *t == ' ')
			t++;
		for (const char *const *m = majors; *m; m++)
			if (strncmp(t, *m, strlen(*m)) == 0) {
				t += strlen(*m);
				again = 1;
			}
	}
	snprintf(text, sizeof(text), "%s", *t ? t : gss);
	n = strlen(text);
	while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '.'))
		text[--n] = '\0';
	if (keytab)
		snprintf(kt, sizeof(kt),
			 "keytab %s holds no key for %s, or cannot be read (kadmin: "
			 "ktadd -norandkey)",
			 keytab, principal ? principal : "the principal");
	if (strstr(text, "Clock skew too great"))
		hint = "this host's clock and the KDC's or the RM's differ by more than "
		       "krb5.conf's clockskew (300 s): sync them (NTP)";
	else if (strstr(text, "Cannot contact any KDC"))
		hint = "no KDC answered (krb5.conf: [realms] kdc; MIT waits some 27 s per KDC)";
	else if (strstr(text, "Cannot find KDC")) /* at once: nothing was asked */
		hint = "the krb5.conf in use has no [realms] entry for this realm, or there is "
		       "none (MIT ignores a KRB5_CONFIG naming a missing file)";
	else if (strstr(text, "Client '") && strstr(text, "not found in Kerberos database"))
		hint = "the KDC does not know the client principal (clusters[].principal)";
	else if (strstr(text, "not found in Kerberos database"))
		hint = "the KDC has no HTTP/<host> for the RM URL's host (rmUrls: the RM's FQDN; "
		       "krb5.conf: dns_canonicalize_hostname, rdns false)";
	else if (keytab &&
		 (strstr(text, "not found in keytab") || strstr(text, "no suitable keys") ||
		  strstr(text, "Key table entry not found") || strstr(text, "cache is empty")))
		hint = kt;
	else if (strstr(text, "Preauthentication failed") || strstr(text, "Password incorrect") ||
		 strstr(text, "Decrypt integrity"))
		hint = "the keytab's key is not the KDC's (re-keyed since exported: export it again)";
	else if (strstr(text, "No Kerberos credentials") || strstr(text, "No credentials cache") ||
		 strstr(text, "cache is empty") || strstr(text, "expired") ||
		 strstr(text, "cannot find mechanisms"))
		hint = keytab ? kt
			      : "no valid ticket: kinit as the user kilo-sync runs as, or set "
				"clusters[].keytab and principal";
	snprintf(out, size, "Kerberos: %s%s%s", text, hint ? ": " : "", hint ? hint : "");
	return 1;
}
