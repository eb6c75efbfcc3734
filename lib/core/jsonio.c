// SPDX-License-Identifier: Apache-2.0
/* jsonio - JSON document streams, typed getters, output (see jsonio.h) */
#include "core/jsonio.h"

#include <errno.h>
#include <inttypes.h>
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

int jsonio_buf_put_json(struct jsonio_buf *b, const json_t *v)
{
	size_t len = 0;
	cleanup_free char *text = dump_compact(v, &len);

	if (!text)
		return -1;
	jsonio_buf_put(b, text, len - 1); /* without the newline */
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

int jsonio_get_strdup(const json_t *obj, const char *ctx, const char *key, char **out,
		      struct err *e)
{
	const char *s = NULL;
	int r = jsonio_get_str(obj, ctx, key, &s, e);

	*out = s ? xstrdup(s) : NULL;
	return r;
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
