#!/usr/bin/env bash
# The cost of protection on a gateway route (issue 17): one gateway jar with its own gateway.yaml and three routes the
# gateway answers itself, so only the filters differ: /open with none, /protected with JWT verification (an ES256
# token; its key is cached after the first request) + a local rate limit (keyed by the client's address, far above the
# load so that it never refuses) + IP rules, /redis with the same but the Redis limiter (a redis-server this script
# starts and stops by its PID; a round trip per request) and /redis-batched with the Redis limiter reserving
# REDIS_BATCH tokens per round trip (the issue's "optional local batching"). The signing key, its JWK Set (served by a python3 http.server this script starts) and
# the token are made here with python3's cryptography package. Same wrk connections, interleaved rounds (which route
# goes first changes each round); prints the median req/s, p50 and p99 of each and the ratios protected/open
# (target >= 0.85), redis/open and redis-batched/open (target >= 0.7).
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:-}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-1}
ROUTES=${ROUTES:-open protected redis redis-batched}
GATEWAY_PORT=${GATEWAY_PORT:-8130}
ADMIN_PORT=${ADMIN_PORT:-8131}
REDIS_PORT=${REDIS_PORT:-8132}
JWKS_PORT=${JWKS_PORT:-8133}
# redis-batched: tokens reserved per round trip (redis asks Redis for every request).
REDIS_BATCH=${REDIS_BATCH:-100}
# How long a Redis decision may wait before onFailure: closed answers 503 (the gateway default, 50ms).
REDIS_TIMEOUT=${REDIS_TIMEOUT:-50ms}
GATEWAY_CMD=${GATEWAY_CMD:-'$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar'}
LIMIT="rate: 1000000, burst: 1000000, key: client_address"

gateway_config() {
  cat <<YAML
listener: { host: 127.0.0.1, port: $GATEWAY_PORT }
admin: { host: 127.0.0.1, port: $ADMIN_PORT }
accessLog: off
redis: { uri: "redis://127.0.0.1:$REDIS_PORT" }
routes:
  - name: open
    match: { path: /open }
    respond: { body: "Hello from Parry" }
  - name: protected
    match: { path: /protected }
    ipRules: { allow: [127.0.0.0/8, "::1"] }
    auth: { jwt: { jwksUrl: "http://127.0.0.1:$JWKS_PORT/jwks.json", issuer: bench, audiences: [bench] } }
    rateLimit: { $LIMIT }
    respond: { body: "Hello from Parry" }
  - name: redis
    match: { path: /redis }
    ipRules: { allow: [127.0.0.0/8, "::1"] }
    auth: { jwt: { jwksUrl: "http://127.0.0.1:$JWKS_PORT/jwks.json", issuer: bench, audiences: [bench] } }
    rateLimit: { $LIMIT, store: redis, timeout: $REDIS_TIMEOUT, onFailure: closed }
    respond: { body: "Hello from Parry" }
  - name: redis-batched
    match: { path: /redis-batched }
    ipRules: { allow: [127.0.0.0/8, "::1"] }
    auth: { jwt: { jwksUrl: "http://127.0.0.1:$JWKS_PORT/jwks.json", issuer: bench, audiences: [bench] } }
    rateLimit: { $LIMIT, store: redis, batch: $REDIS_BATCH, timeout: $REDIS_TIMEOUT, onFailure: closed }
    respond: { body: "Hello from Parry" }
YAML
}

# make_token: writes $RESULTS/jwks/jwks.json and prints an ES256 token valid for a day.
make_token() {
  python3 -c 'import cryptography' 2>/dev/null || {
    echo "python3's cryptography package is missing (apt-get install python3-cryptography)" >&2
    exit 1
  }
  mkdir -p "$RESULTS/jwks"
  python3 - "$RESULTS/jwks/jwks.json" <<'PY'
import base64, json, sys, time
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

key = ec.generate_private_key(ec.SECP256R1())
numbers = key.public_key().public_numbers()
jwk = {"kty": "EC", "crv": "P-256", "kid": "bench", "alg": "ES256", "use": "sig",
       "x": b64(numbers.x.to_bytes(32, "big")), "y": b64(numbers.y.to_bytes(32, "big"))}
with open(sys.argv[1], "w") as out:
    json.dump({"keys": [jwk]}, out)
now = int(time.time())
header = b64(json.dumps({"alg": "ES256", "kid": "bench", "typ": "JWT"}).encode())
claims = b64(json.dumps({"iss": "bench", "aud": "bench", "sub": "wrk", "iat": now, "exp": now + 86400}).encode())
r, s = decode_dss_signature(key.sign(f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256())))
print(f"{header}.{claims}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}")
PY
}

start_jwks() {
  if port_open "$JWKS_PORT"; then
    echo "port $JWKS_PORT is already in use" >&2
    exit 1
  fi
  python3 -m http.server "$JWKS_PORT" --bind 127.0.0.1 --directory "$RESULTS/jwks" >"$RESULTS/jwks.log" 2>&1 &
  CHILD_PIDS+=("$!")
  wait_for_port "$JWKS_PORT" "$!" "$RESULTS/jwks.log"
}

start_gateway() {
  gateway_config >"$RESULTS/config/gateway.yaml"
  echo "starting the gateway: $GATEWAY_CMD $RESULTS/config/gateway.yaml   (JVM_FLAGS='$JVM_FLAGS')"
  JAVA=$JAVA JVM_FLAGS=$JVM_FLAGS bash -c "exec $GATEWAY_CMD $RESULTS/config/gateway.yaml" >"$RESULTS/gateway.log" 2>&1 &
  SERVER_PID=$!
  CHILD_PIDS+=("$SERVER_PID")
  wait_for_200 "http://127.0.0.1:$GATEWAY_PORT/open" "$SERVER_PID" "$RESULTS/gateway.log"
  # The first requests fetch the key set and load the Redis script, which may outlast the 50 ms Redis timeout.
  local route status i
  for route in protected redis redis-batched; do
    for ((i = 0; i < 50; i++)); do
      status=$(curl -s -o /dev/null -m 5 -w '%{http_code}' -H "Authorization: Bearer $TOKEN" \
        "http://127.0.0.1:$GATEWAY_PORT/$route")
      [[ $status == 200 ]] && break
      sleep 0.2
    done
    [[ $status == 200 ]] || { echo "/$route answered $status with the token; see $RESULTS/gateway.log" >&2; exit 1; }
  done
}

# cpu_share PID TICKS DURATION: the percentage of one core the process used since it had used TICKS.
cpu_share() {
  echo $(((($(cpu_ticks "$1") - $2) * 100) / ($(getconf CLK_TCK) * $(seconds "$3"))))
}

# refusals ROUTE: what the route's limiter refused so far, from the gateway's metrics: "429 N, 503 N" (limited:
# the bucket was empty; failed: Redis did not answer within REDIS_TIMEOUT, or was down, under onFailure: closed).
refusals() {
  curl -s "http://127.0.0.1:$ADMIN_PORT/admin/metrics" | awk -v route="$1" '
    /^parry_ratelimit_requests_total/ && index($0, "route=\"" route "\"") {
      if (index($0, "outcome=\"limited\"")) limited = $NF
      if (index($0, "outcome=\"failed\"")) failed = $NF
    }
    END { printf "429 %d, 503 %d", limited, failed }'
}

# run_wrk ROUTE DURATION LABEL: one wrk run, kept in $RESULTS/ROUTE.LABEL.txt; protected routes send the token. Also
# kept there: the share of a core redis-server used during the run and what the route's limiter refused so far.
run_wrk() {
  local out=$RESULTS/$1.$3.txt url="http://127.0.0.1:$GATEWAY_PORT/$1" header=() redis gateway
  [[ $1 != open ]] && header=(-H "Authorization: Bearer $TOKEN")
  echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d$2 --latency $url" >"$out"
  redis=$(cpu_ticks "$REDIS_PID")
  gateway=$(cpu_ticks "$SERVER_PID")
  timeout $(($(seconds "$2") + 30)) wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$2" --timeout 5s --latency \
    "${header[@]}" "$url" >>"$out" 2>&1 || echo "warning: wrk failed for $1" >&2
  echo "redis-server CPU: $(cpu_share "$REDIS_PID" "$redis" "$2")%" >>"$out"
  echo "gateway CPU: $(cpu_share "$SERVER_PID" "$gateway" "$2")%" >>"$out"
  [[ $1 == redis* ]] && echo "limiter refusals so far: $(refusals "$1")" >>"$out"
  printf '  %-14s %-7s %s; %s\n' "$1" "$3" "$(grep -h 'Requests/sec' "$out" || echo 'no result')" \
    "$(grep -h 'CPU: \|limiter refusals' "$out" | paste -sd ';' -)"
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
    cpu = [re.search(rf"^{name} CPU: (\d+)%", text, re.M) for name in ("gateway", "redis-server")]
    us = [int(c.group(1)) * 10_000 / float(rps.group(1)) if c else 0 for c in cpu]
    return float(rps.group(1)), pct.get("50"), pct.get("99"), errors, us[0], us[1]

rows = {}
# CPU per request (microseconds of a core) depends less on what else the machine runs than req/s does.
print(f"{'route':<14}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}{'gw us/req':>11}{'redis us/req':>14}{'rounds':>8}")
for route in routes:
    runs = [r for r in (parse(p) for p in sorted(glob.glob(os.path.join(results, f"{route}.r*.txt")))) if r]
    if not runs:
        print(f"{route:<14}{'no valid wrk result':>30}")
        continue
    rps, p50, p99, gw, redis = (statistics.median(r[i] for r in runs) for i in (0, 1, 2, 4, 5))
    rows[route] = rps
    print(f"{route:<14}{rps:>10.0f}{p50:>9.2f}{p99:>9.2f}{sum(r[3] for r in runs):>9}{gw:>11.1f}{redis:>14.1f}{len(runs):>8}")
for route, target in (("protected", 0.85), ("redis", 0.7), ("redis-batched", 0.7)):
    if route in rows and "open" in rows:
        print(f"req/s {route}/open: {rows[route] / rows['open']:.3f} (target >= {target})")
PY
}

main() {
  local REFUSED=""
  ensure_wrk
  ensure_gateway_jar
  raise_fd_limit
  RESULTS=$(results_dir gateway-auth)
  echo "results in $RESULTS; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  TOKEN=$(make_token)
  start_jwks
  start_redis
  REDIS_PID=${CHILD_PIDS[-1]}
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
  for route in $ROUTES; do
    [[ $route == redis* ]] && REFUSED+="$route: $(refusals "$route"); "
  done
  stop_pid "$SERVER_PID"
  {
    echo
    echo "command: ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS" \
      "ROUTES='$ROUTES' REDIS_BATCH=$REDIS_BATCH REDIS_TIMEOUT=$REDIS_TIMEOUT JVM_FLAGS='$JVM_FLAGS' benchmarks/gateway-auth.sh"
    echo "gateway:  $GATEWAY_CMD $RESULTS/config/gateway.yaml; redis: $(redis-server --version | cut -d' ' -f3)"
    echo "java:     $(java_version)"
    echo "wrk:      $(wrk -v 2>&1 | head -n 1); $(nproc) cores; $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "limiter refusals (warm-up included): ${REFUSED:-none measured}"
    echo
    summarize
  } | tee "$RESULTS/summary.txt"
}

main "$@"
