/* SPDX-License-Identifier: Apache-2.0 */
/* cli - what every kilo tool's main() shares: program name, message
 * grammar, usage errors, --version, number options, exit codes and the
 * closing of stdout.  This layer (cli/: this module and nodecli, the node
 * tools' shared options) is the only part of lib/ that prints diagnostics,
 * and only cmd/ includes it; it never exits.
 */
#ifndef KILO_CLI_H
#define KILO_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

#ifndef KILO_VERSION
#define KILO_VERSION "0.0.0"
#endif

/* Set the program name from a literal, once, first thing in main().  Also
 * ignores SIGPIPE, so that a closed pipe never kills a tool half-way through
 * applying changes: the write error is seen by cli_finish() instead; and
 * gives stdout a 64 KiB buffer when it is not a terminal; and warns when
 * KILO_NOW is set but ignored (clock_pin_invalid()). */
void cli_init(const char *prog);

/* The name given to cli_init() ("kilo" before it). */
const char *cli_prog(void);

/* "<prog>: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "<prog>: warning: <message>" on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "<prog>: warning: <e->msg>" on stderr: a pass's warnings (err_say_fn). */
void cli_warn_err(const struct err *e);

/* "<prog>: <e->msg>" on stderr. */
void cli_print_err(const struct err *e);

/* cli_print_err(e), then the exit code of the step that failed with e:
 * code, or e's own (err_exit_code()) when code is 0.  For `return
 * cli_fail(&e, 0)`: a main's one way from an error to its exit code. */
int cli_fail(const struct err *e, int code);

/* A usage error: "<prog>: <message>" then "Try '<prog> --help' for more
 * information." on stderr.  Returns KILO_EXIT_USAGE for `return cli_usage_error(...)`. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "<prog> <version> <features>" (features such as "+cgroup1 +cgroup2",
 * may be NULL) to stdout, for --version. */
void cli_print_version(const char *features);

/* Parse a decimal integer option value in [min, max].  On error fills e
 * (ERR_USAGE): "invalid value for <name>: '<s>' (expected an integer min..max)"
 * and returns -1. */
int cli_parse_i64(const char *s, const char *name, int64_t min, int64_t max, int64_t *out,
		  struct err *e);

/* The exit code for a batch of items: 0 when none failed (or there were
 * none), 1 when all failed, 3 (partial) otherwise. */
int cli_exit_for_items(size_t total, size_t failed);

/* Flush and close stdout, then return the final exit code: code itself
 * when the close succeeded; otherwise "<prog>: write error: <reason>" and 1
 * if code was 0.  Printed for EPIPE too: a tool that changed something must
 * say that its report was lost. */
int cli_finish(int code);

#endif
