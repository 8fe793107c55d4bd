#!/usr/bin/env bash
# Heap and RSS per idle WebSocket session proxied by the gateway jar (a session holds two connections: the client's
# and the upstream's), against one idle HTTP keep-alive connection to the same gateway (benchmarks/idle.sh's
# measure): heap used after a full GC and RSS before and while io.parry.benchmarks.websocket.WebSocketIdle holds
# SESSIONS (10,000) used, idle sessions, divided by their number (target: each <= 4x the keep-alive figure).
set -euo pipefail
source "$(dirname "$0")/common.sh"
FIRST_PORT=8190
source "$ROOT/benchmarks/ws-common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xmx512m}
SESSIONS=${SESSIONS:-10000}
# Descriptors the gateway holds besides its sessions' sockets: jars, epoll, listeners (about 40 when idle).
FD_HEADROOM=256
CLIENT_FLAGS='-Xmx1g'

# measure NAME MAIN COUNT_VARIABLE: heap and RSS per connection or session the client MAIN holds on the gateway.
measure() {
  local name=$1 main=$2 fifo=$RESULTS/$1.stdin client_pid before after rss_before rss_after
  before=$(heap_after_gc_kib "$GATEWAY_PID")
  rss_before=$(proc_status_value "$GATEWAY_PID" VmRSS)
  mkfifo "$fifo"
  PORT=$GATEWAY_PORT CONNECTIONS=$SESSIONS SESSIONS=$SESSIONS HOLD_SECONDS=300 WS_PATH=/ws/echo \
    "$JAVA" $CLIENT_FLAGS -cp "$BENCH_JAR" "$main" <"$fifo" >"$RESULTS/$name.client.log" 2>&1 &
  client_pid=$!
  CHILD_PIDS+=("$client_pid")
  exec 3<>"$fifo"
  wait_ready "$RESULTS/$name.client.log" "$client_pid" 300
  after=$(heap_after_gc_kib "$GATEWAY_PID")
  rss_after=$(proc_status_value "$GATEWAY_PID" VmRSS)
  exec 3>&-
  wait "$client_pid" || echo "warning: the $name client exited with an error" >&2
  forget_pid "$client_pid"
  python3 -c 'import sys; t, n, b, a, rb, ra = sys.argv[1:]; n = int(n)
print(f"{t:<22}{n:>8}{int(b):>12}{int(a):>12}{(int(a) - int(b)) / n:>14.2f}{(int(ra) - int(rb)) / n:>14.2f}")' \
    "$name" "$SESSIONS" "$before" "$after" "$rss_before" "$rss_after" >>"$RESULTS/table.txt"
}

# need_open_files COUNT: raises the open-files limit of this shell (and of what it starts) to COUNT, past the hard
# limit when it may (as root), or stops saying why. The gateway holds two descriptors per session, the client's
# connection and the upstream's: with 10,000 sessions a default hard limit of 20,000 runs out just before the last
# ones, and the gateway answers them 503 as it cannot open their upstream connections.
need_open_files() {
  local need=$1
  raise_fd_limit
  ((need <= $(ulimit -n))) || ulimit -n "$need" 2>/dev/null || {
    echo "SESSIONS=$SESSIONS needs $need open files in the gateway (two per session and $FD_HEADROOM of its own);" \
      "the limit is $(ulimit -n) and cannot be raised here (it takes root with CAP_SYS_RESOURCE, or a higher hard" \
      "limit in limits.conf or the container's ulimits), so at most $((($(ulimit -n) - FD_HEADROOM) / 2)) sessions" \
      "fit: run with that SESSIONS or raise the limit" >&2
    exit 1
  }
}

main() {
  ensure_ws_jars
  need_open_files $((2 * SESSIONS + FD_HEADROOM))
  RESULTS=$(results_dir ws-idle)
  start_upstream
  start_gateway "$JVM_FLAGS"
  # Used once first, so classes and pools any session needs count as "before".
  PORT=$GATEWAY_PORT SESSIONS=64 HOLD_SECONDS=0 WS_PATH=/ws/echo \
    "$JAVA" $CLIENT_FLAGS -cp "$BENCH_JAR" io.parry.benchmarks.websocket.WebSocketIdle </dev/null >"$RESULTS/warmup.log" 2>&1
  printf '%-22s%8s%12s%12s%14s%14s\n' held count 'heap KiB' 'heap KiB' 'heap KiB' 'RSS KiB' >"$RESULTS/table.txt"
  printf '%-22s%8s%12s%12s%14s%14s\n' '' '' before during '/each' '/each' >>"$RESULTS/table.txt"
  measure keep-alive io.parry.benchmarks.IdleConnections
  measure websocket io.parry.benchmarks.websocket.WebSocketIdle
  {
    echo "command: SESSIONS=$SESSIONS JVM_FLAGS='$JVM_FLAGS' benchmarks/ws-idle.sh"
    echo "gateway: $GATEWAY_CMD $RESULTS/config/gateway.yaml; upstream: $UPSTREAM_CMD"
    echo "java: $(java_version)"
    echo "keep-alive: one GET /plaintext per connection, answered by the gateway; websocket: one echoed message per"
    echo "session, whose two connections (client's and upstream's) are both in the gateway"
    echo
    cat "$RESULTS/table.txt"
  } | tee "$RESULTS/summary.txt"
}

main "$@"
