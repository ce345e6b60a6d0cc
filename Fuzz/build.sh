#!/usr/bin/env bash
# Builds the libFuzzer targets into .build/fuzz/: each compiles the sources it exercises together
# with its entry point into one executable, with -sanitize=fuzzer,address.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out/src"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6)

# Sources that import sibling modules are copied without those imports, so one module holds all.
strip_imports() { sed -E '/^import (ReckonPolicy|ReckonAppStore|ReckonSQLite|CSQLite)$/d' "$1" > "$2"; }

policy_sources=$(find Sources/ReckonPolicy -name '*.swift')
strip_imports Sources/ReckonFacts/FactSchema.swift "$out/src/FactSchema.swift"
swiftc "${flags[@]}" -module-name PolicyFuzz $policy_sources "$out/src/FactSchema.swift" \
  Fuzz/PolicyFuzzer.swift -o "$out/policy"

appstore_sources=$(find Sources/ReckonAppStore -name '*.swift')
swiftc "${flags[@]}" -module-name JWSFuzz -I Sources/COpenSSL -Xcc -fmodule-map-file=Sources/COpenSSL/module.modulemap \
  $appstore_sources Fuzz/JWSFuzzer.swift -lcrypto -o "$out/jws"

swiftc "${flags[@]}" -module-name HTTPFuzz Sources/ReckonServer/HTTPRequestParser.swift \
  Sources/ReckonServer/HTTPRequest.swift Sources/ReckonServer/HTTPParseError.swift \
  Fuzz/HTTPFuzzer.swift -o "$out/http"
echo "built: $out/policy $out/jws $out/http"
