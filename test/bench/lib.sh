# SPDX-License-Identifier: Apache-2.0
# lib.sh - sourced by the benchmarks: . "$KILO_TOP/test/bench/lib.sh"
# (test/lib.sh too: fail, skip, tmpdir, at_exit).  Gives:
#
#   bench_cpu RUNS INPUT OUTPUT CMD...  run CMD RUNS times (stdin INPUT, stdout
#                                       OUTPUT); sets BENCH_CPU (median user+sys
#                                       seconds, getrusage) and BENCH_RSS (peak KiB)
#   bench_ir INPUT CMD...               callgrind instruction count of one run in
#                                       BENCH_IR; returns 1 (BENCH_IR empty)
#                                       without valgrind
#   bench_div A B [DIGITS]              A / B, printed with DIGITS decimals (2)
#   bench_line NAME VALUE UNIT [PEER RATIO] TARGET
#                                       the one output line of a benchmark
#
# Environment: KILO_TOP, KILO_BIN (tools under test), KILO_BENCH_DIR (built
# helpers), CC.
# shellcheck source=test/lib.sh
. "$KILO_TOP/test/lib.sh"

KILO_BENCH_DIR=${KILO_BENCH_DIR:-$KILO_TOP/build/bench}
mkdir -p "$KILO_BENCH_DIR"
${CC:-cc} -std=gnu11 -O2 -Wall -o "$KILO_BENCH_DIR/rusage" "$KILO_TOP/test/bench/rusage.c" ||
	fail "cannot build the rusage helper"

bench_cpu() {
	_runs=$1 _in=$2 _out=$3
	shift 3
	# shellcheck disable=SC2046
	set -- $("$KILO_BENCH_DIR/rusage" -n "$_runs" -i "$_in" -o "$_out" -- "$@") ||
		fail "benchmark command failed: $*"
	# shellcheck disable=SC2034 # read by the benchmark that sourced this file
	BENCH_CPU=$1 BENCH_RSS=$3
}

bench_ir() {
	BENCH_IR=
	command -v valgrind >/dev/null 2>&1 || return 1
	_in=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$tmpdir/callgrind.out" "$@" \
		<"$_in" >/dev/null 2>"$tmpdir/callgrind.log" || fail "callgrind run failed: $*"
	BENCH_IR=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmpdir/callgrind.out")
	[ -n "$BENCH_IR" ] || fail "no callgrind summary for: $*"
}

bench_div() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b == 0) print "inf"; else printf "%.*f\n", d, a / b }'
}

bench_line() {
	echo "$*"
}
