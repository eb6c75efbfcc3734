/* SPDX-License-Identifier: Apache-2.0 */
/* k8s - a small Kubernetes API client on top of lib/remote/http.
 *
 * Two halves:
 *   config   k8s_config_load() finds the server and credentials the way
 *            client-go does (k8s-conventions.md sections 1-2): --kubeconfig
 *            FILE, else $KUBECONFIG (a ':'-list merged first-wins), else
 *            ~/.kube/config, else in-cluster (KUBERNETES_SERVICE_HOST/PORT
 *            and the service-account directory).  kubeconfig files are
 *            read with lib/core/config (libyaml).  Supported: cluster server,
 *            certificate-authority[-data], insecure-skip-tls-verify,
 *            disable-compression (a no-op: kilo never asks for
 *            compression); user client-certificate[-data],
 *            client-key[-data], token, tokenFile, exec; context cluster,
 *            user, namespace.  Any other key of the selected cluster, user,
 *            context or exec entry (tls-server-name, proxy-url,
 *            auth-provider, username, as, ...) is refused with a message
 *            naming it and its file position.
 *   client   k8s_client_init() and the calls below.  Every call is
 *            build (path, query, body) -> http_perform -> parse, with:
 *            - 429 and 5xx retried up to max_retries times, waiting the
 *              integer Retry-After when the server sends one (capped at
 *              max_wait_ms), else 200 ms doubling; a GET whose connection
 *              failed (reset, refused, timeout) is retried the same way,
 *              other methods are not (but libcurl re-sends any request once
 *              when a kept-alive connection turns out closed before any
 *              answer byte);
 *            - the bearer token of a token file (tokenFile, in-cluster)
 *              re-read by path at most every K8S_TOKEN_REREAD_MS and at once
 *              after a 401 (then the request is sent once more); an exec
 *              plugin's credential kept until its expirationTimestamp and
 *              re-made after a 401 (client-go transport/token_source.go,
 *              plugin/pkg/client/auth/exec);
 *            - errors decoded from the metav1 Status body
 *              ("<message> (<reason>)") or from a plain-text body (429 from
 *              API Priority and Fairness is plain text), kinds as
 *              http_status_kind(): 404 ERR_NOTFOUND, 429/5xx ERR_TEMP, other
 *              4xx ERR_REMOTE; the HTTP status and Status reason of the last
 *              answer stay in k8s_client.last_status/last_reason (409
 *              "Conflict": re-read and retry; 410 "Expired").
 * The bearer token never appears in an error message or a trace line: it is
 * registered as a secret (err_secret_add) as soon as it is read.
 *
 * Typical use (a tool's main() has called http_global_init()):
 *
 *	struct k8s_options o = { .kubeconfig = opt_kubeconfig, .context = opt_context };
 *	struct k8s_list_options lo = { .field_selector = "status.phase!=Succeeded" };
 *	struct k8s_client c;
 *
 *	if (k8s_client_init(&c, &o, NULL, NULL, &e) < 0 ||
 *	    k8s_pods_list(&c, NULL, node, &lo, reduce_page, &acc, &e) < 0)
 *		...  (release c either way; err_exit_code(&e) maps e.kind)
 *	node = k8s_node_get(&c, name, &e);        (rv = metadata.resourceVersion)
 *	patched = k8s_node_patch_annotations(&c, name, ann, rv, &e);
 *	if (!patched && c.last_status == 409)  ... read the node again, recompute, retry
 *	k8s_client_release(&c);
 *
 * Ownership: k8s_options strings are borrowed for the duration of the init
 * call only; everything a call returns is a new reference for the caller;
 * the page given to a k8s_page_fn is borrowed.  A client is not
 * thread-safe (one per thread).
 */
#ifndef KILO_K8S_H
#define KILO_K8S_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"
#include "remote/http.h"

#define K8S_SA_DIR "/var/run/secrets/kubernetes.io/serviceaccount"
#define K8S_TOKEN_REREAD_MS 60000 /* token files are re-read at most this often */
#define K8S_MAX_RETRIES 5         /* default k8s_client.max_retries */
#define K8S_MAX_WAIT_MS 10000     /* default k8s_client.max_wait_ms */
/* An exec credential plugin is killed after this long (client-go has no
 * bound; a hung plugin would stall every pass), and its answer (an
 * ExecCredential: a token or a client certificate) is at most this big. */
#define K8S_EXEC_TIMEOUT_MS 60000
#define K8S_EXEC_MAX_BYTES (1 << 20)
#define K8S_LIST_LIMIT 500      /* default page size (kubectl's chunk size) */
#define K8S_LIST_RESTARTS 3     /* a listing restarts at most this often after 410 */
#define K8S_LIST_MAX_PAGES 2000 /* default k8s_list_options.max_pages */
/* The longest continue token taken (the API server's are a base64 key of
 * ~100 bytes; a longer one could not be sent back in a URL). */
#define K8S_CONTINUE_MAX 4096

/* Where the configuration comes from: a tool's flags.  All strings
 * borrowed; every member may be NULL/0. */
struct k8s_options {
	const char *kubeconfig; /* --kubeconfig FILE: only that file, must exist */
	const char *context;    /* --context NAME, else current-context */
	const char *namespace;  /* -n NS, else the context's, else in-cluster's, else "default" */
	const char *root;       /* prefix for the service-account dir (a --sysroot), NULL "/" */
	const char *sa_dir;     /* service-account dir, NULL: K8S_SA_DIR (under root) */
};

/* An exec credential plugin (kubeconfig users[].user.exec). */
struct k8s_exec {
	char *command;     /* resolved against the kubeconfig's dir when it has a '/' */
	char **args;       /* NULL-terminated */
	char **env;        /* NULL-terminated "NAME=value" added to the environment */
	char *api_version; /* client.authentication.k8s.io/v1 or v1beta1 */
	int provide_cluster_info;
};

/* The resolved configuration.  Owned strings, NULL when unset; paths are
 * absolute or relative to the current directory. */
struct k8s_config {
	char *source;                /* "kubeconfig <files>, context <name>" or "in-cluster" */
	char *server;                /* "https://host:port[/prefix]" */
	char *ca_file, *ca_data;     /* PEM; data is base64-decoded already */
	char *cert_file, *cert_data; /* client certificate */
	char *key_file, *key_data;   /* client key */
	int insecure;                /* insecure-skip-tls-verify */
	char *token;                 /* static bearer token */
	char *token_file;            /* re-read bearer token file (wins over token) */
	struct k8s_exec *exec;       /* or NULL */
	char *namespace;             /* never NULL after k8s_config_load() */
};

/* Resolve the configuration from o and the environment (KUBECONFIG, HOME,
 * KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT, POD_NAMESPACE).
 * Returns 0, or -1 with e set: ERR_INPUT "<file>:<line>:<col>: <what>" for
 * a bad or unsupported kubeconfig, ERR_USAGE when --kubeconfig is
 * missing or no configuration exists at all, ERR_SYSTEM when a file cannot
 * be read.  Release *cfg with k8s_config_release() either way. */
int k8s_config_load(struct k8s_config *cfg, const struct k8s_options *o, struct err *e);

/* The in-cluster part alone: the server from KUBERNETES_SERVICE_HOST and
 * _PORT (an IPv6 host in brackets), token_file and ca.crt (when readable)
 * from the service-account dir, namespace from POD_NAMESPACE, the
 * namespace file or "default".  Returns 0, or -1 with e set (ERR_NOTFOUND
 * when not in a cluster: a variable empty or no token file). */
int k8s_config_in_cluster(struct k8s_config *cfg, const struct k8s_options *o, struct err *e);

/* Free what cfg owns and zero it (safe on a zeroed or failed config). */
void k8s_config_release(struct k8s_config *cfg);

/* Decode standard base64 (RFC 4648, '\r' '\n' and blanks ignored, like Go's
 * decoder for kubeconfig *-data).  Returns a new NUL-terminated string and
 * its length in *len, or NULL when s is not base64. */
char *k8s_base64_decode(const char *s, size_t *len);

/* A connection to one API server. */
struct k8s_client {
	struct k8s_config cfg;
	struct http_client http;    /* tls and timeouts from cfg; bearer_token points at token */
	char *token;                /* current bearer token or NULL (never logged) */
	int64_t token_read_ms;      /* clock_mono_ms() of the last file read or exec run */
	int64_t token_expiry_ms;    /* exec credential expiry (wall clock), 0: none */
	char *exec_cert, *exec_key; /* client certificate and key from the exec plugin (PEM) */
	int max_retries;            /* 429/5xx/connection retries per call */
	int64_t max_wait_ms;        /* cap of one wait between retries */
	int64_t backoff_ms;         /* first wait without Retry-After, doubled each time */
	long last_status;           /* HTTP status of the last answer, 0 when none */
	char last_reason[64];       /* Status reason of the last answer ("Conflict"), or "" */
	int retries;                /* retries done by the last call (for tests and logs) */
};

/* k8s_config_load() into c->cfg and set up the HTTP client.  trace (may be
 * NULL) receives one line per HTTP exchange (no headers, no token).  Reads
 * the first token now, so a missing token file fails here.  Returns 0, or
 * -1 with e set; release c with k8s_client_release() either way. */
int k8s_client_init(struct k8s_client *c, const struct k8s_options *o, http_trace_fn *trace,
		    void *trace_arg, struct err *e);

/* Same, from an already resolved configuration (moved into c: *cfg is
 * zeroed). */
int k8s_client_init_config(struct k8s_client *c, struct k8s_config *cfg, http_trace_fn *trace,
			   void *trace_arg, struct err *e);

/* Close the connection, free the configuration and the credentials, zero
 * c (safe on a zeroed or failed client). */
void k8s_client_release(struct k8s_client *c);

/* One API call with the retries, token handling and error decoding above.
 * path is escaped already ("/api/v1/nodes/worker-1"); query is
 * NULL-terminated key, value pairs (may be NULL); body may be NULL (then
 * content_type is ignored).  Returns the answer as a new reference (a JSON
 * object), or NULL with e set ("<METHOD> <path>: <reason>"). */
json_t *k8s_call(struct k8s_client *c, enum http_method method, const char *path,
		 const char *const *query, const char *content_type, const json_t *body,
		 struct err *e);

/* GET /api/v1/nodes/{name}.  New reference to the Node, or NULL with e set
 * (ERR_NOTFOUND 'nodes "x" not found (NotFound)'). */
json_t *k8s_node_get(struct k8s_client *c, const char *name, struct err *e);

/* Selectors and page size of a listing.  Strings borrowed, may be NULL.
 * Selector values must already be escaped (fields.EscapeValue: '\\', ','
 * and '=' with a backslash); the strings are percent-encoded here. */
struct k8s_list_options {
	const char *field_selector; /* "spec.nodeName=n1,status.phase!=Succeeded" */
	const char *label_selector; /* "app=x,tier in (a,b)" */
	long limit;                 /* items per page, 0: K8S_LIST_LIMIT */
	long max_pages;             /* pages of one listing, 0: K8S_LIST_MAX_PAGES */
	int64_t deadline_ms;        /* clock_mono_ms() past which no page is asked for, 0: none */
	const char *kind;           /* every page must be of this kind ("PodList"), NULL: any
				     * "...List" (k8s_nodes_list/k8s_pods_list set it) */
	/* What of each item to build (a jsonio_filter, borrowed, static), NULL:
	 * all of it.  With a filter a page is parsed by jsonio_filter.c and
	 * never held as a whole jansson tree; the page handed to fn has only
	 * kind, apiVersion, metadata.continue/resourceVersion and the items
	 * as filtered.  Every rule above stays (not JSON, no items array,
	 * continue tokens, max_pages, the body cap of http_client.max_body)
	 * with the same messages; duplicate keys are refused among the keys
	 * built, as with `plan --from` (one under a key not built, e.g. in
	 * managedFields, changes nothing read and is not looked for); a
	 * caller's message that quotes a malformed item quotes what was
	 * built of it. */
	const struct jsonio_filter *item_fields;
};

/* Called once per page with the list object (a "NodeList"/"PodList",
 * borrowed: it is freed when the callback returns, so keep what is needed
 * by reducing it or with json_incref).  page is NULL when the listing
 * restarted after its continue token expired (410): everything earlier
 * pages gave must be discarded, the pages come again from the start.
 * Return 0 to go on, -1 (with e set) to stop the listing. */
typedef int k8s_page_fn(void *arg, json_t *page, struct err *e);

/* List path (a collection: "/api/v1/nodes", "/api/v1/pods",
 * "/api/v1/namespaces/yarn/pods") page by page with limit/continue.  A 410
 * on a continued page restarts the listing (page NULL to fn) at most
 * K8S_LIST_RESTARTS times; any other failed page fails the whole listing.
 * A listing is never taken as complete unless it is (threat-model.md: a
 * partial or endless listing): a page that is not a list object (kind
 * "...List" and an items array: a Status, a missing or non-array items), a
 * continue token this listing was already given or one longer than
 * K8S_CONTINUE_MAX, more than max_pages pages,
 * or deadline_ms passing each fail it with ERR_TEMP, so the caller writes
 * nothing.  Returns the number of pages handed to fn, or -1 with e set. */
int k8s_list(struct k8s_client *c, const char *path, const struct k8s_list_options *lo,
	     k8s_page_fn *fn, void *arg, struct err *e);

/* Nodes: k8s_list() of /api/v1/nodes. */
int k8s_nodes_list(struct k8s_client *c, const struct k8s_list_options *lo, k8s_page_fn *fn,
		   void *arg, struct err *e);

/* Pods of all namespaces (namespace NULL) or of one, optionally of one node
 * (node_name not NULL: "spec.nodeName=<node>" is put before
 * lo->field_selector). */
int k8s_pods_list(struct k8s_client *c, const char *namespace, const char *node_name,
		  const struct k8s_list_options *lo, k8s_page_fn *fn, void *arg, struct err *e);

/* The whole listing as one list object {"kind":"<Kind>List","apiVersion",
 * "metadata":{"resourceVersion"},"items":[...]} (items of every page, kind
 * of the first page; a 410 restart drops what was gathered).  New
 * reference, or NULL with e set.  For small lists and tests; large ones
 * should reduce page by page with k8s_list(). */
json_t *k8s_list_all(struct k8s_client *c, const char *path, const struct k8s_list_options *lo,
		     struct err *e);

/* Merge-patch (RFC 7386) the node's metadata.annotations:
 *   PATCH /api/v1/nodes/{name}  application/merge-patch+json
 *   {"metadata":{"annotations":annotations,"resourceVersion":rv}}
 * annotations maps keys to strings (set) or null (delete).  With
 * resource_version (the one read with the node) a concurrent writer makes
 * the server answer 409 (last_reason "Conflict"): read the node again,
 * recompute and retry.  NULL resource_version: last writer wins.  Returns
 * the patched Node (new reference), or NULL with e set. */
json_t *k8s_node_patch_annotations(struct k8s_client *c, const char *name,
				   const json_t *annotations, const char *resource_version,
				   struct err *e);

/* The same for annotations and labels together (either may be NULL): one
 * merge patch {"metadata":{"annotations":..,"labels":..,"resourceVersion":rv}},
 * so both change or neither does. */
json_t *k8s_node_patch_metadata(struct k8s_client *c, const char *name, const json_t *annotations,
				const json_t *labels, const char *resource_version, struct err *e);

/* Build (pure): the error for a non-2xx answer.  A metav1 Status body
 * gives "<what>: <message> (<reason>)", anything else (plain text, HTML)
 * "<what>: HTTP <status>: <start of body>"; kind from http_status_kind().
 * Copies the Status reason into reason (size bytes, "" when none).
 * Returns -1. */
int k8s_status_err(const struct http_response *r, const char *what, char *reason, size_t size,
		   struct err *e);

/* Parse (pure): an ExecCredential printed by a plugin.  Sets *token (new
 * string) or *cert and *key (new PEM strings), and *expiry_ms (ms since the
 * epoch, 0 when no expirationTimestamp).  Returns 0, or -1 with e set
 * (ERR_REMOTE naming the missing or bad field). */
int k8s_exec_parse(const char *out, const char *api_version, char **token, char **cert, char **key,
		   int64_t *expiry_ms, struct err *e);

#endif
