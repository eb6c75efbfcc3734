#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes on a copy of the Intel tree: only the differing L3 line, the thread
# ids in ascending order (a fake tasks file keeps every write), and nothing on
# the second run.
. "$KILO_TOP/test/lib.sh"
cp -R "$FIX/sysroot/resctrl-intel" "$tmpdir/root"
be="$tmpdir/root/sys/fs/resctrl/BE"

out=$(resctrl-assign --sysroot "$tmpdir/root") || fail "first run exited $?"
assert_eq "$(printf '%s' "$out" | jq -c '.groups[0].schemata | [.result, .new]')" \
	'["written","L3:0=f;1=f\nMB:0=100;1=100"]' "schemata"
assert_eq "$(printf '%s' "$out" | jq -c .tasks)" \
	'{"mode":"tasks","group":"BE","moved":5,"gone":0,"already":1,"failed":0,"errors":[],"foreign":[]}' "tasks"
# a plain file keeps only the last write: MB was equal, so only L3 was written
assert_eq "$(cat "$be/schemata")" "L3:0=f;1=f" "BE/schemata"
assert_eq "$(tr '\n' ' ' <"$be/tasks")" "1003 1001 1002 2001 2002 2003 " "BE/tasks"

# what the kernel shows afterwards: padded values
printf 'L3:0=00f;1=00f\nMB:0=100;1=100\n' >"$be/schemata"
out=$(KILO_FAULTS=write:BE/schemata:EIO:0,write:BE/tasks:EIO:0 resctrl-assign --sysroot "$tmpdir/root") ||
	fail "second run exited $?"
assert_eq "$(printf '%s' "$out" | jq -c '[.groups[0].schemata.result, .tasks.moved, .tasks.already]')" \
	'["unchanged",0,6]' "second run"
