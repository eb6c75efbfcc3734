#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# smoke.sh - build every libFuzzer target (make fuzz-build) and run each for
# FUZZ_SMOKE_SECONDS (default 2) over its committed corpus, which holds the
# inputs of every crash found so far.  `make fuzz` is the long run.
. "$KILO_TOP/test/lib.sh"

command -v clang >/dev/null 2>&1 || skip "no clang libFuzzer runtime"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$tmpdir/t.c"
clang -fsanitize=fuzzer -o "$tmpdir/t" "$tmpdir/t.c" >/dev/null 2>&1 ||
	skip "no clang libFuzzer runtime"

make -C "$KILO_TOP" -s -j2 fuzz-build >"$tmpdir/build.log" 2>&1 ||
	{ cat "$tmpdir/build.log"; fail "make fuzz-build"; }
targets=$(find "$KILO_TOP/test/fuzz" -name 'fuzz_*.c' | sed 's|.*/fuzz_||; s/\.c$//' | sort)
[ -n "$targets" ] || fail "no fuzz targets"
# shellcheck disable=SC2086
sh "$KILO_TOP/test/fuzz/run.sh" "${FUZZ_SMOKE_SECONDS:-2}" $targets || fail "a fuzz target failed"
