#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fakes (test/fake/fake_rm.py, fake_nm.py) against Hadoop's own
# ResourceManager and NodeManager, endpoint by endpoint: the same request
# to both, and the answers must agree in status code, content type, the
# Location and Refresh headers (redirects), and the JSON shape (member
# names and types, test/hadoop/shape.py: {} is not null). Values differ.
# With KILO_HADOOP_CAPTURE=DIR the real answers are kept there: NAME.json
# per JSON answer and answers.txt (status, type, headers of each); the
# fakes take their templates from such captures (test/fixtures/yarn/
# hadoop-VERSION/).
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/hadoop/cluster.sh"
cd "$tmpdir" || exit 1
hd_start --nms 1
host=$(jq -r '.nms[0].host' "$hd_info")
hd_app "$host" 2 256 1
hd_wait "the RM counts the containers" 30 hd_is 2 eval "hd_node $hd_nm1 | jq .numContainers"

# the fakes in the shapes captured from this Hadoop when there is such a
# capture (test/fixtures/yarn/hadoop-VERSION), else from 3.4.2's
fake_v=$HADOOP_VERSION
[ -d "$FIX/yarn/hadoop-$fake_v" ] || fake_v=3.4.2
fake_id=fake-host:8041
cat >rm-nodes.json <<EOC
[{"id":"$fake_id","state":"RUNNING","memoryMB":8192,"vCores":8,"usedMemoryMB":512,"usedVCores":2,
  "containers":2}]
EOC
python3 "$KILO_TOP/test/fake/fake_rm.py" --hadoop "$fake_v" --ignore-stdin --urls-file rm-urls \
	--nodes-file rm-nodes.json >/dev/null 2>rm.err &
at_exit "kill $! 2>/dev/null"
python3 "$KILO_TOP/test/fake/fake_nm.py" --hadoop "$fake_v" --port-file nm-port --mode ok >/dev/null 2>nm.err &
_fnm=$!
at_exit "kill $_fnm 2>/dev/null"
wait_nonempty "the fakes ($(cat rm.err nm.err 2>/dev/null))" rm-urls nm-port
frm1=$(jq -r .rm1 rm-urls) frm2=$(jq -r .rm2 rm-urls) frmctl=$(jq -r .control rm-urls)
fnm=http://127.0.0.1:$(cat nm-port)

# fetch NAME METHOD URL [BODY]: NAME.meta (status, content type without
# parameters, Location and Refresh present or not) and NAME.body
fetch() {
	_st=$(curl -s -o "$1.body" -D "$1.hdr" -w '%{http_code}' -X "$2" \
		${4:+-H 'Content-Type: application/json' -d "$4"} "$3")
	_ct=$(sed -n 's/^[Cc]ontent-[Tt]ype: *\([^;[:space:]]*\).*/\1/p' "$1.hdr" | tail -n 1)
	_lo=$(grep -ci '^location:' "$1.hdr")
	_re=$(grep -ci '^refresh:' "$1.hdr")
	echo "status $_st, type ${_ct:-none}, location $_lo, refresh $_re" >"$1.meta"
}
checked=0 diffs=""
# same NAME METHOD REAL-URL FAKE-URL [BODY]
same() {
	fetch "$1.real" "$2" "$3" "${5:-}"
	fetch "$1.fake" "$2" "$4" "${5:-}"
	checked=$((checked + 1))
	if [ -n "${KILO_HADOOP_CAPTURE:-}" ]; then
		echo "$1 $2: $(cat "$1.real.meta")" >>"$KILO_HADOOP_CAPTURE/answers.txt"
		! jq -e . "$1.real.body" >/dev/null 2>&1 || python3 -m json.tool --indent 1 "$1.real.body" >"$KILO_HADOOP_CAPTURE/$1.json"
	fi
	if [ "$(cat "$1.real.meta")" != "$(cat "$1.fake.meta")" ]; then
		diffs="$diffs
$1: real $(cat "$1.real.meta"); fake $(cat "$1.fake.meta")"
		return
	fi
	jq -e . "$1.real.body" >/dev/null 2>&1 || return 0
	_d=$(python3 "$KILO_TOP/test/hadoop/shape.py" "$1.real.body" "$1.fake.body" 2>&1) ||
		diffs="$diffs
$(printf '%s\n' "$_d" | sed "s|^|$1: |")"
}

nodes=/ws/v1/cluster/nodes
# the active RM
same cluster-info GET "$hd_rm1/ws/v1/cluster/info" "$frm1/ws/v1/cluster/info"
same nodes GET "$hd_rm1$nodes" "$frm1$nodes"
same nodes-running GET "$hd_rm1$nodes?states=RUNNING" "$frm1$nodes?states=RUNNING"
same nodes-empty GET "$hd_rm1$nodes?states=LOST" "$frm1$nodes?states=LOST"
same nodes-bad-state GET "$hd_rm1$nodes?states=BOGUS" "$frm1$nodes?states=BOGUS"
same node GET "$hd_rm1$nodes/$hd_nm1" "$frm1$nodes/$fake_id"
same node-unknown GET "$hd_rm1$nodes/nosuch:1" "$frm1$nodes/nosuch:1"
same node-malformed GET "$hd_rm1$nodes/nosuch" "$frm1$nodes/nosuch"
same resize POST "$hd_rm1$nodes/$hd_nm1/resource" "$frm1$nodes/$fake_id/resource" \
	'{"resource":{"memory":4096,"vCores":4},"overCommitTimeout":-1}'
same resize-unknown POST "$hd_rm1$nodes/nosuch:1/resource" "$frm1$nodes/nosuch:1/resource" \
	'{"resource":{"memory":4096,"vCores":4},"overCommitTimeout":-1}'
# the standby RM
same standby-info GET "$hd_rm2/ws/v1/cluster/info" "$frm2/ws/v1/cluster/info"
same standby-nodes GET "$hd_rm2$nodes" "$frm2$nodes"
same standby-resize POST "$hd_rm2$nodes/$hd_nm1/resource" "$frm2$nodes/$fake_id/resource" \
	'{"resource":{"memory":4096,"vCores":4},"overCommitTimeout":-1}'
# the NodeManager
nmc=/ws/v1/node/containers
same nm-info GET "$hd_nmurl1/ws/v1/node/info" "$fnm/ws/v1/node/info"
same nm-containers GET "$hd_nmurl1$nmc" "$fnm$nmc"
set -- $hd_app_containers
same nm-container GET "$hd_nmurl1$nmc/$1" \
	"$fnm$nmc/$(jq -r '.containers.container[0].id' nm-containers.fake.body)"
same nm-container-unknown GET "$hd_nmurl1$nmc/container_1_0001_01_000009" \
	"$fnm$nmc/container_1_0001_01_000009"
hd_app_stop
hd_wait "the NodeManager without containers" 30 hd_is '{}' eval \
	"curl -sf $hd_nmurl1$nmc | jq -c .containers"
kill "$_fnm"
python3 "$KILO_TOP/test/fake/fake_nm.py" --hadoop "$fake_v" --port-file nm-port2 --mode nocontainer >/dev/null 2>nm.err &
at_exit "kill $! 2>/dev/null"
wait_nonempty "the fake NM" nm-port2
same nm-containers-empty GET "$hd_nmurl1$nmc" "http://127.0.0.1:$(cat nm-port2)$nmc"

# a decommissioned node (its NodeManager then shuts down): the RM keeps it
# among its inactive nodes
jq -r '.nms[0].host' "$hd_info" >"$(jq -r .exclude "$hd_info")"
hd_rmadmin -refreshNodes >/dev/null 2>&1 || fail "rmadmin -refreshNodes"
hd_wait "the node DECOMMISSIONED" 30 hd_is DECOMMISSIONED eval "hd_node $hd_nm1 | jq -r .state"
curl -sf -X POST -d "[{\"id\":\"$fake_id\",\"state\":\"DECOMMISSIONED\",\"memoryMB\":8192,\"vCores\":8}]" \
	"$frmctl/nodes" >/dev/null || fail "fake RM nodes"
same node-decommissioned GET "$hd_rm1$nodes/$hd_nm1" "$frm1$nodes/$fake_id"
same nodes-decommissioned GET "$hd_rm1$nodes?states=DECOMMISSIONED" "$frm1$nodes?states=DECOMMISSIONED"
# no active RM
hd_rmadmin -transitionToStandby rm1 >/dev/null 2>&1 || fail "rmadmin -transitionToStandby rm1"
curl -sf -X POST -d '{"active":null,"noActive":"retrying"}' "$frmctl/config" >/dev/null ||
	fail "fake RM config"
same no-active-nodes GET "$hd_rm1$nodes" "$frm1$nodes"
same no-active-info GET "$hd_rm1/ws/v1/cluster/info" "$frm1/ws/v1/cluster/info"
[ -z "$diffs" ] || fail "$checked endpoints compared, the fakes (in $fake_v's shapes) differ from Hadoop $HADOOP_VERSION:$diffs"
echo "ok: $checked endpoints, the fakes answer as Hadoop $HADOOP_VERSION does"
