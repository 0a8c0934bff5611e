#!/usr/bin/env bash
# Fuzz the targets of fuzz/fuzz_targets with libFuzzer on stable Rust: the coverage libFuzzer
# steers by comes from LLVM's sanitizer-coverage pass, which stable rustc runs through
# -Cpasses and -Cllvm-args (no nightly, no cargo-fuzz). `parse` (a .rule file through
# everything it meets) is seeded with the corpus, clean and broken, and the walks; `import_dmn` (a DMN
# model through `rulec import dmn`) with tests/dmn. RULEC_FUZZ_SECONDS sets parse's time
# (default 60) and RULEC_DMN_FUZZ_SECONDS import_dmn's (default 30); the run fails on any
# crash, and a line per target gives the executions counted.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"
export CARGO_TARGET_DIR="${RULEC_FUZZ_TARGET_DIR:-target}"
# With --target, RUSTFLAGS reach only what is built for the target, not build scripts and
# proc macros (which have no libFuzzer to link against).
host="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release --bins --target "$host" --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# fuzz TARGET SECONDS MAX_LEN SEED_FILE…: the target on copies of the seeds.
fuzz() {
  local target="$1" seconds="$2" max_len="$3"
  shift 3
  local seeds="$work/$target"
  mkdir -p "$seeds"
  cp "$@" "$seeds"/
  local log="$work/$target.log"
  # -seed fixes the mutations; -timeout makes a case slower than ten seconds a failure (a
  # hang); -rss_limit_mb one that takes more memory.
  if ! "$CARGO_TARGET_DIR/$host/release/$target" -seed=1 -max_total_time="$seconds" -max_len="$max_len" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$seeds/" "$seeds" >"$log" 2>&1; then
    tail -50 "$log"
    echo "fuzz: $target: a crash; the input is above" >&2
    exit 1
  fi
  local runs
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')"
  echo "fuzz: $target: $runs executions in ${seconds} s, 0 crashes"
}

fuzz parse "${RULEC_FUZZ_SECONDS:-60}" 4096 ../tests/corpus/*.rule ../tests/corpus/broken/*.rule ../tests/corpus/shared/*.rule ../tests/walks/*.rule ../tests/walks/broken/*.rule
fuzz import_dmn "${RULEC_DMN_FUZZ_SECONDS:-30}" 16384 $(find ../tests/dmn -name '*.dmn')
