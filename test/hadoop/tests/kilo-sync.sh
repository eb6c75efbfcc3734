#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync against Hadoop's own ResourceManagers (an HA pair) and two real
# NodeManagers (test/hadoop/cluster.sh); the Kubernetes side is the fake API
# server, whose NodeManager pods carry the real node ids:
#  1. a pass resizes every NodeManager to the planned total (read back from
#     the RM); a second pass sends nothing
#     with damping, a fall at once and a rise in steps
#  2. YARN's real allocation is written back onto the Node
#  3. a total below YARN's use: with overCommitTimeoutMs -1 nothing is
#     preempted; with 2000 the RM preempts a container (exit status -102)
#  4. no active RM: unreachable (75), nothing written; the active RM made
#     standby and the other active: the next pass writes to the new active
#     only; the active RM restarted: totals re-asserted
#  5. a NodeManager gracefully decommissioned with a container running:
#     DECOMMISSIONING (never resized, its use written back), then
#     DECOMMISSIONED (skipped); back in service (recommissioned, restarted):
#     resized again
#  6. an RM without the REST resize: failed naming the fallback; with
#     clusters[].rmadmin Hadoop's own `yarn rmadmin` makes it; one that
#     cannot reach an RM is killed after rmadmin.timeoutMs
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/hadoop/cluster.sh"
. "$KILO_TOP/test/hadoop/k8s.sh"
cd "$tmpdir" || exit 1
hd_start --nms 2
# worker-1: 8 cores / 16 GiB of Batch, worker-2: 6 cores / 12 GiB; the NM
# pods request 2 cores / 2 GiB of it
hd_k8s 8000:17179869184 6000:12884901888

sync() { # [CONFIG] [ARGS...]: one verbose pass; exit code in $rc
	_cfg=${1:-kilo-sync.yaml}
	[ $# -eq 0 ] || shift
	rc=0
	kilo-sync --config "$_cfg" --verbose "$@" >report.json 2>sync.err || rc=$?
}
item() { jq -c --arg n "$1" ".items[] | select(.node == \$n) | $2" report.json; }
total() { hd_node "$1" | jq -c '[.totalResource.vCores, .totalResource.memory]'; }
node_field() { hd_node "$1" | jq -r "$2"; }
posts() { grep -c '^kilo-sync: POST ' sync.err; }

# 1. planned totals reach the RM
kilo-sync --config kilo-sync.yaml plan >plan.json 2>plan.err || fail "plan: $(cat plan.err)"
p1=$(jq -c '.items[] | select(.node == "worker-1") | [.yarnTotal.vCores, .yarnTotal.memoryMB]' plan.json)
p2=$(jq -c '.items[] | select(.node == "worker-2") | [.yarnTotal.vCores, .yarnTotal.memoryMB]' plan.json)
assert_eq "$p1" "[6,14336]" "worker-1 planned total"
assert_eq "$p2" "[4,10240]" "worker-2 planned total"
sync
assert_eq "$rc" 0 "first pass exit ($(cat sync.err | grep -v '^kilo-sync: [A-Z]* http'))"
assert_eq "$(item worker-1 '[.result, .via]')" '["updated","rest"]' "worker-1 result"
assert_eq "$(item worker-2 '[.result, .via]')" '["updated","rest"]' "worker-2 result"
hd_wait "worker-1's total at the RM" 10 hd_is "$p1" total "$hd_nm1"
hd_wait "worker-2's total at the RM" 10 hd_is "$p2" total "$hd_nm2"
sync
assert_eq "$rc" 0 "second pass exit"
assert_eq "$(posts)" 0 "RM writes in the second pass"
assert_eq "$(item worker-1 .result)" '"unchanged"' "second pass"

# 1b. damping (issue "NodeManager lifecycle" slice a): a fall is sent at
#     once and in full, a rise in steps of maxIncrease a pass, as the RM
#     lists them
cp kilo-sync.yaml damp.yaml
printf 'damping:\n  maxIncrease: {vCores: 1, memoryMB: 1024, percent: 0}\n  deadband: {vCores: 0, memoryMB: 0}\n' >>damp.yaml
set_origin worker-1 4000 8589934592
sync damp.yaml
assert_eq "$(item worker-1 '[.reasonCode, .yarnTotal, .yarnTarget]')" \
	'["total-differs",{"vCores":2,"memoryMB":6144},null]' "a fall, at once"
hd_wait "worker-1's fall at the RM" 10 hd_is "[2,6144]" total "$hd_nm1"
set_origin worker-1 8000 17179869184
sync damp.yaml
assert_eq "$(item worker-1 '[.reasonCode, .rmState, .yarnTotal, .yarnTarget]')" \
	'["total-damped","RUNNING",{"vCores":3,"memoryMB":7168},{"vCores":6,"memoryMB":14336}]' "a rise, one step"
assert_eq "$(item worker-1 .result)" '"updated"' "the step confirmed at the RM"
assert_eq "$(total "$hd_nm1")" "[3,7168]" "worker-1's first step at the RM"
sync damp.yaml
assert_eq "$(total "$hd_nm1")" "[4,8192]" "worker-1's second step at the RM"
sync
assert_eq "$(total "$hd_nm1")" "$p1" "back to the full total without damping"

# 2. two containers of 1 vCore / 1 GiB on worker-1's NodeManager
hd_app "$(jq -r '.nms[0].host' "$hd_info")" 2 1024 1
hd_wait "the RM counts the containers" 10 hd_is 2 node_field "$hd_nm1" .numContainers
sync
assert_eq "$(item worker-1 '.rmUsed')" '{"vCores":2,"memoryMB":2048}' "YARN's use as the RM reports it"
assert_eq "$(entry worker-1 hadoop-yarn | jq -c .resources)" \
	'{"kubernetes.io/batch-cpu":"2k","kubernetes.io/batch-memory":"2Gi"}' "worker-1 annotation"

# 3. Batch shrinks below YARN's use: 3 cores / 4 GiB -> 1 vCore / 2048 MB
set_origin worker-1 3000 4294967296
sync
assert_eq "$(item worker-1 '[.yarnTotal, .overCommitTimeoutMs, .result]')" \
	'[{"vCores":1,"memoryMB":2048},-1,"updated"]' "shrunk below use, no timeout"
hd_wait "the shrunk total at the RM" 10 hd_is "[1,2048]" total "$hd_nm1"
sleep 3
assert_eq "$(jq -c '[(.running | length), .completed]' "$hd_app_report")" '[2,[]]' \
	"overCommitTimeout -1: nothing preempted"
sed 's/^overCommitTimeoutMs: -1$/overCommitTimeoutMs: 2000/' kilo-sync.yaml >oc.yaml
set_origin worker-1 2500 3221225472 # -> 0 vCores / 1024 MB
sync oc.yaml
assert_eq "$(item worker-1 '[.yarnTotal, .overCommitTimeoutMs, .result]')" \
	'[{"vCores":0,"memoryMB":1024},2000,"updated"]' "shrunk below use, 2 s timeout"
hd_wait "the RM preempts a container" 30 hd_is 1 jq '.completed | length' "$hd_app_report"
assert_eq "$(jq -c '[.completed[0].exitStatus, .completed[0].diagnostics, (.running | length)]' \
	"$hd_app_report")" '[-102,"Container preempted by scheduler",1]' "the preempted container"
hd_app_stop
set_origin worker-1 8000 17179869184
sync
assert_eq "$rc" 0 "back to the full total"

# 4. no active RM: both standby
hd_rmadmin -transitionToStandby rm1 >/dev/null 2>&1 || fail "rmadmin -transitionToStandby rm1"
sync
assert_eq "$rc" 75 "no active RM"
assert_eq "$(posts)" 0 "RM writes with no active RM"
grep -q "^kilo-sync: cluster 'yarn-real': unreachable (rm-unreachable), 2 nodes skipped for it: .*no active RM" sync.err ||
	fail "unreachable line: $(grep -v '^kilo-sync: [A-Z]* http' sync.err)"
#    rm2 active: the NodeManagers move to it; shrink worker-2 so a write is due
hd_rmadmin -transitionToActive rm2 >/dev/null 2>&1 || fail "rmadmin -transitionToActive rm2"
_hd_active=$hd_rm2
hd_wait "the NodeManagers at rm2" 30 _hd_running 2
set_origin worker-2 5000 11811160064
sync
assert_eq "$rc" 0 "pass after the failover"
assert_eq "$(item worker-2 .result)" '"updated"' "worker-2 after the failover"
assert_eq "$(grep -c "^kilo-sync: POST $hd_rm2/" sync.err) $(posts)" "1 1" \
	"the one write went to rm2: $(grep '^kilo-sync: POST' sync.err)"
hd_wait "worker-2's total at rm2" 10 hd_is "[3,9216]" total "$hd_nm2"
#    rm2 (active) stops; rm1 is forced active; the NodeManagers register
#    again, with the totals of their own configuration: re-asserted
hd_rm_stop rm2
hd_rmadmin -transitionToActive --forceactive rm1 >/dev/null 2>&1 || fail "rmadmin --forceactive rm1"
_hd_active=$hd_rm1
hd_wait "the NodeManagers at rm1" 30 _hd_running 2
sync
assert_eq "$rc" 0 "pass after the restart ($(grep -v '^kilo-sync: [A-Z]* http' sync.err))"
hd_wait "worker-1's total re-asserted" 10 hd_is "$p1" total "$hd_nm1"
hd_wait "worker-2's total re-asserted" 10 hd_is "[3,9216]" total "$hd_nm2"
assert_eq "$(grep -c "^kilo-sync: POST $hd_rm2/" sync.err)" 0 "no write to the stopped RM"

# 5. worker-2's NodeManager gracefully decommissioned (its host excluded)
#    while a container runs there: DECOMMISSIONING, the RM holding its total
#    at its use; kilo-sync leaves the total alone (a resize would open room
#    on a draining node) and still writes YARN's use back
hd_app "$(jq -r '.nms[1].host' "$hd_info")" 1 1024 1
hd_wait "the container on worker-2" 10 hd_is 1 node_field "$hd_nm2" .numContainers
jq -r '.nms[1].host' "$hd_info" >"$(jq -r .exclude "$hd_info")"
hd_rmadmin -refreshNodes -g 120 -server >rmadmin.out 2>&1 || fail "rmadmin -refreshNodes -g 120 -server: $(grep -v WARN rmadmin.out | head -n 3)"
hd_wait "worker-2 DECOMMISSIONING" 30 hd_is DECOMMISSIONING node_field "$hd_nm2" .state
hd_wait "the RM holding worker-2's total at its use" 10 hd_is "[1,1024]" total "$hd_nm2"
sync
assert_eq "$(item worker-2 '[.action, .reasonCode, .reason]')" \
	'["skip","rm-node-decommissioning","RM node state DECOMMISSIONING: the RM holds its total at its use while it drains; not resized"]' \
	"a draining NodeManager"
grep -q "^kilo-sync: node 'worker-2': skipped (rm-node-decommissioning): RM node state DECOMMISSIONING" sync.err ||
	fail "the line of a draining node: $(grep -v '^kilo-sync: [A-Z]* http' sync.err)"
assert_eq "$(grep -c "^kilo-sync: POST .*/$hd_nm2/" sync.err)" 0 "no resize of a draining node"
assert_eq "$(entry worker-2 hadoop-yarn | jq -c .resources)" \
	'{"kubernetes.io/batch-cpu":"1k","kubernetes.io/batch-memory":"1Gi"}' "worker-2's annotation while it drains"
#    the container ends: DECOMMISSIONED
hd_app_stop
hd_wait "worker-2 DECOMMISSIONED" 60 hd_is DECOMMISSIONED node_field "$hd_nm2" .state
set_origin worker-2 6000 12884901888
sync
assert_eq "$(item worker-2 '[.action, .reasonCode, .reason]')" \
	'["skip","rm-node-inactive","RM node state DECOMMISSIONED"]' "a decommissioned NodeManager"
assert_eq "$(grep -c "^kilo-sync: POST .*/$hd_nm2/" sync.err)" 0 "no resize of a decommissioned node"
assert_eq "$(item worker-1 .result)" '"unchanged"' "worker-1 beside it"
#    and back: the host no longer excluded and the NodeManager (it shut down
#    when decommissioned) started again registers RUNNING with the total of
#    its own configuration, which the next pass resizes to the plan again
hd_wait "worker-2's NodeManager shut down" 30 hd_nm_exited nm2
: >"$(jq -r .exclude "$hd_info")"
hd_rmadmin -refreshNodes >/dev/null 2>&1 || fail "rmadmin -refreshNodes"
hd_nm_start nm2
hd_wait "worker-2 RUNNING again" 60 hd_is RUNNING node_field "$hd_nm2" .state
sync
assert_eq "$rc" 0 "pass after the return ($(grep -v '^kilo-sync: [A-Z]* http' sync.err))"
assert_eq "$(item worker-2 '[.action, .result, .yarnTotal]')" \
	'["update","updated",{"vCores":4,"memoryMB":10240}]' "worker-2 back in service"
assert_eq "$(total "$hd_nm2")" "[4,10240]" "worker-2's total at the RM after the return"

# 6. an RM without the REST resize (a Hadoop before 3.3): refuse-proxy.py
#    sends the resize on to a path the real RM does not serve, so the answer
#    is the RM's own 404 (text/html); without clusters[].rmadmin the resize
#    fails naming the fallback, with it Hadoop's own `yarn rmadmin
#    -updateNodeResource` makes it, and the RM lists the new total
python3 "$KILO_TOP/test/hadoop/refuse-proxy.py" "$hd_rm1" "$tmpdir/proxy-url" 2>"$tmpdir/proxy.log" &
_px_pid=$!
at_exit "kill $_px_pid 2>/dev/null"
wait_nonempty "refuse-proxy" "$tmpdir/proxy-url"
px=$(cat "$tmpdir/proxy-url")
cat >old-rm.yaml <<EOC
clusters:
  - id: yarn-real
    rmUrls: [$px]
    timeoutMs: 5000
overCommitTimeoutMs: -1
EOC
sed "s|timeoutMs: 5000|timeoutMs: 5000\n    rmadmin: {command: $KILO_TOP/test/hadoop/yarn}|" old-rm.yaml >rmadmin.yaml
set_origin worker-1 7000 15032385536
sync old-rm.yaml
assert_eq "$rc" 1 "no resize endpoint, no fallback"
assert_eq "$(item worker-1 .result)" '"failed"' "worker-1 without the endpoint"
item worker-1 .error | grep -q 'HTTP 404: the RM has no node resource endpoint (older Hadoop); configure the rmadmin fallback' ||
	fail "error without the endpoint: $(item worker-1 .error)"
grep -q "^POST /ws/v1/cluster/nodes/$hd_nm1/resource-absent -> 404\$" proxy.log ||
	fail "the RM's own 404: $(cat proxy.log)"
p1=$(kilo-sync --config old-rm.yaml plan 2>/dev/null |
	jq -c '.items[] | select(.node == "worker-1") | [.yarnTotal.vCores, .yarnTotal.memoryMB]')
HADOOP_CONF_DIR=$hd_work/conf-client sync rmadmin.yaml
assert_eq "$rc" 0 "rmadmin fallback ($(grep -v '^kilo-sync: [A-Z]* http' sync.err))"
assert_eq "$(item worker-1 '[.result, .via, .error]')" '["updated","rmadmin",null]' "worker-1 via rmadmin"
assert_eq "$(total "$hd_nm1")" "$p1" "the total rmadmin set, as the RM lists it"
#    rmadmin that cannot reach an RM: killed after rmadmin.timeoutMs, its
#    JVM too; failed, and the RM total stays
sed "s|rmadmin: {command: \([^}]*\)}|rmadmin: {command: \1, timeoutMs: 4000}|" rmadmin.yaml >rmadmin-to.yaml
mkdir -p conf-nowhere
sed 's|<value>127[^<]*:[0-9]*</value>|<value>127.0.0.1:9</value>|g' "$hd_work/conf-client/yarn-site.xml" \
	>conf-nowhere/yarn-site.xml
cp "$hd_work/conf-client/core-site.xml" "$hd_work/conf-client/log4j.properties" conf-nowhere/ 2>/dev/null
set_origin worker-1 6500 15032385536
HADOOP_CONF_DIR=$tmpdir/conf-nowhere sync rmadmin-to.yaml
assert_eq "$rc" 1 "rmadmin timed out (the only action)"
assert_eq "$(item worker-1 .result)" '"failed"' "worker-1, rmadmin timed out"
item worker-1 .error | grep -q 'rmadmin -updateNodeResource .*: timed out after 4000 ms' ||
	fail "timeout error: $(item worker-1 .error)"
assert_eq "$(total "$hd_nm1")" "$p1" "the RM total after the timeout"
assert_eq "$(pgrep -f 'RMAdminCLI -updateNodeResource' | wc -l)" 0 "no rmadmin JVM left"
#    rmadmin refused by the RM (a node id it does not know): the RM's reason
