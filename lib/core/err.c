// SPDX-License-Identifier: Apache-2.0
/* err - the error object (see err.h) */
#include "core/err.h"

#include <stdio.h>
#include <string.h>

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
		if (o + strlen(esc) >= ERR_MSG_MAX)
			break;
		memcpy(dst + o, esc, strlen(esc));
		o += strlen(esc);
	}
	dst[o] = '\0';
}

int err_vset(struct err *e, enum err_kind kind, int errnum, const char *fmt, va_list ap)
{
	char raw[ERR_MSG_MAX];
	size_t n;

	if (!e)
		return -1;
	e->kind = kind;
	e->errnum = errnum;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	one_line(e->msg, raw);
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

int err_wrap(struct err *e, const char *fmt, ...)
{
	char buf[2 * ERR_MSG_MAX + 2];
	va_list ap;
	int n;

	if (!e)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf, ERR_MSG_MAX, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (n >= ERR_MSG_MAX)
		n = ERR_MSG_MAX - 1;
	memcpy(buf + n, ": ", 2);
	memcpy(buf + n + 2, e->msg, ERR_MSG_MAX);
	buf[n + 2 + ERR_MSG_MAX - 1] = '\0';
	buf[ERR_MSG_MAX - 1] = '\0';
	one_line(e->msg, buf);
	return -1;
}

/* Append n bytes of s to buf (used bytes so far), never past ERR_MSG_MAX - 1. */
static void put(char *buf, size_t *used, const char *s, size_t n)
{
	if (n > ERR_MSG_MAX - 1 - *used)
		n = ERR_MSG_MAX - 1 - *used;
	memcpy(buf + *used, s, n);
	*used += n;
}

void err_redact(struct err *e, const char *secret)
{
	static const char mark[] = "[redacted]";
	size_t sl = secret ? strlen(secret) : 0, used = 0, len;
	char buf[ERR_MSG_MAX];
	const char *p, *hit;
	int cut = 0;

	if (!e || sl == 0)
		return;
	/* a message cut short may end in the start of the secret */
	len = strlen(e->msg);
	for (size_t k = sl - 1 < len ? sl - 1 : len; k >= 4 && !cut; k--)
		if (memcmp(e->msg + len - k, secret, k) == 0) {
			e->msg[len - k] = '\0';
			cut = 1;
		}
	for (p = e->msg; (hit = strstr(p, secret)) != NULL; p = hit + sl) {
		put(buf, &used, p, (size_t)(hit - p));
		put(buf, &used, mark, sizeof(mark) - 1);
	}
	put(buf, &used, p, strlen(p));
	if (cut)
		put(buf, &used, mark, sizeof(mark) - 1);
	buf[used] = '\0';
	memcpy(e->msg, buf, used + 1);
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
