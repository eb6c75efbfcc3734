#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - the CLI tests.  Two kinds, found under test/cli/<tool>/:
#
#  - golden case directories <case>/ holding
#      cmd            one shell command line, run in the case directory
#      stdin          optional standard input (else /dev/null)
#      expected.out   exact standard output
#      expected.err   optional exact standard error
#      expected.rc    optional exit code (default 0)
#  - scripts *.sh: exit 0 passed, 77 skipped, anything else failed; a
#    passing script's "note: " lines (cases it could not run) are shown.
#
# Both run hermetically: LC_ALL=C, TZ=UTC, a fresh HOME, KILO_NOW pinned,
# the tools under test ($KILO_BIN) first on PATH, $FIX = test/fixtures.
# Usage: run.sh [FILTER]   (FILTER: a substring of the case path)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${KILO_BIN:=$top/bin}"
filter=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-cli-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

export LC_ALL=C TZ=UTC HOME="$work/home" PATH="$KILO_BIN:$PATH"
export KILO_NOW="${KILO_NOW:-2026-11-29T16:00:00Z}" FIX="$top/test/fixtures" KILO_TOP="$top"
export KILO_BIN
unset KUBECONFIG http_proxy https_proxy HTTP_PROXY HTTPS_PROXY no_proxy NO_PROXY KILO_SYSROOT \
	KILO_FAULTS
mkdir -p "$HOME"

pass=0 fail=0 skip=0
report() { # status name [detail file]
	case $1 in
	ok) pass=$((pass + 1)); echo "ok   $2" ;;
	skip) skip=$((skip + 1)); echo "skip $2${3:+: $3}" ;;
	*) fail=$((fail + 1)); echo "FAIL $2"; [ -z "${3:-}" ] || sed 's/^/     | /' "$3" | head -n 40 ;;
	esac
}

for c in "$top"/test/cli/*/*/cmd; do
	[ -f "$c" ] || continue
	dir=${c%/cmd}
	name=${dir#"$top"/test/cli/}
	case $name in *"$filter"*) ;; *) continue ;; esac
	in=/dev/null
	[ -f "$dir/stdin" ] && in="$dir/stdin"
	(cd "$dir" && sh -c "$(cat cmd)" <"$in" >"$work/out" 2>"$work/err")
	rc=$?
	want_rc=0
	[ -f "$dir/expected.rc" ] && want_rc=$(cat "$dir/expected.rc")
	: >"$work/why"
	[ "$rc" = "$want_rc" ] || echo "exit code $rc, expected $want_rc" >>"$work/why"
	if [ -f "$dir/expected.out" ]; then
		diff -u "$dir/expected.out" "$work/out" >>"$work/why" 2>&1 || :
	fi
	if [ -f "$dir/expected.err" ]; then
		diff -u "$dir/expected.err" "$work/err" >>"$work/why" 2>&1 || :
	fi
	if [ -s "$work/why" ]; then
		echo "stderr:" >>"$work/why"
		head -n 10 "$work/err" >>"$work/why"
		report fail "$name" "$work/why"
	else
		report ok "$name"
	fi
done

for s in "$top"/test/cli/*/*.sh; do
	[ -f "$s" ] || continue
	name=${s#"$top"/test/cli/}
	case $name in *"$filter"*) ;; *) continue ;; esac
	(cd "$work" && sh "$s") >"$work/log" 2>&1
	rc=$?
	case $rc in
	0)
		report ok "$name"
		# a passing test's cases it could not run, said where a reader looks
		grep '^note: ' "$work/log" | sed 's/^/     | /' || :
		;;
	77) report skip "$name" "$(tail -n 1 "$work/log")" ;;
	*) report fail "$name" "$work/log" ;;
	esac
done

echo "cli: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
