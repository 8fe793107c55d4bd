#!/usr/bin/env bash
# Echo round trips through the gateway jar and through NGINX to the same raw-Netty WebSocket upstream, driven by
# io.parry.benchmarks.websocket.WebSocketLoad: SESSIONS (64) sessions sending SIZE-byte (128) messages.
# 1. Throughput: each the next as soon as its echo arrives, ROUNDS (5) interleaved rounds; each run warms up in
#    WARMUP_WINDOW (5) s windows until two agree within WARMUP_TOLERANCE (3) %, after WARMUP_MIN (15) s and at most
#    WARMUP (60s), then measures DURATION (10) s. Medians and gateway/NGINX (target >= 1.0).
# 2. Cost: all sessions together paced at RATE (10000) round trips/s, below saturation, CPU_ROUNDS (5) interleaved
#    rounds: the CPU microseconds per round trip of the proxy (NGINX: master and all workers), the upstream and the
#    load client, from /proc/PID/stat. That figure does not depend on what else the machine runs. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
FIRST_PORT=8180
source "$ROOT/benchmarks/ws-common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xmx512m}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
CPU_ROUNDS=${CPU_ROUNDS:-$RATIO_ROUNDS}
RATE=${RATE:-10000}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-60s}
SESSIONS=${SESSIONS:-64}
SIZE=${SIZE:-128}
CLIENT_FLAGS='-Xmx256m'

# load TARGET RATE: one run of the load client against the gateway or NGINX (RATE 0: not paced); prints its lines.
load() {
  local port pids
  if [[ $1 == gateway ]]; then
    port=$GATEWAY_PORT pids="proxy=$GATEWAY_PID"
  else
    port=$NGINX_PORT pids="proxy=$(nginx_pids)"
  fi
  PORT=$port SESSIONS=$SESSIONS SIZE=$SIZE RATE=$2 DURATION=$DURATION WS_PATH=/ws/echo \
    WARMUP=$(seconds "$WARMUP") WARMUP_MIN=$WARMUP_MIN WINDOW=$WARMUP_WINDOW TOLERANCE=$WARMUP_TOLERANCE \
    CPU_PIDS="$pids upstream=$UPSTREAM_PID" \
    "$JAVA" $CLIENT_FLAGS -cp "$BENCH_JAR" io.parry.benchmarks.websocket.WebSocketLoad | tee -a "$RESULTS/load.log"
}

# nginx_pids: NGINX's master and workers, comma-separated.
nginx_pids() {
  local workers
  workers=$(ps -o pid= --ppid "$NGINX_PID" | tr -s ' \n' ',')
  echo "$NGINX_PID,${workers#,}" | sed 's/,$//'
}

# rounds COUNT RATE FILE: COUNT interleaved rounds of both targets, one line per run in FILE:
# "TARGET ROUND_TRIPS/S PROXY_US UPSTREAM_US CLIENT_US BUSY% CLIENT_SHARE%".
rounds() {
  local round target out
  : >"$3"
  for ((round = 0; round < $1; round++)); do
    for target in $( ((round % 2 == 0)) && echo "gateway nginx" || echo "nginx gateway"); do
      echo "== round $((round + 1)) $target (rate ${2/#0/unpaced})" | tee -a "$RESULTS/load.log"
      out=$(load "$target" "$2" | sed -n 's/^round trips\/s: \([0-9]*\).*/\1/p; s/^cpu us per round trip: proxy \([0-9.]*\) upstream \([0-9.]*\) client \([0-9.]*\); machine busy \([0-9]*\)% of [0-9]* cores, client \([0-9]*\)%.*/\1 \2 \3 \4 \5/p' | tr '\n' ' ')
      echo "$target $out" | tee -a "$3"
    done
  done
}

main() {
  ensure_ws_jars
  ensure_nginx
  raise_fd_limit
  RESULTS=$(results_dir ws-proxy)
  start_upstream
  start_ws_nginx
  start_gateway "$JVM_FLAGS"
  rounds "$ROUNDS" 0 "$RESULTS/runs.txt"
  rounds "$CPU_ROUNDS" "$RATE" "$RESULTS/cpu.txt"
  {
    echo "command: ROUNDS=$ROUNDS CPU_ROUNDS=$CPU_ROUNDS RATE=$RATE WARMUP=$WARMUP DURATION=$DURATION SESSIONS=$SESSIONS SIZE=$SIZE JVM_FLAGS='$JVM_FLAGS' benchmarks/ws-proxy.sh"
    echo "upstream: $UPSTREAM_CMD; gateway: $GATEWAY_CMD $RESULTS/config/gateway.yaml"
    echo "nginx: $("$(nginx_binary)" -v 2>&1), $(nproc) workers, $RESULTS/nginx/nginx.conf"
    echo "java: $(java_version)"
    python3 - "$RESULTS/runs.txt" "$RESULTS/cpu.txt" "$RATE" <<'PY'
import statistics, sys
def runs(path):
    by = {}
    for line in open(path):
        target, *values = line.split()
        by.setdefault(target, []).append([float(v) for v in values])
    return by
def median(by, target, column):
    return statistics.median(v[column] for v in by[target] if len(v) > column)
fast, paced = runs(sys.argv[1]), runs(sys.argv[2])
g, n = median(fast, "gateway", 0), median(fast, "nginx", 0)
print(f"median echo round trips/s: gateway {g:.0f}, nginx {n:.0f}, gateway/nginx {g / n:.2f} (target >= 1.0)")
for t in ("gateway", "nginx"):
    print(f"  {t}: proxy {median(fast, t, 1):.1f} us CPU per round trip at saturation, machine busy"
          f" {median(fast, t, 4):.0f}%, load client {median(fast, t, 5):.0f}% of that")
if not paced:
    sys.exit()
gp, np = median(paced, "gateway", 1), median(paced, "nginx", 1)
print(f"median CPU us per round trip at {sys.argv[3]}/s: gateway {gp:.1f}, nginx {np:.1f}, nginx/gateway {np / gp:.2f}"
      f" (upstream {median(paced, 'gateway', 2):.1f} / {median(paced, 'nginx', 2):.1f},"
      f" load client {median(paced, 'gateway', 3):.1f} / {median(paced, 'nginx', 3):.1f})")
PY
  } | tee "$RESULTS/summary.txt"
}

main "$@"
