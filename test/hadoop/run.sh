#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh [FILTER] - the real-YARN tests (test/hadoop/tests/*.sh) against
# Hadoop's own daemons: resolves Hadoop (build.sh), then runs each script
# like the CLI tests (exit 0 passed, 77 skipped). Run by `make check-hadoop`;
# not yet part of `make check` (issue "Real Hadoop YARN in the tests").
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${KILO_BIN:?}"
sh "$top/test/hadoop/build.sh" || exit 1
export LC_ALL=C TZ=UTC PATH="$KILO_BIN:$PATH" KILO_TOP="$top" FIX="$top/test/fixtures"
pass=0 fail=0 skip=0
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
