#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync's pod listing against the fake API server: pages of 2, a
# continue token that expires mid-listing (the listing restarts and the
# sums are those of a complete listing), one that keeps expiring (the pass
# fails with 75 and writes nothing), and `plan --from -` on what kubectl (or
# test/tools/k8s-client) prints giving the same plan as the live mode.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1
cfg=$tmpdir/kilo-sync.yaml

# the plan from the live APIs, no fault
kilo-sync plan --config "$cfg" --pretty >"$tmpdir/live.json" 2>"$tmpdir/err" ||
	fail "live plan: $(cat "$tmpdir/err")"
assert_eq "$(jq -c '.items[] | select(.node == "worker-1") | [.requested, .yarnTotal]' "$tmpdir/live.json")" \
	'[{"cpuMilli":7000,"memoryBytes":10092544000},{"vCores":30,"memoryMB":97598}]' "worker-1 sums"
grep -q '^kilo-sync: plan: 3 nodes, 11 pods, 1 to update, 2 to annotate, 2 skipped, ' "$tmpdir/err" ||
	fail "plan summary: $(cat "$tmpdir/err")"

# the continue token of the 2nd page expires once: 410, the listing starts
# again from the first page, the plan is the same
: >"$applog"
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","query":"continue=","count":1,"compact":true}'
kilo-sync plan --config "$cfg" --pretty --textfile-dir "$tmpdir" >"$tmpdir/restarted.json" \
	2>"$tmpdir/err" || fail "plan with an expired token: $(cat "$tmpdir/err")"
assert_eq "$(jq -cs '[.[] | select(.path == "/api/v1/pods") | [.status, (.query | contains("continue="))]]' "$applog" | jq -c '.[0:3]')" \
	'[[200,false],[410,true],[200,false]]' "first page, expired token, first page again"
diff -u "$tmpdir/live.json" "$tmpdir/restarted.json" || fail "plan after a restarted listing differs"
grep -q '^kilo-sync: plan: 3 nodes, 11 pods, ' "$tmpdir/err" || fail "pods counted twice: $(cat "$tmpdir/err")"
grep -q '^kilo_sync_list_restarts 1$' "$tmpdir/kilo-sync.prom" || fail "restart metric"

# a token that keeps expiring: after 3 restarts the pass fails with 75,
# one line, nothing written (a resize and annotations were due)
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","query":"continue=","count":4,"compact":true}'
rc=0
kilo-sync --config "$cfg" --textfile-dir "$tmpdir" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 75 "exit when the listing keeps expiring"
assert_eq "$(wc -l <"$tmpdir/err" | tr -d ' ')" 1 "one error line"
grep -q 'list pods.*(Expired)' "$tmpdir/err" || fail "error line: $(cat "$tmpdir/err")"
[ ! -s "$tmpdir/out" ] || fail "output of a failed pass: $(cat "$tmpdir/out")"
assert_eq "$(count_api PATCH /)" 0 "API writes"
assert_eq "$(count_rm_posts)" 0 "RM writes"
grep -q '^kilo_sync_pass_success 0$' "$tmpdir/kilo-sync.prom" || fail "failure metric"
grep -q '^kilo_sync_errors{kind="temporary"} 1$' "$tmpdir/kilo-sync.prom" || fail "error metric"
promtool check metrics <"$tmpdir/kilo-sync.prom" >"$tmpdir/promtool.out" 2>&1 ||
	fail "promtool: $(cat "$tmpdir/promtool.out")"
api_ctl DELETE /faults

# plan --from - on what a client prints equals the live plan
# (the README's pipeline: jq 1.6 rounds Hadoop 3's 9223372036854775807 limits
# in resourceInformations beyond int64, which kilo-sync refuses)
yarn_nodes() {
	curl -sf "$rm1/ws/v1/cluster/nodes" |
		jq -c 'del(.. | .resourceInformations?) |
			{apiVersion: "kilo/v1", kind: "YarnNodes", cluster: "yarn-cluster-1", nodes: .nodes}'
}
if command -v kubectl >/dev/null 2>&1; then
	kubectl get nodes -o json >"$tmpdir/nodes.json" || fail "kubectl get nodes"
	kubectl get pods -A -o json >"$tmpdir/pods.json" || fail "kubectl get pods"
else
	client=${KILO_TEST_TOOLS:-${KILO_BIN%/*}/test/tools}/k8s-client
	"$client" nodes >"$tmpdir/nodes.json" || fail "k8s-client nodes"
	"$client" pods >"$tmpdir/pods.json" || fail "k8s-client pods"
fi
yarn_nodes >"$tmpdir/yarn.json" || fail "RM nodes"
cat "$tmpdir/nodes.json" "$tmpdir/pods.json" "$tmpdir/yarn.json" |
	kilo-sync plan --config "$cfg" --from - --pretty >"$tmpdir/from.json" 2>"$tmpdir/err" ||
	fail "plan --from -: $(cat "$tmpdir/err")"
diff -u "$tmpdir/live.json" "$tmpdir/from.json" || fail "plan --from - differs from the live plan"
# and one Pod per line, as `jq -c '.items[]'` makes it
{ cat "$tmpdir/nodes.json"; jq -c '.items[]' "$tmpdir/pods.json"; cat "$tmpdir/yarn.json"; } |
	kilo-sync plan --config "$cfg" --from - --pretty >"$tmpdir/lines.json" 2>"$tmpdir/err" ||
	fail "plan --from - (lines): $(cat "$tmpdir/err")"
diff -u "$tmpdir/live.json" "$tmpdir/lines.json" || fail "one Pod per line differs"
echo ok
