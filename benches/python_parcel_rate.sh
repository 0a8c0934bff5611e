#!/usr/bin/env bash
# Generated Python against a hand-written Python function and against zen-engine's fastest
# documented paths (a ZenEngine with a static loader, engine.evaluate(key, ctx), and
# engine.evaluate_batch), in one script, over parcel_rate's whole domain: weight 1..70 ×
# girth 1..130 × 3 zones × 2 = 54,600 calls. All four are first checked to give the same fee
# on every input; then each is timed for at least a second, best of three, over the domain in
# its sweep order and in one fixed shuffled order (the xorshift64 Fisher–Yates pass of
# benches/parcel_rate.rs, the same on every machine); zen in sweep order.
# Needs: pip install zen-engine (the zen lines are left out without it).
# Prints calls/s of each and the ratios.
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
import json
import os
import time

from parcel_rate import Zone, parcel_rate

BASE = {
    ("domestic", "small"): 8, ("domestic", "medium"): 12, ("domestic", "large"): 20,
    ("canada", "small"): 10, ("canada", "medium"): 15, ("canada", "large"): 25,
    ("overseas", "small"): 18, ("overseas", "medium"): 30, ("overseas", "large"): 45,
}


def hand_written(weight, girth, dest, signature):
    """parcel_rate as a Python programmer writes it: a dict of base rates, the rounding by hand."""
    if not (1 <= weight <= 70 and 1 <= girth <= 130):
        raise ValueError("out of range")
    size = "large" if girth > 60 else ("small" if weight <= 10 else "medium")
    d = dest.value
    base = BASE[(d, size)]
    pct = 20 if d == "overseas" else 10
    surcharge = -(-base * pct // 100)  # up: toward +infinity for a positive amount
    sig = (5 if d == "overseas" else 2) if signature else 0
    return base + surcharge + sig


domain = [(w, g, z, s) for w in range(1, 71) for g in range(1, 131) for z in Zone for s in (False, True)]
assert len(domain) == 54600
for args in domain:
    assert parcel_rate(*args) == hand_written(*args), args


def shuffled(xs):
    """The domain in one fixed shuffled order: benches/parcel_rate.rs's xorshift64 Fisher–Yates pass."""
    xs, x, mask = list(xs), 0x2545F4914F6CDD1D, (1 << 64) - 1
    for i in range(len(xs) - 1, 0, -1):
        x ^= (x << 13) & mask
        x ^= x >> 7
        x ^= (x << 17) & mask
        j = x % (i + 1)
        xs[i], xs[j] = xs[j], xs[i]
    return xs


mixed = shuffled(domain)


def rate(call, inputs=domain):
    best = 0.0
    for _ in range(3):
        calls, start = 0, time.perf_counter()
        while True:
            for args in inputs:
                call(*args)
            calls += len(inputs)
            elapsed = time.perf_counter() - start
            if elapsed >= 1.0:
                break
        best = max(best, calls / elapsed)
    return best


for order, inputs in (("in sweep order", domain), ("shuffled", mixed)):
    o, h = rate(parcel_rate, inputs), rate(hand_written, inputs)
    print(f"python, the domain {order}: generated {o:.0f} calls/s, hand-written {h:.0f} calls/s, generated is {h / o:.2f}x the hand-written time")
    if order == "in sweep order":
        ours = o
try:
    import zen
except ImportError:
    zen = None
if zen is not None:
    content = json.load(open(os.environ["JDM"]))
    engine = zen.ZenEngine({"loader": {"type": "static", "content": {"parcel_rate": content}}})
    ctxs = [({"weight": w, "girth": g, "dest": z.value, "signature": s}, parcel_rate(w, g, z, s)) for w, g, z, s in domain]
    for ctx, fee in ctxs:
        assert engine.evaluate("parcel_rate", ctx)["result"]["fee"] == fee, ctx
    batch = [{"key": "parcel_rate", "context": c} for c, _ in ctxs]
    for r, (_, fee) in zip(engine.evaluate_batch(batch), ctxs):
        assert r["data"]["result"]["fee"] == fee

    def zen_rate():
        best = 0.0
        for _ in range(3):
            calls, start = 0, time.perf_counter()
            while True:
                for ctx, _ in ctxs:
                    engine.evaluate("parcel_rate", ctx)
                calls += len(ctxs)
                elapsed = time.perf_counter() - start
                if elapsed >= 1.0:
                    break
            best = max(best, calls / elapsed)
        return best

    def zen_batch_rate():
        best = 0.0
        for _ in range(3):
            start = time.perf_counter()
            engine.evaluate_batch(batch)
            best = max(best, len(batch) / (time.perf_counter() - start))
        return best

    z1, z2 = zen_rate(), zen_batch_rate()
    fastest = max(z1, z2)
    print(f"zen evaluate(key)   {z1:11.0f} calls/s")
    print(f"zen evaluate_batch  {z2:11.0f} calls/s")
    print(f"generated python is {ours / fastest:.1f}x zen's fastest path")
PY
