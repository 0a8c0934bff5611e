# The rule as a Connect service (generated-code.md, "The rule as a Connect service"): the
# module's wire door behind the stubs buf generates from the rule's .proto, as an ASGI
# application (`app`) and a WSGI one (`wsgi_app`) on one body. Every answer carries the
# digest of the rule; a call the rule refuses is invalid_argument with the module's
# sentence (and a Refusal detail), a contradiction is internal (500).
#
# The backend writes the rule's own part (the imports of its stubs, `_call`, `_response`,
# the class names, `_SOURCE_SHA256`) between the sections it copies from here, and each
# `# rulec-copy:` line by the section of the Python backend's script.py it names.

# rulec: imports
import argparse
import json
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from connectrpc.code import Code
from connectrpc.codec import proto_binary_codec, proto_json_codec
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext

# rulec: body
# rulec-copy: script.py depth


class _Shallow:
    """A JSON codec that refuses a body nested deeper than the reference reads a call before
    the protobuf library reads it: one nested 100,000 deep overflows its stack (a crash,
    not an error)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def name(self) -> str:
        return str(self.inner.name())

    def encode(self, message: Any) -> bytes:
        return bytes(self.inner.encode(message))

    def decode(self, data: bytes | bytearray, message_class: Any) -> Any:
        if _too_deep(bytes(data).decode("utf-8", errors="replace")):
            raise ConnectError(Code.INVALID_ARGUMENT, "the body nests deeper than " + str(_MAX_DEPTH) + " arrays and objects")
        return self.inner.decode(data, message_class)


# A field the JSON names and the message does not have is refused, not dropped: a dropped
# input would be decided as its zero.
_CODECS = [proto_binary_codec(), _Shallow(proto_json_codec(ignore_unknown_fields=False))]


class _Record:
    """--record FILE: every answered call appended as one fixtures record."""

    def __init__(self) -> None:
        self.file: Any = None
        self.lock = threading.Lock()

    def write(self, line: str) -> None:
        if self.file is not None:
            with self.lock:
                self.file.write(line + "\n")
                self.file.flush()


_record = _Record()


def _decide(request: _pb.DecideRequest) -> _pb.DecideResponse:
    if request.to_binary(write_unknown_fields=False) != request.to_binary():
        raise ConnectError(Code.INVALID_ARGUMENT, "the request carries fields the rule's DecideRequest does not have")
    try:
        line = _rule.rulec_wire(_call(request))
    except _rule.RuleInputError as e:
        raise ConnectError(Code.INVALID_ARGUMENT, str(e), [_pb.Refusal(what=e.what, value=e.value)]) from None
    except _rule.RuleContradictionError as e:
        # No static proof decides which row wins here: the rule's to fix, not the caller's.
        raise ConnectError(Code.INTERNAL, str(e), [_pb.Refusal(what=e.what)]) from None
    _record.write(line)
    record = json.loads(line)
    return _response(record["observed"], record["trace"])


class rulec_class(rulec_protocol):
    """The service, for an ASGI server."""

    async def decide(self, request: _pb.DecideRequest, ctx: RequestContext[_pb.DecideRequest, _pb.DecideResponse], /) -> _pb.DecideResponse:
        return _decide(request)


class rulec_sync_class(rulec_sync_protocol):
    """The service, for a WSGI server."""

    def decide(self, request: _pb.DecideRequest, ctx: RequestContext[_pb.DecideRequest, _pb.DecideResponse], /) -> _pb.DecideResponse:
        return _decide(request)


_SOURCE_HEADER = ("rulec-source-sha256", _SOURCE_SHA256)

_Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
_Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
_Asgi = Callable[[MutableMapping[str, Any], _Receive, _Send], Awaitable[None]]
_StartResponse = Callable[..., Any]
_Wsgi = Callable[[dict[str, Any], _StartResponse], Iterable[bytes]]


def _asgi_with_source(inner: _Asgi) -> _Asgi:
    """Every answer says which version of the table gave it."""

    async def app(scope: MutableMapping[str, Any], receive: _Receive, send: _Send) -> None:
        async def sending(message: MutableMapping[str, Any]) -> None:
            if message.get("type") == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((_SOURCE_HEADER[0].encode("ascii"), _SOURCE_HEADER[1].encode("ascii")))
                message["headers"] = headers
            await send(message)

        await inner(scope, receive, sending)

    return app


def _wsgi_with_source(inner: _Wsgi) -> _Wsgi:
    def app(environ: dict[str, Any], start_response: _StartResponse) -> Iterable[bytes]:
        def starting(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            return start_response(status, [*headers, _SOURCE_HEADER], *rest)

        # A request with neither a length nor chunks has no body (RFC 9112 6.3). Said so,
        # since connectrpc reads wsgi.input to its end before an error of a GET, and the
        # standard library's server does not end it.
        if not environ.get("CONTENT_LENGTH") and "chunked" not in environ.get("HTTP_TRANSFER_ENCODING", ""):
            environ["CONTENT_LENGTH"] = "0"
        return inner(environ, starting)

    return app


app = _asgi_with_source(rulec_asgi(rulec_class(), codecs=_CODECS))
wsgi_app = _wsgi_with_source(rulec_wsgi(rulec_sync_class(), codecs=_CODECS))


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


# rulec-copy: script.py address


# rulec-copy: script.py seconds


# rulec-copy: script.py deadline


def _serve(host: str, port: int, asgi: bool, idle: float) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    shown = "[" + host + "]" if family == socket.AF_INET6 else host
    if asgi:
        import uvicorn

        # Said TCP: asyncio turns Nagle's algorithm off only on a socket that says so, and
        # uvicorn writes an answer in pieces (else 40 ms a call, the client's delayed ACK).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        print("http://" + shown + ":" + str(sock.getsockname()[1]), flush=True)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        server.run(sockets=[sock])
        return

    deadlines = _Deadlines(idle)

    class Handler(_Quiet):
        # A connection that sends nothing for this long is closed: an idle or stalled
        # client does not keep its thread.
        timeout = idle

        def handle(self) -> None:
            # The request and its answer within the idle time, however slowly it trickles.
            deadlines.arm(self.connection)
            try:
                super().handle()
            finally:
                deadlines.disarm(self.connection)

    class Server(WSGIServer):
        address_family = family
        # The connections that wait to be accepted: socketserver's 5 resets the rest when
        # many clients connect at once.
        request_queue_size = 128

        def process_request(self, request: Any, client_address: Any) -> None:
            # One thread a connection, as socketserver.ThreadingMixIn does.
            t = threading.Thread(target=self._handle, args=(request, client_address), daemon=True)
            t.start()

        def _handle(self, request: Any, client_address: Any) -> None:
            try:
                self.finish_request(request, client_address)
            except OSError:
                # A client that went quiet, ran out of time or went away: closed, not reported.
                pass
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    httpd = Server((host, port), Handler)
    httpd.set_app(wsgi_app)
    print("http://" + shown + ":" + str(httpd.server_address[1]), flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description="The rule as a Connect service.")
    parser.add_argument("--http", type=_address, metavar="[HOST:]PORT", required=True, help="serve on 127.0.0.1:PORT, or HOST:PORT")
    parser.add_argument("--asgi", action="store_true", help="serve the ASGI app with uvicorn rather than the WSGI app with the standard library's server")
    parser.add_argument("--record", metavar="FILE", help="append every answered call to FILE as a fixtures record")
    parser.add_argument("--idle-timeout", type=_seconds, default=60.0, metavar="SECONDS", help="close a connection that sends nothing for SECONDS, or takes longer to send a request, with the standard library's server (60 unless told)")
    args = parser.parse_args()
    if args.record:
        _record.file = open(args.record, "a", encoding="utf-8")
    _serve(args.http[0], args.http[1], args.asgi, args.idle_timeout)


if __name__ == "__main__":
    main()
