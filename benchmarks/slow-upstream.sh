#!/usr/bin/env bash
# Slow upstreams behind a proxy: 1,000 connections to the baseline's GET /delay?ms=150, called directly, through
# NGINX and through Parry's proxy example; then 1,000 connections to /delay?ms=15000 through each proxy, counting
# completed requests and errors, with Parry's threads, RSS and heap after a full GC sampled before, during and after.
# See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
FIRST_PORT=8150
source "$ROOT/benchmarks/proxy-common.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:-$JVM_FLAGS}
CONNECTIONS=${CONNECTIONS:-1000}
WRK_THREADS=${WRK_THREADS:-2}
# Five rounds because one round's p99 moves by several ms on a noisy machine; the warm-up runs until steady (see
# common.sh) because the proxy's JIT is still compiling after 10 s of this load, which made the first round the slowest.
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
WARMUP=${WARMUP:-60s}
SHORT_MS=${SHORT_MS:-150}
SHORT_DURATION=${SHORT_DURATION:-15s}
LONG_MS=${LONG_MS:-15000}
LONG_SECONDS=${LONG_SECONDS:-50}
LONG_WARMUP=${LONG_WARMUP:-5s}
SETTLE_SECONDS=${SETTLE_SECONDS:-16}
SAMPLE_SECONDS=${SAMPLE_SECONDS:-5}
TARGETS=${TARGETS:-direct nginx parry}
LONG_TARGETS=${LONG_TARGETS:-nginx parry}

# wrk_command SCENARIO TARGET DURATION: sets WRK_ARGS; the timeout is well above the longest delay.
wrk_command() {
  local ms
  ms=$([[ $1 == long ]] && echo "$LONG_MS" || echo "$SHORT_MS")
  WRK_ARGS=(-t"$WRK_THREADS" -c"$CONNECTIONS" -d"$3" --timeout 20s --latency
    "http://127.0.0.1:$(target_port "$2")/delay?ms=$ms")
}

# run_wrk SCENARIO TARGET DURATION LABEL: one wrk run in the foreground, kept in $RESULTS/SCENARIO.TARGET.LABEL.txt.
run_wrk() {
  local out=$RESULTS/$1.$2.$4.txt
  wrk_command "$1" "$2" "$3"
  echo "wrk ${WRK_ARGS[*]}" >"$out"
  wrk "${WRK_ARGS[@]}" >>"$out" 2>&1 || echo "warning: wrk failed for $2, see $out" >&2
  printf '  %-6s %-7s %-6s %s\n' "$1" "$2" "$4" "$(grep -h 'Requests/sec' "$out" || echo 'no result')"
}

run_short() {
  local target round
  echo "== $CONNECTIONS connections, upstream answers after $SHORT_MS ms"
  for target in $TARGETS; do
    warm_up run_wrk short "$target"
  done
  for ((round = 1; round <= ROUNDS; round++)); do
    for target in $(rotated "$round" "$TARGETS"); do
      run_wrk short "$target" "$SHORT_DURATION" "r$round"
    done
  done
}

# process_sample LABEL: one line of Parry's process figures: threads, RSS KiB, heap KiB after a forced full GC.
process_sample() {
  local heap
  heap=$(heap_after_gc_kib "$PROXY_PID")
  echo "$1 $(proc_status_value "$PROXY_PID" Threads) $(proc_status_value "$PROXY_PID" VmRSS) $heap" \
    >>"$RESULTS/long.parry.process.txt"
}

# sample_process STOP_FILE: threads and RSS every SAMPLE_SECONDS, without forcing GCs, until STOP_FILE exists (and
# for an hour at most). Stopping by a file rather than a signal leaves no orphaned sleep behind.
sample_process() {
  local i
  for ((i = 0; i * SAMPLE_SECONDS < 3600; i++)); do
    [[ -e $1 ]] && return 0
    echo "$((i * SAMPLE_SECONDS)) $(proc_status_value "$PROXY_PID" Threads) $(proc_status_value "$PROXY_PID" VmRSS)"
    sleep "$SAMPLE_SECONDS"
  done
}

# run_long TARGET: LONG_SECONDS of CONNECTIONS connections each waiting LONG_MS per request. For Parry, the forced-GC
# "during" sample falls halfway through the run, between two waves of answers, so its pause delays none of them.
run_long() {
  local target=$1 out=$RESULTS/long.$1.r1.txt wrk_pid sampler_pid
  # Each proxy drops upstream connections idle for 60 s, and the other target's long run lasts longer than that:
  # a short warm-up first means neither starts with an emptied pool. The second lets the warm-up's cut-off
  # requests end upstream.
  run_wrk short "$target" "$LONG_WARMUP" long-warmup
  sleep 1
  wrk_command long "$target" "${LONG_SECONDS}s"
  echo "wrk ${WRK_ARGS[*]}" >"$out"
  if [[ $target != parry ]]; then
    wrk "${WRK_ARGS[@]}" >>"$out" 2>&1 || echo "warning: wrk failed for $target, see $out" >&2
  else
    process_sample before
    sample_process "$RESULTS/long.parry.stop" >"$RESULTS/long.parry.samples.txt" &
    sampler_pid=$!
    CHILD_PIDS+=("$sampler_pid")
    wrk "${WRK_ARGS[@]}" >>"$out" 2>&1 &
    wrk_pid=$!
    CHILD_PIDS+=("$wrk_pid")
    sleep $((LONG_SECONDS / 2))
    process_sample during
    wait "$wrk_pid" || echo "warning: wrk failed for $target, see $out" >&2
    forget_pid "$wrk_pid"
    # Requests cut off when wrk stopped may still be waiting upstream; "after" is once they must have ended.
    sleep "$SETTLE_SECONDS"
    process_sample after
    touch "$RESULTS/long.parry.stop"
    wait "$sampler_pid" || true
    forget_pid "$sampler_pid"
  fi
  printf '  %-6s %-7s %-6s %s\n' long "$target" r1 "$(grep -h 'requests in' "$out" || echo 'no result')"
}

# summarize DIR: the latency table, the verdicts against issue 4's targets, and Parry's process samples.
summarize() {
  python3 - "$1" "$TARGETS" "$LONG_TARGETS" "$CONNECTIONS" "$SHORT_MS" "$LONG_MS" "$LONG_SECONDS" <<'PY'
import glob, os, re, statistics, sys

results, targets, long_targets = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
connections, short_ms, long_ms, long_seconds = (int(a) for a in sys.argv[4:8])
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0, "h": 3600000.0}

def parse(path):
    text = open(path).read()
    count = re.search(r"^\s*(\d+) requests in", text, re.M)
    rps = re.search(r"^Requests/sec:\s*([\d.]+)", text, re.M)
    if not count or not rps:
        return None
    pct = {p: float(v) * UNIT_MS[u] for p, v, u in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s|m|h)\s*$", text, re.M)}
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    socket_errors = sum(int(n) for n in sockets.groups()) if sockets else 0
    non_2xx = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", text))
    return int(count.group(1)), float(rps.group(1)), pct.get("50"), pct.get("99"), socket_errors, non_2xx

def medians(scenario, target):
    runs = [parse(p) for p in sorted(glob.glob(os.path.join(results, f"{scenario}.{target}.r*.txt")))]
    runs = [r for r in runs if r and r[2] is not None and r[3] is not None]
    if not runs:
        return None
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            statistics.median(r[2] for r in runs), statistics.median(r[3] for r in runs),
            sum(r[4] for r in runs), sum(r[5] for r in runs), len(runs))

print(f"{'upstream delay':<16}{'via':<8}{'requests':>9}{'req/s':>8}{'p50 ms':>10}{'p99 ms':>10}"
      f"{'sock err':>9}{'non-2xx':>8}{'rounds':>7}")
rows = {}
for scenario, delay, names in (("short", short_ms, targets), ("long", long_ms, long_targets)):
    for target in names:
        row = rows[scenario, target] = medians(scenario, target)
        label = f"{delay} ms"
        if row is None:
            print(f"{label:<16}{target:<8}{'no valid wrk result':>30}")
            continue
        count, rps, p50, p99, socket_errors, non_2xx, n = row
        print(f"{label:<16}{target:<8}{count:>9.0f}{rps:>8.0f}{p50:>10.1f}{p99:>10.1f}{socket_errors:>9}{non_2xx:>8}{n:>7}")

ideal = connections * 1000 / short_ms
print(f"{short_ms} ms: ideal {ideal:.0f} req/s ({connections} connections / {short_ms} ms); " + ", ".join(
    f"{t} {rows['short', t][1] / ideal:.1%}" for t in targets if rows.get(("short", t))))
parry = rows.get(("short", "parry"))
if parry:
    limit = short_ms * 1.1
    print(f"{short_ms} ms via Parry: p99 {parry[3]:.1f} ms (target <= {limit:.0f} ms: {'met' if parry[3] <= limit else 'MISSED'})")
expected = connections * (long_seconds * 1000 // long_ms)
for target in long_targets:
    row = rows.get(("long", target))
    if row:
        count, _, _, p99, socket_errors, non_2xx, _ = row
        complete = count >= expected and socket_errors == 0 and non_2xx == 0
        print(f"{long_ms} ms via {target}: {count:.0f} of {expected} expected requests, {socket_errors} socket errors,"
              f" {non_2xx} non-2xx ({'all completed' if complete else 'NOT all completed'}); p99 {p99 / 1000:.3f} s"
              f" (target <= {(long_ms + 50) / 1000:.2f} s: {'met' if p99 <= long_ms + 50 else 'MISSED'})")

process = os.path.join(results, "long.parry.process.txt")
if os.path.exists(process):
    print()
    print(f"Parry proxy during the {long_ms} ms run{'':<4}{'threads':>8}{'RSS MiB':>9}{'heap after full GC MiB':>24}")
    for line in open(process):
        label, threads, rss, heap = line.split()
        print(f"{label:<36}{threads:>8}{int(rss) / 1024:>9.1f}{int(heap) / 1024:>24.1f}")
    samples = [line.split() for line in open(os.path.join(results, "long.parry.samples.txt")) if len(line.split()) == 3]
    if samples:
        threads = [int(s[1]) for s in samples]
        rss = [int(s[2]) / 1024 for s in samples]
        print(f"every {samples[1][0] if len(samples) > 1 else '?'} s over {samples[-1][0]} s ({len(samples)} samples):"
              f" threads {min(threads)}-{max(threads)}, RSS {min(rss):.1f}-{max(rss):.1f} MiB")
PY
}

main() {
  ensure_wrk
  prepare_targets baseline "$TARGETS $LONG_TARGETS"
  raise_fd_limit
  RESULTS=$(results_dir slow-upstream)
  echo "results in $RESULTS (ulimit -n $(ulimit -n), JVM_FLAGS='$JVM_FLAGS')"
  start_targets baseline on "$JVM_FLAGS -Xlog:gc:file=$RESULTS/proxy.gc.log" "$TARGETS $LONG_TARGETS"
  run_short
  local target
  echo "== $CONNECTIONS connections, upstream answers after $LONG_MS ms, ${LONG_SECONDS}s each"
  for target in $LONG_TARGETS; do
    run_long "$target"
  done
  {
    echo
    echo "command: CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS ROUNDS=$ROUNDS WARMUP=$WARMUP SHORT_MS=$SHORT_MS" \
      "SHORT_DURATION=$SHORT_DURATION LONG_MS=$LONG_MS LONG_SECONDS=$LONG_SECONDS LONG_WARMUP=$LONG_WARMUP" \
      "TARGETS='$TARGETS'" \
      "LONG_TARGETS='$LONG_TARGETS' JVM_FLAGS='$JVM_FLAGS' benchmarks/slow-upstream.sh"
    describe_targets baseline "$TARGETS $LONG_TARGETS"
    echo "wrk:      $(wrk -v 2>&1 | head -n 1); $(nproc) cores; $(uname -sr)"
    echo
    summarize "$RESULTS"
  } | tee "$RESULTS/summary.txt"
}

main "$@"
