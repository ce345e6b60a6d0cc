#!/usr/bin/env bash
# Builds the libFuzzer targets into .build/fuzz/ (or $FUZZ_OUT): each compiles the sources it
# exercises together with its entry point into one executable, with -sanitize=fuzzer,address and
# $FUZZ_OPTIMIZATION (default -O). The three build at once; nothing is rebuilt when the binaries
# are newer than every input and were built with the same flags and compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${FUZZ_OUT:-.build/fuzz}
mkdir -p "$out/src"
flags=(-sanitize=fuzzer,address -parse-as-library "${FUZZ_OPTIMIZATION:--O}" -g -swift-version 6)
inputs=(Sources/ReckonSupport Sources/ReckonPolicy Sources/ReckonAppStore Sources/ReckonFacts/FactSchema.swift
  Sources/ReckonFacts/FactSchema+GooglePlay.swift Sources/ReckonFacts/FactSchema+OtherStores.swift
  Sources/ReckonFacts/OtherStoresValue.swift Sources/ReckonHTTP/Server/HTTPRequestParser.swift
  Sources/ReckonHTTP/Server/HTTPRequest.swift
  Sources/ReckonHTTP/Server/HTTPParseError.swift Sources/COpenSSL Fuzz/PolicyFuzzer.swift
  Fuzz/JWSFuzzer.swift Fuzz/HTTPFuzzer.swift Fuzz/build.sh)
stamp=$out/built-with
identity="${flags[*]} $(swiftc --version 2>&1 | head -n 1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$identity" ] \
  && [ -z "$(find "${inputs[@]}" -newer "$stamp" -print -quit)" ]; then
  echo "up to date: $out/policy $out/jws $out/http"
  exit 0
fi
rm -f "$stamp"

# Sources that import sibling modules are copied without those imports, so one module holds all.
sibling_imports='^import (ReckonSupport|ReckonPolicy|ReckonAppStore|ReckonSQLite|CSQLite)$'
# Copies every Swift file under the given folders and files into $out/src/NAME, stripped.
stripped_copy() {
  local name=$1
  shift
  rm -rf "${out:?}/src/$name"
  mkdir -p "$out/src/$name"
  local file
  for file in $(find "$@" -name '*.swift'); do
    sed -E "/$sibling_imports/d" "$file" > "$out/src/$name/$(echo "$file" | tr / _)"
  done
}

build_policy() {
  stripped_copy policy Sources/ReckonSupport Sources/ReckonPolicy Sources/ReckonFacts/FactSchema.swift \
    Sources/ReckonFacts/FactSchema+GooglePlay.swift Sources/ReckonFacts/FactSchema+OtherStores.swift \
    Sources/ReckonFacts/OtherStoresValue.swift
  swiftc "${flags[@]}" -module-name PolicyFuzz -package-name PolicyFuzz \
    $(find "$out/src/policy" -name '*.swift') Fuzz/PolicyFuzzer.swift -o "$out/policy"
}
build_jws() {
  # ReckonAppStore's internals are `package` API.
  stripped_copy jws Sources/ReckonSupport Sources/ReckonAppStore
  swiftc "${flags[@]}" -module-name JWSFuzz -package-name JWSFuzz -I Sources/COpenSSL \
    -Xcc -fmodule-map-file=Sources/COpenSSL/module.modulemap \
    $(find "$out/src/jws" -name '*.swift') Fuzz/JWSFuzzer.swift -lcrypto -o "$out/jws"
}
build_http() {
  swiftc "${flags[@]}" -module-name HTTPFuzz Sources/ReckonHTTP/Server/HTTPRequestParser.swift \
    Sources/ReckonHTTP/Server/HTTPRequest.swift Sources/ReckonHTTP/Server/HTTPParseError.swift \
    Fuzz/HTTPFuzzer.swift -o "$out/http"
}

targets=(policy jws http)
pids=()
for target in "${targets[@]}"; do
  "build_$target" > "$out/build-$target.log" 2>&1 &
  pids+=($!)
done
status=0
for index in "${!targets[@]}"; do
  if ! wait "${pids[$index]}"; then
    # The linker's "Cannot export local symbol '__asan_…'" lines are noise; show the rest.
    echo "building ${targets[$index]} failed:"
    grep -v "Cannot export local symbol" "$out/build-${targets[$index]}.log" | tail -n 40
    status=1
  fi
done
[ "$status" -eq 0 ] || exit 1
echo "$identity" > "$stamp"
echo "built: $out/policy $out/jws $out/http"
