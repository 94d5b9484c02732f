#!/usr/bin/env bash
# Checks each library crate's public API against its committed list in
# api/<crate>.txt (one item a line, from rustdoc's JSON output on the
# nightly toolchain). A change to a public surface then shows in review as
# a change to that list.
#
#   bash scripts/public-api.sh           # check; exits 1 on a difference
#   bash scripts/public-api.sh --update  # rewrite the lists
set -euo pipefail
cd "$(dirname "$0")/.."
# A dated nightly: rustdoc's JSON format changes between nightlies, and
# the lists must not change with it.
toolchain="${CAPNARENA_API_TOOLCHAIN:-nightly-2026-05-19}"
target="target/public-api"
update=0
if [ "${1:-}" = "--update" ]; then update=1; fi
status=0
# crate and the features its published surface is read with (all of them)
for spec in "capnarena:--all-features" "capnarena-build:--all-features" \
  "capnarena-codegen:" "capnarena-compiler:--all-features" \
  "capnarena-dynamic:--all-features" "capnarena-rpc:"; do
  crate="${spec%%:*}"
  features="${spec#*:}"
  # shellcheck disable=SC2086 # $features is one flag or none
  RUSTDOCFLAGS="-Z unstable-options --output-format json" \
    cargo "+$toolchain" doc --quiet --no-deps -p "$crate" $features \
    --target-dir "$target"
  json="$target/doc/${crate//-/_}.json"
  list="api/$crate.txt"
  if [ "$update" = 1 ]; then
    python3 scripts/public_api.py "$json" >"$list"
    echo "$list: $(wc -l <"$list") items"
  elif ! diff -u "$list" <(python3 scripts/public_api.py "$json") \
    --label "$list (committed)" --label "$crate (this tree)"; then
    echo "$crate: the public API differs from $list (lines above)." \
      "If the change is meant, run: bash scripts/public-api.sh --update"
    status=1
  fi
done
exit "$status"
