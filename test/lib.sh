# SPDX-License-Identifier: Apache-2.0
# lib.sh - sourced by the CLI test scripts: . "$KILO_TOP/test/lib.sh"
# Gives: fail MSG, skip MSG, need_root_cgroup, private_cgroup, private_pid,
# spawn_threaded, tmpdir (removed at exit), at_exit CMD (cleanup run at
# exit, last added first), assert_eq A B WHAT, wait_nonempty, wait_for,
# wait_in_cgroup, alive, fake_kubeconfig.
set -u
KILO_TOP=${KILO_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
FIX=${FIX:-$KILO_TOP/test/fixtures}

_kilo_cleanups=""
_kilo_run_cleanups() {
	set +e # every cleanup runs, whatever the script's own options
	eval "$_kilo_cleanups"
}
trap '_kilo_run_cleanups' EXIT
trap 'exit 130' INT TERM

at_exit() { _kilo_cleanups="$*; $_kilo_cleanups"; }

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*"; exit 77; }

assert_eq() { # actual expected what
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# wait_in_cgroup PID DIR WHAT: until PID is listed in DIR/cgroup.procs, at
# most 5 s; then fail "WHAT did not start".
wait_in_cgroup() {
	_w=0
	while ! grep -qx "$1" "$2/cgroup.procs"; do
		_w=$((_w + 1))
		[ "$_w" -le 100 ] || fail "$3 did not start"
		sleep 0.05
	done
}
# fake_kubeconfig URL: $tmpdir/kubeconfig for the fake API server at URL
# (no credentials), exported as KUBECONFIG.
fake_kubeconfig() {
	cat >"$tmpdir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: fake, cluster: {server: "$1"}}]
users: [{name: kilo, user: {}}]
contexts: [{name: fake, context: {cluster: fake, user: kilo}}]
current-context: fake
EOF
	export KUBECONFIG="$tmpdir/kubeconfig"
}
# wait_for CMD...: until CMD succeeds, at most 10 s; returns 1 if it never
# did (the caller fails, saying what it waited for).
wait_for() {
	_w=0
	until "$@"; do
		_w=$((_w + 1))
		[ "$_w" -lt 200 ] || return 1
		sleep 0.05
	done
}
# alive PID: the process exists and is no zombie.
alive() { [ -e "/proc/$1" ] && [ "$(cut -d')' -f2 "/proc/$1/stat" | cut -d' ' -f2)" != Z ]; }
# wait_nonempty WHAT FILE...: until every FILE has content (a fake wrote
# its URL or port), at most 10 s; then fail "WHAT did not start".
wait_nonempty() {
	_what=$1
	shift
	_w=0
	for _f in "$@"; do
		while [ ! -s "$_f" ]; do
			_w=$((_w + 1))
			[ "$_w" -lt 200 ] || fail "$_what did not start"
			sleep 0.05
		done
	done
}

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/kilo-test-XXXXXX")
at_exit "rm -rf '$tmpdir'"

# need_root_cgroup CONTROLLER...: skip unless we are root and each named v1
# controller (or the v2 root) is mounted and writable.  With
# KILO_REQUIRE_REAL_CGROUP=1 (set by .ci/run where the machine allows) a
# skip is a failure.
need_root_cgroup() {
	why=""
	[ "$(id -u)" = 0 ] || why="not root"
	for c in "$@"; do
		[ -n "$why" ] && break
		[ -w "/sys/fs/cgroup/$c" ] || why="/sys/fs/cgroup/$c not writable"
	done
	[ -z "$why" ] && return 0
	if [ "${KILO_REQUIRE_REAL_CGROUP:-0}" = 1 ]; then
		fail "real cgroup test required but $why"
	fi
	skip "$why"
}

# private_cgroup CONTROLLER...: need_root_cgroup, then a prefix of its own
# for this test in each named v1 controller: PRIVATE_CG, e.g.
# kilo-test-1234-9f3a0c1e (the caller makes /sys/fs/cgroup/<c>/$PRIVATE_CG
# and below).  At exit every process in a cgroup.procs under the prefix, and
# every pid given to private_pid (processes outside the tree too), is
# killed, the pids are reaped, and the dirs are removed deepest first (a
# dir whose last task is still leaving is tried again for up to 5 s); what
# remains is reported on stderr.
private_cgroup() {
	need_root_cgroup "$@"
	PRIVATE_CG=kilo-test-$$-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
	_kilo_cg_ctrls="$*" _kilo_cg_pids=""
	at_exit _kilo_cg_cleanup
}
private_pid() { _kilo_cg_pids="$_kilo_cg_pids $*"; }

# spawn_threaded: start a process with a second thread, both sleeping, in
# the caller's cgroups (killed at exit): THREADED_PID, THREADED_TID.
spawn_threaded() {
	_f=$tmpdir/threaded.$$.$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	/usr/bin/python3 -c 'import os, sys, threading, time
threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()
time.sleep(0.05)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % os.getpid())
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(1000)' "$_f" >/dev/null 2>&1 &
	private_pid "$!"
	wait_nonempty "a threaded process" "$_f"
	THREADED_PID=$(cat "$_f") THREADED_TID=
	while [ -z "$THREADED_TID" ]; do
		for _t in "/proc/$THREADED_PID/task"/*; do
			[ "${_t##*/}" = "$THREADED_PID" ] || THREADED_TID=${_t##*/}
		done
		[ -n "$THREADED_TID" ] || sleep 0.05
	done
}
_kilo_cg_cleanup() {
	for _c in $_kilo_cg_ctrls; do
		[ -d "/sys/fs/cgroup/$_c/$PRIVATE_CG" ] || continue
		find "/sys/fs/cgroup/$_c/$PRIVATE_CG" -name cgroup.procs -exec cat {} + 2>/dev/null |
			while read -r _p; do kill -9 "$_p" 2>/dev/null; done
	done
	for _p in $_kilo_cg_pids; do kill -9 "$_p" 2>/dev/null; done
	for _p in $_kilo_cg_pids; do wait "$_p" 2>/dev/null; done
	for _c in $_kilo_cg_ctrls; do
		_d=/sys/fs/cgroup/$_c/$PRIVATE_CG _n=0
		while [ -d "$_d" ] && [ $_n -lt 50 ]; do
			find "$_d" -depth -type d -exec rmdir {} + 2>/dev/null
			[ -d "$_d" ] || break
			_n=$((_n + 1))
			sleep 0.1
		done
		[ ! -e "$_d" ] || echo "cleanup: $_d remains" >&2
	done
	return 0
}
