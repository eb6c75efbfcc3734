#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync with auth: kerberos against Hadoop's own ResourceManagers (an HA
# pair) whose web apps take Hadoop's Kerberos HTTP authentication
# (AuthenticationFilterInitializer, hadoop.http.authentication.type
# kerberos, mkconf.py --rm-spnego; RPC stays simple) and a real KDC
# (test/krb/kdc.sh): without Kerberos the RMs refuse kilo-sync (401,
# rm-refused, nothing written); with it a pass resizes the NodeManager,
# confirmed at the RM; after a failover the next pass resizes through the
# new active RM; with the RMs' HTTP/ keytab stale (a re-key) Hadoop refuses
# the token (403) and kilo-sync says so.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/krb/kdc.sh"
need_krb
krb_start
krb_princ kilo/sync +requires_preauth
krb_princ tester
krb_princ HTTP/localhost
krb_princ HTTP/127.0.0.1
krb_keytab "$tmpdir/kilo.keytab" kilo/sync
krb_keytab "$tmpdir/tester.keytab" tester
krb_keytab "$tmpdir/http.keytab" HTTP/localhost HTTP/127.0.0.1
# the test's own curl (cluster.sh's waits and reads) as "tester"
export KRB5CCNAME=FILE:$tmpdir/tester.cc HD_CURL="--negotiate -u :"
kinit -k -t "$tmpdir/tester.keytab" tester || fail "kinit tester"
. "$KILO_TOP/test/hadoop/cluster.sh"
. "$KILO_TOP/test/hadoop/k8s.sh"
cd "$tmpdir" || exit 1
# principal "*": every HTTP/ key of the keytab (localhost for kilo-sync's
# URLs, 127.0.0.1 for the test's)
hd_start --nms 1 --rm-spnego "$tmpdir/http.keytab" '*'
hd_k8s 8000:17179869184
unset KRB5CCNAME

# without Kerberos: the RMs answer 401 Negotiate
rc=0
curl -s -o /dev/null -w '%{http_code}' "$hd_rm1/ws/v1/cluster/info" >"$tmpdir/code" || :
assert_eq "$(cat "$tmpdir/code")" 401 "the RM without a token"
before=$(node_ann worker-1)
kilo-sync --config "$tmpdir/kilo-sync.yaml" >report.json 2>sync.err || rc=$?
assert_eq "$rc" 75 "exit without Kerberos ($(cat sync.err))"
grep -q "^kilo-sync: cluster 'yarn-real': unreachable (rm-refused)" sync.err ||
	fail "without Kerberos: $(cat sync.err)"
assert_eq "$(node_ann worker-1)" "$before" "worker-1's annotation without Kerberos"

# with it (the RM URLs by name: the service principal is HTTP/localhost)
sed "s|http://127.0.0.1:|http://localhost:|g" "$tmpdir/kilo-sync.yaml" >"$tmpdir/krb.yaml"
python3 - "$tmpdir/krb.yaml" "$tmpdir/kilo.keytab" "kilo/sync@$KRB_REALM" <<'PY'
import sys
p, kt, princ = sys.argv[1:]
s = open(p).read().replace("    timeoutMs: 5000\n", "    timeoutMs: 5000\n    auth: kerberos\n"
                           "    keytab: %s\n    principal: %s\n" % (kt, princ), 1)
open(p, "w").write(s)
PY
grep -q '^    auth: kerberos$' "$tmpdir/krb.yaml" || fail "config: $(cat "$tmpdir/krb.yaml")"
sync() {
	rc=0
	kilo-sync --config "$tmpdir/krb.yaml" --verbose >report.json 2>sync.err || rc=$?
}
item() { jq -c --arg n "$1" ".items[] | select(.node == \$n) | $2" report.json; }
export KRB5CCNAME=FILE:$tmpdir/tester.cc # for hd_node
sync
assert_eq "$rc" 0 "pass with Kerberos ($(tail -n 5 sync.err))"
assert_eq "$(item worker-1 '[.result, .via]')" '["updated","rest"]' "worker-1 with Kerberos"
grep -q "TGS_REQ .* ISSUE: .* kilo/sync@$KRB_REALM for HTTP/localhost@$KRB_REALM" "$KRB_DIR/kdc.log" ||
	fail "no service ticket for HTTP/localhost issued to kilo/sync"
total=$(hd_node "$hd_nm1" | jq -c '[.totalResource.vCores, .totalResource.memory]')
assert_eq "$total" "$(item worker-1 '[.yarnTotal.vCores, .yarnTotal.memoryMB]')" "the total at the RM"

# a failover: rm2 active; the next pass resizes through it
hd_rmadmin -transitionToStandby rm1 >/dev/null || fail "rm1 to standby"
hd_rmadmin -transitionToActive rm2 >/dev/null || fail "rm2 to active"
_hd_active=$hd_rm2
hd_wait "the NodeManager at rm2" 30 _hd_running 1
set_origin worker-1 6000 12884901888
sync
assert_eq "$rc" 0 "pass after the failover ($(tail -n 5 sync.err))"
assert_eq "$(item worker-1 '.result')" '"updated"' "worker-1 after the failover"
grep -q "^kilo-sync: POST http://localhost:${hd_rm2##*:}/ws/v1/cluster/nodes/.*/resource -> 200" sync.err ||
	fail "resize through rm2: $(grep POST sync.err)"

# the RM's own refusal: HTTP/localhost re-keyed at the KDC, the RMs' keytab
# still holds the old key: the token goes out, Hadoop cannot accept it
krb_rekey HTTP/localhost
sync
assert_eq "$rc" 75 "exit with the RMs' keytab stale"
grep "^kilo-sync: cluster 'yarn-real'" sync.err >line || fail "stale RM keytab: $(cat sync.err)"
cat line
grep -q "unreachable (rm-refused), .*cluster info: HTTP 403: Kerberos: the RM refused the ticket (HTTP 403 after SPNEGO)" line ||
	fail "stale RM keytab: $(cat line)"
exit 0
