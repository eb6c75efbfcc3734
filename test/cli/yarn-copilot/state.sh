# SPDX-License-Identifier: Apache-2.0
# yarn-copilot list --state: usage.cpuMilli from the previous call's sample.
. "$KILO_TOP/test/lib.sh"

A=container_1326121700862_0006_01_000001
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1
acct=$tmpdir/t/sys/fs/cgroup/cpuacct/kubepods/besteffort/hadoop-yarn/$A/cpuacct.usage
cpu() { jq -r ".items[] | select(.id == \"$A\") | .usage.cpuMilli" "$tmpdir/out"; }

KILO_NOW=2026-11-29T16:00:00Z yarn-copilot --sysroot "$tmpdir/t" --no-nm list --state "$tmpdir/st" \
	>"$tmpdir/out" || fail "first: exit $?"
assert_eq "$(cpu)" null "first call"
assert_eq "$(jq -r ".kind, .timestampMs, .cpuNanos.\"$A\"" "$tmpdir/st" | tr '\n' ' ')" \
	"ContainerListState 1795968000000 123456789000 " "state file"
# 1.5 CPUs over 2 s
echo $((123456789000 + 3000000000)) >"$acct"
KILO_NOW=2026-11-29T16:00:02Z yarn-copilot --sysroot "$tmpdir/t" --no-nm list --state "$tmpdir/st" \
	>"$tmpdir/out" || fail "second: exit $?"
assert_eq "$(cpu)" 1500 "1.5 cores"
# a counter that went back (cgroup re-created): unknown, not negative
echo 1000 >"$acct"
KILO_NOW=2026-11-29T16:00:03Z yarn-copilot --sysroot "$tmpdir/t" --no-nm list --state "$tmpdir/st" \
	>"$tmpdir/out" || fail "third: exit $?"
assert_eq "$(cpu)" null "counter reset"
# a corrupt state file (a write cut short): a warning, rates start over
printf '{"apiVersion":"kilo/v1","kind":"Contai' >"$tmpdir/st"
KILO_NOW=2026-11-29T16:00:04Z yarn-copilot --sysroot "$tmpdir/t" --no-nm list --state "$tmpdir/st" \
	>"$tmpdir/out" 2>"$tmpdir/err" || fail "corrupt: exit $?"
grep -q "warning: .*rates start over" "$tmpdir/err" || fail "no warning: $(cat "$tmpdir/err")"
assert_eq "$(cpu)" null "after a corrupt state"
assert_eq "$(jq -r .timestampMs "$tmpdir/st")" 1795968004000 "state rewritten"
# a file that is no kilo state (--state given a wrong path) is never replaced
echo '{"kind":' >"$tmpdir/other"
KILO_NOW=2026-11-29T16:00:05Z yarn-copilot --sysroot "$tmpdir/t" --no-nm list --state "$tmpdir/other" \
	>"$tmpdir/out" 2>"$tmpdir/err" || fail "not a state: exit $?"
grep -q "warning: .*other' is not a kilo state file of kind ContainerListState (another tool's state, or no state): not replaced" "$tmpdir/err" ||
	fail "no warning: $(cat "$tmpdir/err")"
assert_eq "$(cat "$tmpdir/other")" '{"kind":' "the file that is no state"
exit 0
