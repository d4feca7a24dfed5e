#!/usr/bin/env bash
# Objective: the end-of-run accounting check (every frame in exactly one
# terminal counter or still queued) holds on a spread of scenarios; rxlab
# exits non-zero with the numbers when it does not.  Each line below is a
# scenario variant; the run must succeed and report the in-flight count.
set -euo pipefail
rxlab="$1"
fails=0
run() {
  if out="$("$rxlab" run livelock --set run.duration=30ms --set run.warmup=5ms "$@" --format csv 2>&1)"; then
    echo "ok   $*"
  else
    echo "FAIL $*"; echo "$out" | tail -3; fails=$((fails+1))
  fi
}
for path in classic isr-loop napi; do
  for rate in 1kpps 200kpps 1488kpps; do
    run --set host.rxpath=$path --set traffic.rate=$rate
  done
  run --set host.rxpath=$path --set traffic.pattern=poisson --set traffic.rate=400kpps
  run --set host.rxpath=$path --set traffic.pattern=on-off --set traffic.on=2ms --set traffic.off=3ms --set traffic.rate=900kpps
  run --set host.rxpath=$path --set nic.eth0.rx-ring=1 --set nic.eth1.tx-ring=1 --set nic.eth1.txqueuelen=0
  run --set host.rxpath=$path --set nic.eth0.rx-usecs=100 --set nic.eth0.rx-frames=32 --set traffic.rate=300kpps
  run --set host.rxpath=$path --set nic.eth0.cqe-mode-rx=on --set nic.eth0.rx-usecs=20 --set nic.eth0.rx-frames=0
  run --set host.rxpath=$path --set nic.eth1.tx-clean=xmit --set traffic.rate=600kpps
  run --set host.rxpath=$path --set apps.cpu-hogs=3 --set traffic.rate=100kpps
  run --set host.rxpath=$path --set host.cpus=2 --set nic.eth1.irq-cpu=1 --set traffic.rate=700kpps
  run --set host.rxpath=$path --set host.netdev_max_backlog=10 --set traffic.rate=500kpps
done
[ "$fails" -eq 0 ] || { echo "$fails scenario(s) failed"; exit 1; }
