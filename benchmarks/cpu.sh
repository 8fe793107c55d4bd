#!/usr/bin/env bash
# CPU time and bytes allocated per request, socket-less: Parry's and the raw-Netty baseline's server connections fed
# the same requests on one thread, alternating, with that thread's CPU time read around each round
# (io.parry.benchmarks.socketless.ThreadCpuHarness). A loaded machine delays the thread but adds little to its CPU
# time, so this is the figure to compare on a shared box; it leaves out the socket, the kernel and the GC threads, so
# it is a developer's tool beside load.sh and h2.sh, not their replacement. Opens no port. See README.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

JVM_FLAGS=${JVM_FLAGS:--Xms512m -Xmx512m -XX:+UseParallelGC -Dio.netty.leakDetection.level=disabled}
export SCENARIOS=${SCENARIOS:-h1-plaintext h1-json h1-echo h2-plaintext}
export ROUNDS=${ROUNDS:-7}
export REQUESTS=${REQUESTS:-200000}
export WARMUP_REQUESTS=${WARMUP_REQUESTS:-500000}

ensure_jars
RESULTS=$(results_dir cpu)
# shellcheck disable=SC2086  # JVM_FLAGS is a list of flags
"$JAVA" $JVM_FLAGS -cp "$BENCH_JAR" io.parry.benchmarks.socketless.ThreadCpuHarness | tee "$RESULTS/cpu.txt"
echo "command: SCENARIOS='$SCENARIOS' ROUNDS=$ROUNDS REQUESTS=$REQUESTS WARMUP_REQUESTS=$WARMUP_REQUESTS JVM_FLAGS='$JVM_FLAGS' benchmarks/cpu.sh" \
  | tee -a "$RESULTS/cpu.txt"
