# SPDX-License-Identifier: Apache-2.0
# k8s.sh - sourced by the real-YARN kilo-sync tests after cluster.sh and
# hd_start: the fake API server holding one Node and NodeManager pod per real
# NodeManager (mkk8s.py), $tmpdir/kubeconfig and $tmpdir/kilo-sync.yaml for
# the real RMs (cluster id yarn-real).
#
#   hd_k8s [CPU_MILLI:MEMORY_BYTES ...]   start it (origin Batch per node)
#   node_ann NODE        the Node's thirdPartyAllocations value
#   entry NODE NAME      that allocation entry (compact JSON)
#   set_origin NODE CPU_MILLI MEMORY_BYTES    a new origin Batch allocatable
#   count_api METHOD PATH-PREFIX
# shellcheck shell=sh
# shellcheck disable=SC2154 # tmpdir, FIX (test/lib.sh) and hd_* (cluster.sh)

hd_k8s() {
	python3 "$KILO_TOP/test/hadoop/mkk8s.py" "$FIX" "$hd_info" yarn-real "$tmpdir/k8s.json" "$@" ||
		fail "mkk8s.py"
	applog=$tmpdir/api-requests.log
	python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/api-urls" \
		--log "$applog" --load "$tmpdir/k8s.json" >/dev/null 2>"$tmpdir/api.err" &
	_api_pid=$!
	at_exit "kill $_api_pid 2>/dev/null"
	wait_nonempty "fake API server ($(cat "$tmpdir/api.err"))" "$tmpdir/api-urls"
	api=$(jq -r .api "$tmpdir/api-urls")
	fake_kubeconfig "$api"
	cat >"$tmpdir/kilo-sync.yaml" <<EOC
clusters:
  - id: yarn-real
    rmUrls: [$hd_rm1${hd_rm2:+, $hd_rm2}]
    timeoutMs: 5000
overCommitTimeoutMs: -1
EOC
}

node_ann() {
	curl -sf "$api/api/v1/nodes/$1" |
		jq -r '.metadata.annotations["node.koordinator.sh/thirdPartyAllocations"]'
}
entry() { node_ann "$1" | jq -c --arg n "$2" '.allocations[] | select(.name == $n)'; }
set_origin() {
	_v=$(jq -nc --arg c "$2" --arg m "$3" \
		'{resources: {"kubernetes.io/batch-cpu": $c, "kubernetes.io/batch-memory": $m}} | tojson')
	curl -sf -X PATCH -H 'Content-Type: application/merge-patch+json' \
		-d "{\"metadata\":{\"annotations\":{\"node.koordinator.sh/originExtendedAllocatable\":$_v}}}" \
		"$api/api/v1/nodes/$1" >/dev/null || fail "set_origin $1"
}
count_api() { jq -s --arg m "$1" --arg p "$2" \
	'[.[] | select(.method == $m and (.path | startswith($p)))] | length' "$applog"; }
