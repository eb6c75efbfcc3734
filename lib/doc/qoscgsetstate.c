// SPDX-License-Identifier: Apache-2.0
/* qoscgsetstate - qos-cgset's state document (see qoscgsetstate.h) */
#include "doc/qoscgsetstate.h"

#include <stdlib.h>
#include <string.h>

#include "core/jsonio.h"
#include "core/xalloc.h"
#include "doc/containerid.h"

#define KIND "QosCgsetState"

static const char *const ctrl_names[QOSCGSETSTATE_NCTRL] = {
	[QOSCGSETSTATE_CPU] = "cpu",
	[QOSCGSETSTATE_CPUSET] = "cpuset",
	[QOSCGSETSTATE_MEMORY] = "memory",
};

const char *qoscgsetstate_ctrl_name(enum qoscgsetstate_ctrl c)
{
	return c < QOSCGSETSTATE_NCTRL ? ctrl_names[c] : "?";
}

/* 1 when JSON can hold s as a string (jansson's own test: UTF-8). */
static int json_holds(const char *s)
{
	json_t *v = json_string(s);

	json_decref(v);
	return v != NULL;
}

/* Free what f owns. */
static void file_release(struct qoscgsetstate_file *f)
{
	if (f->owns & QOSCGSETSTATE_OWN_NAME)
		free((char *)f->name);
	if (f->owns & QOSCGSETSTATE_OWN_VALUE)
		free((char *)f->value);
}

static void container_release(struct qoscgsetstate_container *ct)
{
	for (size_t i = 0; i < ct->nfiles; i++)
		file_release(&ct->files[i]);
	free(ct->files);
	if (ct->owns_id)
		free((char *)ct->id);
}

void qoscgsetstate_init(struct qoscgsetstate *st, const char *hadoop_yarn)
{
	memset(st, 0, sizeof(*st));
	st->hadoop_yarn = hadoop_yarn ? xstrdup(hadoop_yarn) : NULL;
}

void qoscgsetstate_release(struct qoscgsetstate *st)
{
	for (size_t i = 0; i < st->ncontainers; i++)
		container_release(&st->containers[i]);
	for (size_t i = 0; i < st->nmemos; i++) {
		free(st->memos[i].key);
		free(st->memos[i].value);
	}
	free(st->containers);
	free(st->by_id);
	free(st->memos);
	free(st->hadoop_yarn);
	json_decref(st->doc);
	qoscgsetstate_init(st, NULL);
}

/* ---- the index ------------------------------------------------------- */

static const char *id_at(const struct qoscgsetstate *st, size_t at)
{
	return st->containers[st->by_id[at]].id;
}

/* The first position in by_id whose container's id is not below id. */
static size_t lower_bound(const struct qoscgsetstate *st, const char *id)
{
	size_t lo = 0, hi = st->ncontainers;

	if (hi && strcmp(id_at(st, hi - 1), id) < 0) /* past the last: the pass's order */
		return hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(st->containers[st->by_id[mid]].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entry at position at of by_id when its id is id (it is then the
 * hint), else NULL. */
static struct qoscgsetstate_container *found_at(struct qoscgsetstate *st, size_t at, const char *id)
{
	if (at >= st->ncontainers || strcmp(id_at(st, at), id) != 0)
		return NULL;
	st->hint = at;
	return &st->containers[st->by_id[at]];
}

struct qoscgsetstate_container *qoscgsetstate_find(struct qoscgsetstate *st, const char *id)
{
	struct qoscgsetstate_container *ct = found_at(st, st->hint, id);

	if (!ct) /* the one after the last found: the pass's order */
		ct = found_at(st, st->hint + 1, id);
	return ct ? ct : found_at(st, lower_bound(st, id), id);
}

void qoscgsetstate_reserve(struct qoscgsetstate *st, size_t n)
{
	if (n <= st->cap)
		return;
	st->containers = xrealloc(st->containers, n * sizeof(*st->containers));
	st->by_id = xrealloc(st->by_id, n * sizeof(*st->by_id));
	st->cap = n;
}

/* Append an entry of id (not there yet; owned when owns_id) and index
 * it. */
static struct qoscgsetstate_container *append(struct qoscgsetstate *st, const char *id, int owns_id)
{
	size_t n = st->ncontainers, at;
	struct qoscgsetstate_container *ct;

	/* ids come in order (the pass enters them sorted, the file keeps it):
	 * lower_bound answers one after the last with one comparison */
	at = lower_bound(st, id);

	if (n == st->cap)
		qoscgsetstate_reserve(st, n ? n * 2 : 1);
	ct = &st->containers[n];
	memset(ct, 0, sizeof(*ct));
	ct->id = id;
	ct->owns_id = owns_id;
	memmove(st->by_id + at + 1, st->by_id + at, (n - at) * sizeof(*st->by_id));
	st->by_id[at] = n;
	st->hint = at;
	st->ncontainers++;
	return ct;
}

struct qoscgsetstate_container *qoscgsetstate_add(struct qoscgsetstate *st, const char *id)
{
	struct qoscgsetstate_container *ct = qoscgsetstate_find(st, id);

	return ct ? ct : append(st, xstrdup(id), 1);
}

int qoscgsetstate_remove(struct qoscgsetstate *st, const char *id)
{
	struct qoscgsetstate_container *ct = qoscgsetstate_find(st, id);
	size_t pos, w = 0;

	if (!ct)
		return 0;
	pos = (size_t)(ct - st->containers);
	container_release(ct);
	memmove(ct, ct + 1, (st->ncontainers - pos - 1) * sizeof(*ct));
	for (size_t i = 0; i < st->ncontainers; i++) /* the index, without pos, shifted */
		if (st->by_id[i] != pos)
			st->by_id[w++] = st->by_id[i] - (st->by_id[i] > pos);
	st->ncontainers--;
	st->hint = 0;
	return 1;
}

/* Give each of the n files a copy of its strings that point into a
 * document. */
static void own_strings(struct qoscgsetstate_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct qoscgsetstate_file *f = &files[i];

		if (!(f->owns & QOSCGSETSTATE_OWN_NAME))
			f->name = xstrdup(f->name);
		if (f->value && !(f->owns & QOSCGSETSTATE_OWN_VALUE))
			f->value = xstrdup(f->value);
		f->owns = QOSCGSETSTATE_OWN_NAME | QOSCGSETSTATE_OWN_VALUE;
	}
}

void qoscgsetstate_carry(struct qoscgsetstate *dst, struct qoscgsetstate_container *to,
			 struct qoscgsetstate *src, struct qoscgsetstate_container *from)
{
	to->inos = from->inos;
	memcpy(to->ino, from->ino, sizeof(to->ino));
	to->read_at_ms = from->read_at_ms;
	to->files = from->files;
	to->nfiles = from->nfiles;
	from->files = NULL;
	from->nfiles = 0;
	if (!dst->doc)
		dst->doc = json_incref(src->doc);
	else if (dst->doc != src->doc)
		own_strings(to->files, to->nfiles);
}

/* ---- files and memos ------------------------------------------------- */

struct qoscgsetstate_file *qoscgsetstate_file_find(const struct qoscgsetstate_container *ct,
						   const char *name)
{
	for (size_t i = 0; i < ct->nfiles; i++)
		if (strcmp(ct->files[i].name, name) == 0)
			return &ct->files[i];
	return NULL;
}

int qoscgsetstate_file_set(struct qoscgsetstate_container *ct, const char *name, const char *value)
{
	struct qoscgsetstate_file *f = qoscgsetstate_file_find(ct, name);

	if (f && (value ? f->value && strcmp(f->value, value) == 0 : !f->value))
		return 0;
	if (value && !json_holds(value))
		return -1;
	if (!f) {
		ct->files = xrealloc(ct->files, (ct->nfiles + 1) * sizeof(*ct->files));
		f = &ct->files[ct->nfiles++];
		f->name = xstrdup(name);
		f->owns = QOSCGSETSTATE_OWN_NAME;
	} else if (f->owns & QOSCGSETSTATE_OWN_VALUE) {
		free((char *)f->value);
	}
	f->value = value ? xstrdup(value) : NULL;
	f->owns |= QOSCGSETSTATE_OWN_VALUE;
	return 1;
}

int qoscgsetstate_file_remove(struct qoscgsetstate_container *ct, const char *name)
{
	struct qoscgsetstate_file *f = qoscgsetstate_file_find(ct, name);
	size_t pos;

	if (!f)
		return 0;
	pos = (size_t)(f - ct->files);
	file_release(f);
	memmove(f, f + 1, (ct->nfiles - pos - 1) * sizeof(*f));
	ct->nfiles--;
	return 1;
}

static struct qoscgsetstate_memo *memo_of(const struct qoscgsetstate *st, const char *key)
{
	for (size_t i = 0; i < st->nmemos; i++)
		if (strcmp(st->memos[i].key, key) == 0)
			return &st->memos[i];
	return NULL;
}

const struct qoscgsetstate_memo *qoscgsetstate_memo_find(const struct qoscgsetstate *st,
							 const char *key)
{
	return memo_of(st, key);
}

int qoscgsetstate_memo_set(struct qoscgsetstate *st, const char *key, const char *value,
			   int64_t at_ms)
{
	struct qoscgsetstate_memo *m = memo_of(st, key);

	if (!json_holds(key) || !json_holds(value))
		return -1;
	if (!m) {
		st->memos = xrealloc(st->memos, (st->nmemos + 1) * sizeof(*st->memos));
		m = &st->memos[st->nmemos++];
		m->key = xstrdup(key);
	} else {
		free(m->value);
	}
	m->value = xstrdup(value);
	m->at_ms = at_ms;
	return 0;
}

/* ---- the document ---------------------------------------------------- */

/* The inode numbers of v ({"cpu":n,...}) into ct: 0, or -1 (a member that
 * is no controller of ours or no integer). */
static int read_inos(const json_t *v, struct qoscgsetstate_container *ct)
{
	const char *key;
	json_t *n;

	if (!json_is_object(v))
		return -1;
	json_object_foreach((json_t *)v, key, n)
	{
		int c = 0;

		while (c < QOSCGSETSTATE_NCTRL && strcmp(ctrl_names[c], key) != 0)
			c++;
		if (c == QOSCGSETSTATE_NCTRL || !json_is_integer(n))
			return -1;
		ct->inos |= 1u << c;
		ct->ino[c] = (uint64_t)json_integer_value(n);
	}
	return 0;
}

/* The entry v of container id, appended to st when it has the shape of
 * one (else left out: the lenient rule).  Returns 1 appended, 0 dropped. */
static int read_container(struct qoscgsetstate *st, const char *id, const json_t *v)
{
	json_t *at = json_object_get(v, "readAtMs"), *files = json_object_get(v, "files"), *fv;
	struct qoscgsetstate_container ct = { 0 }, *in;
	const char *name;

	if (!json_is_object(v) || !containerid_valid(id) || !json_is_integer(at) ||
	    !json_is_object(files) || read_inos(json_object_get(v, "ino"), &ct) < 0)
		return 0; /* (an object's keys are unique: no id twice) */
	/* id and the strings below point into st->doc */
	in = append(st, id, 0);
	in->inos = ct.inos;
	memcpy(in->ino, ct.ino, sizeof(ct.ino));
	in->read_at_ms = (int64_t)json_integer_value(at);
	in->files = xcalloc(json_object_size(files) + 1, sizeof(*in->files));
	json_object_foreach(files, name, fv)
	{
		if (!json_is_string(fv) && !json_is_null(fv))
			continue; /* that file alone is read again */
		in->files[in->nfiles].name = name;
		in->files[in->nfiles++].value = json_string_value(fv); /* NULL for null */
	}
	return 1;
}

static int parse(const json_t *doc, struct qoscgsetstate *st, struct err *e)
{
	json_t *containers = NULL, *memo = NULL, *v;
	const char *kind = NULL, *yarn = NULL, *key;

	if (jsonio_get_str(doc, KIND, "kind", &kind, e) < 0)
		return -1;
	if (kind && strcmp(kind, KIND) != 0)
		return jsonio_bad_value(e, KIND, "kind", "\"" KIND "\"",
					json_object_get(doc, "kind"));
	if (jsonio_get_str(doc, KIND, "hadoopYarn", &yarn, e) < 0 ||
	    jsonio_get_obj(doc, KIND, "containers", &containers, e) < 0 ||
	    jsonio_get_obj(doc, KIND, "memo", &memo, e) < 0)
		return -1;
	st->hadoop_yarn = yarn ? xstrdup(yarn) : NULL;
	st->doc = json_incref((json_t *)doc);
	qoscgsetstate_reserve(st, json_object_size(containers));
	json_object_foreach(containers, key, v)
	{
		if (!read_container(st, key, v))
			st->ndropped++;
	}
	json_object_foreach(memo, key, v)
	{
		json_t *value = json_object_get(v, "value"), *at = json_object_get(v, "atMs");

		if (json_is_string(value) && json_is_integer(at))
			qoscgsetstate_memo_set(st, key, json_string_value(value),
					       (int64_t)json_integer_value(at));
		else
			st->ndropped++;
	}
	return 0;
}

int qoscgsetstate_from_json(const json_t *doc, struct qoscgsetstate *st, struct err *e)
{
	qoscgsetstate_init(st, NULL);
	if (parse(doc, st, e) < 0) {
		qoscgsetstate_release(st);
		return -1;
	}
	return 0;
}

static json_t *container_json(const struct qoscgsetstate_container *ct)
{
	json_t *ino = json_object(), *files = json_object();

	for (int c = 0; c < QOSCGSETSTATE_NCTRL; c++)
		if (ct->inos & (1u << c))
			json_object_set_new_nocheck(ino, ctrl_names[c],
						    json_integer((json_int_t)ct->ino[c]));
	for (size_t i = 0; i < ct->nfiles; i++)
		json_object_set_new(files, ct->files[i].name,
				    ct->files[i].value ? json_string(ct->files[i].value)
						       : json_null());
	return json_pack("{s:o,s:I,s:o}", "ino", ino, "readAtMs", (json_int_t)ct->read_at_ms,
			 "files", files);
}

json_t *qoscgsetstate_to_json(const struct qoscgsetstate *st)
{
	json_t *doc = jsonio_new_doc(KIND), *containers = json_object(), *memo = json_object();

	json_object_set_new(doc, "hadoopYarn", jsonio_string(st->hadoop_yarn));
	for (size_t i = 0; i < st->ncontainers; i++)
		if (st->containers[i].nfiles)
			json_object_set_new(containers, st->containers[i].id,
					    container_json(&st->containers[i]));
	json_object_set_new(doc, "containers", containers);
	for (size_t i = 0; i < st->nmemos; i++)
		json_object_set_new(memo, st->memos[i].key,
				    json_pack("{s:s,s:I}", "value", st->memos[i].value, "atMs",
					      (json_int_t)st->memos[i].at_ms));
	json_object_set_new(doc, "memo", memo);
	return doc;
}
