#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""quantity-peer.py - the peer of the quantity benchmark: Kubernetes
resource.Quantity parsing and canonical printing with Python's decimal
module (arbitrary precision, as apimachinery's inf.Dec), one quantity per
input line, the canonical form (or "error") per output line.

Rules: apimachinery pkg/api/resource quantity.go ParseQuantity and
CanonicalizeBytes, k8s-conventions.md section 4.  Standard library only.
"""
import re
import sys
from decimal import MAX_EMAX, MIN_EMIN, ROUND_UP, Context, Decimal, setcontext

SCAN = re.compile(r"([+-]?)(0*)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[+-]?[0-9]*)\Z")
DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
EXP = re.compile(r"[eE][+-]?[0-9]+\Z")
CAP = Decimal(2**63 - 1)
NANO = Decimal("1e-9")
SUFFIX_OF = {v: k for k, v in DECIMAL.items()}
BINARY_OF = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]


setcontext(Context(prec=100000, Emax=MAX_EMAX, Emin=MIN_EMIN))


def parse(s):
    """(value, format) or None."""
    m = SCAN.match(s)
    if not s or not m:
        return None
    sign, zeros, ints, frac, suf = m.groups()
    frac = frac or ""
    if suf in DECIMAL:
        kind, exp = "DecimalSI", DECIMAL[suf]
    elif suf in BINARY:
        kind, exp = "BinarySI", BINARY[suf]
    elif len(suf) > 1 and EXP.match(suf):
        kind, exp = "DecimalExponent", int(suf[1:])
    else:
        return None
    if not (zeros or ints or frac):
        bad = exp > 40 if kind == "BinarySI" else exp < -9
        return None if bad else (Decimal(0), kind)
    v = Decimal((0, tuple(int(c) for c in (ints + frac) or "0"), -len(frac)))
    v = v * (2**exp) if kind == "BinarySI" else v.scaleb(exp)
    if v.as_tuple().exponent < -9:
        v = v.quantize(NANO, rounding=ROUND_UP)  # away from zero
    if kind == "BinarySI":
        v = min(v, CAP)
        if 0 < v < 1:
            kind = "DecimalSI"
    return (-v if sign == "-" else v), kind


def canonical(v, kind):
    if v == 0:
        return "0"
    sign, mag = ("-" if v < 0 else ""), abs(v)
    if kind == "BinarySI" and mag >= 1024 and mag == mag.to_integral_value():
        w, n = int(mag), 0
        while n < 6 and w % 1024 == 0:
            w, n = w // 1024, n + 1
        return sign + str(w) + BINARY_OF[n]
    t = mag.normalize().as_tuple()
    digits, exp = "".join(map(str, t.digits)), t.exponent
    r = exp % 3
    digits, exp = digits + "0" * r, exp - r
    if kind != "DecimalExponent" and exp in SUFFIX_OF:
        return sign + digits + SUFFIX_OF[exp]
    return sign + digits + ("e%d" % exp if exp else "")


def main():
    out = []
    for line in sys.stdin:
        q = parse(line.rstrip("\n"))
        out.append(canonical(*q) if q else "error")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
