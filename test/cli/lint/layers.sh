#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# layers.sh - scripts/lint-layers: on a fixture tree with one violation of
# each rule (test/fixtures/lint/layers-bad, compiled here for the object
# check) it names exactly those and exits 1; on this repository's own lib/
# (and, under `make check`, its objects) it finds nothing.
# shellcheck source=test/lib.sh
. "$KILO_TOP/test/lib.sh"

lint=$KILO_TOP/scripts/lint-layers
bad=$FIX/lint/layers-bad
command -v nm >/dev/null 2>&1 || fail "nm is not installed (binutils)"

# Objects of the fixture, at the paths lint-layers reads, with their .d
# files; doc/fortified.c as a hardened distribution build makes it.
for c in $(cd "$bad" && find lib -mindepth 2 -maxdepth 2 -name '*.c' | LC_ALL=C sort); do
	case $c in lib/core/missing.c) continue ;; esac # its header does not exist
	flags="-O1"
	[ "$c" = lib/doc/fortified.c ] && flags="-O2 -D_FORTIFY_SOURCE=2"
	mkdir -p "$tmpdir/obj/${c%/*}"
	# shellcheck disable=SC2086 # flags: several words
	${CC:-cc} -std=gnu11 $flags -I"$bad/lib" -MMD -c -o "$tmpdir/obj/${c%.c}.o" "$bad/$c" ||
		fail "cannot compile fixture $c"
done
# a stale object of a module that no longer exists is not this tree's
printf '#include <stdio.h>\nvoid gone(void) { fputs("x", stderr); }\n' >"$tmpdir/gone.c"
${CC:-cc} -c -o "$tmpdir/obj/lib/core/gone.o" "$tmpdir/gone.c" || fail "cannot compile gone.c"

sh "$lint" --root "$bad" --objects "$tmpdir/obj" >"$tmpdir/out" 2>"$tmpdir/err"
rc=$?
assert_eq "$rc" 1 "exit code on the violating tree"
cat >"$tmpdir/want" <<'WANT'
lib/stray.h:1: lib/ holds only layer folders; move it into one
lib/utils:1: 'utils' is not a layer (core doc decide kernel remote run cli)
lib/run/sub:1: layer folders hold files only (no subfolder, no link): the build compiles lib/<layer>/*.c
lib/core/flat.c:2: #include "base.h": name the layer, "<layer>/base.h"
lib/core/missing.c:2: #include "core/nothere.h": no such header lib/core/nothere.h
lib/decide/peek.c:3: #include "kernel/probe.h": decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/sneak.c:2: #include "kernel/probe.h": decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/sneak.c:3: #include "core/../remote/fetch.h": a relative or absolute path hides the layer; write "<layer>/<name>.h"
lib/kernel/probe.c:3: #include "remote/fetch.h": kernel -> remote breaks the layering: kernel/ may include only core, doc, kernel
lib/run/pass.c:2: #include "cli/say.h": run -> cli breaks the layering: only cmd/ and cli/ include cli/
lib/core/missing.c:1: not built (build it first: its object is checked too)
lib/decide/macro.o:1: compiled with lib/kernel/probe.h: decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/peek.o:1: compiled with lib/kernel/probe.h: decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/sneak.o:1: compiled with lib/kernel/probe.h: decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/sneak.o:1: compiled with lib/remote/fetch.h: decide -> remote breaks the layering: decide/ may include only core, doc, decide
lib/kernel/probe.o:1: compiled with lib/remote/fetch.h: kernel -> remote breaks the layering: kernel/ may include only core, doc, kernel
lib/run/pass.o:1: compiled with lib/cli/say.h: run -> cli breaks the layering: only cmd/ and cli/ include cli/
lib/core/quit.o:1: references exit: below the CLI layer nothing prints a diagnostic or exits (return a struct err; cmd/ prints it)
lib/decide/macro.o:1: uses probe of lib/kernel/probe.o: decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/peek.o:1: uses probe of lib/kernel/probe.o: decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/proto.o:1: uses probe of lib/kernel/probe.o: decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/decide/sneak.o:1: uses probe of lib/kernel/probe.o: decide -> kernel breaks the layering: decide/ may include only core, doc, decide
lib/doc/fd2.o:1: references dprintf: below the CLI layer nothing prints a diagnostic or exits (return a struct err; cmd/ prints it)
lib/doc/fortified.o:1: references __printf_chk: below the CLI layer nothing prints a diagnostic or exits (return a struct err; cmd/ prints it)
lib/doc/noisy.o:1: references stderr: below the CLI layer nothing prints a diagnostic or exits (return a struct err; cmd/ prints it)
lib/run/pass.o:1: uses say of lib/cli/say.o: run -> cli breaks the layering: only cmd/ and cli/ include cli/
WANT
diff -u "$tmpdir/want" "$tmpdir/out" >&2 || fail "findings on the violating tree differ"
[ ! -s "$tmpdir/err" ] || fail "stderr on the violating tree: $(head -n 1 "$tmpdir/err")"

# Usage errors: exit 2.
sh "$lint" --root "$tmpdir/nowhere" >/dev/null 2>&1
assert_eq "$?" 2 "exit code for a root without lib/"
sh "$lint" --frobnicate >/dev/null 2>&1
assert_eq "$?" 2 "exit code for an unknown option"

# This repository: clean, sources and (when built by make check) objects.
objs=
[ -d "$KILO_BIN/../lib/core" ] && objs=$(cd "$KILO_BIN/.." && pwd)
sh "$lint" --root "$KILO_TOP" ${objs:+--objects "$objs"} >"$tmpdir/own" 2>&1 ||
	fail "lint-layers finds violations in lib/: $(head -n 3 "$tmpdir/own")"
[ -n "$objs" ] || echo "note: no objects beside $KILO_BIN: sources checked only"
exit 0
