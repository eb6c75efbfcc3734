#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# nm-figure-bounds.sh - a container request the ContainerList cannot carry
# (over 2^53 bytes or milli-CPU) costs that container's requests only:
# yarn-copilot list wrote it, and the evictor and qos-cgset then refused the
# whole list (no eviction, no QoS on the node) for one hostile NM entry.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"

A=container_1326121700862_0006_01_000001
B=container_1326121700862_0006_01_000003
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/v1" v1
jq --arg a "$A" '.containers.container |= map(if .id == $a
	then .totalMemoryNeededMB = 8589934593 | .totalVCoresNeeded = 9007199254741 else . end)' \
	"$FIX/yarn/nm-containers.json" >"$tmpdir/nm.json"
start_fake_nm ok --containers "$tmpdir/nm.json"
yarn-copilot --sysroot "$tmpdir/v1" --nm-url "$NM_URL" list >"$tmpdir/cl.json" 2>"$tmpdir/err" ||
	fail "list: exit $?: $(cat "$tmpdir/err")"
assert_eq "$(jq -c --arg a "$A" '.items[] | select(.id == $a) | .requests' "$tmpdir/cl.json")" \
	'null' "the hostile entry's requests (unknown)"
assert_eq "$(jq -c --arg b "$B" '.items[] | select(.id == $b) | .requests' "$tmpdir/cl.json")" \
	'{"cpuMilli":2000,"memoryBytes":2147483648}' "the other entry"
grep -q 'totalMemoryNeededMB: expected an integer 0..8589934592, got 8589934593' "$tmpdir/err" ||
	fail "no warning naming the field: $(cat "$tmpdir/err")"
cat "$FIX/evictor/node-usage-memory.json" "$tmpdir/cl.json" |
	KILO_NOW=2026-11-29T16:00:00Z evictor >"$tmpdir/plan" 2>"$tmpdir/err" ||
	fail "evictor: exit $?: $(cat "$tmpdir/err")"
exit 0
