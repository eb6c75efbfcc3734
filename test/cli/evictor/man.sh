#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every long option of `evictor --help` is in evictor(1), and the page builds.
. "$KILO_TOP/test/lib.sh"
man=$KILO_TOP/cmd/evictor/evictor.1.scd
opts=$(evictor --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ -n "$opts" ] || fail "no options in --help"
for o in $opts; do
	grep -q -- "\*$o\*" "$man" || fail "option $o of --help is not in $man"
done
if command -v scdoc >/dev/null 2>&1; then
	scdoc <"$man" >"$tmpdir/evictor.1" || fail "scdoc failed on $man"
fi
exit 0
