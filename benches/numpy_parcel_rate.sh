#!/usr/bin/env bash
# The NumPy plan of parcel_rate deciding 1,000,000 rows in one call (the whole domain of
# 54,600 inputs, repeated), against a hand-written NumPy function over the same columns, in one
# python3 process: both first checked to give the same fee on every row, then timed (best of
# five). Prints rows/s of each and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
rulec="${RULEC:-target/release/rulec}"
[ -x "$rulec" ] || { cargo build --release --quiet --bin rulec; rulec=target/release/rulec; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$rulec" gen tests/corpus/parcel_rate.rule --lang numpy --out "$out" --lock "$out/rulec.lock" >/dev/null
cd "$out/numpy"
python3 -B - <<'PY'
import time

import numpy as np

import rulec_np

plan = rulec_np.load("parcel_rate.plan.json")
w, g, z, s = np.meshgrid(np.arange(1, 71), np.arange(1, 131), np.arange(3), np.array([False, True]), indexing="ij")
reps = -(-1_000_000 // w.size)
weight = np.tile(w.ravel(), reps)[:1_000_000].astype(np.int64)
girth = np.tile(g.ravel(), reps)[:1_000_000].astype(np.int64)
zone = np.tile(z.ravel(), reps)[:1_000_000]
sig = np.tile(s.ravel(), reps)[:1_000_000]
dest = np.array(["domestic", "canada", "overseas"])[zone]
cols = {"weight": weight, "girth": girth, "dest": dest, "signature": sig}

BASE = np.array([[8, 12, 20], [10, 15, 25], [18, 30, 45]], dtype=np.int64)


def hand_written(weight, girth, zone, sig):
    size = np.where(girth > 60, 2, np.where(weight <= 10, 0, 1))
    base = BASE[zone, size]
    pct = np.where(zone == 2, 20, 10)
    surcharge = -(-base * pct // 100)
    return base + surcharge + np.where(sig, np.where(zone == 2, 5, 2), 0)


fee = plan.call(cols)["fee"]
assert np.array_equal(fee, hand_written(weight, girth, zone, sig))


def rate(f):
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return 1_000_000 / best


ours = rate(lambda: plan.call(cols))
hand = rate(lambda: hand_written(weight, girth, zone, sig))
print(f"numpy plan        {ours:14.0f} rows/s")
print(f"hand-written numpy {hand:13.0f} rows/s   the plan is {hand / ours:.2f}x the hand-written time")
PY
