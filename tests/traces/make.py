#!/usr/bin/env python3
"""make.py - writes the hand-made traces of tests/traces/ (run from there).

tiny.pcap, tiny.pcapng and tiny.csv hold the same 8 packets: the same
arrival times (microseconds after the first) and lengths (without FCS), so
the simulator must give byte-identical output on all three.  The others are
wrong on purpose; tests/bad/trace_*.args name them.
"""
import struct

TIMES_US = [0, 3, 7, 7, 40, 41, 250, 1000]
LENS = [60, 1514, 42, 60, 9000, 60, 100, 60]
T0 = 1700000000  # seconds of the first packet (any origin)


def pcap(records, ns=False):
    magic = 0xa1b23c4d if ns else 0xa1b2c3d4
    out = struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 65535, 1)
    for t_us, n in records:
        frac = (t_us % 1000000) * (1000 if ns else 1)
        cap = min(n, 64)  # snapped: only the headers are kept, as tcpdump -s 64 does
        out += struct.pack("<IIII", T0 + t_us // 1000000, frac, cap, n) + bytes(cap)
    return out


def block(btype, body):
    body += bytes((-len(body)) % 4)
    n = len(body) + 12
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def pcapng(records):
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", 1, 0, 65535))  # default resolution: us
    for t_us, n in records:
        ts = T0 * 1000000 + t_us
        cap = min(n, 64)
        out += block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xffffffff, cap, n) + bytes(cap))
    return out


recs = list(zip(TIMES_US, LENS))
open("tiny.pcap", "wb").write(pcap(recs))
open("tiny.pcapng", "wb").write(pcapng(recs))
with open("tiny.csv", "w") as f:
    f.write("# the packets of tiny.pcap\ntime_us,length\n")
    f.writelines("%d,%d\n" % r for r in recs)
full = pcap(recs)
open("truncated.pcap", "wb").write(full[:-30])          # last record cut short
open("junk.pcap", "wb").write(b"GET / HTTP/1.1\r\n" * 4)  # not a capture
open("empty.pcap", "wb").write(pcap([]))                # a header, no packet
open("back.pcap", "wb").write(pcap([(0, 60), (10, 60), (5, 60)]))
open("gro.pcap", "wb").write(pcap([(0, 60), (10, 64000)]))  # GRO-merged "frame"
open("empty.csv", "w").write("time_us,length\n# nothing\n")
open("back.csv", "w").write("time_us,length\n0,60\n10,60\n9.5,60\n")
open("badlen.csv", "w").write("time_us,length\n0,60\n1,0\n")
open("badtime.csv", "w").write("time_us,length\n0,60\n1.0001,60\n")
open("header.csv", "w").write("time_ns,len\n0,60\n")
open("columns.csv", "w").write("time_us,length\n0,60,7\n")
open("long.csv", "w").write("time_us,length\n0,60\n" + "1" * 300 + ",60\n")

# Reader limits (issue #14).  caplen.pcap: a record that claims more bytes
# captured than the packet had.  y2038.pcap: ts_sec crosses 2^31 (an
# unsigned field: 2 s later, not 68 years back).  span.pcap / span.csv: a
# trace longer than any run can play (107 days; the simulator's
# picosecond arithmetic overflowed there).  bom.csv / crlf.csv: the packets
# of tiny.csv with a UTF-8 BOM and with CRLF line ends; cr.csv with CR-only
# line ends.
bad_cap = pcap([(0, 60)])
bad_cap += struct.pack("<IIII", T0 + 1, 0, 100, 60) + bytes(100)
open("caplen.pcap", "wb").write(bad_cap)
y2038 = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)
for sec in (2**31 - 1, 2**31 + 1):
    y2038 += struct.pack("<IIII", sec, 0, 60, 60) + bytes(60)
open("y2038.pcap", "wb").write(y2038)
open("span.pcap", "wb").write(pcap([(0, 60), (107 * 86400 * 1000000, 60)]))
open("span.csv", "w").write("time_us,length\n0,60\n# 107 days later\n%d,60\n" % (107 * 86400 * 1000000))
tiny = "time_us,length\n" + "".join("%d,%d\n" % r for r in recs)
open("bom.csv", "wb").write(b"\xef\xbb\xbf" + tiny.encode())
open("crlf.csv", "wb").write(tiny.replace("\n", "\r\n").encode())
open("cr.csv", "wb").write(tiny.replace("\n", "\r").encode())
