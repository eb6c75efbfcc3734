#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The node DaemonSet's capabilities (manifests/README.md), on a real cgroup
# v1 tree whose hadoop-yarn dirs and processes belong to another user
# (nobody, as a NodeManager running as its own user leaves them): as uid 0
# with only KILL and DAC_OVERRIDE, qos-cgset writes the shares, makes the
# cpuset and memory mirrors and moves the processes into them, and
# yarn-copilot kill ends a container; without DAC_OVERRIDE the write is
# refused (EACCES), without KILL the signal (the kill fails).
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuset memory
command -v setpriv >/dev/null 2>&1 || skip "no setpriv"
id nobody >/dev/null 2>&1 || skip "no user nobody"

CG=/sys/fs/cgroup
P=$PRIVATE_CG
Y=$P/kubepods/besteffort/hadoop-yarn
C2=container_e17_1410901177871_0002_01_000002
C3=container_e17_1410901177871_0002_01_000003

# as in the DaemonSet: uid 0, every capability dropped but the named ones
with_caps() {
	caps=$1
	shift
	setpriv --bounding-set "-all$caps" --inh-caps "-all$caps" "$@"
}

cpu0=$(sed 's/[-,].*//' "$CG/cpuset/cpuset.cpus")
for c in cpu cpuset memory; do mkdir -p "$CG/$c/$P/kubepods/besteffort" || fail "mkdir $c"; done
for d in "$P" "$P/kubepods" "$P/kubepods/besteffort"; do
	echo "$cpu0" >"$CG/cpuset/$d/cpuset.cpus"
	cat "$CG/cpuset/cpuset.mems" >"$CG/cpuset/$d/cpuset.mems"
done
# the NodeManager's part, as user nobody: hadoop-yarn, container dirs, processes
mkdir -p "$CG/cpu/$Y/$C2" "$CG/cpu/$Y/$C3"
chown -R nobody "$CG/cpu/$Y"
setpriv --reuid nobody --regid nogroup --clear-groups sleep 600 &
pid2=$!
setpriv --reuid nobody --regid nogroup --clear-groups sleep 600 &
pid3=$!
private_pid "$pid2" "$pid3"
echo "$pid2" >"$CG/cpu/$Y/$C2/cgroup.procs"
echo "$pid3" >"$CG/cpu/$Y/$C3/cgroup.procs"
i=0
until [ "$(stat -c %U "/proc/$pid2")" = nobody ] && [ "$(stat -c %U "/proc/$pid3")" = nobody ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "processes did not become nobody's"
	sleep 0.05
done

cat >"$tmpdir/in.json" <<EOF
{"apiVersion":"kilo/v1","kind":"NodeUsage","metadata":{"node":"w1","timestamp":"2026-11-29T16:00:00Z"},
 "capacity":{"cpuMilli":2000,"memoryBytes":4294967296},"system":{"cpuMilli":100,"memoryBytes":1},
 "qos":{"guaranteed":{"cpuMilli":0,"memoryBytes":0},"burstable":{"cpuMilli":100,"memoryBytes":0},
        "besteffort":{"cpuMilli":300,"memoryBytes":0}}}
{"apiVersion":"kilo/v1","kind":"ContainerList","metadata":{"node":"w1","timestamp":"2026-11-29T16:00:00Z"},
 "nodeManager":{"url":"http://127.0.0.1:8042","reachable":true,"error":null},
 "items":[{"id":"$C2","state":"RUNNING","requests":{"cpuMilli":2000,"memoryBytes":1}},
          {"id":"$C3","state":"RUNNING","requests":{"cpuMilli":1000,"memoryBytes":1}}]}
EOF
shares() { jq -c '.items[] | select(.file == "cpu.shares") | [.result, .error]' "$tmpdir/$1.json"; }

# KILL only: the shares file of nobody's hadoop-yarn dir is refused
with_caps ,+kill qos-cgset --hierarchy "$Y" --only static <"$tmpdir/in.json" >"$tmpdir/nodac.json"
assert_eq "$?" 3 "qos-cgset without DAC_OVERRIDE (partial)"
shares nodac | grep -q '^\["failed",".*Permission denied' || fail "cpu.shares: $(shares nodac)"
assert_eq "$(cat "$CG/cpu/$Y/cpu.shares")" 1024 "cpu.shares without DAC_OVERRIDE"

# KILL and DAC_OVERRIDE: written, mirrored, moved (no SYS_NICE needed for
# nobody's processes entering a cpuset cgroup)
with_caps ,+kill,+dac_override qos-cgset --hierarchy "$Y" --only static <"$tmpdir/in.json" \
	>"$tmpdir/dac.json" || fail "qos-cgset with KILL, DAC_OVERRIDE: exit $?: $(jq -c .summary "$tmpdir/dac.json")"
assert_eq "$(jq '.summary.failed' "$tmpdir/dac.json")" 0 "failed items"
assert_eq "$(cat "$CG/cpu/$Y/cpu.shares")" 3072 "cpu.shares (3 vCores)"
for c in cpuset memory; do
	assert_eq "$(cat "$CG/$c/$Y/$C2/cgroup.procs")" "$pid2" "$c mirror of $C2"
done

# DAC_OVERRIDE only: nobody's container cannot be signalled
if with_caps ,+dac_override yarn-copilot --no-nm --hierarchy "$Y" --grace-period 100 \
	kill "$C2" >"$tmpdir/nokill.json"; then
	fail "yarn-copilot kill without KILL succeeded"
fi
assert_eq "$(jq -r '.items[0].result' "$tmpdir/nokill.json")" failed "kill without KILL"
kill -0 "$pid2" || fail "$C2 ended without KILL"

# KILL and DAC_OVERRIDE: terminated
with_caps ,+kill,+dac_override yarn-copilot --no-nm --hierarchy "$Y" --grace-period 100 kill "$C2" \
	>"$tmpdir/kill.json" || fail "yarn-copilot kill: exit $?: $(cat "$tmpdir/kill.json")"
assert_eq "$(jq -r '.items[0].result' "$tmpdir/kill.json")" terminated "kill with KILL"
wait "$pid2" 2>/dev/null
kill -0 "$pid2" 2>/dev/null && fail "$C2 still runs"
kill -0 "$pid3" || fail "$C3 was killed too"
exit 0
