#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# real-v1.sh - qos-cgset on a private cgroup v1 tree with real processes:
# mirroring moves them into cpuset and memory, cpu.shares reads back, a
# shrink goes children first and a widen parents first (and the kernel's
# own EBUSY and EACCES for the wrong orders), a second run writes nothing,
# mirrors of a gone container are removed; a member in a sub-dir is
# mirrored, a foreign thread never; cpuset dirs left uninitialised are
# healed before any pid goes in.
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuset memory

CG=/sys/fs/cgroup
P=$PRIVATE_CG
Y=$P/kubepods/besteffort/hadoop-yarn
C2=container_e17_1410901177871_0001_01_000002
C3=container_e17_1410901177871_0001_01_000003

# The kubelet's part: the besteffort dir in every controller (a v1 cpuset
# dir needs CPUs and memory nodes); the NodeManager's part: container dirs
# in cpu only, each with a real process.
# The besteffort dir gets the first two CPUs of the root cpuset, A and B,
# whatever the machine has: the test needs two.
pair=$(python3 -c 'import sys
cpus = []
for r in sys.argv[1].split(","):
    lo, _, hi = r.partition("-")
    cpus += range(int(lo), int(hi or lo) + 1)
print(*cpus[:2])' "$(cat "$CG/cpuset/cpuset.cpus")")
A=${pair%% *} B=${pair#* }
[ "$A" != "$B" ] || skip "needs 2 CPUs in the root cpuset"
AB=$A,$B
[ "$B" = $((A + 1)) ] && AB=$A-$B
for c in cpu cpuset memory; do mkdir -p "$CG/$c/$P/kubepods/besteffort" || fail "mkdir $c"; done
for d in "$P" "$P/kubepods" "$P/kubepods/besteffort"; do
	echo "$AB" >"$CG/cpuset/$d/cpuset.cpus"
	cat "$CG/cpuset/cpuset.mems" >"$CG/cpuset/$d/cpuset.mems"
done
mkdir -p "$CG/cpu/$Y/$C2" "$CG/cpu/$Y/$C3"
sleep 600 &
pid2=$!
sleep 600 &
pid3=$!
private_pid "$pid2" "$pid3"
echo "$pid2" >"$CG/cpu/$Y/$C2/cgroup.procs"
echo "$pid3" >"$CG/cpu/$Y/$C3/cgroup.procs"

cat >"$tmpdir/in.json" <<EOF
{"apiVersion":"kilo/v1","kind":"NodeUsage","metadata":{"node":"w1","timestamp":"2026-11-29T16:00:00Z"},
 "capacity":{"cpuMilli":2000,"memoryBytes":4294967296},"system":{"cpuMilli":100,"memoryBytes":1},
 "qos":{"guaranteed":{"cpuMilli":0,"memoryBytes":0},"burstable":{"cpuMilli":100,"memoryBytes":0},
        "besteffort":{"cpuMilli":300,"memoryBytes":0}}}
{"apiVersion":"kilo/v1","kind":"ContainerList","metadata":{"node":"w1","timestamp":"2026-11-29T16:00:00Z"},
 "nodeManager":{"url":"http://127.0.0.1:8042","reachable":true,"error":null},
 "items":[{"id":"$C2","state":"RUNNING","requests":{"cpuMilli":2000,"memoryBytes":1}},
          {"id":"$C3","state":"RUNNING","requests":{"cpuMilli":5000,"memoryBytes":1}},
          {"id":"container_e17_1410901177871_0001_01_000004","state":"DONE","requests":{"cpuMilli":9000,"memoryBytes":1}}]}
EOF
run() { # name [options]: run qos-cgset, keep the report in $tmpdir/name.json
	n=$1
	shift
	qos-cgset --hierarchy "$Y" "$@" <"$tmpdir/in.json" >"$tmpdir/$n.json"
	echo $?
}
written() { # name: "file path" of each written item, in order
	jq -r '.items[] | select(.result == "written") | "\(.controller) \(.file) \(.path)"' \
		"$tmpdir/$1.json" | sed "s|/$Y|Y|"
}

# 1. Mirroring, shares.
assert_eq "$(run first)" 0 "first run exit"
for c in cpuset memory; do
	assert_eq "$(cat "$CG/$c/$Y/$C2/cgroup.procs")" "$pid2" "$c mirror of $C2"
	assert_eq "$(cat "$CG/$c/$Y/$C3/cgroup.procs")" "$pid3" "$c mirror of $C3"
done
assert_eq "$(cat "$CG/cpuset/$Y/$C2/cpuset.cpus")" "$AB" "mirror cpuset.cpus"
assert_eq "$(cat "$CG/cpu/$Y/cpu.shares")" 7168 "cpu.shares (2 + 5 vCores, the DONE one left out)"
assert_eq "$(jq -r '.items[] | select(.file == "cpu.shares") | .reason' "$tmpdir/first.json")" \
	"sum of 7 vCores x 1024 (2 containers)" "shares reason"

# 2. Nothing differs: nothing written.
assert_eq "$(run second)" 0 "second run exit"
assert_eq "$(written second)" "" "second run writes"

# 3. Shrink (kilo.reservedCPUs B, cfsQuota policy restores the cpuset to
#    the candidates {A}): children first, and the quota 1100 milli-cores.
cat >"$tmpdir/shrink.yaml" <<EOF
resourceUsedThresholdWithBE:
  cpuSuppressPolicy: cfsQuota
kilo:
  reservedCPUs: "$B"
EOF
assert_eq "$(run shrink --policy "$tmpdir/shrink.yaml")" 0 "shrink exit"
assert_eq "$(written shrink | tr '\n' ';')" \
	"cpuset cpuset.cpus Y/$C3;cpuset cpuset.cpus Y/$C2;cpuset cpuset.cpus Y;cpu cpu.cfs_quota_us Y;" \
	"shrink order"
assert_eq "$(cat "$CG/cpuset/$Y/cpuset.cpus")" "$A" "hadoop-yarn cpuset after shrink"
assert_eq "$(cat "$CG/cpuset/$Y/$C3/cpuset.cpus")" "$A" "container cpuset after shrink"
assert_eq "$(cat "$CG/cpu/$Y/cpu.cfs_quota_us")" 110000 "quota: 1100 milli-cores x 100000 us"

# 4. Widen (cpuset policy, no reservation): parents first, quota unlimited.
assert_eq "$(run widen)" 0 "widen exit"
assert_eq "$(written widen | tr '\n' ';')" \
	"cpuset cpuset.cpus Y;cpuset cpuset.cpus Y/$C2;cpuset cpuset.cpus Y/$C3;cpu cpu.cfs_quota_us Y;" \
	"widen order"
assert_eq "$(cat "$CG/cpuset/$Y/$C3/cpuset.cpus")" "$AB" "container cpuset after widen"
assert_eq "$(cat "$CG/cpu/$Y/cpu.cfs_quota_us")" -1 "quota after widen"

# 5. The kernel's answer to the wrong orders.
try_write() { # file value: prints the errno name or OK
	python3 -c 'import errno, os, sys
try:
    fd = os.open(sys.argv[1], os.O_WRONLY)
    os.write(fd, sys.argv[2].encode())
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])' "$1" "$2"
}
assert_eq "$(try_write "$CG/cpuset/$Y/cpuset.cpus" "$A")" EBUSY "parent-first shrink"
for c in $C2 $C3 ""; do echo "$A" >"$CG/cpuset/$Y/$c/cpuset.cpus"; done
assert_eq "$(try_write "$CG/cpuset/$Y/$C2/cpuset.cpus" "$AB")" EACCES "child-first widen"

# 6. schedIdle: cpu.idle 1 first, then shares are left alone (the kernel
#    refuses them on an idle group); back to 0, the shares come back.
printf "resourceQOSStrategy:\n  beClass:\n    cpuQOS:\n      schedIdle: 1\n" >"$tmpdir/idle.yaml"
assert_eq "$(run idle --policy "$tmpdir/idle.yaml" --only static)" 0 "idle exit"
assert_eq "$(cat "$CG/cpu/$Y/cpu.idle")" 1 "cpu.idle"
assert_eq "$(jq -r '.items[] | select(.file == "cpu.shares") | .result' "$tmpdir/idle.json")" \
	skipped "shares on an idle group"
assert_eq "$(try_write "$CG/cpu/$Y/cpu.shares" 7168)" EINVAL "the kernel on shares of an idle group"
assert_eq "$(run unidle --only static)" 0 "unidle exit"
assert_eq "$(written unidle | tr '\n' ';')" "cpu cpu.idle Y;cpu cpu.shares Y;" "unidle writes"
assert_eq "$(cat "$CG/cpu/$Y/cpu.shares")" 7168 "cpu.shares after idle"

# 7. --state, with the pids yarn-copilot list gives: the first pass fills
#    the cache; a cpuset narrowed by hand is left until the recheck period
#    is over (nothing read, nothing written), then fixed.  A process put
#    into a container's cpu dir is moved into its mirrors once the list
#    names it.
listed() { # PIDS_OF_C2: the input with each container's pids
	jq -c --argjson p2 "$1" --argjson p3 "[$pid3]" 'if .kind == "ContainerList" then .items |= map(.pids =
		(if .id | endswith("02") then $p2 elif .id | endswith("03") then $p3 else null end))
		else . end' "$tmpdir/in.json" >"$tmpdir/listed.json"
}
cached() { # NAME [options]: a pass with --state on the listed input
	n=$1
	shift
	qos-cgset --hierarchy "$Y" --state "$tmpdir/qstate.json" "$@" <"$tmpdir/listed.json" \
		>"$tmpdir/$n.json"
	echo $?
}
listed "[$pid2]"
assert_eq "$(cached fill)" 0 "fill the cache"
echo "$A" >"$CG/cpuset/$Y/$C2/cpuset.cpus"
assert_eq "$(KILO_NOW=2026-11-29T16:00:59Z cached within)" 0 "within the recheck period"
assert_eq "$(written within)" "" "within: nothing written"
assert_eq "$(jq '[.items[] | select(.reason | test("cached: read 59 s ago"))] | length' \
	"$tmpdir/within.json")" 2 "within: both container cpusets from the cache"
assert_eq "$(cat "$CG/cpuset/$Y/$C2/cpuset.cpus")" "$A" "the narrowed cpuset left"
assert_eq "$(KILO_NOW=2026-11-29T16:01:00Z cached after)" 0 "after the recheck period"
assert_eq "$(written after)" "cpuset cpuset.cpus Y/$C2" "after: the narrowed cpuset fixed"
assert_eq "$(cat "$CG/cpuset/$Y/$C2/cpuset.cpus")" "$AB" "cpuset restored"
sleep 600 &
pid4=$!
private_pid "$pid4"
echo "$pid4" >"$CG/cpu/$Y/$C2/cgroup.procs"
assert_eq "$(KILO_NOW=2026-11-29T16:01:00Z cached unlisted)" 0 "a pid the list does not name"
assert_eq "$(written unlisted)" "" "unlisted pid: nothing read, nothing moved"
grep -q "cpuset:/$Y/$C2\$" "/proc/$pid4/cgroup" && fail "unlisted pid moved"
listed "[$pid2, $pid4]"
assert_eq "$(KILO_NOW=2026-11-29T16:01:00Z cached relisted)" 0 "the list names it"
assert_eq "$(written relisted | tr '\n' ';')" \
	"cpuset cgroup.procs Y/$C2;memory cgroup.procs Y/$C2;" "listed pid moved"
for c in cpuset memory; do
	grep -q ":$c:/$Y/$C2\$" "/proc/$pid4/cgroup" || fail "$c of $pid4: $(cat "/proc/$pid4/cgroup")"
done
assert_eq "$(KILO_NOW=2026-11-29T16:01:00Z cached settled)" 0 "after the move"
assert_eq "$(written settled)" "" "after the move: nothing to do"

# 8. A container gone from cpu: its mirrors are removed.
kill -9 "$pid3"
wait "$pid3" 2>/dev/null
rmdir "$CG/cpu/$Y/$C3" || fail "rmdir cpu $C3"
# while the NodeManager still lists it RUNNING, its other dirs may be the
# NodeManager's own (made before the cpu dir at launch): left alone
assert_eq "$(run held)" 0 "held exit"
assert_eq "$(jq -r '[.items[] | select(.file == null and .new == null)] | length' "$tmpdir/held.json")" \
	0 "no removal while the NodeManager lists the container"
[ -d "$CG/memory/$Y/$C3" ] || fail "memory dir of $C3 removed while the NodeManager lists it"
cp "$tmpdir/in.json" "$tmpdir/in.keep"
jq -c --arg id "$C3" 'if .kind == "ContainerList" then .items |= map(if .id == $id then .state = "DONE" else . end) else . end' \
	"$tmpdir/in.keep" >"$tmpdir/in.json"
assert_eq "$(run gone)" 0 "gone exit"
cp "$tmpdir/in.keep" "$tmpdir/in.json"
assert_eq "$(jq -r '.items[] | select(.file == null and .new == null and .result == "written") | .controller' \
	"$tmpdir/gone.json" | tr '\n' ' ')" "cpuset memory " "mirrors removed"
[ -d "$CG/cpuset/$Y/$C3" ] && fail "cpuset mirror of $C3 still there"
[ -d "$CG/memory/$Y/$C3" ] && fail "memory mirror of $C3 still there"

# 9. C5 holds a member only in a sub-dir (C5/docker) and a thread of a
#    process outside YARN written into its tasks (v1 allows it; cgroup.procs
#    then lists that process).  The member joins C5's mirrors; the outside
#    process is foreign: reported, never moved (it used to be).
C5=container_e17_1410901177871_0001_01_000005
mkdir -p "$CG/cpu/$Y/$C5/docker" || fail "mkdir $C5/docker"
sleep 600 &
pid5=$!
private_pid "$pid5"
echo "$pid5" >"$CG/cpu/$Y/$C5/docker/cgroup.procs"
spawn_threaded
echo "$THREADED_TID" >"$CG/cpu/$Y/$C5/tasks" || fail "move thread $THREADED_TID into $C5"
at_exit "echo $THREADED_TID >$CG/cpu/tasks"
grep -qx "$THREADED_PID" "$CG/cpu/$Y/$C5/cgroup.procs" || fail "$C5's cgroup.procs lacks $THREADED_PID"
before=$(grep -E ':(cpuset|memory):' "/proc/$THREADED_PID/cgroup" | sort)
assert_eq "$(run foreign --only static)" 0 "foreign exit"
for c in cpuset memory; do
	assert_eq "$(cat "$CG/$c/$Y/$C5/cgroup.procs")" "$pid5" "$c mirror of $C5: its member only"
done
assert_eq "$(grep -E ':(cpuset|memory):' "/proc/$THREADED_PID/cgroup" | sort)" "$before" 	"the outside process's cpuset and memory cgroups"
for t in "/proc/$THREADED_PID/task"/*; do
	assert_eq "$(grep -E ':(cpuset|memory):' "$t/cgroup" | sort)" \
		"$before" "thread ${t##*/}'s cpuset and memory cgroups"
done
assert_eq "$(jq -c '[.items[] | select(.foreign) | [.controller, .result, .foreign[]]]' \
	"$tmpdir/foreign.json")" "[[\"cpuset\",\"skipped\",$THREADED_PID],[\"memory\",\"skipped\",$THREADED_PID]]" \
	"the foreign process reported on both mirror chains"

# 10. Dirs left uninitialised (a crash between mkdir and init, another
#     agent): a v1 cpuset dir that exists with empty cpuset.cpus and
#     cpuset.mems takes no task, and every pass failed the same way (the
#     kernel's ENOSPC).  Now each such dir, the container's and its
#     ancestors', gets its parent's values, ancestors first, before a pid
#     goes in; the second pass writes nothing.
H2=$P/h2/hadoop-yarn
mkdir -p "$CG/cpu/$H2/$C2" "$CG/cpuset/$H2/$C2" "$CG/memory/$P/h2" || fail "mkdir $H2"
sleep 600 &
pid8=$!
private_pid "$pid8"
echo "$pid8" >"$CG/cpu/$H2/$C2/cgroup.procs"
assert_eq "$(cat "$CG/cpuset/$P/h2/cpuset.cpus")|$(cat "$CG/cpuset/$H2/$C2/cpuset.mems")" "|" \
	"uninitialised cpuset dirs"
assert_eq "$(try_write "$CG/cpuset/$H2/$C2/cgroup.procs" "$pid8")" ENOSPC "the kernel on a task for it"
heal() { # name
	qos-cgset --hierarchy "$H2" --only static <"$tmpdir/in.json" >"$tmpdir/$1.json"
	echo $?
}
assert_eq "$(heal heal)" 0 "heal exit"
assert_eq "$(jq -r '.items[] | select(.controller == "cpuset" and .result == "written") | "\(.file) \(.path)"' \
	"$tmpdir/heal.json" | sed "s|/$P|P|" | tr '\n' ';')" \
	"cpuset.cpus P/h2;cpuset.mems P/h2;cpuset.cpus P/h2/hadoop-yarn;cpuset.mems P/h2/hadoop-yarn;cpuset.cpus P/h2/hadoop-yarn/$C2;cpuset.mems P/h2/hadoop-yarn/$C2;cgroup.procs P/h2/hadoop-yarn/$C2;" \
	"healed ancestors first, then the pid"
assert_eq "$(cat "$CG/cpuset/$H2/$C2/cgroup.procs")" "$pid8" "the pid in the healed mirror"
assert_eq "$(cat "$CG/cpuset/$H2/$C2/cpuset.cpus")" "$AB" "the healed cpus"
assert_eq "$(heal again)" 0 "second pass exit"
assert_eq "$(jq -r '[.items[] | select(.result == "written")] | length' "$tmpdir/again.json")" 0 \
	"second pass writes"
exit 0
