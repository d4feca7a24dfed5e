#!/usr/bin/env bash
# Objective: `rxlab replay coalesce` reads a pcap capture (libpcap) and
# decides exactly as it does on the same arrival times written as CSV;
# a file that is not a capture and a truncated capture give clear errors
# naming the file (and the packet) with exit status 2.
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
python3 - "$tmp" <<'PY'
import struct, sys, os
d = sys.argv[1]
times_us = [0, 10, 20, 45, 47, 300, 301, 302, 303, 900]
def rec(t_us, n=64):
    sec, usec = 1000 + t_us // 1000000, t_us % 1000000
    return struct.pack("<IIII", sec, usec, n, n) + bytes(n)
hdr = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)
open(os.path.join(d, "cap.pcap"), "wb").write(hdr + b"".join(rec(t) for t in times_us))
open(os.path.join(d, "cap.csv"), "w").write("time_ns\n" + "".join("%d\n" % (t * 1000) for t in times_us))
open(os.path.join(d, "junk.pcap"), "wb").write(b"this is not a capture at all\n" * 4)
full = hdr + b"".join(rec(t) for t in times_us)
open(os.path.join(d, "cut.pcap"), "wb").write(full[:-30])
PY
args=(--rx-usecs 15us --rx-frames 4 --format csv)
a="$("$rxlab" replay coalesce "$tmp/cap.pcap" "${args[@]}")"; ra=$?
b="$("$rxlab" replay coalesce "$tmp/cap.csv" "${args[@]}")"; rb=$?
if [ $ra -eq 0 ] && [ $rb -eq 0 ] && [ "$a" = "$b" ] && [ "$(echo "$a" | wc -l)" -gt 2 ]; then
  echo "ok   pcap and CSV arrivals give the same $(($(echo "$a" | wc -l) - 1)) interrupts"
else
  echo "FAIL pcap ($ra) vs csv ($rb):"; echo "$a"; echo "--"; echo "$b"; fails=$((fails+1))
fi
c="$("$rxlab" replay coalesce - --pcap "${args[@]}" < "$tmp/cap.pcap")"
[ "$c" = "$b" ] && echo "ok   --pcap reads a capture from standard input" || { echo "FAIL --pcap stdin"; fails=$((fails+1)); }
out="$("$rxlab" replay coalesce "$tmp/junk.pcap" "${args[@]}" 2>&1)"; rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"junk.pcap: not a pcap or pcapng capture"* ]]; then echo "ok   junk: $out"; else echo "FAIL junk: $rc $out"; fails=$((fails+1)); fi
out="$("$rxlab" replay coalesce "$tmp/cut.pcap" "${args[@]}" 2>&1)"; rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"cut.pcap: packet 10 (byte offset "* ]]; then echo "ok   truncated: $out"; else echo "FAIL truncated: $rc $out"; fails=$((fails+1)); fi
[ "$fails" -eq 0 ]
