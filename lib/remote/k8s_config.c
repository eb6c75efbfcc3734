// SPDX-License-Identifier: Apache-2.0
/* k8s_config - kubeconfig and in-cluster configuration (see k8s.h).
 * Rules: client-go tools/clientcmd loader.go (KUBECONFIG merging, relative
 * paths), validation.go (conflicting fields), client_config.go
 * (inClusterClientConfig); k8s-conventions.md sections 1-2. */
#include "remote/k8s.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/config.h"
#include "core/xalloc.h"

/* ---- helpers ---- */

char *k8s_base64_decode(const char *s, size_t *len)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	cleanup_free char *out = xmalloc(strlen(s) / 4 * 3 + 4);
	uint32_t acc = 0;
	size_t n = 0, bits = 0, pad = 0;

	for (; *s; s++) {
		const char *p;

		if (isspace((unsigned char)*s))
			continue;
		if (*s == '=') {
			pad++;
			continue;
		}
		p = strchr(alphabet, *s);
		if (!p || pad)
			return NULL;
		acc = (acc << 6) | (uint32_t)(p - alphabet);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (char)((acc >> bits) & 0xff);
		}
	}
	/* leftover bits must be padding bits: 0 (complete), 2 or 4 */
	if (bits >= 6 || pad > 2)
		return NULL;
	out[n] = '\0';
	if (len)
		*len = n;
	return steal_ptr(&out);
}

/* A DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 bytes. */
static int dns_label(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
			return 0;
	return 1;
}

static char *env_str(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? xstrdup(v) : NULL;
}

void k8s_config_release(struct k8s_config *cfg)
{
	char **pp[] = { &cfg->source,    &cfg->server,     &cfg->ca_file,  &cfg->ca_data,
			&cfg->cert_file, &cfg->cert_data,  &cfg->key_file, &cfg->key_data,
			&cfg->token,     &cfg->token_file, &cfg->namespace };

	for (size_t i = 0; i < sizeof(pp) / sizeof(pp[0]); i++)
		free(*pp[i]);
	if (cfg->exec) {
		for (char **a = cfg->exec->args; a && *a; a++)
			free(*a);
		for (char **a = cfg->exec->env; a && *a; a++)
			free(*a);
		free(cfg->exec->args);
		free(cfg->exec->env);
		free(cfg->exec->command);
		free(cfg->exec->api_version);
		free(cfg->exec);
	}
	memset(cfg, 0, sizeof(*cfg));
}

/* ---- in-cluster ---- */

int k8s_config_in_cluster(struct k8s_config *cfg, const struct k8s_options *o, struct err *e)
{
	const char *root = o->root && strcmp(o->root, "/") != 0 ? o->root : "";
	const char *dir = o->sa_dir ? o->sa_dir : K8S_SA_DIR;
	cleanup_free char *host = env_str("KUBERNETES_SERVICE_HOST");
	cleanup_free char *port = env_str("KUBERNETES_SERVICE_PORT");
	cleanup_free char *sa = xasprintf("%s%s", root, dir);
	cleanup_free char *token = xasprintf("%s/token", sa);
	cleanup_free char *ca = xasprintf("%s/ca.crt", sa);
	cleanup_free char *nsfile = xasprintf("%s/namespace", sa);
	cleanup_fclose FILE *f = NULL;
	struct stat st;
	char buf[256] = "";

	memset(cfg, 0, sizeof(*cfg));
	if (!host || !port)
		return err_set(
			e, ERR_NOTFOUND, 0,
			"not in a cluster: KUBERNETES_SERVICE_HOST or KUBERNETES_SERVICE_PORT "
			"is not set");
	if (stat(token, &st) < 0)
		return err_set(e, ERR_NOTFOUND, errno,
			       "not in a cluster: service-account token '%s'", token);
	if (S_ISDIR(st.st_mode))
		return err_set(e, ERR_NOTFOUND, EISDIR,
			       "not in a cluster: service-account token '%s'", token);
	/* net.JoinHostPort: an IPv6 literal goes in brackets */
	cfg->server =
		xasprintf(strchr(host, ':') ? "https://[%s]:%s" : "https://%s:%s", host, port);
	cfg->token_file = steal_ptr(&token);
	/* client-go goes on with the system roots when ca.crt is unreadable */
	if (access(ca, R_OK) == 0)
		cfg->ca_file = steal_ptr(&ca);
	cfg->namespace = env_str("POD_NAMESPACE");
	if (!cfg->namespace && (f = fopen(nsfile, "re")) && fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, " \t\r\n")] = '\0';
		if (*buf)
			cfg->namespace = xstrdup(buf);
	}
	if (!cfg->namespace)
		cfg->namespace = xstrdup("default");
	cfg->source = xstrdup("in-cluster");
	return 0;
}

/* ---- kubeconfig ---- */

struct kc_file {
	struct config c;
	char *dir; /* directory of the file, for relative paths */
};

struct kubeconfig {
	struct kc_file *files;
	size_t n;
};

static void kubeconfig_release(struct kubeconfig *k)
{
	for (size_t i = 0; i < k->n; i++) {
		config_release(&k->files[i].c);
		free(k->files[i].dir);
	}
	free(k->files);
	memset(k, 0, sizeof(*k));
}

/* "<file>:<line>:<col>: " of v for messages, into buf. */
static const char *where(const struct kc_file *f, const json_t *v, char *buf, size_t size)
{
	long line, col;

	if (config_where(&f->c, v, &line, &col) == 0)
		snprintf(buf, size, "%s:%ld:%ld", f->c.name, line, col);
	else
		snprintf(buf, size, "%s", f->c.name);
	return buf;
}

static const char *const top_keys[] = { "apiVersion",      "kind",       "preferences",
					"clusters",        "users",      "contexts",
					"current-context", "extensions", NULL };

/* Refuse any key of obj not in known[]: "<pos>: <ctx>.<key>: not supported". */
static int refuse_unknown(const struct kc_file *f, const json_t *obj, const char *ctx,
			  const char *const *known, struct err *e)
{
	const char *key;
	json_t *v;
	char pos[PATH_MAX + 64];

	json_object_foreach((json_t *)obj, key, v)
	{
		const char *const *k = known;

		while (*k && strcmp(*k, key) != 0)
			k++;
		if (!*k)
			return err_set(e, ERR_INPUT, 0, "%s: %s.%s: not supported by kilo",
				       where(f, v, pos, sizeof(pos)), ctx, key);
	}
	return 0;
}

static int add_file(struct kubeconfig *k, const char *path, struct err *e)
{
	struct kc_file *f;
	cleanup_free char *abs = NULL;
	char *slash;

	k->files = xrealloc(k->files, (k->n + 1) * sizeof(*k->files));
	f = &k->files[k->n++];
	memset(f, 0, sizeof(*f));
	if (config_load(&f->c, path, e) < 0)
		return err_wrap(e, "kubeconfig");
	abs = path[0] == '/' ? xstrdup(path) : realpath(path, NULL);
	if (!abs)
		abs = xstrdup(path);
	slash = strrchr(abs, '/');
	f->dir = slash ? xasprintf("%.*s", (int)(slash - abs), abs) : xstrdup(".");
	if (!*f->dir) {
		free(f->dir);
		f->dir = xstrdup("/");
	}
	return refuse_unknown(f, f->c.root, "kubeconfig", top_keys, e);
}

/* The files to read: --kubeconfig, else KUBECONFIG (':'-list, empty entries
 * and duplicates dropped, missing files skipped), else ~/.kube/config when
 * it exists.  Returns 0 (k->n may be 0) or -1. */
static int kubeconfig_read(struct kubeconfig *k, const struct k8s_options *o, struct err *e)
{
	const char *list = getenv("KUBECONFIG");
	const char *home = getenv("HOME");

	if (o->kubeconfig)
		return add_file(k, o->kubeconfig, e);
	if (list && *list) {
		cleanup_free char *copy = xstrdup(list);
		char *save = NULL;

		for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
			int dup = 0;

			for (size_t i = 0; i < k->n; i++)
				dup |= strcmp(k->files[i].c.name, p) == 0;
			if (dup || access(p, F_OK) < 0)
				continue;
			if (add_file(k, p, e) < 0)
				return -1;
		}
		return 0;
	}
	if (home && *home) {
		cleanup_free char *path = xasprintf("%s/.kube/config", home);

		if (access(path, F_OK) == 0)
			return add_file(k, path, e);
	}
	return 0;
}

/* The first entry named name in the list `list` ("clusters") over all
 * files, and its payload object `payload` ("cluster").  Sets *file and
 * *out (borrowed), or *out NULL when no file defines it. */
static int find_entry(const struct kubeconfig *k, const char *list, const char *payload,
		      const char *name, const struct kc_file **file, json_t **out, struct err *e)
{
	char pos[PATH_MAX + 64];

	*out = NULL;
	for (size_t i = 0; i < k->n; i++) {
		const struct kc_file *f = &k->files[i];
		json_t *arr = json_object_get(f->c.root, list), *it;
		size_t j;

		if (!arr || json_is_null(arr))
			continue;
		if (!json_is_array(arr))
			return err_set(e, ERR_INPUT, 0, "%s: %s: expected a list",
				       where(f, arr, pos, sizeof(pos)), list);
		json_array_foreach(arr, j, it)
		{
			json_t *n = json_object_get(it, "name");

			if (!json_is_object(it) || !json_is_string(n))
				return err_set(e, ERR_INPUT, 0, "%s: %s[%zu]: expected {name, %s}",
					       where(f, it, pos, sizeof(pos)), list, j, payload);
			if (strcmp(json_string_value(n), name) != 0)
				continue;
			*file = f;
			*out = json_object_get(it, payload);
			if (!json_is_object(*out))
				return err_set(e, ERR_INPUT, 0,
					       "%s: %s[name=%s].%s: expected a mapping",
					       where(f, it, pos, sizeof(pos)), list, name, payload);
			return 0;
		}
	}
	return 0;
}

/* A string field, copied (NULL when absent). */
static int get_str(const struct kc_file *f, const json_t *obj, const char *ctx, const char *key,
		   char **out, struct err *e)
{
	const char *v = NULL;

	if (config_str(&f->c, obj, ctx, key, NULL, &v, e) < 0)
		return -1;
	*out = v && *v ? xstrdup(v) : NULL;
	return 0;
}

/* A secret field (token, key data), copied (NULL when absent); a bad type
 * is reported without the value. */
static int get_secret(const struct kc_file *f, const json_t *obj, const char *ctx, const char *key,
		      char **out, struct err *e)
{
	const char *v = NULL;

	if (config_secret(&f->c, obj, ctx, key, &v, e) < 0)
		return -1;
	for (const char *p = v; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) /* CR/LF would forge headers */
			return err_set(
				e, ERR_INPUT, 0,
				"%s.%s: holds a control character (a secret: its value is not "
				"shown)",
				ctx, key);
	*out = v && *v ? xstrdup(v) : NULL;
	return 0;
}

/* A path field, made absolute against the file's directory. */
static int get_path(const struct kc_file *f, const json_t *obj, const char *ctx, const char *key,
		    char **out, struct err *e)
{
	if (get_str(f, obj, ctx, key, out, e) < 0)
		return -1;
	if (*out && (*out)[0] != '/') {
		char *abs = xasprintf("%s/%s", f->dir, *out);

		free(*out);
		*out = abs;
	}
	return 0;
}

/* A base64 *-data field, decoded. */
static int get_data(const struct kc_file *f, const json_t *obj, const char *ctx, const char *key,
		    char **out, struct err *e)
{
	cleanup_free char *b64 = NULL;
	char pos[PATH_MAX + 64];

	/* client-key-data is a secret; the certificates are not */
	if ((strcmp(key, "client-key-data") == 0 ? get_secret(f, obj, ctx, key, &b64, e)
						 : get_str(f, obj, ctx, key, &b64, e)) < 0)
		return -1;
	if (!b64)
		return 0;
	*out = k8s_base64_decode(b64, NULL);
	if (!*out)
		return err_set(e, ERR_INPUT, 0, "%s: %s.%s: not valid base64",
			       where(f, json_object_get(obj, key), pos, sizeof(pos)), ctx, key);
	return 0;
}

/* Refuse "file and data" pairs (client-go validation.go: data overrides,
 * reported as a configuration error). */
static int both(const struct kc_file *f, const json_t *obj, const char *ctx, const char *a,
		const char *b, struct err *e)
{
	char pos[PATH_MAX + 64];

	if (json_object_get(obj, a) && json_object_get(obj, b))
		return err_set(e, ERR_INPUT, 0, "%s: %s: %s and %s are both specified",
			       where(f, obj, pos, sizeof(pos)), ctx, a, b);
	return 0;
}

static const char *const cluster_keys[] = { "server",
					    "certificate-authority",
					    "certificate-authority-data",
					    "insecure-skip-tls-verify",
					    "disable-compression",
					    "extensions",
					    NULL };
static const char *const user_keys[] = { "client-certificate",
					 "client-certificate-data",
					 "client-key",
					 "client-key-data",
					 "token",
					 "tokenFile",
					 "exec",
					 "extensions",
					 NULL };
static const char *const context_keys[] = { "cluster", "user", "namespace", "extensions", NULL };
static const char *const exec_keys[] = { "command",         "args",        "env",
					 "apiVersion",      "installHint", "provideClusterInfo",
					 "interactiveMode", NULL };

static int read_cluster(struct k8s_config *cfg, const struct kc_file *f, const json_t *cl,
			const char *ctx, struct err *e)
{
	char pos[PATH_MAX + 64];

	if (refuse_unknown(f, cl, ctx, cluster_keys, e) < 0 ||
	    both(f, cl, ctx, "certificate-authority", "certificate-authority-data", e) < 0 ||
	    get_str(f, cl, ctx, "server", &cfg->server, e) < 0 ||
	    get_path(f, cl, ctx, "certificate-authority", &cfg->ca_file, e) < 0 ||
	    get_data(f, cl, ctx, "certificate-authority-data", &cfg->ca_data, e) < 0 ||
	    config_bool(&f->c, cl, ctx, "insecure-skip-tls-verify", 0, &cfg->insecure, e) < 0)
		return -1;
	if (!cfg->server)
		return err_set(e, ERR_INPUT, 0, "%s: %s: no server found",
			       where(f, cl, pos, sizeof(pos)), ctx);
	if (cfg->insecure && (cfg->ca_file || cfg->ca_data))
		return err_set(e, ERR_INPUT, 0,
			       "%s: %s: specifying a root certificates file with the insecure flag "
			       "is not allowed",
			       where(f, cl, pos, sizeof(pos)), ctx);
	return 0;
}

/* A YAML list of strings into a NULL-terminated array. */
static int str_list(const struct kc_file *f, const json_t *arr, const char *ctx, char ***out,
		    struct err *e)
{
	size_t i, n = json_is_array(arr) ? json_array_size(arr) : 0;
	char pos[PATH_MAX + 64];
	json_t *v;

	*out = xcalloc(n + 1, sizeof(char *));
	if (arr && !json_is_array(arr) && !json_is_null(arr))
		return err_set(e, ERR_INPUT, 0, "%s: %s: expected a list of strings",
			       where(f, arr, pos, sizeof(pos)), ctx);
	json_array_foreach(arr, i, v)
	{
		if (!json_is_string(v))
			return err_set(e, ERR_INPUT, 0, "%s: %s[%zu]: expected a string",
				       where(f, v, pos, sizeof(pos)), ctx, i);
		(*out)[i] = xstrdup(json_string_value(v));
	}
	return 0;
}

static int read_exec(struct k8s_config *cfg, const struct kc_file *f, const json_t *ex,
		     const char *ctx, struct err *e)
{
	static const char *const modes[] = { "Never", "IfAvailable", "Always", NULL };
	struct k8s_exec *x = xcalloc(1, sizeof(*x));
	json_t *env = json_object_get(ex, "env"), *it;
	char pos[PATH_MAX + 64];
	int mode = -1;
	size_t i;

	cfg->exec = x;
	if (refuse_unknown(f, ex, ctx, exec_keys, e) < 0 ||
	    get_str(f, ex, ctx, "command", &x->command, e) < 0 ||
	    get_str(f, ex, ctx, "apiVersion", &x->api_version, e) < 0 ||
	    config_bool(&f->c, ex, ctx, "provideClusterInfo", 0, &x->provide_cluster_info, e) < 0 ||
	    config_enum(&f->c, ex, ctx, "interactiveMode", modes, -1, &mode, e) < 0 ||
	    str_list(f, json_object_get(ex, "args"), ctx, &x->args, e) < 0)
		return -1;
	if (!x->command)
		return err_set(e, ERR_INPUT, 0, "%s: %s.command: required",
			       where(f, ex, pos, sizeof(pos)), ctx);
	if (!x->api_version ||
	    (strcmp(x->api_version, "client.authentication.k8s.io/v1") != 0 &&
	     strcmp(x->api_version, "client.authentication.k8s.io/v1beta1") != 0))
		return err_set(e, ERR_INPUT, 0,
			       "%s: %s.apiVersion: expected client.authentication.k8s.io/v1 or "
			       "v1beta1, got '%s'",
			       where(f, ex, pos, sizeof(pos)), ctx,
			       x->api_version ? x->api_version : "");
	if (mode < 0 && strcmp(x->api_version, "client.authentication.k8s.io/v1") == 0)
		return err_set(e, ERR_INPUT, 0, "%s: %s.interactiveMode: required for v1",
			       where(f, ex, pos, sizeof(pos)), ctx);
	if (mode == 2)
		return err_set(
			e, ERR_INPUT, 0,
			"%s: %s.interactiveMode: Always needs a terminal, kilo runs without one",
			where(f, ex, pos, sizeof(pos)), ctx);
	/* command is relative to the kubeconfig only when it has a '/' */
	if (strchr(x->command, '/') && x->command[0] != '/') {
		char *abs = xasprintf("%s/%s", f->dir, x->command);

		free(x->command);
		x->command = abs;
	}
	x->env = xcalloc((json_is_array(env) ? json_array_size(env) : 0) + 1, sizeof(char *));
	json_array_foreach(env, i, it)
	{
		const char *n = json_string_value(json_object_get(it, "name"));
		const char *v = json_string_value(json_object_get(it, "value"));

		if (!n || !v || !*n || strchr(n, '='))
			return err_set(e, ERR_INPUT, 0, "%s: %s.env[%zu]: expected {name, value}",
				       where(f, it, pos, sizeof(pos)), ctx, i);
		x->env[i] = xasprintf("%s=%s", n, v);
	}
	return 0;
}

static int read_user(struct k8s_config *cfg, const struct kc_file *f, const json_t *u,
		     const char *ctx, struct err *e)
{
	json_t *ex = NULL;
	char pos[PATH_MAX + 64];

	if (refuse_unknown(f, u, ctx, user_keys, e) < 0 ||
	    both(f, u, ctx, "client-certificate", "client-certificate-data", e) < 0 ||
	    both(f, u, ctx, "client-key", "client-key-data", e) < 0 ||
	    get_path(f, u, ctx, "client-certificate", &cfg->cert_file, e) < 0 ||
	    get_data(f, u, ctx, "client-certificate-data", &cfg->cert_data, e) < 0 ||
	    get_path(f, u, ctx, "client-key", &cfg->key_file, e) < 0 ||
	    get_data(f, u, ctx, "client-key-data", &cfg->key_data, e) < 0 ||
	    get_secret(f, u, ctx, "token", &cfg->token, e) < 0 ||
	    get_path(f, u, ctx, "tokenFile", &cfg->token_file, e) < 0 ||
	    config_obj(&f->c, u, ctx, "exec", &ex, e) < 0)
		return -1;
	if (!!(cfg->cert_file || cfg->cert_data) != !!(cfg->key_file || cfg->key_data))
		return err_set(e, ERR_INPUT, 0,
			       "%s: %s: client certificate and key must be given "
			       "together",
			       where(f, u, pos, sizeof(pos)), ctx);
	if (ex) {
		cleanup_free char *xctx = xasprintf("%s.exec", ctx);

		return read_exec(cfg, f, ex, xctx, e);
	}
	return 0;
}

static int kubeconfig_resolve(struct k8s_config *cfg, const struct kubeconfig *k,
			      const struct k8s_options *o, struct err *e)
{
	const struct kc_file *cf = NULL, *uf = NULL, *xf = NULL;
	const char *name = o->context, *cluster = NULL, *user = NULL, *ns = NULL;
	json_t *ctx = NULL, *cl = NULL, *us = NULL;
	cleanup_free char *files = xstrdup("");
	cleanup_free char *cctx = NULL;
	cleanup_free char *clctx = NULL;
	cleanup_free char *uctx = NULL;

	for (size_t i = 0; i < k->n; i++) {
		char *more = xasprintf("%s%s%s", files, i ? ":" : "", k->files[i].c.name);

		free(files);
		files = more;
		if (!name && config_str(&k->files[i].c, k->files[i].c.root, "kubeconfig",
					"current-context", NULL, &name, e) < 0)
			return -1;
		if (name && !*name)
			name = NULL;
	}
	if (!name)
		return err_set(e, ERR_INPUT, 0, "kubeconfig %s: no current-context (use --context)",
			       files);
	if (find_entry(k, "contexts", "context", name, &xf, &ctx, e) < 0)
		return -1;
	if (!ctx)
		return err_set(e, ERR_INPUT, 0, "kubeconfig %s: context '%s' not found", files,
			       name);
	cctx = xasprintf("contexts[name=%s].context", name);
	if (refuse_unknown(xf, ctx, cctx, context_keys, e) < 0 ||
	    config_str(&xf->c, ctx, cctx, "cluster", NULL, &cluster, e) < 0 ||
	    config_str(&xf->c, ctx, cctx, "user", NULL, &user, e) < 0 ||
	    config_str(&xf->c, ctx, cctx, "namespace", NULL, &ns, e) < 0)
		return -1;
	if (cluster && *cluster && find_entry(k, "clusters", "cluster", cluster, &cf, &cl, e) < 0)
		return -1;
	if (!cl)
		return err_set(e, ERR_INPUT, 0,
			       "kubeconfig %s: context '%s': cluster '%s' not found", files, name,
			       cluster ? cluster : "");
	clctx = xasprintf("clusters[name=%s].cluster", cluster);
	if (read_cluster(cfg, cf, cl, clctx, e) < 0)
		return -1;
	if (user && *user && find_entry(k, "users", "user", user, &uf, &us, e) < 0)
		return -1;
	if (!us)
		return err_set(e, ERR_INPUT, 0, "kubeconfig %s: context '%s': user '%s' not found",
			       files, name, user ? user : "");
	uctx = xasprintf("users[name=%s].user", user);
	if (read_user(cfg, uf, us, uctx, e) < 0)
		return -1;
	if (ns && *ns && !dns_label(ns))
		return err_set(e, ERR_INPUT, 0,
			       "kubeconfig %s: context '%s': namespace '%s' is not "
			       "a DNS label",
			       files, name, ns);
	cfg->namespace = xstrdup(ns && *ns ? ns : "default");
	cfg->source = xasprintf("kubeconfig %s, context %s", files, name);
	return 0;
}

int k8s_config_load(struct k8s_config *cfg, const struct k8s_options *o, struct err *e)
{
	struct kubeconfig k = { 0 };
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	err_clear(e);
	ret = kubeconfig_read(&k, o, e);
	if (ret == 0 && k.n > 0)
		ret = kubeconfig_resolve(cfg, &k, o, e);
	else if (ret == 0 && k8s_config_in_cluster(cfg, o, e) < 0)
		ret = err_set(
			e, ERR_NOTFOUND, 0,
			"no Kubernetes configuration: no kubeconfig (--kubeconfig, KUBECONFIG, "
			"~/.kube/config) and not in a cluster");
	kubeconfig_release(&k);
	if (ret == 0 && o->namespace) {
		free(cfg->namespace);
		cfg->namespace = xstrdup(o->namespace);
	}
	return ret;
}
