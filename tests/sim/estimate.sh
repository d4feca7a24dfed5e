#!/usr/bin/env bash
# Objective: on a terminal (stderr a tty) a run or sweep that will take long
# says so before it starts, with how to stop it; without a terminal nothing
# is printed.  The estimate's value depends on the machine and is never
# asserted: only its presence.  RXLAB_ESTIMATE_MIN_S=0 lowers the threshold
# (experiment/estimate.h) so that short runs show the message; one case keeps the
# default threshold with a run of 3600 simulated seconds at 1 Mpps through
# the classic kernel (about 3.6 G frames: minutes on any machine), stopped
# with SIGINT as soon as the message is seen.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
python3 - "$rxlab" "$tmp" <<'PY'
import os, pty, select, signal, subprocess, sys, time
rxlab, tmp = sys.argv[1], sys.argv[2]
short = ["run", "livelock", "--set", "run.warmup=10ms", "--set", "run.duration=50ms",
         "--format", "csv"]
sweep = ["sweep", "livelock", "--set", "run.warmup=10ms", "--set", "run.duration=50ms",
         "--vary", "traffic.rate=100kpps,200kpps", "--format", "csv", "--jobs", "2"]
long = ["run", "livelock", "--set", "run.duration=3600s", "--set", "traffic.rate=1Mpps",
        "--set", "host.rxpath=classic", "--format", "csv"]
fails = 0

def on_tty(args, env, until=None, limit=60):
    """Run rxlab with stderr on a pty (stdout to /dev/null); stop it with
    SIGINT once @until appears on stderr.  Returns (exit status, stderr)."""
    m, s = pty.openpty()
    p = subprocess.Popen([rxlab, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=s, env=env)
    os.close(s)
    out, t0 = b"", time.monotonic()
    while time.monotonic() - t0 < limit:
        r, _, _ = select.select([m], [], [], 0.05)
        if r:
            try:
                d = os.read(m, 4096)
            except OSError:
                d = b""
            out += d
            if until and until.encode() in out and p.poll() is None:
                p.send_signal(signal.SIGINT)
                until = None
            if not d and p.poll() is not None:
                break
        elif p.poll() is not None:
            break
    if p.poll() is None:
        p.kill()
    rc = p.wait()
    os.close(m)
    return rc, out.decode(errors="replace").replace("\r", "")

def off_tty(args, env):
    p = subprocess.run([rxlab, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, env=env)
    return p.returncode, p.stderr.decode(errors="replace")

def check(name, ok, detail):
    global fails
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    fails += not ok

low = dict(os.environ, RXLAB_ESTIMATE_MIN_S="0")
dflt = {k: v for k, v in os.environ.items() if k != "RXLAB_ESTIMATE_MIN_S"}

rc, err = on_tty(short, low)
check("run on a terminal: estimate printed", rc == 0 and err.startswith(
      "rxlab: this run simulates 0.05 s at ") and "; expect about " in err and
      "(Ctrl-C stops it and keeps the partial result)" in err, f"exit {rc}: {err!r}")
rc, err = off_tty(short, low)
check("run without a terminal: silent", rc == 0 and err == "", f"exit {rc}: {err!r}")
rc, err = on_tty(sweep, low)
check("sweep on a terminal: estimate printed", rc == 0 and
      "rxlab: this sweep runs 2 points of up to 0.05 s simulated each in " in err and
      "(Ctrl-C stops it and keeps the finished rows)" in err, f"exit {rc}: {err!r}")
rc, err = off_tty(sweep, low)
check("sweep without a terminal: silent", rc == 0 and err == "", f"exit {rc}: {err!r}")
rc, err = on_tty(short, dflt)
check("a short run on a terminal: no estimate", rc == 0 and "expect about" not in err,
      f"exit {rc}: {err!r}")
rc, err = on_tty(long, dflt, until="(Ctrl-C stops it")
check("3600 s at 1 Mpps on a terminal: estimate before the run, Ctrl-C stops it",
      rc == 130 and err.startswith("rxlab: this run simulates 3600 s at 1 Mpps; expect about "),
      f"exit {rc}: {err!r}")
sys.exit(1 if fails else 0)
PY
