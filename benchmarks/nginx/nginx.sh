# shellcheck shell=bash
# NGINX as the reference reverse proxy (sourced after common.sh, not run): installs nginx-light when missing, then
# starts it in the foreground from a private prefix with a config made from proxy.conf.template, so its PID is
# the master's and stop_pid stops it.

NGINX_TEMPLATE=$ROOT/benchmarks/nginx/proxy.conf.template

nginx_binary() {
  command -v nginx || { [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx; }
}

# ensure_nginx: installs nginx-light with apt-get (through sudo when not root) unless nginx is already there.
ensure_nginx() {
  [[ -n $(nginx_binary) ]] && return 0
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || { echo "nginx is missing; install nginx-light (needs root)" >&2; exit 1; }
    sudo=(sudo)
  fi
  echo "installing nginx-light"
  "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q nginx-light
  # The package may start the system's own nginx; the benchmarks only use the one they start.
  [[ -n $(nginx_binary) ]] || { echo "nginx-light installed but no nginx binary found" >&2; exit 1; }
}

# start_nginx PORT UPSTREAM_PORT BUFFERING PREFIX: proxies 127.0.0.1:PORT to 127.0.0.1:UPSTREAM_PORT with one
# worker per core and a keep-alive upstream pool; BUFFERING (on|off) sets both request and response buffering.
# Waits until it listens; sets SERVER_PID.
start_nginx() {
  local port=$1 upstream_port=$2 buffering=$3 prefix=$4 user=''
  mkdir -p "$prefix"
  # A root master runs its workers as nobody, who must reach the temp directories inside the prefix.
  if ((EUID == 0)); then
    chmod 755 "$prefix"
    user="user nobody $(id -gn nobody 2>/dev/null || echo nogroup);"
  fi
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@WORKERS@|$(nproc)|g" -e "s|@PORT@|$port|g" \
    -e "s|@UPSTREAM_PORT@|$upstream_port|g" -e "s|@BUFFERING@|$buffering|g" -e "s|@USER@|$user|g" \
    "$NGINX_TEMPLATE" >"$prefix/nginx.conf"
  if port_open "$port"; then
    echo "port $port is already in use; stop what listens there or choose another port" >&2
    exit 1
  fi
  echo "starting nginx on port $port -> $upstream_port (buffering $buffering): $prefix/nginx.conf"
  "$(nginx_binary)" -c "$prefix/nginx.conf" -p "$prefix" -e "$prefix/error.log" >"$prefix/stdout.log" 2>&1 &
  SERVER_PID=$!
  CHILD_PIDS+=("$SERVER_PID")
  wait_for_port "$port" "$SERVER_PID" "$prefix/error.log"
}
