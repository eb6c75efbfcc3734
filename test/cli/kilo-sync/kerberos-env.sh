#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Kerberos environment kilo-sync sets for its SPNEGO and its rmadmin
# fallback (KRB5CCNAME of its private cache with kilo's ticket,
# KRB5_CLIENT_KTNAME naming the keytab, HADOOP_OPTS's krb5.conf) is for
# those only: a kubeconfig exec credential plugin run after the first RM
# request (its token expired) gets the operator's own KRB5CCNAME and
# HADOOP_OPTS, and no KRB5_CLIENT_KTNAME, as it does before.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/kilo-sync/kerberos.inc"
# a plugin whose token expires at once (KILO_NOW): it runs before every
# API request, so after the RM requests too
cat >"$tmpdir/plugin" <<EOC
#!/bin/sh
echo "KRB5CCNAME=\${KRB5CCNAME-unset} KRB5_CLIENT_KTNAME=\${KRB5_CLIENT_KTNAME-unset} HADOOP_OPTS=\${HADOOP_OPTS-unset}" >>"$tmpdir/plugin.log"
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-123456789","expirationTimestamp":"$KILO_NOW"}}'
EOC
chmod +x "$tmpdir/plugin"
cat >"$tmpdir/kubeconfig" <<EOC
apiVersion: v1
kind: Config
clusters: [{name: fake, cluster: {server: "$api"}}]
users: [{name: kilo, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: $tmpdir/plugin, interactiveMode: Never}}}]
contexts: [{name: fake, context: {cluster: fake, user: kilo}}]
current-context: fake
EOC
mkdir "$tmpdir/t"
for ops in "FILE:$tmpdir/operator.ccache:-Xmx1g" "unset:unset"; do
	: >"$tmpdir/plugin.log"
	cc=${ops%:*} opts=${ops##*:}
	rc=0
	if [ "$cc" = unset ]; then
		(unset KRB5CCNAME HADOOP_OPTS KRB5_CLIENT_KTNAME
		 TMPDIR=$tmpdir/t exec kilo-sync --config "$tmpdir/krb.yaml" >"$tmpdir/out" 2>"$tmpdir/err") || rc=$?
	else
		(unset KRB5_CLIENT_KTNAME; export KRB5CCNAME="$cc" HADOOP_OPTS="$opts"
		 TMPDIR=$tmpdir/t exec kilo-sync --config "$tmpdir/krb.yaml" >"$tmpdir/out" 2>"$tmpdir/err") || rc=$?
	fi
	assert_eq "$rc" 0 "pass with the exec plugin ($(tail -n 3 "$tmpdir/err"))"
	case $(jq -r '.items[] | select(.node == "worker-1") | .result' "$tmpdir/out") in
	updated | unchanged) ;; # (the second pass finds it done)
	*) fail "worker-1: $(cat "$tmpdir/out")" ;;
	esac
	[ "$(wc -l <"$tmpdir/plugin.log")" -gt 3 ] || fail "the plugin ran $(wc -l <"$tmpdir/plugin.log") times"
	assert_eq "$(sort -u "$tmpdir/plugin.log")" \
		"KRB5CCNAME=$cc KRB5_CLIENT_KTNAME=unset HADOOP_OPTS=$opts" "what the exec plugin saw"
done
echo ok
