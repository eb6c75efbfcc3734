#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync against the fake API server and the fake RM pair: a full pass,
# a second pass that sends nothing, RM failover and restart, a concurrent
# annotation writer (409), --dry-run, unreachable clusters, the metrics.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1

# sync [ARGS...]: one pass with the default config; exit code in $rc
sync() {
	rc=0
	kilo-sync --config "$tmpdir/kilo-sync.yaml" "$@" >"$tmpdir/report.json" \
		2>"$tmpdir/sync.err" || rc=$?
	cat "$tmpdir/sync.err"
}
# sync_with CONFIG: one pass with that config, quietly; exit code in $rc
sync_with() {
	rc=0
	kilo-sync --config "$1" >"$tmpdir/report.json" 2>"$tmpdir/sync.err" || rc=$?
}
item() { jq -c --arg n "$1" ".items[] | select(.node == \$n) | $2" "$tmpdir/report.json"; }
resizes() { rm_get /state | jq -c '[.resizes[] | [.rm, .node, .vCores, .memory, .overCommitTimeout, .overCommitTimeoutSent]]'; }

# 1. the full pass: worker-1 origin 37480m/112431567289 B minus 4000m +
#    6 x 500m and 6871318528 B + 6 x 512 MiB -> 30 vCores, 97598 MB
ann2=$(node_ann worker-2)
sync --textfile-dir "$tmpdir"
assert_eq "$rc" 0 "first pass exit"
assert_eq "$(resizes)" "[[\"rm1\",\"$SYNC_NM_ID\",30,97598,30000,true]]" "resize sent"
assert_eq "$(rm_get /state | jq -c ".nodes[] | select(.id == \"$SYNC_NM_ID\") | [.vCores, .memoryMB]")" \
	"[30,97598]" "RM total"
assert_eq "$(item worker-1 '[.result, .via, .annotation.result]')" '["updated","rest","annotated"]' \
	"worker-1 results"
assert_eq "$(entry worker-1 hadoop-yarn)" \
	'{"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"2k","kubernetes.io/batch-memory":"4Gi"}}' \
	"worker-1 annotation: YARN used 2 vCores / 4096 MB"
# worker-2: its cluster is not configured, nothing touched
assert_eq "$(item worker-2 '[.action, .reason, .annotation.action]')" \
	"[\"skip\",\"no RM node list for cluster 'c2' (live: not in clusters; --from: not given)\",\"none\"]" "worker-2"
assert_eq "$(node_ann worker-2)" "$ann2" "worker-2 annotation"
# worker-3: no NodeManager, hadoop-yarn zeroed, the other tenant kept
assert_eq "$(entry worker-3 hadoop-yarn | jq -c .resources)" \
	'{"kubernetes.io/batch-cpu":"0","kubernetes.io/batch-memory":"0"}' "worker-3 zeroed"
assert_eq "$(entry worker-3 other-tenant | jq -c .resources)" \
	'{"kubernetes.io/batch-cpu":"1k","kubernetes.io/batch-memory":"1Gi"}' "worker-3 other entry"
# the pods came in pages (page size 2), every PATCH carried a resourceVersion
[ "$(jq -s '[.[] | select(.path == "/api/v1/pods" and (.query | contains("continue=")))] | length' "$applog")" -ge 3 ] ||
	fail "the pod listing was not paged"
assert_eq "$(jq -cs '[.[] | select(.method == "PATCH") | .body | fromjson | .metadata.resourceVersion | type] | unique' "$applog")" \
	'["string"]' "PATCH with resourceVersion"
grep -q '^kilo-sync: 3 nodes, 11 pods, 1 updated, 2 annotated, 2 skipped, 0 failed, 0 of 1 clusters unreachable in ' \
	"$tmpdir/sync.err" || fail "summary line"
promtool check metrics <"$tmpdir/kilo-sync.prom" >"$tmpdir/promtool.out" 2>&1 ||
	fail "promtool: $(cat "$tmpdir/promtool.out")"
grep -q "^kilo_sync_yarn_total_vcores{node=\"worker-1\",cluster=\"yarn-cluster-1\"} 30\$" \
	"$tmpdir/kilo-sync.prom" || fail "total metric"
grep -q "^kilo_sync_yarn_used_memory_bytes{node=\"worker-1\",cluster=\"yarn-cluster-1\"} 4294967296\$" \
	"$tmpdir/kilo-sync.prom" || fail "used metric"
grep -q '^kilo_sync_items{result="updated"} 1$' "$tmpdir/kilo-sync.prom" || fail "items metric"
grep -q '^kilo_sync_pass_success 1$' "$tmpdir/kilo-sync.prom" || fail "success metric"
#    what became of each node, and why, in the metrics and the log
assert_eq "$(grep '^kilo_sync_node_state{' "$tmpdir/kilo-sync.prom")" \
	'kilo_sync_node_state{node="worker-1",cluster="yarn-cluster-1",state="updated",reason="total-differs"} 1
kilo_sync_node_state{node="worker-2",cluster="c2",state="skipped",reason="cluster-not-configured"} 1
kilo_sync_node_state{node="worker-3",cluster="",state="updated",reason="no-nodemanager"} 1' "node state metric"
assert_eq "$(grep '^kilo_sync_cluster_reachable' "$tmpdir/kilo-sync.prom")" \
	'kilo_sync_cluster_reachable{cluster="yarn-cluster-1"} 1' "cluster reachable metric"
assert_eq "$(grep '^kilo_sync_rm_nodes_unclaimed' "$tmpdir/kilo-sync.prom")" \
	'kilo_sync_rm_nodes_unclaimed{cluster="yarn-cluster-1"} 1' "RM nodes no pod claims (other-host)"
grep -q "no NodeManager pod claims any" "$tmpdir/sync.err" && fail "warned with one of two claimed"
assert_eq "$(grep '^kilo_sync_yarn_nodes{' "$tmpdir/kilo-sync.prom")" \
	'kilo_sync_yarn_nodes{cluster="yarn-cluster-1",state="RUNNING"} 1' "nodes by RM state metric"
#    (worker-3's share zeroed: no problem, no line)
assert_eq "$(grep "^kilo-sync: node " "$tmpdir/sync.err")" \
	"kilo-sync: node 'worker-2': skipped (cluster-not-configured): no RM node list for cluster 'c2' (live: not in clusters; --from: not given)" "node lines"

# 2. nothing changed: the second pass reads and sends nothing
posts=$(count_rm_posts) patches=$(count_api PATCH /)
sync
assert_eq "$rc" 0 "second pass exit"
assert_eq "$(count_rm_posts)" "$posts" "RM writes in the second pass"
assert_eq "$(count_api PATCH /)" "$patches" "API writes in the second pass"
assert_eq "$(item worker-1 '[.action, .result, .annotation.action]')" '["none","unchanged","none"]' \
	"second pass item"

# 3. failover: rm2 becomes active with the same totals -> nothing to write,
#    then it restarts (resizes lost) -> re-asserted, on rm2 only
rm_post /failover '{}'
sync
assert_eq "$(count_rm_posts)" "$posts" "RM writes after a failover that kept the totals"
rm_post /restart '{}'
sync
assert_eq "$rc" 0 "pass after the RM restart"
assert_eq "$(resizes | jq -c '.[-1]')" "[\"rm2\",\"$SYNC_NM_ID\",30,97598,30000,true]" \
	"re-asserted on the new active"
assert_eq "$(rm_get /log | jq -c '[.[] | select(.method == "POST") | .role] | unique')" '["ACTIVE"]' \
	"every write went to an active RM"

# 4. a concurrent writer: the annotation PATCH is held 1.5 s; meanwhile
#    another tenant's entry is written, so the held PATCH meets a 409, the
#    Node is read again and the hadoop-yarn entry merged into the new value
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"RUNNING\",\"memoryMB\":30,\"vCores\":30,\"usedMemoryMB\":8192,\"usedVCores\":4}]"
rm_post /restart '{}'
api_ctl POST /faults '{"method":"PATCH","path":"/api/v1/nodes/worker-1","delayMs":1500,"count":1}'
gets=$(count_api GET /api/v1/nodes/worker-1)
sync &
spid=$!
i=0
while [ "$(count_api GET /api/v1/nodes/worker-1)" = "$gets" ]; do
	i=$((i + 1))
	[ $i -lt 200 ] || fail "kilo-sync never read worker-1"
	sleep 0.05
done
sleep 0.3
other='{"allocations":[{"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"2k","kubernetes.io/batch-memory":"4Gi"}},{"name":"spark-operator","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"7k","kubernetes.io/batch-memory":"7Gi"}}]}'
curl -sf -X PATCH -H 'Content-Type: application/merge-patch+json' \
	-d "$(jq -nc --arg v "$other" '{metadata: {annotations: {"node.koordinator.sh/thirdPartyAllocations": $v}}}')" \
	"$api/api/v1/nodes/worker-1" >/dev/null || fail "concurrent write"
wait $spid
assert_eq "$(jq -s '[.[] | select(.method == "PATCH" and .path == "/api/v1/nodes/worker-1") | .status] | .[-3:]' "$applog" | jq -c .)" \
	'[200,409,200]' "the other writer, our conflict, our retry"
assert_eq "$(entry worker-1 hadoop-yarn | jq -c .resources)" \
	'{"kubernetes.io/batch-cpu":"4k","kubernetes.io/batch-memory":"8Gi"}' "hadoop-yarn after the retry"
assert_eq "$(entry worker-1 spark-operator | jq -c .resources)" \
	'{"kubernetes.io/batch-cpu":"7k","kubernetes.io/batch-memory":"7Gi"}' "the other writer's entry kept"

# 5. --dry-run: a restart makes a resize due, and YARN's use changed: planned, not sent
rm_post /nodes "[{\"id\":\"$SYNC_NM_ID\",\"state\":\"RUNNING\",\"memoryMB\":30,\"vCores\":30,\"usedMemoryMB\":1024,\"usedVCores\":1}]"
posts=$(count_rm_posts) patches=$(count_api PATCH /)
sync --dry-run
assert_eq "$rc" 0 "dry run exit"
assert_eq "$(item worker-1 '[.action, .result, .annotation.action, .annotation.result]')" \
	'["update","planned","annotate","planned"]' "dry-run item"
assert_eq "$(jq .dryRun "$tmpdir/report.json")" true "dryRun"
assert_eq "$(count_rm_posts)" "$posts" "RM writes in a dry run"
assert_eq "$(count_api PATCH /)" "$patches" "API writes in a dry run"
grep -q '^kilo-sync: dry run: ' "$tmpdir/sync.err" || fail "dry-run summary"

# 6. unreachable clusters: c2 down beside a working cluster -> 3; only c2 -> 75;
#    worker-2's annotation never changes
rc=0
kilo-sync --config "$tmpdir/with-c2.yaml" >"$tmpdir/report.json" 2>"$tmpdir/sync.err" || rc=$?
assert_eq "$rc" 3 "exit with one of two clusters down"
assert_eq "$(item worker-2 '[.action, .annotation.action]')" '["skip","none"]' "worker-2 skipped"
item worker-2 .reason | grep -q "^\"cluster 'c2' unreachable: " || fail "worker-2 reason: $(item worker-2 .reason)"
assert_eq "$(item worker-1 .result)" '"updated"' "worker-1 still synced"
grep -q '1 of 2 clusters unreachable' "$tmpdir/sync.err" || fail "summary: $(cat "$tmpdir/sync.err")"
#    one line for the cluster, none for the node skipped for it
grep -q "^kilo-sync: cluster 'c2': unreachable (rm-unreachable), 1 node skipped for it: cluster c2: no active RM" \
	"$tmpdir/sync.err" || fail "cluster line: $(cat "$tmpdir/sync.err")"
assert_eq "$(item worker-2 .reasonCode)" '"rm-unreachable"' "worker-2 reasonCode"
grep -q "^kilo-sync: node 'worker-2'" "$tmpdir/sync.err" && fail "a line for worker-2: $(cat "$tmpdir/sync.err")"
posts=$(count_rm_posts) patches=$(count_api PATCH /)
rc=0
kilo-sync --config "$tmpdir/only-c2.yaml" --textfile-dir "$tmpdir" >"$tmpdir/report.json" \
	2>"$tmpdir/sync.err" || rc=$?
assert_eq "$rc" 75 "exit with every cluster down"
assert_eq "$(count_rm_posts)" "$posts" "RM writes with every cluster down"
assert_eq "$(count_api PATCH /api/v1/nodes/worker-2)" 0 "worker-2 never patched"
assert_eq "$(node_ann worker-2)" "$ann2" "worker-2 annotation at the end"
grep -q '^kilo_sync_clusters_unreachable 1$' "$tmpdir/kilo-sync.prom" || fail "unreachable metric"
assert_eq "$(grep '^kilo_sync_cluster_reachable' "$tmpdir/kilo-sync.prom")" \
	'kilo_sync_cluster_reachable{cluster="c2"} 0' "cluster unreachable metric"
promtool check metrics <"$tmpdir/kilo-sync.prom" >"$tmpdir/promtool.out" 2>&1 ||
	fail "promtool: $(cat "$tmpdir/promtool.out")"
rc=0
kilo-sync plan --config "$tmpdir/with-c2.yaml" >/dev/null 2>&1 || rc=$?
assert_eq "$rc" 3 "plan exit with one of two clusters down"

# 7. an RM without the resize endpoint: the resize fails with a message
#    naming the fallback; with clusters[].rmadmin the yarn command is run
rm_post /config '{"endpoint":"missing404"}'
rm_post /restart '{}'
sync
assert_eq "$rc" 1 "exit when the only action failed"
item worker-1 .error | grep -q 'no node resource endpoint.*configure the rmadmin fallback' ||
	fail "error: $(item worker-1 .error)"
assert_eq "$(item worker-1 '[.reasonCode, .errorCode]')" '["total-differs","resize-unsupported"]' \
	"codes of a resize the RM cannot take"
grep -q "^kilo-sync: node 'worker-1': failed (resize-unsupported): cluster yarn-cluster-1: .*no node resource endpoint" \
	"$tmpdir/sync.err" || fail "failed line: $(cat "$tmpdir/sync.err")"
printf '#!/bin/sh\necho "$*" >>"%s/yarn.calls"\n' "$tmpdir" >"$tmpdir/yarn"
chmod +x "$tmpdir/yarn"
#    a yarn command that exits 0 but changes nothing: never "updated"
sed "s|timeoutMs: 5000|timeoutMs: 5000\n    confirmTimeoutMs: 600\n    rmadmin: {command: $tmpdir/yarn}|" \
	"$tmpdir/kilo-sync.yaml" >"$tmpdir/rmadmin.yaml"
rc=0
kilo-sync --config "$tmpdir/rmadmin.yaml" >"$tmpdir/report.json" 2>"$tmpdir/sync.err" || rc=$?
assert_eq "$rc" 1 "exit when rmadmin exited 0 but the RM kept its total"
assert_eq "$(cat "$tmpdir/yarn.calls")" "rmadmin -updateNodeResource $SYNC_NM_ID 97598 30 30000" \
	"rmadmin arguments"
assert_eq "$(item worker-1 '[.result, .via, .errorCode]')" '["failed","rmadmin","resize-not-confirmed"]' \
	"rmadmin without effect"
assert_eq "$(item worker-1 .error)" \
	"\"cluster yarn-cluster-1: node $SYNC_NM_ID: the RM accepted total {30 vCores, 97598 MB} via rmadmin but still lists {30 vCores, 30 MB} after 600 ms (confirmTimeoutMs)\"" \
	"the unconfirmed resize"
#    one that does what `yarn rmadmin -updateNodeResource` does: updated
printf '#!/bin/sh\necho "$*" >>"%s/yarn.calls"\ncurl -sf -X POST -d "{\\"node\\":\\"$3\\",\\"memory\\":$4,\\"vCores\\":$5,\\"overCommitTimeout\\":$6}" %s/rmadmin >/dev/null\n' \
	"$tmpdir" "$rmctl" >"$tmpdir/yarn"
rc=0
kilo-sync --config "$tmpdir/rmadmin.yaml" >"$tmpdir/report.json" 2>"$tmpdir/sync.err" || rc=$?
assert_eq "$rc" 0 "exit with the rmadmin fallback ($(cat "$tmpdir/sync.err"))"
assert_eq "$(item worker-1 '[.result, .via, .error]')" '["updated","rmadmin",null]' "via rmadmin"
assert_eq "$(resizes | jq -c '.[-1]')" "[\"rmadmin\",\"$SYNC_NM_ID\",30,97598,30000,true]" \
	"the resize the yarn command made"

# 7b. a 200 for a resize the RM never applies (a failover race): failed
rm_post /config '{"endpoint":"present","acceptWithoutApply":true}'
rm_post /restart '{}'
rc=0
kilo-sync --config "$tmpdir/rmadmin.yaml" >"$tmpdir/report.json" 2>"$tmpdir/sync.err" || rc=$?
assert_eq "$rc" 1 "exit when the RM accepted but did not apply"
assert_eq "$(item worker-1 '[.result, .via]')" '["failed","rest"]' "accepted, not applied"
item worker-1 .error | grep -q 'via rest but still lists {30 vCores, 30 MB} after 600 ms (confirmTimeoutMs)"$' ||
	fail "error: $(item worker-1 .error)"
grep -q ' 0 updated, .* 1 failed, ' "$tmpdir/sync.err" || fail "summary: $(cat "$tmpdir/sync.err")"
#    from a review: a node answered for another id is not this one; a
#    read-back that does not answer costs one request (and the client's one
#    retry), not one timeout per node and round
node_path=/ws/v1/cluster/nodes/${SYNC_NM_ID%%.*} # a prefix: before anything escaped
rm_post /fault "{\"rm\":\"any\",\"method\":\"GET\",\"path\":\"$node_path\",\"count\":100,
	\"body\":{\"node\":{\"id\":\"someone-else:8041\",\"state\":\"RUNNING\",\"numContainers\":0,
	\"usedMemoryMB\":0,\"availMemoryMB\":97598,\"usedVirtualCores\":0,\"availableVirtualCores\":30,
	\"totalResource\":{\"memory\":97598,\"vCores\":30}}}}"
# gets_of: the GETs of that node the RMs got so far
gets_of() { rm_get /log | jq --arg p "$node_path" '[.[] | select(.method == "GET" and (.path | startswith($p)))] | length'; }
rm_post /restart '{}'
sync_with "$tmpdir/rmadmin.yaml"
assert_eq "$(item worker-1 .result)" '"failed"' "the RM answered another node"
item worker-1 .error | grep -q 'via rest but does not list the node after 600 ms (confirmTimeoutMs)"$' ||
	fail "error for another node's answer: $(item worker-1 .error)"
rm_post /fault '{"clear":true}'
gets=$(gets_of)
rm_post /fault "{\"rm\":\"any\",\"method\":\"GET\",\"path\":\"$node_path\",\"delayMs\":3000,\"count\":100}"
rm_post /restart '{}'
sync_with "$tmpdir/rmadmin.yaml"
assert_eq "$(item worker-1 .result)" '"failed"' "a read-back that does not answer"
item worker-1 .error | grep -q 'via rest but could not be read back after 600 ms (confirmTimeoutMs): ' ||
	fail "error for a silent read-back: $(item worker-1 .error)"
assert_eq "$(gets_of)" "$((gets + 2))" "read-back requests to a silent RM (one GET, retried once by the client)"
rm_post /fault '{"clear":true}'
rm_post /config '{"acceptWithoutApply":false}'

# 7c. the codes say what the RM answered (from a review): an RM that
#     refuses kilo-sync is rm-refused, one that fails rm-error, a resize the
#     active RM answers with a 500 resize-refused
rm_post /config '{"requireUserName":true}'
sync_with "$tmpdir/kilo-sync.yaml"
grep -q "^kilo-sync: cluster 'yarn-cluster-1': unreachable (rm-refused), 1 node skipped for it: .*HTTP 401" \
	"$tmpdir/sync.err" || fail "refused: $(cat "$tmpdir/sync.err")"
rm_post /config '{"requireUserName":false}'
rm_post /fault '{"rm":"any","method":"GET","path":"/ws/v1/cluster/nodes","status":500,"count":100}'
sync_with "$tmpdir/kilo-sync.yaml"
grep -q "^kilo-sync: cluster 'yarn-cluster-1': unreachable (rm-error), 1 node skipped for it: .*http://127.0.0.1:[0-9]*: /ws/v1/cluster/nodes: HTTP 500" \
	"$tmpdir/sync.err" || fail "RM error: $(cat "$tmpdir/sync.err")"
assert_eq "$(item worker-1 .reasonCode)" '"rm-error"' "worker-1 skipped for the RM's 500"
rm_post /fault '{"clear":true}'
rm_post /restart '{}'
rm_post /fault '{"rm":"any","method":"POST","path":"/ws/v1/cluster/nodes","status":500,"count":100}'
sync_with "$tmpdir/kilo-sync.yaml"
assert_eq "$(item worker-1 '[.result, .errorCode]')" '["failed","resize-refused"]' "a resize answered 500"
rm_post /fault '{"clear":true}'

# 8. plan, then apply the saved plan (the review-then-perform example of kilo-sync(1))
rm_post /config '{"endpoint":"present"}'
rm_post /restart '{}'
posts=$(count_rm_posts)
kilo-sync plan --config "$tmpdir/kilo-sync.yaml" >"$tmpdir/plan.json" 2>/dev/null ||
	fail "plan exit $?"
assert_eq "$(count_rm_posts)" "$posts" "RM writes of plan"
rc=0
kilo-sync apply --config "$tmpdir/kilo-sync.yaml" <"$tmpdir/plan.json" >"$tmpdir/report.json" \
	2>"$tmpdir/sync.err" || rc=$?
assert_eq "$rc" 0 "apply exit"
assert_eq "$(item worker-1 '[.result, .via]')" '["updated","rest"]' "applied"
assert_eq "$(resizes | jq -c '.[-1]')" "[\"rm2\",\"$SYNC_NM_ID\",30,97598,30000,true]" \
	"resize from the saved plan"
echo ok
