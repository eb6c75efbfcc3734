#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Peak RSS of yarn-copilot list while it reads and parses a NodeManager
# answer just under the default cap (--nm-max-bytes 16 MiB: a fake NM pads
# its containers to 15 MiB).  The peer is the same list with --no-nm (the
# tool's own footprint); the value is the extra memory the answer costs.
# Target (threat-model.md, an NM that answers hugely): under 3 x body + 16 MiB.
set -eu
. "$KILO_TOP/test/bench/lib.sh"
. "$KILO_TOP/test/fake/fake-nm.sh"
sh "$KILO_TOP/test/fake/mk-yarn-tree.sh" "$tmpdir/t" v1 50
# 9000 containers (under NM_MAX_CONTAINERS, each then an item of the list)
start_fake_nm huge --huge-mb 15 --huge-count 9000
curl -sf "$NM_URL/ws/v1/node/containers" >"$tmpdir/body"
body=$(wc -c <"$tmpdir/body")
: >"$tmpdir/empty"
bench_cpu 3 "$tmpdir/empty" "$tmpdir/out" "$KILO_BIN/yarn-copilot" --sysroot "$tmpdir/t" --no-nm list
base=$BENCH_RSS
bench_cpu 3 "$tmpdir/empty" "$tmpdir/out" "$KILO_BIN/yarn-copilot" --sysroot "$tmpdir/t" \
	--nm-url "$NM_URL" --nm-timeout 20000 list
with=$BENCH_RSS
jq -e '.nodeManager.reachable' "$tmpdir/out" >/dev/null || fail "the 15 MiB answer was not read"
extra=$((with - base))
target=$((3 * body / 1024 + 16384))
bench_line yarn-copilot-nm-15MiB-answer-extra-rss "$extra" KiB "$base" "$(bench_div "$extra" "$((body / 1024))")" "<=$target"
[ "$extra" -le "$target" ] || echo "over target: $extra KiB > $target KiB" >&2
