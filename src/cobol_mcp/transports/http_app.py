"""The ASGI application: MCP Streamable HTTP (2025-11-25) at ``/mcp``, and ``/healthz``.

One POST carries one JSON-RPC message. The protocol core (:class:`Session`) decides what it means;
this module only moves bytes and keeps per-session state:

- a request is answered with ``application/json``, or with an SSE stream when the client accepts
  only that, or when progress notifications go ahead of the reply (a tool call that carries a
  progress token and runs longer than a second gets one notification per second while it runs);
- notifications and responses get 202; batches, unparseable and malformed bodies 400;
- sessions (``MCP-Session-Id``) start with ``initialize``, end with DELETE or after an idle time;
  in stateless mode every request is served on its own, already initialized, by any process;
- tool calls go to the COBOL worker pool and run in parallel; ``ping`` never waits for them.

The COBOL runtime runs on the server's asyncio loop: it registers its worker pipes with the loop,
frames are written once per loop turn (so concurrent calls share one write per worker), and a
timer follows the runtime's next call deadline.
"""

from __future__ import annotations

import asyncio
import copy
import secrets
import time

from .. import log
from ..protocol import jsonrpc
from ..protocol.jsonrpc import INVALID_REQUEST, Ignored, Invalid, Request
from ..protocol.session import LATEST_VERSION, SUPPORTED_VERSIONS, Cancel, Session, ToolCall
from .http_security import Guard
from .http_wire import JSON_HEADERS, TEXT_HEADERS, Reply, accepts, error_body, is_json_type, send_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..app import Options, Server
    from .http_wire import Headers, Receive, Send

ENDPOINT = "/mcp"
HEALTH = "/healthz"
TICK_SECONDS = 1.0  # progress notifications of a running call; stateless: disconnect checks after this
MAX_SESSIONS = 10_000
MIN_TIMER_SECONDS = 0.0005  # a deadline already past is looked at again this soon, not in a busy loop
CANCELLED: Any = object()  # how a call ends when the client cancelled it or its session ended

CORS_EXPOSE = (b"access-control-expose-headers", b"mcp-session-id, mcp-protocol-version, www-authenticate")
ALLOWED_REQUEST_HEADERS = b"content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id"


class Settings:
    """The HTTP side of the command line."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 8000, stateless: bool = False,
                 auth_token: str | None = None, allow_origins: list[str] | tuple[str, ...] = (),
                 session_idle: float = 3600.0, max_body_bytes: int = 4 << 20) -> None:
        self.host, self.port, self.stateless = host, port, stateless
        self.auth_token = auth_token or None
        self.allow_origins = list(allow_origins)
        self.session_idle = session_idle
        self.max_body_bytes = max_body_bytes


class _State:
    """One MCP session: the protocol state and the tool calls still running in it."""

    __slots__ = ("session", "last_seen", "running")

    def __init__(self, session: Session) -> None:
        self.session = session
        self.last_seen = time.monotonic()
        self.running: dict[Any, _Pending] = {}


_WAITING: Any = object()


class _Pending:
    """A tool call in progress: its result once known, and a future that wakes its POST handler
    (when the result arrives, or for a tick of the slow path)."""

    __slots__ = ("result", "wake", "handle")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.result: Any = _WAITING
        self.wake: asyncio.Future[None] = loop.create_future()
        self.handle: object | None = None  # the catalog's handle, to cancel the call

    def resolve(self, result: Any) -> None:
        if self.result is _WAITING:
            self.result = result
            self.poke()

    def poke(self) -> None:
        if not self.wake.done():
            self.wake.set_result(None)


class _ReaderLoop:
    """What the runtime sees as its loop: asyncio's readers, with a flush after each callback."""

    def __init__(self, loop: asyncio.AbstractEventLoop, after: Callable[[], None]) -> None:
        self._loop, self._after = loop, after

    def add_reader(self, fd: int, callback: Callable[[], object]) -> None:
        after = self._after

        def readable() -> None:
            callback()
            after()

        self._loop.add_reader(fd, readable)

    def remove_reader(self, fd: int) -> bool:
        return self._loop.remove_reader(fd)


class McpHttpApp:
    """The ASGI 3 application. The server is built at lifespan start-up, on the serving loop."""

    def __init__(self, options: Options, settings: Settings,
                 build: Callable[[Options, object], Server] | None = None) -> None:
        self.options, self.settings = options, settings
        self.guard = Guard(settings.host, settings.port, settings.allow_origins, settings.auth_token)
        self._build = build
        self.server: Server | None = None
        self.sessions: dict[str, _State] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._flush_pending = False
        self._expiry: asyncio.TimerHandle | None = None
        self._expiry_at = 0.0
        self._reaper: asyncio.Task[None] | None = None
        self._pristine: Session | None = None

    # ---------------------------------------------------------------------------------- ASGI
    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            path = scope["path"]
            if path == ENDPOINT or path == ENDPOINT + "/":
                await self._endpoint(scope, receive, send)
            elif path == HEALTH:
                await self._health(scope, send)
            else:
                await send_bytes(send, 404, b"Not Found: the MCP endpoint is /mcp\n", TEXT_HEADERS)
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
        loop = self.loop = asyncio.get_running_loop()
        if self._build is None:
            from ..app import build_server

            self._build = build_server  # type: ignore[assignment]
        server = self.server = self._build(self.options, _ReaderLoop(loop, self._kick))  # type: ignore[misc]
        server.runtime.start()  # one COBOL worker ready before the first call
        server.catalog.warm()
        self._pristine = Session(server.model, strict_lifecycle=self.options.strict_lifecycle)
        if not self.settings.stateless and self.settings.session_idle > 0:
            self._reaper = loop.create_task(self._reap_sessions())

    def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for session_id in list(self.sessions):
            self._end_session(session_id)
        if self._expiry is not None:
            self._expiry.cancel()
        if self.server is not None:
            self.server.runtime.close()

    # ---------------------------------------------------------------------------------- runtime pacing
    def _kick(self) -> None:
        """Write the frames queued for the workers at the end of this loop turn."""
        if not self._flush_pending:
            self._flush_pending = True
            self.loop.call_soon(self._flush)  # type: ignore[union-attr]

    def _flush(self) -> None:
        self._flush_pending = False
        runtime = self.server.runtime  # type: ignore[union-attr]
        runtime.flush()
        deadline = runtime.next_deadline()
        if deadline is not None and (self._expiry is None or deadline < self._expiry_at):
            if self._expiry is not None:
                self._expiry.cancel()
            self._expiry_at = deadline
            delay = max(MIN_TIMER_SECONDS, deadline - time.monotonic())
            self._expiry = self.loop.call_later(delay, self._expire)  # type: ignore[union-attr]

    def _expire(self) -> None:
        self._expiry = None
        self.server.runtime.expire()  # type: ignore[union-attr]
        self._flush()

    # ---------------------------------------------------------------------------------- routing
    async def _health(self, scope: dict[str, Any], send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await send_bytes(send, 405, b"", [(b"allow", b"GET, HEAD")])
            return
        await send_bytes(send, 200, b'{"status":"ok"}', JSON_HEADERS)

    async def _endpoint(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        method = scope["method"]
        origin = headers.get(b"origin")
        rejected = self.guard.check(headers.get(b"host"), origin, headers.get(b"authorization"),
                                    token_needed=method != "OPTIONS")  # a CORS preflight carries no credentials
        cors = self._cors(origin, rejected)
        if rejected is not None:
            status, text, extra = rejected
            await send_bytes(send, status, error_body(INVALID_REQUEST, text), JSON_HEADERS + extra + cors)
            return
        if method == "POST":
            await self._post(headers, receive, send, cors)
        elif method == "OPTIONS":
            await send_bytes(send, 204, b"", [*cors, (b"access-control-allow-methods", b"GET, POST, DELETE"),
                                              (b"access-control-allow-headers", ALLOWED_REQUEST_HEADERS),
                                              (b"access-control-max-age", b"600")])
        elif (problem := self._version_problem(headers.get(b"mcp-protocol-version"))) is not None:
            await send_bytes(send, 400, error_body(INVALID_REQUEST, problem[0], None, problem[1]), JSON_HEADERS + cors)
        elif method == "DELETE" and not self.settings.stateless:
            await self._delete(headers, send, cors)
        else:  # GET: this server has nothing to send unprompted, so it offers no standalone stream
            allow = b"POST" if self.settings.stateless else b"POST, DELETE"
            text = ("Method Not Allowed: this server sends no messages outside replies, so it offers no GET stream"
                    if method == "GET" else f"Method Not Allowed: {method}")
            await send_bytes(send, 405, error_body(INVALID_REQUEST, text), [*JSON_HEADERS, (b"allow", allow), *cors])

    def _cors(self, origin: bytes | None, rejected: object) -> Headers:
        if origin is None or (rejected is not None and rejected[0] != 401):  # type: ignore[index]
            return []
        return [(b"access-control-allow-origin", origin), (b"vary", b"origin"), CORS_EXPOSE]

    @staticmethod
    def _version_problem(value: bytes | None) -> tuple[str, dict[str, Any]] | None:
        if value is None:
            return None  # taken as 2025-03-26, which is supported
        version = value.decode("latin-1").strip()
        if version in SUPPORTED_VERSIONS:
            return None
        return (f"Bad Request: unsupported MCP-Protocol-Version {version!r}",
                {"supported": list(SUPPORTED_VERSIONS), "requested": version})

    # ---------------------------------------------------------------------------------- POST
    async def _post(self, headers: dict[bytes, bytes], receive: Receive, send: Send, cors: Headers) -> None:
        content_type = headers.get(b"content-type")
        if content_type is not None and not is_json_type(content_type):
            await send_bytes(send, 415, error_body(INVALID_REQUEST, "Unsupported Media Type: send application/json"),
                             JSON_HEADERS + cors)
            return
        json_ok, sse_ok = accepts(headers.get(b"accept"))
        if not (json_ok or sse_ok):
            await send_bytes(send, 406, error_body(
                INVALID_REQUEST, "Not Acceptable: accept application/json and text/event-stream"), JSON_HEADERS + cors)
            return
        body = await self._body(headers, receive)
        if body is None:
            limit = self.settings.max_body_bytes
            await send_bytes(send, 413, error_body(
                INVALID_REQUEST, f"Payload Too Large: a message may have at most {limit} bytes"), JSON_HEADERS + cors)
            return
        message = jsonrpc.parse(body)
        status, problem = self.classify(headers, message)
        if problem is not None:
            await send_bytes(send, status, problem, JSON_HEADERS + cors)
            return
        if self.settings.stateless:
            await self._serve(self._fresh_session(headers), None, message, Reply(send, json_ok, sse_ok, cors),
                              receive)
            return
        if isinstance(message, Request) and message.method == "initialize":
            await self._initialize(message, Reply(send, json_ok, sse_ok, cors))
            return
        session_id = headers.get(b"mcp-session-id")
        state = self._session(session_id)
        if state is None:
            request_id = message.id if isinstance(message, Request) else None
            if session_id is None:
                await send_bytes(send, 400, error_body(
                    INVALID_REQUEST, "Bad Request: Mcp-Session-Id header is required (send initialize first)",
                    request_id), JSON_HEADERS + cors)
            else:
                await send_bytes(send, 404, error_body(
                    INVALID_REQUEST, "Session not found: it ended or never existed; send initialize again",
                    request_id), JSON_HEADERS + cors)
            return
        extra = [(b"mcp-session-id", session_id), *cors]  # type: ignore[list-item]
        await self._serve(state.session, state, message, Reply(send, json_ok, sse_ok, extra), receive)
        state.last_seen = time.monotonic()

    def classify(self, headers: dict[bytes, bytes], message: jsonrpc.Message) -> tuple[int, bytes | None]:
        """Decide whether this POST is served, and under which protocol era: (status, rejection body).

        Every message here is of the handshake era (2025-11-25 and before), told apart from a later
        era by MCP-Protocol-Version; this is where a request of another era would be routed.
        """
        if isinstance(message, Invalid):
            return 400, error_body(message.code, message.message, message.id)
        if isinstance(message, Ignored) and message.reason != "response":
            return 400, error_body(INVALID_REQUEST, f"Invalid Request: {message.reason}")
        problem = self._version_problem(headers.get(b"mcp-protocol-version"))
        if problem is not None:
            return 400, error_body(INVALID_REQUEST, problem[0], message.id if isinstance(message, Request) else None,
                                   problem[1])
        return 200, None

    async def _body(self, headers: dict[bytes, bytes], receive: Receive) -> bytes | None:
        """The request body, or None when it exceeds the limit."""
        limit = self.settings.max_body_bytes
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            return None
        message = await receive()
        body = message.get("body", b"")
        if not message.get("more_body"):
            return body if len(body) <= limit else None
        chunks, size = [body], len(body)
        while message.get("more_body"):
            message = await receive()
            if message["type"] != "http.request":
                return b""  # the client left; whatever is answered goes nowhere
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    def _fresh_session(self, headers: dict[bytes, bytes]) -> Session:
        # a copy of a pristine session: constructing one serializes the whole tools list again
        session = copy.copy(self._pristine)
        version = headers.get(b"mcp-protocol-version")
        session.protocol_version = version.decode("latin-1").strip() if version is not None else LATEST_VERSION
        return session

    # ---------------------------------------------------------------------------------- sessions
    async def _initialize(self, message: Request, reply: Reply) -> None:
        if len(self.sessions) >= MAX_SESSIONS:
            await send_bytes(reply.send, 503, error_body(
                INVALID_REQUEST, "Service Unavailable: too many open sessions; try again later", message.id),
                [*JSON_HEADERS, (b"retry-after", b"5"), *reply.headers])
            return
        session = copy.copy(self._pristine)
        line = session.handle(message)
        if session.protocol_version is not None:  # a successful handshake opens the session
            session_id = secrets.token_urlsafe(24)
            self.sessions[session_id] = _State(session)
            reply.headers = [(b"mcp-session-id", session_id.encode()), *reply.headers]
        await reply.finish(line)  # type: ignore[arg-type]

    def _session(self, session_id: bytes | None) -> _State | None:
        if session_id is None:
            return None
        key = session_id.decode("latin-1")
        state = self.sessions.get(key)
        if state is None:
            return None
        now = time.monotonic()
        idle = self.settings.session_idle
        if idle > 0 and not state.running and now - state.last_seen > idle:
            self._end_session(key)
            return None
        state.last_seen = now
        return state

    def _end_session(self, session_id: str) -> None:
        state = self.sessions.pop(session_id, None)
        if state is None:
            return
        for request_id in list(state.running):
            self._cancel(state, request_id)

    async def _delete(self, headers: dict[bytes, bytes], send: Send, cors: Headers) -> None:
        session_id = headers.get(b"mcp-session-id")
        if session_id is None:
            await send_bytes(send, 400, error_body(INVALID_REQUEST, "Bad Request: Mcp-Session-Id header is required"),
                             JSON_HEADERS + cors)
            return
        if self._session(session_id) is None:
            await send_bytes(send, 404, error_body(INVALID_REQUEST, "Session not found"), JSON_HEADERS + cors)
            return
        self._end_session(session_id.decode("latin-1"))
        await send_bytes(send, 204, b"", cors)

    async def _reap_sessions(self) -> None:
        idle = self.settings.session_idle
        while True:
            await asyncio.sleep(min(max(idle / 4, 0.05), 30.0))
            now = time.monotonic()
            for session_id, state in list(self.sessions.items()):
                if not state.running and now - state.last_seen > idle:
                    log.debug(f"session {session_id[:8]}... ended after {idle:g} s idle")
                    self._end_session(session_id)

    # ---------------------------------------------------------------------------------- messages
    async def _serve(self, session: Session, state: _State | None, message: jsonrpc.Message, reply: Reply,
                     receive: Receive) -> None:
        try:
            outcome = session.handle(message)
        except Exception:
            log.exception("unexpected fault while handling a message")
            request_id = message.id if isinstance(message, Request) else None
            outcome = jsonrpc.error_line(request_id, jsonrpc.INTERNAL_ERROR,
                                         "Internal error while handling the message")
        if not isinstance(message, Request):
            if isinstance(outcome, Cancel) and state is not None:
                self._cancel(state, outcome.request_id)
            await send_bytes(reply.send, 202, b"", reply.headers)
            return
        if isinstance(outcome, ToolCall):
            await self._call(session, state, outcome, reply, receive)
        else:
            await reply.finish(outcome)  # type: ignore[arg-type]

    async def _call(self, session: Session, state: _State | None, call: ToolCall, reply: Reply,
                    receive: Receive) -> None:
        pending = _Pending(self.loop)  # type: ignore[arg-type]
        pending.handle = self.server.catalog.call(call.name, call.arguments, pending.resolve)  # type: ignore[union-attr]
        if pending.result is _WAITING:
            self._kick()
            if state is not None:
                state.running[call.request_id] = pending
            try:
                token = (call.meta or {}).get("progressToken") if reply.sse_ok else None
                if isinstance(token, bool) or not isinstance(token, (str, int)):
                    token = None
                if token is None and state is not None:
                    await pending.wake
                elif not await self._wait_long(pending, token, reply, receive, state is None):
                    return  # the client left and the call was cancelled
            finally:
                if state is not None and state.running.get(call.request_id) is pending:
                    del state.running[call.request_id]
        result = pending.result
        if result is CANCELLED:
            await reply.finish(None)
        elif isinstance(result, BaseException):
            await reply.finish(session.internal_error(call.request_id, f"the tool failed ({type(result).__name__})"))
        else:
            await reply.finish(session.tool_result(call, result))

    async def _wait_long(self, pending: _Pending, token: str | int | None, reply: Reply, receive: Receive,
                         cancel_on_disconnect: bool) -> bool:
        """Wait for a call, sending progress each tick when asked to. In stateless mode a client that
        disconnects cancels its call (there is no session to cancel it through). False: it left."""
        loop = self.loop
        watcher: asyncio.Task[Any] | None = None
        ticks = 0
        try:
            while True:
                timer = loop.call_later(TICK_SECONDS, pending.poke)  # type: ignore[union-attr]
                await pending.wake
                timer.cancel()
                if pending.result is not _WAITING:
                    return True
                pending.wake = loop.create_future()  # type: ignore[union-attr]
                if watcher is not None and watcher.done():
                    if pending.handle is not None:
                        self.server.catalog.cancel(pending.handle)  # type: ignore[union-attr, arg-type]
                        self._kick()
                    return False
                if cancel_on_disconnect and watcher is None:
                    watcher = loop.create_task(receive())  # type: ignore[union-attr]
                    watcher.add_done_callback(lambda _: pending.poke())
                if token is not None:
                    ticks += 1
                    if not reply.streaming:
                        await reply.start_stream()
                    await reply.event(jsonrpc.notification_line("notifications/progress", {
                        "progressToken": token, "progress": ticks,
                        "message": f"COBOL program running for {ticks * TICK_SECONDS:g} s"}))
        finally:
            if watcher is not None and not watcher.done():
                watcher.cancel()

    def _cancel(self, state: _State, request_id: Any) -> None:
        pending = state.running.pop(request_id, None)
        if pending is None:
            return
        if pending.handle is not None:
            self.server.catalog.cancel(pending.handle)  # type: ignore[union-attr, arg-type]
            self._kick()
        pending.resolve(CANCELLED)
