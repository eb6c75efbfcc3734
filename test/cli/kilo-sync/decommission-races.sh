#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# lifecycle.drain decommission against the fakes, when a step fails or a
# plan is applied late: the exclude list never holds a host of kilo's that
# the Node's record does not say kilo excluded (else nothing takes it off:
# the RM decommissions an active node, and its DaemonSet restarts the
# NodeManager into SHUTDOWN for good).  The set-up is decommission.sh's.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1

LC_CONFIG=$tmpdir/dc.yaml
. "$KILO_TOP/test/cli/kilo-sync/lifecycle.inc"
HOST=${SYNC_NM_ID%:*}
printf 'old-host\n' >"$tmpdir/yarn.exclude"
yarn_standin
cat >"$tmpdir/dc.yaml" <<EOF
clusters:
  - id: yarn-cluster-1
    rmUrls: [$rm1, $rm2]
    timeoutMs: 5000
    confirmTimeoutMs: 1000
    rmadmin: {command: $tmpdir/yarn, timeoutMs: 20000}
    exclude: {file: $tmpdir/yarn.exclude}
overCommitTimeoutMs: -1
kubernetes: {pageSize: 50}
lifecycle:
  drain: decommission
  decommissionTimeoutSeconds: 1800
  holdDownMs: 60000
  holdUpMs: 120000
  nodeLabel: $LABEL=true
EOF
at() { date -u -d "@$((1796054400 + $1))" +%Y-%m-%dT%H:%M:%SZ; }
apply() { # PLAN: applied now; rc in $rc
	rc=0
	kilo-sync apply --config "$tmpdir/dc.yaml" <"$1" >"$tmpdir/report.json" \
		2>"$tmpdir/sync.err" || rc=$?
}
rm_state() { rm_get /state | jq -r ".nodes[] | select(.id == \"$SYNC_NM_ID\") | .state"; }
listed() { grep -c -x "$HOST" "$tmpdir/yarn.exclude"; }

kubectl label node worker-1 "$LABEL=true" >/dev/null || fail "kubectl label"
pass 0
assert_eq "$rc" 0 "first pass ($(cat "$tmpdir/sync.err"))"

# 1. the refresh fails after the host went on the list, then the pool
#    returns: the host must come off the list again (the record says kilo
#    put it there), not stay excluded under an active record
origin 7500
pass 10
: >"$tmpdir/yarn.fail"
pass 70
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.result, .lifecycle.errorCode]')" \
	'["draining","failed","decommission-failed"]' "refresh failed"
assert_eq "$(record | jq -c '[.state, .excluded.host]')" "[\"draining\",\"$HOST\"]" \
	"the record says kilo put the host on the list before it is there"
rm -f "$tmpdir/yarn.fail"
origin 37480
pass 100
pass 230
assert_eq "$(record | jq -c '[.state, .excluded]')" '["active",null]' "back, drain cancelled"
assert_eq "$(listed)" 0 "the host is off the exclude list again"
assert_eq "$(rm_state)" RUNNING "the RM runs it"
assert_eq "$(head -n 1 "$tmpdir/yarn.exclude")" old-host "the operator's line kept"

# 2. a plan made as the drain began, applied after the node drained and
#    came back: it must not put the host on the list again
origin 7500
pass 300
KILO_NOW=$(at 360) kilo-sync plan --config "$tmpdir/dc.yaml" >"$tmpdir/plan.json" 2>/dev/null
assert_eq "$(jq -c '.items[] | select(.node == "worker-1") | .lifecycle.decommission' "$tmpdir/plan.json")" \
	'"exclude"' "the plan excludes the host"
pass 360
assert_eq "$(rm_state)" DECOMMISSIONING "drained by a live pass"
origin 37480
pass 400
pass 530
assert_eq "$(record | jq -r .state)" active "drain cancelled"
assert_eq "$(listed)" 0 "off the list"
apply "$tmpdir/plan.json"
assert_eq "$(w1 '[.lifecycle.result, .lifecycle.errorCode]')" '["failed","annotation-conflict"]' \
	"the stale plan is refused"
assert_eq "$(listed)" 0 "the stale plan did not exclude the host"
assert_eq "$(rm_state)" RUNNING "nor did the RM decommission it"

# 3. a plan that asks a draining node's RM again (the record unchanged: no
#    record action), applied after the node went offline and came back: it
#    must not exclude the host of an active node either
origin 7500
pass 600
pass 660
assert_eq "$(rm_state)" DECOMMISSIONING "drained"
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"RUNNING\",\"memoryMB\":40960,\"vCores\":20,\"usedMemoryMB\":0,\"usedVCores\":0,\"containers\":0}]"
KILO_NOW=$(at 670) kilo-sync plan --config "$tmpdir/dc.yaml" >"$tmpdir/plan3.json" 2>/dev/null
assert_eq "$(jq -c '.items[] | select(.node == "worker-1") | [.lifecycle.action, .lifecycle.decommission]' "$tmpdir/plan3.json")" \
	'["none","exclude"]' "the plan asks again"
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"DECOMMISSIONED\",\"memoryMB\":0,\"vCores\":0,\"usedMemoryMB\":0,\"usedVCores\":0,\"containers\":0}]"
pass 680
assert_eq "$(record | jq -r .state)" offline "offline"
origin 37480
pass 700
pass 830
assert_eq "$(record | jq -r .state)" returning "returning"
assert_eq "$(listed)" 0 "off the list"
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"RUNNING\",\"memoryMB\":40960,\"vCores\":20,\"usedMemoryMB\":0,\"usedVCores\":0,\"containers\":0}]"
pass 840
assert_eq "$(record | jq -r .state)" active "active again"
apply "$tmpdir/plan3.json"
assert_eq "$(w1 '[.lifecycle.result, .lifecycle.errorCode]')" '["failed","annotation-conflict"]' \
	"the stale plan is refused"
assert_eq "$(listed)" 0 "the stale plan did not exclude the host"
assert_eq "$(rm_state)" RUNNING "nor did the RM decommission it"

# 4. an exclude "file" that is a FIFO (or a device) is refused at once, not
#    read (a FIFO without a writer blocked the pass for good)
mv "$tmpdir/yarn.exclude" "$tmpdir/yarn.exclude.saved"
mkfifo "$tmpdir/yarn.exclude"
origin 7500
pass 900
rc=0
KILO_NOW=$(at 960) timeout 20 kilo-sync --config "$tmpdir/dc.yaml" >"$tmpdir/report.json" \
	2>"$tmpdir/sync.err" || rc=$?
assert_eq "$rc" 3 "the pass ends ($(cat "$tmpdir/sync.err"))"
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.result, .lifecycle.errorCode]')" \
	'["draining","failed","exclude-list-failed"]' "a FIFO is no exclude list"
grep -q "not a regular file" "$tmpdir/sync.err" || fail "why: $(cat "$tmpdir/sync.err")"
rm -f "$tmpdir/yarn.exclude"
mv "$tmpdir/yarn.exclude.saved" "$tmpdir/yarn.exclude"

# 5. a host the operator put on the list is the operator's: kilo's drain
#    records no exclusion of its own, and its return leaves the host listed
#    (it was taken off on return; from a review)
origin 37480
pass 1000
pass 1130
assert_eq "$(record | jq -c '[.state, .excluded]')" '["active",null]' "back"
printf '%s\n' "$HOST" >>"$tmpdir/yarn.exclude"
origin 7500
pass 1200
pass 1260
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.result, .lifecycle.decommissionResult]')" \
	'["draining","recorded","excluded"]' "drained by the operator's listing"
assert_eq "$(record | jq -c '[.state, .excluded]')" '["draining",null]' \
	"kilo claims no exclusion it did not make"
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"DECOMMISSIONED\",\"memoryMB\":0,\"vCores\":0,\"usedMemoryMB\":0,\"usedVCores\":0,\"containers\":0}]"
pass 1270
assert_eq "$(record | jq -r .state)" offline "offline"
origin 37480
pass 1300
pass 1430
assert_eq "$(w1 '[.lifecycle.state, .lifecycle.decommission]')" '["returning",null]' \
	"returning, no include"
assert_eq "$(listed)" 1 "the operator's host stays listed"
exit 0
