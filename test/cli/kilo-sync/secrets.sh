#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Secrets are never printed (threat-model.md: kubeconfig, tokens, RM URL
# userinfo appear in no log, report, metric or error): marker secrets are
# seeded in the kubeconfig token and in RM URLs (a reachable RM and one that
# is down, whose error lands in the SyncReport's reason), a pass runs with
# --verbose, and every output is searched.  A token or client key that YAML
# reads as a number or a list is refused naming the field, not the value.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1

port() { printf '%s' "${1##*:}"; }
down=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$tmpdir/secret.yaml" <<EOF2
clusters:
  - id: yarn-cluster-1
    rmUrls: [http://kilo:MARKER-RM-PASS-1@127.0.0.1:$(port "$rm1"), $rm2]
    timeoutMs: 5000
  - id: c2
    rmUrls: [http://kilo:MARKER-RM-PASS-2@127.0.0.1:$down]
    timeoutMs: 1000
kubernetes: {pageSize: $SYNC_PAGE_SIZE}
EOF2
sed 's/users: \[{name: kilo, user: {}}\]/users: [{name: kilo, user: {token: MARKER-TOKEN-3}}]/' \
	"$tmpdir/kubeconfig" >"$tmpdir/kc-token"
grep -q MARKER-TOKEN-3 "$tmpdir/kc-token" || fail "kubeconfig with a token: $(cat "$tmpdir/kc-token")"

rc=0
KUBECONFIG=$tmpdir/kc-token kilo-sync --config "$tmpdir/secret.yaml" --verbose \
	--textfile-dir "$tmpdir" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 3 "exit with one cluster down"
grep -q '"node":"worker-2"' "$tmpdir/out" || fail "no report: $(head -c 300 "$tmpdir/out")"
grep -q 'GET http://kilo@\|GET http://127.0.0.1' "$tmpdir/err" || fail "no trace on stderr: $(head -n 3 "$tmpdir/err")"
for f in out err kilo-sync.prom; do
	if grep -n MARKER "$tmpdir/$f" >"$tmpdir/found"; then
		fail "a secret in $f: $(head -c 300 "$tmpdir/found")"
	fi
done

# a server that echoes the token it refuses, in a Status and in plain text:
# the pass fails, its one line does not hold the token
for body in '"body":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"token MARKER-TOKEN-3 is not valid","reason":"Unauthorized","code":401}' \
	'"body":"bearer MARKER-TOKEN-3 refused"'; do
	api_ctl POST /faults "{\"method\":\"GET\",\"path\":\"/api/v1/nodes\",\"count\":1,\"status\":401,$body}"
	rc=0
	KUBECONFIG=$tmpdir/kc-token kilo-sync --config "$tmpdir/secret.yaml" --verbose \
		--textfile-dir "$tmpdir" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
	assert_eq "$rc" 1 "exit when the token is refused"
	grep -q 'list nodes.*\[redacted\]' "$tmpdir/err" || fail "the refusal: $(cat "$tmpdir/err")"
	! grep -n MARKER "$tmpdir/err" "$tmpdir/out" "$tmpdir/kilo-sync.prom" ||
		fail "a token echoed by the server was printed"
	api_ctl DELETE /faults
done

# a page whose kind is the token (a hostile API server knows it): 75, not shown
api_ctl POST /faults '{"method":"GET","path":"/api/v1/pods","count":1,"body":{"kind":"MARKER-TOKEN-3","apiVersion":"v1","metadata":{},"items":[]}}'
rc=0
KUBECONFIG=$tmpdir/kc-token kilo-sync --config "$tmpdir/secret.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 75 "exit for a page of kind <token>"
grep -q "not a PodList (kind '\[redacted\]')" "$tmpdir/err" || fail "page of kind <token>: $(cat "$tmpdir/err")"
! grep -n MARKER "$tmpdir/err" "$tmpdir/out" || fail "the token in a page's kind was printed"
api_ctl DELETE /faults

# an RM that echoes the URL's userinfo, the password alone, or the Basic
# header curl sent (base64 of kilo:MARKER-RM-PASS-1), in its refusal of a
# resize: the SyncReport's error and stderr show none (from a review)
basic=$(printf 'kilo:MARKER-RM-PASS-1' | base64)
for msg in 'user kilo:MARKER-RM-PASS-1 may not' 'password MARKER-RM-PASS-1 refused' \
	"header Authorization: Basic $basic not allowed"; do
	rm_post /restart '{}'
	rm_post /fault "{\"path\":\"/ws/v1/cluster/nodes/\",\"method\":\"POST\",\"count\":1,\"status\":500,\"body\":{\"RemoteException\":{\"exception\":\"AuthorizationException\",\"message\":\"$msg\"}}}"
	rc=0
	KUBECONFIG=$tmpdir/kc-token kilo-sync --config "$tmpdir/secret.yaml" --textfile-dir "$tmpdir" \
		>"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
	assert_eq "$rc" 1 "exit when the RM refuses the one resize ($(cat "$tmpdir/err"))"
	grep -q '"result":"failed","error":"[^"]*\[redacted\]' "$tmpdir/out" ||
		fail "the RM's refusal: $(grep -o '"result":"failed","error":"[^"]*' "$tmpdir/out")"
	! grep -n "MARKER\|$basic" "$tmpdir/err" "$tmpdir/out" "$tmpdir/kilo-sync.prom" ||
		fail "an RM password echoed by the RM was printed"
done

# more secrets than the 32 there was once room for: the last, the token,
# still redacted (from a review: they were dropped silently)
{
	echo 'clusters:'
	i=0
	while [ $i -lt 20 ]; do
		i=$((i + 1))
		echo "  - {id: d$i, rmUrls: ['http://user$i:password$i@127.0.0.1:$down'], timeoutMs: 200}"
	done
	echo "  - {id: yarn-cluster-1, rmUrls: [$rm1, $rm2], timeoutMs: 5000}"
} >"$tmpdir/many.yaml"
api_ctl POST /faults '{"method":"GET","path":"/api/v1/nodes","count":1,"status":401,"body":"bearer MARKER-TOKEN-3 refused"}'
rc=0
KUBECONFIG=$tmpdir/kc-token kilo-sync --config "$tmpdir/many.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 1 "exit when the token is refused, with 20 more clusters"
grep -q 'list nodes.*\[redacted\]' "$tmpdir/err" || fail "the refusal: $(cat "$tmpdir/err")"
! grep -n MARKER "$tmpdir/err" "$tmpdir/out" || fail "the token printed with many secrets registered"
api_ctl DELETE /faults

# a long token (a service-account JWT is ~900 bytes) echoed where messages
# quote and cut values: no part of it shows
long=MARKER-LONG-$(python3 -c 'print("x" * 300)')
sed "s/users: \[{name: kilo, user: {}}\]/users: [{name: kilo, user: {token: $long}}]/" \
	"$tmpdir/kubeconfig" >"$tmpdir/kc-long"
api_ctl POST /faults "{\"method\":\"GET\",\"path\":\"/api/v1/pods\",\"count\":1,\"body\":{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":[\"$long\"]}}]}}"
rc=0
KUBECONFIG=$tmpdir/kc-long kilo-sync --config "$tmpdir/secret.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 75 "exit for a pod named by the long token"
grep -q 'metadata.name: expected a name, got \["\[redacted\]"\]' "$tmpdir/err" || fail "long token: $(cat "$tmpdir/err")"
! grep -q 'MARKER\|xxxxxxxx' "$tmpdir/err" "$tmpdir/out" || fail "a part of the long token was printed"
api_ctl DELETE /faults

# a %-escaped password is sent decoded: an RM that echoes it decoded
sed "s|kilo:MARKER-RM-PASS-1@|kilo:MARKER%40PASS-1@|" "$tmpdir/secret.yaml" >"$tmpdir/pct.yaml"
rm_post /restart '{}'
rm_post /fault '{"path":"/ws/v1/cluster/nodes/","method":"POST","count":1,"status":500,"body":{"RemoteException":{"exception":"AuthorizationException","message":"user kilo:MARKER@PASS-1 may not"}}}'
rc=0
KUBECONFIG=$tmpdir/kc-token kilo-sync --config "$tmpdir/pct.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 1 "exit when the RM refuses the resize ($(cat "$tmpdir/err"))"
! grep -n MARKER "$tmpdir/err" "$tmpdir/out" || fail "a decoded RM password echoed by the RM was printed"

# secret-typed fields of the wrong type: the field named, the value not
for v in 123456789012345678 '[MARKER-LIST-4]' '{a: MARKER-MAP-5}'; do
	for key in token client-key-data; do
		sed "s/users: \[{name: kilo, user: {}}\]/users: [{name: kilo, user: {$key: $v}}]/" \
			"$tmpdir/kubeconfig" >"$tmpdir/kc-bad"
		rc=0
		KUBECONFIG=$tmpdir/kc-bad kilo-sync plan --config "$tmpdir/kilo-sync.yaml" \
			>"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
		assert_eq "$rc" 2 "exit for $key: $v"
		grep -q "users\[name=kilo\]\.user\.$key: expected a string (a secret: its value is not shown)" \
			"$tmpdir/err" || fail "message for $key: $v: $(cat "$tmpdir/err")"
		if grep -q 'MARKER\|123456789012345678' "$tmpdir/err"; then
			fail "the value of $key shown: $(cat "$tmpdir/err")"
		fi
	done
done

# CR/LF in a token would forge request headers: refused, value not shown
printf 'apiVersion: v1\nkind: Config\nclusters: [{name: fake, cluster: {server: "%s"}}]\nusers: [{name: kilo, user: {token: "MARKER-CR\\r\\nX-Injected: yes"}}]\ncontexts: [{name: fake, context: {cluster: fake, user: kilo}}]\ncurrent-context: fake\n' "$api" >"$tmpdir/kc-crlf"
: >"$applog"
rc=0
KUBECONFIG=$tmpdir/kc-crlf kilo-sync plan --config "$tmpdir/kilo-sync.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 2 "exit for a token with CR/LF"
grep -q 'user.token: holds a control character (a secret: its value is not shown)' "$tmpdir/err" ||
	fail "message for a CR/LF token: $(cat "$tmpdir/err")"
! grep -q MARKER "$tmpdir/err" || fail "the CR/LF token shown: $(cat "$tmpdir/err")"
assert_eq "$(count_api GET /)" 0 "requests sent with a CR/LF token"

# a password with '/' in an RM URL is still redacted everywhere
sed "s#http://kilo:MARKER-RM-PASS-2@#http://kilo:MARKER/RM-PASS-6@#" "$tmpdir/secret.yaml" >"$tmpdir/slash.yaml"
KUBECONFIG=$tmpdir/kubeconfig kilo-sync --config "$tmpdir/slash.yaml" --verbose >"$tmpdir/out" 2>"$tmpdir/err" || :
! grep -q MARKER "$tmpdir/out" "$tmpdir/err" || fail "a password with '/' shown: $(grep -h MARKER "$tmpdir/out" "$tmpdir/err" | head -c 300)"
exit 0
