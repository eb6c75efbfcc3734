#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fake API server's watch (test/fake/fake_apiserver.py) seen with raw
# HTTP: a chunked 200 stream of one event a line; BOOKMARK only with
# allowWatchBookmarks=true; timeoutSeconds ends the stream; a version older
# than the history is one ERROR event carrying a 410 Expired Status inside
# the 200; field and label selectors filter events (an object leaving the
# selector is DELETED for that watcher); resourceVersion on lists; the
# change generator (POST /churn) and DELETE /watches.
. "$KILO_TOP/test/lib.sh"

command -v curl >/dev/null 2>&1 || skip "no curl"
command -v jq >/dev/null 2>&1 || skip "no jq"

python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/urls" \
	--log "$tmpdir/requests.log" --load "$FIX/k8s/podlist-mixed.json" \
	--load "$FIX/k8s/node-batch.json" --watch-history 4 --bookmark-interval 0.2 >/dev/null &
pid=$!
at_exit "kill $pid 2>/dev/null"
wait_nonempty "fake API server" "$tmpdir/urls"
api=$(jq -r .api "$tmpdir/urls")
control=$(jq -r .control "$tmpdir/urls")
pods=$api/api/v1/namespaces/online/pods

# watch NAME QUERY [PATH]: curl of a pods watch in the background (stream in
# $tmpdir/NAME.out, headers in NAME.hdr); returns once the fake logged it
watches=0
watch() {
	curl -sS -N -D "$tmpdir/$1.hdr" "$api${3:-/api/v1/pods}?watch=1&$2" >"$tmpdir/$1.out" \
		2>"$tmpdir/$1.err" &
	eval "$1_pid=$!"
	at_exit "kill $! 2>/dev/null"
	watches=$((watches + 1))
	wait_for watching "$watches" || fail "watch $1 not seen"
}
watching() { [ "$(cat "$tmpdir/requests.log" 2>/dev/null | grep -c '"query": "watch=1')" -ge "$1" ]; }
# finished NAME: wait for watch NAME's curl (at most 10 s), fail on its error
finished() {
	eval "_p=\$$1_pid"
	wait_for ended "$_p" || fail "watch $1 did not end"
	wait "$_p" || fail "watch $1: curl: $(cat "$tmpdir/$1.err")"
}
ended() { ! kill -0 "$1" 2>/dev/null; }
# events NAME: "TYPE name rv" of each event of watch NAME, comma-separated
events() {
	jq -r '.type + " " + (.object.metadata.name // "-") + " " + (.object.metadata.resourceVersion // "-")' \
		"$tmpdir/$1.out" | paste -sd, | sed 's/,/, /g'
}
patch() { # NAME JSON: merge patch of pod online/NAME, prints its resourceVersion
	curl -sS -f -X PATCH -H 'Content-Type: application/merge-patch+json' -d "$2" "$pods/$1" |
		jq -r .metadata.resourceVersion
}
rv=$(curl -sS -f "$api/api/v1/pods" | jq -r .metadata.resourceVersion)
web="web-frontend-6d9c7b8f5d-kx7pq"

# a chunked stream; BOOKMARK only when asked for, at the current version
rv1=$(patch "$web" '{"metadata":{"labels":{"step":"1"}}}')
started=$(date +%s)
watch plain "resourceVersion=$rv&timeoutSeconds=1"
watch marks "resourceVersion=$rv&timeoutSeconds=1&allowWatchBookmarks=true"
finished plain
finished marks
assert_eq "$(events plain)" "MODIFIED $web $rv1" "events without bookmarks"
assert_eq "$(jq -r 'select(.type != "BOOKMARK") | .type + " " + .object.metadata.name' "$tmpdir/marks.out")" \
	"MODIFIED $web" "events with bookmarks"
events marks | grep -q "BOOKMARK - $rv1" || fail "no BOOKMARK at $rv1: $(events marks)"
grep -qi '^transfer-encoding: chunked' "$tmpdir/plain.hdr" || fail "watch not chunked"
grep -q '^HTTP/1.1 200' "$tmpdir/plain.hdr" || fail "watch not 200: $(head -n 1 "$tmpdir/plain.hdr")"
# timeoutSeconds=1 ended both within a second or two
[ $(($(date +%s) - started)) -le 4 ] || fail "timeoutSeconds=1 did not end the watch"

# a version the history (--watch-history 4) no longer holds: a 200 whose
# one event is an ERROR with a 410 Expired Status (watch_cache.go)
for i in 2 3 4 5; do last=$(patch "$web" "{\"metadata\":{\"labels\":{\"step\":\"$i\"}}}"); done
watch old "resourceVersion=$rv&timeoutSeconds=5"
finished old
grep -q '^HTTP/1.1 200' "$tmpdir/old.hdr" || fail "too old: not 200"
assert_eq "$(jq -c '[.type, .object.kind, .object.code, .object.reason, .object.message]' "$tmpdir/old.out")" \
	"[\"ERROR\",\"Status\",410,\"Expired\",\"too old resource version: $rv ($rv1)\"]" "too old"
# the oldest version still held: its events
watch held "resourceVersion=$rv1&timeoutSeconds=1"
finished held
assert_eq "$(events held | grep -o MODIFIED | wc -l)" 4 "events since the oldest held"
assert_eq "$(events held | sed 's/.* //')" "$last" "last event"

# resourceVersion unset: every pod ADDED first, then the changes
watch all "timeoutSeconds=1"
finished all
assert_eq "$(jq -r .type "$tmpdir/all.out" | sort | uniq -c | awk '{ print $1, $2 }')" "5 ADDED" \
	"watch without resourceVersion"

# field selector spec.nodeName!= (bound pods only), label selector step=6;
# DELETE /watches ends every open stream at once
watch bound "resourceVersion=$last&fieldSelector=spec.nodeName!%3D"
watch step6 "resourceVersion=$last&labelSelector=step%3D6" \
	/api/v1/namespaces/online/pods
curl -sS -f -X POST -H 'Content-Type: application/json' \
	-d '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"late","namespace":"online"},"spec":{"containers":[{"name":"c","image":"i"}]}}' \
	"$pods" >/dev/null || fail "create"
bind=$(patch late '{"spec":{"nodeName":"worker-1"},"metadata":{"labels":{"step":"6"}}}')
gone=$(patch late '{"metadata":{"labels":{"step":"7"}}}')
curl -sS -f -X DELETE "$pods/late" >/dev/null || fail "delete"
del=$(curl -sS -f "$api/api/v1/pods?resourceVersionMatch=NotOlderThan&resourceVersion=0" |
	jq -r .metadata.resourceVersion)
curl -sS -f -X DELETE "$control/watches" >/dev/null || fail "DELETE /watches"
finished bound
finished step6
assert_eq "$(events bound)" "ADDED late $bind, MODIFIED late $gone, DELETED late $del" \
	"spec.nodeName!= watch"
assert_eq "$(events step6)" "ADDED late $bind, DELETED late $gone" "step=6 watch"
assert_eq "$(jq -r 'select(.type == "DELETED") | .object.metadata.labels.step' "$tmpdir/step6.out")" \
	6 "DELETED carries the object before"

# lists: resourceVersion=0 ignores limit (the watch cache); Exact gives the
# state at that version, 410 before the history; NotOlderThan the newest
assert_eq "$(curl -sS "$api/api/v1/pods?resourceVersion=0&limit=2" | jq -c '[(.items | length), .metadata.continue]')" \
	'[5,null]' "resourceVersion=0 with limit"
assert_eq "$(curl -sS "$pods?resourceVersion=$bind&resourceVersionMatch=Exact" | jq -r '[.metadata.resourceVersion, (.items[].metadata | .name + "=" + .labels.step)] | join(" ")')" \
	"$bind late=6 $web=5" "Exact at $bind"
assert_eq "$(curl -sS "$pods?resourceVersion=$rv&resourceVersionMatch=Exact" | jq -c '[.code, .reason]')" \
	'[410,"Expired"]' "Exact too old"
assert_eq "$(curl -sS "$pods?resourceVersion=$rv&resourceVersionMatch=NotOlderThan" | jq -r .metadata.resourceVersion)" \
	"$del" "NotOlderThan"
assert_eq "$(curl -sS "$pods?resourceVersion=$rv&limit=1" | jq -c .code)" 410 \
	"resourceVersion with limit is Exact"

# the change generator: 50 pod changes a second, every node once a second;
# a watch of bound pods sees the delete, re-create unbound and bind as
# DELETED and ADDED
watch churn "resourceVersion=$del&timeoutSeconds=2&fieldSelector=spec.nodeName!%3D"
watch nodes "resourceVersion=$del&timeoutSeconds=2" /api/v1/nodes
curl -sS -f -X POST -d '{"podChangesPerSecond": 50, "nodeModifiedEverySeconds": 1}' \
	"$control/churn" >/dev/null || fail "POST /churn"
finished churn
finished nodes
curl -sS -f -X POST -d '{}' "$control/churn" >/dev/null || fail "POST /churn {}"
counts=$(curl -sS -f "$control/churn")
n=$(echo "$counts" | jq .podChanges)
[ "$n" -ge 50 ] && [ "$n" -le 200 ] || fail "pod changes in 2 s: $counts"
types=$(jq -r .type "$tmpdir/churn.out" | sort | uniq -c | awk '{ printf "%s ", $2 }')
assert_eq "$types" "ADDED DELETED MODIFIED " "churn event types"
[ "$(jq -r 'select(.type == "ADDED") | .object.spec.nodeName // ""' "$tmpdir/churn.out" | grep -c '^$')" = 0 ] ||
	fail "churn: an unbound pod reached a bound watch"
[ "$(grep -c MODIFIED "$tmpdir/nodes.out")" -ge 1 ] || fail "churn: no node modified"

# POST /compact drops the watch history with the continue tokens
now=$(echo "$counts" | jq -r .resourceVersion)
curl -sS -f -X POST "$control/compact" >/dev/null || fail "POST /compact"
watch compacted "resourceVersion=$now"
finished compacted
assert_eq "$(jq -c '[.type, .object.code]' "$tmpdir/compacted.out")" '["ERROR",410]' \
	"watch after a compaction"

exit 0
