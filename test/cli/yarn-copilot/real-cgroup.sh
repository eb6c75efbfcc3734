# SPDX-License-Identifier: Apache-2.0
# yarn-copilot list and kill on the real cgroup v1 hierarchy with real
# processes, in a private hadoop-yarn tree (cpu, cpuacct and memory, as
# YARN's LinuxContainerExecutor makes them with the memory handler on):
#   A burns CPU, holds 32 MiB, exits on SIGTERM -> terminated
#   B ignores SIGTERM -> killed
#   C has children     -> terminated, children too
#   D's process already exited -> gone
# and a process outside the tree whose pid is put into a plan stays alive.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"
private_cgroup cpu cpuacct memory

top=$PRIVATE_CG
hy=$top/hadoop-yarn
app=$(printf '%04d' $(($$ % 10000)))
A=container_1795910400000_${app}_01_000002
B=container_1795910400000_${app}_01_000003
C=container_1795910400000_${app}_01_000004
D=container_1795910400000_${app}_01_000005
ctrls="cpu cpuacct memory"
for c in $ctrls; do
	mkdir -p "/sys/fs/cgroup/$c/$hy/$A" "/sys/fs/cgroup/$c/$hy/$B" "/sys/fs/cgroup/$c/$hy/$C" \
		"/sys/fs/cgroup/$c/$hy/$D" || fail "mkdir in $c"
done

# spawn ID CMD: run sh -c CMD with its first process in container ID; prints the pid
spawn() {
	id=$1
	shift
	sh -c 'for c in '"$ctrls"'; do echo $$ >/sys/fs/cgroup/$c/'"$hy/$id"'/cgroup.procs; done; '"$*" \
		>/dev/null 2>&1 &
	echo $!
}
a=$(spawn "$A" 'exec python3 -c "import time; sum(range(3000000)); b = b\"x\" * (32 << 20); time.sleep(1000)"')
b=$(spawn "$B" 'trap "" TERM; exec sleep 1000')
c=$(spawn "$C" 'sleep 1000 & sleep 1000 & wait')
spawn "$D" 'exit 0' >/dev/null
sleep 1000 >/dev/null 2>&1 &
outside=$!
private_pid "$outside"
# wait until A has burnt its CPU and holds 32 MiB, and C has both children
i=0
while [ "$(wc -l </sys/fs/cgroup/cpu/$hy/$C/cgroup.procs)" -lt 3 ] ||
	[ "$(cat /sys/fs/cgroup/memory/$hy/$A/memory.usage_in_bytes)" -lt 33554432 ] ||
	[ -s /sys/fs/cgroup/cpu/$hy/$D/cgroup.procs ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] || fail "processes did not start"
	sleep 0.05
done
kids=$(grep -v "^$c\$" /sys/fs/cgroup/cpu/$hy/$C/cgroup.procs | tr '\n' ' ')

cat >"$tmpdir/nm.json" <<JSON
{"containers":{"container":[
 {"id":"$A","state":"RUNNING","user":"alice","totalMemoryNeededMB":1024,"totalVCoresNeeded":1},
 {"id":"$B","state":"RUNNING","user":"alice","totalMemoryNeededMB":2048,"totalVCoresNeeded":2}]}}
JSON
start_fake_nm ok --containers "$tmpdir/nm.json"

# list: real pids, start times and CPU usage
yarn-copilot --hierarchy "$hy" --nm-url "$NM_URL" list >"$tmpdir/list" || fail "list: exit $?"
field() { jq -r --arg id "$1" ".items[] | select(.id == \$id) | $2" "$tmpdir/list"; }
assert_eq "$(jq -r '.hadoopYarn | "\(.cgroupVersion) \(.path)"' "$tmpdir/list")" "1 /$hy" hadoopYarn
assert_eq "$(jq -r '[.items[].id] | join(" ")' "$tmpdir/list")" "$A $B $C $D" ids
assert_eq "$(field "$A" .processes) $(field "$B" .processes) $(field "$C" .processes) $(field "$D" .processes)" \
	"1 1 3 0" processes
assert_eq "$(field "$A" '.pids | join(" ")')|$(field "$C" '.pids | sort | join(" ")')|$(field "$D" '.pids | length')" \
	"$a|$(echo "$c $kids" | tr ' ' '\n' | grep . | sort -n | tr '\n' ' ' | sed 's/ $//')|0" "pids"
assert_eq "$(field "$A" '.usage.cpuNanos')" "$(cat /sys/fs/cgroup/cpuacct/$hy/$A/cpuacct.usage)" "A cpuacct.usage"
[ "$(field "$A" '.usage.cpuNanos')" -gt 1000000 ] || fail "A burnt no CPU: $(field "$A" .usage.cpuNanos)"
# memory: anon + unevictable and the whole charge, as the kernel's files say
# (1 MiB slack for the per-CPU charge batches)
memd=/sys/fs/cgroup/memory/$hy/$A
kanon=$(awk '/^total_(active_anon|inactive_anon|unevictable) / { s += $2 } END { print s }' "$memd/memory.stat")
near() { [ $(($1 - $2)) -le 1048576 ] && [ $(($2 - $1)) -le 1048576 ] || fail "$3: $1, kernel $2"; }
near "$(field "$A" .usage.memoryBytes)" "$kanon" "A memoryBytes"
near "$(field "$A" .usage.memoryCurrentBytes)" "$(cat "$memd/memory.usage_in_bytes")" "A memoryCurrentBytes"
[ "$(field "$A" .usage.memoryBytes)" -ge 33554432 ] || fail "A holds less than 32 MiB"
assert_eq "$(field "$A" '"\(.state) \(.user) \(.requests.cpuMilli) \(.stale)"')" "RUNNING alice 1000 false" "A from NM"
assert_eq "$(field "$C" '.stale')" true "C unknown to the NM"
assert_eq "$(field "$D" '"\(.startTime) \(.stale) \(.starting)"')" "null true false" "D exited"
now=$(date -u +%s)
started=$(date -u -d "$(field "$B" .startTime)" +%s) || fail "B startTime"
[ $((now - started)) -ge 0 ] && [ $((now - started)) -lt 120 ] ||
	fail "B startTime $(field "$B" .startTime) is not the real start (now $(date -u))"

# a plan that names a process outside the tree: ids only, so it is never touched
echo "{\"apiVersion\":\"kilo/v1\",\"kind\":\"KillPlan\",\"items\":[{\"id\":\"$outside\"}]}" |
	yarn-copilot kill >/dev/null 2>&1
assert_eq "$?" 2 "a pid as id"
echo "{\"apiVersion\":\"kilo/v1\",\"kind\":\"KillPlan\",\"gracePeriodMs\":300,\"items\":[{\"id\":\"$A\",\"pid\":$outside},{\"id\":\"$B\",\"pids\":[$outside]},{\"id\":\"$C\"},{\"id\":\"$D\"}]}" \
	>"$tmpdir/plan"
t0=$(date +%s%N)
yarn-copilot --hierarchy "$hy" --grace-period 50 kill <"$tmpdir/plan" >"$tmpdir/report" 2>"$tmpdir/err" ||
	fail "kill: exit $?: $(cat "$tmpdir/err")"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
r() { jq -r --arg id "$1" '.items[] | select(.id == $id) | "\(.result) \(.processes) \(.signalled | join(",")) \(.error)"' "$tmpdir/report"; }
assert_eq "$(r "$A")" "terminated 1 SIGTERM null" "A"
assert_eq "$(r "$B")" "killed 1 SIGTERM,SIGKILL null" "B"
assert_eq "$(r "$C")" "terminated 3 SIGTERM null" "C"
assert_eq "$(r "$D")" "gone 0  null" "D"
b_ms=$(jq -r --arg id "$B" '.items[] | select(.id == $id) | .elapsedMs' "$tmpdir/report")
a_ms=$(jq -r --arg id "$A" '.items[] | select(.id == $id) | .elapsedMs' "$tmpdir/report")
[ "$b_ms" -ge 300 ] && [ "$b_ms" -lt 1000 ] || fail "B ended after $b_ms ms: the plan's 300 ms grace must win over --grace-period 50"
[ "$a_ms" -lt 200 ] || fail "A ended after $a_ms ms"
[ "$ms" -lt 2000 ] || fail "kill took $ms ms"
# alive PID: exists and is not a zombie waiting for this shell to reap it
for p in $a $b $c $kids; do
	! alive "$p" || fail "pid $p still alive"
done
alive "$outside" || fail "the process outside the tree was signalled"
for id in $A $B $C; do
	[ ! -s "/sys/fs/cgroup/cpu/$hy/$id/cgroup.procs" ] || fail "$id not empty"
done

# E: its process sits in a child cgroup (E/docker, as YARN's Docker runtime
# makes): a member, killed (it used to be reported gone and live on).
# F: a thread of a process outside the tree written into F's tasks (v1):
# cgroup.procs lists that process, but it is foreign: never signalled.
E=container_1795910400000_${app}_01_000006
F=container_1795910400000_${app}_01_000007
mkdir -p "/sys/fs/cgroup/cpu/$hy/$E/docker" "/sys/fs/cgroup/cpu/$hy/$F" || fail "mkdir E F"
sh -c 'echo $$ >/sys/fs/cgroup/cpu/'"$hy/$E"'/docker/cgroup.procs; trap "" TERM; exec sleep 1000' >/dev/null 2>&1 &
e=$!
private_pid "$e"
spawn_threaded
threaded=$THREADED_PID tid=$THREADED_TID
i=0
while [ -z "$(cat "/sys/fs/cgroup/cpu/$hy/$E/docker/cgroup.procs")" ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] || fail "E did not start"
	sleep 0.05
done
echo "$tid" >"/sys/fs/cgroup/cpu/$hy/$F/tasks" || fail "move thread $tid into $F"
grep -qx "$threaded" "/sys/fs/cgroup/cpu/$hy/$F/cgroup.procs" || fail "$F's cgroup.procs does not list $threaded"
yarn-copilot --hierarchy "$hy" --grace-period 50 kill "$E" "$F" >"$tmpdir/report" 2>"$tmpdir/err" ||
	fail "kill E F: exit $?: $(cat "$tmpdir/err")"
assert_eq "$(r "$E")" "killed 1 SIGTERM,SIGKILL null" "E (a process in E/docker)"
assert_eq "$(r "$F")" "gone 0  null" "F (only a foreign thread)"
assert_eq "$(jq -c --arg id "$F" '.items[] | select(.id == $id) | .foreign' "$tmpdir/report")" "[$threaded]" "F foreign"
! alive "$e" || fail "E's process in E/docker still alive"
alive "$threaded" || fail "the process whose thread was put into $F was signalled"
# move the thread back out, so the tree can be removed
echo "$tid" >"/sys/fs/cgroup/cpu/$PRIVATE_CG/tasks" 2>/dev/null || echo "$tid" >/sys/fs/cgroup/cpu/tasks
exit 0
