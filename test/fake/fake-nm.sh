# SPDX-License-Identifier: Apache-2.0
# fake-nm.sh - sourced by tests after test/lib.sh: start_fake_nm MODE [ARGS...]
# starts test/fake/fake_nm.py on 127.0.0.1, sets NM_URL, and stops it at exit.
# shellcheck disable=SC2154,SC2034 # tmpdir comes from test/lib.sh, NM_URL is for the caller
start_fake_nm() {
	_pf="$tmpdir/nm-port.$$.${_nm_count:-0}"
	_nm_count=$(( ${_nm_count:-0} + 1 ))
	python3 "$KILO_TOP/test/fake/fake_nm.py" --port-file "$_pf" --mode "$@" &
	_nm_pid=$!
	at_exit "kill $_nm_pid 2>/dev/null"
	wait_nonempty "fake NM" "$_pf"
	NM_URL="http://127.0.0.1:$(cat "$_pf")"
}
