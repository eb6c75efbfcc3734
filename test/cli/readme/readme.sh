# SPDX-License-Identifier: Apache-2.0
# The README stays true (#20 item 7): every command block of README.md (a
# run of lines indented by four spaces, or a ``` fence) has a marker as the
# line before it (a blank line between them is fine):
#   <!-- run: yes -->           run here; may say why after a second colon
#   <!-- run: no: REASON -->    not run, and why (needs a real cluster, ...)
# Each runnable block runs, as it is written, with bash -e -o pipefail,
# against loopback fakes: the kilo-sync live tests' Kubernetes API server and
# ResourceManager HA pair (test/fake/sync-cluster.sh), a fake NodeManager,
# and a fake sysroot with a hadoop-yarn tree and a resctrl tree, where no
# signal is ever sent.  A block that fails, warns (a "warning:" line on
# stderr other than the fake sysroot's "no signal will be sent"), or prints
# nothing on stdout when it is not one of the SILENT below, fails the test
# naming README.md:LINE.
#
# The one table of what the README names and what the test puts there
# (literal text, replaced in the block before it runs; README.md's
# "Building and testing" points here):
#
#   README text                       here
#   http://rm:8088, http://rm2:8088   the active fake RM ($rm1)
#   /etc/kilo/sync.yaml               kilo-sync's config for the fakes
#   /etc/kilo/policy.yaml             the policy of manifests/kilo/node-policy.yaml
#   /run/kilo                         $root/run/kilo (made by no one: a block mkdirs)
#   /var/lib/node_exporter/textfile   $root/textfile (node_exporter's, exists)
#   yarn-copilot list|metrics         the same with --nm-url of the fake NM
#                                     (the README's NM is the default
#                                     http://127.0.0.1:8042)
# and in the environment: KUBECONFIG (kubectl and kilo-sync: the fake API
# server), KILO_SYSROOT (every node tool: the fake sysroot), NODE_NAME.
. "$KILO_TOP/test/lib.sh"
readme=${KILO_README:-$KILO_TOP/README.md}
for t in bash jq curl python3; do
	command -v "$t" >/dev/null || skip "no $t"
done
# kubectl is optional (scripts/install-deps): without it the blocks that
# use it are left out, and said so
nokubectl=0
command -v kubectl >/dev/null || nokubectl=1

# --- the blocks and their markers ------------------------------------------
blocks=$tmpdir/blocks
mkdir -p "$blocks"
awk -v dir="$blocks" '
function end_block() {
	if (start) { close(file); print start "\t" mark >(dir "/list") }
	start = 0
}
function begin_block(n) {
	start = n; file = sprintf("%s/%05d", dir, n)
	mark = (last ~ /^<!-- run: (yes|no)(: .*)? -->$/) ? last : "unmarked"
	if (mark != "unmarked") used[lastn] = 1
	printf "" >file
}
/^```/ {
	if (fence) { end_block(); fence = 0; last = ""; next }
	fence = 1; begin_block(NR + 1); next
}
fence { print >file; next }
/^    / && (start || prev_blank) {
	if (!start) begin_block(NR)
	line = $0; sub(/^    /, "", line); print line >file; next
}
/^[ \t]*$/ { if (start) print "" >file; prev_blank = 1; next }
{
	end_block(); prev_blank = 0; last = $0; lastn = NR
	if ($0 ~ /^<!-- run:/) markers[NR] = $0
}
END {
	end_block()
	for (n in markers) if (!(n in used)) print n "\torphan\t" markers[n] >(dir "/list")
}' "$readme" || fail "could not read $readme"
[ -s "$blocks/list" ] || fail "no command block found in $readme"
bad=$(awk -F'\t' '$2 == "unmarked" { printf " README.md:%d has no <!-- run: --> marker;", $1 }
	$2 == "orphan" { printf " README.md:%d: a marker with no block after it;", $1 }
	$2 ~ /^<!-- run: no -->$/ { printf " README.md:%d: run: no without a reason;", $1 }' "$blocks/list")
bad=${bad%;}
[ -z "$bad" ] || fail "${bad# }"
yes=$(grep -c '	<!-- run: yes' "$blocks/list")
assert_eq "$yes" "$(grep -c '^<!-- run: yes' "$readme")" "runnable blocks found against yes markers"
[ "$yes" -ge 8 ] || fail "only $yes runnable blocks found (the README has at least 8)"

# --- the fakes ---------------------------------------------------------------
. "$KILO_TOP/test/fake/sync-cluster.sh"
root=$tmpdir/root
mkdir -p "$root/etc/kilo" "$root/textfile" "$root/work"
cp "$tmpdir/kilo-sync.yaml" "$root/etc/kilo/sync.yaml"
awk 'f && /^    / { sub(/^    /, ""); print; next } f && !/^[ \t]*$/ { f = 0 }
	/^  policy\.yaml: \|/ { f = 1 }' "$KILO_TOP/manifests/kilo/node-policy.yaml" >"$root/etc/kilo/policy.yaml"
grep -q resourceUsedThresholdWithBE "$root/etc/kilo/policy.yaml" ||
	fail "no policy in manifests/kilo/node-policy.yaml"
sysroot=$root/sysroot
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$sysroot" v1 >/dev/null || fail "fake sysroot"
cp -R "$FIX/sysroot/resctrl-intel/sys/fs/resctrl" "$sysroot/sys/fs/resctrl"
for p in 4101 4102 4201; do # resctrl-assign checks each thread's process
	mkdir -p "$sysroot/proc/$p/task/$p"
	printf 'Name:\tjava\nTgid:\t%s\nPid:\t%s\n' "$p" "$p" >"$sysroot/proc/$p/status"
	cp "$sysroot/proc/$p/status" "$sysroot/proc/$p/task/$p/status"
done
python3 "$KILO_TOP/test/fake/fake_nm.py" --port-file "$tmpdir/nm.port" --lifetime 120 \
	>/dev/null 2>"$tmpdir/nm.err" &
at_exit "kill $! 2>/dev/null"
wait_nonempty "fake NM ($(cat "$tmpdir/nm.err" 2>/dev/null))" "$tmpdir/nm.port"
nm=http://127.0.0.1:$(cat "$tmpdir/nm.port")
export KILO_SYSROOT="$sysroot" NODE_NAME=worker-1

# the table above, as FROM<TAB>TO (applied in this order)
tab=$(printf '\t')
cat >"$tmpdir/map" <<EOF
http://rm:8088$tab$rm1
http://rm2:8088$tab$rm1
/etc/kilo/$tab$root/etc/kilo/
/run/kilo$tab$root/run/kilo
/var/lib/node_exporter/textfile$tab$root/textfile
yarn-copilot list${tab}yarn-copilot --nm-url $nm list
yarn-copilot metrics${tab}yarn-copilot --nm-url $nm metrics
EOF
# blocks whose job is to write files, not to print
SILENT="yarn-copilot --nm-url $nm metrics"

# --- run them ----------------------------------------------------------------
ran=0 left=0
while IFS="$tab" read -r line mark; do
	case $mark in "<!-- run: yes"*) ;; *) continue ;; esac
	f=$(printf '%s/%05d' "$blocks" "$line")
	awk -F'\t' 'NR == FNR { from[++n] = $1; to[n] = $2; next }
		{ for (i = 1; i <= n; i++) {
			out = ""; s = $0
			while ((k = index(s, from[i])) > 0) {
				out = out substr(s, 1, k - 1) to[i]; s = substr(s, k + length(from[i]))
			}
			$0 = out s
		  } print }' "$tmpdir/map" "$f" >"$f.sh"
	if [ "$nokubectl" = 1 ] && grep -q kubectl "$f.sh"; then
		echo "README.md:$line: not run: no kubectl"
		left=$((left + 1))
		continue
	fi
	rm -rf "${root:?}/run" # each block on its own: what one made is not there for the next
	(cd "$root/work" && bash -e -o pipefail "$f.sh") >"$f.out" 2>"$f.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		sed 's/^/  | /' "$f.sh" >&2
		tail -n 5 "$f.err" | sed 's/^/  ! /' >&2
		fail "README.md:$line: the block exited $rc"
	fi
	if grep -v 'is not /: no signal will be sent$' "$f.err" | grep -q 'warning:'; then
		sed 's/^/  | /' "$f.sh" >&2
		fail "README.md:$line: the block warns: $(grep -v 'no signal will be sent$' "$f.err" | grep -m1 'warning:')"
	fi
	if [ ! -s "$f.out" ] && ! grep -qF "$SILENT" "$f.sh"; then
		tail -n 5 "$f.err" | sed 's/^/  ! /' >&2
		fail "README.md:$line: the block printed nothing"
	fi
	ran=$((ran + 1))
done <"$blocks/list"
assert_eq "$((ran + left))" "$yes" "blocks run"

# what the silent one was for, and that the fakes were really asked
[ -s "$root/textfile/yarn-copilot.prom" ] || fail "the metrics block wrote no yarn-copilot.prom"
[ "$(count_api GET /api/v1/nodes)" -ge 2 ] || fail "the fake API server was not asked for nodes"
exit 0
