#!/usr/bin/env bash
# Runs every fuzz target for a short time (default 20 s each), for CI:
# installs cargo-fuzz and the nightly toolchain if missing, seeds the
# corpora from tests/vectors, prints each target's executions, and fails
# (printing the crash) when a target finds one.
# Usage: bash fuzz/smoke.sh [seconds-per-target]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-20}
targets=(read_framed read_stream roundtrip arena_ops packed_codec read_packed message_stream hostile_io compile_schema compile_tree stream_codecs async_read generate_request rpc_peer rpc_graph json_decode parse_text serde_values compat_check)

rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || true
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
./seed.sh >/dev/null

cargo +nightly fuzz build
failed=0
for t in "${targets[@]}"; do
  log=$(mktemp)
  if cargo +nightly fuzz run "$t" -- -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz $t: ${execs:-?} executions in ${secs} s, no crash"
  else
    echo "fuzz $t: FAILED"
    grep -E -A20 'panicked|ERROR: libFuzzer|Test unit written' "$log" | head -60 || tail -40 "$log"
    failed=1
  fi
  rm -f "$log"
done
exit "$failed"
