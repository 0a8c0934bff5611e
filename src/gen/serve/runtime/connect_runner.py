# The vectors over the wire: the runner `rulec test` drives against a running Connect
# service (via connect-asgi, connect-wsgi, and the two again by GET). One vectors line in,
# one line out — the record rebuilt from what the service answered, or the refusal — so it
# is held to the same expected records as the module's own runner.
#
#   python3 <alias>_connect_runner.py http://127.0.0.1:8080 [--get] < ../vectors/<alias>.jsonl
#
# A call goes through the generated client as a DecideRequest. A call the message cannot
# spell — not an object, a key that names no field, a value of another JSON kind — has no
# DecideRequest: it is sent by hand as the JSON it is (with the fields under their JSON
# names), and the service must refuse it, since the Connect reader refuses it before the
# rule sees it; the line printed is then the module's own refusal of that call, because the
# reader's message is the reader's and not the rule's sentence. Two spellings that Connect's
# JSON reads as something else — a string of digits for an integer, a number for an enum
# member — are not sent at all, for the same reason.
#
# The backend writes the rule's part (`_request`, `_observed`, `_FIELDS`) between the
# sections it copies from here, and each `# rulec-copy:` line by the section of the Python
# backend's script.py it names.

# rulec: imports
import decimal
import json
import sys
import urllib.error
import urllib.request
from typing import Any

from connectrpc.code import Code
from connectrpc.errors import ConnectError

# rulec: body
class _NotSpelled(Exception):
    """The call has no DecideRequest; `send` says whether to send it by hand."""

    def __init__(self, send: bool) -> None:
        super().__init__()
        self.send = send


# rulec-copy: script.py depth


# rulec-copy: script.py read


def _int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise _NotSpelled(not isinstance(x, str))
    if not -(2**63) <= x < 2**63:
        raise _NotSpelled(True)
    return x


def _bool(x: Any) -> bool:
    if not isinstance(x, bool):
        raise _NotSpelled(True)
    return x


def _str(x: Any) -> str:
    if not isinstance(x, str):
        raise _NotSpelled(True)
    return x


def _member(members: dict[str, int], x: Any) -> int:
    if isinstance(x, str) and x in members:
        return members[x]
    raise _NotSpelled(not isinstance(x, (int, decimal.Decimal)) or isinstance(x, bool))


def _dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


def _by_hand(url: str, call: Any) -> int:
    """POST the call as the JSON it is, its keys under the fields' JSON names: the status."""
    if isinstance(call, dict):
        call = {_FIELDS.get(k, k): v for k, v in call.items()}
    # A fraction is a Decimal: sent as the JSON number it was read from.
    body = json.dumps(call, ensure_ascii=False, default=float).encode("utf-8")
    req = urllib.request.Request(url + _PATH, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def _line(client: Any, url: str, get: bool, text: str) -> str:
    call = _call_of(text)
    try:
        if not isinstance(call, dict) or any(k not in _FIELDS for k in call):
            raise _NotSpelled(True)
        request, echo = _request(call)
    except _NotSpelled as e:
        if e.send:
            status = _by_hand(url, call)
            if status != 400:
                return _dumps({"refused": "not by the service", "status": status})
        try:
            return _rule.rulec_wire(call)
        except _rule.RuleInputError as r:
            return _dumps({"refused": "input", "error": r.what})
        except _rule.RuleContradictionError as r:
            return _dumps({"refused": "contradiction", "error": r.what})
    try:
        response = client.decide(request, use_get=get)
    except ConnectError as e:
        refusals = [d.value(_pb.Refusal) for d in e.details]
        what = refusals[0].what if refusals and refusals[0] is not None else e.message
        if e.code == Code.INVALID_ARGUMENT:
            return _dumps({"refused": "input", "error": what})
        if e.code == Code.INTERNAL:
            return _dumps({"refused": "contradiction", "error": what})
        return _dumps({"refused": str(e.code), "error": e.message})
    trace = [{"table": f.table, "row": f.row} for f in response.trace]
    return _dumps({"in": echo, "observed": _observed(response), "trace": trace})


def main() -> None:
    url = sys.argv[1].rstrip("/")
    get = "--get" in sys.argv[2:]
    out: list[str] = []
    with rulec_client(url) as client:
        for raw in sys.stdin.buffer:
            text = raw.decode("utf-8", errors="replace").strip()
            if text == "":
                continue
            out.append(_line(client, url, get, text) + "\n")
    sys.stdout.buffer.write("".join(out).encode("utf-8", errors="surrogatepass"))


# rulec: main
if __name__ == "__main__":
    main()
