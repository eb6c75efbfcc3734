#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mkcerts.sh DIR - a throw-away CA for TLS tests against the fakes: writes
# DIR/ca.crt, DIR/server.{crt,key} (for 127.0.0.1 and localhost) and
# DIR/client.{crt,key} (CN kilo-test-client), all PEM, valid for one day.
set -eu
d=$1
mkdir -p "$d"
cd "$d"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
key ca.key
openssl req -x509 -new -key ca.key -out ca.crt -days 1 -subj /CN=kilo-test-ca \
	-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
for who in server client; do
	key "$who.key"
	openssl req -new -key "$who.key" -out "$who.csr" -subj "/CN=kilo-test-$who"
	if [ "$who" = server ]; then
		printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >ext
	else
		printf 'extendedKeyUsage=clientAuth\n' >ext
	fi
	openssl x509 -req -in "$who.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 \
		-extfile ext -out "$who.crt" 2>/dev/null
done
rm -f ext ./*.csr ca.srl
