# The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for
# every line. It reads the JSON, then hands the object to the module's own door, which
# checks it in the reference's order; the runner checks nothing itself.
#
# The Python backend writes it beside each module with `rulec_rule` and `rulec_wire`
# replaced by the module's and the door's names.

import decimal
import json
import sys
from typing import Any

import rulec_rule as _rule


def _parse_int(text: str) -> int:
    """A JSON integer; one too long for any range is kept as a number past every range
    (Python reads no more than 4300 digits)."""
    if len(text) > 40:
        return -(10**40) if text.startswith("-") else 10**40
    return int(text)


def _no_constant(text: str) -> Any:
    raise ValueError(text + " is not JSON")


def _number(x: Any) -> Any:
    """A JSON number whose value is whole (1000.0, 1e3, -0.0) as that int, read exactly;
    anything else as it came, within the object and the lists it holds."""
    if isinstance(x, decimal.Decimal):
        if x.is_finite() and x == x.to_integral_value():
            if x.adjusted() > 40:
                return -(10**40) if x < 0 else 10**40
            return int(x)
        return float(x)
    if isinstance(x, dict):
        return {k: _number(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_number(v) for v in x]
    return x


def _lone_surrogate(x: Any) -> bool:
    """Whether a string of the JSON (a key or a value) holds half of a surrogate pair, which
    is not a character: the reference reads such a line as no JSON at all."""
    if isinstance(x, str):
        return any("\ud800" <= c <= "\udfff" for c in x)
    if isinstance(x, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in x.items())
    if isinstance(x, list):
        return any(_lone_surrogate(v) for v in x)
    return False


def _call(line: str) -> str:
    try:
        top = json.loads(line, parse_float=decimal.Decimal, parse_int=_parse_int, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        top = None
    if _lone_surrogate(top):
        top = None
    call = top.get("in", top) if isinstance(top, dict) else top
    try:
        return _rule.rulec_wire(_number(call))
    except _rule.RuleInputError as e:
        return _refusal("input", e.what)
    except _rule.RuleContradictionError as e:
        return _refusal("contradiction", e.what)


def _refusal(kind: str, what: str) -> str:
    return '{"refused":"' + kind + '","error":' + json.dumps(what, ensure_ascii=False) + "}"


def main() -> None:
    out: list[str] = []
    for raw in sys.stdin.buffer:
        # A line that is not UTF-8, or whose JSON holds a lone surrogate, is a line the door
        # refuses like any other that is not an object: the runner reads on.
        line = raw.decode("utf-8", errors="replace").strip()
        if line == "":
            continue
        out.append(_call(line) + "\n")
    sys.stdout.buffer.write("".join(out).encode("utf-8", errors="surrogatepass"))


if __name__ == "__main__":
    main()
