#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --state and --textfile-dir in a directory others may write (threat-model.md:
# state, textfile and temp files), and state that is corrupt or shared:
#  - another user's symlink at the state path is replaced, never written
#    through (a root-owned 0600 file stays as it was), and no message quotes
#    what it leads to; the same for a textfile;
#  - temp files another user pre-created under the old predictable names
#    (.NAME.PID.tmp) are not used: the state stays root's, mode 0600;
#  - a lock file another user made is not trusted;
#  - a truncated or empty state warns and starts over without cool-downs (it
#    used to exit 2 for good) and is rewritten;
#  - 100 concurrent runs on one state plan each victim once and the state
#    records them all (it used to lose victims).
. "$KILO_TOP/test/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (runs the attacker as nobody)"
ev=$FIX/evictor
input() { cat "$ev/node-usage-memory.json" "$ev/containers.json"; }
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
shared=$tmpdir/shared
mkdir "$shared" && chmod 1777 "$shared"
chmod 755 "$tmpdir"
printf 'TOP-SECRET-CONTENT\n' >"$tmpdir/secret" && chmod 600 "$tmpdir/secret"
cp "$tmpdir/secret" "$tmpdir/secret.orig"

# a symlink planted by nobody where root keeps its state
as_nobody ln -s "$tmpdir/secret" "$shared/evictor.json"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/evictor.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "symlinked state: exit $? ($(cat "$tmpdir/err"))"
cmp -s "$tmpdir/secret" "$tmpdir/secret.orig" || fail "the symlink's target was written: $(cat "$tmpdir/secret")"
assert_eq "$(stat -c %a "$tmpdir/secret")" 600 "the symlink's target mode"
[ -f "$shared/evictor.json" ] && [ ! -L "$shared/evictor.json" ] || fail "the planted symlink is still there"
assert_eq "$(stat -c '%u %a' "$shared/evictor.json")" "0 600" "state owner and mode"
grep -q "a symlink another user may have planted: not followed; starting over without cool-downs" "$tmpdir/err" ||
	fail "symlinked state: warning: $(cat "$tmpdir/err")"
! grep -q TOP-SECRET "$tmpdir/err" "$tmpdir/out" || fail "the target's content was printed"

# the old predictable temp names, pre-created by nobody for the next pids
rm -f "$shared/evictor.json"
last=$(cat /proc/sys/kernel/ns_last_pid)
i=1
while [ $i -le 300 ]; do
	as_nobody sh -c "umask 0; : >'$shared/.evictor.json.$((last + i)).tmp'"
	i=$((i + 1))
done
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/evictor.json" >/dev/null 2>"$tmpdir/err" ||
	fail "pre-created temp names: exit $? ($(cat "$tmpdir/err"))"
assert_eq "$(stat -c '%u %a' "$shared/evictor.json")" "0 600" "state owner and mode with pre-created temp names"
assert_eq "$(find "$shared" -name '.evictor.json.*' ! -user nobody | wc -l)" 0 "temp files left behind"

# a lock file nobody made: not used
rm -f "$shared/evictor.json" "$shared/evictor.json.lock"
as_nobody sh -c "umask 0; : >'$shared/evictor.json.lock'"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/evictor.json" >/dev/null 2>"$tmpdir/err" ||
	fail "another user's lock file: exit $? ($(cat "$tmpdir/err"))"
assert_eq "$(stat -c '%u %a' "$shared/evictor.json.lock")" "0 600" "the lock file is root's own"

# a symlink nobody planted at the lock path of a tool that is not the
# evictor: the kernel refuses it with EACCES in a sticky dir (not ELOOP),
# and list, node-usage and qos-cgset failed for good (no ContainerList: no
# eviction); now it is replaced as a lock file of nobody's is
as_nobody ln -s /nonexistent "$shared/list.state.lock"
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/node" v1 >/dev/null
yarn-copilot --sysroot "$tmpdir/node" --no-nm list --state "$shared/list.state" >"$tmpdir/out" \
	2>"$tmpdir/err" || fail "a symlink at the lock path: exit $? ($(cat "$tmpdir/err"))"
jq -e '.kind == "ContainerList"' "$tmpdir/out" >/dev/null || fail "no ContainerList with a planted lock symlink"
[ -f "$shared/list.state.lock" ] && [ ! -L "$shared/list.state.lock" ] || fail "the planted lock symlink is still there"
assert_eq "$(stat -c '%u %a' "$shared/list.state.lock")" "0 600" "the replaced lock file"
# another user's dir at a state path, a FIFO at another: the documents still
# go out (exit 0), with a warning each (the list used to exit 1, and the
# evictor then had no ContainerList)
as_nobody mkdir "$shared/list2.state"
as_nobody mkfifo "$shared/nu.state"
yarn-copilot --sysroot "$tmpdir/node" --no-nm list --state "$shared/list2.state" >"$tmpdir/out" \
	2>"$tmpdir/err" || fail "a dir at the state path: exit $? ($(cat "$tmpdir/err"))"
jq -e '.kind == "ContainerList"' "$tmpdir/out" >/dev/null || fail "no ContainerList with a dir at the state path"
grep -q "not a regular file: not replaced" "$tmpdir/err" || fail "a dir at the state path: no warning"
timeout 20 node-usage --sysroot "$tmpdir/node" --state "$shared/nu.state" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "a FIFO at the state path: exit $? ($(cat "$tmpdir/err"))"
jq -e '.kind == "NodeUsage"' "$tmpdir/out" >/dev/null || fail "no NodeUsage with a FIFO at the state path"

# a state nobody wrote before root's first run (cool-downs that would hold
# off an eviction): not trusted, replaced by root's own
rm -f "$shared/evictor.json"
as_nobody sh -c "printf '%s' '{\"apiVersion\":\"kilo/v1\",\"kind\":\"EvictorState\",\"victims\":[],\"lastEviction\":{\"memoryMs\":1795968000000,\"cpuMs\":1795968000000},\"cpuSamples\":[]}' >'$shared/evictor.json'"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/evictor.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "planted state: exit $? ($(cat "$tmpdir/err"))"
grep -q '"items":\[{' "$tmpdir/out" || fail "planted state held off the eviction: $(cat "$tmpdir/out")"
grep -q "is owned by uid 65534, not by this user: not trusted" "$tmpdir/err" || fail "planted state: $(cat "$tmpdir/err")"
assert_eq "$(stat -c '%u %a' "$shared/evictor.json")" "0 600" "planted state replaced"

# junk nobody planted at the state's name in the sticky shared dir: not
# kept (it turned the cool-downs off for good: never replaced, every run
# evicting again), replaced by root's state; the next run honours it
as_nobody sh -c "echo junk >'$shared/squat.json'"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/squat.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "squatted state: exit $?"
grep -q '"items":\[{' "$tmpdir/out" || fail "squatted state: no victims: $(cat "$tmpdir/out")"
assert_eq "$(stat -c '%u %a' "$shared/squat.json")" "0 600" "the squatted state replaced by root's"
input | KILO_NOW=2026-11-29T16:00:01Z evictor --state "$shared/squat.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "squatted state, second run: exit $?"
grep -q '"items":\[\]' "$tmpdir/out" || fail "the cool-down was not honoured: $(cat "$tmpdir/out")"

# a dir of nobody's inside the shared one (its links look like a safe dir's)
# and a symlinked dir to /etc: never followed, nothing lands in /etc
as_nobody mkdir "$shared/kilo"
as_nobody ln -s "$tmpdir/secret" "$shared/kilo/ev.json"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/kilo/ev.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "nobody's dir: exit $? ($(cat "$tmpdir/err"))"
cmp -s "$tmpdir/secret" "$tmpdir/secret.orig" || fail "nobody's dir: the link's target was written"
# a state in nobody's dir is not used at all: nobody could delete the lock
# under a holder (a second run went on at once) or put back an old state;
# the plan goes out without cool-downs and nothing is written there
rm -f "$shared/kilo/ev.json"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/kilo/ev.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "nobody's dir: exit $? ($(cat "$tmpdir/err"))"
grep -q '"items":\[{' "$tmpdir/out" || fail "nobody's dir: no plan: $(cat "$tmpdir/out")"
grep -q "the dir of state '$shared/kilo/ev.json' is owned by another user: another user could remove or swap its files; not used; evicting without --state" "$tmpdir/err" ||
	fail "nobody's dir: $(cat "$tmpdir/err")"
assert_eq "$(ls -A "$shared/kilo" | tr '\n' ' ')" "" "files root made in nobody's dir"
# a dir of root's inside nobody's: nobody could rename it aside and put an
# old copy back (old cool-downs replayed): not used either
mkdir "$shared/kilo/rootdir"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/kilo/rootdir/ev.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "root's dir in nobody's: exit $?"
grep -q "the dir of state '$shared/kilo/rootdir/ev.json' (or a dir above it) is owned by another user" "$tmpdir/err" ||
	fail "root's dir in nobody's: $(cat "$tmpdir/err")"
assert_eq "$(ls -A "$shared/kilo/rootdir" | wc -l)" 0 "files made in root's dir inside nobody's"
# the same for a world-writable dir without the sticky bit (root's)
mkdir -m 0777 "$tmpdir/open"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$tmpdir/open/ev.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "open dir: exit $?"
grep -q "is writable by others and not sticky" "$tmpdir/err" || fail "open dir: $(cat "$tmpdir/err")"
assert_eq "$(ls -A "$tmpdir/open" | wc -l)" 0 "files made in a world-writable dir"
as_nobody ln -s "$tmpdir/etc" "$shared/st"
mkdir "$tmpdir/etc"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/st/ev.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "symlinked dir: exit $? ($(cat "$tmpdir/err"))"
grep -q '"items":\[{' "$tmpdir/out" || fail "symlinked dir: no plan: $(cat "$tmpdir/out")"
assert_eq "$(ls -A "$tmpdir/etc" | wc -l)" 0 "files made through nobody's symlinked dir"
grep -q "evicting without --state" "$tmpdir/err" || fail "symlinked dir: $(cat "$tmpdir/err")"

# nobody swaps its own dir for a symlink to /etc (renameat2 RENAME_EXCHANGE
# in a loop) while root writes there: every name is taken in one fd of the
# dir, so nothing ever lands in the link's target
as_nobody mkdir "$shared/swapd"
as_nobody ln -s "$tmpdir/etc" "$shared/swapl"
as_nobody /usr/bin/python3 -c 'import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
end = time.time() + 30
while time.time() < end and os.path.exists(sys.argv[3]):
    libc.renameat2(-100, a, -100, b, 2)' "$shared/swapd" "$shared/swapl" "$tmpdir/swapping" &
swapper=$!
: >"$tmpdir/swapping"
at_exit "kill $swapper 2>/dev/null"
i=0
while [ $i -lt 60 ]; do
	input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/swapd/ev.json" >/dev/null 2>&1
	i=$((i + 1))
done
rm -f "$tmpdir/swapping"
wait "$swapper" 2>/dev/null
assert_eq "$(ls -A "$tmpdir/etc" | tr '\n' ' ')" "" "files made in the target of a swapped-in symlink"

# a dir at the lock path and one at the state path: the plan still goes out
rm -f "$shared/b.json" "$shared/b.json.lock"
as_nobody mkdir -p "$shared/b.json.lock/x" "$shared/b.json"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$shared/b.json" >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "dirs at the paths: exit $? ($(cat "$tmpdir/err"))"
grep -q '"items":\[{' "$tmpdir/out" || fail "dirs at the paths: no plan: $(cat "$tmpdir/out")"

# a textfile symlink planted by nobody (kilo-sync writes its metrics there)
as_nobody ln -s "$tmpdir/secret" "$shared/kilo-sync.prom"
printf '{"kind":"Node","metadata":{"name":"w1"}}\n{"nodes":{"node":[]}}\n' |
	kilo-sync plan --from - --allow-no-pods --textfile-dir "$shared" >/dev/null 2>"$tmpdir/err" ||
	fail "symlinked textfile: exit $? ($(cat "$tmpdir/err"))"
cmp -s "$tmpdir/secret" "$tmpdir/secret.orig" || fail "the textfile symlink's target was written"
[ -f "$shared/kilo-sync.prom" ] && [ ! -L "$shared/kilo-sync.prom" ] || fail "the textfile symlink is still there"
assert_eq "$(stat -c '%u %a' "$shared/kilo-sync.prom")" "0 644" "textfile owner and mode"

# a root-owned symlink elsewhere is still written through
mkdir "$tmpdir/own" && ln -s "$tmpdir/own/real.json" "$tmpdir/own/link.json"
input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$tmpdir/own/link.json" >/dev/null ||
	fail "own symlink: exit $?"
[ -L "$tmpdir/own/link.json" ] && [ -f "$tmpdir/own/real.json" ] || fail "own symlink not written through"

# corrupt states: warned about, started over, rewritten
st=$tmpdir/state.json
for content in '{"apiVersion":"kilo/v1","kind":"EvictorSt' ''; do
	printf '%s' "$content" >"$st"
	input | KILO_NOW=2026-11-29T16:00:00Z evictor --state "$st" >"$tmpdir/out" 2>"$tmpdir/err" ||
		fail "corrupt state '$content': exit $? ($(cat "$tmpdir/err"))"
	grep -q '"items":\[{' "$tmpdir/out" || fail "corrupt state: no victims planned: $(cat "$tmpdir/out")"
	grep -q "starting over without cool-downs" "$tmpdir/err" || fail "corrupt state: $(cat "$tmpdir/err")"
	grep -q '"kind":"EvictorState"' "$st" || fail "corrupt state not rewritten: $(cat "$st")"
done

# 100 concurrent runs on one input and one state, twice: in root's dir, and
# in the sticky shared one where nobody made the lock file first (each run
# replaces it: one must not remove the fresh lock another run just made)
concurrent() { # STATE: 100 evictor runs at once on it
	st=$1
	input >"$tmpdir/input"
	i=0
	while [ $i -lt 100 ]; do
		KILO_NOW=2026-11-29T16:00:00Z evictor --state "$st" <"$tmpdir/input" >"$tmpdir/plan.$i" 2>>"$tmpdir/err.all" &
		i=$((i + 1))
	done
	wait
	python3 - "$tmpdir" "$st" <<'PY' || fail "concurrent runs on $st: $(head -c 300 "$tmpdir/err.all")"
import json, sys, collections
d, st = sys.argv[1], sys.argv[2]
planned = collections.Counter()
for i in range(100):
    for it in json.load(open("%s/plan.%d" % (d, i)))["items"]:
        planned[it["id"]] += 1
assert planned and all(n == 1 for n in planned.values()), planned
victims = {v["id"] for v in json.load(open(st))["victims"]}
assert set(planned) <= victims, (planned, victims)
PY
}
rm -f "$tmpdir/state.json"
concurrent "$tmpdir/state.json"
rm -f "$shared/conc.json"
as_nobody sh -c ": >'$shared/conc.json.lock'"
concurrent "$shared/conc.json"
