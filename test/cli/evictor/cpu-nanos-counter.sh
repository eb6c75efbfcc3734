#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cpu-nanos-counter.sh - usage.cpuNanos is the cgroup's cumulative CPU time,
# not a figure: a container that has used 10^16 ns (64 CPUs for under two
# days) is listed by yarn-copilot, and the evictor and qos-cgset read that
# list (a bound of 2^53 refused it whole: no eviction, no QoS on the node).
. "$KILO_TOP/test/lib.sh"

root=$tmpdir/root
cp -R "$FIX/sysroot/v2-systemd" "$root"
d=$root/sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn/container_e17_1410901177871_0001_01_000001
printf 'usage_usec 10000000000000\nuser_usec 5000000000000\nsystem_usec 5000000000000\n' >"$d/cpu.stat"
yarn-copilot --sysroot "$root" --no-nm list >"$tmpdir/cl.json" || fail "list: exit $?"
grep -q '"cpuNanos":10000000000000000' "$tmpdir/cl.json" || fail "list: $(cat "$tmpdir/cl.json")"
cat "$FIX/evictor/node-usage-memory.json" "$tmpdir/cl.json" |
	KILO_NOW=2026-11-29T16:00:00Z evictor >"$tmpdir/plan" 2>"$tmpdir/err" ||
	fail "evictor: exit $?: $(cat "$tmpdir/err")"
{ sed -n '1,/"cpus"/p' "$FIX/qos/input.json" && cat "$tmpdir/cl.json"; } |
	qos-cgset --sysroot "$root" --dry-run >"$tmpdir/changes" 2>"$tmpdir/err" ||
	fail "qos-cgset: exit $?: $(cat "$tmpdir/err")"
exit 0
