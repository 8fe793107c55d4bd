#!/usr/bin/env bash
# Proxied plaintext, HTTP/1.1 to HTTP/2 against HTTP/1.1 to HTTP/1.1: wrk (HTTP/1.1) through Parry's proxy example to
# the raw-Netty HTTP/1.1 baseline (h1h1), and through a second proxy that speaks h2c with prior knowledge to a raw
# Netty HTTP/2 upstream (h1h2, io.parry.benchmarks.upstream.H2cPlaintextServer), in interleaved rounds. Prints the
# median req/s, p50 and p99 of each and the h1h2/h1h1 req/s ratio. A short smoke run:
#   ROUNDS=1 DURATION=3s WARMUP=2s CONNECTIONS=16 benchmarks/proxy-h2.sh
# checks that it works, not the ratio: the HTTP/2 path (the proxy's client and the upstream) is still being compiled
# after 2 s and shows a third of its warm rate; compare with the default warm-up, which runs until steady (common.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:-$JVM_FLAGS}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-1}
H1_UPSTREAM_PORT=${H1_UPSTREAM_PORT:-8170}
H2_UPSTREAM_PORT=${H2_UPSTREAM_PORT:-8173}
H1H1_PORT=${H1H1_PORT:-8172}
H1H2_PORT=${H1H2_PORT:-8174}
H2C_UPSTREAM_CMD="\$JAVA \$JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.upstream.H2cPlaintextServer"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
ensure_jars baseline proxy
raise_fd_limit
RESULTS=$(results_dir proxy-h2)

start_server baseline "$H1_UPSTREAM_PORT" "$UPSTREAM_JVM_FLAGS" "$RESULTS/h1-upstream.log"
BASELINE_CMD=$H2C_UPSTREAM_CMD start_server baseline "$H2_UPSTREAM_PORT" "$UPSTREAM_JVM_FLAGS" "$RESULTS/h2-upstream.log"
UPSTREAM=http://127.0.0.1:$H1_UPSTREAM_PORT UPSTREAM_PROTOCOL=http1 \
  start_server proxy "$H1H1_PORT" "$JVM_FLAGS" "$RESULTS/proxy-h1h1.log"
wait_for_200 "http://127.0.0.1:$H1H1_PORT/plaintext" "$SERVER_PID" "$RESULTS/proxy-h1h1.log"
UPSTREAM=http://127.0.0.1:$H2_UPSTREAM_PORT UPSTREAM_PROTOCOL=h2c \
  start_server proxy "$H1H2_PORT" "$JVM_FLAGS" "$RESULTS/proxy-h1h2.log"
wait_for_200 "http://127.0.0.1:$H1H2_PORT/plaintext" "$SERVER_PID" "$RESULTS/proxy-h1h2.log"

# run_wrk TARGET PORT DURATION LABEL: one wrk run, kept in $RESULTS/TARGET.LABEL.txt.
run_wrk() {
  local out=$RESULTS/$1.$4.txt
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$3" --latency "http://127.0.0.1:$2/plaintext" >"$out" 2>&1 \
    || echo "warning: wrk failed for $1, see $out" >&2
  printf '  %-5s %-6s %s\n' "$1" "$4" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

warm_up run_wrk h1h1 "$H1H1_PORT"
warm_up run_wrk h1h2 "$H1H2_PORT"
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2)); then order="h1h1 h1h2"; else order="h1h2 h1h1"; fi
  for target in $order; do
    if [[ $target == h1h1 ]]; then port=$H1H1_PORT; else port=$H1H2_PORT; fi
    run_wrk "$target" "$port" "$DURATION" "r$round"
  done
done

python3 - "$RESULTS" <<'PY'
import glob, os, re, statistics, sys

results = sys.argv[1]
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}

def parse(path):
    text = open(path).read()
    rps = re.search(r"^Requests/sec:\s*([\d.]+)", text, re.M)
    pct = {p: float(v) * UNIT_MS[u] for p, v, u in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)}
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", text))
    return (float(rps.group(1)), pct.get("50"), pct.get("99"), errors) if rps else None

medians = {}
print(f"{'via':<6}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
for target in ("h1h1", "h1h2"):
    runs = [r for r in (parse(p) for p in sorted(glob.glob(os.path.join(results, f"{target}.r*.txt")))) if r]
    if not runs:
        print(f"{target:<6}{'no valid wrk result':>30}")
        continue
    medians[target] = statistics.median(r[0] for r in runs)
    print(f"{target:<6}{medians[target]:>10.0f}{statistics.median(r[1] for r in runs):>9.2f}"
          f"{statistics.median(r[2] for r in runs):>9.2f}{sum(r[3] for r in runs):>8}")
if len(medians) == 2:
    print(f"h1h2 / h1h1 req/s: {medians['h1h2'] / medians['h1h1']:.2f}")
PY
echo "results: $RESULTS"
