# SPDX-License-Identifier: Apache-2.0
# kdc.sh - a real MIT Kerberos KDC for the tests, sourced after
# test/lib.sh: . "$KILO_TOP/test/krb/kdc.sh".  It installs nothing
# (scripts/install-deps --krb does, `make check` runs it).
#
#   need_krb            skip (one line) unless krb5kdc, kdb5_util, kadmin.local,
#                       kinit, klist, faketime and /usr/bin/python3 with gssapi
#                       are here; KILO_REQUIRE_KRB=1 (.ci/run) makes that a failure
#   krb_start [OPT=V]   a throwaway realm KILO.TEST in $tmpdir/krb: its database,
#                       kdc.conf and krb5.conf (KRB5_CONFIG, exported), krb5kdc
#                       on 127.0.0.1 at a free port (UDP and TCP), stopped at exit.
#                       OPTs: maxlife=SECONDS (tickets' life, default 3600),
#                       faketime=OFFSET (the KDC's clock, e.g. +15m: faketime -f)
#                       Waits until the KDC answers (a deadline of 10 s, polled).
#   krb_stop            stop the KDC (a KDC that does not answer: the realm stays)
#   krb_princ NAME [kadmin addprinc options...]   a principal with a random key
#   krb_keytab FILE NAME...  the principals' keys into FILE (ktadd -norandkey)
#   krb_rekey NAME      a new random key (a new kvno): old keytabs are stale
#
# Gives KRB_REALM, KRB_DIR, KRB_PORT, KRB_PID.  The realm maps localhost
# (domain_realm), hosts are not canonicalised (dns_canonicalize_hostname,
# rdns false: what kilo-sync(1) tells operators to set where DNS does not
# match) and the client keeps its own clock (kdc_timesync 0), so a skew
# is seen as one.
# shellcheck shell=sh

: "${tmpdir:?sourced after test/lib.sh}"
KRB_REALM=KILO.TEST
KRB_DIR=$tmpdir/krb
KRB_PID=

need_krb() {
	_why=""
	for _t in krb5kdc kdb5_util kadmin.local kinit klist kdestroy faketime; do
		command -v "$_t" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin" command -v "$_t" >/dev/null 2>&1 ||
			{ _why="no $_t (scripts/install-deps --krb)"; break; }
	done
	[ -n "$_why" ] || /usr/bin/python3 -c 'import gssapi' 2>/dev/null ||
		_why="no python3-gssapi (scripts/install-deps --krb)"
	[ -z "$_why" ] && { PATH="$PATH:/usr/sbin"; return 0; }
	[ "${KILO_REQUIRE_KRB:-0}" != 1 ] || fail "Kerberos tests required but $_why"
	skip "$_why"
}

krb_start() {
	_maxlife=3600 _fake=
	for _o in "$@"; do
		case $_o in
		maxlife=*) _maxlife=${_o#maxlife=} ;;
		faketime=*) _fake=${_o#faketime=} ;;
		*) fail "krb_start: unknown option $_o" ;;
		esac
	done
	mkdir -p "$KRB_DIR" && chmod 700 "$KRB_DIR" || fail "krb dir"
	if [ ! -e "$KRB_DIR/principal" ]; then
		KRB_PORT=$(/usr/bin/python3 -c 'import socket
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); t = socket.socket()
for _ in range(50):
    t.bind(("127.0.0.1", 0)); p = t.getsockname()[1]
    try:
        u.bind(("127.0.0.1", p)); break
    except OSError:
        t.close(); t = socket.socket()
print(p)')
		cat >"$KRB_DIR/kdc.conf" <<KDC
[kdcdefaults]
	kdc_listen = 127.0.0.1:$KRB_PORT
	kdc_tcp_listen = 127.0.0.1:$KRB_PORT
[realms]
	$KRB_REALM = {
		database_name = $KRB_DIR/principal
		key_stash_file = $KRB_DIR/stash
		acl_file = $KRB_DIR/kadm5.acl
		max_life = ${_maxlife}s
		max_renewable_life = 0
		supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
	}
[logging]
	kdc = FILE:$KRB_DIR/kdc.log
KDC
		: >"$KRB_DIR/kadm5.acl"
		cat >"$KRB_DIR/krb5.conf" <<CONF
[libdefaults]
	default_realm = $KRB_REALM
	dns_lookup_kdc = false
	dns_lookup_realm = false
	dns_canonicalize_hostname = false
	rdns = false
	kdc_timesync = 0
	default_ccache_name = FILE:$KRB_DIR/no-such-dir/ccache
[realms]
	$KRB_REALM = {
		kdc = 127.0.0.1:$KRB_PORT
	}
[domain_realm]
	localhost = $KRB_REALM
CONF
		export KRB5_CONFIG="$KRB_DIR/krb5.conf" KRB5_KDC_PROFILE="$KRB_DIR/kdc.conf"
		kdb5_util create -s -r "$KRB_REALM" -P "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
			>"$KRB_DIR/create.log" 2>&1 || fail "kdb5_util create: $(cat "$KRB_DIR/create.log")"
		krb_princ kilo-probe
		krb_keytab "$KRB_DIR/probe.keytab" kilo-probe
		at_exit krb_stop
	fi
	if [ -n "$_fake" ]; then
		faketime -f "$_fake" krb5kdc -n -r "$KRB_REALM" -P "$KRB_DIR/kdc.pid" >>"$KRB_DIR/kdc.out" 2>&1 &
	else
		krb5kdc -n -r "$KRB_REALM" -P "$KRB_DIR/kdc.pid" >>"$KRB_DIR/kdc.out" 2>&1 &
	fi
	KRB_PID=$!
	# ready: an AS exchange for the probe principal succeeds (10 s deadline)
	_end=$(($(date +%s) + 10))
	until _krb_answers; do
		alive "$KRB_PID" || fail "krb5kdc exited: $(cat "$KRB_DIR/kdc.out" "$KRB_DIR/kdc.log" 2>/dev/null | tail -n 5)"
		[ "$(date +%s)" -lt "$_end" ] || fail "krb5kdc did not answer within 10 s"
		sleep 0.05
	done
	rm -f "$KRB_DIR/probe.cc"
}

# the probe's AS exchange got an answer (a clock skew under faketime is one)
_krb_answers() {
	_out=$(KRB5CCNAME=FILE:$KRB_DIR/probe.cc kinit -k -t "$KRB_DIR/probe.keytab" kilo-probe 2>&1) && return 0
	case $_out in *"Clock skew"*) return 0 ;; esac
	return 1
}

krb_stop() {
	[ -n "$KRB_PID" ] || return 0
	# under faketime KRB_PID is faketime's, the KDC its child (its -P file)
	# (a KDC a test stopped with SIGSTOP is continued, or it would never end)
	[ ! -s "$KRB_DIR/kdc.pid" ] || kill -CONT "$(cat "$KRB_DIR/kdc.pid")" 2>/dev/null
	[ ! -s "$KRB_DIR/kdc.pid" ] || kill "$(cat "$KRB_DIR/kdc.pid")" 2>/dev/null
	kill "$KRB_PID" 2>/dev/null
	wait "$KRB_PID" 2>/dev/null
	rm -f "$KRB_DIR/kdc.pid"
	KRB_PID=
}

krb_princ() {
	_n=$1
	shift
	kadmin.local -r "$KRB_REALM" -q "addprinc -randkey $* $_n" >"$KRB_DIR/kadmin.log" 2>&1 ||
		fail "addprinc $_n: $(cat "$KRB_DIR/kadmin.log")"
}

krb_keytab() {
	_kt=$1
	shift
	for _n in "$@"; do
		kadmin.local -r "$KRB_REALM" -q "ktadd -norandkey -k $_kt $_n" >"$KRB_DIR/kadmin.log" 2>&1 ||
			fail "ktadd $_n: $(cat "$KRB_DIR/kadmin.log")"
		grep -q 'added to keytab' "$KRB_DIR/kadmin.log" || fail "ktadd $_n: $(cat "$KRB_DIR/kadmin.log")"
	done
}

krb_rekey() {
	kadmin.local -r "$KRB_REALM" -q "cpw -randkey $1" >"$KRB_DIR/kadmin.log" 2>&1 ||
		fail "cpw $1: $(cat "$KRB_DIR/kadmin.log")"
}
