/* SPDX-License-Identifier: Apache-2.0 */
/* fakeproc - run a Python fake from test/fake/ for an integration test.
 *
 * The fake binds 127.0.0.1 port 0 and prints one JSON object line naming
 * its URLs; it exits when its stdin closes, so it cannot outlive the test
 * process even when a failed assertion skips the teardown (it also gets
 * SIGKILL when its parent dies). */
#ifndef KILO_FAKEPROC_H
#define KILO_FAKEPROC_H

#include <jansson.h>
#include <sys/types.h>

struct fakeproc {
	pid_t pid;
	int in_fd;    /* the fake's stdin: closing it stops the fake */
	json_t *urls; /* the first line the fake printed */
};

/* Start `python3 test/fake/<script> args...` (args NULL-terminated, may be
 * NULL) and wait up to 10 s for its first line.  Aborts the test on error. */
void fakeproc_start(struct fakeproc *f, const char *script, const char *const *args);

/* The URL the fake printed under name ("rm1", "control"); borrowed. */
const char *fakeproc_url(const struct fakeproc *f, const char *name);

/* A request to the fake's "control" URL: method GET or POST, body JSON text
 * or NULL.  Returns the parsed JSON answer (new reference); aborts the test
 * unless the status is 200. */
json_t *fakeproc_call(const struct fakeproc *f, const char *method, const char *path,
		      const char *body);

/* Close the fake's stdin, wait for it (SIGKILL after 5 s), free f. */
void fakeproc_stop(struct fakeproc *f);

#endif
