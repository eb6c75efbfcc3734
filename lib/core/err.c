// SPDX-License-Identifier: Apache-2.0
/* err - the error object (see err.h) */
#include "core/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"

/* The length of s[0..n) without a UTF-8 sequence cut at its end (a message
 * cut there would not be valid UTF-8, and JSON could not hold it). */
static size_t utf8_whole(const char *s, size_t n)
{
	size_t k = n, need;
	unsigned char lead;

	while (k > 0 && n - k < 4 && ((unsigned char)s[k - 1] & 0xc0) == 0x80)
		k--;
	if (k == 0 || (unsigned char)s[k - 1] < 0xc0)
		return n;
	lead = (unsigned char)s[k - 1];
	need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	return n - (k - 1) < need ? k - 1 : n;
}

/* Copy src into dst (ERR_MSG_MAX) as one line: newline, tab and carriage
 * return become \n, \t, \r, other control bytes \xHH (values quoted from
 * files and payloads may hold them). */
static void one_line(char *dst, const char *src)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
		char esc[5] = { (char)*p, '\0' };

		if (*p == '\n' || *p == '\t' || *p == '\r')
			snprintf(esc, sizeof(esc), "\\%c",
				 *p == '\n'   ? 'n'
				 : *p == '\t' ? 't'
					      : 'r');
		else if (*p < 0x20 || *p == 0x7f)
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
		if (o + strlen(esc) >= ERR_MSG_MAX) {
			o = utf8_whole(dst, o);
			break;
		}
		memcpy(dst + o, esc, strlen(esc));
		o += strlen(esc);
	}
	dst[o] = '\0';
}

/* s with every occurrence of secret replaced: a new string, or NULL. */
static char *redact_one(const char *s, const char *secret)
{
	static const char mark[] = "[redacted]";
	size_t sl = secret ? strlen(secret) : 0, n = 0, used = 0;
	const char *p, *hit;
	char *out;

	if (sl == 0 || !strstr(s, secret))
		return NULL;
	for (p = s; (hit = strstr(p, secret)) != NULL; p = hit + sl)
		n++;
	out = xmalloc(strlen(s) + n * sizeof(mark) + 1);
	for (p = s; (hit = strstr(p, secret)) != NULL; p = hit + sl) {
		memcpy(out + used, p, (size_t)(hit - p));
		used += (size_t)(hit - p);
		memcpy(out + used, mark, sizeof(mark) - 1);
		used += sizeof(mark) - 1;
	}
	memcpy(out + used, p, strlen(p) + 1);
	return out;
}

/* The process's secrets (err_secret_add), each owned: as many as are
 * registered (a secret dropped for want of room would be printed). */
static char **secrets;
static size_t nsecrets, capsecrets;

void err_secret_add(const char *secret)
{
	if (!secret || strlen(secret) < ERR_SECRET_MIN)
		return;
	for (size_t i = 0; i < nsecrets; i++)
		if (strcmp(secrets[i], secret) == 0)
			return;
	if (nsecrets == capsecrets) {
		capsecrets = capsecrets ? 2 * capsecrets : 16;
		secrets = xrealloc(secrets, capsecrets * sizeof(*secrets));
	}
	secrets[nsecrets++] = xstrdup(secret);
}

void err_secret_clear(void)
{
	for (size_t i = 0; i < nsecrets; i++)
		free(secrets[i]);
	free(secrets);
	secrets = NULL;
	nsecrets = capsecrets = 0;
}

char *err_redact_all(const char *s)
{
	char *cur = NULL;

	for (size_t i = 0; i < nsecrets; i++) {
		char *next = redact_one(cur ? cur : s, secrets[i]);

		if (next) {
			free(cur);
			cur = next;
		}
	}
	return cur;
}

int err_vset(struct err *e, enum err_kind kind, int errnum, const char *fmt, va_list ap)
{
	cleanup_free char *raw = NULL, *clean = NULL;
	size_t n;

	if (!e)
		return -1;
	e->kind = kind;
	e->errnum = errnum;
	/* the whole message first: a secret is replaced before it is cut */
	if (vasprintf(&raw, fmt, ap) < 0)
		raw = NULL;
	clean = raw ? err_redact_all(raw) : NULL;
	one_line(e->msg, clean ? clean : raw ? raw : "(no memory for the message)");
	n = strlen(e->msg);
	if (errnum != 0 && n < sizeof(e->msg) - 1)
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", strerror(errnum));
	return -1;
}

int err_set(struct err *e, enum err_kind kind, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(e, kind, errnum, fmt, ap);
	va_end(ap);
	return -1;
}

void err_say(err_say_fn *say, const char *fmt, ...)
{
	struct err m;
	va_list ap;

	if (!say)
		return;
	va_start(ap, fmt);
	err_vset(&m, ERR_NONE, 0, fmt, ap);
	va_end(ap);
	say(&m);
}

int err_wrap(struct err *e, const char *fmt, ...)
{
	cleanup_free char *ctx = NULL, *full = NULL, *clean = NULL;
	va_list ap;
	int n;

	if (!e)
		return -1;
	va_start(ap, fmt);
	n = vasprintf(&ctx, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	/* whole, then redacted, then cut: a secret in the context never shows */
	full = xasprintf("%s: %s", ctx, e->msg);
	clean = err_redact_all(full);
	one_line(e->msg, clean ? clean : full);
	return -1;
}

void err_clear(struct err *e)
{
	if (!e)
		return;
	e->kind = ERR_NONE;
	e->errnum = 0;
	e->msg[0] = '\0';
}

const char *err_kind_name(enum err_kind kind)
{
	switch (kind) {
	case ERR_NONE:
		return "none";
	case ERR_USAGE:
		return "usage";
	case ERR_INPUT:
		return "input";
	case ERR_SYSTEM:
		return "system";
	case ERR_NOTFOUND:
		return "notfound";
	case ERR_REMOTE:
		return "remote";
	case ERR_TEMP:
		return "temporary";
	}
	return "unknown";
}

int err_exit_code(const struct err *e)
{
	switch (e->kind) {
	case ERR_NONE:
		return KILO_EXIT_OK;
	case ERR_USAGE:
	case ERR_INPUT:
		return KILO_EXIT_USAGE;
	case ERR_TEMP:
		return KILO_EXIT_TEMPFAIL;
	default:
		return KILO_EXIT_FAIL;
	}
}
