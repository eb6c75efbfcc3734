#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The kernel's refusals, through KILO_FAULTS: EINVAL for a schemata line,
# ESRCH for threads that exited, ESRCH for all of them (another pid namespace).
. "$KILO_TOP/test/lib.sh"
cp -R "$FIX/sysroot/resctrl-intel" "$tmpdir/root"
printf 'Mask out of range\n' >"$tmpdir/root/sys/fs/resctrl/info/last_cmd_status"
# the fake tasks file keeps what was written: back to the fixture's one thread
reset_tasks() { printf '1003\n' >"$tmpdir/root/sys/fs/resctrl/BE/tasks"; }

out=$(KILO_FAULTS=write:BE/schemata:EINVAL resctrl-assign --sysroot "$tmpdir/root" 2>"$tmpdir/err")
assert_eq "$?" 3 "exit status with the schemata refused"
assert_eq "$(printf '%s' "$out" | jq -r '.groups[0].schemata.result')" failed "result"
assert_eq "$(printf '%s' "$out" | jq -r '.groups[0].schemata.error')" \
	"L3:0=f;1=f: write '$tmpdir/root/sys/fs/resctrl/BE/schemata': Invalid argument (info/last_cmd_status: Mask out of range)" \
	"error"
assert_eq "$(printf '%s' "$out" | jq -r .tasks.moved)" 5 "tasks still moved"
grep -q "^resctrl-assign: group BE: L3:0=f;1=f: write" "$tmpdir/err" || fail "no error line on stderr"

reset_tasks
out=$(KILO_FAULTS=write:BE/tasks:ESRCH:2 resctrl-assign --sysroot "$tmpdir/root") ||
	fail "two threads gone: exit $?"
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.moved, .gone, .failed]')" '[3,2,0]' "gone"

reset_tasks
out=$(KILO_FAULTS=write:BE/tasks:ESRCH:0 resctrl-assign --sysroot "$tmpdir/root" 2>"$tmpdir/err")
assert_eq "$?" 3 "exit status with every thread gone"
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.moved, .gone, .failed]')" '[0,5,0]' "all gone"
printf '%s' "$out" | jq -r '.tasks.errors[0]' | grep -q "all 5 thread ids are gone (ESRCH): is this the host pid namespace" ||
	fail "no namespace hint: $out"

reset_tasks
out=$(KILO_FAULTS=write:BE/tasks:EINVAL:1 resctrl-assign --sysroot "$tmpdir/root" 2>/dev/null)
assert_eq "$?" 3 "exit status with one thread refused"
assert_eq "$(printf '%s' "$out" | jq -c '.tasks | [.moved, .failed, (.errors | length)]')" '[4,1,1]' "refused"

# resctrl's own files unreadable: the report says why, exit 1
echo zz >"$tmpdir/root/sys/fs/resctrl/info/L3/cbm_mask"
out=$(resctrl-assign --sysroot "$tmpdir/root" 2>/dev/null)
assert_eq "$?" 1 "exit status with a bad cbm_mask"
assert_eq "$(printf '%s' "$out" | jq -c '[.supported, .reason, .groups, .tasks]')" \
	"[false,\"read '$tmpdir/root/sys/fs/resctrl/info/L3/cbm_mask': expected a hex mask, got 'zz'\",[],null]" \
	"report"
