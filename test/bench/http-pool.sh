#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# http-pool.sh - ms per GET against the fake RM over TLS (test CA), with an
# http_pool (kept connection) versus a new connection per request.
# Prints: http-pool-tls <pooled> ms/request <new-connection> <ratio> <0.5
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kilo-bench-XXXXXX")
pid=""
trap 'exec 3>&- 2>/dev/null; [ -z "$pid" ] || wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$top"
make -s build/libkilo.a
# shellcheck disable=SC2046
cc -O2 -std=gnu11 -D_GNU_SOURCE -Ilib -DKILO_VERSION='"bench"' -o "$work/http_pool" \
	test/bench/http_pool.c build/libkilo.a $(pkg-config --libs jansson libcurl)
sh test/fake/mkcerts.sh "$work/tls"
mkfifo "$work/in"
python3 test/fake/fake_rm.py --tls-cert "$work/tls/server.crt" --tls-key "$work/tls/server.key" \
	--urls-file "$work/urls" <"$work/in" >/dev/null &
pid=$!
exec 3>"$work/in"
i=0
while [ ! -s "$work/urls" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rm1"])' "$work/urls")
# shellcheck disable=SC2046
set -- $("$work/http_pool" "$url" 300 "$work/tls/ca.crt")
awk -v plain="$1" -v pooled="$2" \
	'BEGIN { printf "http-pool-tls %.3f ms/request %.3f %.1f <0.5\n", pooled, plain, plain / pooled }'
