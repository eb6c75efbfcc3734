# SPDX-License-Identifier: Apache-2.0
# An operator's ordinary mistakes, each explained in the log of the loop
# that hit it (kubectl logs of its pod), with kilo-sync and the node tools
# as built: the ConfigMap given as kilo-sync's config, a misspelled field,
# a NodeManager pod naming a node id the RM does not know, the RM down, a
# relabelled NodeManager DaemonSet, and a hadoop-yarn hierarchy that is not
# there.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
export KUBECONFIG=$tmpdir/kubeconfig
sync_loop() { # LOG ARGS...: one pass of kilo-sync-loop with these kilo-sync arguments
	_log=$1
	shift
	INTERVAL=1 PASSES=1 LOCK_FILE=$tmpdir/lock HEARTBEAT='' STATE_DIR=$tmpdir/state \
		KILO_SYNC=kilo-sync KILO_SYNC_ARGS="$*" sh "$KILO_TOP/scripts/kilo-sync-loop" 2>"$_log" ||
		fail "kilo-sync-loop exited $?: $(cat "$_log")"
}
logged() { # LOG PATTERN WHAT: the log has a line of the loop's with PATTERN
	grep -q "^[0-9TZ:-]* kilo-sync-loop: .*$2" "$1" || fail "$3 not explained: $(cat "$1")"
}

# 1. the ConfigMap, not the sync.yaml in its data
sync_loop "$tmpdir/l1" --config "$KILO_TOP/manifests/kilo/kilo-sync-config.yaml"
logged "$tmpdir/l1" "kind: a ConfigMap, not kilo-sync's config: give the file in its data (key sync.yaml" \
	"the wrong file"
logged "$tmpdir/l1" "pass 1: exit 2 (bad config or input" "the wrong file's exit"

# 2. a misspelled field: refused at its line, with the field meant
sed 's/rmUrls:/rmUrl:/' "$tmpdir/kilo-sync.yaml" >"$tmpdir/typo.yaml"
sync_loop "$tmpdir/l2" --config "$tmpdir/typo.yaml"
logged "$tmpdir/l2" "typo.yaml:3:5: clusters\[0\].rmUrl: unknown field (did you mean rmUrls?)" "a typo"

# 3. the NodeManager registered under another port than its pod says
rm_post /nodes "[{\"id\":\"${SYNC_NM_ID%:*}:45454\",\"state\":\"RUNNING\",\"memoryMB\":8192,\"vCores\":8}]"
sync_loop "$tmpdir/l3" --config "$tmpdir/kilo-sync.yaml"
logged "$tmpdir/l3" "node 'worker-1': skipped (unknown-node-id): node id $SYNC_NM_ID unknown to the RM of cluster 'yarn-cluster-1' (candidates: ${SYNC_NM_ID%:*}:45454)" \
	"a wrong node id"
#    and no NodeManager pod claims what the RM lists: said once for the cluster
logged "$tmpdir/l3" "kilo-sync: warning: cluster 'yarn-cluster-1': the RM lists 1 active NodeManager (${SYNC_NM_ID%:*}:45454), and the node ids of its 1 NodeManager pod name none of them: their totals are not managed; check the pods' yarn.hadoop.apache.org/node-id (their items' reason in the report), and nodeManagerSelector (app.kubernetes.io/component=node-manager)" \
	"NodeManagers no pod's id names"
jq -e '.items[] | select(.node == "worker-1") | .reasonCode == "unknown-node-id"' \
	"$tmpdir/state/last-report.json" >/dev/null || fail "the kept report: $(cat "$tmpdir/state/last-report.json")"

# 4. no RM answers: the cluster's line says why, the pass is a temporary failure
rm_post /config '{"active":null,"noActive":"retrying"}'
sync_loop "$tmpdir/l4" --config "$tmpdir/kilo-sync.yaml"
logged "$tmpdir/l4" "cluster 'yarn-cluster-1': unreachable (rm-unreachable), 1 node skipped for it: cluster yarn-cluster-1: no active RM" \
	"the RM down"
logged "$tmpdir/l4" "pass 1: exit 75 (temporary failure)" "the RM down's exit"
[ -s "$tmpdir/state/last-failed-report.json" ] || fail "no failed report kept"

# 5. the NodeManager DaemonSet relabelled: no pod matches nodeManagerSelector,
#    and the RM's NodeManagers go unmanaged: said for the cluster
rm_post /config '{"active":"rm1"}'
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"RUNNING\",\"memoryMB\":8192,\"vCores\":8}]"
curl -sf -X PATCH -H 'Content-Type: application/merge-patch+json' \
	-d '{"metadata":{"labels":{"app.kubernetes.io/component":"nodemanager"}}}' \
	"$api/api/v1/namespaces/hadoop-yarn/pods/yarn-nm-0" >/dev/null || fail "relabel the NodeManager pod"
sync_loop "$tmpdir/l6" --config "$tmpdir/kilo-sync.yaml"
logged "$tmpdir/l6" "kilo-sync: warning: cluster 'yarn-cluster-1': the RM lists 1 active NodeManager ($SYNC_NM_ID) and no NodeManager pod claims any: their totals are not managed; check nodeManagerSelector (app.kubernetes.io/component=node-manager) and nodeManagerNamespaces" \
	"a relabelled NodeManager DaemonSet"

# 6. the node loop pointed at a hadoop-yarn hierarchy that is not there
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1 >/dev/null
#    (a pass with a failed step: exit 1 once PASSES are done)
rc=0
INTERVAL=1 PASSES=1 STATE_DIR="$tmpdir/node" TEXTFILE_DIR='' LOCK_FILE="$tmpdir/nlock" HEARTBEAT='' \
	NODE_ARGS="--sysroot $tmpdir/t --hierarchy /kubepods/besteffort/no-such-yarn" \
	COPILOT_ARGS="--no-nm" sh "$KILO_TOP/scripts/node-qos-loop" 2>"$tmpdir/l5" || rc=$?
assert_eq "$rc" 1 "node-qos-loop exit with a failed step ($(cat "$tmpdir/l5"))"
for step in usage:node-usage list:yarn-copilot; do
	grep -q "node-qos-loop: pass 1: step ${step%%:*} failed with exit 1: ${step#*:}: hadoop-yarn cgroup '/kubepods/besteffort/no-such-yarn' not found, .*check --hierarchy and --cgroup-driver\$" \
		"$tmpdir/l5" || fail "the wrong hierarchy not explained by step ${step%%:*}: $(cat "$tmpdir/l5")"
done
echo ok
