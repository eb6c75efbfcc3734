#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - run libFuzzer targets built by `make fuzz-build`.
# Usage: run.sh SECONDS TARGET...
# Each target runs SECONDS over test/fuzz/corpus/<target>/ (read only; new
# inputs go to build/fuzz/corpus/<target>/).  Prints one line per target
# "fuzz <target>: N execs, N corpus, ok|CRASH <file>" and exits 1 when any
# target found a crash, leak or timeout.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
secs=$1
shift
out=build/fuzz
bad=0
for t in "$@"; do
	mkdir -p "$out/corpus/$t" "$out/crash" "$out/log"
	log="$out/log/$t.log"
	"$out/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$out/crash/$t-" \
		"$out/corpus/$t" "test/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	corpus=$(find "$out/corpus/$t" "test/fuzz/corpus/$t" -type f | wc -l)
	if [ "$rc" -eq 0 ]; then
		echo "fuzz $t: ${execs:-0} execs, $corpus corpus, ok"
	else
		bad=1
		art=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
		echo "fuzz $t: ${execs:-0} execs, CRASH ${art:-(see $log)}"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5
	fi
done
exit "$bad"
