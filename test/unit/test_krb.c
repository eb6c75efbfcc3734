// SPDX-License-Identifier: Apache-2.0
/* test_krb - auth: kerberos in kilo-sync's config and the Kerberos reasons
 * of remote/http_auth (pure: the texts are MIT's, as curl logs them; the
 * real exchanges are test/cli/kilo-sync/kerberos*.sh against a real KDC). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "doc/syncconfig.h"
#include "remote/http_auth.h"
#include "testlib.h"

static const char head[] = "clusters:\n  - id: a\n    rmUrls: ['http://rm.example.com:8088']\n";

/* Each bad combination is refused at its field, one line. */
static const struct {
	const char *extra, *want;
} bad_cases[] = {
	{ "    auth: kerbros\n",
	  "sync.yaml:4:11: clusters[0].auth: expected one of \"simple\", \"kerberos\", got "
	  "\"kerbros\"" },
	{ "    auth: kerberos\n    userName: yarn\n",
	  "sync.yaml:5:15: clusters[0].userName: expected no userName with auth: kerberos (the "
	  "ticket names the user), got \"yarn\"" },
	{ "    keytab: /k\n    principal: p@R\n",
	  "sync.yaml:4:13: clusters[0].keytab: expected no keytab or principal with auth simple "
	  "(set auth: kerberos), got \"/k\"" },
	{ "    auth: kerberos\n    keytab: k.keytab\n    principal: p@R\n",
	  "sync.yaml:5:13: clusters[0].keytab: expected an absolute path, got \"k.keytab\"" },
	{ "    auth: kerberos\n    keytab: /k\n",
	  "sync.yaml: clusters[0].principal: expected the principal whose key the keytab holds, "
	  "got nothing" },
	{ "    auth: kerberos\n    principal: p@R\n",
	  "sync.yaml: clusters[0].keytab: expected a keytab with the principal (without both, the "
	  "operator's credential cache is used), got nothing" },
	{ "    auth: kerberos\n    keytab: /k\n    principal: 'p @R'\n",
	  "sync.yaml:6:16: clusters[0].principal: expected a Kerberos principal name, got \"p @R\"" },
	{ "    auth: kerberos\n    keytab: /k\n    principal: p@R\n"
	  "  - id: b\n    rmUrls: ['http://rm2:8088']\n    auth: kerberos\n    keytab: /k2\n"
	  "    principal: p@R\n",
	  "sync.yaml:10:13: clusters[1].keytab: expected the keytab and principal of every other "
	  "kerberos cluster (one Kerberos identity per process), got \"/k2\"" },
	{ "    auth: kerberos\n    keytab: /k\n    principal: p@R\n"
	  "  - id: b\n    rmUrls: ['http://rm2:8088']\n    auth: kerberos\n",
	  "sync.yaml:9:11: clusters[1].auth: expected the keytab and principal of every other "
	  "kerberos cluster (one Kerberos identity per process), got \"kerberos\"" },
	{ "    auth: kerberos\n    keytab: /k\n    principal: \"p\\x01@R\"\n",
	  "sync.yaml:6:16: clusters[0].principal: expected a Kerberos principal name, got "
	  "\"p\\u0001@R\"" },
	{ "    auth: kerberos\n    keytab: /k\n    principal: '@R'\n",
	  "sync.yaml:6:16: clusters[0].principal: expected a Kerberos principal name, got \"@R\"" },
	{ "    auth: kerberos\n    keytab: /k\n    principal: 'kilo/sync@'\n",
	  "sync.yaml:6:16: clusters[0].principal: expected a Kerberos principal name, got "
	  "\"kilo/sync@\"" },
	{ "    auth: kerberos\n    keytab: \"/k\\n\"\n    principal: p@R\n",
	  "sync.yaml:5:13: clusters[0].keytab: expected an absolute path, got \"/k\\n\"" },
	{ "    auth: [kerberos]\n",
	  "sync.yaml:4:11: clusters[0].auth: expected a string, got [\"kerberos\"]" },
};

START_TEST(test_syncconfig_kerberos_refused)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/sync.yaml", dir);
	char *text = xasprintf("%s%s", head, bad_cases[_i].extra);
	struct sync_config sc;
	struct err e = { 0 };

	testlib_write(dir, "sync.yaml", text);
	ck_assert_int_eq(sync_config_load(&sc, path, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(e.msg, "sync.yaml"));
	ck_assert_str_eq(strstr(e.msg, "sync.yaml"), bad_cases[_i].want);
	sync_config_release(&sc);
	testlib_rmtree(dir);
	free(text);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_syncconfig_kerberos_loads)
{
	char *dir = testlib_tmpdir(), *path = xasprintf("%s/sync.yaml", dir);
	char *text = xasprintf(
		"%s    auth: kerberos\n    keytab: /etc/kilo/krb5.keytab\n"
		"    principal: kilo/sync@EXAMPLE.COM\n"
		"  - id: b\n    rmUrls: ['http://rm2:8088']\n    auth: kerberos\n"
		"    keytab: /etc/kilo/krb5.keytab\n    principal: kilo/sync@EXAMPLE.COM\n"
		"  - id: c\n    rmUrls: ['http://rm3:8088']\n    userName: yarn\n"
		"    auth: simple\n",
		head);
	struct sync_config sc;
	struct err e = { 0 };

	testlib_write(dir, "sync.yaml", text);
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.nclusters, 3);
	ck_assert_int_eq(sc.clusters[0].kerberos, 1);
	ck_assert_str_eq(sc.clusters[0].keytab, "/etc/kilo/krb5.keytab");
	ck_assert_str_eq(sc.clusters[1].principal, "kilo/sync@EXAMPLE.COM");
	ck_assert_int_eq(sc.clusters[2].kerberos, 0);
	ck_assert_ptr_null(sc.clusters[2].keytab);
	ck_assert_str_eq(sc.clusters[2].user_name, "yarn");
	sync_config_release(&sc);
	/* the operator's cache: kerberos without keytab and principal */
	free(text);
	text = xasprintf("%s    auth: kerberos\n", head);
	testlib_write(dir, "sync.yaml", text);
	ck_assert_msg(sync_config_load(&sc, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.clusters[0].kerberos, 1);
	ck_assert_ptr_null(sc.clusters[0].keytab);
	ck_assert_ptr_null(sc.clusters[0].principal);
	sync_config_release(&sc);
	testlib_rmtree(dir);
	free(text);
	free(path);
	free(dir);
}
END_TEST

#define FAILED "gss_init_sec_context() failed: "
#define NOCRED "No credentials were supplied, or the credentials were unavailable or inaccessible. "
#define UNSPEC "Unspecified GSS failure.  Minor code may provide more information. "

/* MIT's texts (as curl 7.88 logs them, seen against the test KDC) to the
 * reason an operator reads. */
static const struct {
	const char *gss;
	int token_sent;
	long status;
	const char *keytab, *want;
} why_cases[] = {
	{ FAILED NOCRED "Clock skew too great.", 0, 401, "/k",
	  "Kerberos: Clock skew too great: this host's clock and the KDC's or the RM's differ by "
	  "more than krb5.conf's clockskew (300 s): sync them (NTP)" },
	{ FAILED UNSPEC "Client 'gone@KILO.TEST' not found in Kerberos database.", 0, 401, "/k",
	  "Kerberos: Client 'gone@KILO.TEST' not found in Kerberos database: the KDC does not "
	  "know the client principal (clusters[].principal)" },
	{ FAILED UNSPEC "Server HTTP/rm.example.com@R not found in Kerberos database.", 0, 401,
	  NULL,
	  "Kerberos: Server HTTP/rm.example.com@R not found in Kerberos database: the KDC has no "
	  "HTTP/<host> for the RM URL's host (rmUrls: the RM's FQDN; krb5.conf: "
	  "dns_canonicalize_hostname, rdns false)" },
	{ FAILED NOCRED "Cannot contact any KDC for realm 'KILO.TEST'.", 0, 401, "/k",
	  "Kerberos: Cannot contact any KDC for realm 'KILO.TEST': no KDC answered (krb5.conf: "
	  "[realms] kdc; MIT waits some 27 s per KDC)" },
	{ FAILED NOCRED "Credential cache is empty.", 0, 401, "/k",
	  "Kerberos: Credential cache is empty: keytab /k holds no key for p@R, or cannot be "
	  "read (kadmin: ktadd -norandkey)" },
	{ FAILED NOCRED "SPNEGO cannot find mechanisms to negotiate.", 0, 401, NULL,
	  "Kerberos: SPNEGO cannot find mechanisms to negotiate: no valid ticket: kinit as the "
	  "user kilo-sync runs as, or set clusters[].keytab and principal" },
	{ FAILED UNSPEC "Ticket expired.", 0, 401, NULL,
	  "Kerberos: Ticket expired: no valid ticket: kinit as the user kilo-sync runs as, or "
	  "set clusters[].keytab and principal" },
	{ FAILED UNSPEC "Preauthentication failed.", 0, 401, "/k",
	  "Kerberos: Preauthentication failed: the keytab's key is not the KDC's (re-keyed since "
	  "exported: export it again)" },
	{ FAILED UNSPEC "Something new.", 0, 401, NULL, "Kerberos: Something new" },
	{ "", 1, 403, "/k",
	  "Kerberos: the RM refused the ticket (HTTP 403 after SPNEGO): its HTTP/<host> keytab "
	  "lacks the KDC's current key, or its clock is off" },
	{ "", 1, 401, NULL,
	  "Kerberos: the RM refused the ticket (HTTP 401 after SPNEGO): its HTTP/<host> keytab "
	  "lacks the KDC's current key, or its clock is off" },
	{ "", 0, 401, NULL,
	  "Kerberos: HTTP 401 without SPNEGO (the RM did not ask for Negotiate)" },
	/* no authentication failure: no reason */
	/* a 403 to a request that rode the hadoop.auth cookie (no token, no
	 * GSS-API failure) is the RM's own refusal: its body says why */
	{ "", 0, 403, "/k", "" },
	{ "", 1, 200, "/k", "" },
	{ "", 1, 404, "/k", "" },
	{ "", 1, 500, NULL, "" },
};

START_TEST(test_negotiate_why)
{
	char out[640];
	int r = http_negotiate_why(why_cases[_i].gss, why_cases[_i].token_sent,
				   why_cases[_i].status, why_cases[_i].keytab, "p@R", out,
				   sizeof(out));

	ck_assert_int_eq(r, *why_cases[_i].want != '\0');
	ck_assert_str_eq(out, why_cases[_i].want);
}
END_TEST

/* A small buffer: cut, always terminated. */
START_TEST(test_negotiate_why_small)
{
	char out[16];

	ck_assert_int_eq(http_negotiate_why(FAILED UNSPEC "Ticket expired.", 0, 401, NULL, NULL,
					    out, sizeof(out)),
			 1);
	ck_assert_str_eq(out, "Kerberos: Ticke");
}
END_TEST

/* A keytab that is no regular file, or that cannot be opened, is refused
 * before any ticket is asked for: a FIFO would block MIT's fopen (in
 * gss_init_sec_context, outside curl's time limit) for ever, a directory or
 * an empty file would read as "Credential cache is empty".  Nothing is left
 * in TMPDIR. */
static const struct {
	const char *name, *why;
} keytab_cases[] = {
	{ "fifo", "not a regular file (a FIFO)" },
	{ "dir", "not a regular file (a directory)" },
	{ "empty", "empty" },
	{ "missing", "No such file or directory" },
};

START_TEST(test_negotiate_env_keytab_refused)
{
	char *dir = testlib_tmpdir(), *tmp = xasprintf("%s/tmp", dir);
	char *kt = xasprintf("%s/%s", dir, keytab_cases[_i].name);
	char *want = xasprintf("Kerberos: keytab %s: %s", kt, keytab_cases[_i].why);
	struct http_negotiate *n = http_negotiate_new(kt, "kilo/sync@KILO.TEST");
	struct err e = { 0 };
	DIR *d;
	struct dirent *de;
	int entries = 0;

	ck_assert_int_eq(mkdir(tmp, 0700), 0);
	ck_assert_int_eq(setenv("TMPDIR", tmp, 1), 0);
	if (strcmp(keytab_cases[_i].name, "fifo") == 0)
		ck_assert_int_eq(mkfifo(kt, 0600), 0);
	else if (strcmp(keytab_cases[_i].name, "dir") == 0)
		ck_assert_int_eq(mkdir(kt, 0700), 0);
	else if (strcmp(keytab_cases[_i].name, "empty") == 0)
		testlib_write(dir, keytab_cases[_i].name, "");
	alarm(10); /* a FIFO opened blocking would hang here */
	ck_assert_int_eq(http_negotiate_env(n, &e), -1);
	alarm(0);
	ck_assert_str_eq(e.msg, want);
	ck_assert_ptr_null(getenv("KRB5_CLIENT_KTNAME"));
	d = opendir(tmp);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		entries += de->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(entries, 0);
	err_clear(&e);
	http_negotiate_free(n);
	free(want);
	free(kt);
	free(tmp);
	free(dir);
}
END_TEST

/* HADOOP_OPTS gains KRB5_CONFIG's first file: an empty first entry
 * (":/etc/kilo/krb5.conf", as a list built by appending gives) is no file,
 * and "-Djava.security.krb5.conf=" without one makes the JDK read none. */
START_TEST(test_negotiate_env_krb5_config)
{
	struct http_negotiate *n = http_negotiate_new(NULL, NULL);
	struct err e = { 0 };

	ck_assert_int_eq(setenv("KRB5_CONFIG", "::/etc/kilo/krb5.conf:/etc/krb5.conf", 1), 0);
	ck_assert_int_eq(setenv("HADOOP_OPTS", "-Xmx1g", 1), 0);
	ck_assert_int_eq(http_negotiate_env(n, &e), 0);
	ck_assert_str_eq(getenv("HADOOP_OPTS"),
			 "-Xmx1g -Djava.security.krb5.conf=/etc/kilo/krb5.conf");
	http_negotiate_free(n);
}
END_TEST

static Suite *krb_suite(void)
{
	Suite *s = suite_create("krb");
	TCase *tc = tcase_create("config");

	tcase_add_loop_test(tc, test_syncconfig_kerberos_refused, 0,
			    sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_syncconfig_kerberos_loads);
	suite_add_tcase(s, tc);
	tc = tcase_create("why");
	tcase_add_loop_test(tc, test_negotiate_why, 0, sizeof(why_cases) / sizeof(why_cases[0]));
	tcase_add_test(tc, test_negotiate_why_small);
	tcase_add_test(tc, test_negotiate_env_krb5_config);
	tcase_add_loop_test(tc, test_negotiate_env_keytab_refused, 0,
			    sizeof(keytab_cases) / sizeof(keytab_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}

KILO_TEST_MAIN(krb_suite)
