#!/usr/bin/env bash
# The whole path on one machine, on loopback, then stops: a local App Store stand-in, `reckon
# serve` with the bundled example configuration (trusting a local test CA instead of Apple's
# root), one signed CONSUMPTION_REQUEST for the example transaction, the decision and the body
# the stand-in received; then the same for Google Play: a Google Play stand-in, `reckon serve`
# with examples/google-play (trusting a local OpenID signer instead of Google's keys), one
# authenticated Pub/Sub push of a chargeback review, the decision and the answer Google Play
# received. Needs only Swift and scripts/install-packages; downloads nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

echo "== building reckon (the first build compiles everything and takes a few minutes; later ones take seconds)" >&2
swift build -q --product reckon >&2
bin="$(swift build --show-bin-path)/reckon"
[ -f examples/facts.sqlite ] || sqlite3 examples/facts.sqlite < examples/facts.sql > /dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/reckon-demo.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Waits up to 20 s for a line matching $2 in file $1 and prints it.
wait_for() {
  for _ in $(seq 200); do
    if grep -m1 -- "$2" "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "timed out waiting for '$2' in $1:" >&2
  cat "$1" >&2
  return 1
}

# examples/reckon.json with absolute paths, a port picked by the system, the local CA as the
# only trusted root, a throwaway App Store key and the stand-in as the App Store.
write_config() {
  sed -e "s|\"../policies/targeted.policy\"|\"$root/policies/targeted.policy\"|" \
    -e "s|\"facts.json\"|\"$root/examples/facts.json\"|" \
    -e "s|\"facts.sqlite\"|\"$root/examples/facts.sqlite\"|" \
    -e "s|\"reckon-state.sqlite\"|\"$work/state.sqlite\"|" \
    -e "s|\"privateKeyPath\": \"keys/AuthKey_EXAMPLE123.p8\"|\"privateKeyPath\": \"$work/AuthKey_EXAMPLE123.p8\", \"baseURL\": \"$1\"|" \
    -e "s|\"127.0.0.1:8080\"|\"127.0.0.1:0\"|" \
    -e "s|\"roots\": \[\]|\"roots\": [\"$work/ca/root.pem\"]|" \
    examples/reckon.json > "$work/reckon.json"
}

echo "== a local test CA, trusted by this demo's configuration only" >&2
"$bin" simulate --init-ca "$work/ca" >&2
write_config "http://127.0.0.1:1"

echo "== the App Store stand-in" >&2
"$bin" standin --config "$work/reckon.json" --create-key --record "$work/received.jsonl" \
  > "$work/standin.out" 2>&1 &
pids+=($!)
standin_url=$(wait_for "$work/standin.out" "listening on" | sed 's/^listening on //')
echo "stand-in at $standin_url" >&2
write_config "$standin_url"

echo "== reckon serve" >&2
"$bin" serve --config "$work/reckon.json" 2> "$work/serve.log" &
serve_pid=$!
pids+=($serve_pid)
url=$(wait_for "$work/serve.log" '"event":"listening"' | sed 's/.*"url":"\([^"]*\)".*/\1/')
echo "serving at $url" >&2

echo
echo "== reckon simulate: a CONSUMPTION_REQUEST for transaction 2000000812345678"
"$bin" simulate --ca "$work/ca" --url "$url/apple/notifications" \
  --reason UNINTENDED_PURCHASE --product-type CONSUMABLE --transaction-id 2000000812345678

wait_for "$work/received.jsonl" '"status":202' > /dev/null
echo
echo "== the decision (from the serve log)"
grep '"event":"decided"' "$work/serve.log" | sed 's/.*"message":"\([^"]*\)".*/\1/'
echo
echo "== reckon queue show 1"
"$bin" queue show 1 --config "$work/reckon.json"
echo
echo "== what the App Store stand-in received"
cat "$work/received.jsonl"

kill -TERM "$serve_pid"
wait "$serve_pid"
echo
echo "== reckon serve stopped: $(grep -c . "$work/serve.log") log lines; the last:"
tail -n 1 "$work/serve.log"

# examples/google-play/reckon.json with absolute paths, a port picked by the system, the local
# OpenID signer's keys in place of Google's and the Google Play stand-in as Google.
write_google_config() {
  sed -e "s|\"play.policy\"|\"$root/examples/google-play/play.policy\"|" \
    -e "s|\"facts.json\"|\"$root/examples/google-play/facts.json\"|" \
    -e "s|\"reckon-state.sqlite\"|\"$work/google-state.sqlite\"|" \
    -e "s|\"keys/service-account.json\"|\"$work/service-account.json\", \"baseURL\": \"$1\"|" \
    -e "s|\"path\": \"/google/rtdn\",|\"path\": \"/google/rtdn\", \"keysFile\": \"$work/identity/keys.json\", \"refreshKeys\": false,|" \
    -e "s|\"127.0.0.1:8081\"|\"127.0.0.1:0\"|" \
    examples/google-play/reckon.json > "$work/google.json"
}

echo
echo "== Google Play: a local OpenID signer, trusted by this demo's configuration only" >&2
"$bin" simulate --init-identity "$work/identity" >&2
write_google_config "http://127.0.0.1:1"

echo "== the Google Play stand-in" >&2
"$bin" standin --google-play --config "$work/google.json" --create-key \
  --record "$work/google-received.jsonl" > "$work/google-standin.out" 2>&1 &
pids+=($!)
google_url=$(wait_for "$work/google-standin.out" "listening on" | sed 's/^listening on //')
echo "stand-in at $google_url" >&2
write_google_config "$google_url"

echo "== reckon serve (Google Play)" >&2
"$bin" serve --config "$work/google.json" 2> "$work/google-serve.log" &
google_pid=$!
pids+=($google_pid)
url=$(wait_for "$work/google-serve.log" '"event":"listening"' | sed 's/.*"url":"\([^"]*\)".*/\1/')
echo "serving at $url" >&2

echo
echo "== reckon simulate: a chargeback review of order GPA.3312-5841-2290-11234"
"$bin" simulate --identity "$work/identity" --config "$work/google.json" --url "$url/google/rtdn" \
  --play-reason FRIENDLY_FRAUD

wait_for "$work/google-received.jsonl" '"endpoint":"reviewrefund"' > /dev/null
echo
echo "== the decision (from the serve log)"
grep '"event":"decided"' "$work/google-serve.log" | sed 's/.*"message":"\([^"]*\)".*/\1/'
echo
echo "== what the Google Play stand-in received (the token exchange, then the one answer)"
cat "$work/google-received.jsonl"

kill -TERM "$google_pid"
wait "$google_pid"
echo
echo "== reckon serve stopped: $(grep -c . "$work/google-serve.log") log lines"
