// SPDX-License-Identifier: Apache-2.0
/* containerid - YARN container id grammar (see containerid.h) */
#include "doc/containerid.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/jsonio.h"

/* Read a run of digits of at least minw characters ending at '_' or NUL,
 * with value <= max.  Advances *p past the digits.  NULL, or why not
 * (naming the field: "the container number '00003' has 5 digits, at least
 * 6 expected") in buf. */
static const char *field(const char **p, const char *name, int minw, int64_t max, int64_t *out,
			 char *buf, size_t size)
{
	const char *s = *p;
	const int64_t lim = max / 10, last = max % 10; /* one division a field */
	int64_t v = 0;
	int n = 0;

	for (; isdigit((unsigned char)s[n]); n++) {
		int d = s[n] - '0';

		if (v > lim || (v == lim && d > last)) {
			snprintf(buf, size, "the %s is out of range (at most %lld)", name,
				 (long long)max);
			return buf;
		}
		v = v * 10 + d;
	}
	if (n == 0) {
		snprintf(buf, size, "expected digits for the %s", name);
		return buf;
	}
	if (n < minw) {
		snprintf(buf, size, "the %s '%.*s' has %d digit%s, at least %d expected", name, n,
			 s, n, n == 1 ? "" : "s", minw);
		return buf;
	}
	*p = s + n;
	*out = v;
	return NULL;
}

int containerid_parse(const char *s, struct containerid *id, struct err *e)
{
	const char *p = s, *why = NULL;
	int64_t v;
	char shown[101], buf[96];
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
		if ((why = field(&p, "epoch", 2, INT64_MAX >> 40, &id->epoch, buf, sizeof(buf))))
			goto bad;
		if (*p++ != '_') {
			why = "expected '_' after the epoch";
			goto bad;
		}
	}
	if ((why = field(&p, "cluster timestamp", 1, INT64_MAX, &id->cluster_timestamp, buf,
			 sizeof(buf))))
		goto bad;
	if (*p++ != '_') {
		why = "expected '_' after the cluster timestamp";
		goto bad;
	}
	if ((why = field(&p, "application id", 4, INT32_MAX, &v, buf, sizeof(buf))))
		goto bad;
	id->app_id = (int32_t)v;
	if (*p++ != '_') {
		why = "expected '_' after the application id";
		goto bad;
	}
	if ((why = field(&p, "attempt", 2, INT32_MAX, &v, buf, sizeof(buf))))
		goto bad;
	id->attempt = (int32_t)v;
	if (*p++ != '_') {
		why = "expected '_' after the attempt";
		goto bad;
	}
	if ((why = field(&p, "container number", 6, (INT64_C(1) << 40) - 1, &id->number, buf,
			 sizeof(buf))))
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
