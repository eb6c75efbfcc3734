# SPDX-License-Identifier: Apache-2.0
# Every yarn-copilot command line of the man page's EXAMPLES runs on a fake
# tree (--sysroot and --no-nm added, paths moved under the test dir) and
# exits 0; pipelines through tools not built yet are skipped.
. "$KILO_TOP/test/lib.sh"

sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1
mkdir -p "$tmpdir/tf" "$tmpdir/run"
sed -n '/^# EXAMPLES/,/^# SEE ALSO/p' "$KILO_TOP/cmd/yarn-copilot/yarn-copilot.1.scd" |
	sed -n 's/^\t//p' >"$tmpdir/examples"
[ -s "$tmpdir/examples" ] || fail "no examples found"
n=0
while IFS= read -r line; do
	for tool in $(printf '%s\n' "$line" | tr '|;{}' '\n\n\n\n' | awk '{ print $1 }'); do
		command -v "$tool" >/dev/null || { echo "skip (no $tool): $line"; continue 2; }
	done
	cmd=$(printf '%s\n' "$line" |
		sed "s#yarn-copilot #yarn-copilot --sysroot $tmpdir/t --no-nm #g;
		     s#node-usage#node-usage --sysroot $tmpdir/t#g;
		     s#/var/lib/node_exporter/textfile#$tmpdir/tf#g; s#/run/kilo/#$tmpdir/run/#g")
	sh -c "$cmd" >"$tmpdir/out" 2>"$tmpdir/err" || fail "exit $?: $cmd: $(cat "$tmpdir/err")"
	n=$((n + 1))
done <"$tmpdir/examples"
[ "$n" -ge 3 ] || fail "only $n examples ran"
[ -s "$tmpdir/tf/yarn-copilot.prom" ] || fail "the metrics example wrote nothing"
exit 0
