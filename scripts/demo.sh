#!/usr/bin/env bash
# The main job on the examples: check every rule (proofs and expects), generate every
# language, hold every generated language to the reference evaluator on the boundary
# vectors, then evaluate recorded calls. Installs the toolchains first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
# The SQL function runs on a real PostgreSQL: one of this run's own unless PGHOST names one.
if [ -z "${PGHOST:-}" ]; then . scripts/postgres.sh; fi
cargo build --release --quiet
rulec=target/release/rulec
out=target/demo
rm -rf "$out"
echo "== rulec check examples/rules"
"$rulec" check examples/rules
echo "== rulec gen examples/rules --out $out/generated"
"$rulec" gen examples/rules --out "$out/generated" --lock "$out/rulec.lock" --format json
echo "== rulec test $out/generated"
"$rulec" test "$out/generated"
for calls in examples/calls/*.jsonl; do
  rule="examples/rules/$(basename "$calls" .jsonl).rule"
  echo "== rulec eval $rule --in - < $calls"
  "$rulec" eval "$rule" --in - < "$calls"
done
