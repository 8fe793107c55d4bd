#!/usr/bin/env python3
"""The overload's sheds (503s) of one goodput.sh route timed by three clocks, overall and per second.

Usage: shed_clocks.py RESULTS ROUTE PORT

- vegeta: from the moment vegeta meant to send the request to the moment it had read the answer
  (ROUTE.overload.csv);
- wire, with CAPTURE=on: from vegeta's write of the request to the gateway's last write of the 503,
  as loopback stamps each segment when its sender hands it to the device (ROUTE.overload.pcap): the
  gateway's event-loop lag (the request waiting in its socket until the loop reads it) and its work,
  without vegeta's scheduling;
- gateway: the access log's durationMs (ACCESS_LOG=json), from the request's head decoded by the
  event loop to its last byte written: the gateway's own work only.

Wire minus gateway is the wait for the gateway's event loop; vegeta minus wire is vegeta's own.
Prints one line per clock, then the same for the calmer half of the run's seconds (those whose
processes together waited least for a CPU, from ROUTE.overload.sched), and writes the per-second
table to ROUTE.overload.seconds.txt. Pairs requests with responses on each connection in turn, as
vegeta sends them (HTTP/1.1, one at a time); reads the pcap format tcpdump writes (Ethernet link
type), and skips the IPv4 segments without data.
"""
import collections
import csv
import datetime
import json
import os
import struct
import sys

NANO_MAGIC = 0xA1B23C4D


def segments(path):
    """(seconds, source port, destination port, first bytes of payload) of each TCP segment with data."""
    with open(path, "rb") as capture:
        header = capture.read(24)
        little = struct.unpack("<I", header[:4])[0] in (0xA1B2C3D4, NANO_MAGIC)
        endian = "<" if little else ">"
        scale = 1e-9 if struct.unpack(endian + "I", header[:4])[0] == NANO_MAGIC else 1e-6
        while True:
            record = capture.read(16)
            if len(record) < 16:
                return
            seconds, fraction, kept, _ = struct.unpack(endian + "IIII", record)
            ip = capture.read(kept)[14:]
            if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 6:
                continue
            ip_length = (ip[0] & 0x0F) * 4
            tcp = ip[ip_length:]
            tcp_length = (tcp[12] >> 4) * 4
            if struct.unpack(">H", ip[2:4])[0] - ip_length - tcp_length <= 0:
                continue
            source, destination = struct.unpack(">HH", tcp[:4])
            yield seconds + fraction * scale, source, destination, tcp[tcp_length : tcp_length + 16]


def exchanges(path, port):
    """(request's first segment, response's last segment, the status line's first bytes) per exchange."""
    sent = {}  # client port -> when its pending request's first segment was seen
    answering = {}  # client port -> (request sent, status line) of the response being written
    last = {}  # client port -> when the response being written was last seen
    for when, source, destination, payload in segments(path):
        if destination == port:
            if source in answering:
                request, line = answering.pop(source)
                yield request, last[source], line
            sent.setdefault(source, when)
        elif source == port:
            if destination in sent:
                answering[destination] = (sent.pop(destination), payload)
            last[destination] = when
    for client, (request, line) in answering.items():
        yield request, last[client], line


def pct(values, p):
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def clocks(results, route, port):
    """Per clock, per whole second of the wall clock: the sheds' times in ms."""
    by = {name: collections.defaultdict(list) for name in ("vegeta", "wire", "gateway")}
    first = last = None
    for row in csv.reader(open(os.path.join(results, f"{route}.overload.csv"))):
        start = int(row[0]) / 1e9
        first, last = min(first or start, start), max(last or start, start)
        if row[1] == "503":
            by["vegeta"][int(start)].append(int(row[2]) / 1e6)
    capture = os.path.join(results, f"{route}.overload.pcap")
    if os.path.exists(capture):
        for start, end, line in exchanges(capture, port):
            if line[9:12] == b"503":
                by["wire"][int(start)].append((end - start) * 1000)
    for line in open(os.path.join(results, "gateway.log")):
        if not line.startswith("{") or '"status":503' not in line or f'"route":"{route}"' not in line:
            continue
        entry = json.loads(line)
        start = datetime.datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp()
        if first - 1 <= start <= last + 1:
            by["gateway"][int(start)].append(entry["durationMs"])
    return by


def waits(results, route):
    """Per whole second: ms each kind of thread waited for a CPU in it, from the once-a-second samples."""
    samples = collections.defaultdict(list)
    for line in open(os.path.join(results, f"{route}.overload.sched")):
        when, kind, _, wait = line.split()[:4]
        samples[kind].append((int(when) / 1e6, int(wait)))
    per_second = collections.defaultdict(dict)
    for kind, points in samples.items():
        for (t0, w0), (t1, w1) in zip(points, points[1:]):
            if t1 > t0 and w1 >= w0:
                per_second[int(t0)][kind] = (w1 - w0) / 1e6 / (t1 - t0)
    return per_second


def line(name, values):
    values = sorted(values)
    return (f"  {name:<8}{len(values):>7}{pct(values, 50):>10.3f}{pct(values, 99):>10.3f}"
            f"{pct(values, 99.9):>10.3f}{(values[-1] if values else float('nan')):>10.3f}")


def main():
    results, route, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    by = clocks(results, route, port)
    cpu = waits(results, route)
    names = [name for name in ("vegeta", "wire", "gateway") if by[name]]
    if not by["vegeta"]:
        return
    seconds = sorted(by["vegeta"])
    print(f"{route} overload sheds by clock (ms)   count       p50       p99     p99.9       max")
    for name in names:
        print(line(name, [t for values in by[name].values() for t in values]))
    waited = {s: sum(cpu.get(s, {}).values()) for s in seconds if s in cpu}
    calm = sorted(waited, key=waited.get)[: len(waited) // 2]
    if calm:
        print(f"  the calmer half of its seconds ({len(calm)}, when its processes together waited"
              f" {min(waited[s] for s in calm):.0f} to {max(waited[s] for s in calm):.0f} ms per second for a CPU):")
        for name in names:
            print(line(name, [t for s in calm for t in by[name].get(s, [])]))
    with open(os.path.join(results, f"{route}.overload.seconds.txt"), "w") as table:
        kinds = sorted({kind for waits_in in cpu.values() for kind in waits_in})
        table.write("second  sheds  " + "  ".join(f"{name} p50/p99" for name in names)
                    + "  ms waited for a CPU: " + " ".join(kinds) + "\n")
        for s in seconds:
            row = "  ".join(f"{pct(sorted(by[name].get(s, [])), 50):8.2f}/{pct(sorted(by[name].get(s, [])), 99):<8.2f}"
                            for name in names)
            table.write(f"{s - seconds[0]:>6}{len(by['vegeta'][s]):>7}  {row}  "
                        + " ".join(f"{cpu.get(s, {}).get(kind, float('nan')):.0f}" for kind in kinds) + "\n")


if __name__ == "__main__":
    main()
