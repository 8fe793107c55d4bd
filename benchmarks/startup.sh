#!/usr/bin/env bash
# Start-up time: from launching the JVM to the first 200 answer, median of RUNS launches per target. Targets: parry
# (examples/hello, GET /plaintext, run as its README says, with its class-data-sharing archive), parry-nocds (the same
# by plain java -jar; PARRY_CMD replaces both), todo (examples/todo: annotated controller, OpenAPI, GET /, run as its
# README says, with its class-data-sharing archive), todo-nocds (the same by plain java -jar), todo-annotated and
# todo-functional (the same service and the functional one it replaced, both from the benchmarks' jar, GET /).
# JAVA_HOME selects the JDK (default: java on PATH). See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:-}
RUNS=${RUNS:-5}
PORT=${PORT:-8092}
TARGET=${TARGET:-parry}

TODO_JAR=examples/todo/target/parry-todo.jar
# The class-data-sharing archives examples/todo's and examples/hello's builds record (see their READMEs); a JDK other
# than the one that recorded them ignores them.
TODO_ARCHIVE=examples/todo/target/parry-todo.jsa
HELLO_ARCHIVE=examples/hello/target/parry-hello.jsa

# readme_flags EXAMPLE: the JVM flags examples/EXAMPLE's README runs it with: its class-data-sharing archive, Netty's
# epoll library as its build unpacked it (see the README).
readme_flags() {
  echo "-XX:SharedArchiveFile=examples/$1/target/parry-$1.jsa -Xlog:cds*=off -Djava.library.path=examples/$1/target/native"
}

# startup_command TARGET: the command line of a target, and the path its first request asks for.
startup_command() {
  case $1 in
    todo) echo '$JAVA $JVM_FLAGS '"$(readme_flags todo)"' -jar '"$TODO_JAR" ;;
    todo-nocds) echo '$JAVA $JVM_FLAGS -jar '"$TODO_JAR" ;;
    parry) echo "${PARRY_CMD:-\$JAVA \$JVM_FLAGS $(readme_flags hello) -jar examples/hello/target/parry-hello.jar}" ;;
    parry-nocds) server_command parry ;;
    todo-annotated) echo '$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.demo.todo.AnnotatedTodoApp' ;;
    todo-functional) echo '$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.demo.todo.FunctionalTodoApp' ;;
    *) server_command "$1" ;;
  esac
}

main() {
  local target cmd path
  ensure_jars ${TARGET//parry-nocds/parry}
  if [[ " $TARGET " == *" parry "* && -z ${PARRY_CMD:-} && ! -f $HELLO_ARCHIVE ]]; then
    echo "building examples/hello"
    mvn -B -q -DskipTests package -pl examples/hello -am
  fi
  if [[ ( " $TARGET " == *" todo "* || " $TARGET " == *" todo-nocds "* ) && ! -f $TODO_ARCHIVE ]]; then
    echo "building examples/todo"
    mvn -B -q -DskipTests package -pl examples/todo -am
  fi
  echo "command: TARGET='$TARGET' RUNS=$RUNS JVM_FLAGS='$JVM_FLAGS' benchmarks/startup.sh"
  echo "java: $(java_version)"
  for target in $TARGET; do
    cmd=$(startup_command "$target")
    path=/
    [[ $target == parry* ]] && path=/plaintext
    echo "$target: $cmd   (GET $path)"
    launch_runs "$cmd" "$path"
  done
}

# launch_runs COMMAND PATH: Python launches and polls, so one clock times both; it stops each server by its PID
# before the next launch.
launch_runs() {
  JAVA=$JAVA PORT=$PORT python3 - "$1" "$RUNS" "$PORT" "$2" <<'PY'
import os, socket, statistics, subprocess, sys, time

command, runs, port, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
REQUEST = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
LIMIT_SECONDS, RETRY_SECONDS = 10.0, 0.002

def answers_200():
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(REQUEST)
            return s.recv(64).startswith((b"HTTP/1.1 200", b"HTTP/1.0 200"))
    except OSError:
        return False

def launch_once():
    if answers_200():
        sys.exit(f"something already answers on port {port}")
    start = time.perf_counter()
    # exec: the PID is the server's own, and bash adds about a millisecond before the JVM starts.
    server = subprocess.Popen(["bash", "-c", "exec " + command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - start < LIMIT_SECONDS and server.poll() is None:
            if answers_200():
                return (time.perf_counter() - start) * 1000
            time.sleep(RETRY_SECONDS)
        return None
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

times = []
for run in range(1, runs + 1):
    ms = launch_once()
    print(f"launch {run}: " + (f"{ms:.0f} ms" if ms is not None else f"no 200 within {LIMIT_SECONDS:.0f} s"))
    if ms is None:
        sys.exit(1)
    times.append(ms)
print(f"median time to first 200 over {runs} launches: {statistics.median(times):.0f} ms")
PY
}

main "$@"
