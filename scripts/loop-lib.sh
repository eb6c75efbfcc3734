# SPDX-License-Identifier: Apache-2.0
# loop-lib.sh - shared by kilo-sync-loop and node-qos-loop (sourced).
#
# Gives: log MSG (one timestamped line on stderr), log_lines (each line of
# stdin as log does: a tool's stderr in the loop's log), loop_lock FILE (flock, or
# exit 1 when another loop holds it), loop_sleep SECONDS (interruptible by
# SIGTERM/SIGINT), jittered SECONDS PERCENT, heartbeat FILE, need_uint NAME
# MIN MAX (exit 2 unless $NAME is an integer in MIN..MAX), dir_problem and
# trusted_dir (no other user can swap a dir: 1 or exit 2), tighten_empty
# (an empty emptyDir of the caller's made 0755), own_dir NAME DIR (make DIR;
# exit 2 unless it is the caller's alone), and the variable stop
# (set to 1 by SIGTERM/SIGINT: finish the pass, then exit 0).
#
# Files the loops write themselves: the lock is opened without truncating
# (a symlink planted there damages nothing), the heartbeat is renamed into
# place from a mktemp name (mv -T: a symlink there is replaced, never
# followed into a dir); the loop's own documents go only into a dir of
# the caller's that no one else can write (own_dir).

prog=${prog:-kilo-loop}
stop=0
trap 'stop=1; [ -z "${sleeper:-}" ] || kill "$sleeper" 2>/dev/null' TERM INT

log() {
	printf '%s %s: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$prog" "$*" >&2
}

# log_lines: each line of stdin logged as by log, on stderr (the loop's
# prefix, so `grep 'kilo-sync-loop: kilo-sync: node '` finds a tool's lines
# too); a last line without a newline is logged too.  One awk for all lines
# when it has strftime (mawk, gawk, busybox; 5000 lines in 0.1 s), each line
# logged as it comes (mawk reads a pipe by blocks unless -W interactive);
# else one date(1) a line (1 ms each).
log_lines() {
	if TZ=UTC0 awk 'BEGIN { exit strftime("%Y") == "" }' </dev/null 2>/dev/null; then
		_la=""
		case $(awk -W version 2>/dev/null </dev/null) in mawk*) _la="-W interactive" ;; esac
		# shellcheck disable=SC2086 # _la: no option or one of two words
		TZ=UTC0 awk $_la -v p="$prog" '{
			printf "%s %s: %s\n", strftime("%Y-%m-%dT%H:%M:%SZ"), p, $0
			fflush()
		}' >&2
		return
	fi
	while IFS= read -r _ll || [ -n "$_ll" ]; do
		log "$_ll"
	done
}

loop_lock() {
	mkdir -p "$(dirname "$1")"
	trusted_dir LOCK_FILE "$1" "$(dirname "$1")" private
	exec 9>>"$1"
	if ! flock -n 9; then
		log "another loop holds the lock $1; exiting"
		exit 1
	fi
}

# jittered SECONDS PERCENT: SECONDS plus a uniform random 0..PERCENT% of it,
# with millisecond resolution (client-go wait.Jitter).
jittered() {
	r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	awk -v s="$1" -v p="$2" -v r="$r" 'BEGIN { printf "%.3f\n", s + s * p / 100 * r / 65536 }'
}

loop_sleep() {
	[ "$stop" = 1 ] && return 0
	sleep "$1" &
	sleeper=$!
	wait "$sleeper" 2>/dev/null || :
	sleeper=""
}

need_uint() {
	_v=""
	eval "_v=\${$1}"
	# digits only (no sign, space or newline), no leading zero (the shell
	# would read 010 as octal), at most 10 of them (no overflow in [ ])
	case $_v in
	'' | *[!0-9]* | 0?* | ???????????*) ;;
	*) [ "$_v" -ge "$2" ] && [ "$_v" -le "$3" ] && return 0 ;;
	esac
	echo "$prog: invalid $1: '$_v' (expected an integer $2..$3)" >&2
	exit 2
}

heartbeat() {
	[ -z "$1" ] && return 0
	mkdir -p "$(dirname "$1")" && trusted_dir HEARTBEAT "$1" "$(dirname "$1")" private &&
		_hb=$(mktemp "$1.XXXXXX") && chmod 644 "$_hb" && mv -fT "$_hb" "$1"
}

# dir_problem NAME VALUE DIR LEAF: 0 when no other user can swap DIR or
# what is in it: DIR and every dir above it (symlinks resolved) owned by the
# caller or root, and writable by no one else unless sticky (then each may
# remove only their own: /tmp).  LEAF says more of DIR itself: "own" (the
# caller's, writable by no one else: the loop's shell writes there by plain
# redirection), "private" (writable by no one else, sticky or not: a lock or
# heartbeat is opened by name), "shared" (the rule above: files are made by
# mktemp and renamed).  Else one line on stderr naming NAME and VALUE, what
# is wrong and what to do, and 1.
dir_problem() {
	_td=$(cd "$3" 2>/dev/null && pwd -P) || {
		echo "$prog: $1 '$2': '$3' is not a directory: make it (root's, mode 0755)" >&2
		return 1
	}
	_tme=$(id -u)
	# a symlink on the way as given: its owner could point it elsewhere
	# after this check, so it must be the caller's or root's
	# after this check, so it must be the caller's or root's, in a dir no
	# one else may rename entries of
	case $3 in /*) _tl=$3 ;; *) _tl=$(pwd)/$3 ;; esac
	_tq="" _trest=${_tl#/}
	while [ -n "$_trest" ]; do
		_tc=${_trest%%/*}
		case $_trest in */*) _trest=${_trest#*/} ;; *) _trest="" ;; esac
		[ -n "$_tc" ] || continue
		_tparent=${_tq:-/}
		_tq=$_tq/$_tc
		[ -L "$_tq" ] || continue
		_tu=$(stat -c %u "$_tq") _tpm=$((0$(stat -L -c %a "$_tparent"))) _tpu=$(stat -L -c %u "$_tparent")
		if { [ "$_tu" != "$_tme" ] && [ "$_tu" != 0 ]; } ||
			{ [ "$_tpu" != "$_tme" ] && [ "$_tpu" != 0 ]; } ||
			{ [ $((_tpm & 18)) != 0 ] && [ $((_tpm & 512)) = 0 ]; }; then
			echo "$prog: $1 '$2': '$_tq' is a symlink another user could point elsewhere (its owner uid $_tu, in '$_tparent'); use a dir of root's that no one else may write (such as /run/kilo, mode 0755)" >&2
			return 1
		fi
	done
	_tp=$_td
	while :; do
		_tu=$(stat -c %u "$_tp") _tm=$((0$(stat -c %a "$_tp")))
		_tbad=""
		[ "$_tu" = "$_tme" ] || [ "$_tu" = 0 ] || _tbad="owned by uid $_tu"
		if [ -z "$_tbad" ] && [ $((_tm & 18)) != 0 ]; then # 022: group or others may write
			if [ "$_tp" = "$_td" ] && [ "$4" != shared ]; then
				_tbad="writable by its group or others"
			elif [ $((_tm & 512)) = 0 ]; then # 01000: not sticky
				_tbad="writable by its group or others, and not sticky"
			fi
		fi
		[ -n "$_tbad" ] || [ "$_tp" != "$_td" ] || [ "$4" != own ] || [ "$_tu" = "$_tme" ] ||
			_tbad="owned by uid $_tu, not this user"
		if [ -n "$_tbad" ]; then
			echo "$prog: $1 '$2': '$_tp' is $_tbad: another user could swap what is written there; use a dir of root's that no one else may write (such as /run/kilo, mode 0755)" >&2
			return 1
		fi
		[ "$_tp" != / ] || break
		_tp=$(dirname "$_tp")
	done
	return 0
}

# trusted_dir NAME VALUE DIR LEAF: dir_problem, or exit 2.
trusted_dir() {
	dir_problem "$@" || exit 2
}

# tighten_empty NAME VALUE DIR: DIR empty, the caller's, not a symlink, not
# sticky, and writable by its group or others (a Kubernetes emptyDir is made
# 0777, whatever the pod says) is made writable by the caller alone (chmod
# go-w), for the checks above to pass; an entry in it after the chmod was
# made by someone else before it: one line and exit 2.  Any other DIR is
# left as it is (a loop calls this only for the dirs its manifest mounts).
tighten_empty() {
	[ -d "$3" ] && [ ! -L "$3" ] && [ "$(stat -c %u "$3")" = "$(id -u)" ] || return 0
	_tm=$((0$(stat -c %a "$3")))
	[ $((_tm & 18)) != 0 ] && [ $((_tm & 512)) = 0 ] && [ -z "$(ls -A "$3")" ] || return 0
	chmod go-w "$3" || return 0
	[ -n "$(ls -A "$3")" ] || return 0
	echo "$prog: $1 '$2': '$3' got entries of another user's while it was writable by others: remove them, or use a dir of root's that no one else may write (such as /run/kilo, mode 0755)" >&2
	exit 2
}

# own_dir NAME DIR: make DIR (and its parents: only below a dir that passes
# as an ancestor, so nothing is made in another user's), then DIR "own".
own_dir() {
	_oe=$2
	while [ ! -e "$_oe" ]; do _oe=$(dirname "$_oe"); done
	[ "$_oe" = "$2" ] || trusted_dir "$1" "$2" "$_oe" shared
	mkdir -p "$2" || exit 1
	trusted_dir "$1" "$2" "$2" own
}
