// SPDX-License-Identifier: Apache-2.0
/* cgcache - cached values of container cgroup files (see cgcache.h). */
#include "run/cgcache.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomicfile.h"
#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/statefile.h"
#include "core/xalloc.h"
#include "doc/qoscgsetstate.h"

#define KIND "QosCgsetState"

struct cgcache {
	char *hadoop_yarn;
	char *loaded; /* the regular file the state was loaded from, until withdrawn */
	/* the loaded state's containers (none: no state, or another
	 * hadoop-yarn dir's); an entry carried into next leaves its files here */
	struct qoscgsetstate prev;
	struct qoscgsetstate next; /* the containers entered in this pass and the memos: saved */
	size_t kept;               /* entries of prev carried into next unchanged */
	int dirty;                 /* next differs from prev in more than that */
	size_t hits;               /* values found by the gets */
	int64_t now_ms, recheck_ms;
};

struct cgcache *cgcache_new(const char *hadoop_yarn, int64_t now_ms, int64_t recheck_ms)
{
	struct cgcache *c = xcalloc(1, sizeof(*c));

	c->hadoop_yarn = xstrdup(hadoop_yarn);
	qoscgsetstate_init(&c->prev, NULL);
	qoscgsetstate_init(&c->next, hadoop_yarn);
	c->now_ms = now_ms;
	c->recheck_ms = recheck_ms;
	return c;
}

void cgcache_free(struct cgcache *c)
{
	if (!c)
		return;
	free(c->hadoop_yarn);
	free(c->loaded);
	qoscgsetstate_release(&c->prev);
	qoscgsetstate_release(&c->next);
	free(c);
}

/* An entry read or put at at (ms) is fresh now: not in the future, less
 * than recheck_ms old.  Written so that no value of at, however absurd,
 * overflows (now_ms is a sane time, recheck_ms at most a day). */
static int fresh_at(const struct cgcache *c, int64_t at)
{
	return at <= c->now_ms && at > c->now_ms - c->recheck_ms;
}

int cgcache_load(struct cgcache *c, const char *path, struct err *e)
{
	json_auto_t *doc = NULL;
	int r;

	if (!c)
		return 0;
	r = statefile_load(path, KIND, &doc, e);
	if (r <= 0)
		return r;
	if (cgcache_use(c, doc, path, e) < 0)
		return -1;
	free(c->loaded);
	c->loaded = atomicfile_target(path); /* the regular file read, behind any symlink */
	return 1;
}

void cgcache_withdraw(struct cgcache *c)
{
	if (!c || !c->loaded)
		return;
	unlink(c->loaded);
	free(c->loaded);
	c->loaded = NULL;
	c->dirty = 1;
}

int cgcache_use(struct cgcache *c, const json_t *doc, const char *name, struct err *e)
{
	struct qoscgsetstate st;
	struct err fe = { 0 };

	if (!c)
		return 0;
	if (qoscgsetstate_from_json(doc, &st, &fe) < 0)
		return err_set(e, ERR_INPUT, 0, "state '%s': %s", name, fe.msg);
	if (!st.hadoop_yarn || strcmp(st.hadoop_yarn, c->hadoop_yarn) != 0) {
		qoscgsetstate_release(&st);
		return 0;
	}
	/* Stale memos are dropped now (the file changes), fresh ones kept; an
	 * entry of the wrong shape, dropped, changes the file too. */
	for (size_t i = 0; i < st.nmemos; i++) {
		const struct qoscgsetstate_memo *m = &st.memos[i];

		if (fresh_at(c, m->at_ms))
			qoscgsetstate_memo_set(&c->next, m->key, m->value, m->at_ms);
		else
			c->dirty = 1;
	}
	c->dirty |= st.ndropped > 0;
	qoscgsetstate_release(&c->prev);
	c->prev = st;
	qoscgsetstate_reserve(&c->next, st.ncontainers); /* the pass enters about those */
	return 0;
}

int cgcache_save(const struct cgcache *c, const char *path, struct err *e)
{
	json_auto_t *doc = NULL;

	if (!c || (!c->dirty && c->kept == c->prev.ncontainers))
		return 0;
	doc = qoscgsetstate_to_json(&c->next);
	return statefile_save(path, doc, e) < 0 ? -1 : 1;
}

void cgcache_clear(struct cgcache *c)
{
	if (!c)
		return;
	qoscgsetstate_release(&c->next);
	qoscgsetstate_init(&c->next, c->hadoop_yarn);
	c->dirty = 1;
}

/* The container id of cg, a dir directly below hadoop-yarn, or NULL (not
 * cached).  No other check is needed: only entered ids have entries. */
static const char *id_of(const struct cgcache *c, const char *cg)
{
	size_t yl = strlen(c->hadoop_yarn);

	if (strncmp(cg, c->hadoop_yarn, yl) != 0 || cg[yl] != '/' || strchr(cg + yl + 1, '/'))
		return NULL;
	return cg + yl + 1;
}

/* The state's name of each controller whose files qos-cgset reads in
 * container dirs, or -1. */
static int state_ctrl(enum cgroup_ctrl c)
{
	switch (c) {
	case CGROUP_CPU:
		return QOSCGSETSTATE_CPU;
	case CGROUP_CPUSET:
		return QOSCGSETSTATE_CPUSET;
	case CGROUP_MEMORY:
		return QOSCGSETSTATE_MEMORY;
	default:
		return -1;
	}
}

/* A loaded entry for ct that is fresh now: 1, else 0.  Its inode numbers
 * are those of ct's cached controllers, no more, no fewer. */
static int fresh(const struct cgcache *c, const struct qoscgsetstate_container *entry,
		 const struct cgroup_container *ct)
{
	unsigned want = 0;

	for (int i = 0; i < CGROUP_NCTRL; i++) {
		int sc = state_ctrl((enum cgroup_ctrl)i);

		if (sc < 0 || !(ct->ctrls & (1u << i)))
			continue;
		if (!(entry->inos & (1u << sc)) || entry->ino[sc] != ct->ino[i])
			return 0;
		want |= 1u << sc;
	}
	return entry->inos == want && fresh_at(c, entry->read_at_ms);
}

void cgcache_enter(struct cgcache *c, const struct cgroup_container *ct)
{
	struct qoscgsetstate_container *old, *in;
	size_t n;

	if (!c)
		return;
	n = c->next.ncontainers;
	in = qoscgsetstate_add(&c->next, ct->id);
	if (c->next.ncontainers == n) /* entered already */
		return;
	old = qoscgsetstate_find(&c->prev, ct->id);
	if (old && fresh(c, old, ct)) { /* carried over: its files move */
		qoscgsetstate_carry(&c->next, in, &c->prev, old);
		c->kept++;
		return;
	}
	/* A stale entry is replaced: the file changes.  A new one changes it
	 * only once a file is put in. */
	if (old)
		c->dirty = 1;
	for (int i = 0; i < CGROUP_NCTRL; i++) {
		int sc = state_ctrl((enum cgroup_ctrl)i);

		if (sc >= 0 && (ct->ctrls & (1u << i))) {
			in->inos |= 1u << sc;
			in->ino[sc] = ct->ino[i];
		}
	}
	in->read_at_ms = c->now_ms;
}

/* The entry of cg and "<ctrl>/<file>" in name, or NULL. */
static struct qoscgsetstate_container *entry_of(struct cgcache *c, enum cgroup_ctrl ctrl,
						const char *cg, const char *file, char *name,
						size_t size)
{
	const char *id, *cn = cgroup_ctrl_name(ctrl);
	size_t cl = strlen(cn), fl = file ? strlen(file) : 0;

	if (!c || !(id = id_of(c, cg)) || cl + 1 + fl >= size)
		return NULL;
	/* what snprintf "%s/%s" makes, at a tenth of its cost (once a get) */
	memcpy(name, cn, cl);
	name[cl] = '/';
	memcpy(name + cl + 1, file ? file : "", fl + 1);
	return qoscgsetstate_find(&c->next, id);
}

#define NAME_MAX_LEN 128

int cgcache_get(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file,
		const char **value, int64_t *age_ms)
{
	char name[NAME_MAX_LEN];
	struct qoscgsetstate_container *entry = entry_of(c, ctrl, cg, file, name, sizeof(name));
	const struct qoscgsetstate_file *f = entry ? qoscgsetstate_file_find(entry, name) : NULL;

	if (!f)
		return 0;
	*value = f->value;
	*age_ms = c->now_ms - entry->read_at_ms;
	c->hits++;
	return 1;
}

void cgcache_put(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file,
		 const char *value)
{
	char name[NAME_MAX_LEN];
	struct qoscgsetstate_container *entry = entry_of(c, ctrl, cg, file, name, sizeof(name));

	/* one JSON cannot hold (not UTF-8) is not kept, but the file changes */
	if (entry && qoscgsetstate_file_set(entry, name, value) != 0)
		c->dirty = 1;
}

void cgcache_forget(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file)
{
	char name[NAME_MAX_LEN];
	struct qoscgsetstate_container *entry = entry_of(c, ctrl, cg, file, name, sizeof(name));

	if (!entry)
		return;
	if (!file)
		c->dirty |= qoscgsetstate_remove(&c->next, id_of(c, cg));
	else
		c->dirty |= qoscgsetstate_file_remove(entry, name);
}

int cgcache_memo_get(struct cgcache *c, const char *key, const char **value)
{
	const struct qoscgsetstate_memo *m;

	if (!c)
		return 0;
	m = qoscgsetstate_memo_find(&c->next, key);
	*value = m ? m->value : NULL;
	c->hits += m != NULL;
	return m != NULL;
}

size_t cgcache_hits(const struct cgcache *c)
{
	return c ? c->hits : 0;
}

void cgcache_memo_put(struct cgcache *c, const char *key, const char *value)
{
	if (!c)
		return;
	qoscgsetstate_memo_set(&c->next, key, value, c->now_ms);
	c->dirty = 1;
}
