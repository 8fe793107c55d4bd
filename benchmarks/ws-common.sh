# shellcheck shell=bash disable=SC2034  # read by the scripts that source this
# Shared by ws-proxy.sh and ws-idle.sh (sourced after common.sh, not run): a raw-Netty WebSocket echo upstream,
# NGINX and the gateway jar proxying to it, each started by PID and awaited.
source "$ROOT/benchmarks/nginx/nginx.sh"

# Each script that sources this sets FIRST_PORT, the first of its own ports, so that two scripts can run at once.
UPSTREAM_PORT=${UPSTREAM_PORT:-$FIRST_PORT}
NGINX_PORT=${NGINX_PORT:-$((FIRST_PORT + 1))}
GATEWAY_PORT=${GATEWAY_PORT:-$((FIRST_PORT + 2))}
ADMIN_PORT=${ADMIN_PORT:-$((FIRST_PORT + 3))}
GATEWAY_CMD=${GATEWAY_CMD:-'$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar'}
UPSTREAM_CMD='$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.websocket.WebSocketEchoServer'
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:--Xmx512m}

ensure_ws_jars() {
  local modules=()
  [[ -f $BENCH_JAR ]] || modules+=(benchmarks)
  [[ -n ${GATEWAY_CMD_SET:-} || -f $GATEWAY_JAR ]] || modules+=(parry-gateway)
  if ((${#modules[@]})); then
    echo "building ${modules[*]}"
    mvn -B -q -DskipTests package -pl "$(IFS=,; echo "${modules[*]}")" -am
  fi
}

# start_cmd CMD PORT JVM_FLAGS LOG [ARG]: starts a command line in the background and waits until PORT accepts
# connections; sets SERVER_PID.
start_cmd() {
  local cmd=$1 port=$2 flags=$3 log=$4 arg=${5:-}
  if port_open "$port"; then
    echo "port $port is already in use; stop what listens there or choose another port" >&2
    exit 1
  fi
  echo "starting on port $port: $cmd $arg   (JVM_FLAGS='$flags')"
  JAVA=$JAVA JVM_FLAGS=$flags PORT=$port bash -c "exec $cmd $arg" >"$log" 2>&1 &
  SERVER_PID=$!
  CHILD_PIDS+=("$SERVER_PID")
  wait_for_port "$port" "$SERVER_PID" "$log"
}

start_upstream() {
  start_cmd "$UPSTREAM_CMD" "$UPSTREAM_PORT" "$UPSTREAM_JVM_FLAGS" "$RESULTS/upstream.log"
  UPSTREAM_PID=$SERVER_PID
}

start_ws_nginx() {
  NGINX_TEMPLATE=$ROOT/benchmarks/nginx/websocket.conf.template
  start_nginx "$NGINX_PORT" "$UPSTREAM_PORT" off "$RESULTS/nginx"
  NGINX_PID=$SERVER_PID
}

# start_gateway JVM_FLAGS: the gateway jar proxying everything under / (upgrades included) to the upstream, and
# answering GET /plaintext itself for ws-idle.sh's keep-alive connections; no access log, as NGINX has none.
start_gateway() {
  cat >"$RESULTS/config/gateway.yaml" <<YAML
listener: { host: 127.0.0.1, port: $GATEWAY_PORT }
admin: { host: 127.0.0.1, port: $ADMIN_PORT }
accessLog: off
upstreams:
  ws: { endpoints: ["127.0.0.1:$UPSTREAM_PORT"] }
routes:
  - name: plaintext
    match: { path: /plaintext }
    respond: { status: 200, body: "Hello, World!" }
  - name: ws
    match: { prefix: / }
    proxy: { upstream: ws, webSocket: { maxFrameSize: 16MiB, maxMessageSize: 16MiB, idleTimeout: 1h } }
YAML
  start_cmd "$GATEWAY_CMD" "$GATEWAY_PORT" "$1" "$RESULTS/gateway.log" "$RESULTS/config/gateway.yaml"
  GATEWAY_PID=$SERVER_PID
}
