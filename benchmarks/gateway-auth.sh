#!/usr/bin/env bash
# The cost of protection on a route: the gateway jar's demo serves /hello with no protection and /api/private behind
# JWT verification (an ES256 token whose key is cached after the first request) and IP rules, both answered by the
# gateway itself, so only the filters differ. wrk runs on each route in turn, ROUNDS (5) alternating rounds, which goes
# first changing each round; prints the median req/s and p99 of each and protected/open (target >= 0.85, issue 17).
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:-}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-20s}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-1}
GATEWAY_PORT=${GATEWAY_PORT:-8130}
ADMIN_PORT=${ADMIN_PORT:-8131}

RESULTS=$(results_dir gateway-auth)
ensure_gateway_jar
raise_fd_limit

out=$RESULTS/gateway.out
echo "starting the demo on port $GATEWAY_PORT (admin $ADMIN_PORT): $JAVA $JVM_FLAGS -jar $GATEWAY_JAR"
PORT=$GATEWAY_PORT ADMIN_PORT=$ADMIN_PORT $JAVA $JVM_FLAGS -jar "$GATEWAY_JAR" >"$out" 2>&1 &
SERVER_PID=$!
CHILD_PIDS+=("$SERVER_PID")
wait_for_200 "http://127.0.0.1:$GATEWAY_PORT/hello" "$SERVER_PID" "$out"
token=""
for ((i = 0; i < 300; i++)); do
  token=$(grep -o "Authorization: Bearer [A-Za-z0-9._-]*" "$out" | head -n 1 | cut -d' ' -f3 || true)
  [[ -n $token ]] && break
  sleep 0.1
done
[[ -n $token ]] || { echo "the demo printed no token; its output is in $out" >&2; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$GATEWAY_PORT/api/private")
[[ $status == 200 ]] || { echo "/api/private answered $status with the demo's token" >&2; exit 1; }

# run ROUTE DURATION LABEL: one wrk run; /api/private with the token.
run() {
  local route=$1 file=$RESULTS/$1.$3.txt header=()
  [[ $route == private ]] && header=(-H "Authorization: Bearer $token")
  local path=/hello
  [[ $route == private ]] && path=/api/private
  timeout $(($(seconds "$2") + 30)) wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$2" --timeout 5s --latency "${header[@]}" \
    "http://127.0.0.1:$GATEWAY_PORT$path" >"$file" 2>&1 || echo "warning: wrk failed for $route" >&2
  printf '  %-8s %-7s %s\n' "$route" "$3" "$(grep -h 'Requests/sec' "$file" || echo 'no result')"
}

echo "warming up ($WARMUP each)"
run open "$WARMUP" warmup
run private "$WARMUP" warmup
for ((round = 1; round <= ROUNDS; round++)); do
  echo "round $round"
  if ((round % 2)); then run open "$DURATION" "r$round"; run private "$DURATION" "r$round"
  else run private "$DURATION" "r$round"; run open "$DURATION" "r$round"; fi
done
stop_pid "$SERVER_PID"

python3 - "$RESULTS" <<'PY'
import glob, re, statistics, sys
results = sys.argv[1]
def parse(path):
    text = open(path).read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
    scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return rps, float(p99.group(1)) * scale, int(non2xx.group(1)) if non2xx else 0
medians = {}
for route in ("open", "private"):
    runs = [parse(p) for p in sorted(glob.glob(f"{results}/{route}.r*.txt"))]
    medians[route] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), sum(r[2] for r in runs))
    print(f"{route:8s} median {medians[route][0]:10.0f} req/s  p99 {medians[route][1]:7.2f} ms  non-2xx {medians[route][2]}")
print(f"protected/open req/s: {medians['private'][0] / medians['open'][0]:.3f} (target >= 0.85)")
PY
echo "raw output in $RESULTS"
