#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every row of the trust-model tables of kilo-sync(1) ("## Trust model") and
# yarn-copilot(1) ("# TRUST MODEL") names tests that exist: a unit test
# function (test_*, a START_TEST in test/unit/) or a file or directory under
# test/cli/.  A renamed or deleted test fails here.
. "$KILO_TOP/test/lib.sh"

check() { # page heading min_rows min_tests
	# the third cell of each row: the line after the behaviour line, in the table
	awk -v head="$2" '$0 == head {t = 1; next} t && /^#+ / {t = 0} t && /^\[\[/ {h = 1}
		t && /^\|/ {h = 0; c = 0} t && !h && /^:/ {c++; if (c == 2) print substr($0, 3)}' \
		"$1" >"$tmpdir/cells"
	rows=$(wc -l <"$tmpdir/cells" | tr -d ' ')
	[ "$rows" -ge "$3" ] || fail "$2: $rows rows found in $1"
	tr ',' '\n' <"$tmpdir/cells" | sed 's/^ *//; s/ *$//' | sort -u >"$tmpdir/names"
	n=0
	while read -r name; do
		n=$((n + 1))
		case $name in
		test_*)
			grep -q "START_TEST($name)" "$KILO_TOP"/test/unit/*.c ||
				fail "$1 names $name: no such unit test" ;;
		*)
			[ -e "$KILO_TOP/test/cli/$name" ] || fail "$1 names $name: no test/cli/$name" ;;
		esac
	done <"$tmpdir/names"
	[ "$n" -ge "$4" ] || fail "$2: only $n distinct tests named in $1"
}
check "$KILO_TOP/cmd/kilo-sync/kilo-sync.1.scd" "## Trust model" 20 15
check "$KILO_TOP/cmd/yarn-copilot/yarn-copilot.1.scd" "# TRUST MODEL" 20 15
