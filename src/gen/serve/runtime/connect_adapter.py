# The fixed part of `rulec adapter --template connect-python` (formats.md, the adapter
# protocol): the JSON Lines of `rulec verify` on stdin and stdout, and in the middle one
# unary call per record to a Connect service, in the Connect protocol's JSON over HTTP —
# the standard library only, so no stubs are needed for the other side's messages.
#
# The backend copies the sections from here and writes the rule's part: the method's path,
# the enum tables, and the fields of the two functions to fill in, `request` and `outputs`,
# each at its `# rulec-fields` line.

# rulec: imports
import json
import sys
import urllib.error
import urllib.request
from typing import Any

# rulec: path
# Fill in: the other side's method, if it is not this rule's own.
PATH = "/rulec.rule.v1.RuleService/Decide"

# rulec: request
def request(call: dict[str, Any]) -> dict[str, Any]:
    """Fill in: the other side's request message, in its JSON, for one call of the rule.

    As printed, this rule's own DecideRequest; a field of a value that is absent is left out.
    """
    message: dict[str, Any] = {}
    # rulec-fields
    return message


# rulec: outputs
def outputs(response: dict[str, Any]) -> dict[str, Any]:
    """Fill in: the rule's outputs, read from the other side's response message.

    As printed, this rule's own DecideResponse, whose JSON leaves a field at its zero out
    and writes an int64 as a string.
    """
    return {
        # rulec-fields
    }


# rulec: body
class ConnectError(Exception):
    """The service's error answer: the Connect protocol's code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code + ": " + message)
        self.code = code
        self.message = message


def call(url: str, message: dict[str, Any]) -> dict[str, Any]:
    """One unary call: the response message, or the service's error as ConnectError."""
    body = json.dumps(message).encode("utf-8")
    req = urllib.request.Request(url + PATH, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            answer: dict[str, Any] = json.loads(r.read())
            return answer
    except urllib.error.HTTPError as e:
        try:
            error = json.loads(e.read())
        except ValueError:
            error = {}
        raise ConnectError(str(error.get("code", "unknown")), str(error.get("message", e.reason))) from None


def main() -> None:
    url = sys.argv[1].rstrip("/")
    hello = json.loads(sys.stdin.readline())
    assert hello["rulec"] == "adapter/1", hello
    print(json.dumps({"ok": True, "impl": "connect@" + url}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            ans = {"id": req["id"], "out": outputs(call(url, request(req["in"])))}
        except ConnectError as e:  # the service cannot answer: `err`, left out of the rate
            ans = {"id": req["id"], "err": str(e)}
        print(json.dumps(ans), flush=True)


# rulec: main
if __name__ == "__main__":
    main()
