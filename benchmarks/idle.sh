#!/usr/bin/env bash
# Heap per idle keep-alive connection: heap used after a full GC, before and while IdleConnections holds
# CONNECTIONS used, idle connections, divided by the number the server holds then (its established connections on
# PORT: one its idle timeout closed is not counted). Runs Parry, then the baseline. See README.md.
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

measure() {
  local target=$1 fifo=$RESULTS/$1.stdin client_pid before after rss_before rss_after held
  start_server "$target" "$PORT" "$JVM_FLAGS" "$RESULTS/$target.server.log"
  # A few used connections first, so classes, caches and pools that any connection needs count as "before".
  client 200 0 </dev/null >"$RESULTS/$target.warmup.log"
  before=$(heap_used_kib "$SERVER_PID")
  rss_before=$(rss_kib "$SERVER_PID")
  mkfifo "$fifo"
  client "$CONNECTIONS" "$((READY_SECONDS + 60))" <"$fifo" >"$RESULTS/$target.client.log" 2>&1 &
  client_pid=$!
  CHILD_PIDS+=("$client_pid")
  # Read-write, so opening cannot block if the client never starts; closing it is the EOF that releases it.
  exec 3<>"$fifo"
  wait_ready "$RESULTS/$target.client.log" "$client_pid" "$READY_SECONDS"
  held=$(established "$PORT")
  after=$(heap_used_kib "$SERVER_PID")
  rss_after=$(rss_kib "$SERVER_PID")
  exec 3>&-
  wait "$client_pid" || echo "warning: IdleConnections exited with an error" >&2
  forget_pid "$client_pid"
  stop_pid "$SERVER_PID"
  [[ $held -ge $CONNECTIONS ]] || echo "warning: $target held only $held of $CONNECTIONS connections" >&2
  ((held > 0)) || { echo "$target held no connection: no figure" >&2; return; }
  python3 -c 'import sys; t, n, held, b, a, rb, ra = sys.argv[1:]; held = int(held)
print(f"{t:<9}{int(n):>12}{held:>8}{int(b):>13}{int(a):>13}{(int(a) - int(b)) / held:>14.2f}{(int(ra) - int(rb)) / held:>14.2f}")' \
    "$target" "$CONNECTIONS" "$held" "$before" "$after" "$rss_before" "$rss_after" >>"$RESULTS/table.txt"
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
  printf '%-9s%12s%8s%13s%13s%14s%14s\n' server connections held 'heap KiB' 'heap KiB' 'heap KiB' 'RSS KiB' >"$RESULTS/table.txt"
  printf '%-9s%12s%8s%13s%13s%14s%14s\n' '' '' '' before during '/connection' '/connection' >>"$RESULTS/table.txt"
  for target in $TARGET; do
    measure "$target"
  done
  {
    echo
    echo "command: TARGET='$TARGET' CONNECTIONS=$CONNECTIONS TLS=${TLS:-0} PARALLEL=$PARALLEL JVM_FLAGS='$JVM_FLAGS' benchmarks/idle.sh"
    grep -h '^READY' "$RESULTS"/*.client.log || true
    for target in $TARGET; do echo "$target: $(server_command "$target")"; done
    echo "java: $(java_version)"
    echo "heap: used after a full GC (jcmd GC.run, GC.heap_info); results in $RESULTS"
    echo
    cat "$RESULTS/table.txt"
  } | tee "$RESULTS/summary.txt"
}

main "$@"
