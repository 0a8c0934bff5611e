"""The runner `rulec test` drives for the NumPy target: one vectors line in, one record (or
refusal) out, for every line, each line a call of one row through rulec_np's own door.

    python3 rulec_np_runner.py parcel_rate.plan.json < parcel_rate.jsonl
    python3 rulec_np_runner.py --helpers < _helpers.jsonl

The NumPy backend writes it with each `# rulec-copy:` line replaced by the section of the
Python backend's script.py or module.py it names.
"""

import decimal
import json
import sys
from typing import Any

import numpy as np

import rulec_np


# rulec-copy: script.py depth


# rulec-copy: script.py read


# rulec-copy: module.py date_str


def _wire(plan: rulec_np.Plan, name: str, value: Any, present: bool) -> str:
    """One value as the records write it."""
    if not present:
        return "null"
    info = plan.vars[name]
    kind = info["kind"]
    if isinstance(kind, dict):
        text = value if isinstance(value, str) else plan.enums[kind["enum"]][int(value)]
        return json.dumps(text, ensure_ascii=False)
    if kind == "bool":
        return "true" if bool(value) else "false"
    if kind == "str":
        return json.dumps(str(value), ensure_ascii=False)
    if info["date"]:
        return _date_str(int(value))
    return str(int(value))


def _record(plan: rulec_np.Plan, call: dict[str, Any]) -> str:
    columns = {k: np.array([v], dtype=object) for k, v in call.items()}
    _, read = plan.read(columns)
    outputs, rows = plan.traced(columns)
    parts = []
    for col in plan.data["columns"]:
        data, present = read[col["name"]]
        parts.append(json.dumps(col["name"], ensure_ascii=False) + ":" + _wire(plan, col["name"], data[0], present is None or bool(present[0])))
    observed = []
    for name in plan.data["outputs"]:
        out = outputs[name]
        absent = bool(np.ma.getmaskarray(out)[0]) if isinstance(out, np.ma.MaskedArray) else False
        observed.append(json.dumps(name, ensure_ascii=False) + ":" + _wire(plan, name, np.asarray(out)[0], not absent))
    trace = [
        '{"table":' + json.dumps(step["table"], ensure_ascii=False) + ',"row":' + str(int(row)) + "}"
        for step in plan.data["steps"]
        if "table" in step
        # A table where every row that holds counts: each one's number, 0 where it does not.
        for row in np.atleast_1d(rows[step["table"]][0])
        if row != 0
    ]
    return '{"in":{' + ",".join(parts) + '},"observed":{' + ",".join(observed) + '},"trace":[' + ",".join(trace) + "]}"


# rulec-copy: script.py refusal


def _answer(plan: rulec_np.Plan, line: str) -> str:
    call = _call_of(line)
    if not isinstance(call, dict):
        return _refusal("input", plan.data["not_an_object"])
    try:
        return _record(plan, call)
    except rulec_np.RuleInputError as e:
        return _refusal("input", e.what)
    except rulec_np.RuleContradictionError as e:
        return _refusal("contradiction", e.what)


def _helper(case: dict[str, str]) -> int:
    a = np.array([int(case["a"])], dtype=np.int64)
    b = np.array([int(case["b"])], dtype=np.int64)
    op = case["op"]
    if op.startswith("quot_"):
        return int(rulec_np.div_round(a, b, op[len("quot_") :])[0])
    if op == "mod":
        return int(rulec_np.mod(a, b)[0])
    return int(rulec_np.isqrt(a)[0])


def main() -> None:
    out: list[str] = []
    helpers = sys.argv[1] == "--helpers"
    plan = None if helpers else rulec_np.load(sys.argv[1])
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", errors="replace").strip()
        if line == "":
            continue
        if plan is None:
            out.append('{"result":"' + str(_helper(json.loads(line))) + '"}\n')
        else:
            out.append(_answer(plan, line) + "\n")
    sys.stdout.buffer.write("".join(out).encode("utf-8"))


if __name__ == "__main__":
    main()
