# SPDX-License-Identifier: Apache-2.0
# The kill engine's unit tests with this process's pid among their fake
# pids (a fresh machine: the test ran as pid 1100-something, inside the
# fake range 1000..1299): the self-protection of real signals skipped a
# fake process, which then "remained" (CI failed once).  Run in a pid
# namespace where the test's pid is 1101.
. "$KILO_TOP/test/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (unshare --pid)"
command -v unshare >/dev/null 2>&1 || skip "no unshare"
unit=${KILO_BIN%/*}/test/test_killer
[ -x "$unit" ] || fail "$unit missing (built by make check)"
unshare --pid --fork --mount-proc sh -c '
	i=0
	while [ $i -lt 1100 ]; do /bin/true; i=$((i + 1)); done
	exec env CK_RUN_CASE=run CK_FORK=no ASAN_OPTIONS=detect_leaks=0 KILO_FIXTURES="$2" "$1"' \
	sh "$unit" "$FIX" >"$tmpdir/out" 2>&1 || fail "test_killer as pid 1101: $(tail -n 3 "$tmpdir/out")"
grep -q "^100%: Checks: [0-9]*, Failures: 0, Errors: 0" "$tmpdir/out" || fail "$(tail -n 3 "$tmpdir/out")"
exit 0
