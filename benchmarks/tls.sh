#!/usr/bin/env bash
# HTTPS, the Parry gateway against NGINX with the same EC P-256 certificate (made here with openssl), protocols and
# cipher: new handshakes per second (wrk with "Connection: close", a full handshake per request, no resumption),
# keep-alive throughput of a route answering a fixed body, and HTTPS proxied to a plaintext upstream (the raw-Netty
# baseline), in interleaved rounds with medians; then, unless IDLE=0, heap and RSS per idle TLS connection against
# cleartext (benchmarks/idle.sh with the gateway as the server). Issue 15 asks for >= 0.9x NGINX (handshakes,
# keep-alive), >= 0.8x proxied, and idle TLS <= 2x cleartext. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
source "$ROOT/benchmarks/nginx/nginx.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-2}
SCENARIOS=${SCENARIOS:-handshake keepalive proxied}
TARGETS=${TARGETS:-nginx parry}
IDLE=${IDLE:-1}
IDLE_CONNECTIONS=${IDLE_CONNECTIONS:-10000}
UPSTREAM_PORT=${UPSTREAM_PORT:-8110}
NGINX_PORT=${NGINX_PORT:-8111}
PARRY_PORT=${PARRY_PORT:-8112}
GATEWAY_JAR=$ROOT/parry-gateway/target/parry-gateway.jar

# make_certificate DIR: a self-signed EC P-256 certificate for localhost and 127.0.0.1, key in PKCS#8 PEM.
make_certificate() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$1/key.pem" -out "$1/cert.pem" 2>/dev/null
}

# gateway_config FILE TLS: the gateway's YAML, its port from ${PORT}; TLS (1|0) says whether the listener is HTTPS.
gateway_config() {
  {
    echo "listener:"
    echo "  host: 127.0.0.1"
    echo "  port: \${PORT}"
    if [[ $2 == 1 ]]; then
      echo "  tls:"
      echo "    certificates: [{ chain: $RESULTS/cert.pem, key: $RESULTS/key.pem }]"
    fi
    echo "admin: { port: 0 }"
    echo "accessLog: off"
    echo "metrics: off"
    echo "tracing: false"
    # 10,000 TLS handshakes from one client take minutes on a loaded machine: the default 60 s idle timeout would
    # close the first connections before the last are open, and idle.sh would measure fewer than it asked for.
    echo "timeouts: { idle: 1h }"
    echo "upstreams:"
    echo "  baseline: { endpoints: [\"127.0.0.1:$UPSTREAM_PORT\"] }"
    echo "routes:"
    echo "  - { match: { path: /plaintext }, respond: { status: 200, body: \"Hello, World!\", contentType: text/plain } }"
    echo "  - { match: { prefix: /proxy }, proxy: { upstream: baseline, stripPrefix: /proxy } }"
  } >"$1"
}

start_nginx_tls() {
  local prefix=$RESULTS/nginx user=''
  mkdir -p "$prefix"
  if ((EUID == 0)); then
    chmod 755 "$prefix" "$RESULTS"
    chmod 644 "$RESULTS/key.pem"
    user="user nobody $(id -gn nobody 2>/dev/null || echo nogroup);"
  fi
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@WORKERS@|$(nproc)|g" -e "s|@PORT@|$NGINX_PORT|g" \
    -e "s|@UPSTREAM_PORT@|$UPSTREAM_PORT|g" -e "s|@CERT@|$RESULTS/cert.pem|g" -e "s|@KEY@|$RESULTS/key.pem|g" \
    -e "s|@USER@|$user|g" "$ROOT/benchmarks/nginx/tls.conf.template" >"$prefix/nginx.conf"
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

# run_wrk SCENARIO TARGET DURATION LABEL: one wrk run, kept in $RESULTS/SCENARIO.TARGET.LABEL.txt.
run_wrk() {
  local scenario=$1 target=$2 duration=$3 label=$4 out=$RESULTS/$1.$2.$4.txt path=/plaintext args
  args=(-t"$WRK_THREADS" -c"$CONNECTIONS" -d"$duration" --latency)
  [[ $scenario == handshake ]] && args+=(-H "Connection: close")
  [[ $scenario == proxied ]] && path=/proxy/plaintext
  args+=("https://127.0.0.1:$(target_port "$target")$path")
  echo "wrk ${args[*]}" >"$out"
  wrk "${args[@]}" >>"$out" 2>&1 || echo "warning: wrk failed for $target, see $out" >&2
  printf '  %-10s %-6s %-6s %s\n' "$scenario" "$target" "$label" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

summarize() {
  python3 - "$RESULTS" "$SCENARIOS" "$TARGETS" <<'PY'
import glob, re, statistics, sys
results, scenarios, targets = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
goals = {"handshake": 0.9, "keepalive": 0.9, "proxied": 0.8}
for scenario in scenarios:
    medians = {}
    for target in targets:
        rates = []
        for path in glob.glob(f"{results}/{scenario}.{target}.r*.txt"):
            m = re.search(r"^Requests/sec:\s*([\d.]+)", open(path).read(), re.M)
            if m:
                rates.append(float(m.group(1)))
        medians[target] = statistics.median(rates) if rates else 0.0
        print(f"{scenario:<10} {target:<6} median {medians[target]:>10.0f} req/s over {len(rates)} rounds")
    if medians.get("nginx") and "parry" in medians:
        ratio = medians["parry"] / medians["nginx"]
        goal = goals[scenario]
        print(f"{scenario:<10} parry/nginx {ratio:.2f} (goal >= {goal}: {'met' if ratio >= goal else 'MISSED'})")
PY
}

# idle_ratio: heap, RSS and native memory per idle TLS connection next to the cleartext figures (issue 15's goal: heap
# and RSS each <= 2x). The heap figure is the live objects of a class histogram (after a full GC), which the heap's
# "used" after a GC (shown too) is not: it moved by 40% between runs. The heap is pre-touched, so RSS grows by native
# memory alone, which a cleartext connection hardly uses: its RSS figure is mostly noise, and heap + native is what a
# connection costs in all. Then, class by class, what a TLS connection holds on the heap beyond a cleartext one.
idle_ratio() {
  python3 - "$RESULTS/idle-cleartext.txt" "$RESULTS/idle-tls.txt" <<'PY'
import sys

def per_connection(path):
    rows = [line.split() for line in open(path) if line.startswith("parry ")]
    if not rows:
        return None
    row = rows[-1]
    native = float(row[8]) if len(row) > 8 and row[8] != "-" else None
    return float(row[9]), float(row[6]), float(row[7]), native

clear, tls = per_connection(sys.argv[1]), per_connection(sys.argv[2])
if not clear or not tls:
    sys.exit("no idle figures to compare")
figures = [("heap (live)", clear[0], tls[0]), ("RSS", clear[2], tls[2]), ("heap (used)", clear[1], tls[1])]
if clear[3] is not None and tls[3] is not None:
    figures += [("native", clear[3], tls[3]), ("heap + native", clear[0] + clear[3], tls[0] + tls[3])]
print()
print(f"{'idle KiB/connection':<20}{'cleartext':>10}{'TLS':>10}{'TLS/cleartext':>15}")
for name, c, t in figures:
    ratio = f"{t / c:.2f}" if c > 0 else "-"
    print(f"{name:<20}{c:>10.2f}{t:>10.2f}{ratio:>15}")
for name, c, t in figures[:2]:
    print(f"TLS/cleartext {name}: goal <= 2: {'met' if c > 0 and t / c <= 2 else 'MISSED'}")
PY
  if [[ -f $RESULTS/cleartext.parry.classes.tsv && -f $RESULTS/tls.parry.classes.tsv ]]; then
    echo
    python3 "$ROOT/benchmarks/heap_classes.py" compare "$RESULTS/cleartext.parry.classes.tsv" \
      "$RESULTS/tls.parry.classes.tsv"
  fi
}

main() {
  command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
  command -v openssl >/dev/null || { echo "openssl is missing: apt-get install openssl" >&2; exit 1; }
  ensure_nginx
  ensure_jars baseline
  [[ -f $GATEWAY_JAR ]] || mvn -B -q -DskipTests package -pl parry-gateway -am
  raise_fd_limit
  RESULTS=$(results_dir tls)
  make_certificate "$RESULTS"
  gateway_config "$RESULTS/config/gateway-tls.yaml" 1
  gateway_config "$RESULTS/config/gateway-cleartext.yaml" 0
  start_server baseline "$UPSTREAM_PORT" "$JVM_FLAGS" "$RESULTS/baseline.log"
  start_nginx_tls
  PARRY_CMD="\$JAVA \$JVM_FLAGS -jar $GATEWAY_JAR $RESULTS/config/gateway-tls.yaml" \
    start_server parry "$PARRY_PORT" "$JVM_FLAGS" "$RESULTS/parry.log"
  echo "TLS provider: $(grep -ho 'TLS by [^(]*' "$RESULTS/parry.log" | head -1 || true)"
  local scenario target round
  for scenario in $SCENARIOS; do
    echo "== $scenario"
    for target in $TARGETS; do warm_up run_wrk "$scenario" "$target"; done
    for ((round = 1; round <= ROUNDS; round++)); do
      for target in $TARGETS; do run_wrk "$scenario" "$target" "$DURATION" "r$round"; done
    done
  done
  cleanup
  CHILD_PIDS=()
  {
    echo "command: ROUNDS=$ROUNDS DURATION=$DURATION CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS benchmarks/tls.sh"
    echo "java: $(java_version); $(nproc) cores; nginx: $("$(nginx_binary)" -v 2>&1)"
    summarize
  } | tee "$RESULTS/summary.txt"
  if [[ $IDLE == 1 ]]; then
    # The same gateway, cleartext then TLS, as idle.sh's server; IdleConnections speaks TLS when TLS=1.
    PARRY_CMD="\$JAVA \$JVM_FLAGS -jar $GATEWAY_JAR $RESULTS/config/gateway-cleartext.yaml" TARGET=parry TLS=0 CONNECTIONS=$IDLE_CONNECTIONS \
      CLASSES_PREFIX=$RESULTS/cleartext. \
      "$ROOT/benchmarks/idle.sh" | tee "$RESULTS/idle-cleartext.txt" | tee -a "$RESULTS/summary.txt"
    PARRY_CMD="\$JAVA \$JVM_FLAGS -jar $GATEWAY_JAR $RESULTS/config/gateway-tls.yaml" TARGET=parry TLS=1 CONNECTIONS=$IDLE_CONNECTIONS \
      CLASSES_PREFIX=$RESULTS/tls. \
      "$ROOT/benchmarks/idle.sh" | tee "$RESULTS/idle-tls.txt" | tee -a "$RESULTS/summary.txt"
    idle_ratio | tee -a "$RESULTS/summary.txt"
  fi
}

main "$@"
