#!/usr/bin/env bash
# Start-up time of the Parry gateway's built-in demo: from launching `java -jar parry-gateway/target/parry-gateway.jar`
# (no argument: the demo configuration, the todo example in process) to the first 200 answer to GET /hello, median of
# RUNS launches. JAVA_HOME selects the JDK (default: java on PATH). See parry-gateway/README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:-}
RUNS=${RUNS:-5}
PORT=${PORT:-8094}
ADMIN_PORT=${ADMIN_PORT:-8095}
GATEWAY_CMD=${GATEWAY_CMD:-'$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar'}

main() {
  ensure_gateway_jar
  echo "command: RUNS=$RUNS JVM_FLAGS='$JVM_FLAGS' benchmarks/gateway-startup.sh"
  echo "gateway: PORT=$PORT ADMIN_PORT=$ADMIN_PORT $GATEWAY_CMD"
  echo "java: $(java_version); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  # Python launches and polls, so one clock times both; it stops each gateway by its PID before the next launch.
  JAVA=$JAVA PORT=$PORT ADMIN_PORT=$ADMIN_PORT python3 - "$GATEWAY_CMD" "$RUNS" "$PORT" "$ADMIN_PORT" <<'PY'
import os, socket, statistics, subprocess, sys, time

command, runs, port, admin_port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
REQUEST = f"GET /hello HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
LIMIT_SECONDS, RETRY_SECONDS = 10.0, 0.002

def answers_200():
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(REQUEST)
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False

def port_taken(p):
    try:
        with socket.create_connection(("127.0.0.1", p), timeout=0.2):
            return True
    except OSError:
        return False

def launch_once():
    if port_taken(port) or port_taken(admin_port):
        sys.exit(f"something already listens on port {port} or {admin_port}")
    start = time.perf_counter()
    # exec: the PID is the gateway's own, and bash adds about a millisecond before the JVM starts.
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
            server.wait(15)
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
median = statistics.median(times)
print(f"median time to first 200 on /hello over {runs} launches: {median:.0f} ms"
      f" (target <= 600 ms: {'met' if median <= 600 else 'MISSED'})")
PY
}

main "$@"
