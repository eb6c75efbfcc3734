#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""shape.py REAL FAKE - compare the shape of two JSON documents: the real
Hadoop daemon's answer and the fake's answer for the same request. Prints
one line per difference and exits 1 when there is any:

  PATH: only in real          a member the fake lacks
  PATH: only in fake          a member the real daemon never sends
  PATH: real TYPE, fake TYPE  e.g. {} for an empty list against null

Values are not compared (the numbers differ), only member names and JSON
types (object, array, string, number, boolean, null); integers and
floats both count as number. Arrays: every element of each side is merged
into one shape first, so [a, b] and [c] compare by their members.
"""
import json
import sys


def kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def merged(items):
    """One representative of the elements of an array: objects merged
    member by member, else the first element (None for an empty array)."""
    out = None
    for it in items:
        if isinstance(it, dict) and isinstance(out, dict):
            for k, v in it.items():
                out.setdefault(k, v)
        elif out is None:
            out = dict(it) if isinstance(it, dict) else it
    return out


def diff(real, fake, path, out):
    kr, kf = kind(real), kind(fake)
    if kr != kf:
        out.append("%s: real %s, fake %s" % (path or ".", kr, kf))
        return
    if kr == "object":
        for k in sorted(set(real) | set(fake)):
            p = "%s.%s" % (path, k)
            if k not in fake:
                out.append("%s: only in real" % p)
            elif k not in real:
                out.append("%s: only in fake" % p)
            else:
                diff(real[k], fake[k], p, out)
    elif kr == "array":
        r, f = merged(real), merged(fake)
        if r is not None and f is not None:
            diff(r, f, path + "[]", out)


def main():
    docs = []
    for name in sys.argv[1:3]:
        with open(name, encoding="utf-8") as fh:
            docs.append(json.load(fh))
    out = []
    diff(docs[0], docs[1], "", out)
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
