# SPDX-License-Identifier: Apache-2.0
# kilo-sync-loop: backoff on 75 capped, bad config retried at the interval,
# heartbeat, flock against a second loop, SIGTERM finishes the pass.
. "$KILO_TOP/test/lib.sh"
loop=$KILO_TOP/scripts/kilo-sync-loop

# a stub kilo-sync that exits with the codes listed in $tmpdir/codes, in turn
cat >"$tmpdir/stub" <<'STUB'
#!/bin/sh
n=$(cat "$STUB_DIR/n" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$STUB_DIR/n"
echo "args: $*" >>"$STUB_DIR/calls"
[ -n "${STUB_SLEEP:-}" ] && sleep "$STUB_SLEEP"
echo "done $n" >>"$STUB_DIR/calls"
exit "$(sed -n "${n}p" "$STUB_DIR/codes")"
STUB
chmod +x "$tmpdir/stub"
export STUB_DIR=$tmpdir
printf '75\n75\n75\n2\n0\n' >"$tmpdir/codes"

INTERVAL=1 MAX_BACKOFF=2 PASSES=5 KILO_SYNC=$tmpdir/stub KILO_SYNC_ARGS="--config x.yaml" \
	LOCK_FILE=$tmpdir/lock HEARTBEAT=$tmpdir/hb sh "$loop" 2>"$tmpdir/log" ||
	fail "loop exited $?"
cat "$tmpdir/log"
grep -q 'pass 1: exit 75 (temporary failure) in [0-9]*s; next in 1s' "$tmpdir/log" || fail "pass 1"
grep -q 'pass 2: exit 75 (temporary failure) in [0-9]*s; next in 2s' "$tmpdir/log" || fail "pass 2"
grep -q 'pass 3: exit 75 (temporary failure) in [0-9]*s; next in 2s' "$tmpdir/log" || fail "cap"
grep -q 'pass 4: exit 2 (bad config or input: retried at the interval)' "$tmpdir/log" || fail "pass 4"
grep -Eq 'pass 4: .*next in 1\.(0[0-9][0-9]|100)s' "$tmpdir/log" || fail "jitter not 0-10%"
grep -q 'pass 5: exit 0 (ok)' "$tmpdir/log" || fail "pass 5"
assert_eq "$(grep -c 'args: --config x.yaml' "$tmpdir/calls")" 5 "calls with args"
[ -f "$tmpdir/hb" ] || fail "no heartbeat"
grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z kilo-sync-loop: ' "$tmpdir/log" || fail "timestamps"

# flock: a second loop on the same lock exits 1 at once
rm -f "$tmpdir/n" "$tmpdir/calls"
printf '0\n0\n0\n' >"$tmpdir/codes"
INTERVAL=30 KILO_SYNC=$tmpdir/stub LOCK_FILE=$tmpdir/lock HEARTBEAT='' sh "$loop" 2>/dev/null &
first=$!
at_exit "kill $first 2>/dev/null"
sleep 0.5
INTERVAL=30 KILO_SYNC=$tmpdir/stub LOCK_FILE=$tmpdir/lock HEARTBEAT='' sh "$loop" 2>"$tmpdir/log2"
assert_eq "$?" 1 "second loop exit"
grep -q 'another loop holds the lock' "$tmpdir/log2" || fail "lock message"
# SIGTERM while sleeping: exits 0 promptly
kill -TERM "$first"
wait "$first"
assert_eq "$?" 0 "loop exit after SIGTERM while sleeping"

# SIGTERM during a pass: the pass finishes, then exit 0
rm -f "$tmpdir/n" "$tmpdir/calls"
STUB_SLEEP=1 INTERVAL=30 KILO_SYNC=$tmpdir/stub LOCK_FILE=$tmpdir/lock HEARTBEAT='' \
	sh "$loop" 2>"$tmpdir/log3" &
pid=$!
sleep 0.4
kill -TERM "$pid"
wait "$pid"
assert_eq "$?" 0 "loop exit after SIGTERM during a pass"
grep -q 'done 1' "$tmpdir/calls" || fail "pass was cut short"
grep -q 'stopping after 1 pass(es)' "$tmpdir/log3" || fail "stop message"
echo "ok"
