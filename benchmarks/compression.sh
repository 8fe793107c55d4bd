#!/usr/bin/env bash
# Response compression, the Parry gateway against NGINX: the same 64 KiB JSON body gzipped on every request at the
# same zlib level (LEVEL, default 1, NGINX's own default), NGINX serving it as a file with `gzip on`, the gateway from
# a `respond` route with `compression`; wrk sends Accept-Encoding: gzip; interleaved rounds, medians, and the ratio.
# Issue 17 asks for >= 0.9x NGINX. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
source "$ROOT/benchmarks/nginx/nginx.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-2}
LEVEL=${LEVEL:-1}
TARGETS=${TARGETS:-nginx parry}
NGINX_PORT=${NGINX_PORT:-8240}
PARRY_PORT=${PARRY_PORT:-8241}

# make_body FILE: a 64 KiB JSON array of todo-like objects (no single quotes, so YAML can quote it as it is).
make_body() {
  python3 - "$1" <<'PY'
import json, sys
items, size = [], 0
while True:
    item = {"id": len(items), "title": f"todo number {len(items)}", "completed": len(items) % 3 == 0,
            "order": len(items) * 7, "url": f"http://127.0.0.1/todos/{len(items)}"}
    text = json.dumps(items + [item], separators=(",", ":"))
    if len(text) > 65536:
        break
    items.append(item)
text = json.dumps(items, separators=(",", ":"))
open(sys.argv[1], "w").write(text + " " * (65536 - len(text)))
PY
}

# gateway_config FILE BODY: the gateway's YAML, its port from ${PORT}, one respond route with the body and compression.
gateway_config() {
  {
    echo "listener: { host: 127.0.0.1, port: \${PORT} }"
    echo "admin: { port: 0 }"
    echo "accessLog: off"
    echo "metrics: off"
    echo "tracing: false"
    echo "routes:"
    echo "  - match: { path: /todos.json }"
    echo "    compression: { level: $LEVEL }"
    printf "    respond: { status: 200, contentType: application/json, body: '%s' }\n" "$(cat "$2")"
  } >"$1"
}

start_nginx_gzip() {
  local prefix=$RESULTS/nginx user=''
  mkdir -p "$prefix"
  if ((EUID == 0)); then
    chmod 755 "$prefix" "$RESULTS" "$RESULTS/www"
    chmod 644 "$RESULTS/www/todos.json"
    user="user nobody $(id -gn nobody 2>/dev/null || echo nogroup);"
  fi
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@WORKERS@|$(nproc)|g" -e "s|@PORT@|$NGINX_PORT|g" -e "s|@LEVEL@|$LEVEL|g" \
    -e "s|@BODY_DIR@|$RESULTS/www|g" -e "s|@USER@|$user|g" \
    "$ROOT/benchmarks/nginx/compression.conf.template" >"$prefix/nginx.conf"
  "$(nginx_binary)" -c "$prefix/nginx.conf" -p "$prefix" -e "$prefix/error.log" >"$prefix/stdout.log" 2>&1 &
  CHILD_PIDS+=("$!")
  wait_for_port "$NGINX_PORT" "$!" "$prefix/error.log"
}

target_port() {
  case $1 in
    nginx) echo "$NGINX_PORT" ;;
    parry) echo "$PARRY_PORT" ;;
  esac
}

# check_gzip TARGET: both must answer gzip with the same plain body, or the comparison means nothing.
check_gzip() {
  local url="http://127.0.0.1:$(target_port "$1")/todos.json" headers size
  headers=$(curl -s -D - -o "$RESULTS/$1.gz" -H 'Accept-Encoding: gzip' "$url")
  grep -qi '^content-encoding: gzip' <<<"$headers" || { echo "$1 did not answer gzip:" >&2; echo "$headers" >&2; exit 1; }
  cmp -s <(gzip -dc "$RESULTS/$1.gz") "$RESULTS/www/todos.json" || { echo "$1's body does not inflate to the file" >&2; exit 1; }
  size=$(stat -c %s "$RESULTS/$1.gz")
  echo "  $1: gzip, $size bytes for 65536"
}

# run_wrk TARGET DURATION LABEL: one wrk run, kept in $RESULTS/gzip.TARGET.LABEL.txt.
run_wrk() {
  local target=$1 out=$RESULTS/gzip.$1.$3.txt args
  args=(-t"$WRK_THREADS" -c"$CONNECTIONS" -d"$2" --latency -H "Accept-Encoding: gzip"
    "http://127.0.0.1:$(target_port "$target")/todos.json")
  echo "wrk ${args[*]}" >"$out"
  wrk "${args[@]}" >>"$out" 2>&1 || echo "warning: wrk failed for $target, see $out" >&2
  printf '  %-6s %-6s %s\n' "$target" "$3" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

summarize() {
  python3 - "$RESULTS" "$TARGETS" <<'PY'
import glob, re, statistics, sys
results, targets = sys.argv[1], sys.argv[2].split()
medians = {}
for target in targets:
    rates = []
    for path in glob.glob(f"{results}/gzip.{target}.r*.txt"):
        m = re.search(r"^Requests/sec:\s*([\d.]+)", open(path).read(), re.M)
        if m:
            rates.append(float(m.group(1)))
    medians[target] = statistics.median(rates) if rates else 0.0
    print(f"gzip   {target:<6} median {medians[target]:>10.0f} req/s over {len(rates)} rounds")
if medians.get("nginx") and "parry" in medians:
    ratio = medians["parry"] / medians["nginx"]
    print(f"gzip   parry/nginx {ratio:.2f} (goal >= 0.9: {'met' if ratio >= 0.9 else 'MISSED'})")
PY
}

main() {
  command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
  ensure_nginx
  ensure_gateway_jar
  raise_fd_limit
  RESULTS=$(results_dir compression)
  mkdir -p "$RESULTS/www"
  make_body "$RESULTS/www/todos.json"
  gateway_config "$RESULTS/config/gateway.yaml" "$RESULTS/www/todos.json"
  start_nginx_gzip
  PARRY_CMD="\$JAVA \$JVM_FLAGS -jar $GATEWAY_JAR $RESULTS/config/gateway.yaml" \
    start_server parry "$PARRY_PORT" "$JVM_FLAGS" "$RESULTS/parry.log"
  local target round
  for target in $TARGETS; do check_gzip "$target"; done
  for target in $TARGETS; do warm_up run_wrk "$target"; done
  for ((round = 1; round <= ROUNDS; round++)); do
    while read -r target; do run_wrk "$target" "$DURATION" "r$round"; done < <(rotated "$round" "$TARGETS")
  done
  cleanup
  CHILD_PIDS=()
  {
    echo "command: LEVEL=$LEVEL ROUNDS=$ROUNDS DURATION=$DURATION CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS benchmarks/compression.sh"
    echo "java: $(java_version); $(nproc) cores; nginx: $("$(nginx_binary)" -v 2>&1)"
    summarize
  } | tee "$RESULTS/summary.txt"
}

main "$@"
