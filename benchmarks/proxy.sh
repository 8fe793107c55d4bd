#!/usr/bin/env bash
# Proxied plaintext, side by side: the raw-Netty baseline as the upstream, called directly, through NGINX and
# through Parry's proxy example, in interleaved rounds. Prints median req/s, p50 and p99, the Parry/NGINX req/s
# ratio and each proxy's added p99 over the direct call, saturated and at a paced, unsaturated rate. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
FIRST_PORT=8100
source "$ROOT/benchmarks/proxy-common.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:-$JVM_FLAGS}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-60s}
CONNECTIONS=${CONNECTIONS:-64}
WRK_THREADS=${WRK_THREADS:-1}
PACE_MS=${PACE_MS:-10}
SCENARIOS=${SCENARIOS:-plaintext paced}
TARGETS=${TARGETS:-direct nginx parry}

# run_wrk SCENARIO TARGET DURATION LABEL: one wrk run, kept in $RESULTS/SCENARIO.TARGET.LABEL.txt.
run_wrk() {
  local scenario=$1 target=$2 duration=$3 label=$4 out=$RESULTS/$1.$2.$4.txt args
  args=(-t"$WRK_THREADS" -c"$CONNECTIONS" -d"$duration" --latency)
  # Paced: each connection waits PACE_MS after every response, so the proxies are compared below saturation.
  [[ $scenario == paced ]] && args+=(-s "$RESULTS/paced.lua")
  args+=("http://127.0.0.1:$(target_port "$target")/plaintext")
  [[ $scenario == paced ]] && args+=(-- "$PACE_MS")
  echo "wrk ${args[*]}" >"$out"
  wrk "${args[@]}" >>"$out" 2>&1 || echo "warning: wrk failed for $target, see $out" >&2
  printf '  %-9s %-7s %-6s %s\n' "$scenario" "$target" "$label" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

run_scenario() {
  local scenario=$1 target round
  echo "== $scenario"
  for target in $TARGETS; do
    warm_up run_wrk "$scenario" "$target"
  done
  for ((round = 1; round <= ROUNDS; round++)); do
    for target in $(rotated "$round" "$TARGETS"); do
      run_wrk "$scenario" "$target" "$DURATION" "r$round"
    done
  done
}

# summarize DIR: parses the rounds' wrk output and prints the median table and the figures issue 4 asks for.
summarize() {
  python3 - "$1" "$SCENARIOS" "$TARGETS" <<'PY'
import glob, os, re, statistics, sys

results, scenarios, targets = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
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
    return float(rps.group(1)), pct.get("50"), pct.get("99"), errors

def medians(scenario, target):
    runs = [parse(p) for p in sorted(glob.glob(os.path.join(results, f"{scenario}.{target}.r*.txt")))]
    runs = [r for r in runs if r and r[1] is not None and r[2] is not None]
    if not runs:
        return None
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            statistics.median(r[2] for r in runs), sum(r[3] for r in runs), len(runs))

print(f"{'scenario':<11}{'via':<8}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'+p99 ms':>9}{'errors':>8}{'rounds':>8}")
verdicts = []
for scenario in scenarios:
    rows = {t: medians(scenario, t) for t in targets}
    direct = rows.get("direct")
    for target, row in rows.items():
        if row is None:
            print(f"{scenario:<11}{target:<8}{'no valid wrk result':>30}")
            continue
        rps, p50, p99, errors, n = row
        added = f"{p99 - direct[2]:>+9.2f}" if direct and target != "direct" else f"{'':>9}"
        print(f"{scenario:<11}{target:<8}{rps:>10.0f}{p50:>9.2f}{p99:>9.2f}{added}{errors:>8}{n:>8}")
    parry, nginx = rows.get("parry"), rows.get("nginx")
    if scenario == "plaintext" and parry and nginx:
        ratio = parry[0] / nginx[0]
        verdicts.append(f"plaintext req/s Parry/NGINX: {ratio:.2f} (target >= 0.8: {'met' if ratio >= 0.8 else 'MISSED'};"
                        f" goal 1.0: {'met' if ratio >= 1.0 else 'not yet'})")
    if parry and direct:
        added = parry[2] - direct[2]
        nginx_added = f"; NGINX adds {nginx[2] - direct[2]:+.2f} ms" if nginx else ""
        verdicts.append(f"{scenario} p99 added by Parry over direct: {added:+.2f} ms"
                        f" (target <= 1 ms: {'met' if added <= 1.0 else 'MISSED'}){nginx_added}")
for line in verdicts:
    print(line)
PY
}

main() {
  ensure_wrk
  prepare_targets baseline "$TARGETS"
  raise_fd_limit
  RESULTS=$(results_dir proxy)
  printf 'local pace = 10\nfunction init(args) pace = tonumber(args[1]) or pace end\nfunction delay() return pace end\n' \
    >"$RESULTS/paced.lua"
  echo "results in $RESULTS (ulimit -n $(ulimit -n), JVM_FLAGS='$JVM_FLAGS')"
  start_targets baseline on "$JVM_FLAGS" "$TARGETS"
  local scenario
  for scenario in $SCENARIOS; do
    case $scenario in
      plaintext | paced) run_scenario "$scenario" ;;
      *) echo "unknown scenario: $scenario (expected: plaintext paced)" >&2; exit 1 ;;
    esac
  done
  {
    echo
    echo "command: ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS" \
      "PACE_MS=$PACE_MS SCENARIOS='$SCENARIOS' TARGETS='$TARGETS' JVM_FLAGS='$JVM_FLAGS' benchmarks/proxy.sh"
    describe_targets baseline "$TARGETS"
    echo "wrk:      $(wrk -v 2>&1 | head -n 1); $(nproc) cores; $(uname -sr)"
    echo "paced: each connection waits $PACE_MS ms after each response; +p99: the via's p99 minus direct's"
    echo
    summarize "$RESULTS"
  } | tee "$RESULTS/summary.txt"
}

main "$@"
