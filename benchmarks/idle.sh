#!/usr/bin/env bash
# Heap and RSS per idle keep-alive connection: heap used after a full GC and RSS while IdleConnections holds half of
# CONNECTIONS used, idle connections, and again with all of them; the growth divided by the connections the server
# then holds beyond the first half (its established connections on PORT: one its idle timeout closed is not counted).
# Runs Parry, then the baseline. See README.md.
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
  local target=$1 half=$((CONNECTIONS / 2)) heap_half rss_half held_half heap rss held
  HOLDERS=() HOLDER_FDS=()
  start_server "$target" "$PORT" "$JVM_FLAGS" "$RESULTS/$target.server.log"
  # A few used connections first, so classes, caches and pools that any connection needs are there before.
  client 200 0 </dev/null >"$RESULTS/$target.warmup.log"
  hold "$target.first" "$half"
  held_half=$(established "$PORT")
  heap_half=$(heap_used_kib "$SERVER_PID")
  rss_half=$(rss_kib "$SERVER_PID")
  hold "$target.second" "$((CONNECTIONS - half))"
  held=$(established "$PORT")
  heap=$(heap_used_kib "$SERVER_PID")
  rss=$(rss_kib "$SERVER_PID")
  release
  stop_pid "$SERVER_PID"
  [[ $held -ge $CONNECTIONS ]] || echo "warning: $target held only $held of $CONNECTIONS connections" >&2
  ((held > held_half)) || { echo "$target held no more connections with all open than with half: no figure" >&2; return; }
  python3 -c 'import sys; t, n, hh, h, bh, b, rh, r = sys.argv[1:]; added = int(h) - int(hh)
print(f"{t:<9}{int(n):>12}{int(hh):>8}{int(h):>8}{int(bh):>13}{int(b):>13}{(int(b) - int(bh)) / added:>14.2f}{(int(r) - int(rh)) / added:>14.2f}")' \
    "$target" "$CONNECTIONS" "$held_half" "$held" "$heap_half" "$heap" "$rss_half" "$rss" >>"$RESULTS/table.txt"
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
  printf '%-9s%12s%8s%8s%13s%13s%14s%14s\n' server connections held held 'heap KiB' 'heap KiB' 'heap KiB' 'RSS KiB' \
    >"$RESULTS/table.txt"
  printf '%-9s%12s%8s%8s%13s%13s%14s%14s\n' '' asked 'half' all 'half held' 'all held' '/connection' '/connection' \
    >>"$RESULTS/table.txt"
  for target in $TARGET; do
    measure "$target"
  done
  {
    echo
    echo "command: TARGET='$TARGET' CONNECTIONS=$CONNECTIONS TLS=${TLS:-0} PARALLEL=$PARALLEL JVM_FLAGS='$JVM_FLAGS' benchmarks/idle.sh"
    grep -h '^READY' "$RESULTS"/*.client.log || true
    for target in $TARGET; do echo "$target: $(server_command "$target")"; done
    echo "java: $(java_version)"
    echo "heap: used after a full GC (jcmd GC.run, GC.heap_info); per connection: the growth from half to all held,"
    echo "divided by the connections added (established on port $PORT); results in $RESULTS"
    echo
    cat "$RESULTS/table.txt"
  } | tee "$RESULTS/summary.txt"
}

main "$@"
