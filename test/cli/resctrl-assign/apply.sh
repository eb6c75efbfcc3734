#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes on a copy of the Intel tree: only the differing L3 line, one tasks
# write per thread id in ascending order, and nothing on the second run.
. "$KILO_TOP/test/lib.sh"
cp -R "$FIX/sysroot/resctrl-intel" "$tmpdir/root"
be="$tmpdir/root/sys/fs/resctrl/BE"

out=$(resctrl-assign --sysroot "$tmpdir/root") || fail "first run exited $?"
assert_eq "$(printf '%s' "$out" | jq -c '.groups[0].schemata | [.result, .new]')" \
	'["written","L3:0=f;1=f\nMB:0=100;1=100"]' "schemata"
assert_eq "$(printf '%s' "$out" | jq -c .tasks)" \
	'{"mode":"tasks","group":"BE","moved":5,"gone":0,"already":1,"failed":0,"errors":[]}' "tasks"
# a plain file keeps only the last write: MB was equal, so only L3 was written
assert_eq "$(cat "$be/schemata")" "L3:0=f;1=f" "BE/schemata"
assert_eq "$(cat "$be/tasks")" "2003" "last tasks write"

# what the kernel shows afterwards: padded values, every moved thread
printf 'L3:0=00f;1=00f\nMB:0=100;1=100\n' >"$be/schemata"
printf '1001\n1002\n1003\n2001\n2002\n2003\n' >"$be/tasks"
out=$(KILO_FAULTS=write:BE/schemata:EIO:0,write:BE/tasks:EIO:0 resctrl-assign --sysroot "$tmpdir/root") ||
	fail "second run exited $?"
assert_eq "$(printf '%s' "$out" | jq -c '[.groups[0].schemata.result, .tasks.moved, .tasks.already]')" \
	'["unchanged",0,6]' "second run"
