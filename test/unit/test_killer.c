// SPDX-License-Identifier: Apache-2.0
/* test_killer - the kill engine on fake trees with a recording signal seam,
 * the ids of a KillPlan and the KillReport document */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "core/clock.h"
#include "core/jsonio.h"
#include "kernel/killer.h"
#include "testlib.h"

#define HY_V1 "sys/fs/cgroup/cpu/kubepods/besteffort/hadoop-yarn/"
#define HY_V2 "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn/"
#define CA "container_e17_1410901177871_0001_01_000002"
#define CB "container_e17_1410901177871_0001_01_000003"
#define CC "container_e17_1410901177871_0001_01_000004"
#define CD "container_e17_1410901177871_0001_01_000005"

/* The recorder: the signals sent, and fake processes that leave their
 * cgroup.procs when a signal ends them. */
enum behaviour { EXITS_ON_TERM, IGNORES_TERM, EXITS_BEFORE_PIN };

struct proc {
	pid_t pid;
	const char *procs; /* sysroot-relative cgroup.procs */
	enum behaviour how;
	int dead;
};

struct sent {
	pid_t pid;
	int sig;
	int64_t at_ms;
};

struct recorder {
	const char *root;
	struct proc procs[320];
	size_t nprocs;
	struct sent log[320];
	size_t nlog;
	int64_t start;
	int pinned;     /* open handles */
	int max_pinned; /* most handles open at once */
};

static struct proc *find(struct recorder *r, pid_t pid)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return &r->procs[i];
	return NULL;
}

/* A fake cgroup.procs and its threads files (v1 tasks, v2 cgroup.threads:
 * each process's leader thread, so every listed process is a member). */
static void write_procs(const char *root, const char *procs, const char *content)
{
	char other[256];
	size_t dl = strlen(procs) - strlen("cgroup.procs");

	testlib_write(root, procs, content);
	snprintf(other, sizeof(other), "%.*stasks", (int)dl, procs);
	testlib_write(root, other, content);
	snprintf(other, sizeof(other), "%.*scgroup.threads", (int)dl, procs);
	testlib_write(root, other, content);
}

/* Rewrite the fake cgroup.procs of p without the dead. */
static void rewrite(struct recorder *r, const char *procs)
{
	char buf[320 * 8] = "";

	for (size_t i = 0; i < r->nprocs; i++)
		if (strcmp(r->procs[i].procs, procs) == 0 && !r->procs[i].dead)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%d\n",
				 (int)r->procs[i].pid);
	write_procs(r->root, procs, buf);
}

static void end(struct recorder *r, struct proc *p)
{
	char dir[512];

	p->dead = 1;
	rewrite(r, p->procs);
	snprintf(dir, sizeof(dir), "%s/proc/%d", r->root, (int)p->pid); /* as the kernel does */
	testlib_rmtree(dir);
}

static int rec_pin(void *arg, pid_t pid)
{
	struct recorder *r = arg;
	struct proc *p = find(r, pid);

	ck_assert_msg(pid > 1, "pid %d pinned", (int)pid);
	if (p && p->how == EXITS_BEFORE_PIN && !p->dead)
		end(r, p); /* exited between the read and the pin */
	if (!p || p->dead) {
		errno = ESRCH;
		return -1;
	}
	if (++r->pinned > r->max_pinned)
		r->max_pinned = r->pinned;
	return (int)pid;
}

static int rec_send(void *arg, int handle, pid_t pid, int sig)
{
	struct recorder *r = arg;
	struct proc *p = find(r, pid);

	ck_assert_int_eq(handle, pid);
	ck_assert_uint_lt(r->nlog, 320);
	r->log[r->nlog++] = (struct sent){ pid, sig, clock_mono_ms() - r->start };
	if (sig == SIGKILL || p->how == EXITS_ON_TERM)
		end(r, p);
	return 0;
}

static void rec_unpin(void *arg, int handle)
{
	struct recorder *r = arg;

	(void)handle;
	r->pinned--;
}

/* A fake process in the dir of procs (sysroot-relative cgroup.procs),
 * with its own proc/<pid>/cgroup as the kernel shows it: v1 one line per
 * hierarchy ("4:cpu:<cg>", the others at the root), v2 "0::<cg>". */
static void add_proc(struct recorder *r, const char *procs, pid_t pid, enum behaviour how)
{
	static const char *const v1[] = { "cpu", "memory", "cpuset" };
	const char *rest = procs + strlen("sys/fs/cgroup/");
	size_t cglen = strlen(rest) - strlen("/cgroup.procs");
	char rel[64], text[512] = "";
	int is_v1 = 0;

	r->procs[r->nprocs++] = (struct proc){ pid, procs, how, 0 };
	rewrite(r, procs);
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(v1[i]);
		int here = strncmp(rest, v1[i], n) == 0 && rest[n] == '/';

		is_v1 |= here;
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%zu:%s:%.*s\n", 4 + i,
			 v1[i], here ? (int)(cglen - n) : 1, here ? rest + n : "/");
	}
	if (!is_v1)
		snprintf(text, sizeof(text), "0::/%.*s\n", (int)cglen, rest);
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", (int)pid);
	testlib_write(r->root, rel, text);
}

struct fixture {
	char *root;
	struct sysroot s;
	struct cgroup_layout l;
	struct recorder rec;
	struct killer_ops ops;
	struct killer_opts opts;
};

static void fixture_open(struct fixture *f, int v2)
{
	f->root = testlib_tmpdir();
	if (v2)
		testlib_write(f->root, "sys/fs/cgroup/cgroup.controllers",
			      "cpuset cpu io memory pids\n");
	else
		testlib_write(f->root, "sys/fs/cgroup/cpu/cpu.shares", "1024\n");
	memset(&f->rec, 0, sizeof(f->rec));
	f->rec.root = f->root;
	f->ops = (struct killer_ops){ rec_pin, rec_send, rec_unpin, &f->rec, 0 };
	f->opts = (struct killer_opts){ .grace_ms = 200, .kill_timeout_ms = 200, .poll_ms = 10 };
}

static void fixture_layout(struct fixture *f)
{
	struct err e = { 0 };

	ck_assert_msg(sysroot_open(&f->s, f->root, &e) == 0, "%s", e.msg);
	ck_assert_msg(cgroup_layout_detect(&f->l, &f->s, CGROUP_DRIVER_AUTO, NULL, &e) == 0, "%s",
		      e.msg);
}

static void fixture_close(struct fixture *f)
{
	cgroup_layout_release(&f->l);
	sysroot_release(&f->s);
	testlib_rmtree(f->root);
	free(f->root);
}

static struct killer_item item(const char *id)
{
	struct killer_item it;

	memset(&it, 0, sizeof(it));
	snprintf(it.id, sizeof(it.id), "%s", id);
	return it;
}

/* v1 cgroupfs and v2 systemd: one container exits on SIGTERM (two
 * processes), one ignores it, one is empty, one has no dir. */
START_TEST(test_killer_sequence)
{
	const char *hy = _i ? HY_V2 : HY_V1;
	struct fixture f;
	char pa[160], pb[160], pc[160];
	struct killer_item items[4] = { item(CA), item(CB), item(CC), item(CD) };
	int64_t t0;

	fixture_open(&f, _i);
	snprintf(pa, sizeof(pa), "%s%s/cgroup.procs", hy, CA);
	snprintf(pb, sizeof(pb), "%s%s/cgroup.procs", hy, CB);
	snprintf(pc, sizeof(pc), "%s%s/cgroup.procs", hy, CC);
	add_proc(&f.rec, pa, 101, EXITS_ON_TERM);
	add_proc(&f.rec, pa, 102, EXITS_ON_TERM);
	add_proc(&f.rec, pb, 201, IGNORES_TERM);
	write_procs(f.root, pc, "");
	fixture_layout(&f);
	ck_assert_int_eq(f.l.version, _i ? 2 : 1);
	ck_assert_int_eq(f.l.driver, _i ? CGROUP_DRIVER_SYSTEMD : CGROUP_DRIVER_CGROUPFS);

	f.rec.start = t0 = clock_mono_ms();
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 4), 0);
	ck_assert_int_ge(clock_mono_ms() - t0, 200);

	ck_assert_int_eq(items[0].result, KILLER_TERMINATED);
	ck_assert_uint_eq(items[0].processes, 2);
	ck_assert_uint_eq(items[0].sent, KILLER_SENT_TERM);
	ck_assert_int_lt(items[0].elapsed_ms, 150); /* a poll or so, not the grace period */
	ck_assert_int_eq(items[1].result, KILLER_KILLED);
	ck_assert_uint_eq(items[1].sent, KILLER_SENT_TERM | KILLER_SENT_KILL);
	ck_assert_int_ge(items[1].elapsed_ms, 200);
	ck_assert_int_eq(items[2].result, KILLER_GONE);
	ck_assert_uint_eq(items[2].processes, 0);
	ck_assert_uint_eq(items[2].sent, 0);
	ck_assert_int_eq(items[3].result, KILLER_GONE);

	/* order: SIGTERM to every process first, SIGKILL after the grace period */
	ck_assert_uint_eq(f.rec.nlog, 4);
	ck_assert_int_eq(f.rec.log[0].pid, 101);
	ck_assert_int_eq(f.rec.log[0].sig, SIGTERM);
	ck_assert_int_eq(f.rec.log[1].pid, 102);
	ck_assert_int_eq(f.rec.log[1].sig, SIGTERM);
	ck_assert_int_eq(f.rec.log[2].pid, 201);
	ck_assert_int_eq(f.rec.log[2].sig, SIGTERM);
	ck_assert_int_lt(f.rec.log[2].at_ms, 150);
	ck_assert_int_eq(f.rec.log[3].pid, 201);
	ck_assert_int_eq(f.rec.log[3].sig, SIGKILL);
	ck_assert_int_ge(f.rec.log[3].at_ms, 200);
	ck_assert_int_le(f.rec.log[3].at_ms, 450);
	ck_assert_int_eq(f.rec.pinned, 0);
	killer_items_release(items, 4);
	fixture_close(&f);
}
END_TEST

/* A plan's grace period is what decides the SIGKILL time; 0 sends both at once. */
START_TEST(test_killer_grace_period)
{
	static const int64_t graces[] = { 0, 40, 300 };
	struct fixture f;
	struct killer_item items[1] = { item(CB) };

	fixture_open(&f, 0);
	add_proc(&f.rec, HY_V1 CB "/cgroup.procs", 201, IGNORES_TERM);
	fixture_layout(&f);
	f.opts.grace_ms = graces[_i];
	f.rec.start = clock_mono_ms();
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_int_eq(items[0].result, KILLER_KILLED);
	ck_assert_uint_eq(f.rec.nlog, 2);
	ck_assert_int_eq(f.rec.log[0].sig, SIGTERM);
	ck_assert_int_eq(f.rec.log[1].sig, SIGKILL);
	ck_assert_int_ge(f.rec.log[1].at_ms, graces[_i]);
	ck_assert_int_le(f.rec.log[1].at_ms,
			 graces[_i] + 250); /* generous: CI machines are shared */
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* A breaker's round: polls slower than grace + kill timeout (a sprawling
 * tree, many containers) made an item fail before its first SIGKILL; the
 * timeout now runs from that first SIGKILL round. */
START_TEST(test_killer_sigkill_before_timeout)
{
	struct fixture f;
	struct killer_item items[1] = { item(CB) };

	fixture_open(&f, 0);
	add_proc(&f.rec, HY_V1 CB "/cgroup.procs", 202, IGNORES_TERM);
	fixture_layout(&f);
	f.opts.grace_ms = 0;
	f.opts.kill_timeout_ms = 0;
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_str_eq(killer_result_name(items[0].result), "killed");
	ck_assert_uint_eq(f.rec.nlog, 2);
	ck_assert_int_eq(f.rec.log[1].sig, SIGKILL);
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* Pid 1 is never pinned nor signalled: the container fails once the
 * timeout after SIGKILL passes. */
START_TEST(test_killer_never_pid1)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	write_procs(f.root, HY_V1 CA "/cgroup.procs", "1\n");
	fixture_layout(&f);
	f.opts.grace_ms = 10;
	f.opts.kill_timeout_ms = 30;
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 1);
	ck_assert_int_eq(items[0].result, KILLER_FAILED);
	ck_assert_str_eq(items[0].err.msg,
			 "1 processes of '" CA "' remain 30 ms after SIGKILL (pid 1)");
	ck_assert_uint_eq(f.rec.nlog, 0);
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* A process that leaves the cgroup between the read and the pin (its pid
 * may now belong to anyone) is not signalled. */
START_TEST(test_killer_pid_left_before_pin)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	add_proc(&f.rec, HY_V1 CA "/cgroup.procs", 101, EXITS_BEFORE_PIN);
	add_proc(&f.rec, HY_V1 CA "/cgroup.procs", 102, EXITS_ON_TERM);
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_int_eq(items[0].result, KILLER_TERMINATED);
	ck_assert_uint_eq(f.rec.nlog, 1);
	ck_assert_int_eq(f.rec.log[0].pid, 102);
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* Many processes: every one is signalled, one pin open at a time. */
START_TEST(test_killer_many_processes)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 1);
	for (pid_t p = 1000; p < 1300; p++)
		add_proc(&f.rec, HY_V2 CA "/cgroup.procs", p, EXITS_ON_TERM);
	fixture_layout(&f);
	/* 300 recorded exits rewrite cgroup.procs 300 times: on a loaded machine
	 * that can outlast the default grace period; no timing is checked here */
	f.opts.grace_ms = 10000;
	f.opts.kill_timeout_ms = 10000;
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_int_eq(items[0].result, KILLER_TERMINATED);
	ck_assert_uint_eq(items[0].processes, 300);
	ck_assert_uint_eq(f.rec.nlog, 300);
	ck_assert_int_eq(f.rec.log[299].pid, 1299);
	ck_assert_int_eq(f.rec.max_pinned, 1);
	ck_assert_int_eq(f.rec.pinned, 0);
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* The live seam refuses a sysroot other than /. */
START_TEST(test_killer_live_ops_need_live_root)
{
	struct fixture f;
	struct killer_item items[2] = { item(CA), item(CC) };

	fixture_open(&f, 0);
	write_procs(f.root, HY_V1 CA "/cgroup.procs", "4194300\n");
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &killer_ops_pidfd, &f.opts, items, 2), 1);
	ck_assert_int_eq(items[0].result, KILLER_FAILED);
	ck_assert_uint_eq(items[0].sent, 0);
	ck_assert_ptr_nonnull(
		strstr(items[0].err.msg, "not signalling 1 process of '" CA "': sysroot '"));
	ck_assert_int_eq(items[1].result, KILLER_GONE);
	killer_items_release(items, 2);
	fixture_close(&f);
}
END_TEST

START_TEST(test_killer_ids_parse)
{
	char *good[] = { (char *)CA, (char *)CB };
	char *bad[] = { (char *)CA, (char *)"container_1_0001_01_000001/.." };
	struct killer_item *items = NULL;
	size_t n = 0;
	struct err e = { 0 };

	ck_assert_int_eq(killer_ids_parse(good, 2, &items, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	free(items);
	ck_assert_int_eq(killer_ids_parse(bad, 2, &items, &n, &e), -1);
	ck_assert_int_eq(e.kind, ERR_USAGE);
	ck_assert_ptr_nonnull(
		strstr(e.msg, "invalid container id 'container_1_0001_01_000001/..'"));
	ck_assert_ptr_null(items);
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(test_killer_report)
{
	struct killer_item items[2] = { item(CA), item(CB) };
	json_auto_t *doc = NULL;
	char *text;

	items[0].result = KILLER_KILLED;
	items[0].processes = 3;
	items[0].sent = KILLER_SENT_TERM | KILLER_SENT_KILL;
	items[0].elapsed_ms = 262;
	items[1].result = KILLER_FAILED;
	err_set(&items[1].err, ERR_SYSTEM, EPERM, "pin pid 7 of '%s'", CB);
	doc = killer_report(items, 2, "worker-1", 1732896000000LL);
	text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(
		text,
		"{\"apiVersion\":\"kilo/v1\",\"kind\":\"KillReport\",\"metadata\":{\"node\":"
		"\"worker-1\",\"timestamp\":\"2024-11-29T16:00:00Z\"},\"items\":[{\"id\":\"" CA
		"\",\"result\":\"killed\",\"processes\":3,\"signalled\":[\"SIGTERM\",\"SIGKILL\"],"
		"\"foreign\":[],\"elapsedMs\":262,\"error\":null},{\"id\":\"" CB
		"\",\"result\":\"failed\","
		"\"processes\":0,\"signalled\":[],\"foreign\":[],\"elapsedMs\":0,\"error\":\"pin pid 7 of '" CB
		"': Operation not permitted\"}]}");
	free(text);
}
END_TEST

/* Members are the processes of the dir and of every dir below it (YARN's
 * Docker runtime makes one): before, a process in container_x/sub was left
 * running and the container reported gone.  A process listed in
 * cgroup.procs whose leader thread is not in the tree (a v1 tid written
 * into tasks) is foreign: never signalled, reported. */
START_TEST(test_killer_subdirs_and_foreign)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	add_proc(&f.rec, HY_V1 CA "/cgroup.procs", 101, EXITS_ON_TERM);
	add_proc(&f.rec, HY_V1 CA "/docker/cgroup.procs", 102, IGNORES_TERM);
	/* 900 is listed in cgroup.procs, but only its thread 901 is in tasks */
	testlib_write(f.root, HY_V1 CA "/docker/cgroup.procs", "102\n900\n");
	testlib_write(f.root, HY_V1 CA "/docker/tasks", "102\n901\n");
	testlib_write(f.root, "proc/900/cgroup", "4:cpu:/\n"); /* its leader's */
	testlib_write(f.root, "proc/900/stat", "900 (sh) S 1 900 900 0 -1 4194560\n");
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_int_eq(items[0].result, KILLER_KILLED);
	ck_assert_uint_eq(items[0].processes, 2);
	ck_assert_uint_eq(items[0].nforeign, 1);
	ck_assert_int_eq(items[0].foreign[0], 900);
	for (size_t i = 0; i < f.rec.nlog; i++)
		ck_assert_int_ne(f.rec.log[i].pid, 900);
	ck_assert_uint_eq(f.rec.nlog, 3); /* TERM 101, TERM 102, KILL 102 */
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* A breaker's round: a member whose leader thread exited (a zombie, which
 * v1 drops from tasks while its threads run on) was taken as foreign and
 * left alive; one in a ".hidden" sub-dir was not read at all. */
START_TEST(test_killer_zombie_leader_and_dot_dirs)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	add_proc(&f.rec, HY_V1 CA "/.hid/cgroup.procs", 103, EXITS_ON_TERM);
	add_proc(&f.rec, HY_V1 CA "/cgroup.procs", 104, EXITS_ON_TERM);
	testlib_write(f.root, HY_V1 CA "/tasks", "105\n"); /* 104's live thread */
	testlib_write(f.root, "proc/104/stat", "104 (java) Z 1 104 104 0 -1\n");
	/* an exited leader's own cgroup file reads the root (the real kernel's
	 * answer; its live threads decide) */
	testlib_write(f.root, "proc/104/cgroup", "4:cpu:/\n");
	testlib_write(f.root, "proc/104/task/105/stat", "105 (java) S 1 104 104 0 -1\n");
	testlib_write(f.root, "proc/104/task/105/cgroup",
		      "4:cpu:/kubepods/besteffort/hadoop-yarn/" CA "\n");
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_int_eq(items[0].result, KILLER_TERMINATED);
	ck_assert_uint_eq(items[0].processes, 2);
	ck_assert_uint_eq(items[0].nforeign, 0);
	ck_assert_uint_eq(f.rec.nlog, 2);
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* No hadoop-yarn dir to look in (a wrong --hierarchy or driver) is no
 * evidence that a container is gone: the item fails, naming the fix. */
START_TEST(test_killer_no_hadoop_yarn_is_not_gone)
{
	struct fixture f;
	struct killer_item items[1] = { item(CD) };

	fixture_open(&f, 0);
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 1);
	ck_assert_int_eq(items[0].result, KILLER_FAILED);
	ck_assert_str_eq(
		items[0].err.msg,
		"hadoop-yarn cgroup '/kubepods/besteffort/hadoop-yarn' not found in the "
		"NodeManager's hierarchies (cpu; found nothing of kubepods or hadoop-yarn): "
		"check --hierarchy and --cgroup-driver");
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

#define MEM_V1 "sys/fs/cgroup/memory/kubepods/besteffort/hadoop-yarn/"

/* A pid only in kilo's memory mirror of a container whose cpu dir is gone
 * (main signalled it: the mirror stood in for the missing cpu dir) is no
 * member: reported, never signalled, and the item fails naming the flag.  With --nm-memory-cgroups the memory
 * dir is the NodeManager's, and the pid a member. */
START_TEST(test_killer_mirror_is_no_authority)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	testlib_write(f.root, HY_V1 "cgroup.procs", "");
	testlib_write(f.root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "max\n");
	add_proc(&f.rec, MEM_V1 CA "/cgroup.procs", 300, EXITS_ON_TERM);
	fixture_layout(&f);
	f.l.nm_memory = _i;
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), _i == 0);
	if (_i == 0) {
		/* not gone either: with a NodeManager that makes memory dirs and no
		 * --nm-memory-cgroups it is the container's */
		ck_assert_str_eq(killer_result_name(items[0].result), "failed");
		ck_assert_str_eq(
			items[0].err.msg,
			"no member of '" CA "' is left, but 1 process is only in its cpuset or "
			"memory dirs (see foreign), taken for kilo's mirrors: not signalled; if "
			"the NodeManager makes memory cgroups, give --nm-memory-cgroups");
		ck_assert_uint_eq(items[0].processes, 0);
		ck_assert_uint_eq(items[0].nforeign, 1);
		ck_assert_int_eq(items[0].foreign[0], 300);
		ck_assert_uint_eq(f.rec.nlog, 0);
	} else {
		ck_assert_str_eq(killer_result_name(items[0].result), "terminated");
		ck_assert_uint_eq(items[0].processes, 1);
		ck_assert_uint_eq(items[0].nforeign, 0);
		ck_assert_uint_eq(f.rec.nlog, 1);
		ck_assert_int_eq(f.rec.log[0].pid, 300);
	}
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* A breaker's round on the leader rule: an outside process whose leader
 * thread alone was written into tasks (its other threads elsewhere) is
 * mixed: never signalled, and the kill fails, naming it.  One whose leader
 * has exited (its cgroup file then reads the root, wherever it was) is
 * placed by its live threads: one written in and one elsewhere is mixed
 * too; with none in the tree (only a thread that exited since) it is
 * foreign. */
START_TEST(test_killer_leader_only_and_exited_leader_outside)
{
	struct fixture f;
	struct killer_item items[2] = { item(CA), item(CB) };

	fixture_open(&f, 0);
	testlib_write(f.root, HY_V1 CA "/cgroup.procs", "700\n");
	testlib_write(f.root, HY_V1 CA "/tasks", "700\n");
	testlib_write(f.root, "proc/700/stat", "700 (py) S 1 700 700 0 -1\n");
	testlib_write(f.root, "proc/700/task/700/stat", "700 (py) S 1\n");
	testlib_write(f.root, "proc/700/task/701/cgroup", "4:cpu:/\n");
	/* alive, not exiting (PF_EXITING 0x4 clear): outside at the root */
	testlib_write(f.root, "proc/700/task/701/stat", "701 (py) S 1 700 700 0 -1 4194560\n");
	testlib_write(f.root, HY_V1 CB "/cgroup.procs", "800\n900\n");
	testlib_write(f.root, HY_V1 CB "/tasks", "801\n");
	testlib_write(f.root, "proc/800/stat", "800 (zl) Z 1 800 800 0 -1\n");
	testlib_write(f.root, "proc/800/cgroup", "4:cpu:/\n");
	testlib_write(f.root, "proc/800/task/801/stat", "801 (zl) S 1\n");
	testlib_write(f.root, "proc/800/task/802/cgroup", "4:cpu:/system.slice\n");
	/* 900: exited leader, its thread 901 (listed in tasks, gone since) was
	 * its last in the tree, 902 runs elsewhere */
	testlib_write(f.root, "proc/900/stat", "900 (zl) Z 1 900 900 0 -1\n");
	testlib_write(f.root, "proc/900/cgroup", "4:cpu:/\n");
	testlib_write(f.root, "proc/900/task/902/cgroup", "4:cpu:/system.slice\n");
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 2), 2);
	ck_assert_str_eq(killer_result_name(items[0].result), "failed");
	ck_assert_str_eq(items[0].err.msg, "process 700 has threads in '" CA "' and outside it: "
					   "not signalled, and the container is not proven ended");
	ck_assert_str_eq(killer_result_name(items[1].result), "failed");
	ck_assert_str_eq(items[1].err.msg, "process 800 has threads in '" CB "' and outside it: "
					   "not signalled, and the container is not proven ended");
	ck_assert_uint_eq(items[1].nforeign, 2);
	ck_assert_int_eq(items[1].foreign[0], 800);
	ck_assert_int_eq(items[1].foreign[1], 900);
	ck_assert_uint_eq(f.rec.nlog, 0);
	killer_items_release(items, 2);
	fixture_close(&f);
}
END_TEST

/* A fork chain: each read lists a process that has exited by the time it
 * is placed (no proc entry left).  Such reads are not empty: the kill
 * fails after the timeout instead of reporting gone (it did, taking the
 * pids for foreign), and once the dir reads empty it is gone. */
START_TEST(test_killer_fork_chain_is_not_empty)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	testlib_write(f.root, HY_V1 CA "/cgroup.procs", "555\n");
	testlib_write(f.root, HY_V1 CA "/tasks", "");
	fixture_layout(&f);
	f.opts.grace_ms = 20;
	f.opts.kill_timeout_ms = 60;
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 1);
	ck_assert_str_eq(killer_result_name(items[0].result), "failed");
	ck_assert_str_eq(items[0].err.msg,
			 "processes of '" CA "' still appear in its dirs 60 ms after SIGKILL, each "
			 "exiting before it could be signalled (a process forking its successor "
			 "and exiting?): not proven ended");
	ck_assert_uint_eq(items[0].nforeign, 0);
	ck_assert_uint_eq(f.rec.nlog, 0);
	killer_items_release(items, 1);
	items[0] = item(CA);
	testlib_write(f.root, HY_V1 CA "/cgroup.procs", "");
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_str_eq(killer_result_name(items[0].result), "gone");
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* A thread pool's churn: a thread that is exiting (PF_EXITING in its
 * stat's flags) has its own cgroup file read the root.  It is no thread
 * outside: the process is a member, signalled (it was "mixed", never
 * killed, and list counted it 0). */
START_TEST(test_killer_exiting_thread_is_not_outside)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	add_proc(&f.rec, HY_V1 CA "/cgroup.procs", 710, EXITS_ON_TERM);
	testlib_write(f.root, "proc/710/stat", "710 (java) S 1 710 710 0 -1 4194560\n");
	testlib_write(f.root, "proc/710/task/711/cgroup", "4:cpu:/\n");
	testlib_write(f.root, "proc/710/task/711/stat", "711 (pool) R 1 710 710 0 -1 4194564\n");
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 0);
	ck_assert_str_eq(killer_result_name(items[0].result), "terminated");
	ck_assert_uint_eq(f.rec.nlog, 1);
	ck_assert_int_eq(f.rec.log[0].pid, 710);
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* pids.current counts tasks that no cgroup.procs shows (a pid namespace
 * of their own, or unreaped zombies): not gone, failed. */
START_TEST(test_killer_unseen_tasks_are_not_gone)
{
	struct fixture f;
	struct killer_item items[1] = { item(CA) };

	fixture_open(&f, 0);
	write_procs(f.root, HY_V1 CA "/cgroup.procs", "");
	testlib_write(f.root,
		      "sys/fs/cgroup/pids/kubepods/besteffort/hadoop-yarn/" CA "/pids.current",
		      "3\n");
	fixture_layout(&f);
	ck_assert_uint_eq(killer_run(&f.l, &f.s, &f.ops, &f.opts, items, 1), 1);
	ck_assert_str_eq(killer_result_name(items[0].result), "failed");
	ck_assert_str_eq(items[0].err.msg,
			 "no process of '" CA "' is visible but its pids.current is 3: processes "
			 "in a pid namespace this run does not see (run in the host's: hostPID: "
			 "true), or exited ones their parent has not reaped");
	killer_items_release(items, 1);
	fixture_close(&f);
}
END_TEST

/* NSpid with two levels: a pid namespace of its own. */
START_TEST(test_killer_own_pidns)
{
	struct fixture f;
	struct err e = { 0 };

	fixture_open(&f, 0);
	testlib_write(f.root, "proc/self/status", "Name:\tx\nNSpid:\t4242\t1\nVmRSS:\t1 kB\n");
	fixture_layout(&f);
	ck_assert_int_eq(killer_own_pidns(&f.s, &e), 1);
	ck_assert_str_eq(e.msg, "runs in a pid namespace of its own (NSpid has 2 levels): the "
				"containers' processes are not visible; run in the host's "
				"(hostPID: true)");
	testlib_write(f.root, "proc/self/status", "Name:\tx\nNSpid:\t4242\nVmRSS:\t1 kB\n");
	/* one level, but /proc/2 is no kthreadd: a /proc mounted in the namespace */
	testlib_write(f.root, "proc/2/stat", "2 (sh) S 1 2 2 0 -1\n");
	ck_assert_int_eq(killer_own_pidns(&f.s, &e), 1);
	ck_assert_ptr_nonnull(strstr(e.msg, "pid 2 is not kthreadd"));
	testlib_write(f.root, "proc/2/stat", "2 (kthreadd) S 0 0 0 0 -1 2129984\n");
	ck_assert_int_eq(killer_own_pidns(&f.s, &e), 0);
	fixture_close(&f);
}
END_TEST

static Suite *killer_suite(void)
{
	Suite *s = suite_create("killer");
	TCase *tc = tcase_create("run");
	TCase *td = tcase_create("documents");

	tcase_add_loop_test(tc, test_killer_sequence, 0, 2);
	tcase_add_loop_test(tc, test_killer_grace_period, 0, 3);
	tcase_add_test(tc, test_killer_never_pid1);
	tcase_add_test(tc, test_killer_pid_left_before_pin);
	tcase_add_test(tc, test_killer_subdirs_and_foreign);
	tcase_add_test(tc, test_killer_no_hadoop_yarn_is_not_gone);
	tcase_add_test(tc, test_killer_own_pidns);
	tcase_add_loop_test(tc, test_killer_mirror_is_no_authority, 0, 2);
	tcase_add_test(tc, test_killer_unseen_tasks_are_not_gone);
	tcase_add_test(tc, test_killer_fork_chain_is_not_empty);
	tcase_add_test(tc, test_killer_exiting_thread_is_not_outside);
	tcase_add_test(tc, test_killer_leader_only_and_exited_leader_outside);
	tcase_add_test(tc, test_killer_sigkill_before_timeout);
	tcase_add_test(tc, test_killer_zombie_leader_and_dot_dirs);
	tcase_add_test(tc, test_killer_many_processes);
	tcase_add_test(tc, test_killer_live_ops_need_live_root);
	suite_add_tcase(s, tc);
	tcase_add_test(td, test_killer_ids_parse);
	tcase_add_test(td, test_killer_report);
	suite_add_tcase(s, td);
	return s;
}

KILO_TEST_MAIN(killer_suite)
