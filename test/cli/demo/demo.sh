# SPDX-License-Identifier: Apache-2.0
# make demo's script end to end: every part runs, planned victims are gone
# and the rest survive (the script checks it and exits non-zero otherwise),
# and nothing is left behind: no process, cgroup or work directory.
. "$KILO_TOP/test/lib.sh"
export TMPDIR="$tmpdir"
sh "$KILO_TOP/scripts/demo" >"$tmpdir/out" 2>&1
rc=$?
cat "$tmpdir/out"
assert_eq "$rc" 0 "demo exit"
grep -q 'action update, result updated (RM total 8 vCores/16384 MB differs)' "$tmpdir/out" || fail "kilo-sync story"
grep -q 'YARN total 19 vCores/38912 MB' "$tmpdir/out" || fail "worker-1 total"
grep -q 'RM rm1 got POST /ws/v1/cluster/nodes/worker-1:8041/resource {"resource":{"memory":38912,"vCores":19},"overCommitTimeout":-1}' \
	"$tmpdir/out" || fail "the RM did not get the resize"
grep -q '0 updated, 0 annotated' "$tmpdir/out" || fail "second kilo-sync pass was not idle"
grep -q "^  kilo-sync: node 'worker-2': lifecycle active -> draining: " "$tmpdir/out" || fail "no drain"
grep -q '^  worker-2: draining, action update (lifecycle-hold): YARN total 0 vCores/0 MB, overCommitTimeoutMs -1$' \
	"$tmpdir/out" || fail "the drain did not hold worker-2 at 0/0 with -1"
grep -q "^  kilo-sync: node 'worker-2': lifecycle draining -> offline: " "$tmpdir/out" || fail "not offline"
grep -q '^  worker-2 label kilo.sh/yarn-nodemanager: (none)$' "$tmpdir/out" || fail "label not removed"
grep -q "^  kilo-sync: node 'worker-2': lifecycle returning -> active: " "$tmpdir/out" || fail "did not return"
grep -q '^  worker-2: active, action update (total-differs): YARN total 15 vCores/30720 MB' "$tmpdir/out" ||
	fail "not resized on return"
grep -q '^== Done' "$tmpdir/out" || fail "the story did not end"
if [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpu ] && [ -w /sys/fs/cgroup/memory ]; then
	grep -q 'checked: every planned process is gone' "$tmpdir/out" || fail "kill not checked"
	grep -q 'killed after SIGTERM, SIGKILL' "$tmpdir/out" || fail "no SIGKILL story"
fi
for w in "$tmpdir"/kilo-demo-*; do
	[ ! -e "$w" ] || fail "work directory $w left behind"
done
prefix=$(sed -n 's|^Real cgroup v1 tree: /sys/fs/cgroup/{cpu,cpuacct,cpuset,memory}/\(kilo-demo-[0-9]*\)/.*|\1|p' \
	"$tmpdir/out")
for c in cpu cpuacct cpuset memory; do
	[ -z "$prefix" ] || [ ! -e "/sys/fs/cgroup/$c/$prefix" ] || fail "cgroup $prefix left in $c"
done
exit 0
