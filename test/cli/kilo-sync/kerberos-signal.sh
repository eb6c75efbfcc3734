#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync with auth: kerberos and a keytab stopped by a signal (SIGTERM,
# SIGINT, SIGHUP: a pod's or a unit's stop, a Ctrl-C): the private
# credential cache under TMPDIR (its ticket usable by whoever reads it) is
# removed as at a normal exit, whether kilo-sync waits for an RM that does
# not answer or for its rmadmin fallback; kilo-sync still ends by that
# signal.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/cli/kilo-sync/kerberos.inc"
unset KRB5CCNAME HADOOP_OPTS
mkdir "$tmpdir/t"

# an RM that takes the connection and never answers
python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
conns = []
while True:
    conns.append(s.accept())
' "$tmpdir/silent.port" &
silent=$!
at_exit "kill $silent 2>/dev/null"
wait_nonempty "the silent RM" "$tmpdir/silent.port"

# a yarn stand-in that waits (as a JVM that hangs with a ticket)
cat >"$tmpdir/yarn" <<EOC
#!/bin/sh
echo \$\$ >"$tmpdir/yarn.pid.tmp"
mv "$tmpdir/yarn.pid.tmp" "$tmpdir/yarn.pid"
exec sleep 1000
EOC
chmod +x "$tmpdir/yarn"

cfg() { # URL [rmadmin]
	cat >"$tmpdir/krb.yaml" <<EOC
clusters:
  - id: yarn-cluster-1
    rmUrls: [$1]
    timeoutMs: 30000
    auth: kerberos
    keytab: $tmpdir/kilo.keytab
    principal: kilo/sync@$KRB_REALM
${2:+    rmadmin: {command: $tmpdir/yarn, timeoutMs: 60000\}}
overCommitTimeoutMs: 30000
kubernetes: {pageSize: $SYNC_PAGE_SIZE}
EOC
}
# stopped WHAT SIG NUM FILE: kilo-sync started, FILE appears, SIG sent
stopped() {
	TMPDIR=$tmpdir/t kilo-sync --config "$tmpdir/krb.yaml" >"$tmpdir/out" 2>"$tmpdir/err" &
	ks=$!
	at_exit "kill -KILL $ks 2>/dev/null"
	wait_nonempty "$1 ($2)" "$4"
	[ -n "$(find "$tmpdir/t" -name ccache)" ] || fail "$1 ($2): no private cache while it runs"
	kill -"$2" "$ks"
	rc=0
	wait "$ks" || rc=$?
	assert_eq "$rc" "$((128 + $3))" "$1: kilo-sync's exit on SIG$2"
	assert_eq "$(find "$tmpdir/t" -mindepth 1)" "" "$1: left under TMPDIR after SIG$2"
}

cfg "http://localhost:$(cat "$tmpdir/silent.port")"
for sig in TERM:15 HUP:1; do # (SIGINT: ignored in a job sh starts in the background)
	# the cache is made before the first request: wait for it
	rm -rf "$tmpdir/t"/*
	TMPDIR=$tmpdir/t kilo-sync --config "$tmpdir/krb.yaml" >"$tmpdir/out" 2>"$tmpdir/err" &
	ks=$!
	at_exit "kill -KILL $ks 2>/dev/null"
	i=0
	until [ -n "$(find "$tmpdir/t" -name ccache 2>/dev/null)" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "no private cache while waiting for the RM"
		sleep 0.1
	done
	sleep 0.3 # in the request to the silent RM
	kill -"${sig%:*}" "$ks"
	rc=0
	wait "$ks" || rc=$?
	assert_eq "$rc" "$((128 + ${sig#*:}))" "waiting for the RM: exit on SIG${sig%:*}"
	assert_eq "$(find "$tmpdir/t" -mindepth 1)" "" "waiting for the RM: left under TMPDIR after SIG${sig%:*}"
done

# the rmadmin fallback (no REST resize) running with the ticket
rm_post /config '{"endpoint":"missing404"}'
rm_post /restart '{}'
cfg "http://localhost:${rm1##*:}, http://localhost:${rm2##*:}" rmadmin
for sig in TERM:15 HUP:1; do
	rm -f "$tmpdir/yarn.pid"
	stopped "the rmadmin fallback" "${sig%:*}" "${sig#*:}" "$tmpdir/yarn.pid"
done
echo ok
