#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - `make bench`: run every test/bench/*.sh (but lib.sh and this file)
# and print their lines, `name value unit [peer_value ratio] target`.  A
# benchmark exits 0 (its line printed), 77 (skipped: the reason is shown) or
# anything else (failed: its log is shown, and run.sh exits 1).
# Usage: run.sh [FILTER]   (FILTER: a substring of the benchmark's name)
# Environment: KILO_BIN (tools, default bin/), KILO_BENCH_DIR (helpers,
# default build/bench), CC; benchmarks also get KILO_TOP and FIX (test/fixtures).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
filter=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export LC_ALL=C TZ=UTC KILO_TOP="$top" KILO_BIN="${KILO_BIN:-$top/bin}" FIX="$top/test/fixtures"
export PATH="$KILO_BIN:$PATH"

failed=0
for b in "$top"/test/bench/*.sh; do
	name=${b##*/}
	case $name in lib.sh | run.sh) continue ;; esac
	case $name in *"$filter"*) ;; *) continue ;; esac
	(cd "$work" && sh "$b") >"$work/out" 2>"$work/log"
	rc=$?
	case $rc in
	0) cat "$work/out" ;;
	77) echo "skip ${name%.sh}: $(sed -n 's/^skipped: //p' "$work/out" | tail -n 1)" ;;
	*)
		failed=1
		echo "FAIL ${name%.sh}"
		cat "$work/out" "$work/log" | sed 's/^/     | /' | tail -n 20
		;;
	esac
done
exit $failed
