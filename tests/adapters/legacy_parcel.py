#!/usr/bin/env python3
"""parcel_rate as a team wrote it by hand before the rule, spoken to over rulec's adapter
protocol. It has a planted off-by-one: a parcel of exactly 11 lb is priced as small (the
rule's small class is 10 lb and under). With LEGACY_REFUSE=1 it declines the 11 lb parcels
instead, answering `err`, as an implementation that knows its weak spot would."""

import json
import os
import sys

BASE = {
    "domestic": {"small": 8, "medium": 12, "large": 20},
    "canada": {"small": 10, "medium": 15, "large": 25},
    "overseas": {"small": 18, "medium": 30, "large": 45},
}
FUEL_PERCENT = {"domestic": 10, "canada": 10, "overseas": 20}


def fee(weight, girth, dest, signature):
    if girth > 60:
        size = "large"
    elif weight <= 11:  # the planted off-by-one: the rule says 10
        size = "small"
    else:
        size = "medium"
    base = BASE[dest][size]
    surcharge = -(-base * FUEL_PERCENT[dest] // 100)  # rounded up to a whole dollar
    sig = (5 if dest == "overseas" else 2) if signature else 0
    return base + surcharge + sig


def main():
    refuse = os.environ.get("LEGACY_REFUSE") == "1"
    hello = json.loads(sys.stdin.readline())
    assert hello["rulec"] == "adapter/1" and hello["rule"] == "parcel_rate", hello
    print(json.dumps({"ok": True, "impl": "legacy@py-1"}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        call = req["in"]
        if refuse and call["weight"] == 11:
            print(json.dumps({"id": req["id"], "err": "unsupported: 11 lb"}), flush=True)
            continue
        print(json.dumps({"id": req["id"], "out": {"fee": fee(**call)}}), flush=True)


main()
