# The rule as one MCP tool (generated-code.md, "The rule as an MCP tool"): a server over
# stdio, or over MCP's Streamable HTTP with --http. It answers a call with the module's own
# wire door, so the answer is the fixtures record the runner prints; a refused call comes
# back with isError and the module's sentence. Python's standard library only.
#
# The backend writes it beside each module with `rulec_rule` and `rulec_wire` replaced by
# the module's and the door's names, `_RULE` by the rule's tool, and each `# rulec-copy:`
# line by the section of the Python backend's script.py it names.

import argparse
import decimal
import http.server
import json
import os
import secrets
import socket
import sys
import threading
from typing import Any, BinaryIO
from urllib.parse import urlsplit

import rulec_rule as _rule

# Read once outside any class: inside one, a name that starts with two underscores (a rule
# named `__r5`) would be mangled.
_wire = _rule.rulec_wire

# rulec: rule
_RULE: dict[str, Any] = json.loads('{"tool": {"name": "rulec_tool", "inputSchema": {}}, "page": "", "view": ""}')

# rulec: server
_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
_UI_EXTENSION = "io.modelcontextprotocol/ui"
_UI_MIME = "text/html;profile=mcp-app"
_MAX_MESSAGE = 4 << 20
# The sessions open at once: a client that never says DELETE cannot hold the memory; the
# oldest session closes when one more opens.
_MAX_SESSIONS = 1024
_PARSE_ERROR = -32700
_INVALID_REQUEST = -32600
_METHOD_NOT_FOUND = -32601
_INVALID_PARAMS = -32602
_RESOURCE_NOT_FOUND = -32002


class _Refused(Exception):
    """A message answered with a JSON-RPC error."""

    def __init__(self, code: int, message: str, id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = id


# rulec-copy: script.py depth


# rulec-copy: script.py read


def _dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


def _error(id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


def _read(body: bytes) -> dict[str, Any]:
    """One JSON-RPC message: a JSON object that says jsonrpc 2.0."""
    try:
        text = body.decode("utf-8")
        if _too_deep(text):
            raise ValueError("its arrays and objects nest deeper than " + str(_MAX_DEPTH))
        message = json.loads(text, parse_float=decimal.Decimal, parse_int=_parse_int, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise _Refused(_PARSE_ERROR, "the message is not JSON: " + str(e)) from None
    if isinstance(message, list):
        raise _Refused(_INVALID_REQUEST, "a batch is not accepted: send one message at a time")
    if not isinstance(message, dict):
        raise _Refused(_INVALID_REQUEST, "a message is a JSON object")
    id = message.get("id")
    if not (id is None or isinstance(id, (str, int)) and not isinstance(id, bool)):
        raise _Refused(_INVALID_REQUEST, "id is a string or an integer")
    if message.get("jsonrpc") != "2.0":
        raise _Refused(_INVALID_REQUEST, 'the message does not say "jsonrpc":"2.0"', id)
    return message


class _Session:
    """What a client said at initialize that changes the answers: whether it renders views."""

    def __init__(self) -> None:
        self.views = False


class _Tool:
    """The protocol: one tool, the page as its view, the record file."""

    def __init__(self, record: str | None, here: str) -> None:
        self.record = open(record, "a", encoding="utf-8") if record else None
        self.lock = threading.Lock()
        self.page = os.path.join(here, _RULE["page"])

    def view(self, session: _Session) -> str | None:
        """The page, for a client that renders views, while the file is there."""
        if not session.views or not _RULE["page"]:
            return None
        try:
            with open(self.page, encoding="utf-8") as f:
                return f.read()
        except OSError:
            return None

    def answer(self, message: dict[str, Any], session: _Session) -> dict[str, Any] | None:
        """The answer to a message; None for a notification or a response."""
        id = message.get("id")
        method = message.get("method")
        if method is None:
            if "result" in message or "error" in message:
                return None
            return _error(id, _INVALID_REQUEST, "the message has no method")
        if not isinstance(method, str):
            return _error(id, _INVALID_REQUEST, "method is not a string")
        if id is None:
            return None
        params = message.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            return _error(id, _INVALID_PARAMS, "params is an object")
        try:
            return {"jsonrpc": "2.0", "id": id, "result": self.request(method, params, session)}
        except _Refused as e:
            return _error(id, e.code, e.message)

    def request(self, method: str, params: dict[str, Any], session: _Session) -> dict[str, Any]:
        if method == "initialize":
            asked = params.get("protocolVersion")
            capabilities = params.get("capabilities")
            extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
            ui = extensions.get(_UI_EXTENSION) if isinstance(extensions, dict) else None
            types = ui.get("mimeTypes") if isinstance(ui, dict) else None
            session.views = isinstance(types, list) and _UI_MIME in types
            return {
                "protocolVersion": asked if asked in _VERSIONS else _VERSIONS[0],
                "capabilities": {"tools": {"listChanged": False}, "resources": {"listChanged": False}},
                "serverInfo": {"name": _RULE["tool"]["name"], "version": _RULE["version"]},
            }
        if method == "ping":
            return {}
        if method == "tools/list":
            tool = dict(_RULE["tool"])
            if self.view(session) is not None:
                tool["_meta"] = {"ui": {"resourceUri": _RULE["view"]}}
            return {"tools": [tool]}
        if method == "tools/call":
            return self.call(params)
        if method == "resources/list":
            shown = []
            if self.view(session) is not None:
                shown.append({"uri": _RULE["view"], "name": _RULE["tool"]["name"], "mimeType": _UI_MIME})
            return {"resources": shown}
        if method == "resources/templates/list":
            return {"resourceTemplates": []}
        if method == "resources/read":
            page = self.view(session)
            if params.get("uri") != _RULE["view"] or page is None:
                raise _Refused(_RESOURCE_NOT_FOUND, str(params.get("uri")) + " is not a resource of this server")
            return {"contents": [{"uri": _RULE["view"], "mimeType": _UI_MIME, "text": page}]}
        raise _Refused(_METHOD_NOT_FOUND, "this server has no method " + method)

    def call(self, params: dict[str, Any]) -> dict[str, Any]:
        if params.get("name") != _RULE["tool"]["name"]:
            raise _Refused(_INVALID_PARAMS, str(params.get("name")) + " is not a tool of this server")
        call = params.get("arguments", {})
        if _lone_surrogate(call):
            call = None
        try:
            line = _wire(_number(call))
        except _rule.RuleInputError as e:
            return _refused("RuleInputError: " + str(e), "input", e.what)
        except _rule.RuleContradictionError as e:
            return _refused("RuleContradictionError: " + str(e), "contradiction", e.what)
        if self.record is not None:
            with self.lock:
                self.record.write(line + "\n")
                self.record.flush()
        return {"content": [{"type": "text", "text": line}], "structuredContent": json.loads(line), "isError": False}


def _refused(text: str, kind: str, what: str) -> dict[str, Any]:
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": {"refused": kind, "error": what},
        "isError": True,
    }


def _line(stream: BinaryIO) -> bytes | None:
    """One line of at most _MAX_MESSAGE bytes (b"" for a longer one, which is read and
    dropped); None at the end."""
    line = stream.readline(_MAX_MESSAGE + 1)
    if line == b"":
        return None
    if len(line) > _MAX_MESSAGE and not line.endswith(b"\n"):
        while True:
            rest = stream.readline(1 << 16)
            if rest == b"" or rest.endswith(b"\n"):
                return b""
    return line


def serve_stdio(tool: _Tool) -> None:
    session = _Session()
    out = sys.stdout
    while True:
        line = _line(sys.stdin.buffer)
        if line is None:
            return
        if line.strip() == b"" and line != b"":
            continue
        answer: dict[str, Any] | None
        if line == b"":
            answer = _error(None, _INVALID_REQUEST, "the message is longer than " + str(_MAX_MESSAGE) + " bytes")
        else:
            try:
                answer = tool.answer(_read(line), session)
            except _Refused as e:
                answer = _error(e.id, e.code, e.message)
        if answer is not None:
            out.write(_dumps(answer) + "\n")
            out.flush()


def _local(origin: str) -> bool:
    try:
        parts = urlsplit(origin)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and host in ("localhost", "127.0.0.1", "::1")


def serve_http(tool: _Tool, host: str, port: int, origins: list[str], idle: float) -> None:
    sessions: dict[str, _Session] = {}
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "rulec-mcp"
        # The headers and the body are two writes: without this, Nagle's algorithm holds
        # the body back until the client's delayed ACK (40 ms a call on a kept connection).
        disable_nagle_algorithm = True
        # A connection that sends nothing for this long is closed: an idle or stalled
        # client does not keep its thread.
        timeout = idle

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def send(self, status: int, body: dict[str, Any] | None, headers: dict[str, str] | None = None) -> None:
            data = _dumps(body).encode("utf-8") if body is not None else b""
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def checked(self) -> bool:
            """The path is /mcp and the Origin is local or named; else answered already (and
            the connection closed, since the body of the request is not read)."""
            self.close_connection = True
            if urlsplit(self.path).path != "/mcp":
                self.send(404, _error(None, _INVALID_REQUEST, "the server answers at /mcp"))
                return False
            origin = self.headers.get("Origin")
            if origin is not None and not _local(origin) and origin not in origins:
                self.send(403, _error(None, _INVALID_REQUEST, "the Origin " + origin + " is not allowed"))
                return False
            self.close_connection = False
            return True

        def session(self) -> tuple[str, _Session] | None:
            """The session the request names; else answered already (400 without one, 404
            for one that is not, or no longer, open)."""
            sid = self.headers.get("Mcp-Session-Id")
            if sid is None:
                self.send(400, _error(None, _INVALID_REQUEST, "Mcp-Session-Id is missing: initialize first"))
                return None
            with lock:
                found = sessions.get(sid)
            if found is None:
                self.send(404, _error(None, _INVALID_REQUEST, "the session " + sid + " is not open"))
                return None
            return sid, found

        def do_GET(self) -> None:
            if self.checked():
                # The server never sends anything unasked: there is no stream to open.
                self.send(405, None, {"Allow": "POST, DELETE"})

        def do_DELETE(self) -> None:
            if not self.checked():
                return
            found = self.session()
            if found is not None:
                with lock:
                    sessions.pop(found[0], None)
                self.send(200, None)

        def do_POST(self) -> None:
            if not self.checked():
                return
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self.send(411, _error(None, _INVALID_REQUEST, "Content-Length is missing"))
                return
            if length < 0 or length > _MAX_MESSAGE:
                # Read what a client may still be sending (up to a bound), so that it reads the answer.
                left = length if 0 < length <= 16 * _MAX_MESSAGE else 0
                while left > 0:
                    got = self.rfile.read(min(left, 1 << 16))
                    if not got:
                        break
                    left -= len(got)
                self.send(413, _error(None, _INVALID_REQUEST, "the message is longer than " + str(_MAX_MESSAGE) + " bytes"))
                self.close_connection = True
                return
            body = self.rfile.read(length)
            try:
                message = _read(body)
            except _Refused as e:
                self.send(400, _error(e.id, e.code, e.message))
                return
            version = self.headers.get("MCP-Protocol-Version")
            if message.get("method") == "initialize" and "id" in message:
                session = _Session()
                answer = tool.answer(message, session)
                sid = secrets.token_hex(16)
                if answer is not None and "result" in answer:
                    with lock:
                        sessions[sid] = session
                        while len(sessions) > _MAX_SESSIONS:
                            del sessions[next(iter(sessions))]
                self.send(200, answer, {"Mcp-Session-Id": sid})
                return
            if version is not None and version not in _VERSIONS:
                self.send(400, _error(message.get("id"), _INVALID_REQUEST, "MCP-Protocol-Version " + version + " is not spoken here"))
                return
            found = self.session()
            if found is None:
                return
            answer = tool.answer(message, found[1])
            if answer is None:
                self.send(202, None)
            else:
                self.send(200, answer)

    v6 = ":" in host

    class Server(http.server.ThreadingHTTPServer):
        address_family = socket.AF_INET6 if v6 else socket.AF_INET
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            # A client that went quiet in the middle of a message is closed, not reported.
            if not isinstance(sys.exc_info()[1], TimeoutError):
                super().handle_error(request, client_address)

    server = Server((host, port), Handler)
    bound = server.server_address[1]
    shown = "[" + host + "]" if v6 else host
    print("http://" + shown + ":" + str(bound) + "/mcp", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


# rulec-copy: script.py address


# rulec-copy: script.py seconds


def main() -> None:
    parser = argparse.ArgumentParser(description="The rule " + _RULE["tool"]["name"] + " as one MCP tool.")
    parser.add_argument("--http", type=_address, metavar="[HOST:]PORT", help="serve MCP's Streamable HTTP at /mcp (on 127.0.0.1 unless a host is given)")
    parser.add_argument("--origin", action="append", default=[], help="an Origin the HTTP server accepts beside the local ones")
    parser.add_argument("--record", metavar="FILE", help="append every answered call to FILE as a fixtures record")
    parser.add_argument("--idle-timeout", type=_seconds, default=60.0, metavar="SECONDS", help="close an HTTP connection that sends nothing for SECONDS (60 unless told)")
    args = parser.parse_args()
    tool = _Tool(args.record, os.path.dirname(os.path.abspath(__file__)))
    if args.http is None:
        serve_stdio(tool)
    else:
        serve_http(tool, args.http[0], args.http[1], args.origin, args.idle_timeout)


if __name__ == "__main__":
    main()
