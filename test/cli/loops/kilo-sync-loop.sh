# SPDX-License-Identifier: Apache-2.0
# kilo-sync-loop: backoff on 75 capped, bad config retried at the interval,
# heartbeat, flock against a second loop, SIGTERM finishes the pass; the
# last report and the last failed one kept in STATE_DIR, kilo-sync's stderr
# lines in the loop's log.
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
rc=$(sed -n "${n}p" "$STUB_DIR/codes")
case ${STUB_OUT:-report} in
report) printf '{"kind":"SyncReport","pass":%d,"exit":%d}\n' "$n" "$rc" ;;
big) head -c 104857600 /dev/zero ;;
half) # half a report, then killed (an OOM kill, a liveness probe)
	printf '{"kind":"SyncReport","items":[{"node":"a"'
	kill -9 $$
	;;
bigerr) # 1000 lines, 100 KiB on stderr
	i=0
	while [ "$i" -lt 1000 ]; do
		printf 'kilo-sync: filler %04d %s\n' "$i" xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx >&2
		i=$((i + 1))
	done
	;;
wait) # a line, then on until the test says go (at most 10 s)
	echo "kilo-sync: node 'worker-9': failed (rm-refused): early" >&2
	i=0
	while [ ! -e "$STUB_DIR/go" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	;;
int) # Ctrl-C: a cleanup that takes a while, then exit 130
	trap 'echo "kilo-sync: interrupted" >&2; sleep 0.3; echo "kilo-sync: cleaned up" >&2; exit 130' INT
	: >"$STUB_DIR/started"
	sleep 5 &
	wait
	;;
esac
echo "kilo-sync: node 'worker-3': skipped (unknown-node-id): node id nm-0:8041 unknown to the RM of cluster 'default'" >&2
printf "kilo-sync: cluster 'b': unreachable (rm-unreachable): pass %d" "$n" >&2
exit "${STUB_RC:-$(sed -n "${n}p" "$STUB_DIR/codes")}"
STUB
chmod +x "$tmpdir/stub"
export STUB_DIR=$tmpdir
printf '75\n75\n75\n2\n0\n' >"$tmpdir/codes"

export STATE_DIR=$tmpdir/state
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

# STATE_DIR: the last report, and the last failed one (exit 3 here) that a
# later exit 0 does not replace; kilo-sync's stderr lines with the loop's
# prefix, the last one without a newline too
st=$tmpdir/st
one_pass() {
	INTERVAL=1 PASSES=1 KILO_SYNC=$tmpdir/stub LOCK_FILE=$tmpdir/lock HEARTBEAT='' \
		STATE_DIR=$st env "$@" sh "$loop" 2>>"$tmpdir/log4"
}
rm -f "$tmpdir/n" "$tmpdir/calls" "$tmpdir/log4"
{ printf '0\n3\n0\n2\n'; yes 0 | head -n 40; } >"$tmpdir/codes"
one_pass || fail "pass 1: $(cat "$tmpdir/log4")"
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":1,"exit":0}' "report after an exit 0"
[ ! -e "$st/last-failed-report.json" ] || fail "a failed report after an exit 0"
one_pass || fail "pass 2"
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":2,"exit":3}' "report after an exit 3"
assert_eq "$(cat "$st/last-failed-report.json")" '{"kind":"SyncReport","pass":2,"exit":3}' "failed report after an exit 3"
grep -q "pass 1: exit 3 (partial) in [0-9]*s; next in [0-9.]*s; report in $st/last-failed-report.json, stderr in $st/last-failed.log\$" \
	"$tmpdir/log4" || fail "the pass line names the failed report: $(cat "$tmpdir/log4")"
# the failed pass's stderr, as kilo-sync wrote it (the last line without
# its newline)
assert_eq "$(cat "$st/last-failed.log"; echo .)" "kilo-sync: node 'worker-3': skipped (unknown-node-id): node id nm-0:8041 unknown to the RM of cluster 'default'
kilo-sync: cluster 'b': unreachable (rm-unreachable): pass 2." "last-failed.log after an exit 3"
one_pass || fail "pass 3"
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":3,"exit":0}' "report after a later exit 0"
assert_eq "$(cat "$st/last-failed-report.json")" '{"kind":"SyncReport","pass":2,"exit":3}' \
	"failed report after a later exit 0"
assert_eq "$(ls -A "$st" | tr '\n' ' ')" "last-failed-report.json last-failed.log last-report.json " "files in STATE_DIR"
assert_eq "$(grep -cE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z kilo-sync-loop: kilo-sync: node 'worker-3': skipped \(unknown-node-id\): node id nm-0:8041 unknown to the RM of cluster 'default'\$" "$tmpdir/log4")" \
	3 "per-node lines in the log"
for n in 1 2 3; do
	grep -qE "^[0-9T:Z-]+ kilo-sync-loop: kilo-sync: cluster 'b': unreachable \(rm-unreachable\): pass $n\$" \
		"$tmpdir/log4" || fail "the last line of pass $n (no newline): $(cat "$tmpdir/log4")"
done
# exit 2 with no report printed (a bad config, or exit 1 before planning):
# the last good report and the last failed one stay (not an empty file),
# the pass's stderr is in last-failed.log
: >"$tmpdir/log4"
one_pass STUB_OUT=none || fail "pass 4"
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":3,"exit":0}' \
	"last-report.json after an exit 2 that printed nothing"
assert_eq "$(cat "$st/last-failed-report.json")" '{"kind":"SyncReport","pass":2,"exit":3}' \
	"last-failed-report.json after an exit 2 that printed nothing"
assert_eq "$(cat "$st/last-failed.log"; echo .)" "kilo-sync: node 'worker-3': skipped (unknown-node-id): node id nm-0:8041 unknown to the RM of cluster 'default'
kilo-sync: cluster 'b': unreachable (rm-unreachable): pass 4." "last-failed.log after an exit 2"
[ "$(stat -c %h "$st/last-report.json")" = 1 ] || fail "last-report.json is linked to another file"
grep -q "pass 1: exit 2 (bad config or input: retried at the interval) in [0-9]*s; next in [0-9.]*s; no report printed (last-report.json and last-failed-report.json are an earlier pass's), stderr in $st/last-failed.log\$" "$tmpdir/log4" ||
	fail "exit 2 line: $(cat "$tmpdir/log4")"
assert_eq "$(ls -A "$st" | tr '\n' ' ')" "last-failed-report.json last-failed.log last-report.json " "files after an exit 2"
one_pass || fail "pass 5"
# a pass killed mid-report (from a review): the kept reports stay whole
: >"$tmpdir/log4"
n_was=$(cat "$tmpdir/n")
one_pass STUB_OUT=half || fail "pass 5b"
echo "$n_was" >"$tmpdir/n" # the passes below count as before
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":5,"exit":0}' \
	"last-report.json after a pass killed mid-report"
assert_eq "$(cat "$st/last-failed-report.json")" '{"kind":"SyncReport","pass":2,"exit":3}' \
	"last-failed-report.json after a pass killed mid-report"
grep -q "pass 1: exit 137 (failed) .*; killed by signal 9: its output not kept" "$tmpdir/log4" ||
	fail "killed pass: $(cat "$tmpdir/log4")"
# a runaway report (100 MiB) is not kept: logged, the old file stays, no
# temporary file left, the exit code still read
: >"$tmpdir/log4"
one_pass STUB_OUT=big || fail "pass 6"
grep -q 'pass 1: report not kept: over 67108864 bytes' "$tmpdir/log4" || fail "big report: $(cat "$tmpdir/log4")"
grep -q 'pass 1: exit 0 (ok)' "$tmpdir/log4" || fail "big report: exit code: $(cat "$tmpdir/log4")"
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":5,"exit":0}' "report after a runaway one"
assert_eq "$(ls -A "$st" | tr '\n' ' ')" "last-failed-report.json last-failed.log last-report.json " "files after a runaway report"

# STATE_DIR set but empty: nothing kept, the lines still logged
: >"$tmpdir/log4"
one_pass STATE_DIR='' || fail "no STATE_DIR"
grep -q "pass 1: exit 0 (ok)" "$tmpdir/log4" || fail "no STATE_DIR: $(cat "$tmpdir/log4")"
grep -q "kilo-sync-loop: kilo-sync: node 'worker-3'" "$tmpdir/log4" || fail "no STATE_DIR: no node line"
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":5,"exit":0}' "STATE_DIR='' kept a report"
# a full disk (a 64 KiB tmpfs as STATE_DIR, a 100 KiB report): logged, the
# old report stays whole, no temporary file left, the loop goes on
if [ "$(id -u)" = 0 ] && mkdir "$tmpdir/full" && mount -t tmpfs -o size=64k,mode=0755 tmpfs "$tmpdir/full" 2>/dev/null; then
	at_exit "umount '$tmpdir/full'"
	: >"$tmpdir/log4"
	one_pass STATE_DIR="$tmpdir/full" || fail "a small pass on the tmpfs"
	one_pass STATE_DIR="$tmpdir/full" STUB_OUT=big PASSES=2 || fail "a full STATE_DIR stopped the loop"
	grep -q 'pass 1: report not kept: head: error writing .*No space left on device' "$tmpdir/log4" ||
		fail "disk full: $(cat "$tmpdir/log4")"
	grep -q 'pass 2: exit 0 (ok)' "$tmpdir/log4" || fail "disk full: no second pass: $(cat "$tmpdir/log4")"
	assert_eq "$(cat "$tmpdir/full/last-report.json")" '{"kind":"SyncReport","pass":8,"exit":0}' \
		"report after a full disk"
	assert_eq "$(ls -A "$tmpdir/full" | tr '\n' ' ')" "last-report.json " "files after a full disk"
	# a failed pass's stderr (100 KiB) on the full disk: every line still
	# logged, whole; the stderr not kept, logged; no temporary file left
	: >"$tmpdir/log4"
	one_pass STATE_DIR="$tmpdir/full" STUB_OUT=bigerr STUB_RC=1 || fail "a failed pass on a full disk"
	assert_eq "$(grep -cE "^[0-9T:Z-]+ kilo-sync-loop: kilo-sync: filler [0-9]{4} x{82}\$" "$tmpdir/log4")" 1000 \
		"stderr lines logged on a full disk"
	grep -q "pass 1: stderr not kept: writing $tmpdir/full/.stderr.* failed" "$tmpdir/log4" ||
		fail "stderr on a full disk: $(grep -v filler "$tmpdir/log4")"
	# (the report, 40 bytes, is kept or not as the disk filled first)
	assert_eq "$(find "$tmpdir/full" -mindepth 1 ! -name last-report.json ! -name last-failed-report.json)" "" \
		"files after a failed pass on a full disk"
	grep -qx '{"kind":"SyncReport","pass":[0-9]*,"exit":[0-9]*}' "$tmpdir/full/last-report.json" ||
		fail "last-report.json after a full disk: $(cat "$tmpdir/full/last-report.json")"
elif [ "$(id -u)" = 0 ]; then
	echo "note: not run: the full-disk case (mounting a 64 KiB tmpfs failed)"
else
	echo "note: not run: the full-disk case (mounting a tmpfs needs root; uid $(id -u))"
fi

# kilo-sync's lines are logged as they come, not at the end of the pass
: >"$tmpdir/log4"
rm -f "$tmpdir/go"
one_pass STUB_OUT=wait &
w=0
until grep -q "kilo-sync-loop: kilo-sync: node 'worker-9': failed (rm-refused): early" "$tmpdir/log4"; do
	w=$((w + 1))
	[ "$w" -lt 50 ] || fail "a line not logged while kilo-sync runs: $(cat "$tmpdir/log4")"
	sleep 0.1
done
: >"$tmpdir/go"
wait $! || fail "the pass of the early line"
# Ctrl-C (SIGINT to the process group): kilo-sync's cleanup lines are
# logged, its exit code is the pass's, the loop stops with 0
: >"$tmpdir/log4"
rm -f "$tmpdir/started"
python3 - "$loop" "$tmpdir" <<'PY'
import os, signal, subprocess, sys, time
loop, tmp = sys.argv[1:]
env = dict(os.environ, INTERVAL="30", KILO_SYNC=tmp + "/stub", LOCK_FILE=tmp + "/lock",
           HEARTBEAT="", STATE_DIR=tmp + "/st", STUB_OUT="int")
def child():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()
with open(tmp + "/log4", "w") as log:
    p = subprocess.Popen(["sh", loop], env=env, stderr=log, preexec_fn=child)
    for _ in range(100):
        if os.path.exists(tmp + "/started"):
            break
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)
    sys.exit(p.wait(timeout=20))
PY
assert_eq "$?" 0 "the loop's exit after a Ctrl-C"
grep -q 'kilo-sync-loop: kilo-sync: cleaned up$' "$tmpdir/log4" || fail "cleanup line: $(cat "$tmpdir/log4")"
grep -q 'pass 1: exit 130 (failed)' "$tmpdir/log4" || fail "Ctrl-C exit code: $(cat "$tmpdir/log4")"
grep -q 'stopping after 1 pass(es)' "$tmpdir/log4" || fail "Ctrl-C: $(cat "$tmpdir/log4")"

# STATE_DIR others may write: refused before anything is written, unless it
# is empty and this user's (a Kubernetes emptyDir, 0777): then made 0755
mkdir -m 0777 "$tmpdir/open" && touch "$tmpdir/open/planted"
assert_eq "$(one_pass STATE_DIR="$tmpdir/open" 2>&1; echo "exit $?"; grep -v "^[0-9T:Z-]* kilo-sync-loop: \(pass\|starting\|stopping\|kilo-sync:\)" "$tmpdir/log4" | tail -n 1)" \
	"exit 2
kilo-sync-loop: STATE_DIR '$tmpdir/open': '$tmpdir/open' is writable by its group or others: another user could swap what is written there; use a dir of root's that no one else may write (such as /run/kilo, mode 0755)" \
	"a world-writable STATE_DIR with a file in it"
assert_eq "$(ls -A "$tmpdir/open")" planted "written into a refused STATE_DIR"
mkdir -m 0777 "$tmpdir/empty"
one_pass STATE_DIR="$tmpdir/empty" || fail "an empty 0777 STATE_DIR of this user's: $(tail -n 3 "$tmpdir/log4")"
assert_eq "$(stat -c %a "$tmpdir/empty")" 755 "an empty 0777 STATE_DIR, after a pass"
[ -s "$tmpdir/empty/last-report.json" ] || fail "no report in the tightened STATE_DIR"
# the same for the lock's dir (the Deployment's /run/kilo emptyDir)
mkdir -m 0777 "$tmpdir/run"
one_pass LOCK_FILE="$tmpdir/run/kilo-sync.lock" || fail "an empty 0777 lock dir: $(tail -n 3 "$tmpdir/log4")"
assert_eq "$(stat -c %a "$tmpdir/run")" 755 "an empty 0777 lock dir, after a pass"
mkdir -m 1777 "$tmpdir/sticky"
one_pass STATE_DIR="$tmpdir/sticky" 2>/dev/null && fail "a sticky shared STATE_DIR accepted"
assert_eq "$(stat -c %a "$tmpdir/sticky")" 1777 "a sticky dir is never tightened"
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$tmpdir"
	# another user's empty 0777 dir is not made ours
	mkdir -m 0777 "$tmpdir/theirs" && chown nobody "$tmpdir/theirs"
	one_pass STATE_DIR="$tmpdir/theirs" && fail "another user's STATE_DIR accepted"
	assert_eq "$(stat -c '%U %a' "$tmpdir/theirs") $(ls -A "$tmpdir/theirs")" "nobody 777 " "another user's dir"
	# a symlink of nobody's in a sticky dir, to a dir of ours
	mkdir -m 1777 "$tmpdir/pub" && mkdir "$tmpdir/ours"
	setpriv --reuid=nobody --regid=nogroup --clear-groups ln -s "$tmpdir/ours" "$tmpdir/pub/state"
	: >"$tmpdir/log4"
	one_pass STATE_DIR="$tmpdir/pub/state" && fail "a STATE_DIR through another user's symlink accepted"
	grep -q "STATE_DIR '$tmpdir/pub/state': '$tmpdir/pub/state' is a symlink another user could point elsewhere" \
		"$tmpdir/log4" || fail "symlink message: $(cat "$tmpdir/log4")"
	[ -z "$(ls -A "$tmpdir/ours")" ] || fail "written through another user's symlink"
	# a STATE_DIR to be made inside another user's dir: refused before
	# anything is made there
	one_pass STATE_DIR="$tmpdir/theirs/new/state" && fail "a STATE_DIR made in another user's dir"
	[ ! -e "$tmpdir/theirs/new" ] || fail "made dirs in another user's dir before refusing"
else
	echo "note: not run: the cases of another user's STATE_DIR, symlink and parent dir (chown and setpriv need root; uid $(id -u))"
fi
# a symlink to a dir at last-report.json or at HEARTBEAT: the file replaces
# the link, not moved into the dir it names; a dir at last-failed.log: left,
# logged
st=$tmpdir/st2
rm -f "$tmpdir/n"
printf '0\n3\n' >"$tmpdir/codes"
mkdir -p "$st" "$tmpdir/elsewhere" && ln -s "$tmpdir/elsewhere" "$st/last-report.json" &&
	mkdir "$st/last-failed.log" || fail "setup of st2"
: >"$tmpdir/log4"
mkdir "$tmpdir/hbdir" "$tmpdir/elsewhere2" && ln -s "$tmpdir/elsewhere2" "$tmpdir/hbdir/hb" || fail "setup of hb"
one_pass HEARTBEAT="$tmpdir/hbdir/hb" || fail "over a symlink: $(cat "$tmpdir/log4")"
[ -f "$tmpdir/hbdir/hb" ] && [ ! -L "$tmpdir/hbdir/hb" ] && [ -z "$(ls -A "$tmpdir/elsewhere2")" ] ||
	fail "the heartbeat through a symlink: $(ls -la "$tmpdir/hbdir" "$tmpdir/elsewhere2")"
[ -f "$st/last-report.json" ] && [ ! -L "$st/last-report.json" ] ||
	fail "last-report.json through a symlink: $(ls -la "$st" "$tmpdir/elsewhere")"
assert_eq "$(cat "$st/last-report.json")" '{"kind":"SyncReport","pass":1,"exit":0}' "report over a symlink"
assert_eq "$(ls -A "$tmpdir/elsewhere")" "" "written into the dir a symlink named"
one_pass || fail "a dir at last-failed.log"
grep -q "pass 1: stderr not kept: '$st/last-failed.log' is a directory" "$tmpdir/log4" ||
	fail "a dir at last-failed.log: $(cat "$tmpdir/log4")"
assert_eq "$(ls -A "$st/last-failed.log")" "" "written into the dir at last-failed.log"
assert_eq "$(cat "$st/last-failed-report.json")" '{"kind":"SyncReport","pass":2,"exit":3}' "failed report beside a dir"
echo "ok"
