#!/usr/bin/env bash
# Streamed echo of a large body (1 GiB by default) through each server under a 64 MiB heap and 64 MiB of direct
# memory: checks the bytes, reports throughput and the largest heap left after any GC. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xmx64m -XX:MaxDirectMemorySize=64m}
BYTES=${BYTES:-1073741824}
TARGET=${TARGET:-parry baseline}
PORT=${PORT:-8091}
TIMEOUT_SECONDS=${TIMEOUT_SECONDS:-300}

# gc_summary LOG: the number of GCs that report heap sizes, and the largest and last heap after GC, in MiB.
gc_summary() {
  python3 - "$1" <<'PY'
import re, sys
MIB = {"K": 1 / 1024, "M": 1, "G": 1024}
after = [float(v) * MIB[u] for v, u in re.findall(r"\d+[KMG]->(\d+)([KMG])\(\d+[KMG]\)", open(sys.argv[1]).read())]
print(f"{len(after)} {max(after):.1f} {after[-1]:.1f}" if after else "0 - -")
PY
}

measure() {
  local target=$1 gc_log=$RESULTS/$1.gc.log out=$RESULTS/$1.client.log verdict speed gcs max last
  start_server "$target" "$PORT" "$JVM_FLAGS -Xlog:gc:file=$gc_log" "$RESULTS/$target.server.log"
  PORT=$PORT BYTES=$BYTES TIMEOUT_SECONDS=$TIMEOUT_SECONDS "$JAVA" -Xmx128m -cp "$BENCH_JAR" \
    io.parry.benchmarks.StreamEcho >"$out" 2>&1 || true
  stop_pid "$SERVER_PID"
  cat "$out"
  verdict=$(tail -n 1 "$out")
  [[ $verdict == PASS ]] || FAILED=1
  speed=$(grep -o '[0-9.]* MiB/s' "$out" || echo '- MiB/s')
  read -r gcs max last < <(gc_summary "$gc_log")
  printf '%-9s%-8s%12s%6s%14s%15s\n' "$target" "${verdict%%:*}" "${speed% MiB/s}" "$gcs" "$max" "$last" \
    >>"$RESULTS/table.txt"
}

main() {
  ensure_jars $TARGET
  RESULTS=$(results_dir stream)
  FAILED=0
  local target
  printf '%-9s%-8s%12s%6s%14s%15s\n' server result 'MiB/s' GCs 'max after GC' 'last after GC' >"$RESULTS/table.txt"
  for target in $TARGET; do
    measure "$target"
  done
  {
    echo
    echo "command: TARGET='$TARGET' BYTES=$BYTES JVM_FLAGS='$JVM_FLAGS' benchmarks/stream.sh"
    for target in $TARGET; do echo "$target: $(server_command "$target")"; done
    echo "java: $(java_version)"
    echo "heap after GC in MiB, from each server's -Xlog:gc; results in $RESULTS"
    echo
    cat "$RESULTS/table.txt"
  } | tee "$RESULTS/summary.txt"
  exit "$FAILED"
}

main "$@"
