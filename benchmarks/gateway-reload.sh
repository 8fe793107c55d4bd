#!/usr/bin/env bash
# Reload under load: wrk sends GET /plaintext through the gateway jar to two raw-Netty baseline upstreams while the
# configuration file is rewritten and reloaded (POST /admin/reload) RELOADS times, each reload changing a route and
# replacing the upstream group the traffic goes to. Prints wrk's req/s, non-2xx responses and socket errors (the
# target is zero of both, at >= 2,000 req/s) and each reload's answer. See parry-gateway/README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC}
DURATION=${DURATION:-20}
CONNECTIONS=${CONNECTIONS:-32}
WRK_THREADS=${WRK_THREADS:-2}
RELOADS=${RELOADS:-10}
UPSTREAM_A_PORT=${UPSTREAM_A_PORT:-8210}
UPSTREAM_B_PORT=${UPSTREAM_B_PORT:-8211}
GATEWAY_PORT=${GATEWAY_PORT:-8212}
ADMIN_PORT=${ADMIN_PORT:-8213}
GATEWAY_CMD=${GATEWAY_CMD:-'$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar'}

# config GENERATION: the configuration of a generation. Even ones send /plaintext to upstream group "blue" on port A,
# odd ones to "green" on port B, so each reload retires the group the traffic used; the route's name and header rule
# change too, and a route added per generation grows the table.
config() {
  local generation=$1 group port extra=""
  if ((generation % 2 == 0)); then group=blue port=$UPSTREAM_A_PORT; else group=green port=$UPSTREAM_B_PORT; fi
  for ((i = 1; i <= generation; i++)); do
    extra+="  - { name: extra-$i, match: { path: /extra/$i }, respond: { body: \"extra $i\" } }"$'\n'
  done
  cat <<YAML
version: "generation-$generation"
listener: { host: 127.0.0.1, port: $GATEWAY_PORT }
admin: { host: 127.0.0.1, port: $ADMIN_PORT }
upstreams:
  $group: { endpoints: ["127.0.0.1:$port"], pool: { maxConnections: 64 } }
routes:
  - name: plaintext-$generation
    match: { prefix: /plaintext, methods: [GET] }
    proxy: { upstream: $group, requestHeaders: { set: { X-Generation: "$generation" } } }
${extra}
YAML
}

# write_config GENERATION: replaces the file by a rename, as an editor or a deployment tool would.
write_config() {
  config "$1" >"$CONFIG.tmp"
  mv "$CONFIG.tmp" "$CONFIG"
}

start_gateway() {
  local log=$RESULTS/gateway.log cmd
  cmd=$GATEWAY_CMD
  if port_open "$GATEWAY_PORT" || port_open "$ADMIN_PORT"; then
    echo "port $GATEWAY_PORT or $ADMIN_PORT is already in use" >&2
    exit 1
  fi
  echo "starting the gateway on port $GATEWAY_PORT (admin $ADMIN_PORT): $cmd $CONFIG   (JVM_FLAGS='$JVM_FLAGS')"
  JAVA=$JAVA JVM_FLAGS=$JVM_FLAGS bash -c "exec $cmd $CONFIG" >"$log" 2>&1 &
  GATEWAY_PID=$!
  CHILD_PIDS+=("$GATEWAY_PID")
  wait_for_200 "http://127.0.0.1:$GATEWAY_PORT/plaintext" "$GATEWAY_PID" "$log"
}

main() {
  ensure_wrk
  ensure_jars baseline
  ensure_gateway_jar
  raise_fd_limit
  RESULTS=$(results_dir gateway-reload)
  CONFIG=$RESULTS/config/gateway.yaml
  echo "results in $RESULTS (ulimit -n $(ulimit -n))"
  start_server baseline "$UPSTREAM_A_PORT" "$JVM_FLAGS" "$RESULTS/upstream-a.log"
  start_server baseline "$UPSTREAM_B_PORT" "$JVM_FLAGS" "$RESULTS/upstream-b.log"
  write_config 0
  start_gateway
  # Warm-up, so the reloads meet a gateway running at speed.
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d5s "http://127.0.0.1:$GATEWAY_PORT/plaintext" >"$RESULTS/warmup.txt" 2>&1

  local wrk_out=$RESULTS/wrk.txt wrk_pid generation answer interval
  echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s --latency http://127.0.0.1:$GATEWAY_PORT/plaintext" >"$wrk_out"
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$GATEWAY_PORT/plaintext" \
    >>"$wrk_out" 2>&1 &
  wrk_pid=$!
  CHILD_PIDS+=("$wrk_pid")
  # The reloads are spread over the middle of the run: none in its first or last two seconds.
  interval=$(python3 -c "print(max(0.2, ($DURATION - 4) / $RELOADS))")
  sleep 2
  : >"$RESULTS/reloads.txt"
  for ((generation = 1; generation <= RELOADS; generation++)); do
    write_config "$generation"
    answer=$(curl -s -m 10 -X POST "http://127.0.0.1:$ADMIN_PORT/admin/reload" || echo "no answer")
    echo "reload $generation: $answer" | tee -a "$RESULTS/reloads.txt"
    sleep "$interval"
  done
  wait "$wrk_pid" || echo "warning: wrk failed, see $wrk_out" >&2
  forget_pid "$wrk_pid"
  curl -s "http://127.0.0.1:$ADMIN_PORT/admin/upstreams" >"$RESULTS/upstreams.json" || true
  stop_pid "$GATEWAY_PID"
  {
    echo
    echo "command: DURATION=$DURATION CONNECTIONS=$CONNECTIONS WRK_THREADS=$WRK_THREADS RELOADS=$RELOADS" \
      "JVM_FLAGS='$JVM_FLAGS' benchmarks/gateway-reload.sh"
    echo "gateway:   $GATEWAY_CMD $CONFIG"
    echo "upstreams: $(server_command baseline) on ports $UPSTREAM_A_PORT and $UPSTREAM_B_PORT"
    echo "java:      $(java_version)"
    echo "wrk:       $(wrk -v 2>&1 | head -n 1); $(nproc) cores; $(uname -sr)"
    echo
    cat "$RESULTS/reloads.txt"
    python3 - "$wrk_out" "$RESULTS/reloads.txt" "$RELOADS" "$RESULTS/gateway.log" <<'PY'
import re, sys

wrk, reloads, expected, log = open(sys.argv[1]).read(), open(sys.argv[2]).read(), int(sys.argv[3]), open(sys.argv[4]).read()
rps = re.search(r"^Requests/sec:\s*([\d.]+)", wrk, re.M)
total = re.search(r"(\d+) requests in", wrk)
sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", wrk)
socket_errors = sum(int(n) for n in sockets.groups()) if sockets else 0
non2xx = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", wrk))
applied = len(re.findall(r'"applied":true', reloads))
versions = [int(v) for v in re.findall(r'"version":(\d+)', reloads)]
retired = len(re.findall(r"Closed upstream group \S+, retired by a reload, after its last request", log))
rate = float(rps.group(1)) if rps else 0.0
print(f"requests: {total.group(1) if total else '?'}, {rate:.0f} req/s; non-2xx: {non2xx};"
      f" socket errors: {socket_errors}" + (f" ({sockets.group(0)})" if sockets and socket_errors else ""))
print(f"reloads applied: {applied} of {expected}; versions: {versions}; upstream groups retired after their last"
      f" request: {retired}")
ok = rate >= 2000 and non2xx == 0 and socket_errors == 0 and applied == expected
print(f"zero failed or reset requests at >= 2,000 req/s across {expected} reloads: {'met' if ok else 'MISSED'}")
PY
  } | tee "$RESULTS/summary.txt"
}

main "$@"
