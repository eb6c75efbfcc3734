#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kubectl get --watch against the fake API server (test/fake/fake_apiserver.py):
# kubectl lists, watches from the list's resourceVersion, and prints the
# ADDED, MODIFIED and DELETED events of a pod made, labelled and deleted by
# kubectl here; --watch-only prints only those; a label selector turns the
# pod's label leaving into a DELETED event for that watcher.
. "$KILO_TOP/test/lib.sh"

command -v kubectl >/dev/null 2>&1 || skip "no kubectl"

python3 "$KILO_TOP/test/fake/fake_apiserver.py" --ignore-stdin --urls-file "$tmpdir/urls" \
	--log "$tmpdir/requests.log" --load "$FIX/k8s/podlist-mixed.json" >/dev/null &
pid=$!
at_exit "kill $pid 2>/dev/null"
wait_nonempty "fake API server" "$tmpdir/urls"
fake_kubeconfig "$(jq -r .api "$tmpdir/urls")"

# watch NAME ARGS...: kubectl get pods ARGS in the background, output in
# $tmpdir/NAME.out; returns once its watch request is logged (the fake
# logs a watch once its events are being kept for it)
watches=0
watch() {
	_name=$1
	shift
	kubectl get pods "$@" >"$tmpdir/$_name.out" 2>"$tmpdir/$_name.err" &
	at_exit "kill $! 2>/dev/null"
	watches=$((watches + 1))
	wait_for watching "$watches" ||
		fail "kubectl get pods $* did not watch: $(cat "$tmpdir/$_name.err")"
}
watching() { [ "$(cat "$tmpdir/requests.log" 2>/dev/null | grep -c '"query": "[^"]*watch=true')" -ge "$1" ]; }
# lines NAME N: $tmpdir/NAME.out has N lines; documents NAME N: N JSON documents
lines() { [ "$(wc -l <"$tmpdir/$1.out")" -ge "$2" ]; }
documents() { [ "$(jq -s length "$tmpdir/$1.out" 2>/dev/null || echo 0)" -ge "$2" ]; }
# until_seen lines|documents NAME N
until_seen() {
	wait_for "$@" || fail "$2: not $3 $1: $(cat "$tmpdir/$2.out" "$tmpdir/$2.err")"
}

watch table -n online --watch
watch events -n online --watch -o json --output-watch-events
watch only -n online --watch-only
watch labelled -A --watch-only -l kilo.io/watched=yes -o json --output-watch-events

cat >"$tmpdir/pod.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: watch-me, namespace: online, labels: {app: watch-me}}
spec:
  nodeName: worker-1
  containers: [{name: main, image: "busybox:1.36"}]
EOF
kubectl create -f "$tmpdir/pod.yaml" >/dev/null || fail "kubectl create"
kubectl label -n online pod watch-me kilo.io/watched=yes >/dev/null || fail "kubectl label"
kubectl label -n online pod watch-me kilo.io/watched- >/dev/null || fail "kubectl label -"
kubectl delete -n online pod watch-me >/dev/null || fail "kubectl delete"

# -o json --output-watch-events: one JSON document per event, the list's pod first
until_seen documents events 5
assert_eq "$(jq -rs '[.[] | .type + " " + .object.metadata.name] | join(", ")' "$tmpdir/events.out")" \
	"ADDED web-frontend-6d9c7b8f5d-kx7pq, ADDED watch-me, MODIFIED watch-me, MODIFIED watch-me, DELETED watch-me" \
	"kubectl --watch events"
assert_eq "$(jq -rs '[.[1:][] | .object.metadata.labels["kilo.io/watched"] // "-"] | join(" ")' "$tmpdir/events.out")" \
	"- yes - -" "labels seen by the watch"
# each event's resourceVersion is newer than the one before, the first
# newer than the list's
list_rv=$(jq -rs '.[0].object.metadata.resourceVersion' "$tmpdir/events.out")
assert_eq "$(jq -rs '[.[1:][] | .object.metadata.resourceVersion | tonumber] | . == (sort | unique)' "$tmpdir/events.out")" \
	true "resourceVersions increase"
assert_eq "$(jq -rs --arg rv "$list_rv" '.[1].object.metadata.resourceVersion | tonumber > ($rv | tonumber)' "$tmpdir/events.out")" \
	true "events after the listed pod"
grep '"userAgent": "kubectl' "$tmpdir/requests.log" | grep -q '"query": "resourceVersion=[0-9]*&watch=true"' ||
	fail "kubectl did not watch from its list's resourceVersion"

# the table: the header, the listed pod, then the pod once per event (AGE
# varies); --watch-only: without the listed pod
until_seen lines table 6
assert_eq "$(awk '{ print $1 }' "$tmpdir/table.out" | tr '\n' ' ')" \
	"NAME web-frontend-6d9c7b8f5d-kx7pq watch-me watch-me watch-me watch-me " "kubectl --watch"
until_seen lines only 5
assert_eq "$(awk '{ print $1 }' "$tmpdir/only.out" | tr '\n' ' ')" \
	"NAME watch-me watch-me watch-me watch-me " "kubectl --watch-only"

# -l: the label put is an ADDED, the label taken away a DELETED (the object
# before, at the write's resourceVersion), the delete itself nothing
until_seen documents labelled 2
sleep 0.3 # nothing more may come
assert_eq "$(jq -rs '[.[] | .type + " " + .object.metadata.name + " " + (.object.metadata.labels["kilo.io/watched"] // "-")] | join(", ")' "$tmpdir/labelled.out")" \
	"ADDED watch-me yes, DELETED watch-me yes" "kubectl --watch -l events"
[ "$(jq -rs '.[1].object.metadata.resourceVersion' "$tmpdir/labelled.out")" = \
	"$(jq -rs '.[3].object.metadata.resourceVersion' "$tmpdir/events.out")" ] ||
	fail "the selector's DELETED is not at the label removal's resourceVersion"
exit 0
