# SPDX-License-Identifier: Apache-2.0
# yarn-copilot kill on fake trees: input validation (exit 2, nothing
# signalled), a sysroot other than / never signals, gone containers succeed.
. "$KILO_TOP/test/lib.sh"

A=container_1326121700862_0006_01_000001
C=container_1326121700862_0006_01_000004
N=container_1326121700862_0006_01_000099
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v2
y() { yarn-copilot --sysroot "$tmpdir/t" "$@"; }

# ids failing validation: exit 2, no report
for bad in "../$A" "$A/.." 4101 "container_1326121700862_0006_01_1" ""; do
	y kill "$C" "$bad" >"$tmpdir/out" 2>"$tmpdir/err"
	assert_eq "$?" 2 "kill '$bad'"
	[ ! -s "$tmpdir/out" ] || fail "kill '$bad' printed a report"
	grep -q "invalid container id" "$tmpdir/err" || fail "kill '$bad': $(cat "$tmpdir/err")"
done
y kill "$C" "$C" >"$tmpdir/out" 2>"$tmpdir/err"
assert_eq "$?" 2 "an id given twice"

# a plan naming a pid instead of an id, or a bad plan: exit 2, one line
plan_err() { # plan expected-message
	echo "$1" | y kill >"$tmpdir/out" 2>"$tmpdir/err"
	assert_eq "$?" 2 "plan $1"
	[ ! -s "$tmpdir/out" ] || fail "plan $1 printed a report"
	assert_eq "$(cat "$tmpdir/err")" "yarn-copilot: $2" "plan $1"
}
plan_err '{"apiVersion":"kilo/v1","kind":"KillPlan","items":[{"id":"'$C'"},{"pid":4101}]}' \
	"KillPlan.items[1].id: expected a YARN container id, got nothing"
plan_err '{"apiVersion":"kilo/v1","kind":"KillPlan","gracePeriodMs":"x","items":[]}' \
	'KillPlan.gracePeriodMs: expected an integer 0..3600000, got "x"'
plan_err '{"apiVersion":"kilo/v1","kind":"NodeUsage"}' \
	"missing required document of kind 'KillPlan' on stdin"

# fake root: the container with processes fails, none is signalled; the
# empty one and the missing one are gone; exit 3 (partial)
echo '{"apiVersion":"kilo/v1","kind":"KillPlan","gracePeriodMs":50,"items":[{"id":"'$A'"},{"id":"'$C'"},{"id":"'$N'"}]}' |
	y kill >"$tmpdir/out" 2>"$tmpdir/err"
assert_eq "$?" 3 "partial exit"
grep -q "warning: sysroot '$tmpdir/t' is not /: no signal will be sent" "$tmpdir/err" ||
	fail "no sysroot warning: $(cat "$tmpdir/err")"
assert_eq "$(jq -r '.kind' "$tmpdir/out")" KillReport kind
assert_eq "$(jq -r '[.items[] | "\(.id[-6:]):\(.result):\(.processes):\(.signalled | length)"] | join(" ")' "$tmpdir/out")" \
	"000001:failed:2:0 000004:gone:0:0 000099:gone:0:0" "results"
jq -r '.items[0].error' "$tmpdir/out" | grep -q "^not signalling 2 processes of '$A': sysroot" ||
	fail "error text: $(jq -r '.items[0].error' "$tmpdir/out")"
assert_eq "$(cat "$tmpdir/t/sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/hadoop-yarn/$A/cgroup.procs" | tr '\n' ' ')" \
	"4101 4102 " "procs untouched"

# all failed: 1; all gone: 0; an empty plan: 0 and no items
y kill "$A" >/dev/null 2>&1
assert_eq "$?" 1 "all failed"
y kill "$C" "$N" >"$tmpdir/out" || fail "all gone: exit $?"
echo '{"apiVersion":"kilo/v1","kind":"KillPlan","trigger":null,"items":[]}' | y kill >"$tmpdir/out" ||
	fail "empty plan: exit $?"
assert_eq "$(jq -c .items "$tmpdir/out")" "[]" "empty plan report"
exit 0
