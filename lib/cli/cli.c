// SPDX-License-Identifier: Apache-2.0
/* cli - shared command-line helpers (see cli.h) */
#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/err.h"
#include "core/num.h"

static const char *prog_name = "kilo";

void cli_init(const char *prog)
{
	const char *pin;

	prog_name = prog;
	signal(SIGPIPE, SIG_IGN);
	/* Documents go to pipes and files in one piece at the end: 64 KiB
	 * writes, not 4 KiB ones (a 300 KB report is 5 write(2)s, not 75). */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	pin = clock_pin_invalid();
	if (pin) /* a test hook that silently did nothing misleads */
		cli_warn("KILO_NOW ignored: '%.40s' is neither an RFC 3339 time nor milliseconds",
			 pin);
}

const char *cli_prog(void)
{
	return prog_name;
}

/* One line: the text goes through err_vset, which escapes control bytes
 * (an option value or a URL may hold a newline). */
static void vmessage(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	struct err e;

	err_vset(&e, ERR_NONE, 0, fmt, ap);
	fprintf(stderr, "%s: %s%s\n", prog_name, prefix, e.msg);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

void cli_warn_err(const struct err *e)
{
	cli_warn("%s", e->msg);
}

void cli_print_err(const struct err *e)
{
	fprintf(stderr, "%s: %s\n", prog_name, e->msg[0] ? e->msg : "unknown error");
}

int cli_fail(const struct err *e, int code)
{
	cli_print_err(e);
	return code ? code : err_exit_code(e);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog_name);
	return KILO_EXIT_USAGE;
}

void cli_print_version(const char *features)
{
	printf("%s %s%s%s\n", prog_name, KILO_VERSION, features ? " " : "",
	       features ? features : "");
}

int cli_parse_i64(const char *s, const char *name, int64_t min, int64_t max, int64_t *out,
		  struct err *e)
{
	if (num_parse_i64(s, min, max, out) < 0)
		return err_set(e, ERR_USAGE, 0,
			       "invalid value for %s: '%s' (expected an integer %" PRId64
			       "..%" PRId64 ")",
			       name, s ? s : "", min, max);
	return 0;
}

int cli_exit_for_items(size_t total, size_t failed)
{
	if (failed == 0)
		return KILO_EXIT_OK;
	if (failed >= total)
		return KILO_EXIT_FAIL;
	return KILO_EXIT_PARTIAL;
}

int cli_finish(int code)
{
	int failed = 0;
	int saved = 0;

	if (fflush(stdout) != 0 || ferror(stdout)) {
		failed = 1;
		saved = errno;
	}
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (!failed)
		return code;
	fprintf(stderr, "%s: write error: %s\n", prog_name,
		saved ? strerror(saved) : "unknown error");
	return code == KILO_EXIT_OK ? KILO_EXIT_FAIL : code;
}
