# Shared by the benchmark scripts (sourced, not run): paths, the JVM, jar building, the fd limit, and servers
# started, awaited and stopped by PID. Every wait here is bounded.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
BENCH_JAR=$ROOT/benchmarks/target/parry-benchmarks.jar
HELLO_JAR=$ROOT/examples/hello/target/parry-hello.jar
BASELINE_MAIN=io.parry.benchmarks.baseline.NettyBaselineServer

# Server commands are shell command lines run with JVM_FLAGS, PORT and JAVA in their environment, so an override
# such as PARRY_CMD='java $JVM_FLAGS -cp ... NettyBaselineServer' gets each script's JVM flags and port.
DEFAULT_PARRY_CMD='$JAVA $JVM_FLAGS -jar examples/hello/target/parry-hello.jar'
DEFAULT_BASELINE_CMD="\$JAVA \$JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar $BASELINE_MAIN"

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

# server_command TARGET: the command line for parry or baseline.
server_command() {
  case $1 in
    parry) echo "${PARRY_CMD:-$DEFAULT_PARRY_CMD}" ;;
    baseline) echo "${BASELINE_CMD:-$DEFAULT_BASELINE_CMD}" ;;
    *) echo "unknown target: $1 (expected: parry or baseline)" >&2; return 1 ;;
  esac
}

# ensure_jars TARGET...: builds the missing jars among those the targets run from. The benchmarks jar (the baseline
# and the clients) is always needed; Parry's only for the parry target, and only when PARRY_CMD does not replace it.
ensure_jars() {
  local modules=()
  [[ -f $BENCH_JAR ]] || modules+=(benchmarks)
  if [[ " $* " == *" parry "* && -z ${PARRY_CMD:-} && ! -f $HELLO_JAR ]]; then
    modules+=(examples/hello)
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

# results_dir KIND: creates and prints benchmarks/results/<timestamp>-KIND (git-ignored).
results_dir() {
  local dir=$ROOT/benchmarks/results/$(date +%Y%m%d-%H%M%S)-$1
  mkdir -p "$dir"
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

# The JDK tools (jcmd) of the same JDK as $JAVA, so they can attach to the servers.
jdk_tool() {
  echo "$(dirname "$(readlink -f "$(command -v "$JAVA")")")/$1"
}

java_version() {
  "$JAVA" -version 2>&1 | head -n 2 | paste -sd ' ' -
}
