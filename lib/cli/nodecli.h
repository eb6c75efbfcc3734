/* SPDX-License-Identifier: Apache-2.0 */
/* nodecli - the command-line options the node tools (node-usage, qos-cgset,
 * evictor, resctrl-assign, yarn-copilot) share: --sysroot, --cgroup-driver,
 * --hierarchy, --nm-memory-cgroups, --policy, --state, --node, --pretty,
 * -h/--help and -V/--version; and the rule that names the node.
 *
 * A tool lists the shared options it takes in its getopt_long() table with
 * the NODECLI_OPTION_* entries (in the order of its --help), numbers its own
 * options from NODECLI_OPT_END, handles those in its switch and hands every
 * other getopt_long() result to nodecli_option().  Like cli, which it prints
 * through, it prints (help, version, usage errors) and never exits.
 * nodecli_open_node() then opens the sysroot and cgroup layout they name.
 */
#ifndef KILO_NODECLI_H
#define KILO_NODECLI_H

#include <getopt.h>
#include <limits.h>

#include "doc/policy.h"
#include "kernel/cgroup.h"
#include "kernel/sysroot.h"

/* The values of the shared options; zero-initialise before parsing. */
struct nodecli_opts {
	const char *sysroot;       /* --sysroot DIR; NULL: / */
	enum cgroup_driver driver; /* --cgroup-driver; 0 is CGROUP_DRIVER_AUTO */
	const char *hierarchy;     /* --hierarchy PATH (the hadoop-yarn cgroup); NULL: default */
	int nm_memory;             /* --nm-memory-cgroups: cgroup_layout.nm_memory */
	const char *policy;        /* --policy FILE (NodeSLO); NULL: built-in defaults */
	const char *state;         /* --state FILE; NULL: none */
	int pretty;                /* --pretty: indented JSON */
	const char *node;          /* --node NAME; NULL: nodecli_node_name() finds it */
};

/* What nodecli_option() needs from the tool. */
struct nodecli_tool {
	void (*usage)(void);  /* prints the --help text to stdout */
	const char *features; /* for --version, e.g. "+cgroup1 +cgroup2"; may be NULL */
	/* The usage error for an unknown option or a missing value (getopt has
	 * already named the option), or NULL: only the "Try '<prog> --help'"
	 * line. */
	const char *unknown;
};

/* getopt_long() values of the shared options. */
enum {
	NODECLI_SYSROOT = CHAR_MAX + 1,
	NODECLI_DRIVER,
	NODECLI_HIERARCHY,
	NODECLI_NM_MEMORY,
	NODECLI_POLICY,
	NODECLI_STATE,
	NODECLI_PRETTY,
	NODECLI_NODE,
	NODECLI_OPT_END, /* a tool's own long options are numbered from here */
};

/* struct option entries for a tool's getopt_long() table. */
/* clang-format off */
#define NODECLI_OPTION_SYSROOT { "sysroot", required_argument, NULL, NODECLI_SYSROOT }
#define NODECLI_OPTION_DRIVER { "cgroup-driver", required_argument, NULL, NODECLI_DRIVER }
#define NODECLI_OPTION_HIERARCHY { "hierarchy", required_argument, NULL, NODECLI_HIERARCHY }
#define NODECLI_OPTION_NM_MEMORY { "nm-memory-cgroups", no_argument, NULL, NODECLI_NM_MEMORY }
#define NODECLI_OPTION_POLICY { "policy", required_argument, NULL, NODECLI_POLICY }
#define NODECLI_OPTION_STATE { "state", required_argument, NULL, NODECLI_STATE }
#define NODECLI_OPTION_PRETTY { "pretty", no_argument, NULL, NODECLI_PRETTY }
#define NODECLI_OPTION_NODE { "node", required_argument, NULL, NODECLI_NODE }
/* -h/--help, -V/--version and the terminating entry: the end of every table. */
#define NODECLI_OPTIONS_END \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }
/* clang-format on */

/* nodecli_option(): the option was stored, parsing goes on. */
#define NODECLI_MORE (-1)

/* Handle getopt_long()'s result c (arg: its optarg) for a shared option:
 * store the value in *o and return NODECLI_MORE.  For -h print t->usage(),
 * for -V "<prog> <version> <features>", and return 0 (KILO_EXIT_OK).  A bad
 * --cgroup-driver value (cgroup_driver_parse()'s message) and any other c
 * (an unknown option, a missing value) are usage errors, printed as
 * cli_usage_error() does (see nodecli_tool.unknown): returns 2
 * (KILO_EXIT_USAGE).  A tool's own options must be handled before. */
int nodecli_option(struct nodecli_opts *o, const struct nodecli_tool *t, int c, const char *arg);

/* nodecli_own_fn: c is not the tool's own, nodecli_option() takes it. */
#define NODECLI_PASS (-2)

/* A getopt_long() result c with its value arg (NULL for a flag): when it is
 * one of the tool's own options (or a shared one it checks further), store
 * it and return NODECLI_MORE, or the exit code after printing
 * (cli_usage_error() naming the option and the value); else NODECLI_PASS. */
typedef int nodecli_own_fn(void *ctx, int c, const char *arg);

/* The whole getopt_long() loop of a node tool over argv with longopts
 * (short options -h and -V): own (may be NULL) sees every result first,
 * nodecli_option() those it passes.  Then at most max_args positional
 * arguments, left at argv[optind..argc-1]: more are a usage error ("unexpected
 * argument").  Returns NODECLI_MORE, or the exit code to end with. */
int nodecli_parse(int argc, char **argv, const struct option *longopts, struct nodecli_opts *o,
		  const struct nodecli_tool *t, nodecli_own_fn *own, void *ctx, int max_args);

/* How long a run waits for another run on the same --state. */
#define NODECLI_STATE_WAIT_MS 10000

/* Serialise the runs on --state (statefile_lock): *fd is the lock to hold
 * until the state is saved (cleanup_close), -1 without --state.  Returns 0,
 * or -1 with e set (ERR_TEMP: another run held it NODECLI_STATE_WAIT_MS). */
int nodecli_lock_state(const struct nodecli_opts *o, int *fd, struct err *e);

/* When l's hadoop-yarn dir is in none of the controllers: a node where no
 * YARN container has run yet (a warning naming what the cpu hierarchy
 * holds, 0), or a wrong --hierarchy or --cgroup-driver (an error naming
 * it, KILO_EXIT_FAIL) when the NodeManager runs live (> 0) containers, a
 * hadoop-yarn dir is elsewhere in the cpu hierarchy, or the dir is one
 * under kubepods and the node has no kubepods at all.  effect says what the
 * tool does without the dir ("nothing to move").  0 when the dir exists. */
int nodecli_yarn_dir_check(const struct cgroup_layout *l, const struct sysroot *s, size_t live,
			   const char *effect);

/* The rule of nodecli_yarn_dir_check() without printing: 0 when the dir
 * exists, 1 when it is absent on a node where no YARN container has run
 * yet, -1 for a wrong layout (-2: no kubepods at all for a dir under it);
 * hint gets what the cpu hierarchy holds
 * (cgroup_layout_hint). */
int nodecli_yarn_layout(const struct cgroup_layout *l, const struct sysroot *s, size_t live,
			char *hint, size_t size);

/* nodecli_lock_state(), for a tool whose output must not wait on its
 * state (a missing dir, a lock that cannot be had): on failure one
 * "<prog>: warning: <why>; going on without --state" and NULL.  Returns the
 * state path to use (o->state, or NULL). */
const char *nodecli_lock_state_soft(const struct nodecli_opts *o, int *fd);

/* policy_load() of o->policy (NULL: the defaults) into *p, printing one
 * "<prog>: warning: unknown policy field '<path>'" per unknown field.
 * Returns 0, or -1 with e set: a policy that cannot be used is the caller's
 * to fix, so its kind is ERR_INPUT or ERR_USAGE (exit 2) unless the file
 * could not be read (ERR_SYSTEM). */
int nodecli_policy_load(const struct nodecli_opts *o, struct policy *p, struct err *e);

/* sysroot_open() of o->sysroot, then cgroup_layout_detect() with o->driver
 * and o->hierarchy, and o->nm_memory: the node as the options name it.  Returns 0, or -1 with
 * e set by either (ERR_USAGE: not a directory, a bad hierarchy;
 * ERR_NOTFOUND: no cgroup mount; ...).  Release *s and *l either way
 * (sysroot_release(), cgroup_layout_release()). */
int nodecli_open_node(const struct nodecli_opts *o, struct sysroot *s, struct cgroup_layout *l,
		      struct err *e);

/* The name of this node for a document's metadata.node and the metrics'
 * node label, one rule for every node tool: --node; else $NODE_NAME when
 * set and not empty (the Downward API's spec.nodeName, as the manifests
 * pass it); else the host name from proc/sys/kernel/hostname through s,
 * blanks trimmed and lower-cased, as the kubelet names its Node without
 * --hostname-override (k8s.io/component-helpers node/util GetHostname).
 * New string, or NULL when none of them gives a name. */
char *nodecli_node_name(const struct nodecli_opts *o, const struct sysroot *s);

#endif
