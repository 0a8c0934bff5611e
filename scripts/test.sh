#!/usr/bin/env bash
# The whole test suite: set up the toolchains, then formatting, lints, and every test of
# the workspace (every generated language runs against the reference evaluator).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
# The fuzz target, for a bounded time (RULEC_FUZZ_SECONDS, 60 by default): 0 crashes.
RULEC_FUZZ_SECONDS="${RULEC_FUZZ_SECONDS:-60}" scripts/fuzz.sh
