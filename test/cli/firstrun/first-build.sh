# SPDX-License-Identifier: Apache-2.0
# The first run works (#20 item 6): on a machine where neither pkg-config
# nor the -dev packages are installed, `make demo` and `make check` are each
# the very first command of a clean clone and build working tools.
#
# Shims first on PATH play that machine until scripts/install-deps has run:
#   pkg-config  "not found" (exit 127) until the marker exists, then the real one
#   dpkg-query  pkg-config, check and every -dev package not installed until
#               the marker, anything else the real answer
#   apt-get     installs nothing: `install` creates the marker (the packages
#               are really installed on this machine already)
#   id          -u is 0 (install-deps installs only as root), or the
#               uid in $tmpdir/uid for the not-root case
# A Makefile that reads pkg-config while it parses, before `deps` ran (the
# bug: hundreds of undefined references, a second `make demo` worked) fails
# here.  What runs after the build is replaced in the clone: scripts/demo by
# a stub that runs each tool's --version (test/cli/demo/ runs the real one),
# scripts/lint and test/run-all.sh by no-ops; `make check` builds kilo-sync
# only (TOOLS=kilo-sync UNITS= TEST_TOOLS=).
#
# KILO_FIRSTRUN_SRC=DIR tests another source tree (e.g. an old revision from
# `git archive`) instead of this checkout's tracked files.
. "$KILO_TOP/test/lib.sh"
src=${KILO_FIRSTRUN_SRC:-$KILO_TOP}
for t in make cc git; do
	command -v "$t" >/dev/null || skip "no $t"
done
real_pc=$(command -v pkg-config) || skip "no pkg-config (the shim needs the real one behind it)"
real_dq=$(command -v dpkg-query) || skip "no dpkg-query (not Debian)"
real_id=$(command -v id)

clone=$tmpdir/clone
mkdir -p "$clone"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# what a clone of this checkout holds: the tracked files as they are now
	(cd "$src" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$clone" ||
		fail "could not copy the tracked files"
else
	(cd "$src" && tar --exclude=./build --exclude=./bin -cf - .) | tar -xf - -C "$clone" ||
		fail "could not copy $src"
fi
[ ! -e "$clone/build" ] && [ ! -e "$clone/bin" ] || fail "the clone is not clean"

shims=$tmpdir/shims marker=$tmpdir/installed log=$tmpdir/shims.log
mkdir -p "$shims"
cat >"$shims/pkg-config" <<EOF
#!/bin/sh
if [ -e '$marker' ]; then echo "pkg-config present \$*" >>'$log'; exec '$real_pc' "\$@"; fi
echo "pkg-config absent \$*" >>'$log'
echo "sh: 1: pkg-config: not found" >&2
exit 127
EOF
cat >"$shims/dpkg-query" <<EOF
#!/bin/sh
[ -e '$marker' ] && exec '$real_dq' "\$@"
for a; do p=\$a; done
case \$p in
pkg-config | check | *-dev)
	echo "dpkg-query: no packages found matching \$p" >&2
	exit 1 ;;
esac
exec '$real_dq' "\$@"
EOF
cat >"$shims/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>'$log'
case " \$* " in *" install "*) : >'$marker' ;; esac
exit 0
EOF
cat >"$shims/id" <<EOF
#!/bin/sh
[ "\$*" = -u ] && { cat '$tmpdir/uid'; exit 0; }
exec '$real_id' "\$@"
EOF
chmod +x "$shims"/*
echo 0 >"$tmpdir/uid"

# after the build: the stub demo runs every tool built, no lint, no suite
cat >"$clone/scripts/demo" <<'EOF'
for t in bin/*; do "$t" --version || exit 1; done
echo "stub demo ran"
EOF
printf 'exit 0\n' >"$clone/scripts/lint"
printf 'echo "stub suite ran"\n' >"$clone/test/run-all.sh"

# first_run TARGET [VAR=VALUE...]: from a clean tree and no packages, run
# `make TARGET` once; its output in $tmpdir/TARGET.out
first_run() {
	rm -rf "${clone:?}/build" "${clone:?}/bin" "$marker"
	: >"$log"
	# the clone's make is a first make: nothing of a make that runs this test
	(cd "$clone" && unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES &&
		PATH="$shims:$PATH" make -j2 --no-print-directory "$@") \
		>"$tmpdir/$1.out" 2>&1
	rc=$?
	if [ "$rc" != 0 ]; then
		tail -n 15 "$tmpdir/$1.out" >&2
		fail "make $1 as the first command exited $rc (first error: $(grep -m1 -i "error\|undefined" "$tmpdir/$1.out"))"
	fi
	grep -q '^apt-get install .*libjansson-dev' "$log" || fail "make $1: install-deps did not install libjansson-dev"
	grep -q '^pkg-config absent' "$log" || fail "make $1: pkg-config was never asked while absent (the shims did not bite)"
	grep -q '^pkg-config present --libs .*jansson' "$log" ||
		fail "make $1: the build never read pkg-config --libs after install-deps"
}

first_run demo
grep -qx 'kilo-sync 0.1.0 .*' "$tmpdir/demo.out" || fail "make demo: no kilo-sync --version in: $(tail -n 3 "$tmpdir/demo.out")"
grep -qx 'stub demo ran' "$tmpdir/demo.out" || fail "make demo did not run scripts/demo"
for t in kilo-sync node-usage yarn-copilot qos-cgset evictor resctrl-assign; do
	[ -x "$clone/bin/$t" ] || fail "make demo did not build bin/$t"
done

first_run check TOOLS=kilo-sync UNITS= TEST_TOOLS=
grep -qx 'stub suite ran' "$tmpdir/check.out" || fail "make check did not reach the tests"
v=$("$clone/build/check/bin/kilo-sync" --version) || fail "make check's kilo-sync does not run"
case $v in "kilo-sync 0.1.0 "*) ;; *) fail "make check's kilo-sync --version: $v" ;; esac

# not root (README: "they print the apt-get command to run as root and stop")
echo 1000 >"$tmpdir/uid"
rm -rf "${clone:?}/build" "${clone:?}/bin" "$marker"
: >"$log"
(cd "$clone" && unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES &&
	PATH="$shims:$PATH" make --no-print-directory demo) >"$tmpdir/user.out" 2>&1
assert_eq "$?" 2 "make demo as a user, packages missing: exit"
grep -q "^install-deps: run as root: apt-get update && apt-get install -y --no-install-recommends .*libjansson-dev" \
	"$tmpdir/user.out" || fail "make demo as a user does not print the apt-get command: $(head -n 3 "$tmpdir/user.out")"
! grep -q "^apt-get" "$log" || fail "make demo as a user ran: $(grep "^apt-get" "$log")"
[ ! -e "$clone/bin" ] && [ ! -e "$clone/build" ] || fail "make demo as a user built something"
exit 0
