#!/usr/bin/env bash
# CI's short fuzz run (FuzzSmokeTests runs it from `swift test`): builds the targets unless they
# are up to date, then runs all three at once for SECONDS each (default 5). Exits non-zero, with
# the failing target's log, if a build fails or a target crashes, hangs or runs out of memory;
# the input that did it is in Fuzz/crashes/TARGET/. It builds into .build/fuzz-ci with -Onone
# (less than half the compile time of -O; a few seconds of fuzzing need no speed), leaving the
# -O binaries of the long runs in .build/fuzz alone.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
export FUZZ_OUT=${FUZZ_OUT:-.build/fuzz-ci} FUZZ_OPTIMIZATION=${FUZZ_OPTIMIZATION:--Onone}
targets=(policy jws http)
started=$SECONDS
Fuzz/build.sh || { echo "Fuzz/build.sh failed: is libFuzzer (swiftc -sanitize=fuzzer) available?"; exit 1; }
echo "build: $((SECONDS - started)) s"
pids=()
for target in "${targets[@]}"; do
  Fuzz/run.sh "$target" "$seconds" > "$FUZZ_OUT/smoke-$target.log" 2>&1 &
  pids+=($!)
done
status=0
for index in "${!targets[@]}"; do
  target=${targets[$index]}
  log=$FUZZ_OUT/smoke-$target.log
  if wait "${pids[$index]}" && grep -q '^stat::number_of_executed_units' "$log"; then
    echo "fuzz target $target: ok, $(grep '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs"
  else
    echo "fuzz target $target: FAILED"
    tail -n 60 "$log"
    status=1
  fi
done
echo "total: $((SECONDS - started)) s"
exit $status
