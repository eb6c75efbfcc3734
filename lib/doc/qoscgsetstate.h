/* SPDX-License-Identifier: Apache-2.0 */
/* qoscgsetstate - qos-cgset's memory between passes (qos-cgset --state
 * FILE), a QosCgsetState document: what the cgroup files of each container
 * dir held when a pass read or wrote them, and results computed from other
 * files (run/cgcache.h says when an entry is trusted):
 *
 *   {"apiVersion":"kilo/v1","kind":"QosCgsetState",
 *    "hadoopYarn":"/kubepods/besteffort/hadoop-yarn",
 *    "containers":{"container_e17_1410901177871_0001_01_000002":
 *        {"ino":{"cpu":4021,"cpuset":4026,"memory":4031},"readAtMs":1764432000123,
 *         "files":{"cpuset/cpuset.cpus":"0-29","cpuset/cgroup.procs":"10000\n10001"}}},
 *    "memo":{"cpus online=0-63 candidates=0-63 count=30":
 *        {"value":"0-7,16-22,32-39,48-54","atMs":1764432000123}}}
 *
 * "ino": the inode number of the container's dir in each of the cpu,
 * cpuset and memory hierarchies it has (readdir d_ino, a uint64 written as
 * the int64 of its bits); times are ms since the epoch; files are named
 * "<controller>/<file>", a value null meaning the kernel lacks the file.
 * Member order is the order above, containers, files and memos in the
 * order they were added.  Pure: core/statefile reads and writes the file.
 *
 * The lenient rule (the state is a cache: a bad entry costs reads, never
 * the pass): a container entry of the wrong shape (not an object; a key
 * that is no YARN container id; "ino" not an object of integers keyed by
 * cpu, cpuset, memory; "readAtMs" not an integer; "files" not an object)
 * is dropped and counted in ndropped, and so is a memo that is not
 * {"value":string,"atMs":integer}; a file whose value is neither a string
 * nor null is dropped alone (that file is read again).  Members other than
 * those above are ignored (and not written back).  Only the document's
 * kind and its top-level shape are refused.
 */
#ifndef KILO_QOSCGSETSTATE_H
#define KILO_QOSCGSETSTATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* The hierarchies whose container dirs qos-cgset reads ("ino" keys). */
enum qoscgsetstate_ctrl {
	QOSCGSETSTATE_CPU,    /* "cpu" (the unified tree on cgroup v2) */
	QOSCGSETSTATE_CPUSET, /* "cpuset" */
	QOSCGSETSTATE_MEMORY, /* "memory" */
	QOSCGSETSTATE_NCTRL
};

/* "cpu", "cpuset", "memory". */
const char *qoscgsetstate_ctrl_name(enum qoscgsetstate_ctrl c);

/* Which strings of an entry the state allocated; the others point into
 * the document read (qoscgsetstate.doc), which lives as long as the state:
 * a pass that changes nothing copies no string. */
enum {
	QOSCGSETSTATE_OWN_NAME = 1u << 0,
	QOSCGSETSTATE_OWN_VALUE = 1u << 1,
};

/* One cgroup file of a container. */
struct qoscgsetstate_file {
	const char *name;  /* "<controller>/<file>" */
	const char *value; /* what it held; NULL: the kernel lacks the file */
	unsigned owns;     /* QOSCGSETSTATE_OWN_* */
};

/* One container dir's entry. */
struct qoscgsetstate_container {
	const char *id; /* a valid YARN container id */
	int owns_id;    /* id allocated by the state (else in its doc) */
	unsigned inos;  /* bit (1u << c) for each controller c with an inode number */
	uint64_t ino[QOSCGSETSTATE_NCTRL];
	int64_t read_at_ms; /* when its files were read (any integer: see run/cgcache) */
	struct qoscgsetstate_file *files; /* owned, in document order */
	size_t nfiles;
};

/* A result computed from other files, under a key naming every input. */
struct qoscgsetstate_memo {
	char *key, *value; /* owned */
	int64_t at_ms;     /* when it was computed */
};

struct qoscgsetstate {
	char *hadoop_yarn; /* the hadoop-yarn cgroup the state is of, owned; NULL when absent */
	json_t *doc;       /* the document read (a reference; NULL: none): the strings not owned */
	struct qoscgsetstate_container *containers; /* owned, in document order */
	size_t ncontainers;
	size_t cap;    /* room in containers and by_id */
	size_t *by_id; /* the index: positions in containers, ascending by id (strcmp) */
	size_t hint;   /* the position in by_id of the last container found */
	struct qoscgsetstate_memo *memos; /* owned, in document order */
	size_t nmemos;
	size_t ndropped; /* container and memo entries of the wrong shape, dropped by _from_json */
};

/* An empty state of hadoop_yarn (copied; NULL: none). */
void qoscgsetstate_init(struct qoscgsetstate *st, const char *hadoop_yarn);

/* Read a QosCgsetState document into *st (the lenient rule above).  st
 * keeps a reference to doc, and its strings point into it: doc must not
 * be changed while st lives.
 * Returns 0, or -1 with e set and *st empty: ERR_INPUT "QosCgsetState.kind:
 * expected \"QosCgsetState\", got ...", and for hadoopYarn (a string),
 * containers and memo (objects) "QosCgsetState.containers: expected an
 * object, got []" (each may be absent or null: none). */
int qoscgsetstate_from_json(const json_t *doc, struct qoscgsetstate *st, struct err *e);

/* The document of st, byte for byte what qos-cgset wrote before this
 * module (json_dumps, JSON_COMPACT).  A container without files is left
 * out: it vouches for nothing.  New reference. */
json_t *qoscgsetstate_to_json(const struct qoscgsetstate *st);

/* Free what st owns; it is empty (no hadoop-yarn dir) afterwards. */
void qoscgsetstate_release(struct qoscgsetstate *st);

/* The entry of container id, or NULL.  O(log n) (by_id); O(1) for the
 * container found last, the one after it in id order and an id past the
 * last (the pass enters its containers sorted).  The pointer is borrowed
 * until the next call that adds or removes a container. */
struct qoscgsetstate_container *qoscgsetstate_find(struct qoscgsetstate *st, const char *id);

/* The entry of container id, added at the end (no inode numbers,
 * read_at_ms 0, no files) when there is none.  Borrowed as for _find. */
struct qoscgsetstate_container *qoscgsetstate_add(struct qoscgsetstate *st, const char *id);

/* Room for n containers in all: no reallocation while adding up to them
 * (_from_json makes room for those it reads). */
void qoscgsetstate_reserve(struct qoscgsetstate *st, size_t n);

/* Remove the entry of container id.  Returns 1 when there was one, else 0. */
int qoscgsetstate_remove(struct qoscgsetstate *st, const char *id);

/* Move the inode numbers, read_at_ms and files of from (an entry of src)
 * to to (an entry of dst without files); from keeps no files.  dst keeps a
 * reference to src's document for the strings that point into it (or
 * copies them when dst has another document already). */
void qoscgsetstate_carry(struct qoscgsetstate *dst, struct qoscgsetstate_container *to,
			 struct qoscgsetstate *src, struct qoscgsetstate_container *from);

/* The file name of ct, or NULL.  Linear: a container has a few files. */
struct qoscgsetstate_file *qoscgsetstate_file_find(const struct qoscgsetstate_container *ct,
						   const char *name);

/* Set file name of ct to value (copied; NULL: the kernel lacks it), added
 * at the end when new.  Returns 1 when that changed ct, 0 when it held
 * that already, -1 (ct unchanged) when value is not UTF-8: JSON cannot
 * hold it. */
int qoscgsetstate_file_set(struct qoscgsetstate_container *ct, const char *name, const char *value);

/* Remove file name of ct.  Returns 1 when there was one, else 0. */
int qoscgsetstate_file_remove(struct qoscgsetstate_container *ct, const char *name);

/* The memo of key, or NULL (borrowed until the next _memo_set). */
const struct qoscgsetstate_memo *qoscgsetstate_memo_find(const struct qoscgsetstate *st,
							 const char *key);

/* Set the memo of key to value computed at at_ms (both copied), in place
 * when there is one, else at the end.  Returns 0, or -1 (st unchanged)
 * when key or value is not UTF-8. */
int qoscgsetstate_memo_set(struct qoscgsetstate *st, const char *key, const char *value,
			   int64_t at_ms);

#endif
