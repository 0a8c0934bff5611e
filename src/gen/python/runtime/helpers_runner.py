# The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a module
# may carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The Python backend
# writes the arithmetic sections of module.py above the section below.

import json
import sys

from module import (
    _div_round_ceiling,
    _div_round_down,
    _div_round_floor,
    _div_round_half_down,
    _div_round_half_even,
    _div_round_half_up,
    _div_round_up,
    _isqrt,
    _mod,
)

# rulec: main
_HELPERS = {
    "quot_floor": _div_round_floor,
    "quot_ceiling": _div_round_ceiling,
    "quot_down": _div_round_down,
    "quot_up": _div_round_up,
    "quot_half_up": _div_round_half_up,
    "quot_half_down": _div_round_half_down,
    "quot_half_even": _div_round_half_even,
    "mod": _mod,
}


def _apply(op: str, a: int, b: int) -> int:
    if op == "isqrt":
        return _isqrt(a)
    return _HELPERS[op](a, b)


def main() -> None:
    out: list[str] = []
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8").strip()
        if line == "":
            continue
        case = json.loads(line)
        r = _apply(case["op"], int(case["a"]), int(case["b"]))
        out.append('{"result":"' + str(r) + '"}\n')
    sys.stdout.buffer.write("".join(out).encode("utf-8"))


if __name__ == "__main__":
    main()
