#!/usr/bin/env bash
# The gateway as users run it against NGINX doing the same job: the gateway jar with its default configuration (JSON
# access log on stdout, a pipe by default, Prometheus metrics, tracing) proxying GET /plaintext to the raw-Netty
# baseline, and NGINX proxying to the same upstream while it writes a JSON access log of the same fields, buffered, to
# a file (nginx/proxy-accesslog.conf.template). Same wrk connections, interleaved rounds; prints median req/s, p50 and p99,
# the gateway/NGINX req/s ratio (target >= 0.9) and p99 ratio (target <= 1.5), and the access log lines each wrote
# per request. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
source "$ROOT/benchmarks/nginx/nginx.sh"

# As users run it: no JVM flags unless asked.
export JVM_FLAGS=${JVM_FLAGS:-}
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
# The jar runs without JVM flags, as users start it: its JIT needs about 20 s of load before rounds stop rising.
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-1}
TARGETS=${TARGETS:-nginx gateway}
UPSTREAM_PORT=${UPSTREAM_PORT:-8120}
NGINX_PORT=${NGINX_PORT:-8121}
GATEWAY_PORT=${GATEWAY_PORT:-8122}
ADMIN_PORT=${ADMIN_PORT:-8123}
GATEWAY_OFF_PORT=${GATEWAY_OFF_PORT:-8124}
# pipe: the gateway's stdout is a pipe read by cat, as under Docker or Kubernetes; file: stdout is the file itself.
GATEWAY_STDOUT=${GATEWAY_STDOUT:-pipe}
ADMIN_OFF_PORT=${ADMIN_OFF_PORT:-8125}
GATEWAY_CMD=${GATEWAY_CMD:-'$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar'}
NGINX_TEMPLATE=$ROOT/benchmarks/nginx/proxy-accesslog.conf.template

# target_port TARGET: nginx, gateway, or gateway-off (the same gateway with accessLog: off, to see the log's cost).
target_port() {
  case $1 in
    nginx) echo "$NGINX_PORT" ;;
    gateway) echo "$GATEWAY_PORT" ;;
    gateway-off) echo "$GATEWAY_OFF_PORT" ;;
    *) echo "unknown target: $1 (expected: nginx gateway gateway-off)" >&2; exit 1 ;;
  esac
}

# access_log TARGET: the file its access log lines go to (the gateway's stdout).
access_log() {
  case $1 in
    nginx) echo "$RESULTS/nginx/access.log" ;;
    gateway) echo "$RESULTS/gateway.out" ;;
    gateway-off) echo "$RESULTS/gateway-off.out" ;;
  esac
}

# gateway_config PORT ADMIN_PORT EXTRA: the default configuration, one route proxying everything to the upstream.
gateway_config() {
  cat <<YAML
listener: { host: 127.0.0.1, port: $1 }
admin: { host: 127.0.0.1, port: $2 }
$3
upstreams:
  plaintext: { endpoints: ["127.0.0.1:$UPSTREAM_PORT"] }
routes:
  - { name: all, match: { prefix: / }, proxy: { upstream: plaintext } }
YAML
}

# start_gateway NAME PORT ADMIN_PORT EXTRA: starts the jar on its file, its stdout appended to its access log file (so
# it can be emptied between runs) directly or through a pipe, and waits for a 200 through it; sets SERVER_PID.
start_gateway() {
  local name=$1 config=$RESULTS/config/$1.yaml out
  out=$(access_log "$name")
  gateway_config "$2" "$3" "$4" >"$config"
  if port_open "$2" || port_open "$3"; then
    echo "port $2 or $3 is already in use" >&2
    exit 1
  fi
  echo "starting $name on port $2 (admin $3): $GATEWAY_CMD $config   (JVM_FLAGS='$JVM_FLAGS', stdout to a $GATEWAY_STDOUT)"
  if [[ $GATEWAY_STDOUT == pipe ]]; then
    # As a container runtime reads it: stdout is a pipe, and a reader of its own appends to the file.
    mkfifo "$RESULTS/$name.fifo"
    cat "$RESULTS/$name.fifo" >>"$out" &
    CHILD_PIDS+=("$!")
    JAVA=$JAVA JVM_FLAGS=$JVM_FLAGS bash -c "exec $GATEWAY_CMD $config" >"$RESULTS/$name.fifo" 2>"$RESULTS/$name.err" &
  else
    JAVA=$JAVA JVM_FLAGS=$JVM_FLAGS bash -c "exec $GATEWAY_CMD $config" >>"$out" 2>"$RESULTS/$name.err" &
  fi
  SERVER_PID=$!
  CHILD_PIDS+=("$SERVER_PID")
  wait_for_200 "http://127.0.0.1:$2/plaintext" "$SERVER_PID" "$out"
}

# run_wrk TARGET DURATION LABEL: one wrk run, kept in $RESULTS/TARGET.LABEL.txt, with the access log lines the
# target wrote for it (counted after a second for the buffers to empty, then the file is emptied).
run_wrk() {
  local target=$1 duration=$2 label=$3 out=$RESULTS/$1.$3.txt log
  log=$(access_log "$target")
  : >"$log"
  echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d$duration --latency http://127.0.0.1:$(target_port "$target")/plaintext" \
    >"$out"
  timeout $(($(seconds "$duration") + 30)) wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$duration" --timeout 5s --latency \
    "http://127.0.0.1:$(target_port "$target")/plaintext" >>"$out" 2>&1 || echo "warning: wrk failed for $target" >&2
  sleep 1.5
  echo "access log lines: $(wc -l <"$log")" >>"$out"
  [[ $label == warmup1 ]] && head -n 3 "$log" >"$RESULTS/$target.sample.log"
  : >"$log"
  printf '  %-12s %-7s %s\n' "$target" "$label" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

summarize() {
  python3 - "$RESULTS" "$TARGETS" <<'PY'
import glob, os, re, statistics, sys

results, targets = sys.argv[1], sys.argv[2].split()
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0, "h": 3600000.0}

def parse(path):
    text = open(path).read()
    rps = re.search(r"^Requests/sec:\s*([\d.]+)", text, re.M)
    total = re.search(r"(\d+) requests in", text)
    if not rps or not total:
        return None
    pct = {p: float(v) * UNIT_MS[u] for p, v, u in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s|m|h)\s*$", text, re.M)}
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors = sum(int(n) for n in sockets.groups()) if sockets else 0
    errors += sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", text))
    lines = re.search(r"^access log lines: (\d+)", text, re.M)
    per_request = int(lines.group(1)) / int(total.group(1)) if lines and int(total.group(1)) else 0.0
    return float(rps.group(1)), pct.get("50"), pct.get("99"), errors, per_request

rows = {}
print(f"{'via':<13}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'log lines/req':>15}{'rounds':>8}")
for target in targets:
    runs = [parse(p) for p in sorted(glob.glob(os.path.join(results, f"{target}.r*.txt")))]
    runs = [r for r in runs if r and r[1] is not None and r[2] is not None]
    if not runs:
        print(f"{target:<13}{'no valid wrk result':>30}")
        continue
    row = tuple(statistics.median(r[i] for r in runs) for i in (0, 1, 2)) + (sum(r[3] for r in runs),
            min(r[4] for r in runs), len(runs))
    rows[target] = row
    rps, p50, p99, errors, lines, n = row
    print(f"{target:<13}{rps:>10.0f}{p50:>9.2f}{p99:>9.2f}{errors:>8}{lines:>15.3f}{n:>8}")
gateway, nginx = rows.get("gateway"), rows.get("nginx")
if gateway and nginx:
    ratio, p99_ratio = gateway[0] / nginx[0], gateway[2] / nginx[2]
    print(f"req/s gateway/NGINX: {ratio:.2f} (target >= 0.9: {'met' if ratio >= 0.9 else 'MISSED'})")
    print(f"p99 gateway/NGINX: {p99_ratio:.2f} ({gateway[2]:.2f} ms vs {nginx[2]:.2f} ms;"
          f" target <= 1.5: {'met' if p99_ratio <= 1.5 else 'MISSED'})")
if rows.get("gateway-off") and nginx:
    print(f"req/s gateway with accessLog: off / NGINX: {rows['gateway-off'][0] / nginx[0]:.2f}")
PY
}

main() {
  ensure_wrk
  [[ " $TARGETS " == *" nginx "* ]] && ensure_nginx
  ensure_jars baseline
  ensure_gateway_jar
  raise_fd_limit
  RESULTS=$(results_dir gateway-accesslog)
  echo "results in $RESULTS (ulimit -n $(ulimit -n), JVM_FLAGS='$JVM_FLAGS'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  start_server baseline "$UPSTREAM_PORT" "$UPSTREAM_JVM_FLAGS" "$RESULTS/upstream.log"
  wait_for_200 "http://127.0.0.1:$UPSTREAM_PORT/plaintext" "$SERVER_PID" "$RESULTS/upstream.log"
  local target round
  for target in $TARGETS; do
    case $target in
      nginx)
        start_nginx "$NGINX_PORT" "$UPSTREAM_PORT" on "$RESULTS/nginx"
        wait_for_200 "http://127.0.0.1:$NGINX_PORT/plaintext" "$SERVER_PID" "$RESULTS/nginx/error.log" ;;
      gateway) start_gateway gateway "$GATEWAY_PORT" "$ADMIN_PORT" "" ;;
      gateway-off) start_gateway gateway-off "$GATEWAY_OFF_PORT" "$ADMIN_OFF_PORT" "accessLog: off" ;;
      *) target_port "$target" ;;
    esac
  done
  echo "== warm-up"
  for target in $TARGETS; do
    warm_up run_wrk "$target"
  done
  echo "== rounds"
  for ((round = 1; round <= ROUNDS; round++)); do
    for target in $(rotated "$round" "$TARGETS"); do
      run_wrk "$target" "$DURATION" "r$round"
    done
  done
  {
    echo
    echo "command: ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS" \
      "TARGETS='$TARGETS' JVM_FLAGS='$JVM_FLAGS' benchmarks/gateway-accesslog.sh"
    echo "upstream: $(server_command baseline)   (JVM_FLAGS='$UPSTREAM_JVM_FLAGS')"
    echo "gateway:  $GATEWAY_CMD $RESULTS/config/gateway.yaml   (stdout to a $GATEWAY_STDOUT)"
    if [[ " $TARGETS " == *" nginx "* ]]; then
      echo "nginx:    $("$(nginx_binary)" -v 2>&1), $(nproc) workers, $RESULTS/nginx/nginx.conf"
    fi
    echo "java:     $(java_version)"
    echo "wrk:      $(wrk -v 2>&1 | head -n 1); $(nproc) cores; $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    summarize
  } | tee "$RESULTS/summary.txt"
}

main "$@"
