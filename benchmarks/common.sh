# Shared by the benchmark scripts (sourced, not run): paths, the JVM, jar building, the fd limit, and servers
# started, awaited and stopped by PID. Every wait here is bounded.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
BENCH_JAR=$ROOT/benchmarks/target/parry-benchmarks.jar
HELLO_JAR=$ROOT/examples/hello/target/parry-hello.jar
PROXY_JAR=$ROOT/examples/proxy/target/parry-proxy-example.jar
GATEWAY_JAR=$ROOT/parry-gateway/target/parry-gateway.jar
BASELINE_MAIN=io.parry.benchmarks.baseline.NettyBaselineServer

# Server commands are shell command lines run with JVM_FLAGS, PORT and JAVA in their environment, so an override
# such as PARRY_CMD='java $JVM_FLAGS -cp ... NettyBaselineServer' gets each script's JVM flags and port.
DEFAULT_PARRY_CMD='$JAVA $JVM_FLAGS -jar examples/hello/target/parry-hello.jar'
DEFAULT_BASELINE_CMD="\$JAVA \$JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar $BASELINE_MAIN"
# The proxy example also reads UPSTREAM, which the proxy scripts export.
DEFAULT_PROXY_CMD='$JAVA $JVM_FLAGS -jar examples/proxy/target/parry-proxy-example.jar'
DEFAULT_STREAM_UPSTREAM_CMD='$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.upstream.StreamUpstreamServer'

# The default rounds of every script that prints a ratio against a baseline (ROUNDS overrides it): medians of 3 rounds
# moved by up to 10% between two runs of the same jars on a quiet box, which is the size of the gaps they judge.
RATIO_ROUNDS=5

CHILD_PIDS=()
cd "$ROOT"

# Kills only the processes this script started and has not yet stopped.
cleanup() {
  local pid
  for pid in "${CHILD_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# server_command TARGET: the command line for parry, baseline, proxy (Parry's proxy example) or stream-upstream.
server_command() {
  case $1 in
    parry) echo "${PARRY_CMD:-$DEFAULT_PARRY_CMD}" ;;
    baseline) echo "${BASELINE_CMD:-$DEFAULT_BASELINE_CMD}" ;;
    proxy) echo "${PARRY_PROXY_CMD:-$DEFAULT_PROXY_CMD}" ;;
    stream-upstream) echo "$DEFAULT_STREAM_UPSTREAM_CMD" ;;
    *) echo "unknown target: $1 (expected: parry, baseline, proxy or stream-upstream)" >&2; return 1 ;;
  esac
}

# ensure_jars TARGET...: builds the missing jars among those the targets run from. The benchmarks jar (the baseline
# and the clients) is always needed; Parry's only for the parry or proxy target, and only when PARRY_CMD or
# PARRY_PROXY_CMD does not replace it.
ensure_jars() {
  local modules=()
  [[ -f $BENCH_JAR ]] || modules+=(benchmarks)
  if [[ " $* " == *" parry "* && -z ${PARRY_CMD:-} && ! -f $HELLO_JAR ]]; then
    modules+=(examples/hello)
  fi
  if [[ " $* " == *" proxy "* && -z ${PARRY_PROXY_CMD:-} && ! -f $PROXY_JAR ]]; then
    modules+=(examples/proxy)
  fi
  if ((${#modules[@]})); then
    echo "building ${modules[*]}"
    mvn -B -q -DskipTests package -pl "$(IFS=,; echo "${modules[*]}")" -am
  fi
}

# Many connections need many descriptors; the hard limit is as far as an unprivileged shell can go.
raise_fd_limit() {
  local hard
  hard=$(ulimit -Hn)
  [[ $hard == unlimited ]] && hard=1048576
  ulimit -n "$hard" 2>/dev/null || echo "warning: could not raise ulimit -n to $hard" >&2
}

# results_dir KIND: creates and prints benchmarks/results/<timestamp>-KIND (git-ignored), with a config/ directory for
# the gateway's files: its watcher wakes on every change in its file's directory, so logs written beside the file would
# cost the gateway CPU on every line.
results_dir() {
  local dir=$ROOT/benchmarks/results/$(date +%Y%m%d-%H%M%S)-$1
  mkdir -p "$dir/config"
  echo "$dir"
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# start_server TARGET PORT JVM_FLAGS LOG: starts a server and waits until it accepts connections; sets SERVER_PID.
start_server() {
  local target=$1 port=$2 flags=$3 log=$4 cmd
  cmd=$(server_command "$target")
  if port_open "$port"; then
    echo "port $port is already in use; stop what listens there or choose another port" >&2
    exit 1
  fi
  echo "starting $target on port $port: $cmd   (JVM_FLAGS='$flags')"
  JAVA=$JAVA JVM_FLAGS=$flags PORT=$port bash -c "exec $cmd" >"$log" 2>&1 &
  SERVER_PID=$!
  CHILD_PIDS+=("$SERVER_PID")
  wait_for_port "$port" "$SERVER_PID" "$log"
}

# wait_for_port PORT PID LOG: polls every 50 ms for up to 30 s, failing early if the process dies.
wait_for_port() {
  local port=$1 pid=$2 log=$3 i
  for ((i = 0; i < 600; i++)); do
    port_open "$port" && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "server (pid $pid) exited before listening on port $port; its log:" >&2
      tail -n 20 "$log" >&2
      exit 1
    fi
    sleep 0.05
  done
  echo "server (pid $pid) not listening on port $port after 30 s" >&2
  exit 1
}

# wait_for_200 URL PID LOG: polls URL with curl every 100 ms for up to 30 s until it answers 200, failing early if
# the process dies; for proxies, whose port opens before they can reach their upstream.
wait_for_200() {
  local url=$1 pid=$2 log=$3 i
  for ((i = 0; i < 300; i++)); do
    [[ $(curl -s -o /dev/null -m 2 -w '%{http_code}' "$url") == 200 ]] && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "server (pid $pid) exited before $url answered 200; its log:" >&2
      tail -n 20 "$log" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "$url did not answer 200 within 30 s" >&2
  exit 1
}

# stop_pid PID: SIGTERM, up to 10 s to exit, then SIGKILL.
stop_pid() {
  local pid=$1 i
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  forget_pid "$pid"
}

# A stopped PID may be reused by an unrelated process, so cleanup must no longer know it.
forget_pid() {
  local pid kept=()
  for pid in "${CHILD_PIDS[@]}"; do
    [[ $pid == "$1" ]] || kept+=("$pid")
  done
  CHILD_PIDS=("${kept[@]}")
}

# heap_after_gc_kib PID: forces a full GC with jcmd, then sums the "used" of the heap's generations (G1, Parallel,
# Serial) in KiB.
heap_after_gc_kib() {
  "$(jdk_tool jcmd)" "$1" GC.run >/dev/null
  "$(jdk_tool jcmd)" "$1" GC.heap_info | python3 -c '
import re, sys
used = [int(m.group(1)) for line in sys.stdin if "total" in line for m in [re.search(r"used (\d+)K", line)] if m]
print(sum(used) if used else sys.exit("cannot parse GC.heap_info (use G1, Parallel or Serial GC)"))'
}

# cpu_ticks PID: the user and system clock ticks the process has used.
cpu_ticks() {
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# proc_status_value PID FIELD: a number from /proc/PID/status, such as Threads or VmRSS (in KiB).
proc_status_value() {
  awk -v field="$2:" '$1 == field { print $2 }' "/proc/$1/status"
}

# The JDK tools (jcmd) of the same JDK as $JAVA, so they can attach to the servers.
jdk_tool() {
  echo "$(dirname "$(readlink -f "$(command -v "$JAVA")")")/$1"
}

java_version() {
  "$JAVA" -version 2>&1 | head -n 2 | paste -sd ' ' -
}

ensure_wrk() {
  command -v wrk >/dev/null || { echo "installing wrk"; apt-get update -q && apt-get install -y -q wrk; }
}

ensure_gateway_jar() {
  if [[ ! -f $GATEWAY_JAR ]]; then
    echo "building parry-gateway"
    mvn -B -q -DskipTests package -pl parry-gateway -am
  fi
}

# start_redis: a redis-server on 127.0.0.1:$REDIS_PORT, without persistence, logging to $RESULTS/redis.log; returns
# once it listens, and cleanup stops it.
start_redis() {
  command -v redis-server >/dev/null || { echo "installing redis-server"; apt-get update -q && apt-get install -y -q redis-server; }
  if port_open "$REDIS_PORT"; then
    echo "port $REDIS_PORT is already in use" >&2
    exit 1
  fi
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$RESULTS" \
    >"$RESULTS/redis.log" 2>&1 &
  CHILD_PIDS+=("$!")
  wait_for_port "$REDIS_PORT" "$!" "$RESULTS/redis.log"
}

# rotated ROUND ITEMS: the space-separated ITEMS one a line, starting with the ROUND-th, so each goes first in turn.
rotated() {
  local items n i
  read -ra items <<<"$2"
  n=${#items[@]}
  for ((i = 0; i < n; i++)); do
    echo "${items[(i + $1) % n]}"
  done
}

# Warm-up until steady. A JVM still compiling makes a server's first measured round its slowest (Parry's proxy rose
# 30.6k, 38.9k, 43.0k req/s over three 6 s rounds after a 6 s warm-up), so a fixed warm-up is either too short for
# the JIT or longer than needed. Each target is instead warmed in windows of WARMUP_WINDOW seconds until two windows
# in a row agree within WARMUP_TOLERANCE percent, after at least WARMUP_MIN seconds and at most WARMUP (the bound
# that keeps a run on a noisy machine finite). Parry and the baselines get the same rule. Each script sets WARMUP's
# default itself after sourcing this file, so that its own default holds and one given in the environment wins.
WARMUP_WINDOW=${WARMUP_WINDOW:-5}
WARMUP_MIN=${WARMUP_MIN:-15}
WARMUP_TOLERANCE=${WARMUP_TOLERANCE:-3}

# warm_up RUN...: calls `RUN... SECONDS warmupN`, a script's one-run function whose printed line carries wrk's
# "Requests/sec:" or h2load's "req/s", window after window until two agree or WARMUP is spent; prints each window's
# line, then how long the warm-up took and why it ended.
warm_up() {
  local bound spent=0 n=0 window line rate previous=
  bound=$(seconds "${WARMUP:?WARMUP: not set (each script sets its default after sourcing common.sh)}")
  while ((spent < bound)); do
    n=$((n + 1))
    window=$((bound - spent < WARMUP_WINDOW ? bound - spent : WARMUP_WINDOW))
    line=$("$@" "$window" "warmup$n")
    echo "$line"
    spent=$((spent + window))
    rate=$(sed -nE 's/.*Requests\/sec: *([0-9.]+).*/\1/p; s/.*[ ,]([0-9.]+) req\/s.*/\1/p' <<<"$line" | head -n 1)
    if [[ -n $previous && -n $rate ]] && ((spent >= WARMUP_MIN)) && rates_agree "$previous" "$rate"; then
      echo "  warm after $spent s: the last two windows agree within $WARMUP_TOLERANCE%"
      return
    fi
    previous=$rate
  done
  echo "  warm-up bound of $bound s reached before two windows agreed within $WARMUP_TOLERANCE%"
}

# rates_agree A B: whether A and B differ by at most WARMUP_TOLERANCE percent of the larger.
rates_agree() {
  awk -v a="$1" -v b="$2" -v tol="$WARMUP_TOLERANCE" \
    'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; exit !(m > 0 && d * 100 <= tol * m) }'
}

# seconds DURATION: wrk's 10s, 2m or 1h in seconds.
seconds() {
  case $1 in
    *h) echo $((${1%h} * 3600)) ;;
    *m) echo $((${1%m} * 60)) ;;
    *s) echo "${1%s}" ;;
    *) echo "$1" ;;
  esac
}

# wait_ready LOG PID SECONDS: waits up to SECONDS for the client PID to print READY in LOG; exits if it dies first.
wait_ready() {
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    grep -q '^READY' "$1" && return 0
    if ! kill -0 "$2" 2>/dev/null; then
      echo "the client failed:" >&2
      tail -n 20 "$1" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "the client was not ready after $3 s" >&2
  exit 1
}
