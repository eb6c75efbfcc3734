#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run-all.sh - run every unit-test program, then the CLI tests, then the
# real-YARN tests (test/hadoop/run.sh), and print one closing line
# "check: N passed, N failed, N skipped".
# Environment: KILO_BIN (tools under test), KILO_UNIT_DIR (unit programs).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
: "${KILO_UNIT_DIR:?}" "${KILO_BIN:?}"
export KILO_FIXTURES="$top/test/fixtures"
export CK_DEFAULT_TIMEOUT="${CK_DEFAULT_TIMEOUT:-60}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

upass=0 ufail=0 bad_progs=""
for t in "$KILO_UNIT_DIR"/test_*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -v '^Running suite' || :
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
	n=$(printf '%s' "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
	f=$(printf '%s' "$line" | sed -n 's/.*Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2/p')
	[ -n "$n" ] || { n=1; f="1 0"; }
	# shellcheck disable=SC2086 # failures and errors as $1 $2
	set -- $f
	failed=$(( $1 + $2 ))
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
	upass=$(( upass + n - failed ))
	ufail=$(( ufail + failed ))
	[ "$failed" -eq 0 ] || bad_progs="$bad_progs $(basename "$t")"
done
echo "unit: $upass passed, $ufail failed"

# suite NAME SCRIPT: run it, show its output, and set pass fail skip from
# its closing line "NAME: N passed, N failed[, N skipped]" (no such line, or
# a failing exit with no failure counted: one failure)
suite() {
	_out=$(sh "$2" 2>&1)
	_rc=$?
	printf '%s\n' "$_out"
	_line=$(printf '%s\n' "$_out" | grep -E "^$1: [0-9]+ passed, [0-9]+ failed" | tail -n 1)
	pass=$(printf '%s' "$_line" | sed -n "s/^$1: \([0-9]*\) passed.*/\1/p")
	fail=$(printf '%s' "$_line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	skip=$(printf '%s' "$_line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	[ -n "$pass" ] || { pass=0; fail=1; }
	[ -n "$skip" ] || skip=0
	if [ "$_rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
}
suite cli test/cli/run.sh
cpass=$pass cfail=$fail cskip=$skip
suite hadoop test/hadoop/run.sh
hpass=$pass hfail=$fail hskip=$skip

[ -z "$bad_progs" ] || echo "failing unit programs:$bad_progs"
echo "check: $(( upass + cpass + hpass )) passed, $(( ufail + cfail + hfail )) failed, $(( cskip + hskip )) skipped"
[ $(( ufail + cfail + hfail )) -eq 0 ]
