#!/usr/bin/env bash
# Objective: a sweep's memory does not grow with its points (issue #14: it
# kept about 17 KB per finished point, so a million points needed 17 GB).
# Two sweeps of one tiny scenario (1 ms simulated, 10 frames at most), N and
# 4N points, --jobs 2, CSV to a file; the peak RSS of the parent (where rows
# would pile up), VmHWM in /proc/PID/status read every few milliseconds
# until it exits, is compared.  (wait4's ru_maxrss would count the RSS of
# the python that forked it, before exec, and hide 10 MB.)  At 17 KB a point, the larger one
# peaks 3N x 17 KB higher (100 MB for N = 2000); the test allows 1/16 of
# that per point (about 1 KB, 6.4 MB in all) for allocator noise, so a sweep
# that keeps anything like a row per point fails.  Both outputs are also
# checked for N and 4N rows.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
python3 - "$rxlab" "$tmp" <<'PY'
import os, subprocess, sys, time
rxlab, tmp = sys.argv[1], sys.argv[2]
N = 2000
PER_POINT_TODAY_KB = 17
ALLOWED_KB = 3 * N * PER_POINT_TODAY_KB / 16

def peak_kb(points):
    out = os.path.join(tmp, f"{points}.csv")
    args = [rxlab, "sweep", "livelock", "--set", "run.duration=1ms", "--set", "run.warmup=0",
            "--set", "traffic.rate=10kpps", "--vary", f"nic.eth0.rx-ring=64..4096:{points // 20}",
            "--vary", "traffic.count=1..20:20", "--format", "csv", "--jobs", "2",
            "--no-progress", "--out", out]
    # under AddressSanitizer freed blocks wait in a quarantine (256 MB) that
    # would look like growth: no quarantine, and no effect on other builds
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "quarantine_size_mb=0"]))
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, env=env)
    hwm = 0
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        hwm = max(hwm, int(line.split()[1]))
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.002)
    if p.returncode != 0:
        sys.exit(f"FAIL sweep of {points} points: exit {p.returncode}")
    rows = sum(1 for _ in open(out)) - 1
    if rows != points:
        sys.exit(f"FAIL sweep of {points} points wrote {rows} rows")
    return hwm

small, big = peak_kb(N), peak_kb(4 * N)
grow = big - small
msg = (f"peak RSS {small} KB for {N} points, {big} KB for {4 * N}: {grow:+d} KB "
       f"({grow * 1024 / (3 * N):.0f} bytes per extra point; allowed {ALLOWED_KB:.0f} KB)")
print(("ok   " if grow <= ALLOWED_KB else "FAIL ") + msg)
sys.exit(0 if grow <= ALLOWED_KB else 1)
PY
