# SPDX-License-Identifier: Apache-2.0
# lib.sh - sourced by the CLI test scripts: . "$KILO_TOP/test/lib.sh"
# Gives: fail MSG, skip MSG, need_root_cgroup, tmpdir (removed at exit),
# at_exit CMD (cleanup run at exit, last added first), assert_eq A B WHAT.
set -u
KILO_TOP=${KILO_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
FIX=${FIX:-$KILO_TOP/test/fixtures}

_kilo_cleanups=""
_kilo_run_cleanups() {
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
