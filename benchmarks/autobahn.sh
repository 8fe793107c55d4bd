#!/usr/bin/env bash
# The whole Autobahn|Testsuite, run by kosoku (pip install kosoku), against examples/hello's /ws/echo: every case
# must be OK, NON-STRICT or INFORMATIONAL (UNIMPLEMENTED, FAILED or ERROR fail the run). Reports (index.html,
# index.json) go to benchmarks/results/<timestamp>-autobahn. Not a load test, but long: about half an hour on two
# cores. CASES narrows it, such as CASES='1.* 9.1.*'. A smaller subset runs in the build: HelloAutobahnTest.
set -euo pipefail
source "$(dirname "$0")/common.sh"

PORT=${PORT:-8096}
PARALLELISM=${PARALLELISM:-2}
CASES=${CASES:-}
export JVM_FLAGS=${JVM_FLAGS:--Xms1g -Xmx1g}

command -v kosoku >/dev/null || { echo "kosoku is missing: pip install kosoku" >&2; exit 1; }
ensure_jars parry
RESULTS=$(results_dir autobahn)
start_server parry "$PORT" "$JVM_FLAGS" "$RESULTS/hello.log"

args=(-p "$PARALLELISM" -o "$RESULTS")
for pattern in $CASES; do
  args+=(-i "$pattern")
done
echo "kosoku ${args[*]} ws://127.0.0.1:$PORT/ws/echo"
kosoku "${args[@]}" "ws://127.0.0.1:$PORT/ws/echo" >"$RESULTS/kosoku.log" 2>&1 || true
stop_pid "$SERVER_PID"

python3 - "$RESULTS/index.json" <<'PY'
import json, sys
from collections import Counter

passing = {"OK", "NON-STRICT", "INFORMATIONAL"}
cases = {case: result for agent in json.load(open(sys.argv[1])).values() for case, result in agent.items()}
verdicts = Counter(result["behavior"] for result in cases.values())
failed = sorted(case for case, result in cases.items()
                if result["behavior"] not in passing or result["behaviorClose"] not in passing)
print(f"{len(cases)} cases: " + ", ".join(f"{count} {verdict}" for verdict, count in sorted(verdicts.items())))
for case in failed:
    print(f"  {case}: {cases[case]['behavior']} / {cases[case]['behaviorClose']}")
sys.exit(1 if failed or not cases else 0)
PY
