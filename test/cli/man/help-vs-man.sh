#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# help-vs-man.sh - for every tool in $KILO_BIN that has cmd/<tool>/<tool>.1.scd:
# scdoc builds the page, and every long option printed by `<tool> --help`
# appears in it.  First proves, on a throw-away tool in $tmpdir, that a
# missing option and a broken page are caught.
# shellcheck source=test/lib.sh
. "$KILO_TOP/test/lib.sh"

command -v scdoc >/dev/null 2>&1 || fail "scdoc is not installed (see scripts/install-deps)"

# check_man NAME BINARY PAGE: print one line per problem; status 1 if any.
check_man() {
	name=$1 bin=$2 page=$3 bad=0
	if ! scdoc <"$page" >"$tmpdir/page.1" 2>"$tmpdir/scdoc.err"; then
		echo "$name: scdoc failed on $page: $(head -n 1 "$tmpdir/scdoc.err")"
		bad=1
	fi
	if ! "$bin" --help >"$tmpdir/help" 2>"$tmpdir/help.err"; then
		echo "$name: '$name --help' failed: $(head -n 1 "$tmpdir/help.err")"
		return 1
	fi
	grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*' "$tmpdir/help" | sort -u >"$tmpdir/options"
	while read -r opt; do
		grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" "$page" && continue
		echo "$name: $opt is printed by --help but missing from $page"
		bad=1
	done <"$tmpdir/options"
	return $bad
}

# The check itself: a tool whose page lacks --frobnicate, then a page scdoc refuses.
mkdir "$tmpdir/fake"
cat >"$tmpdir/fake/demo-tool" <<'TOOL'
#!/bin/sh
printf 'Usage:\n demo-tool [options]\n\nOptions:\n  --sysroot DIR   root\n  --frobnicate    on\n  -h, --help      help\n'
TOOL
chmod +x "$tmpdir/fake/demo-tool"
printf 'demo-tool(1)\n\n# OPTIONS\n\n*--sysroot* _DIR_\n\tRoot.\n\n*-h*, *--help*\n\tHelp.\n' \
	>"$tmpdir/fake/demo-tool.1.scd"
out=$(check_man demo-tool "$tmpdir/fake/demo-tool" "$tmpdir/fake/demo-tool.1.scd") &&
	fail "a page without --frobnicate passed the check"
assert_eq "$out" "demo-tool: --frobnicate is printed by --help but missing from $tmpdir/fake/demo-tool.1.scd" \
	"self-test message"
printf '*--frobnicate-more*\n\tNot the same option.\n' >>"$tmpdir/fake/demo-tool.1.scd"
check_man demo-tool "$tmpdir/fake/demo-tool" "$tmpdir/fake/demo-tool.1.scd" >/dev/null &&
	fail "--frobnicate-more was taken for --frobnicate"
printf '*--frobnicate*\n\tOn.\n' >>"$tmpdir/fake/demo-tool.1.scd"
check_man demo-tool "$tmpdir/fake/demo-tool" "$tmpdir/fake/demo-tool.1.scd" ||
	fail "a complete page failed the check"
printf 'no header line\n' >"$tmpdir/fake/broken.1.scd"
check_man demo-tool "$tmpdir/fake/demo-tool" "$tmpdir/fake/broken.1.scd" >/dev/null &&
	fail "a page scdoc refuses passed the check"

# The real tools.
status=0 checked=0
for bin in "$KILO_BIN"/*; do
	if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
		continue
	fi
	tool=${bin##*/}
	page="$KILO_TOP/cmd/$tool/$tool.1.scd"
	[ -f "$page" ] || continue
	checked=$((checked + 1))
	check_man "$tool" "$bin" "$page" >&2 || status=1
done
echo "help-vs-man: $checked tools checked"
exit $status
