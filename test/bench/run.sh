#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - run every benchmark test/bench/*.sh; each prints one line
#   name value unit [peer_value ratio] target
# Environment: KILO_BIN (tools to measure, default bin/).
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${KILO_BIN:=$top/bin}"
export KILO_BIN KILO_TOP="$top" FIX="$top/test/fixtures" LC_ALL=C TZ=UTC
rc=0
for b in "$top"/test/bench/*.sh; do
	[ "$b" = "$top/test/bench/run.sh" ] && continue
	sh "$b" || { echo "bench: $(basename "$b") failed" >&2; rc=1; }
done
exit $rc
