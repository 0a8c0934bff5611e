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
import re
import secrets
import socket
import sys
import threading
import time
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
# The sessions open at once: a client that never says DELETE cannot hold the memory. When
# every one is taken, one that has been idle longer than --idle-timeout makes room; if none
# has, initialize is refused (503), and no session in use is ever closed for another.
_MAX_SESSIONS = 1024
_PARSE_ERROR = -32700
_INVALID_REQUEST = -32600
_METHOD_NOT_FOUND = -32601
_INVALID_PARAMS = -32602
_INTERNAL_ERROR = -32603
_RESOURCE_NOT_FOUND = -32002
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_INTEGER = re.compile("-?(0|[1-9][0-9]*)")


class _Refused(Exception):
    """A message answered with a JSON-RPC error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Message:
    """One JSON-RPC message: its members, and its id as the client wrote it (the JSON
    text of a string or an integer, echoed as it came: None when there is none, or it is
    neither)."""

    def __init__(self, fields: dict[str, Any], id: str | None) -> None:
        self.fields = fields
        self.id = id if id is not None and (id.startswith('"') or _INTEGER.fullmatch(id)) else None


# rulec-copy: script.py depth


# rulec-copy: script.py read


def _dumps(x: Any) -> str:
    """JSON text. A string of the message may hold half of a surrogate pair, which has no
    UTF-8: it is written as its escape."""
    text = json.dumps(x, ensure_ascii=False, separators=(",", ":"))
    return _LONE_SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def _response(id: str | None, outcome: dict[str, Any]) -> str:
    """A response's text: the id as the client wrote it (null without one), then `outcome`,
    its result or its error."""
    return '{"jsonrpc":"2.0","id":' + ("null" if id is None else id) + "," + _dumps(outcome)[1:]


def _is_result(answer: str, id: str | None) -> bool:
    """Whether a response of _response is a result, not an error."""
    return id is not None and answer.startswith('{"jsonrpc":"2.0","id":' + id + ',"result":')


def _error(code: int, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def _space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\n\r":
        at += 1
    return at


def _top(text: str) -> tuple[Any, str | None]:
    """The value of a JSON text and, when it is an object, the text of its id's value (of
    the last id, as the value read is the last one's)."""
    decoder = json.JSONDecoder(parse_float=_parse_float, parse_int=_parse_int, parse_constant=_no_constant)
    at = _space(text, 0)
    if not text.startswith("{", at):
        value, at = decoder.raw_decode(text, at)
        if _space(text, at) != len(text):
            raise ValueError("more text after the value at character " + str(at))
        return value, None
    fields: dict[str, Any] = {}
    id = None
    at = _space(text, at + 1)
    if text.startswith("}", at):
        at += 1
    else:
        while True:
            if not text.startswith('"', at):
                raise ValueError("a key is expected at character " + str(at))
            key, at = decoder.raw_decode(text, at)
            at = _space(text, at)
            if not text.startswith(":", at):
                raise ValueError("':' is expected at character " + str(at))
            start = _space(text, at + 1)
            fields[key], at = decoder.raw_decode(text, start)
            if key == "id":
                id = text[start:at]
            at = _space(text, at)
            if text.startswith("}", at):
                at += 1
                break
            if not text.startswith(",", at):
                raise ValueError("',' or '}' is expected at character " + str(at))
            at = _space(text, at + 1)
    if _space(text, at) != len(text):
        raise ValueError("more text after the value at character " + str(at))
    return fields, id


def _read(body: bytes) -> _Message:
    """One JSON-RPC message: a JSON object."""
    try:
        text = body.decode("utf-8")
        if _too_deep(text):
            raise ValueError("its arrays and objects nest deeper than " + str(_MAX_DEPTH))
        message, id = _top(text)
    except (ValueError, RecursionError) as e:
        raise _Refused(_PARSE_ERROR, "the message is not JSON: " + str(e)) from None
    if isinstance(message, list):
        raise _Refused(_INVALID_REQUEST, "a batch is not accepted: send one message at a time")
    if not isinstance(message, dict):
        raise _Refused(_INVALID_REQUEST, "a message is a JSON object")
    return _Message(message, id)


class _Session:
    """What a client said at initialize that changes the answers (whether it renders views);
    over HTTP, the client's address, which alone may use it, and when it was last used."""

    def __init__(self, client: str = "") -> None:
        self.views = False
        self.client = client
        self.used = time.monotonic_ns()


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

    def answer(self, message: _Message, session: _Session) -> str | None:
        """The answer to a message, as its text; None for a notification or a response."""
        fields, id = message.fields, message.id
        if fields.get("jsonrpc") != "2.0":
            return _response(id, _error(_INVALID_REQUEST, 'the message does not say "jsonrpc":"2.0"'))
        if "method" not in fields:
            if "result" in fields or "error" in fields:
                return None
            return _response(id, _error(_INVALID_REQUEST, "the message has no method"))
        method = fields["method"]
        if not isinstance(method, str):
            return _response(id, _error(_INVALID_REQUEST, "method is not a string"))
        if "id" not in fields:
            return None
        if id is None:
            return _response(None, _error(_INVALID_REQUEST, "id is a string or an integer"))
        params = fields.get("params")
        if params is None:
            params = {}
        if not isinstance(params, dict):
            return _response(id, _error(_INVALID_PARAMS, "params is an object"))
        try:
            return _response(id, {"result": self.request(method, params, session)})
        except _Refused as e:
            return _response(id, _error(e.code, e.message))
        except Exception as e:
            # Nothing a message holds may end the server: what no check above foresaw is
            # this request's error.
            return _response(id, _error(_INTERNAL_ERROR, "the server could not answer: " + type(e).__name__))

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
            uri = params.get("uri")
            if not isinstance(uri, str):
                raise _Refused(_INVALID_PARAMS, "uri is missing or not a string")
            page = self.view(session)
            if uri != _RULE["view"] or page is None:
                raise _Refused(_RESOURCE_NOT_FOUND, uri + " is not a resource of this server")
            return {"contents": [{"uri": _RULE["view"], "mimeType": _UI_MIME, "text": page}]}
        raise _Refused(_METHOD_NOT_FOUND, "this server has no method " + method)

    def call(self, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        if not isinstance(name, str):
            raise _Refused(_INVALID_PARAMS, "name is missing or not a string")
        if name != _RULE["tool"]["name"]:
            raise _Refused(_INVALID_PARAMS, name + " is not a tool of this server")
        call = params.get("arguments")
        if call is None:
            call = {}
        if not isinstance(call, dict):
            raise _Refused(_INVALID_PARAMS, "arguments is an object")
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
        answer: str | None
        if line == b"":
            answer = _response(None, _error(_INVALID_REQUEST, "the message is longer than " + str(_MAX_MESSAGE) + " bytes"))
        else:
            try:
                answer = tool.answer(_read(line), session)
            except _Refused as e:
                answer = _response(None, _error(e.code, e.message))
        if answer is not None:
            out.write(answer + "\n")
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
    deadlines = _Deadlines(idle)

    def opened(session: _Session) -> str | None:
        """A new session's id; None when every place is taken by a session used within the
        idle time (the longest idle one makes room otherwise)."""
        sid = secrets.token_hex(16)
        with lock:
            if len(sessions) >= _MAX_SESSIONS:
                oldest = min(sessions, key=lambda k: sessions[k].used)
                if time.monotonic_ns() - sessions[oldest].used < deadlines.span:
                    return None
                del sessions[oldest]
            sessions[sid] = session
        return sid

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

        def handle_one_request(self) -> None:
            # The request and its answer within the idle time, however slowly it trickles.
            deadlines.arm(self.connection)
            try:
                super().handle_one_request()
            finally:
                deadlines.disarm(self.connection)

        def send(self, status: int, body: str | None, headers: dict[str, str] | None = None) -> None:
            data = body.encode("utf-8") if body is not None else b""
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def refuse(self, status: int, message: str) -> None:
            self.send(status, _response(None, _error(_INVALID_REQUEST, message)))

        def checked(self) -> bool:
            """The path is /mcp and the Origin is local or named; else answered already (and
            the connection closed, since the body of the request is not read)."""
            self.close_connection = True
            if urlsplit(self.path).path != "/mcp":
                self.refuse(404, "the server answers at /mcp")
                return False
            origin = self.headers.get("Origin")
            if origin is not None and not _local(origin) and origin not in origins:
                self.refuse(403, "the Origin " + origin + " is not allowed")
                return False
            self.close_connection = False
            return True

        def session(self) -> tuple[str, _Session] | None:
            """The session the request names; else answered already (400 without one, 404
            for one that is not open, or no longer, or was opened by another client)."""
            sid = self.headers.get("Mcp-Session-Id")
            if sid is None:
                self.refuse(400, "Mcp-Session-Id is missing: initialize first")
                return None
            with lock:
                found = sessions.get(sid)
                if found is not None and found.client == self.client_address[0]:
                    found.used = time.monotonic_ns()
                else:
                    found = None
            if found is None:
                self.refuse(404, "the session " + sid + " is not open")
                return None
            return sid, found

        def not_allowed(self) -> None:
            if self.checked():
                # The server never sends anything unasked: there is no stream to open.
                self.send(405, None, {"Allow": "POST, DELETE"})

        do_GET = do_HEAD = do_PUT = do_PATCH = do_OPTIONS = not_allowed

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
                self.refuse(411, "Content-Length is missing")
                self.close_connection = True
                return
            if length < 0 or length > _MAX_MESSAGE:
                # Read what a client may still be sending (up to a bound), so that it reads the answer.
                left = length if 0 < length <= 16 * _MAX_MESSAGE else 0
                while left > 0:
                    got = self.rfile.read(min(left, 1 << 16))
                    if not got:
                        break
                    left -= len(got)
                self.refuse(413, "the message is longer than " + str(_MAX_MESSAGE) + " bytes")
                self.close_connection = True
                return
            body = self.rfile.read(length)
            try:
                message = _read(body)
            except _Refused as e:
                self.send(400, _response(None, _error(e.code, e.message)))
                return
            fields = message.fields
            if fields.get("method") == "initialize" and "id" in fields:
                session = _Session(self.client_address[0])
                answer = tool.answer(message, session)
                if answer is None or not _is_result(answer, message.id):
                    self.send(200, answer)
                    return
                sid = opened(session)
                if sid is None:
                    self.send(503, _response(message.id, _error(_INVALID_REQUEST, "every session is in use: try again later")))
                    return
                self.send(200, answer, {"Mcp-Session-Id": sid})
                return
            version = self.headers.get("MCP-Protocol-Version")
            if version is not None and version not in _VERSIONS:
                self.send(400, _response(message.id, _error(_INVALID_REQUEST, "MCP-Protocol-Version " + version + " is not spoken here")))
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
        # The connections that wait to be accepted: socketserver's 5 resets the rest when
        # many clients connect at once.
        request_queue_size = 128

        def handle_error(self, request: Any, client_address: Any) -> None:
            # A client that went quiet in the middle of a message, or ran out of time, is
            # closed, not reported.
            if not isinstance(sys.exc_info()[1], OSError):
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


# rulec-copy: script.py deadline


def main() -> None:
    parser = argparse.ArgumentParser(description="The rule " + _RULE["tool"]["name"] + " as one MCP tool.")
    parser.add_argument("--http", type=_address, metavar="[HOST:]PORT", help="serve MCP's Streamable HTTP at /mcp (on 127.0.0.1 unless a host is given)")
    parser.add_argument("--origin", action="append", default=[], help="an Origin the HTTP server accepts beside the local ones")
    parser.add_argument("--record", metavar="FILE", help="append every answered call to FILE as a fixtures record")
    parser.add_argument("--idle-timeout", type=_seconds, default=60.0, metavar="SECONDS", help="close an HTTP connection that sends nothing for SECONDS, or takes longer to send a request (60 unless told); a session unused as long may make room for another")
    args = parser.parse_args()
    tool = _Tool(args.record, os.path.dirname(os.path.abspath(__file__)))
    if args.http is None:
        serve_stdio(tool)
    else:
        serve_http(tool, args.http[0], args.http[1], args.origin, args.idle_timeout)


if __name__ == "__main__":
    main()
