#!/usr/bin/env bash
# Fuzz fuzz/fuzz_targets/parse.rs with libFuzzer on stable Rust: the coverage libFuzzer
# steers by comes from LLVM's sanitizer-coverage pass, which stable rustc runs through
# -Cpasses and -Cllvm-args (no nightly, no cargo-fuzz). Seeds: the corpus, clean and broken.
# RULEC_FUZZ_SECONDS sets the time (default 60); the run fails on any crash, and its last
# line gives the executions counted.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${RULEC_FUZZ_SECONDS:-60}"
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"
export CARGO_TARGET_DIR="${RULEC_FUZZ_TARGET_DIR:-target}"
# With --target, RUSTFLAGS reach only what is built for the target, not build scripts and
# proc macros (which have no libFuzzer to link against).
host="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release --bin parse --target "$host" --quiet
seeds="$(mktemp -d)"
trap 'rm -rf "$seeds"' EXIT
cp ../tests/corpus/*.rule ../tests/corpus/broken/*.rule ../tests/corpus/shared/*.rule "$seeds"/
log="$seeds/fuzz.log"
# -seed fixes the mutations; -timeout makes a case slower than ten seconds a failure (a hang);
# -rss_limit_mb one that takes more memory.
if ! "$CARGO_TARGET_DIR/$host/release/parse" -seed=1 -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$seeds/" "$seeds" >"$log" 2>&1; then
  tail -50 "$log"
  echo "fuzz: a crash; the input is above" >&2
  exit 1
fi
runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')"
echo "fuzz: parse: $runs executions in ${seconds} s, 0 crashes"
