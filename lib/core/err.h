/* SPDX-License-Identifier: Apache-2.0 */
/* err - the one error object of kilo's library.
 *
 * The library never prints and never exits: a failing function fills a
 * caller-owned struct err (on the caller's stack, so an error path cannot
 * leak or run out of memory) and returns -1 (or NULL).  Callers add context
 * on the way up with err_wrap(); the tool's main() prints the one resulting
 * line and maps err.kind to an exit code (DESIGN.md section 5).
 */
#ifndef KILO_ERR_H
#define KILO_ERR_H

#include <stdarg.h>

enum err_kind {
	ERR_NONE = 0,
	ERR_USAGE,    /* bad option or argument: exit 2 */
	ERR_INPUT,    /* malformed or invalid input document or config: exit 2 */
	ERR_SYSTEM,   /* a system call failed (errnum says which errno): exit 1 */
	ERR_NOTFOUND, /* a named object does not exist: exit 1 */
	ERR_REMOTE,   /* an API answered with a permanent error (4xx): exit 1 */
	ERR_TEMP,     /* temporary: API unreachable, 429, 5xx, timeout: exit 75 */
};

/* Exit codes shared by all tools (DESIGN.md section 5). */
enum {
	KILO_EXIT_OK = 0,        /* done, or nothing to do */
	KILO_EXIT_FAIL = 1,      /* failed; nothing or only part was done */
	KILO_EXIT_USAGE = 2,     /* usage error, bad config or input; nothing changed */
	KILO_EXIT_PARTIAL = 3,   /* some items failed, others were applied */
	KILO_EXIT_TEMPFAIL = 75, /* temporary failure: retry with backoff (sysexits EX_TEMPFAIL) */
};

#define ERR_MSG_MAX 512

struct err {
	enum err_kind kind;
	int errnum;            /* errno at the point of failure, or 0 */
	char msg[ERR_MSG_MAX]; /* one line: control bytes escaped (\n, \xHH) */
};

/* Set *e: kind, errno value (0 for none) and a printf-style message.  When
 * errnum is not 0, ": <strerror(errnum)>" is appended.  Overwrites whatever
 * e held.  Returns -1 so call sites can write `return err_set(...)`.
 * e may be NULL (the error is then dropped). */
int err_set(struct err *e, enum err_kind kind, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Same as err_set() with a va_list. */
int err_vset(struct err *e, enum err_kind kind, int errnum, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* The one shape of a library pass's message callback (the library never
 * prints): one line for the operator, e's message without the "<prog>: "
 * or "<prog>: warning: " the tool puts in front.  A pass takes one for its
 * warnings (the pass goes on) and, where a step may fail alone, one for
 * those steps' errors (cli_warn_err and cli_print_err are the tools'). */
typedef void err_say_fn(const struct err *e);

/* Format a message as err_set() does (kind ERR_NONE) and pass it to say;
 * nothing when say is NULL. */
void err_say(err_say_fn *say, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prefix the message of *e with "<context>: ", keeping kind and errnum.
 * The result is truncated to ERR_MSG_MAX - 1 bytes.  Returns -1. */
int err_wrap(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Secrets shorter than this are not looked for: they would match ordinary
 * words ("t" in every message); real tokens and passwords are longer. */
#define ERR_SECRET_MIN 6

/* Register a secret of this process (a bearer token, a password: copied;
 * ignored when shorter than ERR_SECRET_MIN; any number of them).
 * Every message err_set()/err_vset() make, and every value jsonio quotes,
 * has each registered secret replaced by "[redacted]" before anything is
 * cut to size (threat-model.md: a server may echo a secret anywhere). */
void err_secret_add(const char *secret);

/* Forget every registered secret (tests). */
void err_secret_clear(void);

/* s with every registered secret replaced: a new string, or NULL when s
 * holds none. */
char *err_redact_all(const char *s);

/* Reset *e to ERR_NONE with an empty message. */
void err_clear(struct err *e);

/* A short lower-case name of a kind ("input", "system", "temporary"...),
 * used in reports and metrics labels.  Never NULL. */
const char *err_kind_name(enum err_kind kind);

/* The exit code of DESIGN.md section 5 for a whole-run failure of this kind:
 * ERR_NONE 0, ERR_USAGE/ERR_INPUT 2, ERR_TEMP 75, everything else 1. */
int err_exit_code(const struct err *e);

#endif
