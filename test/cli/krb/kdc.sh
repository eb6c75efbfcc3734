#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The KDC harness itself (test/krb/kdc.sh): a throwaway realm on loopback
# issues a ticket with the configured short life, refuses a principal it
# does not know, and, started again under faketime, refuses a client whose
# clock is off with "Clock skew too great" (preauth required) - what the
# Kerberos tests of kilo-sync rely on.  Nothing is left behind.
. "$KILO_TOP/test/lib.sh"
. "$KILO_TOP/test/krb/kdc.sh"
need_krb
krb_start maxlife=10
krb_princ kilo +requires_preauth
krb_keytab "$tmpdir/kilo.keytab" kilo
export KRB5CCNAME=FILE:$tmpdir/cc
kinit -k -t "$tmpdir/kilo.keytab" kilo 2>"$tmpdir/err" || fail "kinit: $(cat "$tmpdir/err")"
klist -s || fail "no ticket after kinit"
life=$(/usr/bin/python3 - "$tmpdir/cc" <<'PY'
import subprocess, sys, datetime
out = subprocess.run(["klist", "-c", sys.argv[1]], capture_output=True, text=True).stdout
line = [l for l in out.splitlines() if "krbtgt/" in l][0].split()
f = "%m/%d/%y %H:%M:%S"
a = datetime.datetime.strptime(line[0] + " " + line[1], f)
b = datetime.datetime.strptime(line[2] + " " + line[3], f)
print(int((b - a).total_seconds()))
PY
)
assert_eq "$life" 10 "ticket life (maxlife=10)"
out=$(kinit -k -t "$tmpdir/kilo.keytab" nobody 2>&1) && fail "kinit of an unknown principal passed"
case $out in *"not found in Kerberos database"* | *"Keytab contains no suitable keys"*) ;;
*) fail "unknown principal: $out" ;; esac

krb_stop
krb_start faketime=+15m
out=$(kinit -k -t "$tmpdir/kilo.keytab" kilo 2>&1) && fail "kinit against a KDC 15 min ahead passed"
case $out in *"Clock skew too great"*) ;; *) fail "skew: $out" ;; esac
dir=$KRB_DIR
krb_stop
[ -z "$(pgrep -f "krb5kdc -n -r $KRB_REALM -P $dir" || :)" ] || fail "krb5kdc still runs"
exit 0
