"""The ASGI application: MCP Streamable HTTP at ``/mcp`` for both protocol eras, and ``/healthz``.

One POST carries one JSON-RPC message. The protocol core (:class:`Session`) decides what it means;
this module only moves bytes. Each POST is of the handshake era (2025-11-25 and before) or of the
stateless 2026-07-28 revision, told apart by :func:`.modern.is_modern`, which also checks and
answers the modern ones; handshake-era sessions are kept by :mod:`.sessions`.

- a request is answered with ``application/json``, or with an SSE stream when the client accepts
  only that, or when progress notifications go ahead of the reply (a tool call that carries a
  progress token and runs longer than a second gets one notification per second while it runs);
- notifications get 202, and so do a client's responses in the handshake era; batches,
  unparseable and malformed bodies 400;
- handshake-era sessions (``MCP-Session-Id``) start with ``initialize``, end with DELETE or after an
  idle time; in stateless mode every request is served on its own, already initialized;
- a modern request never has a session; closing its response stream cancels its tool call;
- tool calls go to the COBOL worker pool and run in parallel (:mod:`.calls`); ``ping`` never
  waits for them.
"""

from __future__ import annotations

import asyncio
import time

from ... import log
from ...protocol import jsonrpc
from ...protocol.jsonrpc import INVALID_REQUEST, Ignored, Invalid, Request
from ...protocol.model import LATEST_VERSION, SUPPORTED_VERSIONS
from ...protocol.modern import MODERN_VERSIONS
from ...protocol.session import Cancel, Session, ToolCall
from . import modern
from .calls import Calls, ReaderLoop
from .security import Guard
from .sessions import Sessions, SessionState
from .wire import (
    JSON_HEADERS,
    REQUEST_ID_KEY,
    GuardedSend,
    Reply,
    accepts,
    error_body,
    is_json_type,
    send_bytes,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...options import Options
    from ...reload import Watcher
    from ...server import Server
    from .lane import Lane
    from .metrics import Metrics
    from .wire import Headers, Receive, Send

ENDPOINT = "/mcp"
HEALTH = "/healthz"
METRICS = "/metrics"

CLOSE = [(b"connection", b"close")]  # on answers given before the body was read: it is not read at all
CORS_EXPOSE = (b"access-control-expose-headers", b"mcp-session-id, mcp-protocol-version, www-authenticate")
ALLOWED_REQUEST_HEADERS = (
    b"content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id"
)


class Settings:
    """The HTTP side of the command line."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        stateless: bool = False,
        auth_token: str | None = None,
        allow_origins: list[str] | tuple[str, ...] = (),
        session_idle: float = 3600.0,
        max_body_bytes: int = 4 << 20,
        max_sessions: int = 10_000,
        max_calls: int = 1024,
        max_connections: int = 2048,
        read_timeout: float = 30.0,
        max_head_bytes: int = 64 << 10,
        max_buffered_bytes: int = 128 << 20,
        metrics: bool = False,
    ) -> None:
        self.host, self.port, self.stateless = host, port, stateless
        self.auth_token = auth_token or None
        self.allow_origins = list(allow_origins)
        self.session_idle = session_idle
        self.max_body_bytes = max_body_bytes
        self.max_sessions = max_sessions  # open handshake-era sessions; more: 503
        self.max_calls = max_calls  # tool calls running or queued for a COBOL worker; more: 503
        self.max_connections = max_connections  # open connections; more: 503 (see limits)
        self.read_timeout = read_timeout  # seconds for a request's headers, then for its body; later: 408
        self.max_head_bytes = max_head_bytes  # request line and headers; more: 431
        self.max_buffered_bytes = max_buffered_bytes  # request bodies being read, all together; more: 503
        self.metrics = metrics  # serve /metrics (Prometheus)


class McpHttpApp:
    """The ASGI 3 application. The server is built at lifespan start-up, on the serving loop."""

    def __init__(
        self, options: Options, settings: Settings, build: Callable[[Options, ReaderLoop], Server] | None = None
    ) -> None:
        self.options, self.settings = options, settings
        self.guard = Guard(settings.host, settings.port, settings.allow_origins, settings.auth_token)
        self._build = build
        self.server: Server | None = None
        self.calls = Calls(settings.max_calls)
        self.sessions = Sessions(
            0.0 if settings.stateless else settings.session_idle, self.calls.cancel, settings.max_sessions
        )
        self.buffered = 0  # bytes of request bodies being read now
        self._pristine: Session | None = None
        self.metrics: Metrics | None = None  # with --metrics, from start-up on
        self._watcher: Watcher | None = None  # with --watch
        self.lane: Lane | None = None  # the short path of the common POST (see lane), from start-up on

    # ---------------------------------------------------------------------------------- ASGI
    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            if self.metrics is not None:
                send = self.metrics.counted(send)
            path = scope["path"]
            if path == ENDPOINT or path == ENDPOINT + "/":
                guarded = GuardedSend(send)
                try:
                    await self._endpoint(scope, receive, guarded)
                except Exception:  # a fault in producing a reply must still answer in JSON-RPC, never uvicorn's 500
                    log.exception("unexpected fault while answering a request")
                    await guarded.fail(scope.get(REQUEST_ID_KEY))
            elif path == HEALTH:
                await self._health(scope, send)
            elif path == METRICS and self.metrics is not None:
                headers = dict(scope["headers"])  # same checks as /mcp: tool names and load are not public
                rejected = self.guard.check(
                    headers.get(b"host"), headers.get(b"origin"), headers.get(b"authorization"), token_needed=True
                )
                await self.metrics.serve(scope["method"], rejected, send)
            else:
                await send_bytes(
                    send, 404, error_body(INVALID_REQUEST, "Not Found: the MCP endpoint is /mcp"), JSON_HEADERS
                )
        elif kind == "lifespan":
            await self._lifespan(receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    self.start()
                except Exception as exc:
                    log.exception("the server could not start")
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._build is None:
            from ...server import build_server

            self._build = build_server
        server = self.server = self._build(self.options, self.calls.reader_loop(loop))
        self.calls.attach(server)
        server.runtime.start()  # one COBOL worker ready before the first call
        server.catalog.warm()
        self._pristine = self._new_session()  # what a 2026-07-28 request is served by: it never changes
        self.sessions.start(loop)
        if self.settings.metrics:
            from .metrics import Metrics  # prometheus-client: loaded only when asked for

            self.metrics = Metrics(
                lambda: self.server.runtime if self.server is not None else None,
                lambda: len(self.sessions),
                self.sessions.streams,
            )
            self.calls.observe = self.metrics.call_done
        if self.options.watch:
            self._watch(loop, server)
        if self.metrics is None:  # with --metrics every response is counted: all of them take the ASGI path
            from .lane import Lane

            self.lane = Lane(self)

    def _watch(self, loop: asyncio.AbstractEventLoop, server: Server) -> None:
        """Live reload: the watcher's thread hands each new tool set to this loop, which swaps it in
        between requests and sends tools/list_changed on every session's open GET stream. Stateless,
        there are no streams: listChanged is not declared, and 2026-07-28 replies carry short cache
        hints instead."""
        from ...reload import LIST_CHANGED, Watcher

        if self.settings.stateless:
            server.model.list_changed = False

        def post(function: Callable[[], object]) -> None:
            loop.call_soon_threadsafe(function)

        def reloaded(changed: bool) -> None:
            if changed:
                self.sessions.notify(LIST_CHANGED)

        self._watcher = Watcher(server, self.options, post, reloaded)
        self._watcher.start()

    def abort_calls(self) -> None:
        """The server is stopping: end every tool call still running, its request answered with an error."""
        self.calls.abort()

    def stop(self) -> None:
        self.lane = None
        if self._watcher is not None:
            self._watcher.stop()
        self.sessions.stop()
        self.calls.abort()
        self.calls.close()
        if self.server is not None:
            self.server.runtime.close()

    # ---------------------------------------------------------------------------------- routing
    async def _health(self, scope: dict[str, Any], send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await send_bytes(send, 405, b"", [(b"allow", b"GET, HEAD")])
            return
        await send_bytes(send, 200, b'{"status":"ok"}', JSON_HEADERS)

    async def _endpoint(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        method = scope["method"]
        version = headers.get(b"mcp-protocol-version")
        origin = headers.get(b"origin")
        rejected = self.guard.check(
            headers.get(b"host"), origin, headers.get(b"authorization"), token_needed=method != "OPTIONS"
        )  # a CORS preflight carries no credentials
        cors = self._cors(origin, rejected)
        if rejected is not None:  # answered from the headers alone: an unread body ends the connection
            status, text, extra = rejected
            await send_bytes(send, status, error_body(INVALID_REQUEST, text), JSON_HEADERS + extra + cors + CLOSE)
            return
        if method == "POST":
            await self._post(scope, headers, receive, send, cors)
        elif method == "OPTIONS":
            await send_bytes(
                send,
                204,
                b"",
                [
                    *cors,
                    (b"access-control-allow-methods", b"GET, POST, DELETE"),
                    (b"access-control-allow-headers", ALLOWED_REQUEST_HEADERS),
                    (b"access-control-max-age", b"600"),
                ],
            )
        elif version is not None and modern.header_text(version) in MODERN_VERSIONS:  # no GET, no sessions
            await send_bytes(
                send,
                405,
                error_body(INVALID_REQUEST, f"Method Not Allowed: {method} (2026-07-28 clients only POST)"),
                [*JSON_HEADERS, (b"allow", b"POST"), *cors],
            )
        elif (problem := self._version_problem(version)) is not None:
            await send_bytes(send, 400, error_body(INVALID_REQUEST, problem[0], None, problem[1]), JSON_HEADERS + cors)
        elif method == "DELETE" and not self.settings.stateless:
            await self.sessions.delete(headers, send, cors)
        elif method == "GET" and self._watcher is not None and not self.settings.stateless:
            from .streams import open_stream  # only with --watch

            await open_stream(self.sessions, headers, receive, send, cors)
        else:  # GET: this server has nothing to send unprompted, so it offers no standalone stream
            allow = b"POST" if self.settings.stateless else b"POST, DELETE"
            text = (
                "Method Not Allowed: this server sends no messages outside replies, so it offers no GET stream"
                if method == "GET"
                else f"Method Not Allowed: {method}"
            )
            await send_bytes(send, 405, error_body(INVALID_REQUEST, text), [*JSON_HEADERS, (b"allow", allow), *cors])

    def _cors(self, origin: bytes | None, rejected: tuple[int, str, Headers] | None) -> Headers:
        if origin is None or (rejected is not None and rejected[0] != 401):
            return []
        return [(b"access-control-allow-origin", origin), (b"vary", b"origin"), CORS_EXPOSE]

    @staticmethod
    def _version_problem(value: bytes | None) -> tuple[str, dict[str, Any]] | None:
        if value is None:
            return None  # taken as 2025-03-26, which is supported
        version = value.decode("latin-1").strip()
        if version in SUPPORTED_VERSIONS:
            return None
        return (
            f"Bad Request: unsupported MCP-Protocol-Version {version!r}",
            {"supported": list(SUPPORTED_VERSIONS), "requested": version},
        )

    # ---------------------------------------------------------------------------------- POST
    async def _post(
        self, scope: dict[str, Any], headers: dict[bytes, bytes], receive: Receive, send: Send, cors: Headers
    ) -> None:
        content_type = headers.get(b"content-type")
        if content_type is not None and not is_json_type(content_type):
            await send_bytes(
                send,
                415,
                error_body(INVALID_REQUEST, "Unsupported Media Type: send application/json"),
                JSON_HEADERS + cors + CLOSE,
            )
            return
        json_ok, sse_ok = accepts(headers.get(b"accept"))
        if not (json_ok or sse_ok):
            await send_bytes(
                send,
                406,
                error_body(INVALID_REQUEST, "Not Acceptable: accept application/json and text/event-stream"),
                JSON_HEADERS + cors + CLOSE,
            )
            return
        body_or_refusal = await self._body(headers, receive)
        if isinstance(body_or_refusal, tuple):
            status, text, extra = body_or_refusal
            await send_bytes(send, status, error_body(INVALID_REQUEST, text), JSON_HEADERS + extra + cors + CLOSE)
            return
        body = body_or_refusal
        try:
            message = jsonrpc.parse(body)
        finally:
            self.buffered -= len(body)
            del body, body_or_refusal
        if isinstance(message, (Request, Invalid)):
            scope[REQUEST_ID_KEY] = message.id  # what a fault in answering it still answers to
        if isinstance(message, Invalid):
            await send_bytes(send, 400, error_body(message.code, message.message, message.id), JSON_HEADERS + cors)
            return
        if isinstance(message, Ignored) and message.reason != "response":
            await send_bytes(
                send, 400, error_body(INVALID_REQUEST, f"Invalid Request: {message.reason}"), JSON_HEADERS + cors
            )
            return
        session_id = None if self.settings.stateless else headers.get(b"mcp-session-id")
        state = self.sessions.live(session_id)
        version = headers.get(b"mcp-protocol-version")
        reply = Reply(send, json_ok, sse_ok, cors)
        if modern.is_modern(version, message, state is not None):
            await modern.serve(
                self._pristine or self._new_session(),  # (set by start(), before the first request)
                self.calls.run,
                scope["headers"],
                headers,
                message,
                reply,
                receive,
            )
            return
        await self._legacy(message, version, session_id, state, reply, receive)

    async def _legacy(
        self,
        message: jsonrpc.Message,
        version: bytes | None,
        session_id: bytes | None,
        state: SessionState | None,
        reply: Reply,
        receive: Receive,
    ) -> None:
        """A POST of the handshake era (2025-11-25 Streamable HTTP)."""
        request_id = message.id if isinstance(message, Request) else None
        problem = self._version_problem(version)
        if problem is not None:
            await send_bytes(
                reply.send,
                400,
                error_body(INVALID_REQUEST, problem[0], request_id, problem[1]),
                JSON_HEADERS + reply.headers,
            )
            return
        if self.settings.stateless:
            await self._serve(self.fresh_session(version), None, message, reply, receive)
            return
        if isinstance(message, Request) and message.method == "initialize":
            await self._initialize(message, reply)
            return
        if state is None or session_id is None:  # (live() finds no session for no id)
            await self.sessions.missing(session_id, request_id, reply.send, reply.headers)
            return
        reply.headers = [(b"mcp-session-id", session_id), *reply.headers]
        await self._serve(state.session, state, message, reply, receive)
        state.last_seen = time.monotonic()

    async def _body(self, headers: dict[bytes, bytes], receive: Receive) -> bytes | tuple[int, str, Headers]:
        """The request body, still counted in `self.buffered` (the caller uncounts it once parsed), or why it
        is refused: (status, text, extra headers) for a body too large, too slow, or with no room for it."""
        limit = self.settings.max_body_bytes
        too_large: tuple[int, str, Headers] = 413, f"Payload Too Large: a message may have at most {limit} bytes", []
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            return too_large
        chunks: list[bytes] = []
        size = 0
        outcome: bytes | tuple[int, str, Headers] | None = None
        try:
            async with asyncio.timeout(self.settings.read_timeout):
                while outcome is None:
                    message = await receive()
                    if message["type"] != "http.request":
                        outcome = (499, "the client left", [])  # whatever is answered goes nowhere
                        break
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    self.buffered += len(chunk)
                    if size > limit:
                        outcome = too_large
                    elif self.buffered > self.settings.max_buffered_bytes:
                        outcome = (
                            503,
                            "Service Unavailable: too many request bodies in flight; try again later",
                            [(b"retry-after", b"1")],
                        )
                    else:
                        chunks.append(chunk)
                        if not message.get("more_body"):
                            outcome = b"".join(chunks) if len(chunks) != 1 else chunks[0]
        except TimeoutError:
            outcome = 408, f"Request Timeout: the body did not arrive within {self.settings.read_timeout:g} s", []
        finally:
            if not isinstance(outcome, bytes):
                self.buffered -= size
        return outcome

    def _new_session(self) -> Session:
        if self.server is None:
            raise RuntimeError("McpHttpApp.start() has not run")
        return Session(self.server.model, strict_lifecycle=self.options.strict_lifecycle)

    def fresh_session(self, version: bytes | None) -> Session:
        """The session a stateless handshake-era request is served by: new, taken as initialized."""
        session = self._new_session()
        session.protocol_version = version.decode("latin-1").strip() if version is not None else LATEST_VERSION
        return session

    async def _initialize(self, message: Request, reply: Reply) -> None:
        if self.sessions.full():
            await send_bytes(
                reply.send,
                503,
                error_body(INVALID_REQUEST, "Service Unavailable: too many open sessions; try again later", message.id),
                [*JSON_HEADERS, (b"retry-after", b"5"), *reply.headers],
            )
            return
        session = self._new_session()
        line = session.handle(message)
        if session.protocol_version is not None:  # a successful handshake opens the session
            session_id = self.sessions.open(session)
            reply.headers = [(b"mcp-session-id", session_id.encode()), *reply.headers]
        await reply.finish(line if isinstance(line, bytes) else None)  # an initialize request gets bytes

    # ---------------------------------------------------------------------------------- messages
    async def _serve(
        self, session: Session, state: SessionState | None, message: jsonrpc.Message, reply: Reply, receive: Receive
    ) -> None:
        try:
            outcome = session.handle(message)
        except Exception:
            log.exception("unexpected fault while handling a message")
            request_id = message.id if isinstance(message, Request) else None
            outcome = jsonrpc.error_line(
                request_id, jsonrpc.INTERNAL_ERROR, "Internal error while handling the message"
            )
        if not isinstance(message, Request):
            if isinstance(outcome, Cancel) and state is not None:
                self.calls.cancel(state, outcome.request_id)
            await send_bytes(reply.send, 202, b"", reply.headers)
            return
        if isinstance(outcome, ToolCall):
            await self.calls.run(session, state, outcome, reply, receive)
        else:
            await reply.finish(outcome if isinstance(outcome, bytes) else None)  # a request gets bytes
