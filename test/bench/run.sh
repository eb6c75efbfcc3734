#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - run every benchmark test/bench/*.sh with the built tools first on
# PATH; each prints one line "name value unit [peer_value ratio] target".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${KILO_BIN:=$top/bin}"
export PATH="$KILO_BIN:$PATH" KILO_TOP="$top" LC_ALL=C
rc=0
for b in "$top"/test/bench/*.sh; do
	[ "$b" = "$top/test/bench/run.sh" ] && continue
	sh "$b" || { echo "FAIL ${b##*/}"; rc=1; }
done
exit $rc
