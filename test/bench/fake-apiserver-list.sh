#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fake-apiserver-list.sh - list throughput of the fake API server itself
# (test/fake/fake_apiserver.py), so that it is not the bottleneck of the
# kilo-sync benchmarks: gen-cluster.py's 10000 nodes x 10 pods (~3.5 KB
# each) loaded, then every Node and every Pod listed in pages of 500 over
# plain HTTP by one keep-alive client, KILO_FAKE_LIST_RUNS times; the
# first run (cold: nothing serialised yet) and the median of the others
# (warm) are timed, wall clock (with --warm-lists even the first is warm).
# The peer is the fake as it was before its pre-serialised pages (the file
# from the commit KILO_FAKE_LIST_BASE, by default the parent of the first
# commit that gave it item_bytes), run twice (~2 min a run at 10000 nodes);
# both must answer the same bytes.  Takes ~10 min.
# Prints:
#   fake-apiserver-list-10000-nodes <MB/s warm> MB/s <before MB/s> <ours/before> target>=5
#   fake-apiserver-list-10000-nodes-cold <MB/s> MB/s <before MB/s> <ours/before> target>=1
# Environment: KILO_FAKE_LIST_NODES (10000), KILO_FAKE_LIST_PODS (pods per
# node, 10), KILO_FAKE_LIST_RUNS (3), KILO_FAKE_LIST_BASE.
# shellcheck source=test/bench/lib.sh
. "$KILO_TOP/test/bench/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v git >/dev/null 2>&1 || skip "no git"
git -C "$KILO_TOP" rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
nodes=${KILO_FAKE_LIST_NODES:-10000}
pods=${KILO_FAKE_LIST_PODS:-10}
runs=${KILO_FAKE_LIST_RUNS:-3}
fake=$KILO_TOP/test/fake/fake_apiserver.py

base=${KILO_FAKE_LIST_BASE:-}
if [ -z "$base" ]; then
	first=$(git -C "$KILO_TOP" log --reverse --format=%H -S item_bytes -- test/fake/fake_apiserver.py |
		head -n 1)
	[ -n "$first" ] || skip "no commit gives fake_apiserver.py item_bytes"
	base=$first~1
fi
git -C "$KILO_TOP" show "$base:test/fake/fake_apiserver.py" >"$tmpdir/before.py" ||
	fail "KILO_FAKE_LIST_BASE: no fake_apiserver.py at $base"

# the cluster as two list files the fake loads
python3 "$KILO_TOP/test/bench/gen-cluster.py" "$nodes" "$pods" | python3 -c '
import json, sys
nodes, pods = [], []
for line in sys.stdin:
    doc = json.loads(line)
    {"Node": nodes, "Pod": pods}.get(doc.get("kind"), []).append(doc)
for name, kind, items in (("nodes", "NodeList", nodes), ("pods", "PodList", pods)):
    with open(sys.argv[1] + "/" + name + ".json", "w") as f:
        json.dump({"kind": kind, "apiVersion": "v1", "items": items}, f)
' "$tmpdir" || fail "gen-cluster.py"

# the client: every page of nodes and pods, RUNS times; prints the seconds
# of each run, the bytes of one and their sha256
cat >"$tmpdir/client.py" <<'EOF'
import hashlib, http.client, re, sys, time, urllib.parse
url, runs = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2])
conn = http.client.HTTPConnection(url.hostname, url.port)
for _ in range(runs):
    t0, size, digest = time.monotonic(), 0, hashlib.sha256()
    for res in ("nodes", "pods"):
        cont = ""
        while True:
            conn.request("GET", "/api/v1/%s?limit=500%s" % (res, cont and "&continue=" + cont))
            resp = conn.getresponse()
            body = resp.read()
            if resp.status != 200:
                sys.exit("client: HTTP %d" % resp.status)
            size += len(body)
            digest.update(body)
            m = re.search(rb'"continue": "([^"]*)"', body[:4096])
            if not m:
                break
            cont = m.group(1).decode()
    print("%.3f" % (time.monotonic() - t0))
print(size, digest.hexdigest())
EOF

# measure FAKE.PY RUNS: cold and warm MB/s in $tmpdir/FAKE.rate
measure() {
	rm -f "$tmpdir/urls"
	python3 "$1" --ignore-stdin --urls-file "$tmpdir/urls" --load "$tmpdir/nodes.json" \
		--load "$tmpdir/pods.json" --lifetime 3600 >/dev/null &
	_pid=$!
	_t=0 # loading 100k pods takes a while: 12 x 10 s
	until wait_for test -s "$tmpdir/urls"; do
		_t=$((_t + 1))
		[ "$_t" -lt 12 ] || fail "the fake did not start"
	done
	python3 "$tmpdir/client.py" "$(sed 's/.*"api": "\([^"]*\)".*/\1/' "$tmpdir/urls")" "$2" \
		>"$tmpdir/out" || fail "client against $1"
	kill "$_pid"
	wait "$_pid" 2>/dev/null
	tail -n 1 "$tmpdir/out" >"$1.sum"
	awk -v runs="$2" 'NR == 1 { cold = $1 } NR > 1 && NR <= runs { t[NR - 1] = $1 }
		NR == runs + 1 { mb = $1 / 1e6 }
		END {
			n = runs - 1; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
			warm = n > 0 ? t[int((n + 1) / 2)] : cold
			printf "%.1f %.1f\n", mb / cold, mb / warm
		}' "$tmpdir/out" >"$1.rate"
}
cp "$fake" "$tmpdir/after.py"
measure "$tmpdir/before.py" $((runs < 2 ? runs : 2))
measure "$tmpdir/after.py" "$runs"
cmp -s "$tmpdir/before.py.sum" "$tmpdir/after.py.sum" ||
	fail "the pages differ: before $(cat "$tmpdir/before.py.sum"), after $(cat "$tmpdir/after.py.sum")"
read -r b_cold b_warm <"$tmpdir/before.py.rate"
read -r a_cold a_warm <"$tmpdir/after.py.rate"
bench_line "fake-apiserver-list-$nodes-nodes" "$a_warm" MB/s "$b_warm" "$(bench_div "$a_warm" "$b_warm")" "target>=5"
bench_line "fake-apiserver-list-$nodes-nodes-cold" "$a_cold" MB/s "$b_cold" "$(bench_div "$a_cold" "$b_cold")" "target>=1"
