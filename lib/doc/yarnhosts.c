/* SPDX-License-Identifier: Apache-2.0 */
#include "doc/yarnhosts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int valid_host(const char *host)
{
	size_t n = host ? strlen(host) : 0;

	if (n == 0 || n > 253)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (is_space(host[i]) || host[i] == '#' || (unsigned char)host[i] < 0x20)
			return 0;
	return 1;
}

/* The token at *p within [p, end) of one line, outside comments: its start
 * and length; 0 when the line has no more. */
static int next_token(const char **p, const char *end, const char **tok, size_t *len)
{
	const char *s = *p;

	while (s < end && is_space(*s))
		s++;
	if (s >= end || *s == '#')
		return 0;
	*tok = s;
	while (s < end && !is_space(*s) && *s != '#')
		s++;
	*len = (size_t)(s - *tok);
	*p = s;
	return 1;
}

static int same(const char *tok, size_t len, const char *host)
{
	return strlen(host) == len && strncasecmp(tok, host, len) == 0;
}

int yarn_hosts_has(const char *text, const char *host)
{
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n'), *p = line, *tok;
		size_t len;

		if (!end)
			end = line + strlen(line);
		while (next_token(&p, end, &tok, &len))
			if (same(tok, len, host))
				return 1;
		line = *end ? end + 1 : end;
	}
	return 0;
}

char *yarn_hosts_edit(const char *text, const char *host, int add, int *changed, struct err *e)
{
	size_t cap = (text ? strlen(text) : 0) + strlen(host ? host : "") + 3, n = 0;
	char *out;
	const char *line = text ? text : "";

	*changed = 0;
	if (!valid_host(host)) {
		err_set(e, ERR_INPUT, 0, "'%s' is not a host name for the exclude list",
			host ? host : "");
		return NULL;
	}
	out = xmalloc(cap);
	while (*line) {
		const char *end = strchr(line, '\n'), *p = line, *tok, *from = line;
		size_t len, kept = 0, before = n;
		int dropped = 0;

		if (!end)
			end = line + strlen(line);
		if (add) { /* the text as it is */
			memcpy(out + n, line, (size_t)(end - line));
			n += (size_t)(end - line);
		} else {
			while (next_token(&p, end, &tok, &len)) {
				if (same(tok, len, host)) { /* copy up to it, skip it */
					memcpy(out + n, from, (size_t)(tok - from));
					n += (size_t)(tok - from);
					from = tok + len;
					dropped = 1;
				} else {
					kept++;
				}
			}
			memcpy(out + n, from, (size_t)(end - from));
			n += (size_t)(end - from);
			if (dropped) {
				const char *q = out + before;
				size_t m = n - before, k = 0;

				*changed = 1;
				while (k < m && is_space(q[k]))
					k++;
				if (!kept && k == m) { /* nothing left on the line: drop it */
					n = before;
					line = *end ? end + 1 : end;
					continue;
				}
			}
		}
		if (*end)
			out[n++] = '\n';
		line = *end ? end + 1 : end;
	}
	if (add && !yarn_hosts_has(text, host)) {
		size_t hl = strlen(host);

		if (n && out[n - 1] != '\n')
			out[n++] = '\n';
		memcpy(out + n, host, hl);
		n += hl;
		out[n++] = '\n';
		*changed = 1;
	}
	out[n] = '\0';
	return out;
}
