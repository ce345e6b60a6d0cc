#!/usr/bin/env bash
# Runs one fuzz target (policy, jws or http) for SECONDS, starting from the seed corpus in
# Fuzz/corpus/TARGET; new inputs go to a scratch corpus, crashes to Fuzz/crashes/TARGET/.
# Usage: Fuzz/run.sh TARGET SECONDS   (build first with Fuzz/build.sh; $FUZZ_OUT as there)
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1
seconds=${2:-60}
out=${FUZZ_OUT:-.build/fuzz}
scratch=$out/corpus-$target
mkdir -p "$scratch" "Fuzz/crashes/$target"
"$out/$target" "$scratch" "Fuzz/corpus/$target" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="Fuzz/crashes/$target/" -print_final_stats=1
