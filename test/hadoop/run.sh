#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh [FILTER] - the real-YARN tests (test/hadoop/tests/*.sh) against
# Hadoop's own daemons: resolves Hadoop (build.sh), then runs each script
# like the CLI tests (exit 0 passed, 77 skipped) and ends with one line
# "hadoop: N passed, N failed, N skipped". Without java, mvn or Maven Central
# it prints one skip line and counts one skip (with KILO_REQUIRE_HADOOP=1 that
# is a failure). Run by `make check` (test/run-all.sh) and `make check-hadoop`.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${KILO_BIN:?set KILO_BIN to the tools under test, e.g. KILO_BIN=\$PWD/build/check/bin (make check builds them)}"
v=${HADOOP_VERSION:-3.4.2}
if ! sh "$top/test/hadoop/build.sh" "$v"; then
	echo "hadoop: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
if [ -e "$top/build/hadoop/$v/skip" ]; then
	echo "hadoop: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
export LC_ALL=C TZ=UTC PATH="$KILO_BIN:$PATH" KILO_TOP="$top" FIX="$top/test/fixtures"
pass=0 fail=0 skip=0 log=""
# interrupted: no stray log, and the counts so far (each test's own exit
# trap stops its daemons)
trap 'rm -f "$log"; echo "hadoop: interrupted: $pass passed, $fail failed, $skip skipped"; exit 130' INT TERM HUP
for s in "$top"/test/hadoop/tests/*.sh; do
	case $s in *"${1:-}"*) ;; *) continue ;; esac
	log=$(mktemp)
	sh "$s" >"$log" 2>&1
	case $? in
	0) pass=$((pass + 1)); echo "ok   ${s#"$top"/}" ;;
	77) skip=$((skip + 1)); echo "skip ${s#"$top"/}: $(tail -n 1 "$log")" ;;
	*)
		fail=$((fail + 1))
		echo "FAIL ${s#"$top"/} (KILO_HADOOP_LOGS=DIR keeps the daemons' logs)"
		# the failed assertion first, then what the script printed before it
		{ grep '^FAIL' "$log"; grep -v '^FAIL' "$log" | tail -n 15; } | sed 's/^/     | /'
		;;
	esac
	rm -f "$log"
done
echo "hadoop: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
