#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# No RM redirect is followed (threat-model.md, YARN RM answers): when the
# RMs answer every request with a 307 to a host that is not configured (a
# compromised or misconfigured RM), kilo-sync never sends that host a
# request, the resize is not re-sent there, the cluster is unreachable and
# no annotation is written from that host's numbers.  A failover (the
# standby's 307 to its peer) still works: discovery finds the active RM
# among the configured ones.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1
cfg=$tmpdir/kilo-sync.yaml

# a second fake RM pair plays the foreign host and logs what reaches it
python3 "$KILO_TOP/test/fake/fake_rm.py" --ignore-stdin --urls-file "$tmpdir/evil-urls" \
	>/dev/null 2>"$tmpdir/evil.err" &
evil_pid=$!
at_exit "kill $evil_pid 2>/dev/null"
wait_nonempty "foreign RM ($(cat "$tmpdir/evil.err" 2>/dev/null))" "$tmpdir/evil-urls"
evil=$(jq -r .rm1 "$tmpdir/evil-urls")
evilctl=$(jq -r .control "$tmpdir/evil-urls")
evil_requests() { curl -sf "$evilctl/log" | jq length; }

before=$(node_ann worker-1)
rm_post /config "{\"redirectTo\":\"$evil\"}"
: >"$applog"
rc=0
kilo-sync --config "$cfg" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 75 "exit when every RM redirects elsewhere (all clusters unreachable)"
assert_eq "$(evil_requests)" 0 "requests that reached the foreign host"
assert_eq "$(count_rm_posts)" 0 "resizes sent"
jq -e '.items[] | select(.node == "worker-1") | .reason | test("unreachable.*not the active RM \\(HTTP 307")' \
	"$tmpdir/out" >/dev/null || fail "worker-1's reason: $(jq -c '.items[] | select(.node == "worker-1")' "$tmpdir/out")"
assert_eq "$(node_ann worker-1)" "$before" "worker-1's annotation"

# a plain failover: rm1 turns standby and answers 307 to rm2; kilo-sync
# does not follow it but finds rm2 by discovery and resizes there
rm_post /config '{"redirectTo":null}'
rm_post /failover '{}'
kilo-sync --config "$cfg" >"$tmpdir/out" 2>"$tmpdir/err" || fail "after a failover: $(cat "$tmpdir/err")"
assert_eq "$(rm_get /log | jq '[.[] | select(.method == "POST" and .rm == "rm2")] | length')" 1 \
	"resizes sent to the new active RM"
assert_eq "$(rm_get /log | jq '[.[] | select(.method == "POST" and .rm == "rm1")] | length')" 0 \
	"resizes sent to the standby"
assert_eq "$(evil_requests)" 0 "requests that reached the foreign host"
exit 0
