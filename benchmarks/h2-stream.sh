#!/usr/bin/env bash
# 1 GiB up and the same 1 GiB back down over HTTP/2 at both hops: curl (h2c by prior knowledge, or h2 by ALPN over
# TLS with TLS=1) -> the gateway jar under -Xmx64m and 64 MiB of direct memory -> Parry's hello example over h2c,
# whose POST /echo streams the body back. The body is a deterministic pseudo-random stream (AES-CTR of zeros), so
# its SHA-256 is known before it is sent, and the echoed bytes are hashed as they arrive: every byte is checked in
# both directions with nothing kept on disk. Prints each transfer, MiB/s, and the gateway's heap after GC (the
# largest and last from -Xlog:gc, and after a forced full GC before and after the streams). See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xmx64m -XX:MaxDirectMemorySize=64m}
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:--Xmx256m}
BYTES=${BYTES:-1073741824}
ROUNDS=${ROUNDS:-1}
WARMUP_BYTES=${WARMUP_BYTES:-268435456}
TIMEOUT_SECONDS=${TIMEOUT_SECONDS:-300}
TLS=${TLS:-0}
UPSTREAM_PORT=${UPSTREAM_PORT:-8220}
GATEWAY_PORT=${GATEWAY_PORT:-8221}
ADMIN_PORT=${ADMIN_PORT:-8222}
GATEWAY_CMD="\$JAVA \$JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar"

# pattern BYTES: the first BYTES of the deterministic body on stdout. openssl ends by SIGPIPE when head has enough.
pattern() {
  { openssl enc -aes-128-ctr -nosalt -K 000102030405060708090a0b0c0d0e0f -iv 00000000000000000000000000000000 \
    -in /dev/zero 2>/dev/null || true; } | head -c "$1"
}

# self_signed DIR: an EC P-256 certificate for 127.0.0.1 and localhost, with its PKCS#8 key, in DIR.
self_signed() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout "$1/key.pem" -out "$1/cert.pem" 2>/dev/null
}

# write_config FILE: the gateway's YAML: one route to the echo upstream over h2c, no body limit that 1 GiB reaches.
write_config() {
  local tls=""
  if [[ $TLS == 1 ]]; then
    tls=", tls: { certificates: [ { chain: $RESULTS/cert.pem, key: $RESULTS/key.pem } ] }"
  fi
  cat >"$1" <<EOF
listener: { host: 127.0.0.1, port: $GATEWAY_PORT$tls }
admin: { host: 127.0.0.1, port: $ADMIN_PORT }
accessLog: off
limits: { maxBodySize: 1024GiB }
timeouts: { request: ${TIMEOUT_SECONDS}s }
upstreams:
  echo: { endpoints: ["127.0.0.1:$UPSTREAM_PORT"], protocol: h2c, timeouts: { bodyIdle: 30s, call: 0s } }
routes:
  - { name: echo, match: { prefix: / }, proxy: { upstream: echo } }
EOF
}

# transfer LABEL SIZE: POSTs SIZE pattern bytes to /echo over HTTP/2 and hashes the echo as it arrives; appends
# "LABEL status uploaded downloaded seconds ok|FAIL" to transfers.txt.
transfer() {
  local label=$1 size=$2 expected received result code up down seconds ok=FAIL
  local scheme=http tls=(--http2-prior-knowledge)
  if [[ $TLS == 1 ]]; then
    scheme=https
    tls=(--http2 --cacert "$RESULTS/cert.pem")
  fi
  expected=$(pattern "$size" | sha256sum | cut -d' ' -f1)
  received=$(pattern "$size" | curl -sS "${tls[@]}" -X POST -T - -H 'Content-Type: application/octet-stream' \
    --max-time "$TIMEOUT_SECONDS" -o - -w '%{stderr}%{http_code} %{http_version} %{size_upload} %{size_download} %{time_total}\n' \
    "$scheme://127.0.0.1:$GATEWAY_PORT/echo" 2>"$RESULTS/$label.curl.log" | sha256sum | cut -d' ' -f1) || true
  result=$(tail -n 1 "$RESULTS/$label.curl.log")
  read -r code version up down seconds <<<"$result"
  if [[ $code == 200 && $version == 2 && $up == "$size" && $down == "$size" && $received == "$expected" ]]; then
    ok=ok
  fi
  echo "$label $size ${code:-000} ${version:-?} ${up:-0} ${down:-0} ${seconds:-0} $ok" >>"$RESULTS/transfers.txt"
  printf '  %-7s HTTP/%s status %s, %s bytes up, %s down in %s s, sha256 %s: %s\n' "$label" "${version:-?}" \
    "${code:-000}" "${up:-0}" "${down:-0}" "${seconds:-0}" "${received:0:16}" "$ok"
}

# summarize: MiB/s of each measured transfer (payload one way; the echo moves it both ways at once), and heap.
summarize() {
  python3 - "$RESULTS" "${HEAP_BEFORE:-}" "${HEAP_AFTER:-}" <<'PY'
import os, re, sys

results, before, after_full = sys.argv[1:4]
MIB = {"K": 1 / 1024, "M": 1, "G": 1024}
for line in open(os.path.join(results, "transfers.txt")):
    label, size, code, version, up, down, seconds, ok = line.split()
    if label == "warmup":
        continue
    speed = int(size) / float(seconds) / (1 << 20) if float(seconds) > 0 else 0
    print(f"{label:<8}{ok:<6}{int(size) / (1 << 20):>8.0f} MiB each way in {float(seconds):6.1f} s: {speed:6.1f} MiB/s")
after = [float(v) * MIB[u] for v, u in re.findall(r"\d+[KMG]->(\d+)([KMG])\(\d+[KMG]\)",
                                                  open(os.path.join(results, "gateway.gc.log")).read())]
if after:
    print(f"gateway heap after GC (-Xlog:gc): {len(after)} GCs, max {max(after):.1f} MiB, last {after[-1]:.1f} MiB")
if before and after_full:
    print(f"gateway heap after a full GC: {int(before) / 1024:.1f} MiB before the streams, {int(after_full) / 1024:.1f} MiB after")
PY
}

main() {
  command -v openssl >/dev/null || { echo "openssl is missing: apt-get install openssl" >&2; exit 1; }
  curl -V | grep -qw HTTP2 || { echo "this curl lacks HTTP/2 (nghttp2)" >&2; exit 1; }
  ensure_jars parry
  ensure_gateway_jar
  RESULTS=$(results_dir h2-stream)
  [[ $TLS == 1 ]] && self_signed "$RESULTS"
  write_config "$RESULTS/config/gateway.yaml"
  echo "results in $RESULTS (gateway JVM_FLAGS='$JVM_FLAGS', $BYTES bytes per stream, TLS=$TLS)"
  start_server parry "$UPSTREAM_PORT" "$UPSTREAM_JVM_FLAGS" "$RESULTS/upstream.log"
  PARRY_CMD="$GATEWAY_CMD $RESULTS/config/gateway.yaml" start_server parry "$GATEWAY_PORT" \
    "$JVM_FLAGS -Xlog:gc:file=$RESULTS/gateway.gc.log" "$RESULTS/gateway.log"
  local gateway=$SERVER_PID round
  transfer warmup "$WARMUP_BYTES"
  HEAP_BEFORE=$(heap_after_gc_kib "$gateway")
  for ((round = 1; round <= ROUNDS; round++)); do
    transfer "r$round" "$BYTES"
  done
  HEAP_AFTER=$(heap_after_gc_kib "$gateway")
  {
    echo
    echo "command: BYTES=$BYTES ROUNDS=$ROUNDS TLS=$TLS JVM_FLAGS='$JVM_FLAGS' benchmarks/h2-stream.sh"
    echo "gateway: \$JAVA $JVM_FLAGS -jar parry-gateway/target/parry-gateway.jar gateway.yaml, h2$([[ $TLS == 1 ]] && echo ' over TLS' || echo c) from curl; upstream: examples/hello over h2c"
    echo "java:    $(java_version); curl: $(curl -V | head -n 1 | cut -d' ' -f1-2); $(nproc) cores"
    echo
    summarize
  } | tee "$RESULTS/summary.txt"
  ! grep -q ' FAIL$' "$RESULTS/transfers.txt"
}

main "$@"
