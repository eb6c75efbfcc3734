#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One pass of kilo-sync-loop with the environment of the kilo-sync
# Deployment and the config of its ConfigMap, against the fake API server
# (a Node with Batch resources and a NodeManager pod annotated the way
# yarn/bootstrap.sh does) and the fake RM pair: the pass exits 0, the RM
# gets the node's new total, the Node its thirdPartyAllocations, and
# kilo-sync.prom lands in the textfile dir the preStop hook cleans.  Only
# the host paths and the RM URLs are pointed at the test's own.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/manifests/manifests.inc"
command -v jq >/dev/null 2>&1 || skip "no jq"

jq '.metadata.annotations = {"yarn.hadoop.apache.org/node-id": "worker-1:8041"}' \
	"$FIX/k8s/pod-nodemanager.json" >"$tmpdir/pod.json"
python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/api.urls" \
	--load "$FIX/k8s/node-batch.json" --load "$tmpdir/pod.json" >/dev/null &
at_exit "kill $! 2>/dev/null"
echo '[{"id":"worker-1:8041","state":"RUNNING","memoryMB":8192,"vCores":8,"usedMemoryMB":2048,"usedVCores":2,"containers":2}]' \
	>"$tmpdir/rm-nodes.json"
python3 "$KILO_TOP/test/fake/fake_rm.py" --ignore-stdin --urls-file "$tmpdir/rm.urls" \
	--nodes-file "$tmpdir/rm-nodes.json" >/dev/null &
at_exit "kill $! 2>/dev/null"
wait_nonempty fakes "$tmpdir/api.urls" "$tmpdir/rm.urls"
api=$(jq -r .api "$tmpdir/api.urls")
cat >"$tmpdir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: fake, cluster: {server: "$api"}}]
users: [{name: kilo, user: {token: t}}]
contexts: [{name: fake, context: {cluster: fake, user: kilo}}]
current-context: fake
EOF

# the ConfigMap's config, the RM URLs made the fake pair's
jq -r '.[] | select(.kind == "ConfigMap" and .metadata.name == "kilo-sync") | .data["sync.yaml"]' \
	"$tmpdir/docs.json" |
	sed "s|^\( *\)- http://resource-manager.hadoop-yarn.svc:8088$|\1- $(jq -r .rm1 "$tmpdir/rm.urls")\n\1- $(jq -r .rm2 "$tmpdir/rm.urls")|" \
		>"$tmpdir/sync.yaml"
grep -q "$(jq -r .rm2 "$tmpdir/rm.urls")" "$tmpdir/sync.yaml" || fail "RM URL not replaced"
mkdir -p "$tmpdir/textfile"
set --
for kv in $(jq -r '.[] | select(.kind == "Deployment" and .metadata.name == "kilo-sync") |
	.spec.template.spec.containers[0].env[] | "\(.name)=\(.value | gsub(" "; "\u0001"))"' \
	"$tmpdir/docs.json"); do
	kv=$(printf '%s' "$kv" | tr '\001' ' ' |
		sed -e "s|/etc/kilo/sync.yaml|$tmpdir/sync.yaml|" \
			-e "s|/var/lib/kilo/textfile|$tmpdir/textfile|" \
			-e "s|^LOCK_FILE=.*|LOCK_FILE=$tmpdir/lock|" -e "s|^HEARTBEAT=.*|HEARTBEAT=$tmpdir/hb|" \
			-e "s|^STATE_DIR=.*|STATE_DIR=$tmpdir/state|")
	set -- "$@" "$kv"
done
env "$@" KUBECONFIG="$tmpdir/kubeconfig" PASSES=1 sh "$KILO_TOP/scripts/kilo-sync-loop" \
	2>"$tmpdir/log" || fail "loop exit $?: $(cat "$tmpdir/log")"
grep -q 'pass 1: exit 0 (ok)' "$tmpdir/log" || fail "pass: $(cat "$tmpdir/log")"
[ -f "$tmpdir/hb" ] || fail "no heartbeat"
# the Deployment sets STATE_DIR: the pass's SyncReport is kept, no failed one
jq -e '.kind == "SyncReport" and (.items | length) == 1' "$tmpdir/state/last-report.json" >/dev/null ||
	fail "kept report: $(cat "$tmpdir/state/last-report.json")"
[ ! -e "$tmpdir/state/last-failed-report.json" ] || fail "a failed report after an exit 0"

# the RM got the new total, the Node the allocation, the textfile the figures
curl -sS "$(jq -r .control "$tmpdir/rm.urls")/state" >"$tmpdir/rm-state.json" || fail "RM state"
jq -e '.resizes | length == 1' "$tmpdir/rm-state.json" >/dev/null ||
	fail "RM resizes: $(jq -c .resizes "$tmpdir/rm-state.json")"
curl -sS -H 'Authorization: Bearer t' "$api/api/v1/nodes/worker-1" |
	jq -r '.metadata.annotations["node.koordinator.sh/thirdPartyAllocations"]' >"$tmpdir/alloc"
grep -q '"name":"hadoop-yarn"' "$tmpdir/alloc" || fail "thirdPartyAllocations: $(cat "$tmpdir/alloc")"
prom=$tmpdir/textfile/kilo-sync.prom
grep -Eq '^kilo_sync_yarn_total_vcores\{node="worker-1",cluster="default"\} [1-9][0-9]*$' "$prom" ||
	fail "kilo-sync.prom: $(cat "$prom")"
grep -qx 'kilo_sync_yarn_used_vcores{node="worker-1",cluster="default"} 2' "$prom" ||
	fail "used vCores: $(grep used_vcores "$prom")"
grep -qx 'kilo_sync_items{result="updated"} 1' "$prom" || fail "updated: $(grep items "$prom")"
exit 0
