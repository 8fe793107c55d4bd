#!/usr/bin/env bash
# Side-by-side h2load test over h2c (prior knowledge): Parry's hello example against the raw-Netty HTTP/2 baseline
# (NettyHttp2BaselineServer), same JVM flags, same run. Two shapes: 1 connection x 100 streams, and 64 connections
# x 10 streams, on /plaintext. Prints median req/s, mean request time and server CPU per request (microseconds of a
# core, from /proc/PID/stat around each run: on a shared machine a steadier figure than req/s) per shape and server,
# and the Parry/baseline ratios. TLS=1 runs the same over TLS (h2 by ALPN, h2load on https): both servers get the same EC
# P-256 certificate (TLS_CERT, TLS_KEY) and use OpenSSL when netty-tcnative loads. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-60s}
SHAPES=${SHAPES:-c1m100 c64m10}
TLS=${TLS:-0}
BASELINE_PORT=${BASELINE_PORT:-8082}
PARRY_PORT=${PARRY_PORT:-8083}
BASELINE_CMD=${BASELINE_CMD:-"\$JAVA \$JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.baseline.NettyHttp2BaselineServer"}

# h2load_args SHAPE PORT SECONDS: sets H2LOAD_ARGS to the h2load command line of one run.
h2load_args() {
  local shape=$1 url=$SCHEME://127.0.0.1:$2/plaintext seconds=$3
  case $shape in
    c1m100) H2LOAD_ARGS=(-t1 -c1 -m100 -D "$seconds" "$url") ;;
    c64m10) H2LOAD_ARGS=(-t1 -c64 -m10 -D "$seconds" "$url") ;;
    *) echo "unknown shape: $shape (expected: c1m100 c64m10)" >&2; exit 1 ;;
  esac
}

# run_h2load SHAPE TARGET PORT SECONDS LABEL [PID]: one h2load run, kept in $RESULTS/SHAPE.TARGET.LABEL.txt, with the
# CPU clock ticks the server (PID) used meanwhile.
run_h2load() {
  local shape=$1 target=$2 port=$3 seconds=$4 label=$5 pid=${6:-} ticks
  local out=$RESULTS/$shape.$target.$label.txt
  h2load_args "$shape" "$port" "$seconds"
  echo "h2load ${H2LOAD_ARGS[*]}" >"$out"
  [[ -n $pid ]] && ticks=$(cpu_ticks "$pid")
  h2load "${H2LOAD_ARGS[@]}" >>"$out" 2>&1 || echo "warning: h2load failed for $target, see $out" >&2
  [[ -n $pid ]] && echo "server CPU: $(($(cpu_ticks "$pid") - ticks)) ticks of $(getconf CLK_TCK) a second" >>"$out"
  printf '  %-7s %-8s %-6s %s\n' "$shape" "$target" "$label" "$(grep -h '^finished in' "$out" || echo 'no result')"
}

# run_shape SHAPE: both servers up, both warmed, then ROUNDS rounds alternating which goes first.
run_shape() {
  local shape=$1 round baseline_pid parry_pid
  echo "== $shape"
  start_server baseline "$BASELINE_PORT" "$JVM_FLAGS" "$RESULTS/$shape.baseline.server.log"
  baseline_pid=$SERVER_PID
  start_server parry "$PARRY_PORT" "$JVM_FLAGS" "$RESULTS/$shape.parry.server.log"
  parry_pid=$SERVER_PID
  warm_up run_h2load "$shape" baseline "$BASELINE_PORT"
  warm_up run_h2load "$shape" parry "$PARRY_PORT"
  for ((round = 1; round <= ROUNDS; round++)); do
    if ((round % 2)); then
      run_h2load "$shape" baseline "$BASELINE_PORT" "$DURATION" "r$round" "$baseline_pid"
      run_h2load "$shape" parry "$PARRY_PORT" "$DURATION" "r$round" "$parry_pid"
    else
      run_h2load "$shape" parry "$PARRY_PORT" "$DURATION" "r$round" "$parry_pid"
      run_h2load "$shape" baseline "$BASELINE_PORT" "$DURATION" "r$round" "$baseline_pid"
    fi
  done
  stop_pid "$parry_pid"
  stop_pid "$baseline_pid"
}

# summarize DIR: parses the rounds' h2load output and prints the median table.
summarize() {
  python3 - "$1" "$SHAPES" <<'PY'
import glob, os, re, statistics, sys

results, shapes = sys.argv[1], sys.argv[2].split()
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}

def parse(path):
    text = open(path).read()
    rps = re.search(r"^finished in [^,]+, ([\d.]+) req/s", text, re.M)
    mean = re.search(r"^time for request:\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", text, re.M)
    done = re.search(r"^requests: .* (\d+) succeeded, (\d+) failed, (\d+) errored", text, re.M)
    if not rps or not mean:
        return None
    errors = int(done.group(2)) + int(done.group(3)) if done else 0
    errors += sum(int(n) for n in re.findall(r"^status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text, re.M)[0]) \
        if re.search(r"^status codes:", text, re.M) else 0
    # Server CPU per request (microseconds of a core) depends less on what else the machine runs than req/s does.
    cpu = re.search(r"^server CPU: (\d+) ticks of (\d+) a second", text, re.M)
    succeeded = int(done.group(1)) if done else 0
    cpu_us = int(cpu.group(1)) * 1e6 / int(cpu.group(2)) / succeeded if cpu and succeeded else None
    return float(rps.group(1)), float(mean.group(1)) * UNIT_MS[mean.group(2)], errors, cpu_us

def medians(shape, target):
    runs = [r for r in (parse(p) for p in sorted(glob.glob(os.path.join(results, f"{shape}.{target}.r*.txt")))) if r]
    if not runs:
        return None
    cpu = [r[3] for r in runs if r[3] is not None]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), sum(r[2] for r in runs),
            len(runs), statistics.median(cpu) if cpu else float("nan"))

print(f"{'shape':<9}{'server':<10}{'req/s':>11}{'mean ms':>9}{'errors':>8}{'rounds':>8}{'cpu us':>8}{'req/s P/B':>11}"
      f"{'cpu P/B':>9}")
for shape in shapes:
    rows = {t: medians(shape, t) for t in ("baseline", "parry")}
    for target, row in rows.items():
        if row is None:
            print(f"{shape:<9}{target:<10}{'no valid h2load result':>30}")
            continue
        rps, mean, errors, n, cpu_us = row
        base = rows["baseline"]
        ratio = f"{rps / base[0]:>11.2f}{cpu_us / base[4]:>9.2f}" if target == "parry" and base else ""
        print(f"{shape:<9}{target:<10}{rps:>11.0f}{mean:>9.2f}{errors:>8}{n:>8}{cpu_us:>8.2f}{ratio}")
PY
}

main() {
  command -v h2load >/dev/null || { echo "h2load is missing: apt-get install nghttp2-client" >&2; exit 1; }
  ensure_jars parry baseline
  raise_fd_limit
  RESULTS=$(results_dir h2)
  SCHEME=http
  if [[ $TLS == 1 ]]; then
    SCHEME=https
    # Both servers read these; the certificate is for 127.0.0.1, the address h2load connects to.
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
      -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout "$RESULTS/key.pem" -out "$RESULTS/cert.pem" 2>/dev/null
    export TLS_CERT=$RESULTS/cert.pem TLS_KEY=$RESULTS/key.pem
  fi
  local shape
  echo "results in $RESULTS (JVM_FLAGS='$JVM_FLAGS')"
  for shape in $SHAPES; do
    run_shape "$shape"
  done
  {
    echo
    echo "command: TLS=$TLS ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP SHAPES='$SHAPES' JVM_FLAGS='$JVM_FLAGS' benchmarks/h2.sh"
    if [[ $TLS == 1 ]]; then
      echo "tls:      baseline $(grep -h -m1 -o 'TLS with [A-Z]*' "$RESULTS"/*.baseline.server.log | head -n 1)," \
        "parry $(grep -h -m1 -o 'TLS by [A-Za-z]*' "$RESULTS"/*.parry.server.log | head -n 1);" \
        "$(grep -h -m1 '^Cipher' "$RESULTS"/*.r1.txt | head -n 1)"
    fi
    echo "baseline: $(server_command baseline)"
    echo "parry:    $(server_command parry)"
    echo "java:     $(java_version)"
    echo "h2load:   $(h2load --version 2>&1 | head -n 1); $(nproc) cores; $(uname -sr)"
    echo
    summarize "$RESULTS"
  } | tee "$RESULTS/summary.txt"
}

main "$@"
