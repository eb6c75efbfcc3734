#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every long option of --help is in the man page, and --help ends as usual.
. "$KILO_TOP/test/lib.sh"
man="$KILO_TOP/cmd/resctrl-assign/resctrl-assign.1.scd"
help=$(resctrl-assign --help) || fail "--help exited $?"
for opt in $(printf '%s\n' "$help" | grep -o -- '--[a-z-]*' | sort -u); do
	grep -q -- "^\*$opt\*" "$man" || grep -q -- "\*$opt\*," "$man" || grep -q -- ", \*$opt\*" "$man" ||
		fail "$opt is not in the man page"
done
assert_eq "$(printf '%s\n' "$help" | tail -n 1)" "For more details see resctrl-assign(1)." "last line"
assert_eq "$(resctrl-assign --version | cut -d' ' -f1)" resctrl-assign "--version"
