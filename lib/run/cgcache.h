/* SPDX-License-Identifier: Apache-2.0 */
/* cgcache - what the cgroup files of the container dirs held when a
 * qos-cgset pass last read or wrote them, so the next passes need not read
 * them again (qos-cgset --state FILE, --recheck SECONDS).
 *
 * koordlet's resource executor skips a write whose value it wrote within
 * ResourceForceUpdateSeconds, 60 s by default (koordlet-qos.md section 1,
 * resourceexecutor/executor.go).  kilo skips the read as well: a pass over
 * 500 containers otherwise opens some 2,500 files to find nothing to do.
 * The hadoop-yarn dir's own files are always read; only the container dirs
 * entered with cgcache_enter() are cached.
 *
 * An entry is one container: the inode numbers its dirs had in each
 * controller and the time they were read.  A dir removed and made again is
 * another dir (new inode number), and an entry older than recheck_ms is read
 * afresh with all its files.  Files first read in a later pass join the
 * entry with its time, so nothing is kept longer than recheck_ms.  A clock
 * step backwards makes every entry stale.  Only the containers entered in
 * this pass are saved: ended ones drop out.  The file is written only when
 * something in it changed, so a pass that finds everything cached writes
 * nothing at all.
 *
 * State file: one QosCgsetState document (statefile.h), read and written
 * through doc/qoscgsetstate (its header shows it): an entry per container
 * (its dirs' inode numbers, readAtMs, its files as "<controller>/<file>",
 * a value null meaning the kernel lacks the file) and the memos.  A state
 * saved for another hadoop-yarn dir is not used.  "memo" keeps results
 * computed from other files (the CPUs chosen from the sysfs topology)
 * under a key naming every input, for recheck_ms too.  Lookups go through
 * the module's index of the containers (sorted ids, binary search).
 *
 * Every function accepts a NULL cache and then does nothing (cgcache_get
 * finds nothing), so callers need no "is there a cache" branches.
 */
#ifndef KILO_CGCACHE_H
#define KILO_CGCACHE_H

#include <jansson.h>
#include <stdint.h>

#include "core/err.h"
#include "kernel/cgroup.h"

struct cgcache;

/* An empty cache of the dirs directly below hadoop_yarn (a cgroup path,
 * copied) for a pass at now_ms (ms since the epoch) whose entries stay
 * fresh for recheck_ms.  Never returns NULL. */
struct cgcache *cgcache_new(const char *hadoop_yarn, int64_t now_ms, int64_t recheck_ms);

void cgcache_free(struct cgcache *c);

/* Take the entries of the state file path.  Returns 1 when loaded, 0 when
 * the file does not exist, -1 with e set when it cannot be read
 * (ERR_SYSTEM) or is not a QosCgsetState document (ERR_INPUT); the cache is
 * then empty, which only costs reads. */
int cgcache_load(struct cgcache *c, const char *path, struct err *e);

/* Before the first change this pass makes to the tree: remove the state
 * file loaded (the file a symlink leads to; the link stays), so that a
 * pass that is killed or cannot save leaves nothing for the next pass to
 * trust: it reads everything.  The save writes it again (through the
 * link).  Once a pass; nothing without a loaded file. */
void cgcache_withdraw(struct cgcache *c);

/* Take the entries of doc, a QosCgsetState document (what cgcache_load()
 * does once the file is read; name is used in messages).  Returns 0, or -1
 * with e set (ERR_INPUT, "state '<name>': QosCgsetState.containers:
 * expected an object, got []": qoscgsetstate_from_json's refusals).  A
 * state of another hadoop-yarn dir is left unused; an entry of the wrong
 * shape is dropped (doc/qoscgsetstate's lenient rule: it is read again, and
 * the file is written without it). */
int cgcache_use(struct cgcache *c, const json_t *doc, const char *name, struct err *e);

/* Write the entries of the dirs entered in this pass to path atomically,
 * when they differ from what was loaded.  Returns 1 written, 0 nothing to
 * write, or -1 with e set (ERR_SYSTEM). */
int cgcache_save(const struct cgcache *c, const char *path, struct err *e);

/* Forget every entry (after a pass with a failed write, so the next pass
 * reads everything again). */
void cgcache_clear(struct cgcache *c);

/* Make the container's dirs cacheable in this pass, with ct->ino[c] for
 * each of cpu, cpuset and memory in ct->ctrls.  Its loaded entry is kept
 * when the inode numbers are the same and it is fresh, else it starts
 * empty (read now). */
void cgcache_enter(struct cgcache *c, const struct cgroup_container *ct);

/* The value file of the dir cg (a container dir entered in this pass) of
 * controller ctrl held, when the entry has it.  Returns 1 with *value
 * (borrowed until the next call that changes the cache; NULL when the
 * kernel lacks the file) and *age_ms (how long ago the dir was read), or
 * 0.  A value found counts as a hit. */
int cgcache_get(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file,
		const char **value, int64_t *age_ms);

/* Record that file of the dir cg of controller ctrl holds value (NULL: the
 * kernel lacks it).  Does nothing for a dir not entered. */
void cgcache_put(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file,
		 const char *value);

/* The value memoized under key, fresh: 1 with *value (borrowed until the
 * next call that changes the cache), else 0.  Fresh memos are saved again
 * whether used or not (a --only static pass keeps suppress's). */
int cgcache_memo_get(struct cgcache *c, const char *key, const char **value);

/* How many times cgcache_get() and cgcache_memo_get() found a value: the
 * files (and topologies) this pass did not read. */
size_t cgcache_hits(const struct cgcache *c);

/* Memoize value under key (both copied); it is saved with this pass. */
void cgcache_memo_put(struct cgcache *c, const char *key, const char *value);

/* Drop file of the dir (file NULL: the container's whole entry, which is
 * then no longer cacheable in this pass, as after a mkdir or rmdir). */
void cgcache_forget(struct cgcache *c, enum cgroup_ctrl ctrl, const char *cg, const char *file);

#endif
