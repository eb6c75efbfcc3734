// SPDX-License-Identifier: Apache-2.0
/* cgcache - cached values of container cgroup files (see cgcache.h). */
#include "run/cgcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomicfile.h"
#include "core/cleanup.h"
#include "core/jsonio.h"
#include "core/statefile.h"
#include "core/xalloc.h"

#define KIND "QosCgsetState"

struct cgcache {
	char *hadoop_yarn;
	char *loaded; /* the regular file the state was loaded from, until withdrawn */
	json_t *prev; /* "containers" of the loaded state (NULL: none) */
	json_t *next; /* entries of the containers entered in this pass */
	size_t kept;  /* entries of prev carried into next unchanged */
	json_t *memo; /* the fresh entries of "memo", and those put in this pass */
	int dirty;    /* next differs from prev in more than that */
	size_t hits;  /* values found by the gets */
	int64_t now_ms, recheck_ms;
};

struct cgcache *cgcache_new(const char *hadoop_yarn, int64_t now_ms, int64_t recheck_ms)
{
	struct cgcache *c = xcalloc(1, sizeof(*c));

	c->hadoop_yarn = xstrdup(hadoop_yarn);
	c->next = json_object();
	c->memo = json_object();
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
	json_decref(c->prev);
	json_decref(c->next);
	json_decref(c->memo);
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
	json_t *containers = NULL, *memo = NULL, *m;
	const char *yarn = NULL, *key;
	struct err fe = { 0 };

	if (!c)
		return 0;
	if (jsonio_get_str(doc, KIND, "hadoopYarn", &yarn, &fe) < 0 ||
	    jsonio_get_obj(doc, KIND, "containers", &containers, &fe) < 0 ||
	    jsonio_get_obj(doc, KIND, "memo", &memo, &fe) < 0)
		return err_set(e, ERR_INPUT, 0, "state '%s': %s", name, fe.msg);
	if (!yarn || strcmp(yarn, c->hadoop_yarn) != 0)
		return 0;
	json_decref(c->prev);
	c->prev = json_incref(containers);
	/* Stale memos are dropped now (the file changes), fresh ones kept. */
	json_object_foreach(memo, key, m)
	{
		json_t *at = json_object_get(m, "atMs");

		if (json_is_string(json_object_get(m, "value")) && json_is_integer(at) &&
		    fresh_at(c, json_integer_value(at)))
			json_object_set(c->memo, key, m);
		else
			c->dirty = 1;
	}
	return 0;
}

int cgcache_save(const struct cgcache *c, const char *path, struct err *e)
{
	json_auto_t *doc = NULL;
	json_t *containers, *entry;
	const char *key;

	if (!c || (!c->dirty && c->kept == json_object_size(c->prev)))
		return 0;
	doc = jsonio_new_doc(KIND);
	json_object_set_new(doc, "hadoopYarn", jsonio_string(c->hadoop_yarn));
	containers = json_object();
	json_object_foreach(c->next, key, entry)
	{
		if (json_object_size(json_object_get(entry, "files")))
			json_object_set(containers, key, entry);
	}
	json_object_set_new(doc, "containers", containers);
	json_object_set(doc, "memo", c->memo);
	return statefile_save(path, doc, e) < 0 ? -1 : 1;
}

void cgcache_clear(struct cgcache *c)
{
	if (!c)
		return;
	json_object_clear(c->next);
	json_object_clear(c->memo);
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

/* The controllers whose files qos-cgset reads in container dirs. */
#define CACHED_CTRLS (1u << CGROUP_CPU | 1u << CGROUP_CPUSET | 1u << CGROUP_MEMORY)

/* {"cpu":ino,...} of the cached controllers of ct.  New reference. */
static json_t *inos(const struct cgroup_container *ct)
{
	json_t *o = json_object();

	for (int i = 0; i < CGROUP_NCTRL; i++)
		if (ct->ctrls & CACHED_CTRLS & (1u << i))
			json_object_set_new_nocheck(o, cgroup_ctrl_name((enum cgroup_ctrl)i),
						    json_integer((json_int_t)ct->ino[i]));
	return o;
}

/* A loaded entry for ct that is fresh now: 1, else 0. */
static int fresh(const struct cgcache *c, const json_t *entry, const struct cgroup_container *ct)
{
	json_t *ino = json_object_get(entry, "ino"), *a = json_object_get(entry, "readAtMs");
	int64_t at;
	size_t n = 0;

	if (!json_is_object(ino) || !json_is_integer(a) ||
	    !json_is_object(json_object_get(entry, "files")))
		return 0;
	for (int i = 0; i < CGROUP_NCTRL; i++) {
		json_t *v;

		if (!(ct->ctrls & CACHED_CTRLS & (1u << i)))
			continue;
		v = json_object_get(ino, cgroup_ctrl_name((enum cgroup_ctrl)i));
		if (!json_is_integer(v) || (uint64_t)json_integer_value(v) != ct->ino[i])
			return 0;
		n++;
	}
	at = json_integer_value(a);
	return n == json_object_size(ino) && fresh_at(c, at);
}

void cgcache_enter(struct cgcache *c, const struct cgroup_container *ct)
{
	json_t *old;

	if (!c || json_object_get(c->next, ct->id))
		return;
	old = c->prev ? json_object_get(c->prev, ct->id) : NULL;
	if (old && fresh(c, old, ct)) {
		json_object_set(c->next, ct->id, old);
		c->kept++;
		return;
	}
	/* A stale entry is replaced: the file changes.  A new one changes it
	 * only once a file is put in. */
	if (old)
		c->dirty = 1;
	json_object_set_new(c->next, ct->id,
			    json_pack("{s:o,s:I,s:{}}", "ino", inos(ct), "readAtMs",
				      (json_int_t)c->now_ms, "files"));
}

/* The entry of cg and "<ctrl>/<file>" in name, or NULL. */
static json_t *entry_of(const struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg,
			const char *file, char *name, size_t size)
{
	const char *id;
	int n;

	if (!c || !(id = id_of(c, cg)))
		return NULL;
	n = snprintf(name, size, "%s/%s", cgroup_ctrl_name(ctrl), file ? file : "");
	if (n < 0 || (size_t)n >= size)
		return NULL;
	return json_object_get(c->next, id);
}

#define NAME_MAX_LEN 128

int cgcache_get(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file,
		const char **value, int64_t *age_ms)
{
	char name[NAME_MAX_LEN];
	json_t *entry = entry_of(c, ctrl, cg, file, name, sizeof(name)), *v;

	if (!entry || !(v = json_object_get(json_object_get(entry, "files"), name)))
		return 0;
	if (!json_is_string(v) && !json_is_null(v))
		return 0;
	*value = json_string_value(v);
	*age_ms = c->now_ms - json_integer_value(json_object_get(entry, "readAtMs"));
	c->hits++;
	return 1;
}

void cgcache_put(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file,
		 const char *value)
{
	char name[NAME_MAX_LEN];
	json_t *files = json_object_get(entry_of(c, ctrl, cg, file, name, sizeof(name)), "files");
	json_t *old;

	if (!files)
		return;
	old = json_object_get(files, name);
	if (old && (value ? json_is_string(old) && strcmp(json_string_value(old), value) == 0
			  : json_is_null(old)))
		return;
	json_object_set_new(files, name, value ? json_string(value) : json_null());
	c->dirty = 1;
}

void cgcache_forget(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file)
{
	char name[NAME_MAX_LEN];
	json_t *entry = entry_of(c, ctrl, cg, file, name, sizeof(name));

	if (!entry)
		return;
	if (!file)
		c->dirty |= json_object_del(c->next, id_of(c, cg)) == 0;
	else
		c->dirty |= json_object_del(json_object_get(entry, "files"), name) == 0;
}

int cgcache_memo_get(struct cgcache *c, const char *key, const char **value)
{
	if (!c)
		return 0;
	*value = json_string_value(json_object_get(json_object_get(c->memo, key), "value"));
	c->hits += *value != NULL;
	return *value != NULL;
}

size_t cgcache_hits(const struct cgcache *c)
{
	return c ? c->hits : 0;
}

void cgcache_memo_put(struct cgcache *c, const char *key, const char *value)
{
	if (!c)
		return;
	json_object_set_new(c->memo, key,
			    json_pack("{s:s,s:I}", "value", value, "atMs", (json_int_t)c->now_ms));
	c->dirty = 1;
}
