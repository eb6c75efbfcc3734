#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# quantity.sh - Kubernetes quantity parse + canonical print (lib/core/quantity)
# over a generated list of KILO_BENCH_QUANTITIES (default 500000) requests,
# limits and capacities, against the same conversion in Python's decimal
# module (quantity-peer.py), whose output must be identical.
# Prints: quantity-parse-print <ns/quantity> ns/quantity <peer ns> <peer/ours> target
# With KILO_BENCH_IR=1 and valgrind: callgrind instructions per quantity instead.
# shellcheck source=test/bench/lib.sh
. "$KILO_TOP/test/bench/lib.sh"

n=${KILO_BENCH_QUANTITIES:-500000}
# A 10k-node cluster with 30 pods each carries about 1.5M quantities (requests,
# limits, capacity): at 300 ns each, under half a second of CPU per pass.
target_ns=300
command -v python3 >/dev/null 2>&1 || skip "no python3 for the peer"

make -s -C "$KILO_TOP" build/libkilo.a >&2 || fail "cannot build libkilo.a"
# shellcheck disable=SC2046
${CC:-cc} -std=gnu11 -O2 -I"$KILO_TOP/lib" -o "$tmpdir/quantity-bench" \
	"$KILO_TOP/test/bench/quantity-bench.c" "$KILO_TOP/build/libkilo.a" \
	$(pkg-config --libs jansson) || fail "cannot build quantity-bench"

# What nodes and pods carry: milli-cores, cores, kubelet KiB, MiB/GiB, bytes,
# decimal SI, exponents, and a few malformed values.
awk -v n="$n" 'BEGIN {
	srand(42)
	for (i = 0; i < n; i++) {
		r = int(rand() * 12)
		if (r == 0) printf "%dm\n", 1 + int(rand() * 64000)
		else if (r == 1) printf "%d\n", 1 + int(rand() * 128)
		else if (r == 2) printf "%.1f\n", rand() * 64
		else if (r == 3) printf "%dKi\n", 1000000 + int(rand() * 200000000)
		else if (r == 4) printf "%dMi\n", 1 + int(rand() * 65536)
		else if (r == 5) printf "%dGi\n", 1 + int(rand() * 512)
		else if (r == 6) printf "%.2fGi\n", rand() * 64
		else if (r == 7) printf "%d\n", int(rand() * 2147483647) * 64
		else if (r == 8) printf "%dM\n", 1 + int(rand() * 100000)
		else if (r == 9) printf "%de%d\n", 1 + int(rand() * 999), int(rand() * 12)
		else if (r == 10) printf "%.3fm\n", rand() * 1000
		else printf "%d%s\n", int(rand() * 1000), (rand() < 0.5 ? "K" : " ")
	}
}' >"$tmpdir/in"

if [ "${KILO_BENCH_IR:-0}" = 1 ]; then
	head -n 10000 "$tmpdir/in" >"$tmpdir/in-ir"
	bench_ir "$tmpdir/in-ir" "$tmpdir/quantity-bench" || skip "no valgrind for KILO_BENCH_IR=1"
	bench_line quantity-parse-print-ir "$(bench_div "$BENCH_IR" 10000 0)" Ir/quantity \
		"target<=2000Ir/quantity"
	exit 0
fi

bench_cpu 5 "$tmpdir/in" "$tmpdir/ours" "$tmpdir/quantity-bench"
ours=$BENCH_CPU
bench_cpu 3 "$tmpdir/in" "$tmpdir/peer" python3 "$KILO_TOP/test/bench/quantity-peer.py"
peer=$BENCH_CPU
cmp -s "$tmpdir/ours" "$tmpdir/peer" ||
	fail "lib/core/quantity and quantity-peer.py disagree: $(diff "$tmpdir/ours" "$tmpdir/peer" | head -n 3)"

ns=$(bench_div "$ours" "$n" 12 | awk '{ printf "%.0f", $1 * 1e9 }')
peer_ns=$(bench_div "$peer" "$n" 12 | awk '{ printf "%.0f", $1 * 1e9 }')
bench_line quantity-parse-print "$ns" ns/quantity "$peer_ns" "$(bench_div "$peer" "$ours" 1)x" \
	"target<=${target_ns}ns/quantity"
