// SPDX-License-Identifier: Apache-2.0
/* jsonio_filter - a JSON parser that builds only the parts of a document a
 * reader asked for (see jsonio_reader_filter in jsonio.h).
 *
 * Recursive descent over the framed bytes of one document (RFC 8259, with
 * jansson's limits: depth 2048, integers in int64, no \u0000, valid UTF-8).
 * Values under keys the filter does not name are checked the same way but
 * not built, which is most of a Kubernetes object (managedFields, env,
 * conditions...): no allocation for them at all.  On any error the caller
 * decodes the document again with jansson, whose message it reports, so the
 * two paths cannot disagree on the text of an error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"

#define MAX_DEPTH 2048

struct parser {
	const unsigned char *p, *end;
	char *buf; /* decoded string with escapes, or a number's text */
	size_t cap;
	void *arg; /* for the each hooks */
};

static void ws(struct parser *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static int lit(struct parser *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
		return -1;
	j->p += n;
	return 0;
}

/* Length of the UTF-8 sequence at s (RFC 3629 well-formed), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, const unsigned char *end)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;

	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
	else
		return 0;
	if ((size_t)(end - s) < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

static void put(struct parser *j, size_t *len, const void *data, size_t n)
{
	if (*len + n + 1 > j->cap) {
		j->cap = (*len + n + 1) * 2;
		j->buf = xrealloc(j->buf, j->cap);
	}
	memcpy(j->buf + *len, data, n);
	*len += n;
	j->buf[*len] = '\0';
}

static int hex4(const unsigned char *s, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		unsigned c = s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		*out = *out << 4 | d;
	}
	return 0;
}

/* One escape after the backslash at j->p; appends its UTF-8 when len. */
static int escape(struct parser *j, size_t *len)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned u, lo;
	char out[4];
	size_t n;

	if (j->end - j->p < 2)
		return -1;
	if (j->p[1] != 'u') {
		if (!j->p[1] || !(e = strchr(from, j->p[1])))
			return -1;
		if (len)
			put(j, len, &to[e - from], 1);
		j->p += 2;
		return 0;
	}
	if (j->end - j->p < 6 || hex4(j->p + 2, &u) < 0 || u == 0 || (u >= 0xDC00 && u <= 0xDFFF))
		return -1;
	j->p += 6;
	if (u >= 0xD800 && u <= 0xDBFF) { /* a surrogate pair */
		if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
		    hex4(j->p + 2, &lo) < 0 || lo < 0xDC00 || lo > 0xDFFF)
			return -1;
		u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
		j->p += 6;
	}
	if (!len)
		return 0;
	if (u < 0x80) {
		out[0] = (char)u, n = 1;
	} else if (u < 0x800) {
		out[0] = (char)(0xC0 | u >> 6), out[1] = (char)(0x80 | (u & 0x3F)), n = 2;
	} else if (u < 0x10000) {
		out[0] = (char)(0xE0 | u >> 12), out[1] = (char)(0x80 | ((u >> 6) & 0x3F));
		out[2] = (char)(0x80 | (u & 0x3F)), n = 3;
	} else {
		out[0] = (char)(0xF0 | u >> 18), out[1] = (char)(0x80 | ((u >> 12) & 0x3F));
		out[2] = (char)(0x80 | ((u >> 6) & 0x3F)), out[3] = (char)(0x80 | (u & 0x3F)),
		n = 4;
	}
	put(j, len, out, n);
	return 0;
}

/* A string at j->p (the opening quote).  With out, *out and *len give its
 * decoded bytes (into the input when it has no escape, else j->buf).
 * Returns 0, or -1 when invalid. */
static int string(struct parser *j, const char **out, size_t *len)
{
	const unsigned char *start = ++j->p;
	size_t n = 0;
	int escaped = 0;

	for (;;) {
		const unsigned char *s = j->p;
		size_t u;

		while (s < j->end && *s >= 0x20 && *s != '"' && *s != '\\' && *s < 0x80)
			s++;
		if (escaped && out)
			put(j, &n, j->p, (size_t)(s - j->p));
		j->p = s;
		if (s == j->end || *s < 0x20)
			return -1;
		if (*s == '"')
			break;
		if (*s == '\\') {
			if (!escaped && out) {
				escaped = 1;
				put(j, &n, start, (size_t)(s - start));
			}
			if (escape(j, out ? &n : NULL) < 0)
				return -1;
			continue;
		}
		if (!(u = utf8_len(s, j->end)))
			return -1;
		if (escaped && out)
			put(j, &n, s, u);
		j->p += u;
	}
	if (out) {
		*out = escaped ? j->buf : (const char *)start;
		*len = escaped ? n : (size_t)(j->p - start);
	}
	j->p++;
	return 0;
}

/* A number (RFC 8259 grammar); built as jansson would: an integer in
 * int64, else a finite real. */
static int number(struct parser *j, json_t **out)
{
	const unsigned char *s = j->p;
	int real = 0;
	size_t n = 0;
	char *end;

	if (s < j->end && *s == '-')
		s++;
	if (s < j->end && *s == '0')
		s++;
	else if (s < j->end && *s >= '1' && *s <= '9')
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	else
		return -1;
	if (s < j->end && *s == '.') {
		real = 1;
		if (++s == j->end || *s < '0' || *s > '9')
			return -1;
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < j->end && (*s == 'e' || *s == 'E')) {
		real = 1;
		if (++s < j->end && (*s == '+' || *s == '-'))
			s++;
		if (s == j->end || *s < '0' || *s > '9')
			return -1;
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (!real && s - j->p < 18) { /* fits in int64 for sure: no copy, no errno */
		if (out) {
			json_int_t v = 0;
			int neg = *j->p == '-';

			for (const unsigned char *d = j->p + neg; d < s; d++)
				v = v * 10 + (*d - '0');
			*out = json_integer(neg ? -v : v);
		}
		j->p = s;
		return 0;
	}
	put(j, &n, j->p, (size_t)(s - j->p));
	errno = 0;
	if (real) {
		double d = strtod(j->buf, &end);

		if (errno == ERANGE && (d > 1 || d < -1))
			return -1;
		if (out)
			*out = json_real(d);
	} else {
		long long v = strtoll(j->buf, &end, 10);

		if (errno == ERANGE)
			return -1;
		if (out)
			*out = json_integer(v);
	}
	j->p = s;
	return 0;
}

static const struct jsonio_filter *find(const struct jsonio_filter *keep, const char *key,
					size_t len)
{
	for (; keep->key; keep++)
		if (strcmp(keep->key, "*") != 0 && strlen(keep->key) == len &&
		    memcmp(keep->key, key, len) == 0)
			return keep;
	return NULL;
}

/* 1 when keep has the "*" entry (never matched by find(): a key "*" in the
 * text is one more unnamed key). */
static int has_star(const struct jsonio_filter *keep)
{
	for (; keep->key; keep++)
		if (strcmp(keep->key, "*") == 0)
			return 1;
	return 0;
}

/* The value at j->p.  build 0: check it only (*out untouched); build 1:
 * build it into *out, of an object only the keys keep names (their values
 * with the member's own filter), all of it when keep is NULL; an array
 * passes keep to its elements, or, with each, hands them to each one at a
 * time instead. */
static int value(struct parser *j, const struct jsonio_filter *keep,
		 int (*each)(const json_t *, size_t, void *), int build, int depth, json_t **out)
{
	size_t index = 0;

	json_t *v = NULL, *child;
	const char *key;
	size_t klen;

	if (depth > MAX_DEPTH || j->p == j->end)
		return -1;
	switch (*j->p) {
	case '{':
		j->p++;
		if (build)
			v = json_object();
		ws(j);
		if (j->p < j->end && *j->p == '}')
			break;
		for (size_t others = 0;;) {
			const struct jsonio_filter *f = NULL;
			char *k = NULL;
			int other = 0; /* a key keep lacks, kept as null ("*"): the first only */

			if (j->p == j->end || *j->p != '"' ||
			    string(j, build ? &key : NULL, &klen) < 0)
				goto bad;
			if (build && keep && !(f = find(keep, key, klen)))
				other = has_star(keep) && others++ == 0;
			if (build && (!keep || f || other)) {
				k = xmalloc(klen + 1); /* no NUL inside: \u0000 is refused */
				memcpy(k, key, klen);
				k[klen] = '\0';
			}
			ws(j);
			if (j->p == j->end || *j->p != ':') {
				free(k);
				goto bad;
			}
			j->p++;
			ws(j);
			child = NULL;
			if (value(j, f ? f->keep : NULL, f ? f->each : NULL, k != NULL && !other,
				  depth + 1, &child) < 0 ||
			    (k && json_object_get(v, k))) { /* a duplicate key */
				json_decref(child);
				free(k);
				goto bad;
			}
			if (k)
				json_object_set_new_nocheck(v, k, other ? json_null() : child);
			free(k);
			ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				ws(j);
				continue;
			}
			if (j->p < j->end && *j->p == '}')
				break;
			goto bad;
		}
		break;
	case '[':
		j->p++;
		if (build)
			v = json_array();
		ws(j);
		if (j->p < j->end && *j->p == ']')
			break;
		for (;;) {
			/* with each and a filter, an element is an object of the
			 * named keys: one that is an array is checked, not built
			 * (null: [[0,0,...]] would be built whole) */
			int nested = each && keep && j->p < j->end && *j->p == '[';

			child = NULL;
			if (value(j, keep, NULL, build && !nested, depth + 1, &child) < 0)
				goto bad;
			if (build && nested)
				child = json_null();
			if (build && each) {
				each(child, index++, j->arg);
				json_decref(child);
			} else if (build) {
				json_array_append_new(v, child);
			}
			ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				ws(j);
				continue;
			}
			if (j->p < j->end && *j->p == ']')
				break;
			goto bad;
		}
		break;
	case '"':
		if (string(j, build ? &key : NULL, &klen) < 0)
			return -1;
		if (build)
			*out = json_stringn_nocheck(key, klen);
		return 0;
	case 't':
		if (build)
			*out = json_true();
		return lit(j, "true");
	case 'f':
		if (build)
			*out = json_false();
		return lit(j, "false");
	case 'n':
		if (build)
			*out = json_null();
		return lit(j, "null");
	default:
		return number(j, build ? out : NULL);
	}
	j->p++; /* the closing bracket */
	if (build)
		*out = v;
	return 0;
bad:
	json_decref(v);
	return -1;
}

json_t *jsonio_parse_filtered(const char *data, size_t n, const struct jsonio_filter *keep)
{
	return jsonio_parse_filtered_each(data, n, keep, NULL);
}

json_t *jsonio_parse_filtered_each(const char *data, size_t n, const struct jsonio_filter *keep,
				   void *arg)
{
	struct parser j = { .p = (const unsigned char *)data,
			    .end = (const unsigned char *)data + n,
			    .arg = arg };
	json_t *doc = NULL;

	ws(&j);
	if (value(&j, keep, NULL, 1, 1, &doc) == 0) {
		ws(&j);
		if (j.p != j.end) {
			json_decref(doc);
			doc = NULL;
		}
	} else {
		json_decref(doc);
		doc = NULL;
	}
	free(j.buf);
	return doc;
}
