#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A listing is never taken as complete unless it is (threat-model.md,
# Kubernetes API answers): a 200 page that is a Status, a list without items
# or with items an object, a continue token that repeats, more pages than
# kubernetes.maxPages, and a gathering past passTimeoutMs each fail the pass
# with 75, one line, and nothing is written to YARN or to any Node (a
# resize and annotations were due).  The pass's metrics say it failed.
# The Kubernetes client follows no redirect.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1
cfg=$tmpdir/kilo-sync.yaml

# sync_fails WHAT PATTERN [CONFIG]: one pass fails with 75, stderr's one
# line matches PATTERN, nothing written, kilo_sync_pass_success 0.
sync_fails() {
	: >"$applog"
	rm -f "$tmpdir/kilo-sync.prom"
	rc=0
	kilo-sync --config "${3:-$cfg}" --textfile-dir "$tmpdir" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
	assert_eq "$rc" 75 "$1: exit code"
	assert_eq "$(wc -l <"$tmpdir/err" | tr -d ' ')" 1 "$1: error lines ($(cat "$tmpdir/err"))"
	grep -qE "$2" "$tmpdir/err" || fail "$1: error line: $(cat "$tmpdir/err")"
	[ ! -s "$tmpdir/out" ] || fail "$1: output of a failed pass: $(head -c 200 "$tmpdir/out")"
	assert_eq "$(count_api PATCH /)" 0 "$1: API writes"
	assert_eq "$(count_rm_posts)" 0 "$1: RM writes"
	grep -q '^kilo_sync_pass_success 0$' "$tmpdir/kilo-sync.prom" || fail "$1: failure metric"
	api_ctl DELETE /faults
}

# the third page of pods is a Status with 200 (a broken aggregated API or proxy)
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","skip":2,"count":1,"body":{"kind":"Status","apiVersion":"v1","status":"Success","metadata":{}}}'
sync_fails "Status page" "list pods.*page 3: not a PodList \(kind 'Status'\)"

# a list of another kind where pods were asked for (an empty NodeList)
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","count":1,"body":{"kind":"NodeList","apiVersion":"v1","metadata":{},"items":[]}}'
sync_fails "NodeList for pods" "list pods.*page 1: not a PodList \(kind 'NodeList'\)"

# an empty PodList: nodes but not one pod would zero every node's YARN share
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","count":1,"body":{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}}'
sync_fails "no pod at all" "listed 3 nodes but no pod"

# one item that is no pod (a dummy that once passed the empty-listing guard)
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","count":1,"body":{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{}]}}'
sync_fails "a PodList of {}" "list pods.*Pod.metadata.name: expected a name"

# a PodList without items on page 2
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","skip":1,"count":1,"body":{"kind":"PodList","apiVersion":"v1","metadata":{}}}'
sync_fails "no items" "list pods.*page 2: PodList without an items array"

# items an object
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","count":1,"body":{"kind":"PodList","apiVersion":"v1","metadata":{},"items":{}}}'
sync_fails "items an object" "list pods.*page 1: PodList without an items array"

# a continue token that comes back forever: stopped at the first repeat
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","count":0,"body":{"kind":"PodList","apiVersion":"v1","metadata":{"continue":"again"},"items":[]}}'
sync_fails "repeated token" "list /api/v1/pods: page 2 repeats the continue token"
assert_eq "$(count_api GET /api/v1/pods)" 2 "pod pages asked for with a repeating token"

# 11 pods in pages of 2 are 6 pages: maxPages 3 is not complete
sed 's/^kubernetes: {pageSize: \(.*\)}$/kubernetes: {pageSize: \1, maxPages: 3}/' "$cfg" >"$tmpdir/pages.yaml"
grep -q 'maxPages: 3' "$tmpdir/pages.yaml" || fail "pages config: $(cat "$tmpdir/pages.yaml")"
sync_fails "maxPages" "list /api/v1/pods: more than 3 pages" "$tmpdir/pages.yaml"

# a continue token of 9 MB (no URL can carry it): the server's bad answer, 75
python3 -c 'import json; print(json.dumps({"method":"GET","path":"/api/v1/pods","count":1,"body":{"kind":"PodList","apiVersion":"v1","metadata":{"continue":"c"*(9<<20)},"items":[]}}))' >"$tmpdir/huge.json"
curl -sf -X POST --data-binary @"$tmpdir/huge.json" "$apictl/faults" >/dev/null || fail "huge token fault"
sync_fails "9 MB continue token" "list /api/v1/pods: page 1: a continue token of 9437184 bytes"

# every pod page takes 700 ms, the pass may take 1 s: out of time
printf 'passTimeoutMs: 1000\n' >>"$tmpdir/slow.yaml"
cat "$cfg" >>"$tmpdir/slow.yaml"
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","count":0,"delayMs":700}'
sync_fails "passTimeoutMs" "list /api/v1/pods: out of time after [0-9]+ pages" "$tmpdir/slow.yaml"

# the Kubernetes client follows no redirect either: a 307 to another path
# of the same server is an error, and that path is never asked for
api_ctl POST /faults '{"method":"GET","path":"/api/v1/nodes","count":1,"status":307,"headers":{"Location":"/api/v1/namespaces/elsewhere/pods"}}'
: >"$applog"
rc=0
kilo-sync --config "$cfg" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
[ "$rc" -ne 0 ] || fail "a 307 from the API server was taken as an answer"
assert_eq "$(count_api GET /api/v1/namespaces/elsewhere)" 0 "requests to the redirect target"
assert_eq "$(count_api PATCH /)" 0 "API writes after a redirect"
assert_eq "$(count_rm_posts)" 0 "RM writes after a redirect"
api_ctl DELETE /faults

# with no fault the same pass applies (the faults above were what stopped it)
: >"$applog"
kilo-sync --config "$cfg" >"$tmpdir/out" 2>"$tmpdir/err" || fail "clean pass: $(cat "$tmpdir/err")"
[ "$(count_api PATCH /)" -gt 0 ] || fail "clean pass wrote no annotation"
exit 0
