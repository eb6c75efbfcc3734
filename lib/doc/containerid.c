// SPDX-License-Identifier: Apache-2.0
/* containerid - YARN container id grammar (see containerid.h) */
#include "doc/containerid.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/jsonio.h"

/* Read a run of digits of at least minw characters ending at '_' or NUL,
 * with value <= max.  Advances *p past the digits. */
static const char *field(const char **p, int minw, int64_t max, int64_t *out)
{
	const char *s = *p;
	const int64_t lim = max / 10, last = max % 10; /* one division a field */
	int64_t v = 0;
	int n = 0;

	for (; isdigit((unsigned char)s[n]); n++) {
		int d = s[n] - '0';

		if (v > lim || (v == lim && d > last))
			return "value out of range";
		v = v * 10 + d;
	}
	if (n == 0)
		return "expected digits";
	if (n < minw)
		return "field shorter than its minimum width";
	*p = s + n;
	*out = v;
	return NULL;
}

int containerid_parse(const char *s, struct containerid *id, struct err *e)
{
	const char *p = s, *why = NULL;
	int64_t v;
	char shown[101];
	size_t i;

	memset(id, 0, sizeof(*id));
	if (!s || strlen(s) > CONTAINERID_MAX) {
		why = "too long";
		goto bad;
	}
	if (strncmp(p, "container_", 10) != 0) {
		why = "expected prefix 'container_'";
		goto bad;
	}
	p += 10;
	if (*p == 'e') {
		p++;
		if ((why = field(&p, 2, INT64_MAX >> 40, &id->epoch)))
			goto bad;
		if (*p++ != '_') {
			why = "expected '_' after the epoch";
			goto bad;
		}
	}
	if ((why = field(&p, 1, INT64_MAX, &id->cluster_timestamp)))
		goto bad;
	if (*p++ != '_') {
		why = "expected '_' after the cluster timestamp";
		goto bad;
	}
	if ((why = field(&p, 4, INT32_MAX, &v)))
		goto bad;
	id->app_id = (int32_t)v;
	if (*p++ != '_') {
		why = "expected '_' after the application id";
		goto bad;
	}
	if ((why = field(&p, 2, INT32_MAX, &v)))
		goto bad;
	id->attempt = (int32_t)v;
	if (*p++ != '_') {
		why = "expected '_' after the attempt";
		goto bad;
	}
	if ((why = field(&p, 6, (INT64_C(1) << 40) - 1, &id->number)))
		goto bad;
	if (*p != '\0') {
		why = "trailing characters";
		goto bad;
	}
	return 0;
bad:
	for (i = 0; s && s[i] && i < sizeof(shown) - 1; i++)
		shown[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	shown[i] = '\0';
	return err_set(e, ERR_INPUT, 0, "invalid container id '%s': %s", shown, why);
}

int containerid_valid(const char *s)
{
	struct containerid id;

	return containerid_parse(s, &id, NULL) == 0;
}

char *containerid_application(const struct containerid *id, char *buf, int size)
{
	snprintf(buf, (size_t)size, "application_%lld_%04d", (long long)id->cluster_timestamp,
		 (int)id->app_id);
	return buf;
}

int containerid_is_am(const struct containerid *id)
{
	return id->number == 1;
}

int containerid_get_unique(const json_t *item, const char *ctx, json_t *seen, const char **id,
			   struct containerid *out, struct err *e)
{
	const char *s = NULL;
	int r = jsonio_get_str(item, ctx, "id", &s, e);

	if (r < 0)
		return -1;
	if (r == 0 || containerid_parse(s, out, NULL) < 0)
		return jsonio_bad_value(e, ctx, "id", "a YARN container id",
					json_object_get(item, "id"));
	if (json_object_get(seen, s))
		return err_set(e, ERR_INPUT, 0, "%s.id: container '%s' is listed twice", ctx, s);
	json_object_set_new(seen, s, json_true());
	*id = s;
	return 0;
}
