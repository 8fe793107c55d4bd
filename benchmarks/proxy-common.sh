# shellcheck shell=bash disable=SC2034  # NGINX_PID and PROXY_PID are read by the scripts that source this
# Shared by proxy.sh, slow-upstream.sh and stream-proxy.sh (sourced after common.sh, not run): the three ways each
# script reaches one upstream (direct, via NGINX, via Parry's proxy example), their ports, and starting them.
source "$ROOT/benchmarks/nginx/nginx.sh"

# Each script that sources this sets FIRST_PORT, the first of its own ports, so that two scripts can run at once.
UPSTREAM_PORT=${UPSTREAM_PORT:-$FIRST_PORT}
NGINX_PORT=${NGINX_PORT:-$((FIRST_PORT + 1))}
PROXY_PORT=${PROXY_PORT:-$((FIRST_PORT + 2))}

# target_port TARGET: the port that reaches the upstream directly, via NGINX or via Parry.
target_port() {
  case $1 in
    direct) echo "$UPSTREAM_PORT" ;;
    nginx) echo "$NGINX_PORT" ;;
    parry) echo "$PROXY_PORT" ;;
    *) echo "unknown target: $1 (expected: direct nginx parry)" >&2; exit 1 ;;
  esac
}

# names TARGET TARGETS: whether the space-separated TARGETS include TARGET.
names() {
  [[ " $2 " == *" $1 "* ]]
}

# prepare_targets UPSTREAM TARGETS: NGINX and the jars the upstream (a server_command target) and TARGETS need.
prepare_targets() {
  if names nginx "$2"; then
    ensure_nginx
  fi
  if names parry "$2"; then
    ensure_jars "$1" proxy
  else
    ensure_jars "$1"
  fi
}

# start_targets UPSTREAM BUFFERING PROXY_FLAGS TARGETS: starts the upstream on UPSTREAM_PORT, then NGINX (with
# BUFFERING on or off) and Parry's proxy (with PROXY_FLAGS) if TARGETS name them, each awaited until GET /plaintext
# answers 200 through it. Exports UPSTREAM for the proxy; sets NGINX_PID and PROXY_PID.
start_targets() {
  local log=$RESULTS/upstream.log
  start_server "$1" "$UPSTREAM_PORT" "$UPSTREAM_JVM_FLAGS" "$log"
  wait_for_200 "http://127.0.0.1:$UPSTREAM_PORT/plaintext" "$SERVER_PID" "$log"
  export UPSTREAM=http://127.0.0.1:$UPSTREAM_PORT
  if names nginx "$4"; then
    start_nginx "$NGINX_PORT" "$UPSTREAM_PORT" "$2" "$RESULTS/nginx"
    NGINX_PID=$SERVER_PID
    wait_for_200 "http://127.0.0.1:$NGINX_PORT/plaintext" "$SERVER_PID" "$RESULTS/nginx/error.log"
  fi
  if names parry "$4"; then
    log=$RESULTS/proxy.log
    start_server proxy "$PROXY_PORT" "$3" "$log"
    PROXY_PID=$SERVER_PID
    wait_for_200 "http://127.0.0.1:$PROXY_PORT/plaintext" "$SERVER_PID" "$log"
  fi
}

# describe_targets UPSTREAM TARGETS: the command lines of the summary's header.
describe_targets() {
  echo "upstream: $(server_command "$1")   (JVM_FLAGS='$UPSTREAM_JVM_FLAGS')"
  if names parry "$2"; then
    echo "parry:    UPSTREAM=$UPSTREAM $(server_command proxy)"
  fi
  if names nginx "$2"; then
    echo "nginx:    $("$(nginx_binary)" -v 2>&1), $(nproc) workers, $RESULTS/nginx/nginx.conf"
  fi
  echo "java:     $(java_version)"
}
