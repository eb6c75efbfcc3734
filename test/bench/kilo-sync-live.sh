#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kilo-sync-live.sh - kilo's own CPU time (getrusage of kilo-sync alone, not
# the fakes') and peak RSS of one live `kilo-sync plan` against the fake API
# server and the fake RM pair: gen-cluster.py's 1000 nodes x 30 pods of
# ~3.9 KB, pageSize 500 (61 requests, ~125 MB of pages), over plain HTTP.
# The tools under test read the pages with the field filter of `plan --from`
# (k8s_list_options.item_fields); the peer is the same tool built in this
# run from the commit before that reader (every page a whole jansson tree):
# its tree is exported with `git archive` into the temporary dir and built
# there (no worktree is added).  The two plans must be the same bytes.
# Prints:
#   kilo-sync-live-1000-nodes <s> s-cpu <before s> <ours/before> target<=0.4
#   kilo-sync-live-1000-nodes-rss <KiB> KiB <before KiB> <ours/before> target<=1
# Environment: KILO_SYNC_LIVE_NODES (default 1000), KILO_SYNC_LIVE_RUNS (runs
# of each, the median is taken; default 3), KILO_SYNC_LIVE_BASE (the peer's
# commit; default the parent of the first commit that gave k8s.h
# item_fields).
# shellcheck source=test/bench/lib.sh
. "$KILO_TOP/test/bench/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v jq >/dev/null 2>&1 || skip "no jq"
command -v git >/dev/null 2>&1 || skip "no git"
git -C "$KILO_TOP" rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
[ -x "$KILO_BIN/kilo-sync" ] || fail "$KILO_BIN/kilo-sync missing (make all)"
nodes=${KILO_SYNC_LIVE_NODES:-1000}
runs=${KILO_SYNC_LIVE_RUNS:-3}
export KILO_NOW=2026-11-29T16:00:00Z

# the peer: the tool as it was before the filtered reader
base=${KILO_SYNC_LIVE_BASE:-}
if [ -z "$base" ]; then
	first=$(git -C "$KILO_TOP" log --reverse --format=%H -S item_fields -- lib/remote/k8s.h |
		head -n 1)
	[ -n "$first" ] || skip "no commit gives lib/remote/k8s.h item_fields"
	base=$first~1
fi
base=$(git -C "$KILO_TOP" rev-parse --verify --quiet "$base^{commit}") ||
	fail "KILO_SYNC_LIVE_BASE: no such commit"
mkdir "$tmpdir/base"
git -C "$KILO_TOP" archive "$base" | tar -x -C "$tmpdir/base" || fail "git archive $base"
make -s -C "$tmpdir/base" --no-print-directory O="$tmpdir/base/build" BINDIR="$tmpdir/base/bin" \
	-j2 "$tmpdir/base/bin/kilo-sync" >"$tmpdir/base-build.log" 2>&1 ||
	fail "cannot build $base: $(tail -n 5 "$tmpdir/base-build.log")"

# the cluster: a List for the fake API server, the RM's nodes for the fake RM
python3 "$KILO_TOP/test/bench/gen-cluster.py" "$nodes" >"$tmpdir/stream.json" ||
	fail "gen-cluster.py $nodes"
python3 - "$tmpdir/stream.json" "$tmpdir/cluster.json" "$tmpdir/rm-nodes.json" <<'EOF' ||
import json, sys
items, rm = [], []
with open(sys.argv[1]) as f:
    for line in f:
        d = json.loads(line)
        if "nodes" in d:
            rm = [{"id": n["id"], "state": n["state"], "memoryMB": 40960, "vCores": 20,
                   "usedMemoryMB": 4096, "usedVCores": 2, "containers": 2}
                  for n in d["nodes"]["node"]]
        else:
            items.append(d)
json.dump({"kind": "List", "apiVersion": "v1", "items": items}, open(sys.argv[2], "w"))
json.dump(rm, open(sys.argv[3], "w"))
EOF
	fail "cannot convert the cluster"
rm -f "$tmpdir/stream.json"
python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --lifetime 3600 \
	--urls-file "$tmpdir/api-urls" --load "$tmpdir/cluster.json" >/dev/null 2>"$tmpdir/api.err" &
api_pid=$!
at_exit "kill $api_pid 2>/dev/null"
python3 "$KILO_TOP/test/fake/fake_rm.py" --ignore-stdin --lifetime 3600 \
	--urls-file "$tmpdir/rm-urls" --nodes-file "$tmpdir/rm-nodes.json" >/dev/null \
	2>"$tmpdir/rm.err" &
rm_pid=$!
at_exit "kill $rm_pid 2>/dev/null"
_w=0
while [ ! -s "$tmpdir/api-urls" ] || [ ! -s "$tmpdir/rm-urls" ]; do
	_w=$((_w + 1))
	[ "$_w" -lt 1200 ] || fail "fakes did not start: $(cat "$tmpdir/api.err" "$tmpdir/rm.err")"
	sleep 0.1
done
rm -f "$tmpdir/cluster.json"
fake_kubeconfig "$(jq -r .api "$tmpdir/api-urls")"
cat >"$tmpdir/kilo-sync.yaml" <<EOF
clusters:
  - id: default
    rmUrls: [$(jq -r .rm1 "$tmpdir/rm-urls"), $(jq -r .rm2 "$tmpdir/rm-urls")]
    timeoutMs: 60000
kubernetes: {pageSize: 500, timeoutMs: 60000}
passTimeoutMs: 600000
EOF

bench_cpu "$runs" /dev/null "$tmpdir/ours.json" \
	"$KILO_BIN/kilo-sync" plan -q -c "$tmpdir/kilo-sync.yaml"
ours=$BENCH_CPU ours_rss=$BENCH_RSS
bench_cpu "$runs" /dev/null "$tmpdir/before.json" \
	"$tmpdir/base/bin/kilo-sync" plan -q -c "$tmpdir/kilo-sync.yaml"
peer=$BENCH_CPU peer_rss=$BENCH_RSS
[ "$(jq '.items | length' "$tmpdir/ours.json")" -eq "$nodes" ] || fail "not every node planned"
cmp -s "$tmpdir/ours.json" "$tmpdir/before.json" ||
	fail "the plans differ: $(diff "$tmpdir/ours.json" "$tmpdir/before.json" | head -c 300)"
bench_line "kilo-sync-live-$nodes-nodes" "$ours" s-cpu "$peer" \
	"$(bench_div "$ours" "$peer")" "target<=0.4"
bench_line "kilo-sync-live-$nodes-nodes-rss" "$ours_rss" KiB "$peer_rss" \
	"$(bench_div "$ours_rss" "$peer_rss")" "target<=1"
