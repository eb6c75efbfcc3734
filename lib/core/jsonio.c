// SPDX-License-Identifier: Apache-2.0
/* jsonio - JSON document streams, typed getters, output (see jsonio.h) */
#include "core/jsonio.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/clock.h"
#include "core/xalloc.h"

#define CHUNK 65536

struct jsonio_reader {
	FILE *f;
	char *name;
	char *buf;
	size_t len, cap;
	size_t pos;     /* scan position in buf */
	long line, col; /* of pos, 1-based */
	long doc_line;  /* where the last document began */
	int eof;
	const struct jsonio_filter *keep; /* or NULL: whole documents */
};

struct jsonio_reader *jsonio_reader_new(FILE *f, const char *name)
{
	struct jsonio_reader *r = xcalloc(1, sizeof(*r));

	r->f = f;
	r->name = xstrdup(name);
	r->line = 1;
	r->col = 1;
	return r;
}

void jsonio_reader_free(struct jsonio_reader *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->buf);
	free(r);
}

void jsonio_reader_filter(struct jsonio_reader *r, const struct jsonio_filter *keep)
{
	r->keep = keep;
}

long jsonio_reader_line(const struct jsonio_reader *r)
{
	return r->doc_line;
}

/* Drop consumed bytes before keep, then read more.  Returns bytes read, 0 at
 * EOF, -1 on a read error. */
static long refill(struct jsonio_reader *r, size_t *keep)
{
	size_t n;

	if (r->eof)
		return 0;
	if (*keep > 0) {
		memmove(r->buf, r->buf + *keep, r->len - *keep);
		r->len -= *keep;
		r->pos -= *keep;
		*keep = 0;
	}
	if (r->cap - r->len < CHUNK) {
		r->cap = r->cap ? r->cap * 2 : 2 * CHUNK;
		r->buf = xrealloc(r->buf, r->cap + 1);
	}
	n = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
	r->len += n;
	if (n == 0) {
		if (ferror(r->f))
			return -1;
		r->eof = 1;
	}
	return (long)n;
}

/* Move line and col over buf[from, to). */
static void count_lines(struct jsonio_reader *r, size_t from, size_t to)
{
	const char *p, *end, *nl;

	if (from == to)
		return;
	p = r->buf + from;
	end = r->buf + to;
	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		r->line++;
		r->col = 1;
		p = nl + 1;
	}
	r->col += end - p;
}

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

static int decode(const char *data, size_t n, const struct jsonio_filter *keep, const char *name,
		  long line0, long col0, json_t **doc, struct err *e)
{
	json_error_t jerr;
	json_t *v = keep ? jsonio_parse_filtered(data, n, keep) : jsonio_decode_fast(data, n);

	if (!v)
		v = json_loadb(data, n, JSON_REJECT_DUPLICATES, &jerr);
	if (!v) {
		long line = line0 + (jerr.line > 0 ? jerr.line - 1 : 0);
		long col = jerr.line <= 1 ? col0 + (jerr.column > 0 ? jerr.column - 1 : 0)
					  : jerr.column;

		return err_set(e, ERR_INPUT, 0, "%s:%ld:%ld: %s", name, line, col, jerr.text);
	}
	if (!json_is_object(v)) {
		json_decref(v);
		return err_set(e, ERR_INPUT, 0, "%s:%ld:%ld: expected a JSON object", name, line0,
			       col0);
	}
	*doc = v;
	return 0;
}

/* JSON whitespace, and NUL, which also separates documents. */
static int is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\0';
}

int jsonio_read(struct jsonio_reader *r, json_t **doc, struct err *e)
{
	size_t start;
	long line0, col0;
	int depth = 0, in_str = 0, esc = 0, scalar = 0, found = 0;

	*doc = NULL;
	/* skip whitespace between documents */
	for (;;) {
		size_t zero = 0, from = r->pos;

		while (r->pos < r->len && is_space(r->buf[r->pos]))
			r->pos++;
		count_lines(r, from, r->pos);
		if (r->pos < r->len)
			break;
		r->len = r->pos = 0;
		zero = 0;
		if (refill(r, &zero) < 0)
			return err_set(e, ERR_SYSTEM, errno, "read '%s'", r->name);
		if (r->len == 0)
			return 0;
	}
	start = r->pos;
	line0 = r->line;
	col0 = r->col;
	r->doc_line = line0;
	if (r->buf[r->pos] != '{' && r->buf[r->pos] != '[')
		scalar = 1;
	/* Find the document's end: the bracket that closes the first one, or
	 * for a scalar (refused by the decoder) the next space or bracket.
	 * line and col stay at the start until the end is known. */
	while (!found) {
		const char *b = r->buf;
		size_t pos = r->pos, len = r->len;
		long n;

		while (scalar && pos < len && !found) {
			if (is_space(b[pos]) || b[pos] == '{' || b[pos] == '[')
				found = 1;
			else
				pos++;
		}
		while (!scalar && pos < len && !found) {
			char c = b[pos++];

			if (in_str) {
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"')
					in_str = 0;
				else /* the plain run of a string, in one tight loop */
					while (pos < len && b[pos] != '"' && b[pos] != '\\')
						pos++;
			} else if (c == '"') {
				in_str = 1;
			} else if (c == '{' || c == '[') {
				depth++;
			} else if ((c == '}' || c == ']') && --depth <= 0) {
				found = 1;
			}
		}
		r->pos = pos;
		if (found)
			break;
		n = refill(r, &start);
		if (n < 0)
			return err_set(e, ERR_SYSTEM, errno, "read '%s'", r->name);
		if (n == 0)
			break; /* EOF inside a document: let the decoder name the problem */
	}
	count_lines(r, start, r->pos);
	if (decode(r->buf + start, r->pos - start, r->keep, r->name, line0, col0, doc, e) < 0)
		return -1;
	return 1;
}

json_t *jsonio_parse(const char *text, const char *name, struct err *e)
{
	json_t *doc = NULL;

	if (decode(text, strlen(text), NULL, name, 1, 1, &doc, e) < 0)
		return NULL;
	return doc;
}

static int is_kilo_kind(const char *kind)
{
	static const char *const own[] = { "NodeUsage",  "ContainerList", "KillPlan",
					   "KillReport", "CgroupChanges", "ResctrlReport",
					   "SyncPlan",   "SyncReport",    "YarnNodes" };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strcmp(kind, own[i]) == 0)
			return 1;
	return 0;
}

long jsonio_collect(FILE *f, const char *name, const char *const *want, size_t nwant, json_t **got,
		    const struct jsonio_filter *keep, struct err *e)
{
	struct jsonio_reader *r = jsonio_reader_new(f, name);
	long count = 0;
	int ret;

	if (keep)
		jsonio_reader_filter(r, keep);
	for (size_t i = 0; i < nwant; i++)
		got[i] = NULL;
	for (;;) {
		json_t *doc = NULL;
		const char *kind, *api;

		ret = jsonio_read(r, &doc, e);
		if (ret <= 0)
			break;
		count++;
		kind = json_string_value(json_object_get(doc, "kind"));
		api = json_string_value(json_object_get(doc, "apiVersion"));
		for (size_t i = 0; kind && i < nwant; i++) {
			if (strcmp(kind, want[i]) != 0)
				continue;
			if (is_kilo_kind(kind) && (!api || strcmp(api, KILO_API_VERSION) != 0)) {
				err_set(e, ERR_INPUT, 0,
					"%s:%ld: document of kind '%s' has apiVersion '%s', expected '%s'",
					name, jsonio_reader_line(r), kind, api ? api : "(none)",
					KILO_API_VERSION);
				json_decref(doc);
				jsonio_reader_free(r);
				for (size_t j = 0; j < nwant; j++) {
					json_decref(got[j]);
					got[j] = NULL;
				}
				return -1;
			}
			json_decref(got[i]);
			got[i] = json_incref(doc);
		}
		json_decref(doc);
	}
	jsonio_reader_free(r);
	if (ret < 0) {
		for (size_t i = 0; i < nwant; i++) {
			json_decref(got[i]);
			got[i] = NULL;
		}
		return -1;
	}
	return count;
}

int jsonio_require(const json_t *doc, const char *kind, const char *name, struct err *e)
{
	if (doc)
		return 0;
	return err_set(e, ERR_INPUT, 0, "missing required document of kind '%s' on %s", kind, name);
}

json_t *jsonio_new_doc(const char *kind)
{
	return json_pack("{s:s,s:s}", "apiVersion", KILO_API_VERSION, "kind", kind);
}

json_t *jsonio_metadata(const char *node, int64_t now_ms)
{
	char ts[40];
	json_t *m = json_object();

	if (node)
		json_object_set_new(m, "node", json_string(node));
	json_object_set_new(m, "timestamp",
			    json_string(clock_format_rfc3339(now_ms, ts, sizeof(ts))));
	return m;
}

/* Compact output of what jansson writes the same way in a fraction of its
 * time (a call per token): objects, arrays, ASCII strings, integers, true,
 * false, null.  Appends doc to *buf; returns -1 (buf partly filled) for
 * anything else (reals, non-ASCII text, deep nesting), which jansson then
 * writes. */
static void out_put(struct jsonio_buf *b, const char *s, size_t n)
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

static int out_string(struct jsonio_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;

	out_put(b, "\"", 1);
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
		out_put(b, s + run, i - run);
		run = i + 1;
		if (k) {
			char esc[2] = { '\\', "\"\\bfnrt"[k - "\"\\\b\f\n\r\t"] };

			out_put(b, esc, 2);
		} else {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			out_put(b, esc, 6);
		}
	}
	out_put(b, s + run, n - run);
	out_put(b, "\"", 1);
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
		out_put(b, "{", 1);
		json_object_foreach((json_t *)v, key, item)
		{
			if (!first)
				out_put(b, ",", 1);
			first = 0;
			if (out_string(b, key,
				       json_object_iter_key_len(json_object_key_to_iter(key))) < 0)
				return -1;
			out_put(b, ":", 1);
			if (out_value(b, item, depth + 1) < 0)
				return -1;
		}
		out_put(b, "}", 1);
		return 0;
	case JSON_ARRAY:
		out_put(b, "[", 1);
		json_array_foreach(v, i, item)
		{
			if (i)
				out_put(b, ",", 1);
			if (out_value(b, item, depth + 1) < 0)
				return -1;
		}
		out_put(b, "]", 1);
		return 0;
	case JSON_STRING:
		return out_string(b, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		out_put(b, num,
			(size_t)snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
					 json_integer_value(v)));
		return 0;
	case JSON_TRUE:
		out_put(b, "true", 4);
		return 0;
	case JSON_FALSE:
		out_put(b, "false", 5);
		return 0;
	case JSON_NULL:
		out_put(b, "null", 4);
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
	out_put(&b, "\n", 1);
	*len = b.len;
	return b.p;
}

/* The compact text of v with its newline (*len bytes; new), as
 * jsonio_write() prints it, or NULL when out of memory. */
static char *dump_compact(const json_t *v, size_t *len)
{
	char *text = jsonio_dump_fast(v, len), *slow;

	if (text)
		return text;
	slow = json_dumps(v, JSON_REAL_PRECISION(15) | JSON_COMPACT);
	if (!slow)
		return NULL;
	text = xasprintf("%s\n", slow);
	free(slow);
	*len = strlen(text);
	return text;
}

int jsonio_write(FILE *f, const json_t *doc, int pretty, struct err *e)
{
	cleanup_free char *text = NULL;
	size_t len = 0;

	if (pretty) {
		if (json_dumpf(doc, f, JSON_REAL_PRECISION(15) | JSON_INDENT(2)) != 0 ||
		    fputc('\n', f) == EOF)
			return err_set(e, ERR_SYSTEM, errno, "write output");
		return 0;
	}
	text = dump_compact(doc, &len);
	if (!text || fwrite(text, 1, len, f) != len)
		return err_set(e, ERR_SYSTEM, text ? errno : ENOMEM, "write output");
	return 0;
}

int jsonio_record(struct jsonio_buf *b, const char *const *keys, const char *const *values,
		  size_t n)
{
	size_t start = b->len;

	out_put(b, "{", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			out_put(b, ",", 1);
		if (out_string(b, keys[i], strlen(keys[i])) < 0)
			goto jansson;
		out_put(b, ":", 1);
		if (!values[i])
			out_put(b, "null", 4);
		else if (out_string(b, values[i], strlen(values[i])) < 0)
			goto jansson;
	}
	out_put(b, "}", 1);
	return 0;
jansson:
	b->len = start;
	return -1;
}

int jsonio_buf_put_json(struct jsonio_buf *b, const json_t *v)
{
	size_t len = 0;
	cleanup_free char *text = dump_compact(v, &len);

	if (!text)
		return -1;
	out_put(b, text, len - 1); /* without the newline */
	return 0;
}

void jsonio_buf_release(struct jsonio_buf *b)
{
	free(b->p);
	*b = (struct jsonio_buf){ 0 };
}

int jsonio_write_items(FILE *f, json_t *doc, const char *key, size_t n,
		       int (*item)(size_t i, void *arg, struct jsonio_buf *b), void *arg,
		       int pretty, struct err *e)
{
	cleanup_free char *head = NULL;
	struct jsonio_buf b = { 0 };
	json_t *items = json_array();
	size_t len = 0;
	int first = 1, r = 0;

	json_object_set_new(doc, key, items);
	if (!pretty) {
		head = dump_compact(doc, &len);
		json_object_del(doc, key);
		/* key is the last member: the text ends with "[]}\n". */
		if (!head || len < 4 || memcmp(head + len - 4, "[]}\n", 4) != 0 ||
		    fwrite(head, 1, len - 3, f) != len - 3)
			return err_set(e, ERR_SYSTEM, head ? errno : ENOMEM, "write output");
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		int got;

		b.len = 0;
		got = item(i, arg, &b);
		if (got < 0) {
			r = err_set(e, ERR_SYSTEM, EINVAL,
				    "write output: item %zu cannot be encoded", i);
		} else if (got == 0) {
			continue;
		} else if (pretty) { /* people read this: the text goes back through jansson */
			if (json_array_append_new(items, json_loadb(b.p, b.len, 0, NULL)) < 0)
				r = err_set(e, ERR_SYSTEM, EINVAL,
					    "write output: item %zu is not JSON", i);
		} else if ((!first && fputc(',', f) == EOF) || fwrite(b.p, 1, b.len, f) != b.len) {
			r = err_set(e, ERR_SYSTEM, errno, "write output");
		}
		first = 0;
	}
	jsonio_buf_release(&b);
	if (pretty) {
		if (r == 0)
			r = jsonio_write(f, doc, 1, e);
		json_object_del(doc, key);
		return r;
	}
	if (r == 0 && fputs("]}\n", f) == EOF)
		r = err_set(e, ERR_SYSTEM, errno, "write output");
	return r;
}

json_t *jsonio_string(const char *s)
{
	json_t *v;
	char *ascii;

	if (!s)
		return json_null();
	if ((v = json_string(s)))
		return v;
	ascii = xstrdup(s);
	for (char *p = ascii; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	v = json_string(ascii);
	free(ascii);
	return v;
}

int jsonio_bad_value(struct err *e, const char *ctx, const char *key, const char *what,
		     const json_t *v)
{
	cleanup_free char *dumped = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	cleanup_free char *clean = dumped ? err_redact_all(dumped) : NULL;
	char *text = clean ? clean : dumped; /* a secret goes before the value is cut */

	if (text && strlen(text) > 80)
		memcpy(text + 74, "...", 4);
	return err_set(e, ERR_INPUT, 0, "%s%s%s: expected %s, got %s", ctx ? ctx : "",
		       ctx && *ctx && key ? "." : "", key ? key : "", what,
		       text ? text : "nothing");
}

static json_t *lookup(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_null(v) ? NULL : v;
}

int jsonio_get_int(const json_t *obj, const char *ctx, const char *key, int64_t min, int64_t max,
		   int64_t *out, struct err *e)
{
	json_t *v = lookup(obj, key);
	char what[96];

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
		snprintf(what, sizeof(what), "an integer %" PRId64 "..%" PRId64, min, max);
		return jsonio_bad_value(e, ctx, key, what, v);
	}
	*out = json_integer_value(v);
	return 1;
}

int jsonio_get_real(const json_t *obj, const char *ctx, const char *key, double min, double max,
		    double *out, struct err *e)
{
	json_t *v = lookup(obj, key);
	char what[96];
	double d;

	if (!v)
		return 0;
	d = json_number_value(v);
	if (!json_is_number(v) || !isfinite(d) || d < min || d > max) {
		snprintf(what, sizeof(what), "a number %g..%g", min, max);
		return jsonio_bad_value(e, ctx, key, what, v);
	}
	*out = d;
	return 1;
}

int jsonio_get_bool(const json_t *obj, const char *ctx, const char *key, int *out, struct err *e)
{
	json_t *v = lookup(obj, key);

	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return jsonio_bad_value(e, ctx, key, "true or false", v);
	*out = json_is_true(v);
	return 1;
}

int jsonio_get_str(const json_t *obj, const char *ctx, const char *key, const char **out,
		   struct err *e)
{
	json_t *v = lookup(obj, key);

	if (!v)
		return 0;
	if (!json_is_string(v))
		return jsonio_bad_value(e, ctx, key, "a string", v);
	*out = json_string_value(v);
	return 1;
}

int jsonio_get_obj(const json_t *obj, const char *ctx, const char *key, json_t **out, struct err *e)
{
	json_t *v = lookup(obj, key);

	if (!v)
		return 0;
	if (!json_is_object(v))
		return jsonio_bad_value(e, ctx, key, "an object", v);
	*out = v;
	return 1;
}

int jsonio_get_arr(const json_t *obj, const char *ctx, const char *key, json_t **out, struct err *e)
{
	json_t *v = lookup(obj, key);

	if (!v)
		return 0;
	if (!json_is_array(v))
		return jsonio_bad_value(e, ctx, key, "an array", v);
	*out = v;
	return 1;
}

json_t *jsonio_int_or_null(int known, int64_t v)
{
	return known ? json_integer(v) : json_null();
}

static int is_key(const char *key, const char *const *keys)
{
	for (; key && *keys; keys++)
		if (strcmp(key, *keys) == 0)
			return 1;
	return 0;
}

void jsonio_redact_keys(json_t *doc, const char *const *keys)
{
	const char *key;
	json_t *v;
	size_t i;

	json_object_foreach(doc, key, v)
	{
		if (json_is_string(v) && is_key(key, keys)) {
			cleanup_free char *r = err_redact_all(json_string_value(v));

			if (r)
				json_string_set(v, r);
		} else {
			jsonio_redact_keys(v, keys);
		}
	}
	json_array_foreach(doc, i, v) jsonio_redact_keys(v, keys);
}
