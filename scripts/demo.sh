#!/usr/bin/env bash
# The main job on the examples: check every rule (proofs and expects), then evaluate recorded calls.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rulec=target/release/rulec
"$rulec" check examples/rules
for calls in examples/calls/*.jsonl; do
  rule="examples/rules/$(basename "$calls" .jsonl).rule"
  echo "== rulec eval $rule --in - < $calls"
  "$rulec" eval "$rule" --in - < "$calls"
done
