#!/usr/bin/env bash
# Start-up time of Parry's hello example: from launching the JVM to the first 200 answer to GET /plaintext,
# median of RUNS launches. JAVA_HOME selects the JDK (default: java on PATH). See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:-}
RUNS=${RUNS:-5}
PORT=${PORT:-8092}
TARGET=${TARGET:-parry}

main() {
  ensure_jars $TARGET
  local cmd
  cmd=$(server_command "$TARGET")
  echo "command: TARGET=$TARGET RUNS=$RUNS JVM_FLAGS='$JVM_FLAGS' benchmarks/startup.sh"
  echo "$TARGET: $cmd"
  echo "java: $(java_version)"
  # Python launches and polls, so one clock times both; it stops each server by its PID before the next launch.
  JAVA=$JAVA PORT=$PORT python3 - "$cmd" "$RUNS" "$PORT" <<'PY'
import os, socket, statistics, subprocess, sys, time

command, runs, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
REQUEST = f"GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
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
