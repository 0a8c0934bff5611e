#!/usr/bin/env bash
# Calls per second of the generated Python parcel_rate, over the whole domain of the rule:
# weight 1..70 × girth 1..130 × 3 zones × 2 booleans = 54,600 calls a pass, in python3 itself,
# repeated until at least a second has passed. Prints one line: `python <calls/s>`.
#
# RULEC names the rulec binary to generate with (default: target/release/rulec, else
# target/debug/rulec, else one built with cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
rulec="${RULEC:-}"
if [ -z "$rulec" ]; then
    if [ -x target/release/rulec ]; then
        rulec=target/release/rulec
    elif [ -x target/debug/rulec ]; then
        rulec=target/debug/rulec
    else
        cargo build --release --quiet --bin rulec
        rulec=target/release/rulec
    fi
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$rulec" gen tests/corpus/parcel_rate.rule --lang python --out "$out" --lock "$out/rulec.lock" >/dev/null
cd "$out/python"
python3 -B - <<'PY'
import time

from parcel_rate import Zone, parcel_rate

domain = [(w, g, z, s) for w in range(1, 71) for g in range(1, 131) for z in Zone for s in (False, True)]
assert len(domain) == 54600
calls = 0
start = time.perf_counter()
while True:
    for w, g, z, s in domain:
        parcel_rate(w, g, z, s)
    calls += len(domain)
    elapsed = time.perf_counter() - start
    if elapsed >= 1.0:
        break
print(f"python {calls / elapsed:.0f}")
PY
