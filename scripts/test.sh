#!/usr/bin/env bash
# The whole test suite: set up the toolchains, then formatting, lints, and every test of
# the workspace (every generated language runs against the reference evaluator).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
# The SQL function runs on a real PostgreSQL: one of this run's own unless PGHOST names one.
if [ -z "${PGHOST:-}" ]; then . scripts/postgres.sh; fi
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
# The speed limit is the release binary's (tests/speed.rs): 30,000 rows under 0.5 s of CPU.
cargo test --release --test speed
# The fuzz target, for a bounded time (RULEC_FUZZ_SECONDS, 60 by default): 0 crashes.
RULEC_FUZZ_SECONDS="${RULEC_FUZZ_SECONDS:-60}" scripts/fuzz.sh
