// SPDX-License-Identifier: Apache-2.0
/* nodecli - the node tools' shared options (see nodecli.h) */
#include "cli/nodecli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/err.h"
#include "core/statefile.h"
#include "core/xalloc.h"

int nodecli_option(struct nodecli_opts *o, const struct nodecli_tool *t, int c, const char *arg)
{
	struct err e = { 0 };

	switch (c) {
	case NODECLI_SYSROOT:
		o->sysroot = arg;
		return NODECLI_MORE;
	case NODECLI_DRIVER:
		if (cgroup_driver_parse(arg, &o->driver, &e) < 0)
			return cli_usage_error("%s", e.msg);
		return NODECLI_MORE;
	case NODECLI_HIERARCHY:
		o->hierarchy = arg;
		return NODECLI_MORE;
	case NODECLI_NM_MEMORY:
		o->nm_memory = 1;
		return NODECLI_MORE;
	case NODECLI_POLICY:
		o->policy = arg;
		return NODECLI_MORE;
	case NODECLI_STATE:
		if (!*arg)
			return cli_usage_error("invalid value for --state: ''");
		o->state = arg;
		return NODECLI_MORE;
	case NODECLI_PRETTY:
		o->pretty = 1;
		return NODECLI_MORE;
	case NODECLI_NODE:
		if (!*arg)
			return cli_usage_error("invalid value for --node: ''");
		o->node = arg;
		return NODECLI_MORE;
	case 'h':
		t->usage();
		return KILO_EXIT_OK;
	case 'V':
		cli_print_version(t->features);
		return KILO_EXIT_OK;
	default:
		if (t->unknown)
			return cli_usage_error("%s", t->unknown);
		fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog());
		return KILO_EXIT_USAGE;
	}
}

int nodecli_open_node(const struct nodecli_opts *o, struct sysroot *s, struct cgroup_layout *l,
		      struct err *e)
{
	if (sysroot_open(s, o->sysroot, e) < 0)
		return -1;
	if (cgroup_layout_detect(l, s, o->driver, o->hierarchy, e) < 0)
		return -1;
	l->nm_memory = o->nm_memory;
	return 0;
}

int nodecli_parse(int argc, char **argv, const struct option *longopts, struct nodecli_opts *o,
		  const struct nodecli_tool *t, nodecli_own_fn *own, void *ctx, int max_args)
{
	int c, r;

	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		r = own ? own(ctx, c, optarg) : NODECLI_PASS;
		if (r == NODECLI_PASS)
			r = nodecli_option(o, t, c, optarg);
		if (r != NODECLI_MORE)
			return r;
	}
	if (argc - optind > max_args)
		return cli_usage_error("unexpected argument '%s'", argv[optind + max_args]);
	return NODECLI_MORE;
}

int nodecli_lock_state(const struct nodecli_opts *o, int *fd, struct err *e)
{
	*fd = -1;
	if (!o->state)
		return 0;
	*fd = statefile_lock(o->state, NODECLI_STATE_WAIT_MS, e);
	return *fd < 0 ? -1 : 0;
}

int nodecli_yarn_layout(const struct cgroup_layout *l, const struct sysroot *s, size_t live,
			char *hint, size_t size)
{
	int elsewhere;

	hint[0] = '\0';
	if (cgroup_exists_any(l, s, l->hadoop_yarn)) /* its containers dir may just be empty */
		return 0;
	elsewhere = cgroup_layout_hint(l, s, hint, size);
	/* a hadoop-yarn dir under kubepods on a node without kubepods: the
	 * kubelet's tree is not where the flags say (a node without a kubelet
	 * names its own --hierarchy) */
	if (strncmp(l->hadoop_yarn, "/kubepods", 9) == 0 &&
	    !cgroup_exists(l, s, CGROUP_CPU, "/kubepods") &&
	    !cgroup_exists(l, s, CGROUP_CPU, "/kubepods.slice"))
		return -2;
	return live || elsewhere ? -1 : 1;
}

int nodecli_yarn_dir_check(const struct cgroup_layout *l, const struct sysroot *s, size_t live,
			   const char *effect)
{
	char hint[512];
	int r = nodecli_yarn_layout(l, s, live, hint, sizeof(hint));

	if (r == 0)
		return 0;
	if (r < 0 && live) {
		cli_error("hadoop-yarn cgroup '%s' not found, but the NodeManager runs %zu "
			  "container%s: the layout is wrong (found %s); check --hierarchy and "
			  "--cgroup-driver",
			  l->hadoop_yarn, live, live == 1 ? "" : "s", hint);
		return KILO_EXIT_FAIL;
	}
	if (r == -2) {
		cli_error(
			"hadoop-yarn cgroup '%s' not found, and the cpu hierarchy has no kubepods "
			"cgroup (found %s): the layout is wrong; check --hierarchy and "
			"--cgroup-driver (a node without a kubelet names its own --hierarchy)",
			l->hadoop_yarn, hint);
		return KILO_EXIT_FAIL;
	}
	if (r < 0) { /* a hadoop-yarn dir elsewhere */
		cli_error("hadoop-yarn cgroup '%s' not found, but there is %s: the layout is "
			  "wrong; check --hierarchy and --cgroup-driver",
			  l->hadoop_yarn, hint);
		return KILO_EXIT_FAIL;
	}
	cli_warn("hadoop-yarn cgroup '%s' not found in any controller (found %s): no YARN "
		 "container has run here yet, or --hierarchy and --cgroup-driver are wrong; %s",
		 l->hadoop_yarn, hint, effect);
	return 0;
}

const char *nodecli_lock_state_soft(const struct nodecli_opts *o, int *fd)
{
	struct err e = { 0 };

	if (nodecli_lock_state(o, fd, &e) == 0)
		return o->state;
	cli_warn("%s; going on without --state", e.msg);
	return NULL;
}

int nodecli_policy_load(const struct nodecli_opts *o, struct policy *p, struct err *e)
{
	json_t *warnings = json_array();
	json_t *w;
	size_t i;
	int ret = policy_load(p, o->policy, warnings, e);

	if (ret == 0)
		json_array_foreach(warnings, i, w)
			cli_warn("unknown policy field '%s'", json_string_value(w));
	json_decref(warnings);
	return ret;
}

char *nodecli_node_name(const struct nodecli_opts *o, const struct sysroot *s)
{
	const char *env = getenv("NODE_NAME");
	char *host = NULL;
	struct err e = { 0 };
	size_t start, len;

	if (o->node)
		return xstrdup(o->node);
	if (env && *env)
		return xstrdup(env);
	if (sysroot_read_str(s, "proc/sys/kernel/hostname", &host, &e) <= 0) {
		free(host);
		return NULL;
	}
	start = strspn(host, " \t\n");
	len = strlen(host + start);
	while (len && strchr(" \t\n", host[start + len - 1]))
		len--;
	memmove(host, host + start, len);
	host[len] = '\0';
	for (char *p = host; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	if (!*host) {
		free(host);
		return NULL;
	}
	return host;
}
