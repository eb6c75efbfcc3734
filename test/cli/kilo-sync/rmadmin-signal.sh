#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync stopped (SIGTERM, SIGHUP) while its rmadmin fallback runs: the
# command runs in a process group of its own (so a timeout can kill the JVM
# `yarn` starts), and that group must end with kilo-sync, not live on under
# init (found by a new operator's Ctrl-C of the real-YARN tests).
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/fake/sync-cluster.sh"
cd "$tmpdir" || exit 1
rm_post /config '{"endpoint":"missing404"}'
rm_post /restart '{}'
# a yarn command that starts a child (as `yarn` starts its JVM) and waits
cat >"$tmpdir/yarn" <<EOC
#!/bin/sh
sleep 1000 &
echo "\$\$ \$!" >"$tmpdir/yarn.pids.tmp"
mv "$tmpdir/yarn.pids.tmp" "$tmpdir/yarn.pids"
wait
EOC
chmod +x "$tmpdir/yarn"
sed "s|timeoutMs: 5000|timeoutMs: 5000\n    rmadmin: {command: $tmpdir/yarn, timeoutMs: 60000}|" \
	"$tmpdir/kilo-sync.yaml" >"$tmpdir/rmadmin.yaml"
for sig in TERM:15 HUP:1; do
	num=${sig#*:} sig=${sig%:*}
	rm -f "$tmpdir/yarn.pids"
	kilo-sync --config "$tmpdir/rmadmin.yaml" >"$tmpdir/report.json" 2>"$tmpdir/sync.err" &
	ks=$!
	wait_nonempty "the rmadmin command ($sig)" "$tmpdir/yarn.pids"
	read -r shell child <"$tmpdir/yarn.pids"
	at_exit "kill -KILL -$shell $shell $child 2>/dev/null"
	kill -"$sig" "$ks"
	wait "$ks"
	rc=$?
	assert_eq "$rc" "$((128 + num))" "kilo-sync's exit on SIG$sig"
	i=0
	while alive "$shell" || alive "$child"; do
		i=$((i + 1))
		[ $i -lt 50 ] || fail "SIG$sig: the rmadmin command or its child outlived kilo-sync"
		sleep 0.1
	done
done
echo ok
