#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh - run every test/bench/*.sh; each prints one line
# "name value unit [peer_value ratio] target".
set -u
rc=0
for b in "$(dirname "$0")"/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	sh "$b" || { echo "bench $(basename "$b") failed" >&2; rc=1; }
done
exit $rc
