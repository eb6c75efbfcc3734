#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# yarn-copilot against Hadoop's own NodeManager (test/hadoop/cluster.sh) and
# real processes in a private hadoop-yarn cgroup v1 tree: cgmover.py puts
# each container's processes (found by CONTAINER_ID in their environment)
# into hadoop-yarn/<container id>, as the NodeManager's cgroups handler does.
#  1. while containers start and run, list is sampled: every sample exits 0
#     and names only the NodeManager's own container states; once running,
#     each container has its NM request, its user and its processes
#  2. a container that finishes by itself: list follows it to the end (never
#     running again once its processes were gone), then no longer lists it;
#     the RM reports exit status 0
#  3. kill of one running container: its processes are gone, the report
#     says killed and the RM reports the container completed; a decoy
#     process outside the tree with the same CONTAINER_ID in its
#     environment is never signalled
. "$KILO_TOP/test/lib.sh"
private_cgroup cpu cpuacct memory
. "$KILO_TOP/test/hadoop/cluster.sh"
cd "$tmpdir" || exit 1
hy=/$PRIVATE_CG/hadoop-yarn
for c in cpu cpuacct memory; do mkdir -p "/sys/fs/cgroup/$c$hy" || fail "mkdir $c$hy"; done
hd_start --nms 1
python3 "$KILO_TOP/test/hadoop/cgmover.py" "$hd_work" "$hy" cpu cpuacct memory 2>mover.log &
_mv=$!
at_exit "kill $_mv 2>/dev/null"

yc() { yarn-copilot --hierarchy "$hy" --nm-url "$hd_nmurl1" "$@"; }
list() { yc list >list.json 2>list.err; }
field() { jq -c --arg id "$1" ".items[] | select(.id == \$id) | $2" list.json; }
# (both of a container's processes: default_container_executor.sh's bash and
# the sleep it starts; with one, a list taken between the two flaked in CI)
running_with_procs() { list && jq '[.items[] | select(.state == "RUNNING" and .processes >= 2)] | length' list.json; }

# 1. containers of 256 MB / 1 vCore running sleep: one that runs on, one
#    that finishes after 4 s; list sampled every 100 ms meanwhile
(
	while [ ! -e sampler.stop ]; do
		yc list >sample.json 2>sample.err || echo "exit $?: $(cat sample.err)" >>samples.bad
		jq -r '.items[] | "\(.id) \(.state) \(.phase) \(.processes) \(.stale)"' sample.json >>samples.txt
		sleep 0.1
	done
) &
_sm=$!
at_exit "touch $tmpdir/sampler.stop; kill $_sm 2>/dev/null"
host=$(jq -r '.nms[0].host' "$hd_info")
hd_app "$host" 3 256 1 'case $CONTAINER_ID in *_000003) exec sleep 4 ;; esac; exec sleep 3600'
set -- $hd_app_containers
A=$1 B=$2 C=$3
hd_wait "three containers running, each with its two processes" 30 hd_is 3 running_with_procs
assert_eq "$(field "$A" '[.state, .user, .requests, .stale, .processes]')" \
	'["RUNNING","root",{"cpuMilli":1000,"memoryBytes":268435456},false,2]' "A running"
assert_eq "$(field "$B" '[.state, .phase, .user, .requests, .stale, .processes]')" \
	'["RUNNING","running","root",{"cpuMilli":1000,"memoryBytes":268435456},false,2]' "B running"
assert_eq "$(field "$A" '[.applicationId, .cgroup != null]')" "[\"$hd_app_id\",true]" "A's application and dir"

# 2. C finishes after 4 s: its dir is removed (1 s empty) and the NM forgets
#    it; list follows
c_row() { list && field "$C" "[.state, .phase, .processes, .stale]"; }
hd_wait "C no longer listed" 30 hd_is "" c_row
touch sampler.stop
wait $_sm 2>/dev/null
[ ! -s samples.bad ] || fail "a list while containers started, ran and ended: $(head -n 3 samples.bad)"
#    every state sampled is one of the NodeManager's ContainerStates (or null:
#    a dir the NM does not list)
nm_states=" NEW LOCALIZING LOCALIZATION_FAILED SCHEDULED RUNNING RELAUNCHING REINITIALIZING
REINITIALIZING_AWAITING_KILL EXITED_WITH_SUCCESS EXITED_WITH_FAILURE KILLING
CONTAINER_CLEANEDUP_AFTER_KILL CONTAINER_RESOURCES_CLEANINGUP DONE PAUSING PAUSED RESUMING null "
nm_states=$(echo $nm_states)
states=$(awk '{print $2}' samples.txt | sort -u | tr '\n' ' ')
for st in $states; do
	case " $nm_states " in
	*" $st "*) ;;
	*) fail "a state the NodeManager does not have: $st (sampled: $states)" ;;
	esac
done
grep -q "^$C RUNNING running 2 false\$" samples.txt || fail "C never seen running with its processes"
#    once C ran and was then seen without a process outside RUNNING, never
#    again with one (before it ran, a sample may catch it NEW or LOCALIZING
#    with no process yet: on a loaded machine localizing takes long enough)
awk -v c="$C" '$1 == c && $2 == "RUNNING" && $4 > 0 { ran = 1 }
	$1 == c && ran && $4 == 0 && $2 != "RUNNING" { ended = 1 }
	$1 == c && ended && $4 > 0 { print "C had processes again: " $0; exit 1 }' samples.txt ||
	fail "C after it ended"
assert_eq "$(jq -c --arg c "$C" '[.completed[] | select(.id == $c) | .exitStatus]' "$hd_app_report")" \
	"[0]" "C's exit status at the RM"

# 3. kill B; a decoy with B's CONTAINER_ID in its environment, outside the tree
( cd / && CONTAINER_ID=$B exec sleep 1000 ) &
decoy=$!
at_exit "kill $decoy 2>/dev/null"
list
bpids=$(field "$B" '.pids | join(" ")' | tr -d '"')
[ -n "$bpids" ] || fail "B's pids"
yc --grace-period 200 kill "$B" >kill.json 2>kill.err
assert_eq "$?" 0 "kill B ($(cat kill.err))"
assert_eq "$(jq -c '[.items[] | [.id, .result, .processes]]' kill.json)" \
	"[[\"$B\",\"terminated\",2]]" "B's kill report"
for p in $bpids; do alive "$p" && fail "B's process $p survived a kill reported done"; done
alive "$decoy" || fail "the decoy outside the tree was signalled"
hd_wait "the RM reports B completed" 30 hd_is 1 \
	jq --arg b "$B" '[.completed[] | select(.id == $b)] | length' "$hd_app_report"
assert_eq "$(jq -c --arg b "$B" '.completed[] | select(.id == $b) | .exitStatus' "$hd_app_report")" \
	143 "B's exit status at the RM (SIGTERM)"
list
assert_eq "$(field "$A" '[.state, .processes]')" '["RUNNING",2]' "A untouched by B's kill"
hd_app_stop
echo ok
