#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The rmadmin fallback with auth: kerberos (a real KDC, the fake RM behind a
# real GSS-API acceptor, without the REST resize): `yarn` runs with the
# private credential cache kilo-sync's SPNEGO filled from the keytab
# (KRB5CCNAME) and -Djava.security.krb5.conf in HADOOP_OPTS (the JDK ignores
# KRB5_CONFIG).  The yarn stand-in does what Hadoop's RMAdminCLI needs first:
# a valid ticket (klist -s), else it fails as a JVM without one does; it
# records its arguments and environment.  An admin RPC refused for a
# principal the RM's yarn.admin.acl lacks is one line naming the ACL.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/kilo-sync/kerberos.inc"
unset KRB5CCNAME HADOOP_OPTS
mkdir "$tmpdir/t"
cat >"$tmpdir/yarn" <<EOF
#!/bin/sh
{ echo "args \$*"; echo "KRB5CCNAME \${KRB5CCNAME:-}"; echo "HADOOP_OPTS \${HADOOP_OPTS:-}"
  klist 2>/dev/null | sed -n 's/^Default principal: /principal /p'; } >>"$tmpdir/yarn.calls"
if ! klist -s; then
	echo "updateNodeResource: Failed on local exception: java.io.IOException: org.apache.hadoop.security.AccessControlException: Client cannot authenticate via:[TOKEN, KERBEROS]" >&2
	exit 255
fi
if [ -e "$tmpdir/deny" ]; then
	echo "updateNodeResource: User kilo doesn't have permission to call 'updateNodeResource'" >&2
	exit 255
fi
curl -sf -X POST -d "{\"node\":\"\$3\",\"memory\":\$4,\"vCores\":\$5,\"overCommitTimeout\":\$6}" $rmctl/rmadmin >/dev/null
EOF
chmod +x "$tmpdir/yarn"
cat >"$tmpdir/krb.yaml" <<EOC
clusters:
  - id: yarn-cluster-1
    rmUrls: [http://localhost:${rm1##*:}, http://localhost:${rm2##*:}]
    timeoutMs: 5000
    confirmTimeoutMs: 2000
    auth: kerberos
    keytab: $tmpdir/kilo.keytab
    principal: kilo/sync@$KRB_REALM
    rmadmin: {command: $tmpdir/yarn}
overCommitTimeoutMs: 30000
kubernetes: {pageSize: $SYNC_PAGE_SIZE}
EOC
rm_post /config '{"endpoint":"missing404"}'
item() { jq -c --arg n "$1" ".items[] | select(.node == \$n) | $2" "$tmpdir/out"; }

rc=0
TMPDIR=$tmpdir/t kilo-sync --config "$tmpdir/krb.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 0 "pass with the rmadmin fallback ($(cat "$tmpdir/err") $(cat "$tmpdir/yarn.calls"))"
assert_eq "$(item worker-1 '[.result, .via]')" '["updated","rmadmin"]' "worker-1"
assert_eq "$(sed -n 1p "$tmpdir/yarn.calls")" "args rmadmin -updateNodeResource $SYNC_NM_ID 97598 30 30000" \
	"rmadmin arguments"
case $(sed -n 2p "$tmpdir/yarn.calls") in
"KRB5CCNAME FILE:$tmpdir/t/kilo-krb5-"??????"/ccache") ;;
*) fail "rmadmin's KRB5CCNAME: $(sed -n 2p "$tmpdir/yarn.calls")" ;;
esac
assert_eq "$(sed -n 3p "$tmpdir/yarn.calls")" "HADOOP_OPTS -Djava.security.krb5.conf=$KRB5_CONFIG" \
	"rmadmin's HADOOP_OPTS"
assert_eq "$(sed -n 4p "$tmpdir/yarn.calls")" "principal kilo/sync@$KRB_REALM" "the ticket rmadmin found"
assert_eq "$(find "$tmpdir/t" -mindepth 1 | wc -l)" 0 "private credential cache left after the pass"

# an operator's HADOOP_OPTS is kept, the krb5.conf property added once
: >"$tmpdir/yarn.calls"
rm_post /restart '{}'
HADOOP_OPTS="-Xmx256m" TMPDIR=$tmpdir/t kilo-sync --config "$tmpdir/krb.yaml" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "with HADOOP_OPTS: $(cat "$tmpdir/err")"
assert_eq "$(sed -n 3p "$tmpdir/yarn.calls")" "HADOOP_OPTS -Xmx256m -Djava.security.krb5.conf=$KRB5_CONFIG" \
	"rmadmin's HADOOP_OPTS with the operator's"

# the admin ACL refuses the principal: one line that names it
: >"$tmpdir/deny"
rm_post /restart '{}'
rc=0
TMPDIR=$tmpdir/t kilo-sync --config "$tmpdir/krb.yaml" >"$tmpdir/out" 2>"$tmpdir/err" || rc=$?
assert_eq "$rc" 1 "exit when rmadmin is refused"
assert_eq "$(item worker-1 .error)" \
	"\"$tmpdir/yarn rmadmin -updateNodeResource $SYNC_NM_ID: exit status 255: updateNodeResource: User kilo doesn't have permission to call 'updateNodeResource' (the RM's yarn.admin.acl does not list kilo's user or principal)\"" \
	"the refused admin RPC"
exit 0
