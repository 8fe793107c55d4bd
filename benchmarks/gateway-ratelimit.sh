#!/usr/bin/env bash
# What a rate limit costs a gateway route: one gateway jar with three routes that proxy GET /plaintext to the raw-Netty
# baseline, /none without a limit, /local with the local limiter and /redis with the Redis limiter (a redis-server this
# script starts and stops by its PID), each limit keyed by client address and far above the load so that every request
# is measured passing. Same wrk connections, interleaved rounds; prints median req/s, p50 and p99 per route and the
# ratios local/none and redis/none (issue 17 targets, with JWT and IP rules added: >= 0.85 and >= 0.7). See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:-}
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-1}
ROUTES=${ROUTES:-none local redis}
UPSTREAM_PORT=${UPSTREAM_PORT:-8230}
GATEWAY_PORT=${GATEWAY_PORT:-8231}
ADMIN_PORT=${ADMIN_PORT:-8232}
REDIS_PORT=${REDIS_PORT:-8233}
# redis: every request asks Redis; a batch > 1 reserves that many tokens per round trip.
REDIS_BATCH=${REDIS_BATCH:-1}
GATEWAY_CMD=${GATEWAY_CMD:-'$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar'}
LIMIT="rate: 1000000, burst: 1000000, key: client_address"

gateway_config() {
  cat <<YAML
listener: { host: 127.0.0.1, port: $GATEWAY_PORT }
admin: { host: 127.0.0.1, port: $ADMIN_PORT }
accessLog: off
redis: { uri: "redis://127.0.0.1:$REDIS_PORT" }
upstreams:
  plaintext: { endpoints: ["127.0.0.1:$UPSTREAM_PORT"] }
routes:
  - { name: none, match: { path: /none/plaintext }, proxy: { upstream: plaintext, stripPrefix: /none } }
  - name: local
    match: { path: /local/plaintext }
    rateLimit: { $LIMIT }
    proxy: { upstream: plaintext, stripPrefix: /local }
  - name: redis
    match: { path: /redis/plaintext }
    rateLimit: { $LIMIT, store: redis, batch: $REDIS_BATCH, onFailure: closed }
    proxy: { upstream: plaintext, stripPrefix: /redis }
YAML
}

start_gateway() {
  gateway_config >"$RESULTS/config/gateway.yaml"
  echo "starting the gateway: $GATEWAY_CMD $RESULTS/config/gateway.yaml   (JVM_FLAGS='$JVM_FLAGS')"
  JAVA=$JAVA JVM_FLAGS=$JVM_FLAGS bash -c "exec $GATEWAY_CMD $RESULTS/config/gateway.yaml" >"$RESULTS/gateway.log" 2>&1 &
  SERVER_PID=$!
  CHILD_PIDS+=("$SERVER_PID")
  local route
  for route in $ROUTES; do
    wait_for_200 "http://127.0.0.1:$GATEWAY_PORT/$route/plaintext" "$SERVER_PID" "$RESULTS/gateway.log"
  done
}

# run_wrk ROUTE DURATION LABEL: one wrk run, kept in $RESULTS/ROUTE.LABEL.txt.
run_wrk() {
  local out=$RESULTS/$1.$3.txt url="http://127.0.0.1:$GATEWAY_PORT/$1/plaintext"
  echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d$2 --latency $url" >"$out"
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$2" --timeout 5s --latency "$url" >>"$out" 2>&1 \
    || echo "warning: wrk failed for $1" >&2
  printf '  %-7s %-7s %s\n' "$1" "$3" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

summarize() {
  python3 - "$RESULTS" "$ROUTES" <<'PY'
import glob, os, re, statistics, sys

results, routes = sys.argv[1], sys.argv[2].split()
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}

def parse(path):
    text = open(path).read()
    rps = re.search(r"^Requests/sec:\s*([\d.]+)", text, re.M)
    if not rps:
        return None
    pct = {p: float(v) * UNIT_MS[u] for p, v, u in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)}
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", text))
    return float(rps.group(1)), pct.get("50"), pct.get("99"), errors

rows = {}
print(f"{'route':<8}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}{'rounds':>8}")
for route in routes:
    runs = [r for r in (parse(p) for p in sorted(glob.glob(os.path.join(results, f"{route}.r*.txt")))) if r]
    if not runs:
        print(f"{route:<8}{'no valid wrk result':>30}")
        continue
    rps, p50, p99 = (statistics.median(r[i] for r in runs) for i in (0, 1, 2))
    rows[route] = rps
    print(f"{route:<8}{rps:>10.0f}{p50:>9.2f}{p99:>9.2f}{sum(r[3] for r in runs):>9}{len(runs):>8}")
for route, target in (("local", 0.85), ("redis", 0.7)):
    if route in rows and "none" in rows:
        ratio = rows[route] / rows["none"]
        print(f"req/s {route}/none: {ratio:.2f} (issue target for the whole protection stack >= {target})")
PY
}

main() {
  ensure_wrk
  ensure_jars baseline
  ensure_gateway_jar
  raise_fd_limit
  RESULTS=$(results_dir gateway-ratelimit)
  echo "results in $RESULTS; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  start_redis
  start_server baseline "$UPSTREAM_PORT" "$UPSTREAM_JVM_FLAGS" "$RESULTS/upstream.log"
  wait_for_200 "http://127.0.0.1:$UPSTREAM_PORT/plaintext" "$SERVER_PID" "$RESULTS/upstream.log"
  start_gateway
  echo "== warm-up"
  local route round
  for route in $ROUTES; do
    warm_up run_wrk "$route"
  done
  echo "== rounds"
  for ((round = 1; round <= ROUNDS; round++)); do
    for route in $(rotated "$round" "$ROUTES"); do
      run_wrk "$route" "$DURATION" "r$round"
    done
  done
  {
    echo
    echo "command: ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS" \
      "ROUTES='$ROUTES' REDIS_BATCH=$REDIS_BATCH JVM_FLAGS='$JVM_FLAGS' benchmarks/gateway-ratelimit.sh"
    echo "gateway:  $GATEWAY_CMD $RESULTS/config/gateway.yaml; redis: $(redis-server --version | cut -d' ' -f3)"
    echo "java:     $(java_version)"
    echo "wrk:      $(wrk -v 2>&1 | head -n 1); $(nproc) cores; $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    summarize
  } | tee "$RESULTS/summary.txt"
}

main "$@"
