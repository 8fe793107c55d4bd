#!/usr/bin/env python3
"""Live heap bytes per connection, class by class, from two class histograms of one server.

Usage:
  heap_classes.py per-connection HALF ALL ADDED OUT   the growth of each class from HALF to ALL (two
                                                      `jcmd PID GC.class_histogram` outputs) divided by ADDED
                                                      connections, written to OUT as TSV (bytes, instances,
                                                      class); prints the total bytes per connection
  heap_classes.py top PER_CONNECTION [ROWS]           the classes that grew most, for a summary
  heap_classes.py compare CLEARTEXT TLS [ROWS]        per class, what a TLS connection holds beyond a cleartext one

A histogram is taken after a full GC (jcmd's default) and counts live objects only, so unlike the heap's "used"
figure it leaves out whatever the application allocated between the collection and the reading. Hidden classes
(lambdas) are named without their address, so two runs name them alike.
"""
import re
import sys

ROW = re.compile(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)")
HIDDEN = re.compile(r"(\$\$Lambda)(\$\d+)?(/0x[0-9a-f]+)?")


def histogram(path):
    classes = {}
    for line in open(path):
        m = ROW.match(line)
        if m:
            name = HIDDEN.sub(r"\1", m.group(3))
            instances, size = classes.get(name, (0, 0))
            classes[name] = (instances + int(m.group(1)), size + int(m.group(2)))
    if not classes:
        sys.exit(f"no class histogram in {path}")
    return classes


def per_connection(half, all_, added, out):
    first, second = histogram(half), histogram(all_)
    rows = []
    for name in set(first) | set(second):
        instances = second.get(name, (0, 0))[0] - first.get(name, (0, 0))[0]
        size = second.get(name, (0, 0))[1] - first.get(name, (0, 0))[1]
        rows.append((size / added, instances / added, name))
    rows.sort(reverse=True)
    with open(out, "w") as f:
        for size, instances, name in rows:
            f.write(f"{size:.2f}\t{instances:.3f}\t{name}\n")
    print(f"{sum(r[0] for r in rows) / 1024:.2f}")


def read(path):
    return {name: (float(size), float(instances)) for size, instances, name in (l.rstrip("\n").split("\t") for l in open(path))}


def top(path, count):
    rows = read(path)
    print(f"{'B/conn':>10}{'objects/conn':>14}  class (live objects after a full GC, growth per connection added)")
    for name, (size, instances) in sorted(rows.items(), key=lambda r: -r[1][0])[:count]:
        print(f"{size:>10.1f}{instances:>14.3f}  {name}")
    print(f"{sum(s for s, _ in rows.values()):>10.1f}{'':>14}  total")


def compare(cleartext, tls, count):
    clear, secure = read(cleartext), read(tls)
    rows = []
    for name in set(clear) | set(secure):
        c, t = clear.get(name, (0.0, 0.0)), secure.get(name, (0.0, 0.0))
        rows.append((t[0] - c[0], t[1] - c[1], c[0], t[0], name))
    rows.sort(key=lambda r: -abs(r[0]))
    print(f"{'TLS-clear B':>12}{'objects':>9}{'clear B':>9}{'TLS B':>9}  class (per idle connection)")
    for delta, objects, c, t, name in rows[:count]:
        print(f"{delta:>12.1f}{objects:>9.2f}{c:>9.1f}{t:>9.1f}  {name}")
    total_clear, total_tls = sum(r[2] for r in rows), sum(r[3] for r in rows)
    print(f"{total_tls - total_clear:>12.1f}{'':>9}{total_clear:>9.1f}{total_tls:>9.1f}  total")


def main(args):
    if args[:1] == ["per-connection"] and len(args) == 5:
        per_connection(args[1], args[2], int(args[3]), args[4])
    elif args[:1] == ["top"] and len(args) in (2, 3):
        top(args[1], int(args[2]) if len(args) == 3 else 15)
    elif args[:1] == ["compare"] and len(args) in (3, 4):
        compare(args[1], args[2], int(args[3]) if len(args) == 4 else 25)
    else:
        sys.exit(__doc__)


main(sys.argv[1:])
