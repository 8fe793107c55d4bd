#!/usr/bin/env bash
# Heap, RSS and native memory per idle keep-alive connection: heap used after a full GC, the live objects of a class
# histogram (per class, in TARGET.classes.tsv), RSS and the bytes glibc's malloc has in use while IdleConnections holds
# half of CONNECTIONS used, idle connections, and again with all of them; the growth divided by the connections the
# server then holds beyond the first half (its established connections on PORT: one its idle timeout closed is not
# counted). Runs Parry, then the baseline. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xmx512m}
CONNECTIONS=${CONNECTIONS:-10000}
TARGET=${TARGET:-parry baseline}
PORT=${PORT:-8090}
# TLS sockets keep buffers on the client's heap too; 1 GiB leaves room for 10,000 of them.
CLIENT_FLAGS=${CLIENT_FLAGS:--Xmx1g -XX:+UseSerialGC}
PARALLEL=${PARALLEL:-8}
READY_SECONDS=${READY_SECONDS:-300}
JCMD=$(jdk_tool jcmd)

# heap_used_kib PID: forces a full GC, then sums the "used" of the heap's generations (G1, Parallel, Serial).
heap_used_kib() {
  "$JCMD" "$1" GC.run >/dev/null
  "$JCMD" "$1" GC.heap_info | python3 -c '
import re, sys
used = [int(m.group(1)) for line in sys.stdin if "total" in line for m in [re.search(r"used (\d+)K", line)] if m]
print(sum(used) if used else sys.exit("cannot parse GC.heap_info (use G1, Parallel or Serial GC)"))'
}

# native_kib PID LOG: KiB glibc's malloc has in use in the server (every arena and mmapped chunk: BoringSSL's objects,
# Netty's direct buffers, the JVM's own), from malloc_stats() called through gdb, which prints to the server's standard
# error, LOG; "-" when gdb is missing or may not attach (ptrace). The least of three samples 2 s apart: the JIT's
# compiler arenas, which the JVM gives back to malloc within 5 s of a compilation, came and went by several MiB.
# Unlike RSS, it leaves out what those arenas took and freed, which moved the RSS growth by a KiB per connection from
# one run to the next.
native_kib() {
  local lines kib least=- i
  command -v gdb >/dev/null || { echo -; return; }
  for i in 1 2 3; do
    ((i == 1)) || sleep 2
    lines=$(wc -l <"$2")
    timeout 60 gdb -batch -p "$1" -ex 'call (void)malloc_stats()' >/dev/null 2>&1 || { echo -; return; }
    kib=$(tail -n +"$((lines + 1))" "$2" |
      awk '/^Total/ { total = 1 } total && /in use bytes/ { print int($5 / 1024); exit }') || true
    [[ -n $kib ]] || { echo -; return; }
    [[ $least == - ]] || ((kib < least)) && least=$kib
  done
  echo "$least"
}

# class_histogram PID FILE: the live objects per class after a full GC (jcmd's GC.class_histogram collects first).
class_histogram() {
  "$JCMD" "$1" GC.class_histogram >"$2"
}

rss_kib() {
  awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

established() {
  ss -Htn state established "( sport = :$1 )" | wc -l
}

# client CONNECTIONS HOLD_SECONDS: runs IdleConnections against the server in the foreground.
client() {
  PORT=$PORT CONNECTIONS=$1 HOLD_SECONDS=$2 PARALLEL=$PARALLEL "$JAVA" $CLIENT_FLAGS -cp "$BENCH_JAR" io.parry.benchmarks.IdleConnections
}

# hold NAME COUNT: a client in the background that opens COUNT connections and holds them until release; returns
# once they are open. Its standard input is a FIFO kept open here: closing it is the EOF that releases the client.
hold() {
  local fifo=$RESULTS/$1.stdin log=$RESULTS/$1.client.log fd
  mkfifo "$fifo"
  client "$2" "$((READY_SECONDS + 60))" <"$fifo" >"$log" 2>&1 &
  HOLDERS+=("$!")
  CHILD_PIDS+=("$!")
  # Read-write, so opening cannot block if the client never starts.
  exec {fd}<>"$fifo"
  HOLDER_FDS+=("$fd")
  wait_ready "$log" "$!" "$READY_SECONDS"
}

release() {
  local fd pid
  for fd in "${HOLDER_FDS[@]}"; do exec {fd}>&-; done
  for pid in "${HOLDERS[@]}"; do
    wait "$pid" || echo "warning: IdleConnections exited with an error" >&2
    forget_pid "$pid"
  done
}

# measure TARGET: the server's heap (after a full GC), RSS and established connections once half the connections are
# open and idle, and again with all of them; the figures per connection are the second half's, so what the first
# connections cost once (JIT-compiled code, allocator chunks, GC structures, the TLS paths' first use) is not
# divided among all of them, and cleartext and TLS are measured alike.
measure() {
  local target=$1 half=$((CONNECTIONS / 2)) heap_half rss_half native_half held_half heap rss native held live
  local log=$RESULTS/$target.server.log
  HOLDERS=() HOLDER_FDS=()
  start_server "$target" "$PORT" "$JVM_FLAGS" "$log"
  # A few used connections first, so classes, caches and pools that any connection needs are there before.
  client 200 0 </dev/null >"$RESULTS/$target.warmup.log"
  hold "$target.first" "$half"
  held_half=$(established "$PORT")
  heap_half=$(heap_used_kib "$SERVER_PID")
  class_histogram "$SERVER_PID" "$RESULTS/$target.histogram.half.txt"
  rss_half=$(rss_kib "$SERVER_PID")
  native_half=$(native_kib "$SERVER_PID" "$log")
  hold "$target.second" "$((CONNECTIONS - half))"
  held=$(established "$PORT")
  heap=$(heap_used_kib "$SERVER_PID")
  class_histogram "$SERVER_PID" "$RESULTS/$target.histogram.all.txt"
  rss=$(rss_kib "$SERVER_PID")
  native=$(native_kib "$SERVER_PID" "$log")
  release
  stop_pid "$SERVER_PID"
  [[ $held -ge $CONNECTIONS ]] || echo "warning: $target held only $held of $CONNECTIONS connections" >&2
  ((held > held_half)) || { echo "$target held no more connections with all open than with half: no figure" >&2; return; }
  live=$(python3 "$ROOT/benchmarks/heap_classes.py" per-connection "$RESULTS/$target.histogram.half.txt" \
    "$RESULTS/$target.histogram.all.txt" "$((held - held_half))" "$RESULTS/$target.classes.tsv")
  python3 -c 'import sys; t, n, hh, h, bh, b, rh, r, nh, nn, live = sys.argv[1:]; added = int(h) - int(hh)
native = f"{(int(nn) - int(nh)) / added:.2f}" if "-" not in (nh, nn) else "-"
print(f"{t:<9}{int(n):>12}{int(hh):>8}{int(h):>8}{int(bh):>13}{int(b):>13}{(int(b) - int(bh)) / added:>14.2f}{(int(r) - int(rh)) / added:>14.2f}{native:>14}{float(live):>14.2f}")' \
    "$target" "$CONNECTIONS" "$held_half" "$held" "$heap_half" "$heap" "$rss_half" "$rss" "$native_half" "$native" \
    "$live" >>"$RESULTS/table.txt"
  # tls.sh compares the classes of its cleartext and TLS runs.
  [[ -z ${CLASSES_PREFIX:-} ]] || cp "$RESULTS/$target.classes.tsv" "$CLASSES_PREFIX$target.classes.tsv"
}

main() {
  ensure_jars $TARGET
  raise_fd_limit
  local low high target
  read -r low high </proc/sys/net/ipv4/ip_local_port_range
  if ((high - low < CONNECTIONS + 1000)); then
    echo "CONNECTIONS=$CONNECTIONS needs more local ports than net.ipv4.ip_local_port_range ($low-$high) gives" >&2
    exit 1
  fi
  RESULTS=$(results_dir idle)
  printf '%-9s%12s%8s%8s%13s%13s%14s%14s%14s%14s\n' server connections held held 'heap KiB' 'heap KiB' 'heap KiB' \
    'RSS KiB' 'native KiB' 'live KiB' >"$RESULTS/table.txt"
  printf '%-9s%12s%8s%8s%13s%13s%14s%14s%14s%14s\n' '' asked 'half' all 'half held' 'all held' '/connection' \
    '/connection' '/connection' '/connection' >>"$RESULTS/table.txt"
  for target in $TARGET; do
    measure "$target"
  done
  {
    echo
    echo "command: TARGET='$TARGET' CONNECTIONS=$CONNECTIONS TLS=${TLS:-0} PARALLEL=$PARALLEL JVM_FLAGS='$JVM_FLAGS' benchmarks/idle.sh"
    grep -h '^READY' "$RESULTS"/*.client.log || true
    for target in $TARGET; do echo "$target: $(server_command "$target")"; done
    echo "java: $(java_version)"
    echo "heap: used after a full GC (jcmd GC.run, GC.heap_info); live: the bytes of live objects in a class histogram"
    echo "(jcmd GC.class_histogram, after its own full GC), the steadier heap figure; per connection: the growth from half"
    echo "to all held, divided by the connections added (established on port $PORT); native: glibc malloc's bytes in use"
    echo "(gdb, malloc_stats; - without gdb), which RSS also holds with the JIT's and the allocator's free arenas; results"
    echo "in $RESULTS"
    echo
    cat "$RESULTS/table.txt"
    for target in $TARGET; do
      [[ -f $RESULTS/$target.classes.tsv ]] || continue
      echo
      echo "$target: the classes that grew most"
      python3 "$ROOT/benchmarks/heap_classes.py" top "$RESULTS/$target.classes.tsv"
    done
  } | tee "$RESULTS/summary.txt"
}

main "$@"
