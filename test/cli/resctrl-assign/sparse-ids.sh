#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Sparse domain ids (0-7, 16-23; koordinator #1777): a difference in the last
# domain only is found by id and the line is written for every id.
. "$KILO_TOP/test/lib.sh"
cp -R "$FIX/sysroot/resctrl-sparse" "$tmpdir/root"
be="$tmpdir/root/sys/fs/resctrl/BE/schemata"
sed -i 's/23=001f/23=ffff/' "$be"
out=$(resctrl-assign --sysroot "$tmpdir/root") || fail "exit $?"
assert_eq "$(printf '%s' "$out" | jq -r '.groups[0].schemata.result')" written "result"
assert_eq "$(cat "$be")" \
	"L3:0=1f;1=1f;2=1f;3=1f;4=1f;5=1f;6=1f;7=1f;16=1f;17=1f;18=1f;19=1f;20=1f;21=1f;22=1f;23=1f" \
	"written line"
