// SPDX-License-Identifier: Apache-2.0
/* jsonio_text - compact JSON text without jansson's per-character calls:
 * the fast decoder of kilo's own documents, the fast compact writer and
 * records (see jsonio.h).  Both decline what they do not handle, and the
 * caller runs jansson, so jansson decides what is valid JSON. */
#include "core/jsonio.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/xalloc.h"

/* ---- Fast path -----------------------------------------------------------
 *
 * jansson's decoder spends ~190 instructions a byte on kilo's documents (a
 * call per character, every token saved twice).  This parser builds the same
 * jansson values for the plain subset of JSON that kilo's tools write: ASCII
 * strings with the short escapes, int64 integers, finite reals, true, false,
 * null, nesting up to FAST_MAX_DEPTH.  It declines (returns NULL) on anything
 * else, and on anything jansson would refuse (duplicate keys, a leading zero,
 * a trailing comma, trailing text): the caller then runs jansson, so what is
 * accepted and every error message stay jansson's. */
#define FAST_MAX_DEPTH 64

struct fast {
	const char *p, *end;
	int depth;
};

static void fast_ws(struct fast *f)
{
	while (f->p < f->end && (*f->p == ' ' || *f->p == '\n' || *f->p == '\t' || *f->p == '\r'))
		f->p++;
}

static int fast_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int fast_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A string after its opening quote: *out is the text (in the input, or in
 * *tmp, which the caller frees), *len its length.  Returns 0, or -1 to
 * decline. */
static int fast_string(struct fast *f, const char **out, size_t *len, char **tmp)
{
	const char *start = f->p;
	size_t n = 0;
	char *d;

	while (f->p < f->end && *f->p != '"') {
		unsigned char c = (unsigned char)*f->p;

		if (c < 0x20 || c >= 0x80)
			return -1;
		f->p += c == '\\' ? 2 : 1;
	}
	if (f->p >= f->end)
		return -1;
	if (!memchr(start, '\\', (size_t)(f->p - start))) {
		*out = start;
		*len = (size_t)(f->p++ - start);
		return 0;
	}
	d = *tmp = xmalloc((size_t)(f->p - start));
	for (const char *q = start; q < f->p; q++) {
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *k;

		if (*q != '\\') {
			d[n++] = *q;
			continue;
		}
		k = strchr(from, *++q);
		if (!*q || !k)
			return -1; /* \u and unknown escapes */
		d[n++] = to[k - from];
	}
	*out = d;
	*len = n;
	f->p++;
	return 0;
}

static json_t *fast_number(struct fast *f)
{
	const char *start = f->p;
	int neg = *f->p == '-', real = 0;
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	char text[64];
	double d;

	f->p += neg;
	if (f->p >= f->end || !fast_digit(*f->p))
		return NULL;
	if (*f->p == '0' && f->p + 1 < f->end && fast_digit(f->p[1]))
		return NULL;
	for (; f->p < f->end && fast_digit(*f->p); f->p++) {
		unsigned dig = (unsigned)(*f->p - '0');

		if (v > (lim - dig) / 10)
			real = -1; /* beyond int64: jansson refuses it */
		v = v * 10 + dig;
	}
	if (f->p < f->end && *f->p == '.') {
		if (++f->p >= f->end || !fast_digit(*f->p))
			return NULL;
		while (f->p < f->end && fast_digit(*f->p))
			f->p++;
		real = real ? real : 1;
	}
	if (f->p < f->end && (*f->p == 'e' || *f->p == 'E')) {
		f->p++;
		if (f->p < f->end && (*f->p == '+' || *f->p == '-'))
			f->p++;
		if (f->p >= f->end || !fast_digit(*f->p))
			return NULL;
		while (f->p < f->end && fast_digit(*f->p))
			f->p++;
		real = real ? real : 1;
	}
	if (real < 0)
		return NULL;
	if (!real)
		return json_integer(neg ? (json_int_t)(0 - v) : (json_int_t)v);
	/* jansson reads reals with strtod and the locale's decimal point */
	if ((size_t)(f->p - start) >= sizeof(text) || strcmp(localeconv()->decimal_point, ".") != 0)
		return NULL;
	memcpy(text, start, (size_t)(f->p - start));
	text[f->p - start] = '\0';
	d = strtod(text, NULL);
	return isfinite(d) ? json_real(d) : NULL;
}

static json_t *fast_value(struct fast *f);

static json_t *fast_object(struct fast *f)
{
	json_t *obj = json_object();

	fast_ws(f);
	if (f->p < f->end && *f->p == '}') {
		f->p++;
		return obj;
	}
	for (;;) {
		cleanup_free char *tmp = NULL;
		const char *key;
		size_t len, size = json_object_size(obj);
		json_t *v;

		if (f->p >= f->end || *f->p++ != '"' || fast_string(f, &key, &len, &tmp) < 0)
			break;
		fast_ws(f);
		if (f->p >= f->end || *f->p++ != ':' || !(v = fast_value(f)))
			break;
		if (json_object_setn_new_nocheck(obj, key, len, v) < 0 ||
		    json_object_size(obj) == size)
			break; /* a duplicate key */
		fast_ws(f);
		if (f->p < f->end && *f->p == ',') {
			f->p++;
			fast_ws(f);
			continue;
		}
		if (f->p < f->end && *f->p++ == '}')
			return obj;
		break;
	}
	json_decref(obj);
	return NULL;
}

static json_t *fast_array(struct fast *f)
{
	json_t *arr = json_array();

	fast_ws(f);
	if (f->p < f->end && *f->p == ']') {
		f->p++;
		return arr;
	}
	for (;;) {
		json_t *v = fast_value(f);

		if (!v || json_array_append_new(arr, v) < 0)
			break;
		fast_ws(f);
		if (f->p < f->end && *f->p == ',') {
			f->p++;
			continue;
		}
		if (f->p < f->end && *f->p++ == ']')
			return arr;
		break;
	}
	json_decref(arr);
	return NULL;
}

static json_t *fast_literal(struct fast *f, const char *word, json_t *v)
{
	size_t n = strlen(word);

	if ((size_t)(f->end - f->p) < n || memcmp(f->p, word, n) != 0 ||
	    (f->p + n < f->end && fast_alpha(f->p[n])))
		return NULL;
	f->p += n;
	return v;
}

static json_t *fast_value(struct fast *f)
{
	json_t *v = NULL;

	fast_ws(f);
	if (f->p >= f->end)
		return NULL;
	switch (*f->p) {
	case '{':
	case '[':
		if (++f->depth > FAST_MAX_DEPTH)
			return NULL;
		f->p++;
		v = f->p[-1] == '{' ? fast_object(f) : fast_array(f);
		f->depth--;
		return v;
	case '"': {
		cleanup_free char *tmp = NULL;
		const char *s;
		size_t len;

		f->p++;
		return fast_string(f, &s, &len, &tmp) < 0 ? NULL : json_stringn_nocheck(s, len);
	}
	case 't':
		return fast_literal(f, "true", json_true());
	case 'f':
		return fast_literal(f, "false", json_false());
	case 'n':
		return fast_literal(f, "null", json_null());
	default:
		return *f->p == '-' || fast_digit(*f->p) ? fast_number(f) : NULL;
	}
}

json_t *jsonio_decode_fast(const char *data, size_t n)
{
	struct fast f = { data, data + n, 0 };
	json_t *v;

	fast_ws(&f);
	if (f.p >= f.end || (*f.p != '{' && *f.p != '['))
		return NULL; /* jansson names what it expected */
	v = fast_value(&f);
	fast_ws(&f);
	if (v && f.p != f.end) {
		json_decref(v);
		return NULL;
	}
	return v;
}

void jsonio_buf_put(struct jsonio_buf *b, const char *s, size_t n)
{
	if (b->cap - b->len < n) {
		while (b->cap - b->len < n)
			b->cap = b->cap ? 2 * b->cap : 4096;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

/* Bytes a JSON string cannot hold as they are: controls, '"', '\\'; and
 * non-ASCII, which this writer leaves to jansson.  A table: the scan of a
 * report's 300 KB of strings is this writer's hottest loop. */
static const unsigned char out_special[256] = {
	[0 ... 0x1f] = 1,
	['"'] = 1,
	['\\'] = 1,
	[0x80 ... 0xff] = 1,
};

/* Compact output of what jansson writes the same way in a fraction of its
 * time (a call per token): objects, arrays, ASCII strings, integers, true,
 * false, null.  Appends doc to *buf; returns -1 (buf partly filled) for
 * anything else (reals, non-ASCII text, deep nesting), which jansson then
 * writes. */
static int out_string(struct jsonio_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;

	jsonio_buf_put(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c;
		const char *k;

		while (i < n && !out_special[(unsigned char)s[i]])
			i++;
		if (i == n)
			break;
		c = (unsigned char)s[i];
		if (c >= 0x80)
			return -1;
		k = c ? strchr("\"\\\b\f\n\r\t", c) : NULL;
		jsonio_buf_put(b, s + run, i - run);
		run = i + 1;
		if (k) {
			char esc[2] = { '\\', "\"\\bfnrt"[k - "\"\\\b\f\n\r\t"] };

			jsonio_buf_put(b, esc, 2);
		} else {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			jsonio_buf_put(b, esc, 6);
		}
	}
	jsonio_buf_put(b, s + run, n - run);
	jsonio_buf_put(b, "\"", 1);
	return 0;
}

static int out_value(struct jsonio_buf *b, const json_t *v, int depth)
{
	char num[24];
	const char *key;
	json_t *item;
	size_t i;
	int first = 1;

	if (depth > FAST_MAX_DEPTH)
		return -1;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		jsonio_buf_put(b, "{", 1);
		json_object_foreach((json_t *)v, key, item)
		{
			if (!first)
				jsonio_buf_put(b, ",", 1);
			first = 0;
			if (out_string(b, key,
				       json_object_iter_key_len(json_object_key_to_iter(key))) < 0)
				return -1;
			jsonio_buf_put(b, ":", 1);
			if (out_value(b, item, depth + 1) < 0)
				return -1;
		}
		jsonio_buf_put(b, "}", 1);
		return 0;
	case JSON_ARRAY:
		jsonio_buf_put(b, "[", 1);
		json_array_foreach(v, i, item)
		{
			if (i)
				jsonio_buf_put(b, ",", 1);
			if (out_value(b, item, depth + 1) < 0)
				return -1;
		}
		jsonio_buf_put(b, "]", 1);
		return 0;
	case JSON_STRING:
		return out_string(b, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		jsonio_buf_put(b, num,
			       (size_t)snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
						json_integer_value(v)));
		return 0;
	case JSON_TRUE:
		jsonio_buf_put(b, "true", 4);
		return 0;
	case JSON_FALSE:
		jsonio_buf_put(b, "false", 5);
		return 0;
	case JSON_NULL:
		jsonio_buf_put(b, "null", 4);
		return 0;
	default:
		return -1; /* reals: jansson's formatting */
	}
}

char *jsonio_dump_fast(const json_t *doc, size_t *len)
{
	struct jsonio_buf b = { 0 };

	if (!json_is_object(doc) && !json_is_array(doc))
		return NULL;
	if (out_value(&b, doc, 0) < 0) {
		free(b.p);
		return NULL;
	}
	jsonio_buf_put(&b, "\n", 1);
	*len = b.len;
	return b.p;
}

int jsonio_record(struct jsonio_buf *b, const char *const *keys, const char *const *values,
		  size_t n)
{
	size_t start = b->len;

	jsonio_buf_put(b, "{", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			jsonio_buf_put(b, ",", 1);
		if (out_string(b, keys[i], strlen(keys[i])) < 0)
			goto jansson;
		jsonio_buf_put(b, ":", 1);
		if (!values[i])
			jsonio_buf_put(b, "null", 4);
		else if (out_string(b, values[i], strlen(values[i])) < 0)
			goto jansson;
	}
	jsonio_buf_put(b, "}", 1);
	return 0;
jansson:
	b->len = start;
	return -1;
}
