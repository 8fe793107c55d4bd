#!/usr/bin/env bash
# Echo round trips per second through the gateway jar and through NGINX to the same raw-Netty WebSocket upstream:
# io.parry.benchmarks.websocket.WebSocketLoad with SESSIONS (64) sessions sending SIZE-byte (128) messages, each the
# next as soon as its echo arrives, WARMUP (10) s then DURATION (10) s per run, ROUNDS (3) interleaved rounds;
# medians and gateway/NGINX (target >= 1.0). A JVM still compiling loses to NGINX: keep the warm-up. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
source "$ROOT/benchmarks/ws-common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xmx512m}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-10}
SESSIONS=${SESSIONS:-64}
SIZE=${SIZE:-128}
CLIENT_FLAGS='-Xmx256m'

# load PORT: one run of the load client; prints its round trips per second.
load() {
  PORT=$1 SESSIONS=$SESSIONS SIZE=$SIZE WARMUP=$WARMUP DURATION=$DURATION WS_PATH=/ws/echo \
    "$JAVA" $CLIENT_FLAGS -cp "$BENCH_JAR" io.parry.benchmarks.websocket.WebSocketLoad | tee -a "$RESULTS/load.log" |
    sed -n 's/^round trips\/s: \([0-9]*\).*/\1/p'
}

main() {
  ensure_ws_jars
  ensure_nginx
  raise_fd_limit
  RESULTS=$(results_dir ws-proxy)
  start_upstream
  start_ws_nginx
  start_gateway "$JVM_FLAGS"
  local round target rate
  : >"$RESULTS/runs.txt"
  for ((round = 0; round < ROUNDS; round++)); do
    for target in $( ((round % 2 == 0)) && echo "gateway nginx" || echo "nginx gateway"); do
      if [[ $target == gateway ]]; then rate=$(load "$GATEWAY_PORT"); else rate=$(load "$NGINX_PORT"); fi
      echo "round $((round + 1)) $target $rate" | tee -a "$RESULTS/runs.txt"
    done
  done
  {
    echo "command: ROUNDS=$ROUNDS WARMUP=$WARMUP DURATION=$DURATION SESSIONS=$SESSIONS SIZE=$SIZE JVM_FLAGS='$JVM_FLAGS' benchmarks/ws-proxy.sh"
    echo "upstream: $UPSTREAM_CMD; gateway: $GATEWAY_CMD $RESULTS/gateway.yaml"
    echo "nginx: $("$(nginx_binary)" -v 2>&1), $(nproc) workers, $RESULTS/nginx/nginx.conf"
    echo "java: $(java_version)"
    python3 - "$RESULTS/runs.txt" <<'PY'
import statistics, sys
rates = {}
for line in open(sys.argv[1]):
    _, _, target, rate = line.split()
    rates.setdefault(target, []).append(float(rate))
g, n = statistics.median(rates["gateway"]), statistics.median(rates["nginx"])
print(f"median echo round trips/s: gateway {g:.0f}, nginx {n:.0f}, gateway/nginx {g / n:.2f} (target >= 1.0)")
PY
  } | tee "$RESULTS/summary.txt"
}

main "$@"
