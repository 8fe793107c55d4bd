#!/usr/bin/env bash
# Goodput under overload (issue 17): an upstream that serves N requests/s at 100 ms (FixedCapacityServer: PERMITS
# permits, each held SERVICE_MS, so N = PERMITS * 1000 / SERVICE_MS; the excess waits in line) behind one gateway jar
# with two routes to it: /adaptive through a group with adaptiveConcurrency, /plain through one without. For each route
# in turn, vegeta (open loop: a constant rate whatever the answers) offers first RATE_UNLOADED for the unloaded p99,
# then OVERLOAD times N; printed per route: the share of N served (200s per second over N), p99 of the served against
# the unloaded p99, and how fast the 503s the limit sheds were answered (issue targets: >= 90% of N, p99 <= 2x
# unloaded, sheds within 1 ms). With ACCESS_LOG=json it also prints the sheds' times by the gateway's own clock and
# the connections they came on, and on Linux how long each process waited for a CPU during the overload, so that a
# shed tail can be told apart from the load generator's and the machine's. Bounded in time, 127.0.0.1 only. See
# README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:-}
PERMITS=${PERMITS:-50}
SERVICE_MS=${SERVICE_MS:-100}
OVERLOAD=${OVERLOAD:-3}
DURATION=${DURATION:-20s}
# 60s: the warm-up every published figure had.
WARMUP=${WARMUP:-60s}
UNLOADED_DURATION=${UNLOADED_DURATION:-10s}
DRAIN_SECONDS=${DRAIN_SECONDS:-15}
ROUTES=${ROUTES:-adaptive plain}
# The route's adaptiveConcurrency as YAML: on (the defaults) or a mapping of settings.
ADAPTIVE=${ADAPTIVE:-on}
# json: the gateway logs each request, and the summary adds the sheds' server-side times (head decoded by its event loop to last byte
# written) beside vegeta's, to tell the gateway's time from the load generator's and the machine's.
ACCESS_LOG=${ACCESS_LOG:-off}
# CPU lists for taskset (e.g. GATEWAY_CPUS=0 CLIENT_CPUS=1): the gateway on some cores, vegeta and the upstream on
# others, so that they do not take each other's time slices; empty (the default) runs them where the kernel likes.
GATEWAY_CPUS=${GATEWAY_CPUS:-}
CLIENT_CPUS=${CLIENT_CPUS:-}
# on: tcpdump records the gateway's port during each overload (root only), and the summary adds the sheds' times on
# the wire (vegeta's write of the request to the gateway's last write of the 503, as loopback stamps them): the
# gateway's event-loop lag and work without vegeta's own scheduling, between the gateway's clock and vegeta's.
CAPTURE=${CAPTURE:-off}
UPSTREAM_PORT=${UPSTREAM_PORT:-8140}
GATEWAY_PORT=${GATEWAY_PORT:-8141}
ADMIN_PORT=${ADMIN_PORT:-8142}
GATEWAY_CMD=${GATEWAY_CMD:-'$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar'}
UPSTREAM_CMD="\$JAVA -Xms256m -Xmx256m -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.capacity.FixedCapacityServer"
CAPACITY=$((PERMITS * 1000 / SERVICE_MS))
RATE_UNLOADED=${RATE_UNLOADED:-$((CAPACITY / 5))}
RATE_WARMUP=${RATE_WARMUP:-$((CAPACITY / 2))}
# The warm-up climbs to RATE_WARMUP in WARMUP_STEPS equal steps from RATE_WARMUP_START, which keeps 15 requests in
# flight: below the adaptive limit's initial 20, so that it sheds nothing while it learns, yet above half of it, the
# least traffic at which the limit grows. N/2 at once (25 in flight) was shed from the first second, before any sample
# could raise the limit: start-up, not what the probe or the overload show.
RATE_WARMUP_START=${RATE_WARMUP_START:-$((15 * 1000 / SERVICE_MS))}
WARMUP_STEPS=${WARMUP_STEPS:-4}
RATE_OVERLOAD=$((CAPACITY * OVERLOAD))
VEGETA=${VEGETA:-$(command -v vegeta || echo "$HOME/go/bin/vegeta")}

ensure_vegeta() {
  [[ -x $VEGETA ]] && return 0
  command -v go >/dev/null || { echo "vegeta is missing: install Go, then go install github.com/tsenart/vegeta/v12@v12.13.0" >&2; exit 1; }
  echo "installing vegeta"
  go install github.com/tsenart/vegeta/v12@v12.13.0
  VEGETA=$(go env GOPATH)/bin/vegeta
}

gateway_config() {
  cat <<YAML
listener: { host: 127.0.0.1, port: $GATEWAY_PORT }
admin: { host: 127.0.0.1, port: $ADMIN_PORT }
accessLog: $ACCESS_LOG
upstreams:
  adaptive:
    endpoints: ["127.0.0.1:$UPSTREAM_PORT"]
    breaker: off
    outlierDetection: off
    adaptiveConcurrency: $ADAPTIVE
  plain:
    endpoints: ["127.0.0.1:$UPSTREAM_PORT"]
    breaker: off
    outlierDetection: off
routes:
  - { name: adaptive, match: { prefix: /adaptive/ }, proxy: { upstream: adaptive, stripPrefix: /adaptive, retry: { maxAttempts: 1 } } }
  - { name: plain, match: { prefix: /plain/ }, proxy: { upstream: plain, stripPrefix: /plain, retry: { maxAttempts: 1 } } }
YAML
}

start_upstream() {
  if port_open "$UPSTREAM_PORT"; then
    echo "port $UPSTREAM_PORT is already in use" >&2
    exit 1
  fi
  PERMITS=$PERMITS SERVICE_MS=$SERVICE_MS PORT=$UPSTREAM_PORT JAVA=$JAVA $(pinned "$CLIENT_CPUS") bash -c "exec $UPSTREAM_CMD" \
    >"$RESULTS/upstream.log" 2>&1 &
  CHILD_PIDS+=("$!")
  wait_for_200 "http://127.0.0.1:$UPSTREAM_PORT/work" "$!" "$RESULTS/upstream.log"
}

# pinned CPUS: the taskset prefix that runs a command on those CPUs; nothing when CPUS is empty.
pinned() {
  [[ -n $1 ]] && echo "taskset -c $1"
  return 0
}

start_gateway() {
  # The file gets a directory of its own: the gateway watches the file's directory for reloads, and a log written
  # there would wake its watcher threads on every write.
  gateway_config >"$RESULTS/config/gateway.yaml"
  echo "starting the gateway: $GATEWAY_CMD $RESULTS/config/gateway.yaml   (JVM_FLAGS='$JVM_FLAGS')"
  JAVA=$JAVA JVM_FLAGS=$JVM_FLAGS $(pinned "$GATEWAY_CPUS") bash -c "exec $GATEWAY_CMD $RESULTS/config/gateway.yaml" \
    >"$RESULTS/gateway.log" 2>&1 &
  SERVER_PID=$!
  CHILD_PIDS+=("$SERVER_PID")
  local route
  for route in $ROUTES; do
    wait_for_200 "http://127.0.0.1:$GATEWAY_PORT/$route/work" "$SERVER_PID" "$RESULTS/gateway.log"
  done
}

# attack ROUTE RATE DURATION LABEL: one open-loop vegeta run, its results as CSV in $RESULTS/ROUTE.LABEL.csv, and
# the processes' CPU and run-queue times while it ran in $RESULTS/ROUTE.LABEL.sched.
attack() {
  local out=$RESULTS/$1.$4 client
  echo "GET http://127.0.0.1:$GATEWAY_PORT/$1/work" >"$out.target"
  [[ $CAPTURE == on && $4 == overload ]] && start_capture "$out"
  $(pinned "$CLIENT_CPUS") "$VEGETA" attack -targets="$out.target" -rate="$2/s" -duration="$3" -timeout=10s \
    -max-connections=20000 >"$out.bin" &
  client=$!
  sched_sample "$client" >"$out.sched"
  while kill -0 "$client" 2>/dev/null; do
    sleep 1
    sched_sample "$client" >>"$out.sched"
  done
  wait "$client"
  [[ $CAPTURE == on && $4 == overload ]] && stop_capture
  "$VEGETA" encode --to csv <"$out.bin" >"$out.csv"
  rm -f "$out.bin"
  printf '  %-9s %-9s %5s/s for %-4s %s\n' "$1" "$4" "$2" "$3" "$(summarize_one "$out.csv")"
}

# warm_up ROUTE: WARMUP_STEPS attacks of WARMUP / WARMUP_STEPS each, their rates rising evenly from RATE_WARMUP_START
# to RATE_WARMUP.
warm_up() {
  local seconds=${WARMUP%s} step rate
  for ((step = 1; step <= WARMUP_STEPS; step++)); do
    if ((WARMUP_STEPS == 1)); then
      rate=$RATE_WARMUP
    else
      rate=$((RATE_WARMUP_START + (RATE_WARMUP - RATE_WARMUP_START) * (step - 1) / (WARMUP_STEPS - 1)))
    fi
    attack "$1" "$rate" "$((seconds / WARMUP_STEPS))s" "warmup$step"
  done
}

# start_capture OUT: tcpdump writes the gateway port's segments that carry data (headers and the first bytes, stamped
# in nanoseconds) to OUT.pcap until stop_capture, with what it dropped in OUT.capture.log.
start_capture() {
  $(pinned "$CLIENT_CPUS") tcpdump -i lo -s 128 -B 16384 --time-stamp-precision=nano -w "$1.pcap" \
    "tcp port $GATEWAY_PORT and (ip[2:2] - ((ip[0] & 0xf) << 2) - ((tcp[12] & 0xf0) >> 2)) > 0" 2>"$1.capture.log" &
  CAPTURE_PID=$!
  CHILD_PIDS+=("$CAPTURE_PID")
  local tries
  for tries in {1..50}; do
    grep -qs listening "$1.capture.log" && return 0
    sleep 0.1
  done
}

stop_capture() {
  kill -INT "$CAPTURE_PID" 2>/dev/null || true
  wait "$CAPTURE_PID" 2>/dev/null || true
  forget_pid "$CAPTURE_PID"
}

ensure_capture() {
  [[ $CAPTURE == on ]] || return 0
  if [[ $(id -u) != 0 ]] || ! command -v tcpdump >/dev/null; then
    echo "CAPTURE=on needs root and tcpdump (apt-get install tcpdump)" >&2
    exit 1
  fi
}

# sched_sample CLIENT_PID: one line per process and kind of thread, with the nanoseconds its threads have run and
# waited on a run queue so far, and how many times they were given a CPU (the scheduler's
# /proc/PID/task/TID/schedstat; nothing where there is none). Read with
# the shell's own builtins, so that sampling once a second costs the measured machine no process.
sched_sample() {
  local now=${EPOCHREALTIME/./} kind pid task name stat run wait slices
  declare -A runs=() waits=() runs_given=()
  for kind in gateway-loops gateway-other upstream vegeta; do
    case $kind in
      gateway-*) pid=$SERVER_PID ;;
      upstream) pid=${CHILD_PIDS[0]} ;;
      vegeta) pid=$1 ;;
    esac
    for task in /proc/"$pid"/task/*; do
      { read -r name <"$task/comm" && read -r stat <"$task/schedstat"; } 2>/dev/null || continue
      case $kind in
        gateway-loops) [[ $name == parry-loop-* ]] || continue ;;
        gateway-other) [[ $name == parry-loop-* ]] && continue ;;
      esac
      read -r run wait slices <<<"$stat"
      runs[$kind]=$((${runs[$kind]:-0} + run))
      waits[$kind]=$((${waits[$kind]:-0} + wait))
      runs_given[$kind]=$((${runs_given[$kind]:-0} + slices))
    done
  done
  for kind in "${!runs[@]}"; do
    echo "$now $kind ${runs[$kind]} ${waits[$kind]} ${runs_given[$kind]}"
  done
}

summarize_one() {
  python3 - "$1" <<'PY'
import csv, sys
codes = {}
for row in csv.reader(open(sys.argv[1])):
    codes[row[1]] = codes.get(row[1], 0) + 1
print(" ".join(f"{code}: {n}" for code, n in sorted(codes.items())))
PY
}

admin_view() {
  local view
  view=$(curl -s -m 5 "http://127.0.0.1:$ADMIN_PORT/admin/upstreams") || { echo "  (no admin view within 5 s)"; return 0; }
  python3 -c '
import json, sys
for group in json.load(sys.stdin)["upstreams"]:
    adaptive = group.get("adaptiveConcurrency")
    if adaptive:
        print("  {}: adaptive limit now {}, sheds so far {}".format(group["name"], adaptive["limit"], adaptive["sheds"]))
' <<<"$view" || true
}

summarize() {
  python3 - "$RESULTS" "$ROUTES" "$CAPACITY" "$(seconds "$DURATION")" <<'PY'
import csv, os, sys

results, routes, capacity, duration = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), int(sys.argv[4])

def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]

def load(path):
    rows = list(csv.reader(open(path)))
    served = [int(r[2]) / 1e6 for r in rows if r[1] == "200"]
    shed = [int(r[2]) / 1e6 for r in rows if r[1] == "503"]
    other = len(rows) - len(served) - len(shed)
    return rows, served, shed, other

print(f"N = {capacity} req/s (the upstream's capacity), overload for {duration} s; offered/s is what vegeta sent"
      " (below OVERLOAD x N when the machine could not keep up); latencies in ms")
print(f"{'route':<9}{'offered/s':>10}{'served/N':>9}{'p99':>9}{'unloaded':>10}{'p99/unl':>9}{'shed':>8}"
      f"{'shed p50':>10}{'shed p99':>10}{'p99.9':>10}{'shed max':>10}{'other':>8}")
for route in routes:
    unloaded = os.path.join(results, f"{route}.unloaded.csv")
    overload = os.path.join(results, f"{route}.overload.csv")
    if not (os.path.exists(unloaded) and os.path.exists(overload)):
        print(f"{route:<9}no result")
        continue
    _, calm, _, _ = load(unloaded)
    rows, served, shed, other = load(overload)
    base = pct(calm, 99)
    p99 = pct(served, 99)
    # Served within the run's own time: answers to its last requests may arrive up to the timeout later.
    start = min(int(r[0]) for r in rows)
    end = start + duration * 1e9
    share = sum(1 for r in rows if r[1] == "200" and int(r[0]) + int(r[2]) <= end) / (capacity * duration)
    print(f"{route:<9}{len(rows) / duration:>10.0f}{share:>9.2f}{p99:>9.1f}{base:>10.1f}{p99 / base:>9.2f}{len(shed):>8}"
          f"{pct(shed, 50):>10.2f}{pct(shed, 99):>10.2f}{pct(shed, 99.9):>10.2f}{(max(shed) if shed else float('nan')):>10.2f}{other:>8}")
def sched(path):
    """Per kind of thread, first to last sample: the share of a core it ran, the ms per second it waited for one, and
    the mean wait each time it was given one (a woken event loop's wait for a CPU is in every answer it sends)."""
    samples = {}
    for line in open(path):
        t, kind, run, wait, given = line.split()
        samples.setdefault(kind, []).append((int(t), int(run), int(wait), int(given)))
    out = []
    for kind in ("gateway-loops", "gateway-other", "upstream", "vegeta"):
        s = samples.get(kind, [])
        # The sample with the most run time is the last taken while all the threads were there: one taken as vegeta
        # exits may miss some.
        last = max(s, key=lambda sample: sample[1]) if s else None
        if last and last[0] > s[0][0]:
            us = last[0] - s[0][0]
            given = max(1, last[3] - s[0][3])
            out.append(f"{kind} {(last[1] - s[0][1]) / us / 10:.0f}% / {(last[2] - s[0][2]) / us:.0f} ms"
                       f" / {(last[2] - s[0][2]) / given / 1000:.0f} µs")
    return ", ".join(out)

for route in routes:
    path = os.path.join(results, f"{route}.overload.sched")
    if os.path.exists(path) and sched(path):
        print(f"{route} overload, per kind of thread: share of a core run / ms per second its threads together waited"
              f" for a core / mean wait each time one got a core: {sched(path)}")
first, later, connections = [], [], set()
for line in open(os.path.join(results, "gateway.log")):
    if not line.startswith("{"):
        continue
    # Request ids are the connection's id, a dash, and the request's number on it.
    connection, _, number = line.split('"requestId":"')[1].split('"')[0].rpartition("-")
    connections.add(connection)
    if '"status":503' in line:
        (first if number == "1" else later).append(float(line.split('"durationMs":')[1].split(",")[0]))
server = sorted(first + later)
if server:
    print(f"sheds in the gateway (access log, head decoded by its event loop to last byte written, every route and phase): {len(server)},"
          f" p50 {pct(server, 50):.3f}, p99 {pct(server, 99):.3f}, p99.9 {pct(server, 99.9):.3f}, max {server[-1]:.3f}")
    print(f"connections vegeta opened: {len(connections)}; sheds that were their connection's first request:"
          f" {len(first)} ({100 * len(first) / len(server):.1f}%, p99 {pct(first, 99):.3f} ms in the gateway; the others"
          f" {pct(later, 99):.3f}); vegeta's times for those include the connection's set-up")
print("targets with the adaptive limit: served/N >= 0.90, p99/unl <= 2, shed p99 <= 1 ms;"
      " other = timeouts and errors (vegeta's 10 s timeout)")
PY
}

# event_loops: how many event-loop threads the gateway has started (a JVM pinned to one CPU sizes its pool to one).
event_loops() {
  local task name loops=0
  for task in /proc/"$SERVER_PID"/task/*; do
    read -r name <"$task/comm" 2>/dev/null || continue
    [[ $name == parry-loop-* ]] && loops=$((loops + 1))
  done
  echo "$loops"
}

# collector: the garbage collector the gateway's JVM runs; a JVM that sees one CPU (GATEWAY_CPUS=0) picks Serial where
# one that sees two picks G1, so pinned and unpinned runs compare different collectors unless JVM_FLAGS names one.
collector() {
  local flags
  flags=$("${JAVA%java}jcmd" "$SERVER_PID" VM.flags 2>/dev/null) || { echo unknown; return 0; }
  grep -o -m 1 -E 'Use(Serial|Parallel|G1|Z|Shenandoah|Epsilon)GC' <<<"$flags" || echo unknown
}

# shed_clocks: each route's overload sheds by vegeta's clock, on the wire (CAPTURE=on) and by the gateway's own
# (ACCESS_LOG=json), overall and in the calmer half of the seconds; the per-second table in ROUTE.overload.seconds.txt.
shed_clocks() {
  local route
  for route in $ROUTES; do
    python3 benchmarks/shed_clocks.py "$RESULTS" "$route" "$GATEWAY_PORT"
    [[ -f $RESULTS/$route.overload.capture.log ]] &&
      echo "  tcpdump: $(grep -h 'dropped by kernel' "$RESULTS/$route.overload.capture.log" || echo 'no count')"
  done
  return 0
}

main() {
  ensure_vegeta
  ensure_capture
  ensure_jars baseline
  ensure_gateway_jar
  raise_fd_limit
  RESULTS=$(results_dir goodput)
  echo "results in $RESULTS; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  start_upstream
  start_gateway
  local route
  for route in $ROUTES; do
    echo "== $route"
    warm_up "$route"
    attack "$route" "$RATE_UNLOADED" "$UNLOADED_DURATION" unloaded
    attack "$route" "$RATE_OVERLOAD" "$DURATION" overload
    [[ $route == adaptive ]] && admin_view
    # The line in front of the upstream empties once the clients it held have gone (the run's last timeouts).
    sleep "$DRAIN_SECONDS"
  done
  {
    echo
    echo "command: PERMITS=$PERMITS SERVICE_MS=$SERVICE_MS OVERLOAD=$OVERLOAD DURATION=$DURATION WARMUP=$WARMUP" \
      "RATE_WARMUP_START=$RATE_WARMUP_START WARMUP_STEPS=$WARMUP_STEPS" \
      "ADAPTIVE='$ADAPTIVE' ROUTES='$ROUTES' JVM_FLAGS='$JVM_FLAGS' benchmarks/goodput.sh"
    echo "gateway:  $(pinned "$GATEWAY_CPUS") $GATEWAY_CMD $RESULTS/config/gateway.yaml ($(event_loops) event loops, $(collector));" \
      "vegeta and upstream: $(pinned "$CLIENT_CPUS")"
    echo "java:     $(java_version)"
    echo "vegeta:   $("$VEGETA" -version 2>&1 | head -n 1); $(nproc) cores; $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    summarize
    shed_clocks
  } | tee "$RESULTS/summary.txt"
}

main "$@"
