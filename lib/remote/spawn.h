/* SPDX-License-Identifier: Apache-2.0 */
/* spawn - the one way kilo runs a child process (the Kubernetes exec
 * credential plugin, `yarn rmadmin`): stdin from /dev/null, stdout (and,
 * when asked, stderr) read through a pipe, the child in a process group of
 * its own that is killed (SIGKILL) at a deadline and when a signal ends
 * kilo meanwhile, so a hung plugin or JVM never outlives or stalls a pass.
 */
#ifndef KILO_SPAWN_H
#define KILO_SPAWN_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

struct spawn_opts {
	char *const *argv;  /* argv[0] is looked up in PATH (posix_spawnp) */
	char *const *envp;  /* the child's environment; NULL: kilo's own */
	int merge_stderr;   /* stderr into the pipe too; else it is kilo's stderr */
	int64_t timeout_ms; /* > 0: the whole run, output and exit, is bounded */
	/* each chunk of output as it comes (may be NULL: output dropped) */
	void (*feed)(void *arg, const char *buf, size_t n);
	void *arg;
};

/* How the child ended. */
struct spawn_result {
	int timed_out; /* killed at the deadline (status is then meaningless) */
	int exited;    /* WIFEXITED: code is its exit status, else the signal */
	int code;
};

/* Run o->argv as above and wait for it, output fed to o->feed.  Returns 0
 * with *r filled (a non-zero exit or a timeout is the caller's to judge),
 * or -1 with e set when it could not be started (ERR_NOTFOUND: no such
 * command; ERR_SYSTEM: pipe or spawn failed).  Not reentrant: one child at
 * a time per process (the signal guard names one group). */
int spawn_run(const struct spawn_opts *o, struct spawn_result *r, struct err *e);

#endif
