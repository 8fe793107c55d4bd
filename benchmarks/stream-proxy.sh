#!/usr/bin/env bash
# 1 GiB up and 1 GiB down, one stream at a time, to a raw-Netty upstream (StreamUpstreamServer) called directly,
# through NGINX (no request or response buffering) and through Parry's proxy example under -Xmx64m and 64 MiB of
# direct memory, in interleaved rounds. Checks every byte count, prints median MiB/s per direction and the proxy's
# heap after GC. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"
FIRST_PORT=8160
source "$ROOT/benchmarks/proxy-common.sh"

export JVM_FLAGS=${JVM_FLAGS:--Xmx64m -XX:MaxDirectMemorySize=64m}
UPSTREAM_JVM_FLAGS=${UPSTREAM_JVM_FLAGS:--Xmx256m}
BYTES=${BYTES:-1073741824}
ROUNDS=${ROUNDS:-$RATIO_ROUNDS}
WARMUP_BYTES=${WARMUP_BYTES:-268435456}
UPLOAD_FRAMING=${UPLOAD_FRAMING:-length}
TIMEOUT_SECONDS=${TIMEOUT_SECONDS:-120}
TARGETS=${TARGETS:-direct nginx parry}
UPSTREAM_CLASS=io/parry/benchmarks/upstream/StreamUpstreamServer.class

# A benchmarks jar built before the stream upstream existed lacks it; ensure_jars only builds missing jars.
ensure_stream_upstream() {
  if [[ -f $BENCH_JAR ]] && ! python3 -c 'import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())' \
    "$BENCH_JAR" "$UPSTREAM_CLASS"; then
    echo "rebuilding the benchmarks jar, which lacks the stream upstream"
    mvn -B -q -DskipTests package -pl benchmarks -am
  fi
}

# record DIRECTION TARGET LABEL CODE BYTES SECONDS: appends one transfer and prints it; ok needs 200 and every byte.
record() {
  local ok=FAIL
  [[ $4 == 200 && $5 == "$BYTES" ]] && ok=ok
  echo "$1 $2 $3 $4 $5 $6 $ok" >>"$RESULTS/transfers.txt"
  printf '  %-8s %-7s %-4s status %s, %s bytes in %s s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$ok"
}

# upload TARGET LABEL: POSTs BYTES zeros; the upstream answers with the number of body bytes it received. Expect is
# turned off so no proxy's handling of 100-continue adds curl's one-second wait to the figure.
upload() {
  local url body=$RESULTS/upload.$1.$2.body result code seconds received
  url=http://127.0.0.1:$(target_port "$1")/upload
  local curl=(curl -sS -X POST -H 'Expect:' --max-time "$TIMEOUT_SECONDS" -o "$body" -w '%{http_code} %{time_total}')
  if [[ $UPLOAD_FRAMING == chunked ]]; then
    result=$(head -c "$BYTES" /dev/zero | "${curl[@]}" -T - "$url" 2>>"$RESULTS/curl.log") || true
  else
    result=$("${curl[@]}" -T "$UPLOAD_FILE" "$url" 2>>"$RESULTS/curl.log") || true
  fi
  read -r code seconds <<<"$result"
  received=$(tr -dc 0-9 2>/dev/null <"$body" || true)
  record upload "$1" "$2" "${code:-000}" "${received:-0}" "${seconds:-0}"
}

# download TARGET LABEL: GETs BYTES zeros and counts them.
download() {
  local url result code size seconds
  url="http://127.0.0.1:$(target_port "$1")/download?bytes=$BYTES"
  result=$(curl -sS --max-time "$TIMEOUT_SECONDS" -o /dev/null -w '%{http_code} %{size_download} %{time_total}' \
    "$url" 2>>"$RESULTS/curl.log") || true
  read -r code size seconds <<<"$result"
  record download "$1" "$2" "${code:-000}" "${size:-0}" "${seconds:-0}"
}

# warm_up TARGET: a smaller upload (chunked) and download, not measured, so the rounds run compiled code.
warm_up() {
  local port
  port=$(target_port "$1")
  head -c "$WARMUP_BYTES" /dev/zero | curl -sS -X POST -H 'Expect:' --max-time "$TIMEOUT_SECONDS" -o /dev/null \
    -T - "http://127.0.0.1:$port/upload" 2>>"$RESULTS/curl.log" || echo "warning: warm-up upload via $1 failed" >&2
  curl -sS --max-time "$TIMEOUT_SECONDS" -o /dev/null "http://127.0.0.1:$port/download?bytes=$WARMUP_BYTES" \
    2>>"$RESULTS/curl.log" || echo "warning: warm-up download via $1 failed" >&2
}

# A sparse file reads as zeros without using disk; reading it once first puts it in the page cache, so the first
# upload does not pay for that.
prepare_upload_file() {
  UPLOAD_FILE=$RESULTS/upload.bin
  if [[ $UPLOAD_FRAMING == length ]]; then
    truncate -s "$BYTES" "$UPLOAD_FILE"
    cat "$UPLOAD_FILE" >/dev/null
  elif [[ $UPLOAD_FRAMING != chunked ]]; then
    echo "UPLOAD_FRAMING: $UPLOAD_FRAMING (expected: length or chunked)" >&2
    exit 1
  fi
}

# process_figures: peak RSS of each proxy and, for Parry, threads and heap after a full GC once the streams are done.
process_figures() {
  local worker rss=0
  if [[ -n ${PROXY_PID:-} ]]; then
    echo "parry $(heap_after_gc_kib "$PROXY_PID") $(proc_status_value "$PROXY_PID" VmHWM)" \
      "$(proc_status_value "$PROXY_PID" Threads)" >"$RESULTS/process.txt"
  fi
  if [[ -n ${NGINX_PID:-} ]]; then
    for worker in $(pgrep -P "$NGINX_PID"); do
      rss=$((rss + $(proc_status_value "$worker" VmHWM)))
    done
    echo "nginx - $rss -" >>"$RESULTS/process.txt"
  fi
}

# summarize DIR: median MiB/s of payload per direction and via, and the proxy's memory.
summarize() {
  python3 - "$1" "$TARGETS" "$BYTES" "${HEAP_BEFORE:-}" <<'PY'
import os, re, statistics, sys

results, targets, size, heap_before = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), sys.argv[4]
MIB = {"K": 1 / 1024, "M": 1, "G": 1024}
transfers = [line.split() for line in open(os.path.join(results, "transfers.txt"))]

print(f"{'direction':<10}{'via':<8}{'ok':>6}{'MiB/s':>9}{'min':>8}{'max':>8}{'vs NGINX':>10}")
for direction in ("upload", "download"):
    medians = {}
    for target in targets:
        runs = [t for t in transfers if t[0] == direction and t[1] == target]
        speeds = [size / float(t[5]) / (1 << 20) for t in runs if t[6] == "ok" and float(t[5]) > 0]
        ok = f"{len(speeds)}/{len(runs)}"
        if not speeds:
            print(f"{direction:<10}{target:<8}{ok:>6}{'no complete transfer':>25}")
            continue
        medians[target] = statistics.median(speeds)
        ratio = f"{medians[target] / medians['nginx']:>10.2f}" if target != "nginx" and "nginx" in medians else ""
        print(f"{direction:<10}{target:<8}{ok:>6}{medians[target]:>9.0f}{min(speeds):>8.0f}{max(speeds):>8.0f}{ratio}")

gc_log = os.path.join(results, "proxy.gc.log")
if os.path.exists(gc_log):
    after = [float(v) * MIB[u] for v, u in re.findall(r"\d+[KMG]->(\d+)([KMG])\(\d+[KMG]\)", open(gc_log).read())]
    print()
    if after:
        print(f"Parry proxy heap after GC (-Xlog:gc): {len(after)} GCs, max {max(after):.1f} MiB, last {after[-1]:.1f} MiB")
for line in open(os.path.join(results, "process.txt")) if os.path.exists(os.path.join(results, "process.txt")) else []:
    name, heap, hwm, threads = line.split()
    if name == "parry":
        before = f"{int(heap_before) / 1024:.1f} MiB before the streams, " if heap_before else ""
        print(f"Parry proxy heap after a full GC: {before}{int(heap) / 1024:.1f} MiB after;"
              f" peak RSS {int(hwm) / 1024:.0f} MiB; {threads} threads")
    else:
        print(f"NGINX workers' peak RSS, summed: {int(hwm) / 1024:.0f} MiB")
PY
}

main() {
  prepare_targets stream-upstream "$TARGETS"
  ensure_stream_upstream
  RESULTS=$(results_dir stream-proxy)
  prepare_upload_file
  trap 'rm -f "$UPLOAD_FILE"; cleanup' EXIT
  echo "results in $RESULTS (JVM_FLAGS='$JVM_FLAGS', $BYTES bytes per stream, uploads framed by $UPLOAD_FRAMING)"
  start_targets stream-upstream off "$JVM_FLAGS -Xlog:gc:file=$RESULTS/proxy.gc.log" "$TARGETS"
  if [[ -n ${PROXY_PID:-} ]]; then
    HEAP_BEFORE=$(heap_after_gc_kib "$PROXY_PID")
  fi
  local round target
  for target in $TARGETS; do
    warm_up "$target"
  done
  for ((round = 1; round <= ROUNDS; round++)); do
    for target in $(rotated "$round" "$TARGETS"); do
      upload "$target" "r$round"
      download "$target" "r$round"
    done
  done
  process_figures
  rm -f "$UPLOAD_FILE"
  {
    echo
    echo "command: BYTES=$BYTES ROUNDS=$ROUNDS WARMUP_BYTES=$WARMUP_BYTES UPLOAD_FRAMING=$UPLOAD_FRAMING TARGETS='$TARGETS'" \
      "JVM_FLAGS='$JVM_FLAGS' benchmarks/stream-proxy.sh"
    describe_targets stream-upstream "$TARGETS"
    echo "curl:     $(curl -V | head -n 1 | cut -d' ' -f1-2); $(nproc) cores; $(uname -sr)"
    echo "MiB/s: $BYTES payload bytes / curl's time_total, median of the transfers that moved every byte"
    echo
    summarize "$RESULTS"
  } | tee "$RESULTS/summary.txt"
  ! grep -q ' FAIL$' "$RESULTS/transfers.txt"
}

main "$@"
