// SPDX-License-Identifier: Apache-2.0
/* config - YAML/JSON configuration through libyaml (see config.h) */
#include "core/config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/xalloc.h"

/* Where a value begins, or (key set, owned) where the key of obj v is. */
struct config_pos {
	const json_t *v;
	char *key;
	long line, col;
};

/* Bounds on what a file may build, so that a small file cannot exhaust
 * memory ("billion laughs" aliases) or the stack (deep nesting). */
#define CONFIG_MAX_DEPTH 64
#define CONFIG_MAX_VALUES 200000

struct anchor {
	char *name;
	json_t *v;
	size_t values; /* values in v, copies of aliases included */
	int depth;     /* levels of v */
};

struct loader {
	struct config *c;
	yaml_parser_t parser;
	struct anchor *anchors;
	size_t nanchors;
	struct err *e;
	size_t values;  /* values built so far, alias copies included */
	int depth;      /* current nesting */
	char path[256]; /* field path of the value being read ("a.b[2]") */
};

/* Remember where value v begins, or with key where obj v's key is. */
static void remember(struct config *c, const json_t *v, const char *key, yaml_mark_t m)
{
	if (c->npos == c->cappos) {
		c->cappos = c->cappos ? c->cappos * 2 : 64;
		c->pos = xrealloc(c->pos, c->cappos * sizeof(*c->pos));
	}
	c->pos[c->npos].v = v;
	c->pos[c->npos].key = key ? xstrdup(key) : NULL;
	c->pos[c->npos].line = (long)m.line + 1;
	c->pos[c->npos].col = (long)m.column + 1;
	c->npos++;
}

__attribute__((format(printf, 3, 4))) static int fail_at(struct loader *l, yaml_mark_t m,
							 const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return err_set(l->e, ERR_INPUT, 0, "%s:%ld:%ld: %s%s%s", l->c->name, (long)m.line + 1,
		       (long)m.column + 1, l->path, l->path[0] ? ": " : "", what);
}

/* Append ".key" or "[i]" to the path; returns the old length to restore. */
static size_t path_push(struct loader *l, const char *key, size_t index)
{
	size_t n = strlen(l->path);

	if (key)
		snprintf(l->path + n, sizeof(l->path) - n, "%s%s", n ? "." : "", key);
	else
		snprintf(l->path + n, sizeof(l->path) - n, "[%zu]", index);
	return n;
}

/* Count one more value (and its nesting); -1 with e set past the bounds. */
static int count(struct loader *l, yaml_mark_t m, size_t values, int depth)
{
	l->values += values;
	if (l->values > CONFIG_MAX_VALUES)
		return fail_at(l, m, "more than %d values (aliases included)", CONFIG_MAX_VALUES);
	if (l->depth + depth > CONFIG_MAX_DEPTH)
		return fail_at(l, m, "nested deeper than %d levels", CONFIG_MAX_DEPTH);
	return 0;
}

/* Values and levels of v. */
static void measure(const json_t *v, size_t *values, int *depth)
{
	size_t n = 1, sub_n, i;
	int d = 0, sub_d;
	const char *k;
	json_t *x;

	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x)
		{
			measure(x, &sub_n, &sub_d);
			n += sub_n;
			d = sub_d > d ? sub_d : d;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
		{
			measure(x, &sub_n, &sub_d);
			n += sub_n;
			d = sub_d > d ? sub_d : d;
		}
	}
	*values = n;
	*depth = d + 1;
}

static int next_event(struct loader *l, yaml_event_t *ev)
{
	if (yaml_parser_parse(&l->parser, ev))
		return 0;
	return err_set(l->e, ERR_INPUT, 0, "%s:%ld:%ld: %s%s%s", l->c->name,
		       (long)l->parser.problem_mark.line + 1,
		       (long)l->parser.problem_mark.column + 1,
		       l->parser.problem ? l->parser.problem : "YAML syntax error",
		       l->parser.context ? " " : "", l->parser.context ? l->parser.context : "");
}

static int match_all(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

/* YAML 1.2 core schema float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
static int is_float(const char *s)
{
	const char *p = s;
	size_t intd, fracd = 0;

	if (*p == '-' || *p == '+')
		p++;
	intd = strspn(p, "0123456789");
	p += intd;
	if (*p == '.') {
		p++;
		fracd = strspn(p, "0123456789");
		p += fracd;
	}
	if (intd == 0 && fracd == 0)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (!strspn(p, "0123456789"))
			return 0;
		p += strspn(p, "0123456789");
	}
	return *p == '\0';
}

static json_t *integer(struct loader *l, yaml_mark_t m, const char *s, int base, const char *digits)
{
	char *end = NULL;
	long long v;

	errno = 0;
	v = strtoll(digits, &end, base);
	if (errno || *end) {
		fail_at(l, m, "integer out of range: %s", s);
		return NULL;
	}
	return json_integer(v);
}

static json_t *scalar(struct loader *l, yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	const char *tag = (const char *)ev->data.scalar.tag;
	yaml_mark_t m = ev->start_mark;
	int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;

	if (tag && strcmp(tag, YAML_STR_TAG) == 0)
		return json_string(s);
	if (tag && strcmp(tag, YAML_INT_TAG) != 0 && strcmp(tag, YAML_FLOAT_TAG) != 0 &&
	    strcmp(tag, YAML_BOOL_TAG) != 0 && strcmp(tag, YAML_NULL_TAG) != 0 &&
	    strcmp(tag, "!") != 0) {
		fail_at(l, m, "unsupported tag '%s'", tag);
		return NULL;
	}
	if (!plain && !tag)
		return json_string(s);
	if (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	    !strcmp(s, "NULL"))
		return json_null();
	if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
		return json_true();
	if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
		return json_false();
	if (match_all(s[0] == '-' || s[0] == '+' ? s + 1 : s, "0123456789"))
		return integer(l, m, s, 10, s);
	if (!strncmp(s, "0o", 2) && match_all(s + 2, "01234567"))
		return integer(l, m, s, 8, s + 2);
	if (!strncmp(s, "0x", 2) && match_all(s + 2, "0123456789abcdefABCDEF"))
		return integer(l, m, s, 16, s + 2);
	if (is_float(s)) {
		double d = strtod(s, NULL);

		if (!isfinite(d)) {
			fail_at(l, m, "number out of range: %s", s);
			return NULL;
		}
		return json_real(d);
	}
	if (strcasecmp(s, ".inf") == 0 || strcasecmp(s, "-.inf") == 0 ||
	    strcasecmp(s, "+.inf") == 0 || strcasecmp(s, ".nan") == 0) {
		fail_at(l, m, "%s is not representable in JSON", s);
		return NULL;
	}
	return json_string(s);
}

static json_t *node(struct loader *l, yaml_event_t *ev);

static json_t *sequence(struct loader *l)
{
	json_t *arr = json_array();

	for (;;) {
		yaml_event_t ev;
		json_t *v;
		size_t back;

		if (next_event(l, &ev) < 0)
			break;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return arr;
		}
		back = path_push(l, NULL, json_array_size(arr));
		v = node(l, &ev);
		if (v)
			l->path[back] = '\0';
		yaml_event_delete(&ev);
		if (!v)
			break;
		json_array_append_new(arr, v);
	}
	json_decref(arr);
	return NULL;
}

static json_t *mapping(struct loader *l)
{
	json_t *obj = json_object();

	for (;;) {
		yaml_event_t kev, vev;
		cleanup_free char *key = NULL;
		yaml_mark_t km;
		json_t *v;
		size_t back;

		if (next_event(l, &kev) < 0)
			break;
		if (kev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&kev);
			return obj;
		}
		km = kev.start_mark;
		if (kev.type != YAML_SCALAR_EVENT) {
			yaml_event_delete(&kev);
			fail_at(l, km, "%s", "mapping keys must be plain scalars");
			break;
		}
		key = xstrdup((const char *)kev.data.scalar.value);
		yaml_event_delete(&kev);
		if (strcmp(key, "<<") == 0) {
			fail_at(l, km, "%s", "merge keys '<<' are not supported");
			break;
		}
		if (json_object_get(obj, key)) {
			fail_at(l, km, "duplicate key '%s'", key);
			break;
		}
		if (next_event(l, &vev) < 0)
			break;
		back = path_push(l, key, 0);
		v = node(l, &vev);
		if (v)
			l->path[back] = '\0';
		yaml_event_delete(&vev);
		if (!v)
			break;
		json_object_set_new(obj, key, v);
		remember(l->c, obj, key, km);
	}
	json_decref(obj);
	return NULL;
}

static json_t *alias(struct loader *l, yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;

	for (size_t i = l->nanchors; i-- > 0;) {
		if (strcmp(l->anchors[i].name, name) != 0)
			continue;
		if (count(l, ev->start_mark, l->anchors[i].values, l->anchors[i].depth) < 0)
			return NULL;
		return json_deep_copy(l->anchors[i].v);
	}
	fail_at(l, ev->start_mark, "unknown alias '*%s'", name);
	return NULL;
}

static json_t *node(struct loader *l, yaml_event_t *ev)
{
	const char *anchor = NULL;
	json_t *v = NULL;

	if (ev->type != YAML_ALIAS_EVENT && count(l, ev->start_mark, 1, 1) < 0)
		return NULL;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		anchor = (const char *)ev->data.scalar.anchor;
		v = scalar(l, ev);
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = (const char *)ev->data.sequence_start.anchor;
		l->depth++;
		v = sequence(l);
		l->depth--;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = (const char *)ev->data.mapping_start.anchor;
		l->depth++;
		v = mapping(l);
		l->depth--;
		break;
	case YAML_ALIAS_EVENT:
		v = alias(l, ev);
		break;
	default:
		fail_at(l, ev->start_mark, "%s", "unexpected YAML event");
		return NULL;
	}
	if (!v)
		return NULL;
	remember(l->c, v, NULL, ev->start_mark);
	if (anchor) {
		l->anchors = xrealloc(l->anchors, (l->nanchors + 1) * sizeof(*l->anchors));
		l->anchors[l->nanchors].name = xstrdup(anchor);
		l->anchors[l->nanchors].v = v;
		measure(v, &l->anchors[l->nanchors].values, &l->anchors[l->nanchors].depth);
		l->nanchors++;
	}
	return v;
}

/* Parse the whole stream: at most one document whose root is a mapping. */
static int load(struct loader *l)
{
	yaml_event_t ev;
	int docs = 0;

	for (;;) {
		yaml_event_type_t t;

		if (next_event(l, &ev) < 0)
			return -1;
		t = ev.type;
		if (t == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (t == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
			fail_at(l, ev.start_mark, "%s",
				"expected one YAML document, found several");
			yaml_event_delete(&ev);
			return -1;
		}
		if (t == YAML_SCALAR_EVENT || t == YAML_SEQUENCE_START_EVENT ||
		    t == YAML_MAPPING_START_EVENT || t == YAML_ALIAS_EVENT) {
			yaml_mark_t m = ev.start_mark;
			json_t *v = node(l, &ev);

			yaml_event_delete(&ev);
			if (!v)
				return -1;
			if (json_is_null(v)) {
				json_decref(v);
				continue;
			}
			if (!json_is_object(v)) {
				json_decref(v);
				return fail_at(l, m, "%s", "expected a mapping at the top level");
			}
			l->c->root = v;
			continue;
		}
		yaml_event_delete(&ev);
	}
	if (!l->c->root) {
		l->c->root = json_object();
		l->c->empty = 1;
	}
	return 0;
}

int config_load_string(struct config *c, const char *text, const char *name, struct err *e)
{
	struct loader l = { .c = c, .e = e };
	int ret;

	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	if (!yaml_parser_initialize(&l.parser))
		return err_set(e, ERR_SYSTEM, ENOMEM, "initialise YAML parser");
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)text, strlen(text));
	ret = load(&l);
	yaml_parser_delete(&l.parser);
	for (size_t i = 0; i < l.nanchors; i++)
		free(l.anchors[i].name);
	free(l.anchors);
	if (ret < 0) {
		json_decref(c->root);
		c->root = NULL;
	}
	return ret;
}

int config_load(struct config *c, const char *path, struct err *e)
{
	cleanup_fclose FILE *f = NULL;
	cleanup_free char *text = NULL;
	size_t len = 0;
	FILE *m;
	int ch;

	memset(c, 0, sizeof(*c));
	f = fopen(path, "re");
	if (!f)
		return err_set(e,
			       errno == ENOENT || errno == ENOTDIR || errno == EACCES ? ERR_USAGE
										      : ERR_SYSTEM,
			       errno, "open '%s'", path);
	m = open_memstream(&text, &len);
	if (!m)
		return err_set(e, ERR_SYSTEM, errno, "read '%s'", path);
	while ((ch = getc(f)) != EOF)
		putc(ch, m);
	if (ferror(f)) {
		int saved = errno;

		fclose(m);
		return err_set(e, saved == EISDIR ? ERR_USAGE : ERR_SYSTEM, saved, "read '%s'",
			       path);
	}
	fclose(m);
	if (strlen(text) != len)
		return err_set(e, ERR_INPUT, 0, "%s: contains a NUL byte", path);
	return config_load_string(c, text, path, e);
}

void config_release(struct config *c)
{
	free(c->name);
	json_decref(c->root);
	for (size_t i = 0; i < c->npos; i++)
		free(c->pos[i].key);
	free(c->pos);
	memset(c, 0, sizeof(*c));
}

int config_where(const struct config *c, const json_t *v, long *line, long *col)
{
	for (size_t i = 0; c && i < c->npos; i++) {
		if (c->pos[i].v == v && !c->pos[i].key) {
			*line = c->pos[i].line;
			*col = c->pos[i].col;
			return 0;
		}
	}
	return -1;
}

/* Prefix e's message with the position of obj.key (or of obj). */
static int locate(const struct config *c, const json_t *obj, const char *key, struct err *e)
{
	const json_t *v = obj ? json_object_get(obj, key) : NULL;
	long line, col;

	if (!v)
		v = obj;
	if (c && config_where(c, v, &line, &col) == 0)
		return err_wrap(e, "%s:%ld:%ld", c->name, line, col);
	if (c && c->name)
		return err_wrap(e, "%s", c->name);
	return -1;
}

int config_int(const struct config *c, const json_t *obj, const char *ctx, const char *key,
	       int64_t def, int64_t min, int64_t max, int64_t *out, struct err *e)
{
	*out = def;
	if (obj && jsonio_get_int(obj, ctx, key, min, max, out, e) < 0)
		return locate(c, obj, key, e);
	return 0;
}

int config_real(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		double def, double min, double max, double *out, struct err *e)
{
	*out = def;
	if (obj && jsonio_get_real(obj, ctx, key, min, max, out, e) < 0)
		return locate(c, obj, key, e);
	return 0;
}

int config_bool(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		int def, int *out, struct err *e)
{
	*out = def;
	if (obj && jsonio_get_bool(obj, ctx, key, out, e) < 0)
		return locate(c, obj, key, e);
	return 0;
}

int config_str(const struct config *c, const json_t *obj, const char *ctx, const char *key,
	       const char *def, const char **out, struct err *e)
{
	*out = def;
	if (obj && jsonio_get_str(obj, ctx, key, out, e) < 0)
		return locate(c, obj, key, e);
	return 0;
}

int config_secret(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		  const char **out, struct err *e)
{
	const json_t *v = obj ? json_object_get(obj, key) : NULL;

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v)) {
		err_set(e, ERR_INPUT, 0,
			"%s%s%s: expected a string (a secret: its value is not shown)",
			ctx && *ctx ? ctx : "", ctx && *ctx ? "." : "", key);
		return locate(c, obj, key, e);
	}
	*out = json_string_value(v);
	return 0;
}

int config_enum(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		const char *const *choices, int def, int *out, struct err *e)
{
	const char *s = NULL;
	char what[256] = "one of";
	size_t n = strlen(what);

	*out = def;
	if (config_str(c, obj, ctx, key, NULL, &s, e) < 0)
		return -1;
	if (!s)
		return 0;
	for (int i = 0; choices[i]; i++) {
		if (strcmp(s, choices[i]) == 0) {
			*out = i;
			return 0;
		}
		n += (size_t)snprintf(what + n, n < sizeof(what) ? sizeof(what) - n : 0,
				      "%s \"%s\"", i ? "," : "", choices[i]);
		if (n >= sizeof(what))
			n = sizeof(what) - 1;
	}
	return config_reject(c, obj, ctx, key, what, e);
}

int config_reject(const struct config *c, const json_t *obj, const char *ctx, const char *key,
		  const char *why, struct err *e)
{
	const json_t *v = json_object_get(obj, key);
	long line, col;

	jsonio_bad_value(e, ctx, key, why, v);
	if (c && v && config_where(c, v, &line, &col) == 0)
		return err_wrap(e, "%s:%ld:%ld", c->name, line, col);
	if (c && c->name)
		return err_wrap(e, "%s", c->name);
	return -1;
}

int config_obj(const struct config *c, const json_t *obj, const char *ctx, const char *key,
	       json_t **out, struct err *e)
{
	*out = NULL;
	if (obj && jsonio_get_obj(obj, ctx, key, out, e) < 0)
		return locate(c, obj, key, e);
	return 0;
}

static int listed(const char *key, const char *const *list)
{
	for (size_t i = 0; list && list[i]; i++)
		if (strcmp(key, list[i]) == 0)
			return 1;
	return 0;
}

int config_where_key(const struct config *c, const json_t *obj, const char *key, long *line,
		     long *col)
{
	for (size_t i = 0; c && i < c->npos; i++) {
		if (c->pos[i].v == obj && c->pos[i].key && strcmp(c->pos[i].key, key) == 0) {
			*line = c->pos[i].line;
			*col = c->pos[i].col;
			return 0;
		}
	}
	return -1;
}

static unsigned char lower(unsigned char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch - 'A' + 'a') : ch;
}

/* config_distance(), or max + 1 as soon as it is sure to exceed max: each
 * cell comes from the row above, the row two above plus one, or its own row
 * (itself from those), so two rows whose every cell is over max mean every
 * later cell is too. */
static int distance_upto(const char *a, const char *b, int max)
{
	/* rows i-2, i-1 and i of the optimal-string-alignment table, row r at
	 * rows[r % 3]; the lengths are bounded, so is the work */
	int rows[3][CONFIG_DISTANCE_MAX + 1];
	size_t na = strnlen(a, CONFIG_DISTANCE_MAX + 1), nb = strnlen(b, CONFIG_DISTANCE_MAX + 1);
	int up_min = 0;

	if (na > CONFIG_DISTANCE_MAX || nb > CONFIG_DISTANCE_MAX)
		return -1;
	for (size_t j = 0; j <= nb; j++)
		rows[0][j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		int *cur = rows[i % 3], *up = rows[(i + 2) % 3], *two = rows[(i + 1) % 3];
		unsigned char ai = lower((unsigned char)a[i - 1]);
		int cur_min;

		cur[0] = (int)i;
		cur_min = cur[0];
		for (size_t j = 1; j <= nb; j++) {
			unsigned char bj = lower((unsigned char)b[j - 1]);
			int best = up[j - 1] + (ai != bj);

			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ai == lower((unsigned char)b[j - 2]) &&
			    lower((unsigned char)a[i - 2]) == bj && two[j - 2] + 1 < best)
				best = two[j - 2] + 1;
			cur[j] = best;
			if (best < cur_min)
				cur_min = best;
		}
		if (cur_min > max && up_min > max)
			return max + 1;
		up_min = cur_min;
	}
	return rows[na % 3][nb] > max ? max + 1 : rows[na % 3][nb];
}

int config_distance(const char *a, const char *b)
{
	return distance_upto(a, b, 2 * CONFIG_DISTANCE_MAX);
}

/* The name of known[] or ignored[] closest to key (config_fields() says
 * which are close enough), the first listed on a tie; NULL when none. */
static const char *suggest(const char *key, const char *const *known, const char *const *ignored)
{
	const char *const *lists[2] = { known, ignored };
	const char *best = NULL;
	int best_d = 3;
	size_t nkey = strlen(key);

	for (int l = 0; l < 2; l++) {
		for (size_t i = 0; lists[l] && lists[l][i]; i++) {
			size_t n = strlen(lists[l][i]);
			int d;

			/* lengths 3 apart are 3 edits apart: not computed (a mapping
			 * of many unknown keys stays cheap) */
			if (n > nkey + 2 || nkey > n + 2)
				continue;
			d = distance_upto(key, lists[l][i], 2);
			/* d < the shorter length: "id" is not a typo of "ab" */
			if (d >= 0 && d < best_d && (size_t)d < (n < nkey ? n : nkey)) {
				best = lists[l][i];
				best_d = d;
			}
		}
	}
	return best;
}

/* "<ctx>.<key>" for messages into buf: the key as it is when it is a plain
 * name (letters, digits, "_-./", at most CONFIG_DISTANCE_MAX bytes), else
 * as a JSON string (escaped, ASCII only) of its first CONFIG_DISTANCE_MAX
 * bytes, cut where a UTF-8 character begins, with "..." when cut. */
static void field_name(char *buf, size_t size, const char *ctx, const char *key)
{
	const char *dot = ctx && *ctx ? "." : "";
	size_t n = strlen(key), keep = n;
	json_t *s;
	char *q;

	if (n <= CONFIG_DISTANCE_MAX && n > 0 &&
	    strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") ==
		    n) {
		snprintf(buf, size, "%s%s%s", ctx ? ctx : "", dot, key);
		return;
	}
	if (keep > CONFIG_DISTANCE_MAX) {
		keep = CONFIG_DISTANCE_MAX;
		while (keep > 0 && ((unsigned char)key[keep] & 0xc0) == 0x80)
			keep--;
	}
	s = json_stringn(key, keep);
	q = s ? json_dumps(s, JSON_ENCODE_ANY | JSON_ENSURE_ASCII) : NULL;
	snprintf(buf, size, "%s%s%s%s", ctx ? ctx : "", dot, q ? q : "\"?\"",
		 keep < n ? "..." : "");
	free(q);
	json_decref(s);
}

int config_fields(const struct config *c, const json_t *obj, const char *ctx,
		  const char *const *known, const char *const *ignored, enum config_strictness mode,
		  json_t *warnings, struct err *e)
{
	const char *key, *near;
	char name[256];
	long line, col;
	json_t *v;

	if (!json_is_object(obj))
		return 0;
	/* jansson keeps insertion order: the first unknown key in the file */
	json_object_foreach((json_t *)obj, key, v)
	{
		if (listed(key, known) || listed(key, ignored))
			continue;
		field_name(name, sizeof(name), ctx, key);
		near = suggest(key, known, ignored);
		if (!near && mode == CONFIG_LENIENT) {
			if (warnings)
				json_array_append_new(warnings, json_string(name));
			continue;
		}
		if (near)
			err_set(e, ERR_INPUT, 0, "%s: unknown field (did you mean %s?)", name,
				near);
		else
			err_set(e, ERR_INPUT, 0, "%s: unknown field", name);
		if (config_where_key(c, obj, key, &line, &col) == 0 ||
		    config_where(c, v, &line, &col) == 0)
			return err_wrap(e, "%s:%ld:%ld", c->name, line, col);
		if (c && c->name)
			return err_wrap(e, "%s", c->name);
		return -1;
	}
	return 0;
}
