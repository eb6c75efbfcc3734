# SPDX-License-Identifier: Apache-2.0
# node-qos-loop with the real tools on a fake tree: every step runs and
# leaves its document, static steps run on the first pass and then every
# STATIC_EVERY seconds, metrics land in the textfile dir, a failing step is
# logged by name while the others go on, SIGTERM ends the loop with 0.
. "$KILO_TOP/test/lib.sh"
loop=$KILO_TOP/scripts/node-qos-loop
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1 >/dev/null
cp -R "$FIX/sysroot/no-resctrl/." "$tmpdir/t/" 2>/dev/null || :
mkdir -p "$tmpdir/tf"
run_loop() {
	INTERVAL=1 STATIC_EVERY=60 STATE_DIR="$tmpdir/state" TEXTFILE_DIR="$tmpdir/tf" \
		NODE_ARGS="--sysroot $tmpdir/t" COPILOT_ARGS="--no-nm" LOCK_FILE="$tmpdir/lock" \
		HEARTBEAT="$tmpdir/hb" "$@" sh "$loop"
}
PASSES=2 run_loop env 2>"$tmpdir/log" || fail "loop exit $?: $(cat "$tmpdir/log")"
cat "$tmpdir/log"
for s in usage list evict kill suppress static resctrl metrics; do
	[ -s "$tmpdir/state/last/$s.json" ] || [ "$s" = metrics ] ||
		fail "step $s left no document: $(cat "$tmpdir/state/last/$s.err" 2>/dev/null)"
done
grep -q '"kind":"NodeUsage"' "$tmpdir/state/last/usage.json" || fail "usage document"
grep -q '"kind":"ContainerList"' "$tmpdir/state/last/list.json" || fail "list document"
grep -q '"kind":"KillPlan"' "$tmpdir/state/last/evict.json" || fail "evict document"
grep -q '"kind":"KillReport"' "$tmpdir/state/last/kill.json" || fail "kill document"
grep -q '"kind":"CgroupChanges"' "$tmpdir/state/last/static.json" || fail "static document"
grep -q '"kind":"ResctrlReport"' "$tmpdir/state/last/resctrl.json" || fail "resctrl document"
[ -s "$tmpdir/tf/yarn-copilot.prom" ] || fail "no metrics textfile"
[ -s "$tmpdir/state/evictor.json" ] || fail "evictor state not kept"
# qos-cgset gets --state STATE_DIR/qos-cgset.json (here a directory: it
# warns, and a step's warning is logged once until it changes), none with
# QOS_RECHECK=0; a bad QOS_RECHECK stops the loop at once
mkdir "$tmpdir/state/qos-cgset.json"
PASSES=2 run_loop env 2>"$tmpdir/log1" || fail "loop exit $?"
assert_eq "$(grep -c 'step suppress warned: qos-cgset: warning: .*qos-cgset.json' "$tmpdir/log1")" 1 \
	"the state warning, logged once: $(cat "$tmpdir/log1")"
PASSES=1 run_loop env QOS_RECHECK=0 2>"$tmpdir/log1" || fail "loop exit $?"
! grep -q 'warned' "$tmpdir/log1" || fail "QOS_RECHECK=0 still passed --state: $(cat "$tmpdir/log1")"
rmdir "$tmpdir/state/qos-cgset.json"
assert_eq "$(QOS_RECHECK=1m sh "$loop" 2>&1; echo "exit $?")" \
	"node-qos-loop: invalid QOS_RECHECK: '1m' (expected an integer 0..86400)
exit 2" "a bad QOS_RECHECK"
# a leading zero would be octal to the shell's arithmetic later on
assert_eq "$(INTERVAL=08 sh "$loop" 2>&1; echo "exit $?")" \
	"node-qos-loop: invalid INTERVAL: '08' (expected an integer 1..86400)
exit 2" "INTERVAL with a leading zero"
! grep -q 'failed with exit' "$tmpdir/log" || fail "a step failed"
[ -f "$tmpdir/hb" ] || fail "no heartbeat"

# the loop's own files: a symlink at the lock or at the heartbeat's old
# temporary name (HEARTBEAT.tmp) used to truncate its target; a STATE_DIR
# others may write is refused before anything is written there
echo precious >"$tmpdir/precious"
ln -s "$tmpdir/precious" "$tmpdir/lock2"
ln -s "$tmpdir/precious" "$tmpdir/hb.tmp"
PASSES=1 run_loop env LOCK_FILE="$tmpdir/lock2" 2>"$tmpdir/log3" || fail "loop exit $?: $(cat "$tmpdir/log3")"
assert_eq "$(cat "$tmpdir/precious")" precious "the file behind the lock and heartbeat symlinks"
[ -f "$tmpdir/hb" ] && [ ! -L "$tmpdir/hb" ] || fail "no heartbeat file"
mkdir -m 0777 "$tmpdir/open"
assert_eq "$(PASSES=1 run_loop env STATE_DIR="$tmpdir/open" 2>&1 >/dev/null; echo "exit $?")" \
	"node-qos-loop: STATE_DIR '$tmpdir/open': '$tmpdir/open' is writable by its group or others: another user could swap what is written there; use a dir of root's that no one else may write (such as /run/kilo, mode 0755)
exit 2" "a world-writable STATE_DIR"
[ -z "$(ls -A "$tmpdir/open")" ] || fail "written into a refused STATE_DIR: $(ls -A "$tmpdir/open")"
# a STATE_DIR of root's inside a dir another user owns: that user could
# swap it for one of their own after the check (the loop's redirections
# then followed their symlinks); a heartbeat in a sticky shared dir (a
# symlink planted at its name is followed)
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$tmpdir/theirs/state"
	chown nobody "$tmpdir/theirs"
	chmod 755 "$tmpdir"
	assert_eq "$(PASSES=1 run_loop env STATE_DIR="$tmpdir/theirs/state" 2>&1 >/dev/null; echo "exit $?")" \
		"node-qos-loop: STATE_DIR '$tmpdir/theirs/state': '$tmpdir/theirs' is owned by uid 65534: another user could swap what is written there; use a dir of root's that no one else may write (such as /run/kilo, mode 0755)
exit 2" "a STATE_DIR in another user's dir"
	mkdir -m 1777 "$tmpdir/sticky"
	assert_eq "$(PASSES=1 run_loop env HEARTBEAT="$tmpdir/sticky/hb" 2>&1 >/dev/null; echo "exit $?")" \
		"node-qos-loop: HEARTBEAT '$tmpdir/sticky/hb': '$tmpdir/sticky' is writable by its group or others: another user could swap what is written there; use a dir of root's that no one else may write (such as /run/kilo, mode 0755)
exit 2" "a HEARTBEAT in a sticky shared dir"
	# a STATE_DIR to be made inside nobody's dir: refused before anything
	# is made there
	assert_eq "$(PASSES=1 run_loop env STATE_DIR="$tmpdir/theirs/new/state" 2>&1 >/dev/null; echo "exit $?")" \
		"node-qos-loop: STATE_DIR '$tmpdir/theirs/new/state': '$tmpdir/theirs' is owned by uid 65534: another user could swap what is written there; use a dir of root's that no one else may write (such as /run/kilo, mode 0755)
exit 2" "a STATE_DIR to be made in another user's dir"
	[ ! -e "$tmpdir/theirs/new" ] || fail "made dirs in another user's dir before refusing"
	# a symlink of nobody's on the way, to a dir of root's: it passed (the
	# check resolved it), then nobody pointed it at a dir of their own
	mkdir -m 1777 "$tmpdir/pub" && mkdir "$tmpdir/rootdir"
	setpriv --reuid=nobody --regid=nogroup --clear-groups ln -s "$tmpdir/rootdir" "$tmpdir/pub/kilo-node"
	assert_eq "$(PASSES=1 run_loop env STATE_DIR="$tmpdir/pub/kilo-node" 2>&1 >/dev/null; echo "exit $?")" \
		"node-qos-loop: STATE_DIR '$tmpdir/pub/kilo-node': '$tmpdir/pub/kilo-node' is a symlink another user could point elsewhere (its owner uid 65534, in '$tmpdir/pub'); use a dir of root's that no one else may write (such as /run/kilo, mode 0755)
exit 2" "a STATE_DIR through another user's symlink"
	[ -z "$(ls -A "$tmpdir/rootdir")" ] || fail "written through another user's symlink"
fi
assert_eq "$(PASSES=1 run_loop env STATE_DIR="$tmpdir/with space" 2>&1 >/dev/null; echo "exit $?")" \
	"node-qos-loop: invalid STATE_DIR: '$tmpdir/with space' (a path without blanks: it is passed in word lists)
exit 2" "a STATE_DIR with a blank"
# a TEXTFILE_DIR that does not exist (the systemd default before
# node_exporter is set up): metrics off with a warning, eviction goes on
PASSES=1 run_loop env TEXTFILE_DIR="$tmpdir/no-such-dir" 2>"$tmpdir/log5" || fail "missing TEXTFILE_DIR: exit $?: $(cat "$tmpdir/log5")"
grep -q "metrics off: TEXTFILE_DIR '$tmpdir/no-such-dir' cannot be used" "$tmpdir/log5" ||
	fail "missing TEXTFILE_DIR: $(cat "$tmpdir/log5")"
grep -q '"kind":"KillPlan"' "$tmpdir/state/last/evict.json" || fail "no plan with a missing TEXTFILE_DIR"

# a broken policy: evictor, qos-cgset and resctrl-assign fail (exit 2) and
# are named; node-usage, list and metrics still run; the counted run exits 1
# (a timer's oneshot showed success) and the heartbeat is not touched (the
# liveness probe never saw a loop that protects nothing)
echo 'resourceUsedThresholdWithBE: {memoryEvictThresholdPercent: 170}' >"$tmpdir/bad.yaml"
rm -f "$tmpdir/tf/yarn-copilot.prom" "$tmpdir/hb"
PASSES=1 run_loop env POLICY="$tmpdir/bad.yaml" 2>"$tmpdir/log2"
assert_eq "$?" 1 "a pass with failed steps: exit"
[ ! -e "$tmpdir/hb" ] || fail "heartbeat touched by a pass whose evictor failed"
cat "$tmpdir/log2"
grep -q 'step evict failed with exit 2: evictor: .*memoryEvictThresholdPercent' "$tmpdir/log2" ||
	fail "evictor failure not named"
grep -q 'step suppress failed with exit 2' "$tmpdir/log2" || fail "qos-cgset failure not named"
[ -s "$tmpdir/tf/yarn-copilot.prom" ] || fail "metrics did not run after a failed step"

# node-usage exit 3 (one file unreadable: the document is out, a value
# null): the evictor and qos-cgset still run (they were skipped)
rm -f "$tmpdir/hb" "$tmpdir/state/last/evict.json"
PASSES=1 run_loop env KILO_FAULTS=read:cpu.cfs_quota_us:EIO 2>"$tmpdir/log4"
assert_eq "$?" 1 "a pass with node-usage exit 3: exit ($(cat "$tmpdir/log4"))"
grep -q 'step usage failed with exit 3' "$tmpdir/log4" || fail "usage exit 3 not logged: $(cat "$tmpdir/log4")"
! grep -q 'evictor and qos-cgset skipped' "$tmpdir/log4" || fail "evictor skipped on a partial NodeUsage"
grep -q '"kind":"KillPlan"' "$tmpdir/state/last/evict.json" || fail "no plan after a partial NodeUsage"
[ -e "$tmpdir/hb" ] || fail "no heartbeat after a pass whose evictor ran"

# each step's document replaced whole: stub tools that print their pass
# number; the evictor of the second pass stops halfway, and a reader then
# sees the first pass's plan, whole, never half of the second; no
# temporary file is left
bin=$tmpdir/bin
mkdir -p "$bin"
for t in node-usage yarn-copilot evictor qos-cgset resctrl-assign; do
	cat >"$bin/$t" <<EOF
#!/bin/sh
case $t in evictor | qos-cgset) cat >/dev/null ;; yarn-copilot) [ "\$#" = 1 ] || cat >/dev/null ;; esac
n=\$(cat "$tmpdir/pass")
printf '{"tool":"%s",' "$t"
if [ "$t" = evictor ] && [ "\$n" = 2 ]; then : >"$tmpdir/halfway"; sleep 1; fi
printf '"pass":%d}\n' "\$n"
EOF
	chmod +x "$bin/$t"
done
stub_pass() {
	echo "$1" >"$tmpdir/pass"
	INTERVAL=1 STATIC_EVERY=60 PASSES=1 STATE_DIR="$tmpdir/st" KILO_BIN="$bin" \
		LOCK_FILE="$tmpdir/lock" HEARTBEAT="" sh "$loop" 2>>"$tmpdir/log6"
}
stub_pass 1 || fail "stub pass 1: $(cat "$tmpdir/log6")"
for s in usage:node-usage list:yarn-copilot evict:evictor kill:yarn-copilot suppress:qos-cgset \
	static:qos-cgset resctrl:resctrl-assign; do
	assert_eq "$(cat "$tmpdir/st/last/${s%%:*}.json")" "{\"tool\":\"${s#*:}\",\"pass\":1}" \
		"step ${s%%:*}'s document"
done
rm -f "$tmpdir/halfway"
stub_pass 2 &
p2=$!
at_exit "kill $p2 2>/dev/null"
w=0
while [ ! -e "$tmpdir/halfway" ]; do
	w=$((w + 1))
	[ "$w" -lt 200 ] || fail "the evictor of pass 2 did not start"
	sleep 0.05
done
assert_eq "$(cat "$tmpdir/st/last/evict.json")" '{"tool":"evictor","pass":1}' \
	"the evictor's document while the next one is written"
wait "$p2" || fail "stub pass 2: $(cat "$tmpdir/log6")"
assert_eq "$(cat "$tmpdir/st/last/evict.json")" '{"tool":"evictor","pass":2}' "evict after pass 2"
assert_eq "$(cat "$tmpdir/st/last/kill.json")" '{"tool":"yarn-copilot","pass":2}' "kill after pass 2"
assert_eq "$(find "$tmpdir/st" -name '.*' | wc -l)" 0 "temporary files left"

# SIGTERM while sleeping: exit 0
INTERVAL=1 STATE_DIR="$tmpdir/state" NODE_ARGS="--sysroot $tmpdir/t" COPILOT_ARGS="--no-nm" \
	LOCK_FILE="$tmpdir/lock" HEARTBEAT="$tmpdir/hb" sh "$loop" 2>"$tmpdir/log3" &
pid=$!
at_exit "kill $pid 2>/dev/null"
sleep 1.5
kill -TERM "$pid"
wait "$pid"
assert_eq "$?" 0 "exit after SIGTERM"
grep -q 'stopping after' "$tmpdir/log3" || fail "no stop line"
exit 0
