#!/usr/bin/env bash
# The cost of observability: one plaintext server (a router with GET /plaintext) with tracing and the MDC,
# Micrometer server metrics and a JSON access log all on (reported as "parry") against the same server with all of
# them off (reported as "baseline"), through load.sh's interleaved rounds. Target: on/off >= 0.9.
set -euo pipefail
cd "$(dirname "$0")/.."
server='$JAVA $JVM_FLAGS -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.observability.ObservedHelloServer'
export PARRY_CMD="env OBSERVABILITY=on $server"
export BASELINE_CMD="env OBSERVABILITY=off $server"
echo "observability: 'parry' = tracing + metrics + access log on, 'baseline' = all off (same server class)"
# Ports of its own (load.sh's are 8080 and 8081), so that it can run beside load.sh.
PARRY_PORT=${PARRY_PORT:-8084} BASELINE_PORT=${BASELINE_PORT:-8085} SCENARIOS=${SCENARIOS:-plaintext} exec benchmarks/load.sh
