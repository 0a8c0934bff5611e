#!/usr/bin/env python3
"""parcel_rate as a legacy system wrote it, right except for a cut the rule does not have:
LEGACY_CUT=above_50lb adds a dollar above 50 lb (past the rule's last cut on weight),
LEGACY_CUT=between adds one at 23 and 24 lb (between the rule's cuts); unset, it is right."""
import json
import os
import sys

BASE = {"domestic": {"small": 8, "medium": 12, "large": 20},
        "canada": {"small": 10, "medium": 15, "large": 25},
        "overseas": {"small": 18, "medium": 30, "large": 45}}
CUT = os.environ.get("LEGACY_CUT", "")


def fee(call):
    size = "large" if call["girth"] > 60 else ("small" if call["weight"] <= 10 else "medium")
    b = BASE[call["dest"]][size]
    fuel = 20 if call["dest"] == "overseas" else 10
    sig = (5 if call["dest"] == "overseas" else 2) if call["signature"] else 0
    extra = 0
    if CUT == "above_50lb" and call["weight"] > 50:
        extra = 1
    if CUT == "between" and 23 <= call["weight"] <= 24:
        extra = 1
    return b + -(-b * fuel // 100) + sig + extra


sys.stdin.readline()
print(json.dumps({"ok": True, "impl": "legacy@cuts"}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "out": {"fee": fee(req["in"])}}), flush=True)
