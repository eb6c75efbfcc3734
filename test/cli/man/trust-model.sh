#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every row of kilo-sync(1)'s Trust model table names tests that exist: a
# unit test function (test_*, a START_TEST in test/unit/) or a file or
# directory under test/cli/.  A renamed or deleted test fails here.
. "$KILO_TOP/test/lib.sh"

page=$KILO_TOP/cmd/kilo-sync/kilo-sync.1.scd
# the third cell of each row: the line after the behaviour line, in the table
awk '/^## Trust model/ {t = 1} t && /^# / {t = 0} t && /^\[\[/ {h = 1}
	t && /^\|/ {h = 0; c = 0} t && !h && /^:/ {c++; if (c == 2) print substr($0, 3)}' \
	"$page" >"$tmpdir/cells"
rows=$(wc -l <"$tmpdir/cells" | tr -d ' ')
[ "$rows" -ge 20 ] || fail "Trust model: $rows rows found in $page"
tr ',' '\n' <"$tmpdir/cells" | sed 's/^ *//; s/ *$//' | sort -u >"$tmpdir/names"
n=0
while read -r name; do
	n=$((n + 1))
	case $name in
	test_*)
		grep -q "START_TEST($name)" "$KILO_TOP"/test/unit/*.c ||
			fail "Trust model names $name: no such unit test" ;;
	*)
		[ -e "$KILO_TOP/test/cli/$name" ] || fail "Trust model names $name: no test/cli/$name" ;;
	esac
done <"$tmpdir/names"
[ "$n" -ge 15 ] || fail "Trust model: only $n distinct tests named"
