# The Python that the generated scripts share — the runner beside each module, the MCP
# server and the Connect service and runner beside it, and the runners of the SQL and NumPy
# targets — as one Python file that ruff and mypy check as it stands (tests/gen_sql.rs).
# A script's runtime file asks for a section with a line `# rulec-copy: script.py NAME`
# (or `module.py NAME`, for a helper of the module), which the backend replaces by the
# section, so that every generated script holds all it runs and each piece is written once.
# What comes before the first section is for this file alone.

import argparse
import decimal
import json
import socket
import threading
import time
from typing import Any

# rulec: depth
def _too_deep(text: str) -> bool:
    """Whether the arrays and objects of a JSON text nest deeper than _MAX_DEPTH; a bracket
    inside a string does not count."""
    if text.count("[") + text.count("{") <= _MAX_DEPTH:
        return False
    depth, in_string, escaped = 0, False, False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > _MAX_DEPTH:
                return True
        elif c in "]}":
            depth -= 1
    return False


# serde_json's limit: a line whose arrays and objects nest deeper is not JSON to the
# reference (json.loads reads on to Python's recursion limit). After _too_deep, so that the
# section starts with a function wherever it is copied (after imports, ruff's isort asks two
# blank lines before a function, one before anything else).
_MAX_DEPTH = 127

# rulec: read
def _parse_int(text: str) -> int:
    """A JSON integer; one too long for any range is kept as a number past every range
    (Python reads no more than 4300 digits)."""
    if len(text) > 40:
        return -(10**40) if text.startswith("-") else 10**40
    return int(text)


def _parse_float(text: str) -> Any:
    """A JSON number with a fraction or an exponent, as its Decimal; one whose exponent is
    past what a Decimal holds (1e9999999999999999999) as what it is to the reference: 0 when
    its digits are all zeros, else past every range, or (a negative exponent) the smallest
    fraction a Decimal holds."""
    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        mantissa, _, exponent = text.lower().partition("e")
        if mantissa.strip("-0.") == "":
            return 0
        if exponent.startswith("-"):
            return decimal.Decimal(("-" if text.startswith("-") else "") + "1e-999999999999999999")
        return -(10**40) if text.startswith("-") else 10**40


def _no_constant(text: str) -> Any:
    raise ValueError(text + " is not JSON")


def _number(x: Any) -> Any:
    """A JSON number whose value is whole (1000.0, 1e3, -0.0) as that int, read exactly; one
    with a fraction as its Decimal (never a float, which could round 1e-400 to a whole 0);
    anything else as it came, within the object and the lists it holds."""
    if isinstance(x, decimal.Decimal):
        if x.is_finite() and x == x.to_integral_value():
            if x.adjusted() > 40 and not x.is_zero():
                return -(10**40) if x < 0 else 10**40
            return int(x)
        return x
    if isinstance(x, dict):
        return {k: _number(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_number(v) for v in x]
    return x


def _lone_surrogate(x: Any) -> bool:
    """Whether a string of the JSON (a key or a value) holds half of a surrogate pair, which
    is not a character: the reference reads such a text as no JSON at all."""
    if isinstance(x, str):
        return any("\ud800" <= c <= "\udfff" for c in x)
    if isinstance(x, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in x.items())
    if isinstance(x, list):
        return any(_lone_surrogate(v) for v in x)
    return False




def _call_of(line: str) -> Any:
    """The call a vectors line holds (a record is read as its `in`), its numbers read as
    _number reads them; None for a line that is not JSON."""
    if _too_deep(line):
        return None
    try:
        top = json.loads(line, parse_float=_parse_float, parse_int=_parse_int, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    if _lone_surrogate(top):
        return None
    return _number(top.get("in", top) if isinstance(top, dict) else top)

# rulec: refusal
def _refusal(kind: str, what: str) -> str:
    """The line a runner prints in the place of a record the rule refused to answer."""
    return '{"refused":"' + kind + '","error":' + json.dumps(what, ensure_ascii=False) + "}"

# rulec: address
def _address(text: str) -> tuple[str, int]:
    """--http PORT (on 127.0.0.1), HOST:PORT or [V6]:PORT."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", text
    host = host.strip("[]")
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(text + " is not a port or HOST:PORT") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(text + " is not a port")
    return host, number

# rulec: seconds
def _seconds(text: str) -> float:
    """--idle-timeout SECONDS: a length of time above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(text + " is not a number of seconds") from None
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(text + " is not a number of seconds above zero")
    return value

# rulec: deadline
class _Deadlines:
    """The time a connection has to send a whole request and read its answer: one that
    trickles a byte at a time, which no read's timeout catches, is shut down when its time
    is up. One thread watches every connection."""

    def __init__(self, seconds: float) -> None:
        self.span = int(seconds * 1e9)
        self.lock = threading.Lock()
        self.due: dict[socket.socket, int] = {}
        threading.Thread(target=self._watch, args=(min(seconds / 4, 1.0),), daemon=True).start()

    def arm(self, connection: socket.socket) -> None:
        with self.lock:
            self.due[connection] = time.monotonic_ns() + self.span

    def disarm(self, connection: socket.socket) -> None:
        with self.lock:
            self.due.pop(connection, None)

    def _watch(self, every: float) -> None:
        while True:
            time.sleep(every)
            now = time.monotonic_ns()
            with self.lock:
                late = [c for c, due in self.due.items() if due <= now]
                for c in late:
                    del self.due[c]
            for c in late:
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
