#!/usr/bin/env bash
# The generated Python parcel_rate against the zen-engine package (GoRules' decision
# engine, the peer a Python team would otherwise pick) evaluating the same decision as a
# JDM graph (benches/zen/parcel_rate.jdm.json), in one script, over the whole domain:
# weight 1..70 × girth 1..130 × 3 zones × 2 = 54,600 calls. First both are checked to give
# the same fee on every input; then each is timed for at least a second.
# Needs: pip install zen-engine. Prints `python <calls/s>`, `zen <calls/s>` and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
rulec="${RULEC:-target/release/rulec}"
[ -x "$rulec" ] || { cargo build --release --quiet --bin rulec; rulec=target/release/rulec; }
jdm="$(pwd)/benches/zen/parcel_rate.jdm.json"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$rulec" gen tests/corpus/parcel_rate.rule --lang python --out "$out" --lock "$out/rulec.lock" >/dev/null
cd "$out/python"
JDM="$jdm" python3 -B - <<'PY'
import os
import time

import zen

from parcel_rate import Zone, parcel_rate

decision = zen.ZenEngine().create_decision(open(os.environ["JDM"]).read())
domain = [(w, g, z, s) for w in range(1, 71) for g in range(1, 131) for z in Zone for s in (False, True)]
assert len(domain) == 54600
for w, g, z, s in domain:
    theirs = decision.evaluate({"weight": w, "girth": g, "dest": z.value, "signature": s})["result"]["fee"]
    assert parcel_rate(w, g, z, s) == theirs, (w, g, z, s, theirs)


def rate(call):
    calls, start = 0, time.perf_counter()
    while True:
        for args in domain:
            call(*args)
        calls += len(domain)
        elapsed = time.perf_counter() - start
        if elapsed >= 1.0:
            return calls / elapsed


ours = rate(parcel_rate)
zens = rate(lambda w, g, z, s: decision.evaluate({"weight": w, "girth": g, "dest": z.value, "signature": s}))
print(f"python {ours:.0f}")
print(f"zen {zens:.0f}")
print(f"ratio {ours / zens:.1f}x")
PY
