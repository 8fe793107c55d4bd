#!/usr/bin/env bash
# The Autobahn|Testsuite cases, run by kosoku (pip install kosoku), through the gateway jar to the raw-Netty WebSocket
# echo upstream: every case must be OK, NON-STRICT or INFORMATIONAL. CASES (default: all but 12.* and 13.*, the
# permessage-deflate cases, which this upstream does not negotiate; the gateway passes the extension's frames through
# untouched) selects globs, PARALLELISM (2) cases at a time. Reports in benchmarks/results/<timestamp>-ws-autobahn.
set -euo pipefail
source "$(dirname "$0")/common.sh"
FIRST_PORT=8200
source "$ROOT/benchmarks/ws-common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xmx512m}
CASES=${CASES:-1.* 2.* 3.* 4.* 5.* 6.* 7.* 9.* 10.*}
PARALLELISM=${PARALLELISM:-2}

main() {
  command -v kosoku >/dev/null || { echo "kosoku is missing: pip install kosoku (or .ci/tools.sh)" >&2; exit 1; }
  ensure_ws_jars
  RESULTS=$(results_dir ws-autobahn)
  start_upstream
  start_gateway "$JVM_FLAGS"
  wait_for_200 "http://127.0.0.1:$GATEWAY_PORT/plaintext" "$GATEWAY_PID" "$RESULTS/gateway.log"
  local args=() glob
  for glob in $CASES; do args+=(-i "$glob"); done
  kosoku -m fuzzingclient -p "$PARALLELISM" "${args[@]}" -o "$RESULTS/reports" "127.0.0.1:$GATEWAY_PORT" |
    tee "$RESULTS/kosoku.log" | tail -n 20
  ! grep -q 'behavior=FAILED\|behaviorClose=FAILED\|behavior=ERROR' "$RESULTS/kosoku.log"
}

main "$@"
