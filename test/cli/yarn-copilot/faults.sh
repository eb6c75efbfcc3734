# SPDX-License-Identifier: Apache-2.0
# yarn-copilot under injected read errors (KILO_FAULTS): list keeps going
# with null values and a warning; kill reports the container failed.
. "$KILO_TOP/test/lib.sh"

A=container_1326121700862_0006_01_000001
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1

KILO_FAULTS=read:cpuacct.usage:EIO:0 yarn-copilot --sysroot "$tmpdir/t" --no-nm list \
	>"$tmpdir/out" 2>"$tmpdir/err" || fail "list: exit $?"
assert_eq "$(jq -c '[.items[] | [.usage.cpuNanos, .processes]]' "$tmpdir/out")" \
	"[[null,2],[null,1],[null,0]]" "cpuNanos null, the rest read"
grep -q "^yarn-copilot: warning: 3 cgroup reads failed, their values are null; first: read '.*/cpuacct.usage': Input/output error\$" \
	"$tmpdir/err" || fail "warning: $(cat "$tmpdir/err")"

KILO_FAULTS=read:cgroup.procs:EACCES:0 yarn-copilot --sysroot "$tmpdir/t" kill "$A" \
	>"$tmpdir/out" 2>"$tmpdir/err"
assert_eq "$?" 1 "kill exit"
assert_eq "$(jq -r '.items[0] | "\(.result) \(.signalled | length)"' "$tmpdir/out")" "failed 0" "kill result"
jq -r '.items[0].error' "$tmpdir/out" | grep -q "^read '.*/$A/cgroup.procs': Permission denied\$" ||
	fail "kill error: $(jq -r '.items[0].error' "$tmpdir/out")"
exit 0
