# The fixed part of `rulec adapter --template connect-python` (formats.md, the adapter
# protocol): the JSON Lines of `rulec verify` on stdin and stdout, and in the middle one
# unary call per record to a Connect service, in the Connect protocol's JSON over HTTP —
# the standard library only, so no stubs are needed for the other side's messages.
#
# The backend writes the rule's part between the sections it copies from here: PATH, the
# enum tables, and the two functions to fill in, `request` and `outputs`.

# rulec: imports
import json
import sys
import urllib.error
import urllib.request
from typing import Any

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
