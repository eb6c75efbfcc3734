#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# auth: kerberos against a real KDC (test/krb/kdc.sh) and the fake RM pair
# behind a real GSS-API acceptor (fake_rm.py --spnego-keytab): the resize
# passes with SPNEGO, one negotiation per RM a pass and the hadoop.auth
# cookie after it, never one RM's cookie to the other; tickets come from the
# keytab into a private cache that is gone after the pass, and a pass after
# the ticket's life (maxlife 10 s) gets a new one; a failover finds and
# resizes the new active RM with its own negotiation; a redirect to a host
# not configured is never followed; no token, cookie or
# keytab byte appears in any output, --verbose included.
. "$KILO_TOP/test/lib.sh"
KRB_START_ARGS=maxlife=10
. "$KILO_TOP/test/cli/kilo-sync/kerberos.inc"
mkdir "$tmpdir/t"
unset KRB5CCNAME
sync() {
	rc=0
	rm_post /config '{}'
	n0=$(rm_get /log | jq length)
	TMPDIR=$tmpdir/t kilo-sync --config "$tmpdir/krb.yaml" --verbose --textfile-dir "$tmpdir" \
		>"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
	cat "$tmpdir/out" "$tmpdir/err" "$tmpdir/kilo-sync.prom" >>"$tmpdir/all-outputs"
}
# this pass's RM requests: [rm, auth, principal] per request
pass_log() { rm_get /log | jq -c --argjson n "$n0" '.[$n:] | map([.rm, .auth, .principal])'; }
item() { jq -c --arg n "$1" ".items[] | select(.node == \$n) | $2" "$tmpdir/out"; }
issued() { grep -c "ISSUE: .* kilo/sync@$KRB_REALM for krbtgt/" "$KRB_DIR/kdc.log"; }

# 1. a pass: discovery, the node list, the resize and its confirmation, all
#    on rm1 (active); the first request is answered 401 Negotiate and sent
#    again with a token, the rest ride the cookie (no token: curl probes)
sync
assert_eq "$rc" 0 "pass with Kerberos ($(tail -n 3 "$tmpdir/err"))"
assert_eq "$(item worker-1 '[.result, .via]')" '["updated","rest"]' "worker-1"
assert_eq "$(rm_get /state | jq -c ".nodes[] | select(.id == \"$SYNC_NM_ID\") | [.vCores, .memoryMB]")" \
	"[30,97598]" "RM total after the resize"
assert_eq "$(pass_log | jq -c '.[0:2]')" "[[\"rm1\",\"none\",null],[\"rm1\",\"negotiate\",\"kilo/sync@$KRB_REALM\"]]" \
	"first request: 401, then SPNEGO as the configured principal"
assert_eq "$(pass_log | jq -c '[.[2:][] | .[1]] | unique')" '["cookie"]' \
	"later requests of the pass: the hadoop.auth cookie"
assert_eq "$(pass_log | jq '[.[] | select(.[1] == "refused")] | length')" 0 "requests refused"
assert_eq "$(issued)" 1 "TGTs the KDC issued"
assert_eq "$(find "$tmpdir/t" -mindepth 1 | wc -l)" 0 "private credential cache left after the pass"

# 2. past the ticket's life (10 s): the next pass gets a new ticket from the
#    keytab (the first one's is expired, and its cache gone)
sleep 11
rm_post /restart '{}'
sync
assert_eq "$rc" 0 "pass after the ticket expired ($(tail -n 3 "$tmpdir/err"))"
assert_eq "$(item worker-1 '.result')" '"updated"' "worker-1 after the ticket's life"
assert_eq "$(issued)" 2 "TGTs the KDC issued after the second pass"
assert_eq "$(pass_log | jq -c '.[1]')" "[\"rm1\",\"negotiate\",\"kilo/sync@$KRB_REALM\"]" \
	"second pass negotiates afresh"

# 3. a failover: rm1 turns standby; discovery asks rm1 (its own
#    negotiation), then rm2 (another one: rm1's cookie is never sent to rm2)
#    and the resize goes to rm2
rm_post /failover '{}'
rm_post /restart '{}'
sync
assert_eq "$rc" 0 "pass after a failover ($(tail -n 3 "$tmpdir/err"))"
assert_eq "$(rm_get /log | jq --argjson n "$n0" '[.[$n:][] | select(.method == "POST" and .rm == "rm2" and .auth == "cookie")] | length')" \
	1 "resizes sent to the new active RM, on its own cookie"
assert_eq "$(rm_get /log | jq --argjson n "$n0" '[.[$n:][] | select(.method == "POST" and .rm == "rm1")] | length')" \
	0 "resizes sent to the standby"
assert_eq "$(pass_log | jq -c '[.[] | select(.[1] == "negotiate") | .[0]]')" '["rm1","rm2"]' \
	"one negotiation per RM"
assert_eq "$(rm_get /log | jq '[.[] | select(.foreignCookie)] | length')" 0 \
	"requests carrying another RM's cookie"

# 4. no redirect is followed with Kerberos either: every RM answers 307 to a
#    host not configured; it gets no request (no token, no cookie), the
#    cluster is unreachable
python3 "$KILO_TOP/test/fake/fake_rm.py" --ignore-stdin --urls-file "$tmpdir/evil-urls" \
	>/dev/null 2>"$tmpdir/evil.err" &
evil_pid=$!
at_exit "kill $evil_pid 2>/dev/null"
wait_nonempty "foreign RM ($(cat "$tmpdir/evil.err" 2>/dev/null))" "$tmpdir/evil-urls"
evil=$(jq -r .rm1 "$tmpdir/evil-urls" | sed 's|127.0.0.1|localhost|')
rm_post /config "{\"redirectTo\":\"$evil\"}"
sync
assert_eq "$rc" 75 "exit when every RM redirects elsewhere"
assert_eq "$(curl -sf "$(jq -r .control "$tmpdir/evil-urls")/log" | jq length)" 0 \
	"requests that reached the foreign host"
rm_post /config '{"redirectTo":null}'

# 4. nothing secret in any output: no SPNEGO token, no cookie, no key
grep -aEc 'Negotiate [A-Za-z0-9+/=]{8}|hadoop\.auth|&s=[0-9a-f]{8}' "$tmpdir/all-outputs" >"$tmpdir/n" || :
assert_eq "$(cat "$tmpdir/n")" 0 "lines with a token or cookie in the outputs"
od -An -tx1 -v "$tmpdir/kilo.keytab" | tr -d ' \n' | fold -w 32 | sed -n '3p' >"$tmpdir/keybytes"
[ -s "$tmpdir/keybytes" ] || fail "no key bytes read from the keytab"
od -An -tx1 -v "$tmpdir/all-outputs" | tr -d ' \n' | grep -qf "$tmpdir/keybytes" &&
	fail "key bytes of the keytab in the outputs"
exit 0
