# lib.sh - shared by tests/live/*.sh (sourced; not a test itself).
#
# Live tests build network namespaces and veth pairs, so they need root (or
# CAP_SYS_ADMIN + CAP_NET_ADMIN).  Without them a test prints why and exits
# 77, which CTest reports as skipped (SKIP_RETURN_CODE).  Each test runs for
# a few seconds and asserts on counts, never on wall-clock time.

RXLAB="$1"
SRC="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

skip() {
	echo "SKIP: $*"
	exit 77
}

fail() {
	echo "FAIL: $*"
	exit 1
}

need_netns() {
	[ "$(id -u)" -eq 0 ] || skip "live tests need root (network namespaces, veth)"
	command -v unshare >/dev/null || skip "unshare(1) missing"
	unshare -n true 2>/dev/null || skip "cannot create a network namespace here"
	command -v python3 >/dev/null || skip "python3 missing"
}

# perf_test: this test compares rates and batching, which AddressSanitizer
# (several times slower sender and receiver) distorts: skip it there.
perf_test() {
	[ -z "${RXLAB_SANITIZED:-}" ] || skip "rates and batching are not meaningful under the sanitizers"
}

# live NAME ARGS...: run `rxlab live ARGS --format json` into $TMP/NAME.json.
live() {
	local name="$1"
	shift
	if ! "$RXLAB" live "$@" --format json >"$TMP/$name.json" 2>"$TMP/$name.err"; then
		cat "$TMP/$name.err"
		fail "rxlab live $* failed"
	fi
}

# get NAME TABLE MODE KEY: one figure of a run ("nan" when missing).
get() {
	python3 - "$TMP/$1.json" "$2" "$3" "$4" <<'PY'
import json, sys
path, table, mode, key = sys.argv[1:]
rows = json.load(open(path))[table]
for r in rows:
    if r["mode"] == mode:
        v = r[key]
        print("nan" if v is None else v)
        break
else:
    print("nan")
PY
}

# check EXPR MESSAGE: a Python boolean expression over numbers.
check() {
	python3 -c "import sys; sys.exit(0 if ($1) else 1)" || fail "$2"
	echo "ok: $2"
}

# Processes running this very binary (not other worktrees' rxlab).
own_processes() {
	local exe pid
	exe="$(readlink -f "$RXLAB")"
	for pid in $(ls /proc | grep -E '^[0-9]+$'); do
		[ "$(readlink -f /proc/$pid/exe 2>/dev/null)" = "$exe" ] && echo "$pid"
	done
	return 0
}

# leftovers [PID]: print what rxlab left in this namespace: named
# namespaces, links and NAPI kthreads called rxlab*, its processes, XDP
# programs on the host's links, knob journals of dead runs.
leftovers() {
	ip netns list 2>/dev/null | grep rxlab
	ip -o link show 2>/dev/null | grep -E ': rxlab[0-9]+[rs][@:]'
	ps -eo comm= | grep -E "^napi/rxlab${1:-[0-9]}" 
	own_processes
	ip -o link show 2>/dev/null | grep -E ' xdp|prog/xdp'
	return 0
}

# assert_clean [PID]: nothing of rxlab left.  Namespaces die asynchronously
# in the kernel (cleanup_net runs from a workqueue), so their veth and NAPI
# kthread may linger a moment after the process is gone: wait up to 10 s.
assert_clean() {
	local i
	for i in $(seq 1 100); do
		[ -z "$(leftovers "$@")" ] && { echo "ok: nothing left behind"; return 0; }
		sleep 0.1
	done
	fail "left behind: $(leftovers "$@" | tr '\n' ' ')"
}
