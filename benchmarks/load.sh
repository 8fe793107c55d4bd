#!/usr/bin/env bash
# Side-by-side wrk load test: Parry's hello example against the raw-Netty baseline, same JVM flags, same run.
# Prints median req/s, p50 and p99 per scenario and server, and the Parry/baseline ratios. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
DELAY_DURATION=${DELAY_DURATION:-15s}
SCENARIOS=${SCENARIOS:-plaintext json echo delay}
BASELINE_PORT=${BASELINE_PORT:-8081}
PARRY_PORT=${PARRY_PORT:-8080}
DELAY_MS=100
DELAY_CONNECTIONS=1000

# wrk_args SCENARIO PORT DURATION: sets WRK_ARGS to the wrk command line of one run.
wrk_args() {
  local scenario=$1 url=http://127.0.0.1:$2 duration=$3
  case $scenario in
    plaintext) WRK_ARGS=(-t1 -c64 -d"$duration" --latency "$url/plaintext") ;;
    json) WRK_ARGS=(-t1 -c64 -d"$duration" --latency "$url/json") ;;
    echo) WRK_ARGS=(-t1 -c64 -d"$duration" --latency -s benchmarks/echo-1k.lua "$url/echo") ;;
    echo-varied) WRK_ARGS=(-t1 -c64 -d"$duration" --latency -s benchmarks/echo-1k-varied.lua "$url/echo") ;;
    delay) WRK_ARGS=(-t1 -c"$DELAY_CONNECTIONS" -d"$DELAY_DURATION" --latency "$url/delay?ms=$DELAY_MS") ;;
    todo | todo-annotated) WRK_ARGS=(-t1 -c64 -d"$duration" --latency -s benchmarks/todo.lua "$url/todos") ;;
    *) echo "unknown scenario: $scenario (expected: plaintext json echo echo-varied delay todo todo-annotated)" >&2; exit 1 ;;
  esac
}

# run_wrk SCENARIO TARGET PORT PID DURATION LABEL: one wrk run, kept in $RESULTS/SCENARIO.TARGET.LABEL.txt with the
# CPU clock ticks the server (PID) used meanwhile.
run_wrk() {
  local scenario=$1 target=$2 port=$3 pid=$4 duration=$5 label=$6 ticks
  local out=$RESULTS/$scenario.$target.$label.txt
  wrk_args "$scenario" "$port" "$duration"
  echo "wrk ${WRK_ARGS[*]}" >"$out"
  ticks=$(cpu_ticks "$pid")
  wrk "${WRK_ARGS[@]}" >>"$out" 2>&1 || echo "warning: wrk failed for $target, see $out" >&2
  echo "server CPU: $(($(cpu_ticks "$pid") - ticks)) ticks of $(getconf CLK_TCK) a second" >>"$out"
  printf '  %-11s %-8s %-6s %s\n' "$scenario" "$target" "$label" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

# run_scenario SCENARIO: both servers up, both warmed, then ROUNDS rounds alternating which goes first.
run_scenario() {
  local scenario=$1 round baseline_pid parry_pid saved_parry=${PARRY_CMD:-} saved_baseline=${BASELINE_CMD:-}
  echo "== $scenario"
  if [[ $scenario == todo ]]; then
    # Typed JSON (decode, validate, encode) has its own pair of servers in the benchmarks jar.
    PARRY_CMD=${TODO_PARRY_CMD:-'$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.todo.ParryTodoServer'}
    BASELINE_CMD=${TODO_BASELINE_CMD:-'$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.todo.NettyTodoServer'}
  elif [[ $scenario == todo-annotated ]]; then
    # The same endpoint generated from an annotated controller, against the same Netty + Jackson baseline.
    PARRY_CMD='$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.todo.AnnotatedTodoServer'
    BASELINE_CMD='$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.todo.NettyTodoServer'
  fi
  start_server baseline "$BASELINE_PORT" "$JVM_FLAGS" "$RESULTS/$scenario.baseline.server.log"
  baseline_pid=$SERVER_PID
  start_server parry "$PARRY_PORT" "$JVM_FLAGS" "$RESULTS/$scenario.parry.server.log"
  parry_pid=$SERVER_PID
  warm_up run_wrk "$scenario" baseline "$BASELINE_PORT" "$baseline_pid"
  warm_up run_wrk "$scenario" parry "$PARRY_PORT" "$parry_pid"
  for ((round = 1; round <= ROUNDS; round++)); do
    if ((round % 2)); then
      run_wrk "$scenario" baseline "$BASELINE_PORT" "$baseline_pid" "$DURATION" "r$round"
      run_wrk "$scenario" parry "$PARRY_PORT" "$parry_pid" "$DURATION" "r$round"
    else
      run_wrk "$scenario" parry "$PARRY_PORT" "$parry_pid" "$DURATION" "r$round"
      run_wrk "$scenario" baseline "$BASELINE_PORT" "$baseline_pid" "$DURATION" "r$round"
    fi
  done
  stop_pid "$parry_pid"
  stop_pid "$baseline_pid"
  PARRY_CMD=$saved_parry
  BASELINE_CMD=$saved_baseline
}

# summarize DIR: parses the rounds' wrk output and prints the median table.
summarize() {
  python3 - "$1" "$SCENARIOS" "$DELAY_CONNECTIONS" "$DELAY_MS" <<'PY'
import glob, os, re, statistics, sys

results, scenarios, delay_connections, delay_ms = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), int(sys.argv[4])
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0, "h": 3600000.0}

def parse(path):
    text = open(path).read()
    rps = re.search(r"^Requests/sec:\s*([\d.]+)", text, re.M)
    if not rps:
        return None
    pct = {p: float(v) * UNIT_MS[u] for p, v, u in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s|m|h)\s*$", text, re.M)}
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors = sum(int(n) for n in sockets.groups()) if sockets else 0
    errors += sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", text))
    # Server CPU per request (microseconds of a core) depends less on what else the machine runs than req/s does.
    requests = re.search(r"^\s*(\d+) requests in", text, re.M)
    cpu = re.search(r"^server CPU: (\d+) ticks of (\d+) a second", text, re.M)
    cpu_us = int(cpu.group(1)) * 1e6 / int(cpu.group(2)) / int(requests.group(1)) if cpu and requests else None
    return float(rps.group(1)), pct.get("50"), pct.get("99"), errors, cpu_us

def medians(scenario, target):
    runs = [parse(p) for p in sorted(glob.glob(os.path.join(results, f"{scenario}.{target}.r*.txt")))]
    runs = [r for r in runs if r and r[1] is not None and r[2] is not None]
    if not runs:
        return None
    cpu = [r[4] for r in runs if r[4] is not None]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            statistics.median(r[2] for r in runs), sum(r[3] for r in runs), len(runs),
            statistics.median(cpu) if cpu else float("nan"))

print(f"{'scenario':<12}{'server':<10}{'req/s':>11}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'rounds':>8}{'cpu us':>8}"
      f"{'req/s P/B':>11}{'p99 P/B':>9}{'cpu P/B':>9}")
delay_lines = []
for scenario in scenarios:
    rows = {t: medians(scenario, t) for t in ("baseline", "parry")}
    for target, row in rows.items():
        if row is None:
            print(f"{scenario:<12}{target:<10}{'no valid wrk result':>30}")
            continue
        rps, p50, p99, errors, n, cpu_us = row
        ratio = ""
        base = rows["baseline"]
        if target == "parry" and base:
            ratio = f"{rps / base[0]:>11.2f}{p99 / base[2]:>9.2f}{cpu_us / base[5]:>9.2f}"
        print(f"{scenario:<12}{target:<10}{rps:>11.0f}{p50:>9.2f}{p99:>9.2f}{errors:>8}{n:>8}{cpu_us:>8.2f}{ratio}")
    if scenario == "delay":
        ideal = delay_connections * 1000 / delay_ms
        reached = ", ".join(f"{t} {r[0]:.0f} ({r[0] / ideal:.1%})" for t, r in rows.items() if r)
        delay_lines.append(f"delay: ideal {ideal:.0f} req/s ({delay_connections} connections / {delay_ms} ms); {reached}")
for line in delay_lines:
    print(line)
PY
}

main() {
  ensure_wrk
  ensure_jars parry baseline
  raise_fd_limit
  RESULTS=$(results_dir load)
  local scenario
  echo "results in $RESULTS (ulimit -n $(ulimit -n), JVM_FLAGS='$JVM_FLAGS')"
  for scenario in $SCENARIOS; do
    run_scenario "$scenario"
  done
  {
    echo
    echo "command: ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP DELAY_DURATION=$DELAY_DURATION" \
      "SCENARIOS='$SCENARIOS' JVM_FLAGS='$JVM_FLAGS' benchmarks/load.sh"
    echo "baseline: $(server_command baseline)"
    echo "parry:    $(server_command parry)"
    echo "java:     $(java_version)"
    echo "wrk:      $(wrk -v 2>&1 | head -n 1); $(nproc) cores; $(uname -sr)"
    echo
    summarize "$RESULTS"
  } | tee "$RESULTS/summary.txt"
}

main "$@"
