# SPDX-License-Identifier: Apache-2.0
# cluster.sh - sourced by the real-YARN tests (after test/lib.sh): Hadoop's own
# ResourceManager and NodeManager daemons on loopback, each in its own JVM,
# from the classpath test/hadoop/build.sh resolved.
#
#   hd_start [--rms N] [--nms N] [--nm-memory-mb MB] [--nm-vcores N]
#       configure (mkconf.py) and start the daemons; with 2+ RMs rm1 is made
#       active by `rmadmin -transitionToActive`; returns once every
#       NodeManager is RUNNING at the active RM. Sets $hd_work,
#       $hd_info (cluster.json), $hd_rm1 $hd_rm2 (web URLs), $hd_nm1 $hd_nm2
#       (node ids), $hd_nmurl1 $hd_nmurl2.
#   hd_rm_start ID / hd_rm_stop ID     one RM's JVM (a restart forgets state)
#   hd_nm_start ID / hd_nm_exited ID   NodeManager ID (nm1, nm2) started again
#                                      after it exited / whether it has
#   hd_nm_stop ID                      NodeManager ID stopped (SIGTERM: it
#                                      unregisters, the RM lists it SHUTDOWN)
#   hd_rmadmin ARGS...                 Hadoop's RMAdminCLI (test/hadoop/yarn rmadmin)
#   hd_app NODEHOST COUNT MB VCORES [CMD]
#       an application holding COUNT containers on that NodeManager
#       (SleepApp); sets $hd_app_id, $hd_app_containers (space separated),
#       $hd_app_report (its report file, rewritten every 300 ms), $hd_app_pid
#   hd_app_stop                        the application ends (containers stop)
#   hd_app_ask NODEHOST COUNT MB VCORES
#       a second application asking for COUNT containers on that NodeManager,
#       not waited for (it gives up after 120 s); $hd_ask_report is its report
#       (running: the containers it got), $hd_ask_pid; hd_ask_stop ends it
#       (its pending request goes with it)
#   hd_node ID                         that node as the active RM lists it
#   hd_wait WHAT SECONDS COMMAND...    until COMMAND succeeds (run afresh each
#                                      try), else fail
#   hd_is WANT COMMAND...              COMMAND prints WANT (for hd_wait: the
#                                      last value seen goes into the failure)
#
# Everything lives under $hd_work and is removed at exit, Ctrl-C included
# (KILO_HADOOP_LOGS=DIR keeps the daemons' logs in DIR/<test name>/):
# the JVMs get SIGTERM, then SIGKILL; processes left behind whose cwd is in
# the test's directory (containers, an rmadmin JVM) are killed.
# shellcheck shell=sh
# shellcheck disable=SC2034 # the hd_* variables are for the test that sources this

: "${tmpdir:?sourced after test/lib.sh}" "${KILO_TOP:?}"
HADOOP_VERSION=${HADOOP_VERSION:-3.4.2}
_hd_build=$KILO_TOP/build/hadoop/$HADOOP_VERSION
if [ ! -s "$_hd_build/classpath" ]; then
	_why=$(cat "$_hd_build/skip" 2>/dev/null || echo "test/hadoop/build.sh has not run")
	[ "${KILO_REQUIRE_HADOOP:-0}" != 1 ] || fail "real YARN required, but: $_why"
	skip "real YARN: $_why"
fi
hd_work=$tmpdir/yarn
mkdir -p "$hd_work/logs"
_hd_cp="$_hd_build/classes:$(cat "$_hd_build/classpath")"
_hd_pids=""
# JDK 17: the web apps' Guice (cglib) and Hadoop's reflection need these
# packages open, as Hadoop's own scripts give them on newer JDKs.
_hd_jvm="-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true"
for _p in java.lang java.lang.reflect java.util java.util.concurrent java.net java.io java.nio \
	sun.nio.ch; do
	_hd_jvm="$_hd_jvm --add-opens=java.base/$_p=ALL-UNNAMED"
done
_hd_jvm="$_hd_jvm --add-exports=java.base/sun.net.dns=ALL-UNNAMED"
# HD_CURL: the test's curl options for the RMs' web apps (--negotiate -u :
# behind mkconf.py --rm-spnego); a KRB5_CONFIG reaches the JVMs too
# shellcheck disable=SC2086 # HD_CURL: options, one a word
_hd_curl() { curl ${HD_CURL:-} "$@"; }
[ -z "${KRB5_CONFIG:-}" ] || _hd_jvm="$_hd_jvm -Djava.security.krb5.conf=$KRB5_CONFIG"
_hd_jvm="$_hd_jvm --add-exports=java.base/sun.net.util=ALL-UNNAMED"
export KILO_HADOOP_JVM="$_hd_jvm" KILO_HADOOP_CP="$_hd_cp"

_hd_cleanup() {
	# KILO_HADOOP_LOGS=DIR keeps the daemons' logs in DIR/<test name>/
	if [ -n "${KILO_HADOOP_LOGS:-}" ]; then
		_ld=$KILO_HADOOP_LOGS/$(basename "$0" .sh)
		mkdir -p "$_ld" && cp -R "$hd_work/logs/." "$_ld/" 2>/dev/null
	fi
	for _p in $_hd_pids; do kill -TERM "$_p" 2>/dev/null; done
	_i=0
	while [ $_i -lt 100 ]; do
		_left=""
		for _p in $_hd_pids; do alive "$_p" && _left="$_left $_p"; done
		[ -n "$_left" ] || break
		_i=$((_i + 1))
		sleep 0.1
	done
	for _p in $_hd_pids; do kill -KILL "$_p" 2>/dev/null; done
	# container processes (DefaultContainerExecutor: setsid'd shells and
	# their children) whose working directory is under the NM local dirs,
	# and anything else still working in this test's directory (an rmadmin
	# JVM of a kilo-sync that was killed), this shell aside
	for _d in /proc/[0-9]*; do
		[ "${_d#/proc/}" != $$ ] || continue
		case $(readlink "$_d/cwd" 2>/dev/null) in
		"$tmpdir" | "$tmpdir"/*) kill -KILL "${_d#/proc/}" 2>/dev/null ;;
		esac
	done
}
at_exit _hd_cleanup

# _hd_java NAME CONFDIR MAINCLASS ARGS...: a JVM in the background, logging
# to $hd_work/logs/NAME.log; its pid is remembered for the cleanup.
_hd_java() {
	_jn=$1 _jc=$2
	shift 2
	# shellcheck disable=SC2086 # the JVM options are words
	(cd "$hd_work" && exec java $_hd_jvm -Dhadoop.log.dir="$hd_work/logs" \
		-Dyarn.log.dir="$hd_work/logs" -cp "$_jc:$_hd_cp" "$@") \
		</dev/null >>"$hd_work/logs/$_jn.log" 2>&1 &
	_hd_last=$!
	_hd_pids="$_hd_pids $_hd_last"
}

hd_wait() { # WHAT SECONDS COMMAND...
	_what=$1 _secs=$2
	shift 2
	_i=0 _hd_seen=""
	until "$@" 2>/dev/null; do
		for _p in ${_hd_watch:-}; do
			alive "$_p" || fail "$_what: the JVM exited (logs: $(tail -n 12 \
				"$hd_work"/logs/*.log 2>/dev/null))"
		done
		_i=$((_i + 1))
		[ $_i -le $((_secs * 5)) ] || fail "$_what (after ${_secs} s${_hd_seen:+; last seen: $_hd_seen})"
		sleep 0.2
	done
}

hd_is() { # WANT COMMAND...
	_want=$1
	shift
	_hd_seen=$("$@")
	[ "$_hd_seen" = "$_want" ]
}

_hd_conf() { jq -r --arg id "$1" '(.rms + .nms)[] | select(.id == $id) | .conf' "$hd_info"; }

hd_rm_start() {
	eval "_old=\${_hd_rm_pid_$1:-}"
	[ -z "$_old" ] || ! alive "$_old" || fail "hd_rm_start $1: already running"
	_hd_java "$1" "$(_hd_conf "$1")" org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
	eval "_hd_rm_pid_$1=$_hd_last"
	_u=$(jq -r --arg id "$1" '.rms[] | select(.id == $id) | .url' "$hd_info")
	hd_wait "RM $1 did not start" 90 _hd_curl -sf -o /dev/null "$_u/ws/v1/cluster/info"
}

hd_rm_stop() {
	eval "_p=\${_hd_rm_pid_$1:?not started}"
	kill -TERM "$_p"
	hd_wait "RM $1 did not stop" 30 _hd_dead "$_p"
	eval "_hd_rm_pid_$1="
}
_hd_dead() { ! alive "$1"; }

_hd_nm_java() { # ID
	_hd_java "$1" "$(_hd_conf "$1")" org.apache.hadoop.yarn.server.nodemanager.NodeManager
	eval "_hd_nm_pid_$1=$_hd_last"
}

hd_nm_start() { # ID: start NodeManager ID again (after it exited: a
	# decommissioned NM shuts down); same ports, so the same node id
	eval "_old=\${_hd_nm_pid_$1:-}"
	[ -z "$_old" ] || ! alive "$_old" || fail "hd_nm_start $1: already running"
	_hd_nm_java "$1"
}

hd_nm_stop() { # ID: NodeManager ID stopped (SIGTERM; it unregisters)
	eval "_p=\${_hd_nm_pid_$1:?not started}"
	kill -TERM "$_p"
	hd_wait "NM $1 did not stop" 30 _hd_dead "$_p"
}

hd_nm_exited() { # ID: its JVM has exited
	eval "_p=\${_hd_nm_pid_$1:?not started}"
	! alive "$_p"
}

hd_rmadmin() {
	HADOOP_CONF_DIR=$hd_work/conf-client sh "$KILO_TOP/test/hadoop/yarn" rmadmin "$@"
}

_hd_running() { # N: the active RM lists N RUNNING nodes
	[ "$(_hd_curl -sf "$_hd_active/ws/v1/cluster/nodes?states=RUNNING" |
		jq '.nodes.node // [] | length')" = "$1" ]
}

hd_node() { # ID: that node at the active RM (follows the standby's redirect)
	_hd_curl -sfL "$_hd_active/ws/v1/cluster/nodes/$1" | jq -c .node
}

hd_start() {
	python3 "$KILO_TOP/test/hadoop/mkconf.py" "$hd_work" "$@" || fail "mkconf.py $*"
	hd_info=$hd_work/cluster.json
	hd_rm1=$(jq -r '.rms[0].url' "$hd_info")
	hd_rm2=$(jq -r '.rms[1].url // empty' "$hd_info")
	hd_nm1=$(jq -r '.nms[0].nodeId' "$hd_info")
	hd_nm2=$(jq -r '.nms[1].nodeId // empty' "$hd_info")
	hd_nmurl1=$(jq -r '.nms[0].url' "$hd_info")
	hd_nmurl2=$(jq -r '.nms[1].url // empty' "$hd_info")
	for _id in $(jq -r '.rms[].id' "$hd_info"); do
		_hd_java "$_id" "$(_hd_conf "$_id")" org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
		eval "_hd_rm_pid_$_id=$_hd_last"
	done
	_hd_watch=$_hd_pids
	for _u in $(jq -r '.rms[].url' "$hd_info"); do
		hd_wait "RM at $_u did not start" 90 _hd_curl -sf -o /dev/null "$_u/ws/v1/cluster/info"
	done
	[ -z "$hd_rm2" ] || hd_rmadmin -transitionToActive rm1 >/dev/null ||
		fail "rmadmin -transitionToActive rm1"
	_hd_active=$hd_rm1
	_n=0
	for _id in $(jq -r '.nms[].id' "$hd_info"); do
		_n=$((_n + 1))
		_hd_nm_java "$_id"
	done
	_hd_watch=$_hd_pids
	hd_wait "$_n NodeManagers did not register" 90 _hd_running "$_n"
	_hd_watch=""
}

hd_app() { # NODEHOST COUNT MB VCORES [CMD]
	hd_app_report=$hd_work/app-report.json
	rm -f "$hd_app_report"
	_out=$hd_work/logs/app.out
	: >"$_out"
	(cd "$hd_work" && exec java $_hd_jvm -cp "$hd_work/conf-client:$_hd_cp" kilo.test.SleepApp \
		--node "$1" --count "$2" --mb "$3" --vcores "$4" --report "$hd_app_report" \
		${5:+--command "$5"}) </dev/null >"$_out" 2>>"$hd_work/logs/app.log" &
	hd_app_pid=$!
	_hd_pids="$_hd_pids $hd_app_pid"
	hd_wait "the application did not get its containers" 90 grep -q '"containers"' "$_out"
	hd_app_id=$(head -n 1 "$_out" | jq -r .app)
	hd_app_containers=$(head -n 1 "$_out" | jq -r '.containers | join(" ")')
}

hd_app_stop() {
	kill -TERM "$hd_app_pid" 2>/dev/null
	hd_wait "the application did not stop" 30 _hd_dead "$hd_app_pid"
}

hd_app_ask() { # NODEHOST COUNT MB VCORES
	hd_ask_report=$hd_work/ask-report.json
	rm -f "$hd_ask_report"
	(cd "$hd_work" && exec java $_hd_jvm -cp "$hd_work/conf-client:$_hd_cp" kilo.test.SleepApp \
		--node "$1" --count "$2" --mb "$3" --vcores "$4" --report "$hd_ask_report" \
		--wait-ms 120000) </dev/null >"$hd_work/logs/ask.out" 2>>"$hd_work/logs/ask.log" &
	hd_ask_pid=$!
	_hd_pids="$_hd_pids $hd_ask_pid"
	hd_wait "the second application did not ask" 90 test -s "$hd_ask_report"
}

hd_ask_stop() {
	kill -TERM "$hd_ask_pid" 2>/dev/null
	hd_wait "the second application did not stop" 30 _hd_dead "$hd_ask_pid"
}
