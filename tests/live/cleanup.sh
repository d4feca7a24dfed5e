#!/usr/bin/env bash
# Objective: nothing of rxlab survives a run killed with SIGKILL - no
# namespace, veth, NAPI kthread, XDP program or process - for the test bed
# (anonymous namespaces die with the process) and for an AF_XDP run (the
# program is attached to the test bed's veth, which dies with it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_netns

# kill_during MODE: start a 10 s run, wait until its test bed is up (its
# NAPI kthread exists), SIGKILL it, then check that nothing is left.
kill_during() {
	local pid i
	"$RXLAB" live "$1" --rate 20kpps --duration 10s >/dev/null 2>"$TMP/$1.err" &
	pid=$!
	for i in $(seq 1 100); do
		ps -eo comm= | grep -q "^napi/rxlab${pid}r" && break
		sleep 0.05
	done
	ps -eo comm= | grep -q "^napi/rxlab${pid}r" || { cat "$TMP/$1.err"; fail "$1: test bed of $pid never came up"; }
	echo "ok: $1: test bed of $pid up"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	assert_clean "$pid"
}

kill_during napi
kill_during af-xdp
kill_during busy
